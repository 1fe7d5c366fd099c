// The token keys of each audience: configured, or read from that audience's Secrets Manager secret
// (AWSCURRENT: the current key, AWSPREVIOUS: the previous one), cached, and re-read once when a token
// names a key id the cache does not know (a rotation not picked up yet).
import {
  GetSecretValueCommand,
  type GetSecretValueCommandInput,
  SecretsManagerClient,
} from "@aws-sdk/client-secrets-manager";
import { mockClient } from "aws-sdk-client-mock";
import { allCustomMatcher } from "aws-sdk-client-mock-vitest";
import type {} from "aws-sdk-client-mock-vitest/extend";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  KEY_REFRESH_INTERVAL_MS,
  loadTokenKeys,
  resetTokenSecretCache,
  type TokenKeySettings,
  type TokenSecretConfig,
  TokenSecretUnavailableError,
  verifyWithKeys,
} from "../../../lambdas/auth/secret.ts";
import { InvalidTokenError, keyId, mintToken } from "../../../lambdas/auth/tokens.ts";

expect.extend(allCustomMatcher);

const secrets = mockClient(SecretsManagerClient);
const ARN = {
  customer: "arn:aws:secretsmanager:us-east-1:111122223333:secret:rewoo-customer-AbCdEf",
  run: "arn:aws:secretsmanager:us-east-1:111122223333:secret:rewoo-run-AbCdEf",
  operator: "arn:aws:secretsmanager:us-east-1:111122223333:secret:rewoo-operator-AbCdEf",
};
const KEY = {
  customer: "customer-key-0123456789abcdef0123456789",
  run: "run-key-0123456789abcdef0123456789abcdef",
  operator: "operator-key-0123456789abcdef0123456789",
};
const OLD_RUN = "old-run-key-0123456789abcdef0123456789ab";

const settings = (overrides: Partial<TokenKeySettings> = {}): TokenKeySettings => ({
  maxLifetimeSeconds: 3600,
  ...overrides,
});
const config = (tokens: Partial<TokenSecretConfig["api"]["tokens"]> = {}): TokenSecretConfig => ({
  region: "us-east-1",
  api: {
    tokens: {
      customer: settings({ secretArn: ARN.customer }),
      run: settings({ secretArn: ARN.run }),
      operator: settings({ secretArn: ARN.operator }),
      ...tokens,
    },
  },
});

const notFound = () =>
  Object.assign(
    new Error("Secrets Manager can't find the specified secret value for staging label: AWSPREVIOUS"),
    {
      name: "ResourceNotFoundException",
    },
  );

/** Secrets Manager holding `versions` per ARN: {AWSCURRENT, AWSPREVIOUS?}; what it is asked is recorded. */
function holding(versions: Record<string, { AWSCURRENT: string; AWSPREVIOUS?: string }>) {
  secrets.on(GetSecretValueCommand).callsFake((input: GetSecretValueCommandInput) => {
    const secret = versions[input.SecretId ?? ""];
    const value = secret?.[(input.VersionStage ?? "AWSCURRENT") as "AWSCURRENT" | "AWSPREVIOUS"];
    if (value === undefined) throw notFound();
    return { SecretString: value };
  });
}

const calls = () =>
  secrets.commandCalls(GetSecretValueCommand).map((call) => {
    const { SecretId, VersionStage } = call.args[0].input;
    return `${SecretId?.split(":").pop()} ${VersionStage ?? "AWSCURRENT"}`;
  });

beforeEach(() => {
  secrets.reset();
  resetTokenSecretCache();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("loadTokenKeys", () => {
  it("uses the configured keys, previous included, without calling Secrets Manager", async () => {
    const configured = config({
      run: settings({ secret: KEY.run, previousSecret: OLD_RUN, secretArn: ARN.run }),
    });
    await expect(loadTokenKeys(configured, ["run"])).resolves.toEqual({
      run: { current: KEY.run, previous: OLD_RUN },
    });
    expect(secrets).not.toHaveReceivedCommand(GetSecretValueCommand);
  });

  it("reads only the audiences asked for: the current and the previous version of each secret, once per cold start", async () => {
    holding({
      [ARN.run]: { AWSCURRENT: KEY.run, AWSPREVIOUS: OLD_RUN },
      [ARN.operator]: { AWSCURRENT: KEY.operator },
    });
    const first = await loadTokenKeys(config(), ["run", "operator"]);
    const second = await loadTokenKeys(config(), ["run", "operator"]);
    expect(first).toEqual({
      run: { current: KEY.run, previous: OLD_RUN },
      operator: { current: KEY.operator },
    });
    expect(second).toEqual(first);
    expect(calls().sort()).toEqual([
      "rewoo-operator-AbCdEf AWSCURRENT",
      "rewoo-operator-AbCdEf AWSPREVIOUS",
      "rewoo-run-AbCdEf AWSCURRENT",
      "rewoo-run-AbCdEf AWSPREVIOUS",
    ]);
  });

  it("treats a secret never rotated (no AWSPREVIOUS) as having no previous key, and remembers that", async () => {
    holding({ [ARN.customer]: { AWSCURRENT: KEY.customer } });
    await expect(loadTokenKeys(config(), ["customer"])).resolves.toEqual({
      customer: { current: KEY.customer, previous: undefined },
    });
    await loadTokenKeys(config(), ["customer"]);
    expect(calls()).toEqual(["rewoo-customer-AbCdEf AWSCURRENT", "rewoo-customer-AbCdEf AWSPREVIOUS"]);
  });

  it("accepts a JSON secret with a `secret` field", async () => {
    holding({ [ARN.run]: { AWSCURRENT: JSON.stringify({ secret: KEY.run }) } });
    await expect(loadTokenKeys(config(), ["run"])).resolves.toEqual({
      run: { current: KEY.run, previous: undefined },
    });
  });

  it("does not memoize a failure: the next call tries again", async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" }))
      .resolves({ SecretString: KEY.run });
    await expect(loadTokenKeys(config(), ["run"])).rejects.toThrow(
      /cannot read the run token secret .*ThrottlingException/,
    );
    await expect(loadTokenKeys(config(), ["run"])).resolves.toMatchObject({ run: { current: KEY.run } });
  });

  it("refuses a short key without echoing it", async () => {
    holding({ [ARN.run]: { AWSCURRENT: "short-secret" } });
    const error = await loadTokenKeys(config(), ["run"]).catch((e: Error) => e);
    expect(String(error)).toBe(
      `TokenSecretUnavailableError: the run token secret ${ARN.run} must be a string of at least 32 characters`,
    );
  });

  it("fails with TokenSecretUnavailableError (the API's 500 server_misconfigured) when Secrets Manager refuses", async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejects(Object.assign(new Error("not allowed"), { name: "AccessDeniedException" }));
    const error = await loadTokenKeys(config(), ["operator"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenSecretUnavailableError);
    expect(String(error)).toMatch(
      new RegExp(
        `^TokenSecretUnavailableError: cannot read the operator token secret ${ARN.operator}( \\(AWSPREVIOUS\\))?: AccessDeniedException: not allowed$`,
      ),
    );
  });

  it("explains what to configure when an audience has no key at all", async () => {
    await expect(loadTokenKeys(config({ customer: settings() }), ["customer"])).rejects.toThrow(
      "no customer token key configured: set REWOO_CUSTOMER_TOKEN_SECRET (local) or REWOO_CUSTOMER_TOKEN_SECRET_ARN (Secrets Manager)",
    );
  });

  it("refuses two audiences holding the same key (whoever holds it could mint both)", async () => {
    holding({ [ARN.run]: { AWSCURRENT: KEY.run }, [ARN.operator]: { AWSCURRENT: KEY.run } });
    await expect(loadTokenKeys(config(), ["run", "operator"])).rejects.toThrow(
      "the run and operator token keys are the same key: give each audience its own secret",
    );
  });
});

describe("verifyWithKeys", () => {
  const now = new Date("2026-03-01T10:00:00Z");

  it("verifies with the accepted audiences' keys and maximum lifetimes", async () => {
    const configured = config({ customer: settings({ secret: KEY.customer, maxLifetimeSeconds: 600 }) });
    const short = mintToken(
      { customer: { current: KEY.customer } },
      { kind: "customer", customer_id: "c1" },
      600,
      now,
    );
    const long = mintToken(
      { customer: { current: KEY.customer } },
      { kind: "customer", customer_id: "c1" },
      601,
      now,
    );
    await expect(verifyWithKeys(configured, short, { accept: ["customer"], now })).resolves.toMatchObject({
      scope: { kind: "customer", customer_id: "c1" },
    });
    await expect(verifyWithKeys(configured, long, { accept: ["customer"], now })).rejects.toThrow(
      "token lifetime 601 s is above the customer maximum of 600 s",
    );
  });

  it("picks up a rotation it has not read yet when a token names the new key, at most once a minute", async () => {
    vi.useFakeTimers({ now, toFake: ["Date"] });
    const versions = { [ARN.run]: { AWSCURRENT: OLD_RUN } as { AWSCURRENT: string; AWSPREVIOUS?: string } };
    holding(versions);
    const oldToken = mintToken({ run: { current: OLD_RUN } }, { kind: "run", run_id: "r1" }, 600, now);
    await expect(verifyWithKeys(config(), oldToken, { accept: ["run"], now })).resolves.toMatchObject({
      kid: keyId(OLD_RUN),
    });
    expect(calls()).toHaveLength(2);

    // put-secret-value: the new key becomes AWSCURRENT, the old one AWSPREVIOUS; a minter has read it already.
    versions[ARN.run] = { AWSCURRENT: KEY.run, AWSPREVIOUS: OLD_RUN };
    const newToken = mintToken({ run: { current: KEY.run } }, { kind: "run", run_id: "r2" }, 600, now);
    await expect(verifyWithKeys(config(), newToken, { accept: ["run"], now })).resolves.toMatchObject({
      kid: keyId(KEY.run),
    });
    await expect(verifyWithKeys(config(), oldToken, { accept: ["run"], now })).resolves.toMatchObject({
      kid: keyId(OLD_RUN),
    });
    expect(calls()).toHaveLength(4);

    // Forged key ids do not make it read again within the interval…
    const forged = mintToken(
      { run: { current: "forged-key-0123456789abcdef0123456789" } },
      { kind: "run", run_id: "r3" },
      600,
      now,
    );
    const error = await verifyWithKeys(config(), forged, { accept: ["run"], now }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect((error as InvalidTokenError).reason).toBe("unknown_key");
    expect(calls()).toHaveLength(4);
    // …and once after it.
    vi.setSystemTime(now.getTime() + KEY_REFRESH_INTERVAL_MS + 1);
    await expect(verifyWithKeys(config(), forged, { accept: ["run"], now })).rejects.toThrow(
      /unknown key id/,
    );
    expect(calls()).toHaveLength(6);
  });

  it("never reads Secrets Manager for configured keys, nor for a token of another audience", async () => {
    const configured = config({
      run: settings({ secret: KEY.run }),
      operator: settings({ secret: KEY.operator }),
    });
    const forged = mintToken({ run: { current: KEY.operator } }, { kind: "run", run_id: "r1" }, 60, now);
    await expect(verifyWithKeys(configured, forged, { accept: ["run", "operator"], now })).rejects.toThrow(
      /unknown key id/,
    );
    const customer = mintToken(
      { customer: { current: KEY.customer } },
      { kind: "customer", customer_id: "c" },
      60,
      now,
    );
    await expect(verifyWithKeys(configured, customer, { accept: ["run", "operator"], now })).rejects.toThrow(
      "wrong audience: a customer token, expected run or operator",
    );
    expect(secrets).not.toHaveReceivedCommand(GetSecretValueCommand);
  });
});
