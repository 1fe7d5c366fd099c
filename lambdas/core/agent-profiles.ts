// What an agent tells the engine: the planner, the reviewers, the waits and the solver ask a run's
// profile what differs between agents (how a plan is read and checked, what must be asked before
// tools run, how an answer changes the plan, who writes the result); the workflow, the worker, the
// stores and the API are the same for all. Each agent lives in its own folder and is registered by
// name in the agent registry (docs/agents.md); the engine never imports one. Pure.
import type { AnswerWords } from "./interaction.ts";
import type { PlanReviewPromptInput, ResultReviewPromptInput } from "./model-review.ts";
import type { RenderedPrompt } from "./prompts.ts";
import type { PlanReviewRules } from "./review.ts";
import type {
  Clarification,
  EvaluationRequest,
  Evidence,
  InputQuestion,
  InstructionReading,
  Plan,
  ProfileName,
  Review,
  ReviewIssue,
  RunResult,
  ToolCatalog,
} from "./types.ts";

export interface PlanningInput {
  tools: ToolCatalog;
  maxSteps: number;
  request: EvaluationRequest;
  scope: InstructionReading | undefined;
}

export interface AgentProfileModule {
  name: ProfileName;
  /** A planner's text → the validated plan (throws PlanParseError / PlanValidationError). */
  planFromText(text: string, input: PlanningInput): Plan;
  /** Tools whose failure is worth planning again for. */
  requiredTools(plan: Plan, request: EvaluationRequest): ReadonlySet<string>;
  /**
   * Tools that change something for someone (move money, block a card, open an account). Once one
   * has run, whatever its outcome, the run is never planned again on its own: a new plan could act a
   * second time. A new plan that contains one is reviewed and confirmed again before it runs.
   */
  actingTools?: ReadonlySet<string>;
  /**
   * The rules' review of a plan, for profiles that review by their own rules alone; absent: the
   * engine's plan reviewer (its rules with `reviewRules`, then with a hosted model the model, asked
   * through `reviewerPrompts`).
   */
  reviewPlan?(plan: Plan, request: EvaluationRequest, threshold: number | undefined): Review;
  /**
   * What the agent's rules add to the engine's reviewers (its rules, then with a hosted model the
   * model's opinion): for a plan, the steps it must contain and issues with a step or the whole plan;
   * for a result, its issues with it against the evidence (`reading`: the plan's). Absent: the
   * engine's rules alone. Not read where reviewPlan / reviewResult review instead.
   */
  reviewRules?: {
    plan?(plan: Plan, request: EvaluationRequest): PlanReviewRules;
    result?(result: RunResult, evidence: Evidence[], reading: InstructionReading | undefined): ReviewIssue[];
  };
  /**
   * The prompts that ask a hosted reviewer model about a plan or a result after the rules'
   * review (lambdas/core/model-review.ts); absent: the rules' review stands alone.
   */
  reviewerPrompts?: {
    plan(input: PlanReviewPromptInput): RenderedPrompt;
    result(input: ResultReviewPromptInput): RenderedPrompt;
  };
  /**
   * The agent's words in the answers the engine writes itself (a plan rejected, or failing review):
   * what was not done besides calling tools, and who should look at the request. Absent: only "no
   * tool was called" is said, and "a person" should look.
   */
  answerWords?: AnswerWords;
  /** What the run must ask before any tool runs; absent: what the plan's tools ask (ToolDefinition.questions). */
  questions?(request: EvaluationRequest): InputQuestion[];
  /** The request and plan once the caller answered (`answers` keyed by the asked fields). */
  answered(
    request: EvaluationRequest,
    plan: Plan,
    answers: Record<string, unknown>,
    input: Omit<PlanningInput, "request">,
  ): { request: EvaluationRequest; plan: Plan };
  /**
   * The request checked against what the customer holds, before anything is confirmed: details
   * settled (filled or removed, with questions naming the choices), or a refusal told to the customer.
   * Absent: nothing to check. `plan` is the plan written again when the details changed. `holdings`
   * is what the planner's reader of customers' holdings returns for the run's customer; the engine
   * passes it on unread and the agent reads it as its own.
   */
  check?(
    request: EvaluationRequest,
    holdings: unknown,
    input: Omit<PlanningInput, "request">,
  ): { request: EvaluationRequest; plan?: Plan; refusal?: string };
  /** The result from the evidence, for profiles that answer by their own rules; absent: the solver model writes it (`solver`). */
  answer?(request: EvaluationRequest, plan: Plan, evidence: Evidence[]): RunResult;
  /** The review of a result by the profile's own rules; absent: the engine's result reviewer (as for `reviewPlan`). */
  reviewResult?(result: RunResult, evidence: Evidence[], threshold: number | undefined): Review;
  /**
   * The request as the planner's text reads it (a hosted planner may also write its reading of the
   * customer's message); absent or unchanged: the request stands. `problems`: a reading that was unusable.
   */
  readRequest?(text: string, request: EvaluationRequest): { request: EvaluationRequest; problems: string[] };
  /**
   * The plan text the offline `rule-based` provider writes for this agent's request (what a
   * competent model would plan); absent: the provider's own planner (lambdas/llm/rule-based.ts).
   */
  offlinePlanText?(request: EvaluationRequest): string;
  /**
   * A plan's reading of the instructions as the planner's and the reviewers' prompts show it;
   * absent: its interpretation.
   */
  describeReading?(reading: InstructionReading): string;
  /**
   * The planner's role and the prompt template it plans from (lambdas/core/prompts.ts); absent:
   * GENERIC_PLANNER_PROMPT. `overridable`: the deployment's REWOO_PLANNER_PROMPT, when set,
   * replaces the template.
   */
  plannerPrompt?: AgentPrompt;
  /** What the prompts show as the instruction of a request that has none; absent: NO_INSTRUCTIONS. */
  defaultInstructions?: string;
  /**
   * How the solver model answers for an agent without `answer`: its role and template
   * (`overridable`: REWOO_SOLVER_PROMPT replaces it), larger evidence budgets for the tools whose
   * output is the answer itself, and the reading of the model's text into the result (`warnings`:
   * what had to be repaired). An agent needs `answer` or this.
   */
  solver?: AgentPrompt & {
    evidenceBudgets?: Readonly<Record<string, number>>;
    readAnswer(
      text: string,
      input: { plan: Plan; evidence: Evidence[]; clarification: Clarification | undefined },
    ): { result: RunResult; warnings: string[] };
  };
}

/** An agent's prompt for one model role. */
export interface AgentPrompt {
  system: string;
  template: string;
  /** The deployment's template setting for this role, when set, replaces `template`. */
  overridable?: boolean;
}

/** The template a role plans or answers from: the deployment's, when the agent lets it replace its own. */
export function chosenTemplate(prompt: AgentPrompt, configured: string | undefined): string {
  return prompt.overridable && configured ? configured : prompt.template;
}
