// The one interface every LLM backend implements (README: Configuration). The planner, the solver and the
// `llm` tool each pass what they know as `context`, so the rule-based provider can plan and solve
// from structured data instead of re-parsing its own prompt.
import type {
  EvaluationRequest,
  Evidence,
  InstructionReading,
  Plan,
  ProfileName,
  Review,
  ToolCatalog,
} from "../core/types.ts";

/** What went wrong with the previous plan, when the planner is asked to plan again. */
export interface ReplanContext {
  previous: Plan;
  /** The previous plan's evidence (what finished, what failed and why). */
  evidence: Evidence[];
  /** One line per problem: a failed step with its error, or a validation issue of an unusable plan. */
  failures: string[];
}

export interface PlannerContext {
  purpose: "planner";
  request: EvaluationRequest;
  tools: ToolCatalog;
  maxSteps: number;
  /** How the instructions were read; LLM providers get it in the prompt too and may plan otherwise. */
  scope?: InstructionReading;
  replan?: ReplanContext;
  /** The agent planned for (absent: the loan agent). */
  profile?: ProfileName;
}

export interface SolverContext {
  purpose: "solver";
  request: EvaluationRequest;
  plan: Plan;
  evidence: Evidence[];
}

export interface ToolCallContext {
  purpose: "tool";
}

/** Conditions AI asking for a field its finders could not locate (the answer's quote is verified). */
export interface FieldCallContext {
  purpose: "field";
  document: string;
  field: string;
}

/**
 * A model reviewing a plan or an answer. `rules` is the deterministic review its answer is merged
 * with (the rules stay authoritative), so a provider without a model can answer from it.
 */
export interface ReviewCallContext {
  purpose: "review";
  target: "plan" | "result";
  rules: Review;
}

export type CompletionContext =
  | PlannerContext
  | SolverContext
  | ToolCallContext
  | FieldCallContext
  | ReviewCallContext;
export type CompletionPurpose = CompletionContext["purpose"];

export interface CompletionRequest {
  system: string;
  prompt: string;
  /** The caller picks the planner / solver / tool / reviewer model; a provider falls back to its default. */
  model?: string;
  context: CompletionContext;
  signal?: AbortSignal;
}

export interface CompletionUsage {
  input_tokens: number;
  output_tokens: number;
  /**
   * "provider" when the backend reported the counts, "tokenizer" when we counted them ourselves,
   * "estimate" when a backend that always reports them did not (lambdas/llm/usage.ts estimatedUsage).
   */
  source: "provider" | "tokenizer" | "estimate";
}

export interface Completion {
  text: string;
  model: string;
  usage: CompletionUsage;
  /** The backend's stop/finish reason when it gives one: "max_tokens"/"length" means the text is cut off. */
  stop_reason?: string;
  /** Models tried before `model` answered (lambdas/llm/bedrock.ts fallbackModels), each with its error. */
  fallbacks?: Array<{ model: string; error: string }>;
}

/**
 * Stop reasons meaning the text is cut off: Bedrock's output limit ("max_tokens") or context window
 * ("model_context_window_exceeded"), OpenAI's "length". One list for the providers and the reviewer.
 */
const CUT_OFF_STOP_REASONS: ReadonlySet<string> = new Set([
  "max_tokens",
  "length",
  "model_context_window_exceeded",
]);

/** True when a completion's stop reason says its text was cut off. */
export function isCutOff(stopReason: string | undefined): boolean {
  return stopReason !== undefined && CUT_OFF_STOP_REASONS.has(stopReason);
}

export interface LlmProvider {
  readonly name: string;
  complete(request: CompletionRequest): Promise<Completion>;
}

/**
 * The loan-agent plan's temperatures (docs/architecture.md, "Where this project comes from"): a
 * near-deterministic planner, a slightly freer solver.
 */
export const DEFAULT_TEMPERATURES: Readonly<Record<CompletionPurpose, number>> = {
  planner: 0.1,
  solver: 0.3,
  tool: 0.3,
  // Copying a value and its quote from a page: no creativity wanted.
  field: 0,
  // A review is a judgement against fixed criteria: the same plan should get the same scores.
  review: 0,
};
