// What a run costs and how long it should have taken, from the executor's event log (the local
// Step Functions emulation's history) and the run's evidence timestamps.
import type { HistoryEvent } from "../infra/local/step-functions.ts";
import type { Evidence, Plan } from "../lambdas/core/types.ts";

/** AWS prices used for the cost columns (us-east-1, list prices; no free tier). */
export const PRICES = {
  /** Step Functions Standard: per state transition. */
  sfn_per_transition_usd: 0.025 / 1_000,
  /** Lambda requests: $0.20 per 1M. */
  lambda_per_request_usd: 0.2 / 1_000_000,
  /** Lambda duration, arm64: $0.0000133334 per GB-second. */
  lambda_per_gb_second_usd: 0.0000133334,
} as const;

export const TASK_STATES = ["Plan", "Work", "Solve", "Finalize", "HandleFailure"] as const;

/** Which function serves each Task state (the cost of an invocation depends on the function's memory). */
export const FUNCTION_OF_STATE: Record<string, string> = {
  Plan: "planner",
  // Asked only after levels in which a step failed (AnyStepFailed).
  Replan: "planner",
  ReviewPlan: "planner",
  AwaitInput: "planner",
  AwaitApproval: "planner",
  WaitTimedOut: "planner",
  ReviewResult: "solver",
  Work: "worker",
  Solve: "solver",
  Finalize: "finalize",
  HandleFailure: "finalize",
};

export interface HistoryAnalysis {
  /** StateEntered events: every state a Standard workflow enters is a billed transition (Map iterations' inner states included). */
  transitions: number;
  /** Task states entered (each one a Lambda invocation), plus retries. */
  lambda_invocations: number;
  invocations_by_function: Record<string, number>;
  /** Summed Task durations per function (ms), what Lambda bills. */
  task_ms_by_function: Record<string, number>;
  retries: number;
  execution_ms: number;
  planner_ms: number;
  solver_ms: number;
  finalize_ms: number;
}

export function analyzeHistory(history: readonly HistoryEvent[]): HistoryAnalysis {
  const first = history[0]?.timestamp ?? 0;
  const end = history.find((e) => e.type.startsWith("Execution") && e.type !== "ExecutionStarted");
  const invocations: Record<string, number> = {};
  const taskMs: Record<string, number> = {};
  let transitions = 0;
  let retries = 0;
  for (const event of history) {
    if (event.type === "StateEntered") transitions += 1;
    if (event.type === "StateRetried") retries += 1;
    const fn = event.stateName ? FUNCTION_OF_STATE[event.stateName] : undefined;
    if (!fn) continue;
    // Σ exits − Σ entries = Σ durations, whether or not concurrent Work states can be paired.
    if (event.type === "StateEntered") {
      invocations[fn] = (invocations[fn] ?? 0) + 1;
      taskMs[fn] = (taskMs[fn] ?? 0) - event.timestamp;
    } else if (event.type === "StateExited" || event.type === "StateFailed") {
      taskMs[fn] = (taskMs[fn] ?? 0) + event.timestamp;
    }
    if (event.type === "StateRetried") invocations[fn] = (invocations[fn] ?? 0) + 1;
  }
  return {
    transitions,
    lambda_invocations: Object.values(invocations).reduce((a, b) => a + b, 0),
    invocations_by_function: invocations,
    task_ms_by_function: taskMs,
    retries,
    execution_ms: end ? end.timestamp - first : Number.NaN,
    planner_ms: stateSpan(history, "Plan"),
    solver_ms: stateSpan(history, "Solve"),
    finalize_ms: stateSpan(history, "Finalize"),
  };
}

/** First entry to last exit of a state that runs once per execution. */
function stateSpan(history: readonly HistoryEvent[], name: string): number {
  const entered = history.find((e) => e.type === "StateEntered" && e.stateName === name);
  const exited = history.findLast((e) => e.type === "StateExited" && e.stateName === name);
  return entered && exited ? exited.timestamp - entered.timestamp : 0;
}

export function sfnCost(transitions: number): number {
  return transitions * PRICES.sfn_per_transition_usd;
}

export function lambdaCost(analysis: HistoryAnalysis, memoryMb: Record<string, number>): number {
  let cost = analysis.lambda_invocations * PRICES.lambda_per_request_usd;
  for (const [fn, ms] of Object.entries(analysis.task_ms_by_function)) {
    const gb = (memoryMb[fn] ?? 1024) / 1024;
    cost += (ms / 1000) * gb * PRICES.lambda_per_gb_second_usd;
  }
  return cost;
}

export interface Bounds {
  /** planner + Σ over levels of the slowest tool call + solver + finalize (the states that must run one after another). */
  lower_bound_ms: number;
  /** Same, with each level's steps list-scheduled on MaxConcurrency slots (what the Map state allows). */
  lower_bound_capped_ms: number;
  /** planner + the longest dependency chain of tool calls + solver + finalize. */
  critical_path_ms: number;
  /** Σ tool durations: what running every tool one after another would take. */
  sequential_tools_ms: number;
  levels: number;
  widest_level: number;
}

export function planBounds(
  plan: Plan,
  evidence: readonly Evidence[],
  fixed: { planner_ms: number; solver_ms: number; finalize_ms: number },
  maxConcurrency: number,
): Bounds {
  const duration = new Map(evidence.map((e) => [e.step_id, e.duration_ms]));
  const ms = (id: string) => duration.get(id) ?? 0;
  const around = fixed.planner_ms + fixed.solver_ms + fixed.finalize_ms;

  let levelSum = 0;
  let cappedSum = 0;
  for (const level of plan.levels) {
    levelSum += Math.max(0, ...level.map(ms));
    cappedSum += listSchedule(level.map(ms), maxConcurrency);
  }
  const finish = new Map<string, number>();
  for (const step of plan.steps) {
    // plan.steps are in dependency order (a step only uses earlier steps).
    const ready = Math.max(0, ...step.depends_on.map((dep) => finish.get(dep) ?? 0));
    finish.set(step.id, ready + ms(step.id));
  }
  return {
    lower_bound_ms: around + levelSum,
    lower_bound_capped_ms: around + cappedSum,
    critical_path_ms: around + Math.max(0, ...finish.values()),
    sequential_tools_ms: plan.steps.reduce((total, step) => total + ms(step.id), 0),
    levels: plan.levels.length,
    widest_level: Math.max(0, ...plan.levels.map((level) => level.length)),
  };
}

/** Makespan of jobs started in order on `slots` workers, each job on the first free worker (p-limit). */
export function listSchedule(durations: readonly number[], slots: number): number {
  const free = Array.from({ length: Math.max(1, slots) }, () => 0);
  for (const d of durations) {
    let at = 0;
    for (let i = 1; i < free.length; i++) if ((free[i] as number) < (free[at] as number)) at = i;
    free[at] = (free[at] as number) + d;
  }
  return Math.max(...free);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank.
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

// ------------------------------------------------------------------------------------------------
// State payload sizes. The twin's history() keeps a compact log (type, state, timestamp); the
// interpreter's own event stream carries each state's input and output. This probe tees the root
// executions' event streams (nested Map iterations report through them) and keeps, per execution,
// the largest JSON input/output seen. It only observes: every event is passed on unchanged.

export interface PayloadProbe {
  maxBytes(executionArn: string): { bytes: number; state: string } | undefined;
  uninstall(): void;
}

interface InterpreterEvent {
  type: string;
  input?: unknown;
  output?: unknown;
  state?: { name: string; input?: unknown; output?: unknown };
}

type RunFn = (
  this: unknown,
  input: unknown,
  options?: { _rootAbortSignal?: AbortSignal; context?: { Execution?: { Id?: string } } },
) => { eventLogs: AsyncGenerator<unknown>; [key: string]: unknown };

export async function installPayloadProbe(): Promise<PayloadProbe> {
  const lib = await import("aws-local-stepfunctions");
  const proto = lib.StateMachine.prototype as unknown as { run: RunFn };
  const original = proto.run;
  const largest = new Map<string, { bytes: number; state: string }>();
  const sizeOf = (value: unknown) =>
    value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), "utf8");

  proto.run = function probedRun(this: unknown, input, options) {
    const execution = original.call(this, input, options);
    const arn = options?.context?.Execution?.Id;
    if (options?._rootAbortSignal || !arn) return execution;
    const source = execution.eventLogs;
    const note = (bytes: number, state: string) => {
      const seen = largest.get(arn);
      if (!seen || bytes > seen.bytes) largest.set(arn, { bytes, state });
    };
    async function* tee(): AsyncGenerator<unknown> {
      for await (const raw of source) {
        const event = raw as InterpreterEvent;
        if (event.state) {
          note(sizeOf(event.state.input), `${event.state.name} input`);
          note(sizeOf(event.state.output), `${event.state.name} output`);
        }
        if (event.type === "ExecutionStarted") note(sizeOf(event.input), "execution input");
        if (event.type === "ExecutionSucceeded") note(sizeOf(event.output), "execution output");
        yield raw;
      }
    }
    return { ...execution, eventLogs: tee() };
  };
  return {
    maxBytes: (arn) => largest.get(arn),
    uninstall: () => {
      proto.run = original;
    },
  };
}

// ------------------------------------------------------------------------------------------------
// A latency model for LLM calls, to put ReWOO's and ReAct's wall times side by side with a model in
// the loop (the scripted model answers instantly). Clearly a model, not a measurement.

export const LLM_LATENCY_MODEL = {
  /** Per call: network + queueing + time to first token. */
  base_ms: 500,
  /** Prompt processing. */
  per_input_token_ms: 0.1,
  /** Generation (50 tokens/s). */
  per_output_token_ms: 20,
} as const;

export function modelledLlmMs(calls: ReadonlyArray<{ input_tokens: number; output_tokens: number }>): number {
  return calls.reduce(
    (total, call) =>
      total +
      LLM_LATENCY_MODEL.base_ms +
      call.input_tokens * LLM_LATENCY_MODEL.per_input_token_ms +
      call.output_tokens * LLM_LATENCY_MODEL.per_output_token_ms,
    0,
  );
}

// ------------------------------------------------------------------------------------------------
// Where the time above the lower bound goes, per level: from the level's RunSteps state entering to
// its first tool call starting (worker bookkeeping before the tool: idempotency check, plan and
// upstream evidence reads, the "started" event), the spread of the level's tool calls beyond its
// slowest one (start skew, MaxConcurrency waves), and from the last tool call finishing to the level's
// RunSteps state exiting (storing evidence, the "completed" event). The rest is between states.

export interface OverheadBreakdown {
  before_tools_ms: number;
  level_spread_ms: number;
  after_tools_ms: number;
  /** The reviewers' Tasks (ReviewPlan, ReviewResult) and a Replan, if any: work outside the bound's states. */
  review_tasks_ms: number;
  between_states_ms: number;
}

/** Task states a run passes through besides the bound's planner, levels, solver and finalize. */
const OUTSIDE_BOUND_TASKS = new Set(["ReviewPlan", "ReviewResult", "Replan"]);

export function overheadBreakdown(
  history: readonly HistoryEvent[],
  plan: Plan,
  evidence: readonly Evidence[],
  overheadMs: number,
): OverheadBreakdown {
  const byStep = new Map(evidence.map((e) => [e.step_id, e]));
  let before = 0;
  let spread = 0;
  let after = 0;
  plan.levels.forEach((level, index) => {
    const entered = history.find(
      (e) => e.type === "StateEntered" && e.stateName === "RunSteps" && e.index === index,
    );
    const exited = history.find(
      (e) => e.type === "StateExited" && e.stateName === "RunSteps" && e.index === index,
    );
    const items = level.flatMap((id) => byStep.get(id) ?? []);
    if (!entered || !exited || items.length === 0) return;
    const firstStart = Math.min(...items.map((e) => Date.parse(e.started_at)));
    const lastFinish = Math.max(...items.map((e) => Date.parse(e.finished_at)));
    const slowest = Math.max(...items.map((e) => e.duration_ms));
    before += firstStart - entered.timestamp;
    spread += lastFinish - firstStart - slowest;
    after += exited.timestamp - lastFinish;
  });
  let reviews = 0;
  for (const event of history) {
    if (!event.stateName || !OUTSIDE_BOUND_TASKS.has(event.stateName)) continue;
    if (event.type === "StateEntered") reviews -= event.timestamp;
    if (event.type === "StateExited" || event.type === "StateFailed") reviews += event.timestamp;
  }
  return {
    before_tools_ms: before,
    level_spread_ms: spread,
    after_tools_ms: after,
    review_tasks_ms: reviews,
    between_states_ms: overheadMs - before - spread - after - reviews,
  };
}
