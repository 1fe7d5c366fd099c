import { afterEach, describe, expect, it, vi } from "vitest";
import { resetTokenSecretCache } from "../../../lambdas/auth/secret.ts";
import { mintToken } from "../../../lambdas/auth/tokens.ts";
import { authorizeConnect, decideConnect, handler } from "../../../lambdas/ws/authorizer.ts";

const secret = "s".repeat(32);
const now = new Date("2026-01-01T00:00:00Z");
const methodArn = "arn:aws:execute-api:us-east-1:123456789012:abcdef123/prod/$connect";

const connectEvent = (token?: string) => ({
  methodArn,
  queryStringParameters: token === undefined ? null : { token },
});

const effectOf = (token?: string, at = now) =>
  authorizeConnect(connectEvent(token), secret, at).policyDocument.Statement[0];

describe("WebSocket $connect authorizer", () => {
  it("allows a run token for this $connect only, with {scope, run_id} as context", () => {
    const token = mintToken(secret, { kind: "run", run_id: "run-1" }, 60, now);
    const result = authorizeConnect(connectEvent(token), secret, now);
    expect(result.policyDocument.Statement).toEqual([
      { Action: "execute-api:Invoke", Effect: "Allow", Resource: methodArn },
    ]);
    expect(result.principalId).toBe("run:run-1");
    expect(result.context).toEqual({ scope: "run", run_id: "run-1" });
  });

  it("allows an operator token with scope operator and no run", () => {
    const result = authorizeConnect(
      connectEvent(mintToken(secret, { kind: "operator" }, 60, now)),
      secret,
      now,
    );
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: "Allow", Resource: methodArn });
    expect(result.context).toEqual({ scope: "operator" });
  });

  it("passes only primitive context values (API Gateway drops objects and arrays)", () => {
    const result = authorizeConnect(
      connectEvent(mintToken(secret, { kind: "run", run_id: "r" }, 60, now)),
      secret,
      now,
    );
    for (const value of Object.values(result.context ?? {})) {
      expect(["string", "number", "boolean"]).toContain(typeof value);
    }
  });

  it("denies a request without a token, and without any query string", () => {
    expect(authorizeConnect({ methodArn, queryStringParameters: null }, secret, now)).toEqual({
      principalId: "anonymous",
      policyDocument: {
        Version: "2012-10-17",
        Statement: [{ Action: "execute-api:Invoke", Effect: "Deny", Resource: methodArn }],
      },
    });
    expect(effectOf("")?.Effect).toBe("Deny");
    expect(decideConnect(undefined, secret, now)).toMatchObject({ effect: "Deny", reason: /missing/ });
  });

  it.each(["abc", "a.b.c", "payload.", "<script>.x"])("denies the malformed token %j", (token) => {
    expect(effectOf(token)?.Effect).toBe("Deny");
  });

  it("denies an expired token", () => {
    const token = mintToken(secret, { kind: "operator" }, 60, now);
    expect(effectOf(token, new Date(now.getTime() + 59_000))?.Effect).toBe("Allow");
    expect(effectOf(token, new Date(now.getTime() + 61_000))?.Effect).toBe("Deny");
    expect(decideConnect(token, secret, new Date(now.getTime() + 61_000))).toMatchObject({
      reason: /expired/,
    });
  });

  it("denies a token signed with another secret", () => {
    const token = mintToken("t".repeat(32), { kind: "operator" }, 60, now);
    expect(decideConnect(token, secret, now)).toMatchObject({ effect: "Deny", reason: /signature/ });
  });

  it("denies a run token whose payload was rewritten to operator", () => {
    const [, signature] = mintToken(secret, { kind: "run", run_id: "run-1" }, 60, now).split(".");
    const payload = Buffer.from(JSON.stringify({ scope: { kind: "operator" }, exp: 9e9 })).toString(
      "base64url",
    );
    expect(effectOf(`${payload}.${signature}`)?.Effect).toBe("Deny");
  });

  describe("handler", () => {
    afterEach(() => {
      vi.unstubAllEnvs();
      resetTokenSecretCache();
    });

    it("verifies with the configured secret", async () => {
      vi.stubEnv("RUNS_TABLE", "runs");
      vi.stubEnv("DOCUMENTS_BUCKET", "documents");
      vi.stubEnv("ARTIFACTS_BUCKET", "artifacts");
      vi.stubEnv("REWOO_TOKEN_SECRET", secret);
      const event = {
        type: "REQUEST" as const,
        methodArn,
        queryStringParameters: { token: mintToken(secret, { kind: "run", run_id: "run-9" }, 60) },
      };
      const allowed = await handler(event as never);
      expect(allowed.policyDocument.Statement[0]?.Effect).toBe("Allow");
      expect(allowed.context).toEqual({ scope: "run", run_id: "run-9" });
      const denied = await handler({ ...event, queryStringParameters: { token: "forged.token" } } as never);
      expect(denied.policyDocument.Statement[0]?.Effect).toBe("Deny");
    });
  });
});
