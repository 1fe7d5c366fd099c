// A run's cost and metrics at its end, from its record: the token totals and the invocation counts
// its functions added (lambdas/runtime/invocation.ts), plus what the ending invocation has used so far
// (its count reaches the record only after the cost is stored).

import { DEFAULT_PROFILE } from "../contracts/agents.ts";
import { estimateRunCost, PROVIDER_DEFAULT_MODELS, type PriceTable, type RunCost } from "../core/cost.ts";
import type { Evidence, TerminalStatus } from "../core/types.ts";
import type { InvocationUsage } from "../runtime/invocation.ts";
import type { RunEnding } from "../runtime/metrics.ts";
import type { MetaItem } from "../store/runs.ts";

/** The parts of the configuration (lambdas/runtime/config.ts) the estimate reads. */
export interface CostConfig {
  llm: {
    provider: keyof typeof PROVIDER_DEFAULT_MODELS;
    plannerModel?: string;
    solverModel?: string;
    toolModel?: string;
    reviewerModel?: string;
  };
  prices: PriceTable;
}

/**
 * The models the run's calls could have gone to, resolved as lambdas/llm/index.ts resolves them:
 * what a run is priced by when it recorded no model of its own (runs from before models were kept).
 */
export function runModels(llm: CostConfig["llm"]): string[] {
  const fallback = PROVIDER_DEFAULT_MODELS[llm.provider];
  const planner = llm.plannerModel || fallback;
  const solver = llm.solverModel || fallback;
  return [...new Set([planner, solver, llm.toolModel || solver, llm.reviewerModel || planner])];
}

type CountedMeta = Pick<
  MetaItem,
  | "usage_input_tokens"
  | "usage_output_tokens"
  | "usage_models"
  | "lambda_requests"
  | "lambda_mb_ms"
  | "sfn_transitions"
>;

export function costOfRun(meta: CountedMeta, config: CostConfig, current?: InvocationUsage): RunCost {
  return estimateRunCost(
    {
      input_tokens: Number(meta.usage_input_tokens ?? 0),
      output_tokens: Number(meta.usage_output_tokens ?? 0),
      // The models that answered (a fallback model included), else those configured.
      models: meta.usage_models?.size ? [...meta.usage_models].sort() : runModels(config.llm),
      transitions: Number(meta.sfn_transitions ?? 0) + (current?.transitions ?? 0),
      lambda_requests: Number(meta.lambda_requests ?? 0) + (current?.requests ?? 0),
      lambda_mb_ms: Number(meta.lambda_mb_ms ?? 0) + (current?.mb_ms ?? 0),
    },
    config.prices,
  );
}

/** What the metrics of a run's ending are made of (lambdas/runtime/metrics.ts recordRunEnd). */
export function runEnding(
  meta: CountedMeta & Pick<MetaItem, "run_id" | "profile" | "usage_llm_calls">,
  evidence: Iterable<Pick<Evidence, "status">>,
  status: TerminalStatus,
  cost: RunCost,
): RunEnding {
  return {
    run_id: meta.run_id,
    status,
    profile: meta.profile ?? DEFAULT_PROFILE,
    tool_errors: [...evidence].filter((item) => item.status === "error").length,
    usage: {
      llm_calls: Number(meta.usage_llm_calls ?? 0),
      input_tokens: Number(meta.usage_input_tokens ?? 0),
      output_tokens: Number(meta.usage_output_tokens ?? 0),
    },
    cost,
  };
}
