import { afterEach, describe, expect, it, vi } from "vitest";
import { resetTokenSecretCache, type TokenSecretConfig } from "../../../lambdas/auth/secret.ts";
import { mintToken, type TokenKeyring } from "../../../lambdas/auth/tokens.ts";
import { authorizeConnect, decideConnect, handler } from "../../../lambdas/ws/authorizer.ts";

const KEY = {
  customer: "customer-key-0123456789abcdef0123456789",
  run: "run-key-0123456789abcdef0123456789abcdef",
  operator: "operator-key-0123456789abcdef0123456789",
};
const keys: TokenKeyring = {
  customer: { current: KEY.customer },
  run: { current: KEY.run },
  operator: { current: KEY.operator },
};
/** The authorizer's configuration: the run and operator keys only, as the stack grants it. */
const config: TokenSecretConfig = {
  region: "us-east-1",
  api: {
    tokens: {
      customer: { maxLifetimeSeconds: 3600 },
      run: { secret: KEY.run, maxLifetimeSeconds: 3600 },
      operator: { secret: KEY.operator, maxLifetimeSeconds: 3600 },
    },
  },
};
const now = new Date("2026-01-01T00:00:00Z");
const methodArn = "arn:aws:execute-api:us-east-1:123456789012:abcdef123/prod/$connect";

const connectEvent = (token?: string) => ({
  methodArn,
  queryStringParameters: token === undefined ? null : { token },
});

const effectOf = async (token?: string, at = now) =>
  (await authorizeConnect(connectEvent(token), config, { now: at })).policyDocument.Statement[0];

describe("WebSocket $connect authorizer", () => {
  it("allows a run token for this $connect only, with {scope, run_id} as context", async () => {
    const token = mintToken(keys, { kind: "run", run_id: "run-1" }, 60, now);
    const result = await authorizeConnect(connectEvent(token), config, { now });
    expect(result.policyDocument.Statement).toEqual([
      { Action: "execute-api:Invoke", Effect: "Allow", Resource: methodArn },
    ]);
    expect(result.principalId).toBe("run:run-1");
    expect(result.context).toEqual({ scope: "run", run_id: "run-1" });
  });

  it("allows an operator token with scope operator and no run", async () => {
    const result = await authorizeConnect(
      connectEvent(mintToken(keys, { kind: "operator" }, 60, now)),
      config,
      { now },
    );
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: "Allow", Resource: methodArn });
    expect(result.context).toEqual({ scope: "operator" });
  });

  it("passes only primitive context values (API Gateway drops objects and arrays)", async () => {
    const result = await authorizeConnect(
      connectEvent(mintToken(keys, { kind: "run", run_id: "r" }, 60, now)),
      config,
      { now },
    );
    for (const value of Object.values(result.context ?? {})) {
      expect(["string", "number", "boolean"]).toContain(typeof value);
    }
  });

  it("denies a customer token, naming the audience, without needing the customer key", async () => {
    const token = mintToken(keys, { kind: "customer", customer_id: "cust_alice" }, 60, now);
    expect(await decideConnect(token, config, { now })).toEqual({
      effect: "Deny",
      reason: "wrong audience: a customer token, expected run or operator",
    });
  });

  it("denies a request without a token, and without any query string", async () => {
    expect(await authorizeConnect({ methodArn, queryStringParameters: null }, config, { now })).toEqual({
      principalId: "anonymous",
      policyDocument: {
        Version: "2012-10-17",
        Statement: [{ Action: "execute-api:Invoke", Effect: "Deny", Resource: methodArn }],
      },
    });
    expect((await effectOf(""))?.Effect).toBe("Deny");
    expect(await decideConnect(undefined, config, { now })).toMatchObject({
      effect: "Deny",
      reason: /missing/,
    });
  });

  it.each(["abc", "a.b", "a.b.c", "payload.signature", "<script>.x.y"])(
    "denies the malformed token %j",
    async (token) => {
      expect((await effectOf(token))?.Effect).toBe("Deny");
    },
  );

  it("denies an expired token", async () => {
    const token = mintToken(keys, { kind: "operator" }, 60, now);
    expect((await effectOf(token, new Date(now.getTime() + 59_000)))?.Effect).toBe("Allow");
    expect((await effectOf(token, new Date(now.getTime() + 61_000)))?.Effect).toBe("Deny");
    expect(await decideConnect(token, config, { now: new Date(now.getTime() + 61_000) })).toMatchObject({
      reason: /expired/,
    });
  });

  it("denies a token living longer than its audience's maximum", async () => {
    const token = mintToken(keys, { kind: "operator" }, 3601, now);
    expect(await decideConnect(token, config, { now })).toEqual({
      effect: "Deny",
      reason: "token lifetime 3601 s is above the operator maximum of 3600 s",
    });
  });

  it("denies an operator token signed with another audience's key (the customer key the bank holds)", async () => {
    const forged = mintToken({ operator: { current: KEY.customer } }, { kind: "operator" }, 60, now);
    expect(await decideConnect(forged, config, { now })).toMatchObject({
      effect: "Deny",
      reason: /unknown key id/,
    });
  });

  it("denies a run token whose claims were rewritten to operator", async () => {
    const [header, , signature] = mintToken(keys, { kind: "run", run_id: "run-1" }, 60, now).split(".");
    const claims = Buffer.from(JSON.stringify({ aud: "operator", iat: 1767225600, exp: 9e9 })).toString(
      "base64url",
    );
    expect((await effectOf(`${header}.${claims}.${signature}`))?.Effect).toBe("Deny");
  });

  describe("handler", () => {
    afterEach(() => {
      vi.unstubAllEnvs();
      resetTokenSecretCache();
    });

    it("verifies with the configured run and operator keys", async () => {
      vi.stubEnv("RUNS_TABLE", "runs");
      vi.stubEnv("DOCUMENTS_BUCKET", "documents");
      vi.stubEnv("ARTIFACTS_BUCKET", "artifacts");
      vi.stubEnv("REWOO_RUN_TOKEN_SECRET", KEY.run);
      vi.stubEnv("REWOO_OPERATOR_TOKEN_SECRET", KEY.operator);
      const event = {
        type: "REQUEST" as const,
        methodArn,
        queryStringParameters: { token: mintToken(keys, { kind: "run", run_id: "run-9" }, 60) },
      };
      const allowed = await handler(event as never);
      expect(allowed.policyDocument.Statement[0]?.Effect).toBe("Allow");
      expect(allowed.context).toEqual({ scope: "run", run_id: "run-9" });
      const denied = await handler({ ...event, queryStringParameters: { token: "forged.to.ken" } } as never);
      expect(denied.policyDocument.Statement[0]?.Effect).toBe("Deny");
    });
  });
});
