import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { mockClient } from "aws-sdk-client-mock";
import { allCustomMatcher } from "aws-sdk-client-mock-vitest";
import type {} from "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import {
  loadTokenSecret,
  resetTokenSecretCache,
  TokenSecretUnavailableError,
} from "../../../lambdas/auth/secret.ts";

expect.extend(allCustomMatcher);

const secrets = mockClient(SecretsManagerClient);
const SECRET = "k".repeat(48);
const ARN = "arn:aws:secretsmanager:us-east-1:111122223333:secret:rewoo-token-AbCdEf";
const config = (api: { tokenSecret?: string; tokenSecretArn?: string }) => ({
  region: "us-east-1",
  api: api as never,
});

beforeEach(() => {
  secrets.reset();
  resetTokenSecretCache();
});

describe("loadTokenSecret", () => {
  it("uses the configured secret without calling Secrets Manager", async () => {
    await expect(loadTokenSecret(config({ tokenSecret: SECRET, tokenSecretArn: ARN }))).resolves.toBe(SECRET);
    expect(secrets).not.toHaveReceivedCommand(GetSecretValueCommand);
  });

  it("fetches the secret from Secrets Manager once per cold start", async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: SECRET });
    const first = await loadTokenSecret(config({ tokenSecretArn: ARN }));
    const second = await loadTokenSecret(config({ tokenSecretArn: ARN }));
    expect([first, second]).toEqual([SECRET, SECRET]);
    expect(secrets).toHaveReceivedCommandExactlyOnceWith(GetSecretValueCommand, { SecretId: ARN });
  });

  it("accepts a JSON secret with a `secret` field", async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ secret: SECRET }) });
    await expect(loadTokenSecret(config({ tokenSecretArn: ARN }))).resolves.toBe(SECRET);
  });

  it("does not memoize a failure: the next call tries again", async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" }))
      .resolves({ SecretString: SECRET });
    await expect(loadTokenSecret(config({ tokenSecretArn: ARN }))).rejects.toThrow(
      /cannot read the token secret .*ThrottlingException/,
    );
    await expect(loadTokenSecret(config({ tokenSecretArn: ARN }))).resolves.toBe(SECRET);
  });

  it("refuses a short secret without echoing it", async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: "short-secret" });
    const error = await loadTokenSecret(config({ tokenSecretArn: ARN })).catch((e: Error) => e);
    expect(String(error)).toMatch(/at least 32 characters/);
    expect(String(error)).not.toContain("short-secret");
  });

  it("fails with TokenSecretUnavailableError (the API's 500 server_misconfigured) when Secrets Manager refuses", async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejects(Object.assign(new Error("not allowed"), { name: "AccessDeniedException" }));
    const error = await loadTokenSecret(config({ tokenSecretArn: ARN })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenSecretUnavailableError);
    expect(String(error)).toBe(
      `TokenSecretUnavailableError: cannot read the token secret ${ARN}: AccessDeniedException: not allowed`,
    );
  });

  it("explains what to configure when there is no secret at all", async () => {
    await expect(loadTokenSecret(config({}))).rejects.toThrow(/REWOO_TOKEN_SECRET.*REWOO_TOKEN_SECRET_ARN/);
  });
});
