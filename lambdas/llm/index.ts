// Builds the planner, solver, reviewer and `llm`-tool model bindings from `config.llm` once per cold
// start. Planner and solver get separate model ids: planning wants a strong model, solving a cheap one
// (or the reverse), and the choice should not need a code change. The reviewer judges plans, so it
// takes the planner's model unless told otherwise.
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { BedrockProvider, DEFAULT_BEDROCK_MODEL } from "./bedrock.ts";
import { DEFAULT_OPENAI_MODEL, OpenAiCompatibleProvider } from "./openai.ts";
import { RULE_BASED_MODEL, RuleBasedProvider } from "./rule-based.ts";
import { SCRIPTED_MODEL, ScriptedProvider } from "./scripted.ts";
import type { LlmProvider } from "./types.ts";

export type LlmProviderName = "rule-based" | "bedrock" | "openai" | "scripted";

/** The shape of `config.llm` (lambdas/runtime/config.ts); prompt overrides are read by the handlers. */
export interface LlmOptions {
  provider: LlmProviderName;
  plannerModel?: string;
  solverModel?: string;
  toolModel?: string;
  reviewerModel?: string;
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  scriptedResponsesFile?: string;
}

export interface LlmDeps {
  /** Built here from `region` when absent; pass one to share it or to mock it. */
  bedrockClient?: BedrockRuntimeClient;
  region?: string;
  fetch?: typeof fetch;
  openaiTimeoutMs?: number;
}

export interface ModelBinding {
  provider: LlmProvider;
  model: string;
}

export interface LlmProviders {
  planner: ModelBinding;
  solver: ModelBinding;
  tool: ModelBinding;
  /** Reviews plans and answers; skipped (the rules alone review) when it is the rule-based provider. */
  reviewer: ModelBinding;
}

export function createLlmProviders(options: LlmOptions, deps: LlmDeps = {}): LlmProviders {
  const { provider, defaultModel } = buildProvider(options, deps);
  const plannerModel = options.plannerModel || defaultModel;
  const solverModel = options.solverModel || defaultModel;
  return {
    planner: { provider, model: plannerModel },
    solver: { provider, model: solverModel },
    tool: { provider, model: options.toolModel || solverModel },
    reviewer: { provider, model: options.reviewerModel || plannerModel },
  };
}

/**
 * The provider a deployed bundle was built for, or undefined when the handlers run from source (the
 * local twin, tests, the CLI): then every provider is available. infra/constructs/defaults.ts sets it
 * with esbuild's `define` from the function's REWOO_LLM_PROVIDER. Each provider is built behind a
 * condition on it, written out in full where it is tested, so that esbuild evaluates it while parsing
 * and never links a provider the bundle was not built for, nor the tokenizer only those load (a
 * Bedrock function carries neither).
 */
export const BUNDLED_PROVIDER_VARIABLE = "REWOO_BUNDLED_LLM_PROVIDER";

type Built = { provider: LlmProvider; defaultModel: string };

function buildProvider(options: LlmOptions, deps: LlmDeps): Built {
  switch (options.provider) {
    case "rule-based":
      if (
        !process.env.REWOO_BUNDLED_LLM_PROVIDER ||
        process.env.REWOO_BUNDLED_LLM_PROVIDER === "rule-based"
      ) {
        return { provider: new RuleBasedProvider(), defaultModel: RULE_BASED_MODEL };
      }
      break;
    case "bedrock":
      if (!process.env.REWOO_BUNDLED_LLM_PROVIDER || process.env.REWOO_BUNDLED_LLM_PROVIDER === "bedrock") {
        return bedrockProvider(deps);
      }
      break;
    case "openai":
      if (!process.env.REWOO_BUNDLED_LLM_PROVIDER || process.env.REWOO_BUNDLED_LLM_PROVIDER === "openai") {
        return openAiProvider(options, deps);
      }
      break;
    case "scripted":
      if (!process.env.REWOO_BUNDLED_LLM_PROVIDER || process.env.REWOO_BUNDLED_LLM_PROVIDER === "scripted") {
        return scriptedProvider(options);
      }
      break;
    default: {
      const unknown: never = options.provider;
      throw new Error(
        `Invalid configuration: REWOO_LLM_PROVIDER "${String(unknown)}" is not one of rule-based, bedrock, openai, scripted`,
      );
    }
  }
  // Only a bundle built for another provider gets here: the environment changed without a redeploy.
  throw new Error(
    `Invalid configuration: REWOO_LLM_PROVIDER=${options.provider}, but this function was bundled with the ${process.env.REWOO_BUNDLED_LLM_PROVIDER} provider only (${BUNDLED_PROVIDER_VARIABLE}); deploy again with llmProvider=${options.provider}`,
  );
}

function bedrockProvider(deps: LlmDeps): Built {
  const client = deps.bedrockClient ?? new BedrockRuntimeClient(deps.region ? { region: deps.region } : {});
  return { provider: new BedrockProvider({ client }), defaultModel: DEFAULT_BEDROCK_MODEL };
}

function openAiProvider(options: LlmOptions, deps: LlmDeps): Built {
  if (!options.openaiBaseUrl) {
    throw new Error(
      "Invalid configuration: REWOO_LLM_PROVIDER=openai needs OPENAI_BASE_URL (e.g. https://api.openai.com/v1, or http://127.0.0.1:11434/v1 for Ollama)",
    );
  }
  const provider = new OpenAiCompatibleProvider({
    baseUrl: options.openaiBaseUrl,
    apiKey: options.openaiApiKey,
    fetch: deps.fetch,
    timeoutMs: deps.openaiTimeoutMs,
  });
  return { provider, defaultModel: DEFAULT_OPENAI_MODEL };
}

function scriptedProvider(options: LlmOptions): Built {
  if (!options.scriptedResponsesFile) {
    throw new Error(
      "Invalid configuration: REWOO_LLM_PROVIDER=scripted needs REWOO_SCRIPTED_RESPONSES (path to a JSON file of [{purpose?, match?, text}] responses)",
    );
  }
  return { provider: ScriptedProvider.fromFile(options.scriptedResponsesFile), defaultModel: SCRIPTED_MODEL };
}

export { BedrockProvider, DEFAULT_BEDROCK_MODEL } from "./bedrock.ts";
export { DEFAULT_OPENAI_MODEL, OpenAiCompatibleProvider, OpenAiHttpError } from "./openai.ts";
export { RULE_BASED_MODEL, RuleBasedProvider } from "./rule-based.ts";
export { SCRIPTED_MODEL, ScriptedProvider, type ScriptedResponse } from "./scripted.ts";
export type * from "./types.ts";
export { DEFAULT_TEMPERATURES } from "./types.ts";
export { addUsage, countedUsage, emptyUsage, estimatedUsage, usageOf } from "./usage.ts";
