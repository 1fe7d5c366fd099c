// A deployed bundle links one provider (REWOO_BUNDLED_LLM_PROVIDER, set by esbuild's define); run from
// source every provider is there. An environment that names another provider than the bundle's is a
// configuration error that says how to fix it.
import { afterEach, describe, expect, it } from "vitest";
import { BedrockProvider, createLlmProviders, RuleBasedProvider } from "../../../lambdas/llm/index.ts";

const saved = process.env.REWOO_BUNDLED_LLM_PROVIDER;
afterEach(() => {
  if (saved === undefined) delete process.env.REWOO_BUNDLED_LLM_PROVIDER;
  else process.env.REWOO_BUNDLED_LLM_PROVIDER = saved;
});

describe("the provider a bundle was built for", () => {
  it("is any provider when the handlers run from source", () => {
    delete process.env.REWOO_BUNDLED_LLM_PROVIDER;
    expect(createLlmProviders({ provider: "rule-based" }).planner.provider).toBeInstanceOf(RuleBasedProvider);
    expect(
      createLlmProviders({ provider: "bedrock" }, { region: "us-east-1" }).solver.provider,
    ).toBeInstanceOf(BedrockProvider);
  });

  it("is the only one a bundled function builds, and another names the redeploy that fixes it", () => {
    process.env.REWOO_BUNDLED_LLM_PROVIDER = "bedrock";
    expect(createLlmProviders({ provider: "bedrock" }, { region: "us-east-1" }).tool.provider).toBeInstanceOf(
      BedrockProvider,
    );
    expect(() => createLlmProviders({ provider: "rule-based" })).toThrow(
      "Invalid configuration: REWOO_LLM_PROVIDER=rule-based, but this function was bundled with the bedrock provider only (REWOO_BUNDLED_LLM_PROVIDER); deploy again with llmProvider=rule-based",
    );
  });
});
