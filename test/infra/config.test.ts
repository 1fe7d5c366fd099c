// Environment selection and the configuration checks that fail synth before anything is built.
import { RemovalPolicy } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../infra/config.ts";

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

  it("refuses the openai provider, whose API key this app has no secret for", () => {
    expect(() => resolveConfig(context({ llmProvider: "openai" }))).toThrow(/expected rule-based or bedrock/);
  });
});
