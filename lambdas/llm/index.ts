// Builds the planner, solver, reviewer and `llm`-tool model bindings from `config.llm` once per cold
// start. Planner and solver get separate model ids: planning wants a strong model, solving a cheap one
// (or the reverse), and the choice should not need a code change. The reviewer judges plans, so it
// takes the planner's model unless told otherwise.
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import type { LlmProviderName } from "../contracts/workflow-defaults.ts";
import { BedrockProvider, bedrockClientConfig, DEFAULT_BEDROCK_MODEL } from "./bedrock.ts";
import { DEFAULT_OPENAI_MODEL, OpenAiCompatibleProvider } from "./openai.ts";
import { openAiKeyFromSecret } from "./openai-key.ts";
import type { GuardrailSettings, LlmRole } from "./outcome.ts";
import { RULE_BASED_MODEL, RuleBasedProvider } from "./rule-based.ts";
import { SCRIPTED_MODEL, ScriptedProvider } from "./scripted.ts";
import type { LlmProvider } from "./types.ts";

export type { LlmProviderName } from "../contracts/workflow-defaults.ts";

/**
 * A role's sampling settings (REWOO_<ROLE>_TEMPERATURE, REWOO_<ROLE>_MAX_TOKENS). Unset: the
 * temperature of DEFAULT_TEMPERATURES for each purpose, and Bedrock's DEFAULT_BEDROCK_MAX_TOKENS or
 * an OpenAI-compatible server's own default. The rule-based and scripted providers ignore them.
 */
export interface LlmRoleSettings {
  temperature?: number | undefined;
  maxTokens?: number | undefined;
}

/** The shape of `config.llm` (lambdas/runtime/config.ts); prompt overrides are read by the handlers. */
export interface LlmOptions {
  provider: LlmProviderName;
  plannerModel?: string;
  solverModel?: string;
  toolModel?: string;
  reviewerModel?: string;
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  /** In AWS: the Secrets Manager secret (name or ARN) holding the key; OPENAI_API_KEY wins when both are set. */
  openaiApiKeySecretArn?: string;
  scriptedResponsesFile?: string;
  /** Bedrock only: per role, the models tried in order when the role's is unavailable (REWOO_<ROLE>_FALLBACK_MODELS). */
  fallbackModels?: Partial<Record<LlmRole, readonly string[]>>;
  /** Bedrock only: the guardrail every call is made under (REWOO_BEDROCK_GUARDRAIL_ID / _VERSION). */
  guardrail?: GuardrailSettings;
  /** Per role; the `tool` role serves the `llm` tool and Conditions AI's field lookups. */
  roles?: Partial<Record<LlmRole, LlmRoleSettings>>;
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
  const { providerFor, defaultModel } = buildProvider(options, deps);
  const plannerModel = options.plannerModel || defaultModel;
  const solverModel = options.solverModel || defaultModel;
  return {
    planner: { provider: providerFor("planner"), model: plannerModel },
    solver: { provider: providerFor("solver"), model: solverModel },
    tool: { provider: providerFor("tool"), model: options.toolModel || solverModel },
    reviewer: { provider: providerFor("reviewer"), model: options.reviewerModel || plannerModel },
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

/** A provider per role: the model-backed ones carry the role's temperature and token limit. */
type Built = { providerFor: (role: LlmRole) => LlmProvider; defaultModel: string };

/** One instance for every role (a provider without sampling settings). */
const shared = (provider: LlmProvider, defaultModel: string): Built => ({
  providerFor: () => provider,
  defaultModel,
});

/** A role's settings as provider options, leaving out what is unset. */
function sampling(options: LlmOptions, role: LlmRole): { temperature?: number; maxTokens?: number } {
  const { temperature, maxTokens } = options.roles?.[role] ?? {};
  return {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

function buildProvider(options: LlmOptions, deps: LlmDeps): Built {
  switch (options.provider) {
    case "rule-based":
      if (
        !process.env.REWOO_BUNDLED_LLM_PROVIDER ||
        process.env.REWOO_BUNDLED_LLM_PROVIDER === "rule-based"
      ) {
        return shared(new RuleBasedProvider(), RULE_BASED_MODEL);
      }
      break;
    case "bedrock":
      if (!process.env.REWOO_BUNDLED_LLM_PROVIDER || process.env.REWOO_BUNDLED_LLM_PROVIDER === "bedrock") {
        return bedrockProvider(options, deps);
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

function bedrockProvider(options: LlmOptions, deps: LlmDeps): Built {
  // One client (one connection pool) for every role.
  const client = deps.bedrockClient ?? new BedrockRuntimeClient(bedrockClientConfig(deps.region));
  return {
    providerFor: (role) =>
      new BedrockProvider({
        client,
        ...sampling(options, role),
        ...(options.guardrail ? { guardrail: options.guardrail } : {}),
        ...(options.fallbackModels?.[role]?.length ? { fallbackModels: options.fallbackModels[role] } : {}),
      }),
    defaultModel: DEFAULT_BEDROCK_MODEL,
  };
}

function openAiProvider(options: LlmOptions, deps: LlmDeps): Built {
  if (!options.openaiBaseUrl) {
    throw new Error(
      "Invalid configuration: REWOO_LLM_PROVIDER=openai needs OPENAI_BASE_URL (e.g. https://api.openai.com/v1, or http://127.0.0.1:11434/v1 for Ollama)",
    );
  }
  const baseUrl = options.openaiBaseUrl;
  // The key itself (local), else the secret that holds it (AWS), read when a call needs it.
  const apiKey =
    options.openaiApiKey ||
    (options.openaiApiKeySecretArn ? openAiKeyFromSecret(options.openaiApiKeySecretArn) : undefined);
  return {
    providerFor: (role) =>
      new OpenAiCompatibleProvider({
        baseUrl,
        ...(apiKey ? { apiKey } : {}),
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
        ...(deps.openaiTimeoutMs !== undefined ? { timeoutMs: deps.openaiTimeoutMs } : {}),
        ...sampling(options, role),
      }),
    defaultModel: DEFAULT_OPENAI_MODEL,
  };
}

function scriptedProvider(options: LlmOptions): Built {
  if (!options.scriptedResponsesFile) {
    throw new Error(
      "Invalid configuration: REWOO_LLM_PROVIDER=scripted needs REWOO_SCRIPTED_RESPONSES (path to a JSON file of [{purpose?, match?, text}] responses)",
    );
  }
  return shared(ScriptedProvider.fromFile(options.scriptedResponsesFile), SCRIPTED_MODEL);
}

export {
  BEDROCK_MAX_ATTEMPTS,
  BedrockProvider,
  bedrockClientConfig,
  DEFAULT_BEDROCK_MODEL,
  isModelUnavailable,
} from "./bedrock.ts";
export { DEFAULT_OPENAI_MODEL, OpenAiCompatibleProvider, OpenAiHttpError } from "./openai.ts";
export { OpenAiApiKeyUnavailableError } from "./openai-key.ts";
export {
  GUARDRAIL_INTERVENED,
  type GuardrailSettings,
  LlmEmptyOutputError,
  LlmGuardrailInterventionError,
  LlmOutputTruncatedError,
  type LlmRole,
  maxTokensSetting,
  ROLE_OF_PURPOSE,
} from "./outcome.ts";
export { RULE_BASED_MODEL, RuleBasedProvider } from "./rule-based.ts";
export { SCRIPTED_MODEL, ScriptedProvider, type ScriptedResponse } from "./scripted.ts";
export type * from "./types.ts";
export { DEFAULT_TEMPERATURES } from "./types.ts";
export {
  addUsage,
  countedCompletion,
  countedUsage,
  emptyUsage,
  estimatedUsage,
  usageOf,
} from "./usage.ts";
