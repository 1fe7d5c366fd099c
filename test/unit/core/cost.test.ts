import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRICE_TABLE,
  estimateRunCost,
  modelPrice,
  PROVIDER_DEFAULT_MODELS,
  type RunUsage,
  withPriceOverrides,
} from "../../../lambdas/core/cost.ts";
import { DEFAULT_BEDROCK_MODEL } from "../../../lambdas/llm/bedrock.ts";
import { DEFAULT_OPENAI_MODEL } from "../../../lambdas/llm/openai.ts";
import { RULE_BASED_MODEL } from "../../../lambdas/llm/rule-based.ts";
import { SCRIPTED_MODEL } from "../../../lambdas/llm/scripted.ts";

const HAIKU = "anthropic.claude-3-5-haiku-20241022-v1:0";
const SONNET = "anthropic.claude-3-5-sonnet-20241022-v2:0";

const usage = (overrides: Partial<RunUsage> = {}): RunUsage => ({
  input_tokens: 10_000,
  output_tokens: 2_000,
  models: [HAIKU],
  transitions: 20,
  lambda_requests: 4,
  // Four invocations of 1024 MB for 500 ms: 2 GB-seconds.
  lambda_mb_ms: 4 * 1024 * 500,
  ...overrides,
});

describe("estimateRunCost", () => {
  it("prices tokens, transitions and Lambda with the default table", () => {
    const cost = estimateRunCost(usage(), DEFAULT_PRICE_TABLE);
    // 10,000 × $0.80/M + 2,000 × $4/M = $0.008 + $0.008.
    expect(cost.llm).toBe(0.016);
    // 20 × $0.025/1000.
    expect(cost.step_functions).toBe(0.0005);
    // 2 GB-s × $0.0000166667 + 4 × $0.20/M = $0.0000333334 + $0.0000008.
    expect(cost.lambda).toBe(0.00003413);
    expect(cost.breakdown.lambda).toMatchObject({
      requests: 4,
      gb_seconds: 2,
      compute: 0.00003333,
      request_charges: 0.0000008,
    });
    expect(cost.total).toBe(0.01653413);
    expect(cost).toMatchObject({
      currency: "USD",
      estimated: true,
      prices_as_of: DEFAULT_PRICE_TABLE.as_of,
      breakdown: {
        llm: { input_tokens: 10_000, output_tokens: 2_000, priced_as: HAIKU, input_per_million: 0.8 },
        step_functions: { transitions: 20, per_transition: 0.000025 },
      },
    });
  });

  it("prices a mix of models at the dearest, since the run keeps one token total", () => {
    const cost = estimateRunCost(usage({ models: [HAIKU, SONNET, HAIKU] }), DEFAULT_PRICE_TABLE);
    // 10,000 × $3/M + 2,000 × $15/M.
    expect(cost.llm).toBe(0.06);
    expect(cost.breakdown.llm.priced_as).toBe(SONNET);
  });

  it("prices cross-region inference profiles as their model", () => {
    expect(modelPrice("us.anthropic.claude-sonnet-4-20250514-v1:0", DEFAULT_PRICE_TABLE)).toEqual({
      input_per_million: 3,
      output_per_million: 15,
    });
    expect(modelPrice("eu.amazon.nova-pro-v1:0", DEFAULT_PRICE_TABLE)?.output_per_million).toBe(3.2);
  });

  it("costs the rule-based provider's tokens nothing, but not its workflow", () => {
    const cost = estimateRunCost(usage({ models: ["rule-based"] }), DEFAULT_PRICE_TABLE);
    expect(cost.llm).toBe(0);
    expect(cost.step_functions).toBeGreaterThan(0);
    expect(cost.lambda).toBeGreaterThan(0);
    expect(cost.total).toBe(0.00053413);
  });

  it("names a model it has no price for instead of guessing one", () => {
    const cost = estimateRunCost(usage({ models: ["mistral.unknown-v9"] }), DEFAULT_PRICE_TABLE);
    expect(cost.llm).toBe(0);
    expect(cost.breakdown.llm.unpriced_models).toEqual(["mistral.unknown-v9"]);
    expect(cost.breakdown.llm.priced_as).toBeUndefined();
  });

  it("takes overridden prices and models, keeping the defaults it was not given", () => {
    const prices = withPriceOverrides({
      models: { "mistral.unknown-v9": { input_per_million: 1, output_per_million: 2 } },
      step_functions_per_transition: 0.0001,
      as_of: "2026-01-01",
    });
    expect(prices.models[HAIKU]).toEqual(DEFAULT_PRICE_TABLE.models[HAIKU]);
    expect(prices.lambda_per_request).toBe(DEFAULT_PRICE_TABLE.lambda_per_request);
    const cost = estimateRunCost(usage({ models: ["mistral.unknown-v9"] }), prices);
    // 10,000 × $1/M + 2,000 × $2/M; 20 × $0.0001.
    expect(cost.llm).toBe(0.014);
    expect(cost.step_functions).toBe(0.002);
    expect(cost.prices_as_of).toBe("2026-01-01");
  });

  it("knows each provider's default model as lambdas/llm builds it", () => {
    expect(PROVIDER_DEFAULT_MODELS).toEqual({
      bedrock: DEFAULT_BEDROCK_MODEL,
      openai: DEFAULT_OPENAI_MODEL,
      "rule-based": RULE_BASED_MODEL,
      scripted: SCRIPTED_MODEL,
    });
    for (const model of Object.values(PROVIDER_DEFAULT_MODELS)) {
      expect(modelPrice(model, DEFAULT_PRICE_TABLE), model).toBeDefined();
    }
  });
});
