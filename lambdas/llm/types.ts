// The one interface every LLM backend implements (README: Configuration). The planner, the solver and the
// `llm` tool each pass what they know as `context`, so the rule-based provider can plan and solve
// from structured data instead of re-parsing its own prompt.
import type { EvaluationRequest, Evidence, Plan, ToolCatalog } from "../core/types.ts";

export interface PlannerContext {
  purpose: "planner";
  request: EvaluationRequest;
  tools: ToolCatalog;
  maxSteps: number;
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

export type CompletionContext = PlannerContext | SolverContext | ToolCallContext;
export type CompletionPurpose = CompletionContext["purpose"];

export interface CompletionRequest {
  system: string;
  prompt: string;
  /** The caller picks the planner / solver / tool model; a provider falls back to its default. */
  model?: string;
  context: CompletionContext;
  signal?: AbortSignal;
}

export interface CompletionUsage {
  input_tokens: number;
  output_tokens: number;
  /** "provider" when the backend reported the counts, "tokenizer" when we counted them ourselves. */
  source: "provider" | "tokenizer";
}

export interface Completion {
  text: string;
  model: string;
  usage: CompletionUsage;
  /** The backend's stop/finish reason when it gives one: "max_tokens"/"length" means the text is cut off. */
  stop_reason?: string;
}

export interface LlmProvider {
  readonly name: string;
  complete(request: CompletionRequest): Promise<Completion>;
}

/** Seed 000's settings: a near-deterministic planner, a slightly freer solver. */
export const DEFAULT_TEMPERATURES: Readonly<Record<CompletionPurpose, number>> = {
  planner: 0.1,
  solver: 0.3,
  tool: 0.3,
};
