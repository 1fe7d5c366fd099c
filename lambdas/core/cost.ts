// What a run cost, estimated from what it used: LLM tokens priced per model, Step Functions state
// transitions (standard workflow) and the Lambda invocations of its workflow (GB-seconds and requests).
// Pure: the price table comes from the configuration (REWOO_PRICE_TABLE overrides the defaults below),
// the usage from the run record (lambdas/store/runs.ts). Not counted: API Gateway, DynamoDB, S3,
// Textract, CloudWatch, the free tiers, and the API/WebSocket/push/batch functions, which serve callers
// rather than one run. docs/cost.md explains the figures.
import * as z from "zod";
import { lazily } from "./lazy.ts";

/** When the default prices below were read (AWS and OpenAI public list prices, us-east-1, on demand). */
export const DEFAULT_PRICES_AS_OF = "2025-06-01";

/** USD per 1 million tokens. */
export interface ModelPrice {
  input_per_million: number;
  output_per_million: number;
}

export interface PriceTable {
  /** By model id as the provider is called with it; cross-region prefixes (us., eu., …) are tried without. */
  models: Record<string, ModelPrice>;
  /** Step Functions standard workflow: USD per state transition ($0.025 per 1,000). */
  step_functions_per_transition: number;
  /** Lambda (x86): USD per GB-second. */
  lambda_per_gb_second: number;
  /** Lambda: USD per request ($0.20 per million). */
  lambda_per_request: number;
  as_of: string;
}

/**
 * The default model of each provider, as lambdas/llm builds them (test/unit/core/cost.test.ts holds
 * these equal to DEFAULT_BEDROCK_MODEL and the others). Repeated here because the functions that
 * price a run (finalize) must not link the model clients lambdas/llm brings along.
 */
export const PROVIDER_DEFAULT_MODELS = {
  bedrock: "anthropic.claude-3-5-haiku-20241022-v1:0",
  openai: "gpt-4o-mini",
  "rule-based": "rule-based",
  scripted: "scripted",
} as const;

export const DEFAULT_PRICE_TABLE: PriceTable = {
  models: {
    // Bedrock on-demand.
    "anthropic.claude-3-5-haiku-20241022-v1:0": { input_per_million: 0.8, output_per_million: 4 },
    "anthropic.claude-3-5-sonnet-20241022-v2:0": { input_per_million: 3, output_per_million: 15 },
    "anthropic.claude-sonnet-4-20250514-v1:0": { input_per_million: 3, output_per_million: 15 },
    "amazon.nova-micro-v1:0": { input_per_million: 0.035, output_per_million: 0.14 },
    "amazon.nova-lite-v1:0": { input_per_million: 0.06, output_per_million: 0.24 },
    "amazon.nova-pro-v1:0": { input_per_million: 0.8, output_per_million: 3.2 },
    // OpenAI.
    "gpt-4o-mini": { input_per_million: 0.15, output_per_million: 0.6 },
    "gpt-4o-mini-2024-07-18": { input_per_million: 0.15, output_per_million: 0.6 },
    // No model behind them: the rules and the recorded responses cost nothing.
    "rule-based": { input_per_million: 0, output_per_million: 0 },
    scripted: { input_per_million: 0, output_per_million: 0 },
  },
  step_functions_per_transition: 0.025 / 1000,
  lambda_per_gb_second: 0.0000166667,
  lambda_per_request: 0.2 / 1_000_000,
  as_of: DEFAULT_PRICES_AS_OF,
};

/**
 * REWOO_PRICE_TABLE: a JSON object overriding any part of the defaults; models are merged by id.
 * Built on first use (lambdas/core/lazy.ts): only a configuration that sets the table parses one.
 */
export const priceTableOverrideSchema = /* @__PURE__ */ lazily(() => {
  const price = z.number().finite().min(0);
  return z
    .object({
      models: z
        .record(z.string().min(1), z.object({ input_per_million: price, output_per_million: price }).strict())
        .optional(),
      step_functions_per_transition: price.optional(),
      lambda_per_gb_second: price.optional(),
      lambda_per_request: price.optional(),
      as_of: z.string().min(1).optional(),
    })
    .strict();
});

export type PriceTableOverride = z.infer<ReturnType<typeof priceTableOverrideSchema>>;

export function withPriceOverrides(
  override: PriceTableOverride = {},
  base = DEFAULT_PRICE_TABLE,
): PriceTable {
  return {
    ...base,
    ...Object.fromEntries(
      Object.entries(override).filter(([key, value]) => key !== "models" && value !== undefined),
    ),
    models: { ...base.models, ...override.models },
  };
}

/** Everything the estimate is computed from, as the run record keeps it. */
export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  /**
   * The models that answered the run's LLM calls (its usage's `models`; for a run that recorded none,
   * the ones configured for planner, solver, `llm` tool and reviewer). The run records its tokens as
   * one total, so when they differ every token is priced at the dearest of them: the estimate never
   * comes out below the bill.
   */
  models: string[];
  /** Step Functions state transitions (lambdas/core/billed-transitions.ts). */
  transitions: number;
  lambda_requests: number;
  /** Memory (MB) × duration (ms), summed over the invocations. */
  lambda_mb_ms: number;
}

export interface RunCost {
  currency: "USD";
  total: number;
  llm: number;
  step_functions: number;
  lambda: number;
  breakdown: {
    llm: {
      input_tokens: number;
      output_tokens: number;
      /** The model whose prices were used; absent when no model of the run has a price. */
      priced_as?: string;
      input_per_million: number;
      output_per_million: number;
      /** Models with no price in the table: their tokens count as free, so the total is too low. */
      unpriced_models?: string[];
    };
    step_functions: { transitions: number; per_transition: number };
    lambda: {
      requests: number;
      gb_seconds: number;
      per_gb_second: number;
      per_request: number;
      compute: number;
      request_charges: number;
    };
  };
  prices_as_of: string;
  estimated: true;
}

/** Cross-region inference profiles (us.anthropic…, eu.amazon…) are billed at the model's on-demand price. */
const INFERENCE_PROFILE_PREFIX = /^(us|eu|apac|us-gov|ca|jp|au|global)\./;

export function modelPrice(model: string, prices: PriceTable): ModelPrice | undefined {
  return prices.models[model] ?? prices.models[model.replace(INFERENCE_PROFILE_PREFIX, "")];
}

export function estimateRunCost(usage: RunUsage, prices: PriceTable): RunCost {
  const models = [...new Set(usage.models)];
  const priced = models
    .map((model) => ({ model, price: modelPrice(model, prices) }))
    .filter((entry): entry is { model: string; price: ModelPrice } => entry.price !== undefined);
  const unpriced = models.filter((model) => !modelPrice(model, prices));
  // The dearest for this run's mix of tokens, so that a cheap solver never hides a costly planner.
  const charge = (p: ModelPrice) =>
    (usage.input_tokens * p.input_per_million + usage.output_tokens * p.output_per_million) / 1_000_000;
  const dearest = priced.reduce<{ model: string; price: ModelPrice } | undefined>(
    (best, entry) => (!best || charge(entry.price) > charge(best.price) ? entry : best),
    undefined,
  );
  const llm = dearest ? charge(dearest.price) : 0;
  const stepFunctions = usage.transitions * prices.step_functions_per_transition;
  const gbSeconds = usage.lambda_mb_ms / 1024 / 1000;
  const compute = gbSeconds * prices.lambda_per_gb_second;
  const requestCharges = usage.lambda_requests * prices.lambda_per_request;
  const lambda = compute + requestCharges;
  return {
    currency: "USD",
    total: usd(llm + stepFunctions + lambda),
    llm: usd(llm),
    step_functions: usd(stepFunctions),
    lambda: usd(lambda),
    breakdown: {
      llm: {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        ...(dearest ? { priced_as: dearest.model } : {}),
        input_per_million: dearest?.price.input_per_million ?? 0,
        output_per_million: dearest?.price.output_per_million ?? 0,
        ...(unpriced.length ? { unpriced_models: unpriced } : {}),
      },
      step_functions: {
        transitions: usage.transitions,
        per_transition: prices.step_functions_per_transition,
      },
      lambda: {
        requests: usage.lambda_requests,
        gb_seconds: round(gbSeconds, 6),
        per_gb_second: prices.lambda_per_gb_second,
        per_request: prices.lambda_per_request,
        compute: usd(compute),
        request_charges: usd(requestCharges),
      },
    },
    prices_as_of: prices.as_of,
    estimated: true,
  };
}

/** Amounts to a hundred-millionth of a dollar: enough for one transition, without float noise. */
function usd(amount: number): number {
  return round(amount, 8);
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
