// Environment selection and the configuration checks that fail synth before anything is built.
import { RemovalPolicy } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { llmRoleEnvironment, resolveConfig } from "../../infra/config.ts";

const OPENAI_SECRET = "arn:aws:secretsmanager:eu-west-1:111122223333:secret:rewoo/openai-key-AbCdEf";

const context = (values: Record<string, unknown>) => (key: string) => values[key];

describe("resolveConfig", () => {
  it("defaults to dev and keeps prod's data", () => {
    expect(resolveConfig(context({})).name).toBe("dev");
    const prod = resolveConfig(context({ env: "prod" }));
    expect(prod).toMatchObject({ terminationProtection: true, removalPolicy: RemovalPolicy.RETAIN });
  });

  it("applies context overrides to the chosen environment", () => {
    const config = resolveConfig(
      context({
        env: "staging",
        workerConcurrency: "4",
        llmProvider: "bedrock",
        plannerModel: "eu.anthropic.claude-sonnet-4-20250514-v1:0",
        solverModel: "anthropic.claude-3-5-haiku-20241022-v1:0",
        documentsBucketName: "lender-loan-documents",
        preconditionsApiUrl: "https://preconditions.lender.example",
      }),
    );
    expect(config).toMatchObject({
      name: "staging",
      workflow: { workerConcurrency: 4, type: "STANDARD" },
      llm: { provider: "bedrock", plannerModel: "eu.anthropic.claude-sonnet-4-20250514-v1:0" },
      documents: { existingBucketName: "lender-loan-documents" },
      lender: { preconditionsApiUrl: "https://preconditions.lender.example" },
    });
  });

  it("names every problem of an invalid configuration at once", () => {
    expect(() => resolveConfig(context({ env: "qa" }))).toThrow(
      /-c env=qa: unknown environment; expected one of dev, staging, prod/,
    );
    const attempt = () =>
      resolveConfig(
        context({
          llmProvider: "bedrock",
          workerConcurrency: "0",
          conditionsAiApiUrl: "http://conditions-ai.lender.example",
        }),
      );
    expect(attempt).toThrow(/plannerModel is required with the bedrock provider/);
    expect(attempt).toThrow(/solverModel is required/);
    expect(attempt).toThrow(/workerConcurrency 0: expected a positive integer/);
    expect(attempt).toThrow(
      /conditionsAiApiUrl "http:\/\/conditions-ai.lender.example": expected an https:\/\/ URL/,
    );
  });

  it("reserves worker and API concurrency per environment, overridable from the context", () => {
    expect(resolveConfig(context({})).reservedConcurrency).toEqual({ worker: 50, api: 20 });
    expect(resolveConfig(context({ env: "prod" })).reservedConcurrency).toEqual({ worker: 200, api: 50 });
    expect(
      resolveConfig(context({ env: "prod", workerReservedConcurrency: "80", apiReservedConcurrency: "10" }))
        .reservedConcurrency,
    ).toEqual({ worker: 80, api: 10 });
  });

  it("refuses reserved concurrency that is not a positive integer or below the worker concurrency", () => {
    const attempt = () =>
      resolveConfig(context({ workerReservedConcurrency: "8", apiReservedConcurrency: "2.5" }));
    expect(attempt).toThrow(/reservedConcurrency.api 2.5: expected a positive integer/);
    expect(attempt).toThrow(
      /reservedConcurrency.worker 8: expected at least workerConcurrency \(16\), or one run's widest level throttles itself/,
    );
    expect(() => resolveConfig(context({ apiReservedConcurrency: "0" }))).toThrow(
      /reservedConcurrency.api 0: expected a positive integer/,
    );
    expect(() => resolveConfig(context({ workerReservedConcurrency: "ten" }))).toThrow(
      /reservedConcurrency.worker NaN: expected a positive integer/,
    );
  });

  it("takes the openai provider with an https base URL and the complete ARN of its key's secret", () => {
    const config = resolveConfig(
      context({
        llmProvider: "openai",
        openAiBaseUrl: "https://api.openai.com/v1",
        openAiApiKeySecretArn: OPENAI_SECRET,
      }),
    );
    expect(config.llm).toMatchObject({
      provider: "openai",
      openAiBaseUrl: "https://api.openai.com/v1",
      openAiApiKeySecretArn: OPENAI_SECRET,
    });
  });

  it("refuses the openai provider without its secret or URL, and unknown providers", () => {
    expect(() => resolveConfig(context({ llmProvider: "openai" }))).toThrow(
      /openAiBaseUrl "": the openai provider needs an https:\/\/ URL; openAiApiKeySecretArn "": the openai provider needs the complete ARN/,
    );
    expect(() =>
      resolveConfig(
        context({
          llmProvider: "openai",
          openAiBaseUrl: "http://api.openai.com/v1",
          openAiApiKeySecretArn: "openai-key",
        }),
      ),
    ).toThrow(/needs an https:\/\/ URL.*needs the complete ARN/);
    expect(() => resolveConfig(context({ llmProvider: "anthropic" }))).toThrow(
      /llmProvider "anthropic": expected rule-based, bedrock or openai/,
    );
  });

  it("takes each role's temperature and max tokens from the context, leaving unset roles to the functions' defaults", () => {
    expect(resolveConfig(context({})).llm.roles).toBeUndefined();
    const config = resolveConfig(
      context({
        plannerTemperature: "0",
        plannerMaxTokens: "2048",
        reviewerTemperature: "0.2",
        toolMaxTokens: "512",
      }),
    );
    expect(config.llm.roles).toEqual({
      planner: { temperature: 0, maxTokens: 2048 },
      tool: { maxTokens: 512 },
      reviewer: { temperature: 0.2 },
    });
    expect(llmRoleEnvironment(config.llm)).toEqual({
      REWOO_PLANNER_TEMPERATURE: "0",
      REWOO_PLANNER_MAX_TOKENS: "2048",
      REWOO_TOOL_MAX_TOKENS: "512",
      REWOO_REVIEWER_TEMPERATURE: "0.2",
    });
  });

  it("refuses a temperature outside 0–2 and a max tokens that is not a positive integer", () => {
    expect(() =>
      resolveConfig(context({ solverTemperature: "2.5", plannerMaxTokens: "0", toolMaxTokens: "lots" })),
    ).toThrow(
      /plannerMaxTokens 0: expected a positive integer; solverTemperature 2\.5: expected a number from 0 to 2; toolMaxTokens NaN: expected a positive integer/,
    );
  });
});
