// Secrets read through Powertools Parameters: cached for a while, a failure or a refused value never
// cached, and the value itself never in an error.
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { mockClient } from "aws-sdk-client-mock";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  optionalSecretReader,
  SECRET_MAX_AGE_SECONDS,
  SecretUnavailableError,
  secretReader,
} from "../../../lambdas/secrets/reader.ts";

const secrets = mockClient(SecretsManagerClient);
const ARN = "arn:aws:secretsmanager:us-east-1:1:secret:lender";

const lenderToken = (options: { minLength?: number; maxAgeSeconds?: number } = {}) =>
  secretReader({
    secretId: ARN,
    what: "the lender API token",
    client: new SecretsManagerClient({ region: "us-east-1" }),
    ...options,
  });

beforeEach(() => {
  secrets.reset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("secretReader", () => {
  it("reads the secret once and reuses it for every call within its maximum age", async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: "lender-bearer-token" });
    const read = lenderToken();
    expect(await read()).toBe("lender-bearer-token");
    expect(await read()).toBe("lender-bearer-token");
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(secrets.commandCalls(GetSecretValueCommand)[0]?.args[0].input).toEqual({ SecretId: ARN });
  });

  it("shares one read between concurrent first calls", async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: "lender-bearer-token" });
    const read = lenderToken();
    expect(await Promise.all([read(), read(), read()])).toEqual([
      "lender-bearer-token",
      "lender-bearer-token",
      "lender-bearer-token",
    ]);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it("reads a rotated value once the maximum age has passed", async () => {
    vi.useFakeTimers({ now: new Date("2025-03-01T10:00:00Z"), toFake: ["Date"] });
    secrets
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: "old-token" })
      .resolves({ SecretString: "new-token" });
    const read = lenderToken();
    expect(await read()).toBe("old-token");
    vi.setSystemTime(new Date(Date.now() + (SECRET_MAX_AGE_SECONDS - 60) * 1000));
    expect(await read()).toBe("old-token");
    vi.setSystemTime(new Date(Date.now() + 120 * 1000));
    expect(await read()).toBe("new-token");
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it("tries again after a failed read, naming the SDK's error and keeping its status", async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(
        Object.assign(new Error("throttled"), {
          name: "ThrottlingException",
          $metadata: { httpStatusCode: 400 },
        }),
      )
      .resolves({ SecretString: "lender-bearer-token" });
    const read = lenderToken();
    const error = await read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretUnavailableError);
    expect((error as Error).message).toBe(
      `cannot read the lender API token ${ARN}: ThrottlingException: throttled`,
    );
    expect((error as SecretUnavailableError).$metadata).toEqual({ httpStatusCode: 400 });
    expect(await read()).toBe("lender-bearer-token");
  });

  it("refuses a short value without echoing it, and reads again at the next call", async () => {
    secrets
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: "short-secret" })
      .resolves({ SecretString: "k".repeat(40) });
    const read = lenderToken({ minLength: 32 });
    const error = await read().catch((e: unknown) => e);
    expect(String(error)).toBe(
      `SecretUnavailableError: the lender API token ${ARN} must be a string of at least 32 characters`,
    );
    expect(String(error)).not.toContain("short-secret");
    expect(await read()).toBe("k".repeat(40));
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('accepts a JSON secret with a "secret" field and refuses a binary one', async () => {
    secrets.on(GetSecretValueCommand).resolvesOnce({ SecretString: JSON.stringify({ secret: "from-json" }) });
    expect(await lenderToken()()).toBe("from-json");
    secrets.reset();
    secrets.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1, 2, 3]) });
    await expect(lenderToken()()).rejects.toThrow(/must be a string of at least 1 characters/);
  });

  it("uses the default client of the given region when none is passed", async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: "lender-bearer-token" });
    const read = secretReader({ secretId: ARN, what: "the lender API token", region: "eu-west-1" });
    expect(await read()).toBe("lender-bearer-token");
    expect(await secrets.commandCalls(GetSecretValueCommand)[0]?.thisValue.config.region()).toBe("eu-west-1");
  });

  it("reads again at once when asked to refresh, and caches what it read", async () => {
    secrets
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: "old-token" })
      .resolves({ SecretString: "new-token" });
    const read = lenderToken();
    expect(await read()).toBe("old-token");
    expect(await read({ refresh: true })).toBe("new-token");
    expect(await read()).toBe("new-token");
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });
});

describe("optionalSecretReader", () => {
  const previous = (maxAgeSeconds?: number) =>
    optionalSecretReader({
      secretId: ARN,
      what: "the token key",
      versionStage: "AWSPREVIOUS",
      client: new SecretsManagerClient({ region: "us-east-1" }),
      ...(maxAgeSeconds === undefined ? {} : { maxAgeSeconds }),
    });
  const notFound = Object.assign(new Error("no version with staging label AWSPREVIOUS"), {
    name: "ResourceNotFoundException",
  });

  it("reads the version by its staging label", async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: "previous-value" });
    expect(await previous()()).toBe("previous-value");
    expect(secrets.commandCalls(GetSecretValueCommand)[0]?.args[0].input).toEqual({
      SecretId: ARN,
      VersionStage: "AWSPREVIOUS",
    });
  });

  it("reads a missing version as undefined, remembers that for the maximum age, then asks again", async () => {
    vi.useFakeTimers({ now: new Date("2025-03-01T10:00:00Z"), toFake: ["Date"] });
    secrets.on(GetSecretValueCommand).rejectsOnce(notFound).resolves({ SecretString: "previous-value" });
    const read = previous(600);
    expect(await read()).toBeUndefined();
    expect(await read()).toBeUndefined();
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    vi.setSystemTime(new Date(Date.now() + 601 * 1000));
    expect(await read()).toBe("previous-value");
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it("still fails on any other error, naming the version", async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejects(Object.assign(new Error("not allowed"), { name: "AccessDeniedException" }));
    await expect(previous()()).rejects.toThrow(
      `cannot read the token key ${ARN} (AWSPREVIOUS): AccessDeniedException: not allowed`,
    );
  });

  it("leaves a missing version of the required reader an error", async () => {
    secrets.on(GetSecretValueCommand).rejects(notFound);
    await expect(lenderToken()()).rejects.toThrow(/ResourceNotFoundException/);
  });
});
