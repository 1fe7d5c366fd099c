// Tests of the Step Functions emulation itself, on the real statemachine/rewoo.asl.json with in-test
// handlers (the real handlers are exercised by the integration tests).
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { LocalStepFunctions, type TaskHandler } from "../../../infra/local/step-functions.ts";

const ASL = fileURLToPath(new URL("../../../statemachine/rewoo.asl.json", import.meta.url));

interface Scenario {
  levels: string[][];
  maxConcurrency: number;
  /** Work waits until this many steps of its level have started (or 2 s), to expose parallelism. */
  barrier?: boolean;
  workDelayMs?: number;
  /** Work waits for this before it returns (holds an execution RUNNING for as long as a test needs). */
  gate?: Promise<void>;
  planError?: Error;
  planResultBytes?: number;
  failingStep?: string;
  /** Steps whose tool call ends in error (evidence with status "error"; the Work state succeeds). */
  erroringSteps?: string[];
  /** Replan answers once with these levels (a new plan), then says nothing more to run. */
  replanLevels?: string[][];
  /** ReviewPlan says the plan did not pass review. */
  planNeedsReview?: boolean;
  /** ReviewPlan says the run waits for these, one after the other (each answered through its task token). */
  waits?: Array<"input" | "approval">;
  /** ReviewPlan says the plan was rejected once the waits are over. */
  rejected?: boolean;
}

type Call =
  | { state: "Work"; stepId: string; level: number; start: number; end: number; input: unknown }
  | {
      state: NonWorkState;
      start: number;
      end: number;
      input: unknown;
    };

const scenarios = new Map<string, Scenario>();
const calls = new Map<string, Call[]>();
let nextRun = 0;

function newRun(scenario: Scenario): string {
  nextRun += 1;
  const runId = `run-${nextRun}`;
  scenarios.set(runId, scenario);
  calls.set(runId, []);
  return runId;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function runIdOf(input: unknown): string {
  return (input as { run_id: string }).run_id;
}

type NonWorkState =
  | "Plan"
  | "ReviewPlan"
  | "AwaitInput"
  | "AwaitApproval"
  | "WaitTimedOut"
  | "Replan"
  | "Solve"
  | "ReviewResult"
  | "Finalize"
  | "HandleFailure";

function recorded(state: NonWorkState, body?: (input: unknown) => unknown) {
  const handler: TaskHandler = async (input) => {
    const start = performance.now();
    try {
      return (await body?.(input)) ?? {};
    } finally {
      calls.get(runIdOf(input))?.push({ state, start, end: performance.now(), input });
    }
  };
  return handler;
}

const startedPerLevel = new Map<string, number>();

const handlers: Record<string, TaskHandler> = {
  Plan: recorded("Plan", (input) => {
    const scenario = scenarios.get(runIdOf(input)) as Scenario;
    if (scenario.planError) throw scenario.planError;
    return {
      levels: scenario.levels,
      max_concurrency: scenario.maxConcurrency,
      ...(scenario.planResultBytes ? { padding: "x".repeat(scenario.planResultBytes) } : {}),
    };
  }),
  // The reviewer hands the plan's levels on (a plan that needs review skips straight to Finalize).
  ReviewPlan: recorded("ReviewPlan", (input) => {
    const runId = runIdOf(input);
    const scenario = scenarios.get(runId) as Scenario;
    const waited = only(runId, "AwaitInput").length + only(runId, "AwaitApproval").length;
    const next = scenario.waits?.[waited];
    return {
      levels: scenario.levels,
      max_concurrency: scenario.maxConcurrency,
      needs_review: scenario.planNeedsReview === true,
      rejected: next === undefined && scenario.rejected === true,
      wait_for: next ?? "none",
      wait_seconds: 60,
    };
  }),
  AwaitInput: recorded("AwaitInput"),
  AwaitApproval: recorded("AwaitApproval"),
  WaitTimedOut: recorded("WaitTimedOut"),
  Work: async (input) => {
    const { run_id, step_id, level_index } = input as {
      run_id: string;
      step_id: string;
      level_index: number;
    };
    const scenario = scenarios.get(run_id) as Scenario;
    const start = performance.now();
    const key = `${run_id}/${level_index}`;
    startedPerLevel.set(key, (startedPerLevel.get(key) ?? 0) + 1);
    if (scenario.barrier) {
      const levelSize = scenario.levels[level_index]?.length ?? 1;
      const deadline = performance.now() + 2_000;
      while ((startedPerLevel.get(key) ?? 0) < levelSize && performance.now() < deadline) await sleep(1);
    }
    if (scenario.workDelayMs) await sleep(scenario.workDelayMs);
    await scenario.gate;
    try {
      if (step_id === scenario.failingStep) {
        const error = new Error(`tool host for ${step_id} unreachable`);
        error.name = "Lambda.ServiceException";
        throw error;
      }
      return {
        run_id,
        step_id,
        status: scenario.erroringSteps?.includes(step_id) ? "error" : "ok",
        reused: false,
      };
    } finally {
      calls
        .get(run_id)
        ?.push({ state: "Work", stepId: step_id, level: level_index, start, end: performance.now(), input });
    }
  },
  Replan: recorded("Replan", (input) => {
    const runId = runIdOf(input);
    const scenario = scenarios.get(runId) as Scenario;
    const again = scenario.replanLevels !== undefined && only(runId, "Replan").length === 0;
    return {
      levels: again ? scenario.replanLevels : scenario.levels,
      max_concurrency: scenario.maxConcurrency,
      replanned: again,
    };
  }),
  Solve: recorded("Solve"),
  ReviewResult: recorded("ReviewResult"),
  Finalize: recorded("Finalize"),
  HandleFailure: recorded("HandleFailure"),
};

function works(runId: string) {
  return (calls.get(runId) ?? []).filter((call) => call.state === "Work");
}

function only(runId: string, state: Call["state"]) {
  return (calls.get(runId) ?? []).filter((call) => call.state === state);
}

const intersects = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

describe("LocalStepFunctions on statemachine/rewoo.asl.json", () => {
  let sfn: LocalStepFunctions;

  beforeAll(async () => {
    sfn = await LocalStepFunctions.fromFile(ASL, handlers, {
      region: "eu-west-1",
      accountId: "111122223333",
      // The ASL retries Lambda.* errors with 1 s backoff and jitter; tests need not wait for it.
      retryIntervalOverrides: { Work: 0, Plan: 0 },
    });
  });

  it("exposes the task states and a state machine ARN for the configured account", () => {
    expect([...sfn.taskStates].sort()).toEqual([
      "AwaitApproval",
      "AwaitInput",
      "Finalize",
      "HandleFailure",
      "Plan",
      "Replan",
      "ReviewPlan",
      "ReviewResult",
      "Solve",
      "WaitTimedOut",
      "Work",
    ]);
    expect(sfn.stateMachineArn).toBe("arn:aws:states:eu-west-1:111122223333:stateMachine:rewoo");
  });

  it("runs every step once, level after level, then Solve and Finalize", async () => {
    const runId = newRun({ levels: [["E1", "E2"], ["E3"]], maxConcurrency: 2, workDelayMs: 2 });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    const result = await sfn.waitForExecution(executionArn);

    expect(result.status).toBe("SUCCEEDED");
    const steps = works(runId);
    expect(steps.map((call) => (call.state === "Work" ? call.stepId : "")).sort()).toEqual([
      "E1",
      "E2",
      "E3",
    ]);
    for (const call of steps) {
      expect(call.input).toEqual({
        run_id: runId,
        level_index: call.state === "Work" ? call.level : -1,
        step_id: call.state === "Work" ? call.stepId : "",
      });
    }
    const level0 = steps.filter((call) => call.state === "Work" && call.level === 0);
    const level1 = steps.filter((call) => call.state === "Work" && call.level === 1);
    expect(level0).toHaveLength(2);
    expect(level1).toHaveLength(1);
    const lastOfLevel0 = Math.max(...level0.map((call) => call.end));
    expect(Math.min(...level1.map((call) => call.start))).toBeGreaterThanOrEqual(lastOfLevel0);

    const [solve] = only(runId, "Solve");
    const [finalize] = only(runId, "Finalize");
    expect(solve?.input).toEqual({ run_id: runId });
    expect(solve?.start).toBeGreaterThanOrEqual(Math.max(...steps.map((call) => call.end)));
    expect(finalize?.input).toEqual({ run_id: runId, mode: "success" });
    expect(finalize?.start).toBeGreaterThanOrEqual(solve?.end ?? Number.POSITIVE_INFINITY);
    expect(only(runId, "HandleFailure")).toHaveLength(0);
    // The levels leave only whether a step failed; no step failed, so the planner was not asked to replan.
    expect(result.output).toEqual({
      run_id: runId,
      plan: {
        levels: [["E1", "E2"], ["E3"]],
        max_concurrency: 2,
        needs_review: false,
        rejected: false,
        wait_for: "none",
        wait_seconds: 60,
      },
      levels_run: { failed: false },
    });
    expect(only(runId, "Replan")).toEqual([]);
  });

  it("asks Replan after levels with a failed step, runs the new plan's levels, and asks again while steps fail", async () => {
    const runId = newRun({
      levels: [["E1"], ["E2"]],
      maxConcurrency: 2,
      replanLevels: [["E1"], ["E3"]],
      erroringSteps: ["E2", "E3"],
    });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    expect((await sfn.waitForExecution(executionArn)).status).toBe("SUCCEEDED");
    const order = (calls.get(runId) ?? []).map((call) => (call.state === "Work" ? call.stepId : call.state));
    expect(order).toEqual([
      "Plan",
      "ReviewPlan",
      "E1",
      "E2",
      "Replan",
      "E1",
      "E3",
      "Replan",
      "Solve",
      "ReviewResult",
      "Finalize",
    ]);
  });

  it("skips the levels and the solver when the plan does not pass review, and finalizes", async () => {
    const runId = newRun({ levels: [["E1"], ["E2"]], maxConcurrency: 2, planNeedsReview: true });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    expect((await sfn.waitForExecution(executionArn)).status).toBe("SUCCEEDED");
    const order = (calls.get(runId) ?? []).map((call) => (call.state === "Work" ? call.stepId : call.state));
    expect(order).toEqual(["Plan", "ReviewPlan", "Finalize"]);
    expect(only(runId, "ReviewPlan").map((call) => call.input)).toEqual([
      { run_id: runId, action: "review" },
    ]);
  });

  it("waits for input, then approval, each through its task token, before any step runs", async () => {
    const runId = newRun({ levels: [["E1"]], maxConcurrency: 1, waits: ["input", "approval"] });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    const answer = async (state: "AwaitInput" | "AwaitApproval") => {
      while (only(runId, state).length === 0) await sleep(5);
      const [token] = sfn.openTaskTokens(executionArn);
      // The wait state's function got the payload with the token, not the lambda:invoke envelope.
      expect(only(runId, state)[0]?.input).toEqual({
        run_id: runId,
        action: "await",
        wait: state === "AwaitInput" ? "input" : "approval",
        task_token: token,
      });
      expect(works(runId)).toEqual([]);
      sfn.sendTaskSuccess(token as string, "{}");
    };
    await answer("AwaitInput");
    await answer("AwaitApproval");
    expect((await sfn.waitForExecution(executionArn)).status).toBe("SUCCEEDED");
    const order = (calls.get(runId) ?? []).map((call) => (call.state === "Work" ? call.stepId : call.state));
    expect(order).toEqual([
      "Plan",
      "ReviewPlan",
      "AwaitInput",
      "ReviewPlan",
      "AwaitApproval",
      "ReviewPlan",
      "E1",
      "Solve",
      "ReviewResult",
      "Finalize",
    ]);
  });

  it("finalizes a rejected plan without running a step", async () => {
    const runId = newRun({ levels: [["E1"]], maxConcurrency: 1, waits: ["approval"], rejected: true });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    while (only(runId, "AwaitApproval").length === 0) await sleep(5);
    sfn.sendTaskSuccess(sfn.openTaskTokens(executionArn)[0] as string, "{}");
    expect((await sfn.waitForExecution(executionArn)).status).toBe("SUCCEEDED");
    const order = (calls.get(runId) ?? []).map((call) => (call.state === "Work" ? call.stepId : call.state));
    expect(order).toEqual(["Plan", "ReviewPlan", "AwaitApproval", "ReviewPlan", "Finalize"]);
  });

  it("runs the steps of a level in parallel when max_concurrency > 1", async () => {
    const runId = newRun({ levels: [["E1", "E2", "E3"]], maxConcurrency: 3, barrier: true });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    expect((await sfn.waitForExecution(executionArn)).status).toBe("SUCCEEDED");

    const [a, b, c] = works(runId);
    expect(a && b && c).toBeTruthy();
    if (!a || !b || !c) return;
    expect(intersects(a, b) && intersects(b, c) && intersects(a, c)).toBe(true);
  });

  it("never overlaps steps when max_concurrency is 1", async () => {
    const runId = newRun({ levels: [["E1", "E2", "E3", "E4"]], maxConcurrency: 1, workDelayMs: 3 });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    expect((await sfn.waitForExecution(executionArn)).status).toBe("SUCCEEDED");

    const steps = works(runId).sort((x, y) => x.start - y.start);
    expect(steps).toHaveLength(4);
    for (let i = 0; i < steps.length; i += 1) {
      for (let j = i + 1; j < steps.length; j += 1) {
        expect(intersects(steps[i] as Call, steps[j] as Call)).toBe(false);
      }
    }
  });

  it("routes a Plan error to HandleFailure and ends FAILED with that error", async () => {
    class PlanValidationError extends Error {
      override name = "PlanValidationError";
    }
    const runId = newRun({
      levels: [],
      maxConcurrency: 1,
      planError: new PlanValidationError("cycle E1 -> E2 -> E1"),
    });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    const result = await sfn.waitForExecution(executionArn);

    const failure = only(runId, "HandleFailure");
    expect(failure).toHaveLength(1);
    expect(failure[0]?.input).toEqual({
      run_id: runId,
      mode: "failure",
      error: { Error: "PlanValidationError", Cause: "cycle E1 -> E2 -> E1" },
    });
    expect(result).toMatchObject({
      status: "FAILED",
      error: "PlanValidationError",
      cause: "cycle E1 -> E2 -> E1",
    });
    expect(result.stopDate).toBeInstanceOf(Date);
    expect(result.output).toBeUndefined();
    expect(works(runId)).toHaveLength(0);
    expect(only(runId, "Solve")).toHaveLength(0);
    expect(only(runId, "Finalize")).toHaveLength(0);
  });

  it("starts no further iterations or levels once a step has failed (like AWS, unlike the bare interpreter)", async () => {
    const runId = newRun({ levels: [["E1", "E2", "E3"], ["E4"]], maxConcurrency: 1, failingStep: "E1" });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    const result = await sfn.waitForExecution(executionArn);
    await sfn.idle(executionArn);

    expect(result).toMatchObject({ status: "FAILED", error: "Lambda.ServiceException" });
    // 1 attempt + 3 retries of E1, and nothing else.
    expect(works(runId).map((call) => (call.state === "Work" ? call.stepId : ""))).toEqual([
      "E1",
      "E1",
      "E1",
      "E1",
    ]);
    expect(only(runId, "HandleFailure")[0]?.input).toMatchObject({
      error: { Error: "Lambda.ServiceException", Cause: "tool host for E1 unreachable" },
    });
    expect(sfn.history(executionArn).filter((event) => event.type === "StateRetried")).toHaveLength(3);
  });

  it("fails without Catch when a task result exceeds the 256 KiB payload quota (States.DataLimitExceeded)", async () => {
    const runId = newRun({ levels: [["E1"]], maxConcurrency: 1, planResultBytes: 300 * 1024 });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    const result = await sfn.waitForExecution(executionArn);

    expect(result).toMatchObject({ status: "FAILED", error: "States.DataLimitExceeded" });
    expect(only(runId, "HandleFailure")).toHaveLength(0);
  });

  it("describes executions, is idempotent on a running name and rejects conflicting names", async () => {
    expect(() =>
      sfn.describeExecution(`${sfn.stateMachineArn.replace("stateMachine", "execution")}:nope`),
    ).toThrow(expect.objectContaining({ name: "ExecutionDoesNotExist" }));

    const runId = newRun({ levels: [["E1"]], maxConcurrency: 1, workDelayMs: 5 });
    const started = sfn.startExecution({ name: `exec-${runId}`, input: { run_id: runId } });
    expect(started.executionArn).toBe(`arn:aws:states:eu-west-1:111122223333:execution:rewoo:exec-${runId}`);

    const running = sfn.describeExecution(started.executionArn);
    expect(running).toMatchObject({
      status: "RUNNING",
      name: `exec-${runId}`,
      input: { run_id: runId },
      stateMachineArn: sfn.stateMachineArn,
    });
    expect(running.stopDate).toBeUndefined();
    // Handlers are invoked after StartExecution returns, as with Lambda.
    expect(calls.get(runId)).toHaveLength(0);

    const again = sfn.startExecution({ name: `exec-${runId}`, input: { run_id: runId } });
    expect(again).toEqual(started);
    expect(() => sfn.startExecution({ name: `exec-${runId}`, input: { run_id: "other" } })).toThrow(
      expect.objectContaining({ name: "ExecutionAlreadyExists" }),
    );

    const done = await sfn.waitForExecution(started.executionArn);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.stopDate?.getTime()).toBeGreaterThanOrEqual(done.startDate.getTime());
    // Names stay taken once the execution has closed.
    expect(() => sfn.startExecution({ name: `exec-${runId}`, input: { run_id: runId } })).toThrow(
      expect.objectContaining({ name: "ExecutionAlreadyExists" }),
    );
    expect(() => sfn.startExecution({ name: "has space", input: {} })).toThrow(
      expect.objectContaining({ name: "InvalidName" }),
    );

    const generated = sfn.startExecution({ input: { run_id: newRun({ levels: [], maxConcurrency: 1 }) } });
    expect(generated.executionArn).toMatch(/:execution:rewoo:[0-9a-f-]{36}$/);
    await sfn.waitForExecution(generated.executionArn);
  });

  it("stops a running execution: ABORTED at once, and nothing new starts", async () => {
    const runId = newRun({ levels: [["E1", "E2", "E3"]], maxConcurrency: 1, workDelayMs: 20 });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    while (!(startedPerLevel.get(`${runId}/0`) ?? 0)) await sleep(1);

    const { stopDate } = sfn.stopExecution(executionArn, {
      error: "UserCancelled",
      cause: "cancelled by test",
    });
    expect(sfn.describeExecution(executionArn)).toMatchObject({
      status: "ABORTED",
      error: "UserCancelled",
      cause: "cancelled by test",
      stopDate,
    });
    const result = await sfn.waitForExecution(executionArn);
    expect(result.status).toBe("ABORTED");
    // The handler that was running when the stop came is not cancelled; it finishes in the background.
    await sfn.idle(executionArn);
    expect(works(runId).map((call) => (call.state === "Work" ? call.stepId : ""))).toEqual(["E1"]);
    expect(only(runId, "Solve")).toHaveLength(0);
    expect(only(runId, "HandleFailure")).toHaveLength(0);
  });

  it("records a compact history of state transitions", async () => {
    const runId = newRun({ levels: [["E1", "E2"], ["E3"]], maxConcurrency: 2 });
    const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
    await sfn.waitForExecution(executionArn);

    const history = sfn.history(executionArn);
    const entered = history.filter((event) => event.type === "StateEntered").map((event) => event.stateName);
    for (const state of ["Plan", "RunLevels", "RunSteps", "Solve", "Finalize", "Succeeded"]) {
      expect(entered).toContain(state);
    }
    expect(entered.filter((state) => state === "Work")).toHaveLength(3);
    expect(history[0]?.type).toBe("ExecutionStarted");
    expect(history.at(-1)?.type).toBe("ExecutionSucceeded");
    for (const event of history) {
      expect(
        Object.keys(event).every((key) =>
          ["type", "stateName", "stateType", "timestamp", "index", "error", "cause"].includes(key),
        ),
      ).toBe(true);
    }
  });
});

describe("LocalStepFunctions: closed executions kept", () => {
  const KEPT = 2;
  let sfn: LocalStepFunctions;

  beforeAll(async () => {
    sfn = await LocalStepFunctions.fromFile(ASL, handlers, { closedExecutionsKept: KEPT });
  });

  const run = async (name: string, scenario: Scenario = { levels: [["E1"]], maxConcurrency: 1 }) => {
    const runId = newRun(scenario);
    const { executionArn } = sfn.startExecution({ name, input: { run_id: runId } });
    return { runId, executionArn, done: sfn.waitForExecution(executionArn) };
  };
  const names = () => sfn.listExecutions().map((execution) => execution.name);

  it("forgets the oldest closed executions beyond the bound, never a running one", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const long = await run("long", { levels: [["E1"]], maxConcurrency: 1, gate });
    const closed: string[] = [];
    for (const name of ["a", "b", "c", "d"]) {
      const execution = await run(name);
      await execution.done;
      closed.push(execution.executionArn);
    }
    // The running execution stays whatever the bound; of the closed ones, the last KEPT.
    expect(names().sort()).toEqual(["c", "d", "long"]);
    expect(sfn.describeExecution(long.executionArn).status).toBe("RUNNING");
    expect(() => sfn.describeExecution(closed[0] as string)).toThrow(
      expect.objectContaining({ name: "ExecutionDoesNotExist" }),
    );
    expect(() => sfn.history(closed[1] as string)).toThrow(
      expect.objectContaining({ name: "ExecutionDoesNotExist" }),
    );
    expect(sfn.history(closed[3] as string).at(-1)?.type).toBe("ExecutionSucceeded");

    // Once it closes, it is the newest closed execution, and the oldest kept one goes.
    release();
    expect((await long.done).status).toBe("SUCCEEDED");
    expect(names().sort()).toEqual(["d", "long"]);

    // close() stops what runs (which forgets the oldest closed one) and still waits for its handler.
    let releaseLast!: () => void;
    const last = await run("e", {
      levels: [["E1"]],
      maxConcurrency: 1,
      gate: new Promise<void>((resolve) => {
        releaseLast = resolve;
      }),
    });
    while (!startedPerLevel.get(`${last.runId}/0`)) await sleep(1);
    const closing = sfn.close({ timeoutMs: 5_000 });
    releaseLast();
    await expect(closing).resolves.toBeUndefined();
    expect(sfn.describeExecution(last.executionArn).status).toBe("ABORTED");
    expect(names().sort()).toEqual(["e", "long"]);
  });

  it("rejects a bound that is not a whole number of executions", async () => {
    await expect(LocalStepFunctions.fromFile(ASL, handlers, { closedExecutionsKept: -1 })).rejects.toThrow(
      /closedExecutionsKept must be an integer ≥ 0, got -1/,
    );
  });
});

describe("LocalStepFunctions.fromFile", () => {
  const noop: TaskHandler = async () => ({});
  const all = {
    Plan: noop,
    ReviewPlan: noop,
    AwaitInput: noop,
    AwaitApproval: noop,
    WaitTimedOut: noop,
    Replan: noop,
    Work: noop,
    Solve: noop,
    ReviewResult: noop,
    Finalize: noop,
    HandleFailure: noop,
  };

  it("rejects handlers for states that are not task states, naming the task states", async () => {
    await expect(LocalStepFunctions.fromFile(ASL, { ...all, Planner: noop })).rejects.toThrow(
      /Planner.*task states: Plan, ReviewPlan, AwaitInput, AwaitApproval, WaitTimedOut, Work, Replan, Solve, ReviewResult, Finalize, HandleFailure/,
    );
  });

  it("rejects a definition with a task state that has no handler", async () => {
    const { Work: _work, ...withoutWork } = all;
    await expect(LocalStepFunctions.fromFile(ASL, withoutWork)).rejects.toThrow(
      /No handler for the task states Work/,
    );
  });
});
