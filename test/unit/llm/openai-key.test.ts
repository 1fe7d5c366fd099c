// The OpenAI API key read from Secrets Manager (OPENAI_API_KEY_SECRET_ARN) through Powertools
// Parameters: sent as the bearer key, cached between calls, and its failures named.
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { mockClient } from "aws-sdk-client-mock";
import { allCustomMatcher } from "aws-sdk-client-mock-vitest";
import type {} from "aws-sdk-client-mock-vitest/extend";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLlmProviders, OpenAiApiKeyUnavailableError } from "../../../lambdas/llm/index.ts";
import { openAiKeyFromSecret } from "../../../lambdas/llm/openai-key.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import { isTransient } from "../../../lambdas/runtime/transient.ts";
import { type ReplayServer, startReplayServer, wireFixture } from "./wire.ts";

expect.extend(allCustomMatcher);

const secrets = mockClient(SecretsManagerClient);
const arn = (name: string) => `arn:aws:secretsmanager:us-east-1:123456789012:secret:${name}-AbCdEf`;

let server: ReplayServer;
beforeAll(async () => {
  process.env.AWS_REGION ??= "us-east-1";
  server = await startReplayServer("http1");
});
afterAll(() => server?.close());
beforeEach(() => secrets.reset());

describe("the OpenAI API key from Secrets Manager", () => {
  it("is read from the secret the environment names and sent as the bearer key, once for many calls", async () => {
    const secretArn = arn("rewoo/openai-key-bearer");
    secrets
      .on(GetSecretValueCommand, { SecretId: secretArn })
      .resolves({ SecretString: "sk-from-secrets-manager\n" });
    const config = parseConfig({
      RUNS_TABLE: "runs",
      DOCUMENTS_BUCKET: "documents",
      ARTIFACTS_BUCKET: "artifacts",
      REWOO_LLM_PROVIDER: "openai",
      OPENAI_BASE_URL: `${server.origin}/v1`,
      OPENAI_API_KEY_SECRET_ARN: secretArn,
    });
    server.replay(wireFixture("openai/chat-success"));
    const llm = createLlmProviders(config.llm);

    await llm.tool.provider.complete({ system: "s", prompt: "p", context: { purpose: "tool" } });
    await llm.planner.provider.complete({ system: "s", prompt: "p", context: { purpose: "tool" } });

    expect(server.received.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-from-secrets-manager",
      "Bearer sk-from-secrets-manager",
    ]);
    // Cached (max age): one Secrets Manager call for both model calls.
    expect(secrets).toHaveReceivedCommandTimes(GetSecretValueCommand, 1);
    expect(secrets).toHaveReceivedCommandWith(GetSecretValueCommand, { SecretId: secretArn });
  });

  it("prefers OPENAI_API_KEY, the local setting, when both are set", async () => {
    server.replay(wireFixture("openai/chat-success"));
    const llm = createLlmProviders({
      provider: "openai",
      openaiBaseUrl: `${server.origin}/v1`,
      openaiApiKey: "sk-local",
      openaiApiKeySecretArn: arn("rewoo/openai-key-unused"),
    });

    await llm.solver.provider.complete({ system: "s", prompt: "p", context: { purpose: "tool" } });

    expect(server.received[0]?.headers.authorization).toBe("Bearer sk-local");
    expect(secrets).toHaveReceivedCommandTimes(GetSecretValueCommand, 0);
  });

  it('accepts a JSON secret with "api_key"', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: '{"api_key": "sk-in-json"}' });
    await expect(openAiKeyFromSecret(arn("rewoo/openai-key-json"))()).resolves.toBe("sk-in-json");
  });

  it("names the secret, never its value, when it holds no key", async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: '{"token": "sk-wrong-field"}' });
    const error = await openAiKeyFromSecret(arn("rewoo/openai-key-wrong"))().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAiApiKeyUnavailableError);
    expect((error as Error).message).toBe(
      `the Secrets Manager secret ${arn("rewoo/openai-key-wrong")} holds no OpenAI API key: expected the key as a string, or JSON with "api_key"`,
    );
    expect((error as Error).message).not.toContain("sk-wrong-field");
  });

  it("reports a denied read by name, and keeps a Secrets Manager throttle transient", async () => {
    const denied = Object.assign(
      new Error("User is not authorized to perform secretsmanager:GetSecretValue"),
      {
        name: "AccessDeniedException",
        $metadata: { httpStatusCode: 400 },
      },
    );
    secrets.on(GetSecretValueCommand).rejectsOnce(denied);
    const error = await openAiKeyFromSecret(arn("rewoo/openai-key-denied"))().catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `cannot read the OpenAI API key from Secrets Manager secret ${arn("rewoo/openai-key-denied")}: AccessDeniedException: User is not authorized to perform secretsmanager:GetSecretValue`,
    );
    expect(isTransient(error)).toBe(false);

    const throttled = Object.assign(new Error("Rate exceeded"), {
      name: "ThrottlingException",
      $metadata: { httpStatusCode: 400 },
    });
    secrets.on(GetSecretValueCommand).rejectsOnce(throttled);
    const again = await openAiKeyFromSecret(arn("rewoo/openai-key-throttled"))().catch((e: unknown) => e);
    expect(again).toBeInstanceOf(OpenAiApiKeyUnavailableError);
    expect(isTransient(again)).toBe(true);
  });
});
