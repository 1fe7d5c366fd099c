// What a provider does with an answer it cannot hand over whole: one cut off at the output token
// limit, or one with no text at all. The planner parses whatever it is given: a text-format plan cut
// off after its third step parses as a three-step plan, and a solver answer cut off mid-list loses the
// verdicts after the cut. So for them (and the `llm` tool, and field lookups) such an answer is a
// named error, never a completion. The reviewer is the exception: it reads `stop_reason` itself and
// lets the rule-based review stand when the model's answer is unusable.
import type { Completion, CompletionPurpose, CompletionUsage } from "./types.ts";

/** The four configurable roles (lambdas/llm/index.ts): each purpose is served by one of them. */
export type LlmRole = "planner" | "solver" | "tool" | "reviewer";

export const ROLE_OF_PURPOSE: Readonly<Record<CompletionPurpose, LlmRole>> = {
  planner: "planner",
  solver: "solver",
  tool: "tool",
  // Conditions AI's field lookups go through the `llm` tool's binding.
  field: "tool",
  review: "reviewer",
};

/** The environment variable that sets a role's output token limit (lambdas/runtime/config.ts). */
export function maxTokensSetting(role: LlmRole): string {
  return `REWOO_${role.toUpperCase()}_MAX_TOKENS`;
}

/** Purposes whose caller judges a cut-off or empty answer itself (lambdas/runtime/reviewer.ts). */
const READS_UNUSABLE_ANSWERS: ReadonlySet<CompletionPurpose> = new Set(["review"]);

export class LlmOutputTruncatedError extends Error {
  override name = "LlmOutputTruncatedError";
  constructor(
    message: string,
    readonly stopReason: string,
    /** The call was paid for: a caller that counts usage can still count it. */
    readonly usage: CompletionUsage,
  ) {
    super(message);
  }
}

export class LlmEmptyOutputError extends Error {
  override name = "LlmEmptyOutputError";
  constructor(
    message: string,
    readonly usage?: CompletionUsage,
  ) {
    super(message);
  }
}

/** Bedrock's Converse stop reason when a guardrail blocked the input or masked the output. */
export const GUARDRAIL_INTERVENED = "guardrail_intervened";

/** A guardrail the Bedrock calls are made under (REWOO_BEDROCK_GUARDRAIL_ID / _VERSION). */
export interface GuardrailSettings {
  id: string;
  /** A published version ("1", "2", …) or "DRAFT". */
  version: string;
}

/**
 * The guardrail stepped in: what came back is the guardrail's own message, not the model's answer,
 * so no caller may read it as one (a plan, a verdict, a review). Named, so the run's error says
 * which guardrail and which role, and never retried: the same input meets the same policy.
 */
export class LlmGuardrailInterventionError extends Error {
  override name = "LlmGuardrailIntervened";
  constructor(
    message: string,
    /** Undefined only if Bedrock reports an intervention on a call sent without one. */
    readonly guardrail: GuardrailSettings | undefined,
    readonly model: string,
    /** The call was paid for (and the guardrail's assessment with it): its caller counts it. */
    readonly usage: CompletionUsage,
  ) {
    super(message);
  }
}

export interface AnswerCheck {
  /** "Bedrock Converse" or "OpenAI-compatible": the start of every message. */
  provider: string;
  purpose: CompletionPurpose;
  /** The limit the request was sent with; undefined when the server's default applied. */
  maxTokens: number | undefined;
  /** True when the backend's stop reason says the output hit the token limit. */
  truncated: boolean;
}

/**
 * The completion, or the error its caller needs: a cut-off answer names the role's setting to raise,
 * so an operator reading a failed run knows what to change.
 */
export function checkedCompletion(completion: Completion, check: AnswerCheck): Completion {
  if (READS_UNUSABLE_ANSWERS.has(check.purpose)) return completion;
  const role = ROLE_OF_PURPOSE[check.purpose];
  if (check.truncated) {
    const limit =
      check.maxTokens === undefined ? "the server's default limit" : `maxTokens ${check.maxTokens}`;
    throw new LlmOutputTruncatedError(
      `${check.provider} model ${completion.model} stopped at the output token limit (${limit}, stop reason ${completion.stop_reason}) ` +
        `while answering as the ${check.purpose === "field" ? "field lookup" : role}: the cut-off answer is not used; ` +
        `raise ${maxTokensSetting(role)} or ask for a shorter answer`,
      completion.stop_reason ?? "unknown",
      completion.usage,
    );
  }
  if (completion.text.trim() === "") {
    throw new LlmEmptyOutputError(
      `${check.provider} model ${completion.model} returned no text (stop reason ${completion.stop_reason ?? "none"}) while answering as the ${role}`,
      completion.usage,
    );
  }
  return completion;
}
