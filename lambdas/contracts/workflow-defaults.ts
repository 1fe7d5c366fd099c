// What a deployment (infra/config.ts) and a function's environment (lambdas/runtime/config.ts) both
// name: the LLM providers, and the workflow's defaults when neither says otherwise. Imports nothing.

/** Every LLM provider the functions can build; `scripted` replays recorded answers (tests, benchmarks). */
export const LLM_PROVIDER_NAMES = ["rule-based", "bedrock", "openai", "scripted"] as const;
export type LlmProviderName = (typeof LLM_PROVIDER_NAMES)[number];

/** The providers a deployment may configure: a deployed function never replays recorded answers. */
export const DEPLOYABLE_LLM_PROVIDERS = ["rule-based", "bedrock", "openai"] as const;
export type DeployableLlmProviderName = (typeof DEPLOYABLE_LLM_PROVIDERS)[number];

export const DEFAULT_LLM_PROVIDER: DeployableLlmProviderName = "rule-based";

/** The workflow's defaults: steps per plan, replans, the review threshold, the wait for a person, the Map's concurrency. */
export const WORKFLOW_DEFAULTS = {
  maxSteps: 12,
  maxReplans: 1,
  reviewThreshold: 5,
  waitSeconds: 24 * 3600,
  workerConcurrency: 16,
} as const;
