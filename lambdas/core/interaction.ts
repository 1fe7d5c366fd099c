// Runs that wait for a person: a question to the caller (clarification) and an operator's approval
// of the plan. The state machine waits with a task token; these pure rules decide what the run waits
// for next, check an answer, and apply it to the request and the plan.
import { noFindings } from "../contracts/run-result.ts";
import type { Approval, Clarification, EvaluationRequest, InputQuestion, Plan, RunResult } from "./types.ts";

/** What the state machine does after the plan review (the ReviewPlan state's `wait_for`). */
export type WaitFor = "input" | "approval" | "none";

export interface WaitDecision {
  wait_for: WaitFor;
  /** Seconds the wait state waits (TimeoutSecondsPath); 1 when nothing is waited for. */
  wait_seconds: number;
  /** True: an operator rejected the plan (or approved nothing in time): Finalize ends the run REJECTED. */
  rejected: boolean;
}

export interface WaitState {
  request: EvaluationRequest;
  clarification?: Clarification;
  approval?: Approval;
  /** Questions the plan's steps still have for the caller (empty: nothing is missing). */
  questions: InputQuestion[];
  /** Whether this run may ask (its options and the environment's default). */
  mayAsk: boolean;
  approvalRequired: boolean;
  /** How long a run waits for a person, in seconds. */
  waitSeconds: number;
  now: Date;
}

/**
 * Input first (an approver should see the plan with the answer applied), then approval; each asked
 * once. A resumed run that was waiting waits again until the first deadline, not a new full period.
 */
export function nextWait(state: WaitState): WaitDecision {
  const { clarification, approval } = state;
  if (approval?.status === "rejected" || approval?.status === "timed_out") {
    return { wait_for: "none", wait_seconds: 1, rejected: true };
  }
  if (clarification?.status === "asked") {
    return {
      wait_for: "input",
      wait_seconds: secondsUntil(clarification.deadline, state.now),
      rejected: false,
    };
  }
  if (!clarification && state.mayAsk && state.questions.length > 0) {
    return { wait_for: "input", wait_seconds: state.waitSeconds, rejected: false };
  }
  if (state.approvalRequired && (!approval || approval.status === "pending")) {
    const seconds = approval ? secondsUntil(approval.deadline, state.now) : state.waitSeconds;
    return { wait_for: "approval", wait_seconds: seconds, rejected: false };
  }
  return { wait_for: "none", wait_seconds: 1, rejected: false };
}

function secondsUntil(deadline: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(deadline) - now.getTime()) / 1000));
}

export function deadlineAfter(now: Date, seconds: number): string {
  return new Date(now.getTime() + seconds * 1000).toISOString();
}

/** The request's own choice, else the environment's default. */
export function approvalRequired(request: EvaluationRequest, byDefault: boolean): boolean {
  const asked = request.options?.approval;
  return asked === undefined ? byDefault : asked === "required";
}

export function mayAsk(request: EvaluationRequest, byDefault: boolean): boolean {
  const asked = request.options?.clarification;
  return asked === undefined ? byDefault : asked === "ask";
}

/** Questions merged by field (two steps may need the same input for different findings). */
export function mergeQuestions(questions: Iterable<InputQuestion>): InputQuestion[] {
  const byField = new Map<string, InputQuestion>();
  for (const question of questions) {
    const known = byField.get(question.field);
    if (!known) {
      byField.set(question.field, { ...question, conditions: [...question.conditions] });
      continue;
    }
    for (const id of question.conditions) if (!known.conditions.includes(id)) known.conditions.push(id);
    if (!known.why.includes(question.why)) known.why = `${known.why}; ${question.why}`;
  }
  return [...byField.values()];
}

// ---------------------------------------------------------------- answers

export class AnswerError extends Error {
  override name = "AnswerError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/**
 * The body of `POST /v1/runs/{run_id}/input`: `{answers: {"<asked field>": value, ...}}`. At least one
 * asked field; no field that was not asked (an answer supplies what was missing, it does not rewrite
 * the request). Values are checked against what the question expects by the caller (see ToolDefinition.questions).
 */
export function readAnswers(body: unknown, questions: readonly InputQuestion[]): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new AnswerError("body", 'expected a JSON object {"answers": {"<field>": value}}');
  }
  const extra = Object.keys(body).filter((key) => key !== "answers");
  if (extra.length > 0) throw new AnswerError(extra[0] as string, 'unknown field; expected only "answers"');
  const answers = (body as { answers?: unknown }).answers;
  if (answers === null || typeof answers !== "object" || Array.isArray(answers)) {
    throw new AnswerError("answers", `expected an object keyed by the asked fields (${asked(questions)})`);
  }
  const fields = new Set(questions.map((question) => question.field));
  const entries = Object.entries(answers as Record<string, unknown>);
  if (entries.length === 0) {
    throw new AnswerError("answers", `expected at least one of the asked fields (${asked(questions)})`);
  }
  for (const [field, value] of entries) {
    if (!fields.has(field)) {
      throw new AnswerError(
        `answers.${field}`,
        `this run did not ask for it; it asked for ${asked(questions)}`,
      );
    }
    if (value === null || value === undefined || (typeof value === "string" && value.trim() === "")) {
      const expected = questions.find((question) => question.field === field)?.expected ?? "a value";
      throw new AnswerError(`answers.${field}`, `expected ${expected}`);
    }
    if (typeof value === "object") {
      throw new AnswerError(`answers.${field}`, "expected a string or a number, not an object or a list");
    }
  }
  return Object.fromEntries(entries);
}

function asked(questions: readonly InputQuestion[]): string {
  return questions.map((question) => question.field).join(", ");
}

/** Metadata with each answered dotted field set (objects on the way are created or copied, never shared). */
export function withAnswers(
  metadata: Record<string, unknown>,
  answers: Record<string, unknown>,
): Record<string, unknown> {
  const result = structuredClone(metadata);
  for (const [field, value] of Object.entries(answers)) {
    const path = field.split(".");
    let node: Record<string, unknown> = result;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      node[key] = next !== null && typeof next === "object" && !Array.isArray(next) ? next : {};
      node = node[key] as Record<string, unknown>;
    }
    node[path[path.length - 1] as string] = value;
  }
  return result;
}

/**
 * The plan with the answers applied to every step that carries the request's metadata in its args
 * (the steps have not run: nothing is called twice).
 */
export function planWithAnswers(plan: Plan, answers: Record<string, unknown>): Plan {
  return {
    ...plan,
    steps: plan.steps.map((step) => {
      const metadata = step.args.metadata;
      if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) return step;
      return {
        ...step,
        args: { ...step.args, metadata: withAnswers(metadata as Record<string, unknown>, answers) },
      };
    }),
  };
}

// ---------------------------------------------------------------- results

/**
 * The agent's words in the answers the engine writes itself (AgentProfileModule.answerWords): what
 * was not done when no tool ran, said after "no tool was called and", and who should look at a
 * request whose plan failed review.
 */
export interface AnswerWords {
  notDone: string;
  reviewer: string;
}

/** "no tool was called", and what else was not done in the agent's words. */
export function noToolCalled(words: AnswerWords | undefined): string {
  return `no tool was called${words ? ` and ${words.notDone}` : ""}`;
}

/** The answer of a run whose plan an operator rejected (or did not approve in time): nothing was done. */
export function rejectedAnswer(approval: Approval, words?: AnswerWords): RunResult {
  const why =
    approval.status === "timed_out"
      ? `no operator approved the plan by ${approval.deadline}`
      : `an operator rejected the plan${approval.reason ? `: ${approval.reason}` : ""}`;
  return {
    summary: `Rejected: ${why}, so ${noToolCalled(words)}.`,
    ...noFindings(),
    missing_information: [],
    recommendations: [
      approval.status === "timed_out"
        ? "Start the evaluation again when an operator can approve its plan in time"
        : "Correct the request (documents, metadata, instructions) as the operator asked and start a new evaluation",
    ],
  };
}

/** The answer of a run its agent refused before anything was asked or run (AgentProfileModule.check). */
export function refusedAnswer(refusal: string): RunResult {
  return {
    summary: refusal,
    ...noFindings(),
    missing_information: [],
    recommendations: [],
  };
}
