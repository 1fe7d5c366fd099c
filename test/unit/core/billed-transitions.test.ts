// The transitions counted from the Task invocations (lambdas/core/billed-transitions.ts) against the
// states the real statemachine/rewoo.asl.json enters, run by the twin's Step Functions emulation
// with in-test Task handlers. Billed: each state entered, and each retry of one (AWS counts retries as
// transitions; the emulation records them as StateRetried, not as another StateEntered).
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { LocalStepFunctions, type TaskHandler } from "../../../infra/local/step-functions.ts";
import { transitionsOf, type WorkflowTask } from "../../../lambdas/core/billed-transitions.ts";

const ASL = fileURLToPath(new URL("../../../statemachine/rewoo.asl.json", import.meta.url));

interface Scenario {
  levels: string[][];
  needsReview?: boolean;
  /** Steps whose evidence is an error: the levels end failed and Replan is asked. */
  erroring?: string[];
  /** Replan's new plan (once); then it says nothing more to run. */
  replanLevels?: string[][];
  /** Work throws a retried Lambda error this many times for the first step before it succeeds. */
  flakyAttempts?: number;
  /** Solve throws an error nothing retries: the run goes to HandleFailure. */
  solveFails?: boolean;
}

const scenarios = new Map<string, Scenario>();
/** Per run: what each invocation would add (transitionsOf of its state and output). */
const counted = new Map<string, number>();

function count(runId: string, task: WorkflowTask, output: unknown): void {
  counted.set(runId, (counted.get(runId) ?? 0) + transitionsOf(task, output));
}

/** A handler that counts itself the way lambdas/runtime/invocation.ts does: output, or undefined when it threw. */
function task(
  name: WorkflowTask,
  body: (input: { run_id: string; step_id?: string }) => unknown,
): TaskHandler {
  return async (input) => {
    const event = input as { run_id: string; step_id?: string };
    let output: unknown;
    try {
      output = await body(event);
      return output;
    } finally {
      count(event.run_id, name, output);
    }
  };
}

const attempts = new Map<string, number>();
const scenarioOf = (runId: string) => scenarios.get(runId) as Scenario;
const replanned = new Set<string>();

const handlers: Record<string, TaskHandler> = {
  Plan: task("Plan", ({ run_id }) => ({ levels: scenarioOf(run_id).levels, max_concurrency: 4 })),
  ReviewPlan: task("ReviewPlan", ({ run_id }) => ({
    levels: scenarioOf(run_id).levels,
    max_concurrency: 4,
    needs_review: scenarioOf(run_id).needsReview === true,
    rejected: false,
    wait_for: "none",
    wait_seconds: 1,
  })),
  Work: task("Work", ({ run_id, step_id = "" }) => {
    const scenario = scenarioOf(run_id);
    const key = `${run_id}/${step_id}`;
    attempts.set(key, (attempts.get(key) ?? 0) + 1);
    if (step_id === scenario.levels[0]?.[0] && (attempts.get(key) ?? 0) <= (scenario.flakyAttempts ?? 0)) {
      throw Object.assign(new Error("throttled"), { name: "Lambda.TooManyRequestsException" });
    }
    return { run_id, step_id, status: scenario.erroring?.includes(step_id) ? "error" : "ok" };
  }),
  Replan: task("Replan", ({ run_id }) => {
    const scenario = scenarioOf(run_id);
    const again = scenario.replanLevels !== undefined && !replanned.has(run_id);
    replanned.add(run_id);
    return { levels: again ? scenario.replanLevels : [], max_concurrency: 4, replanned: again };
  }),
  Solve: task("Solve", ({ run_id }) => {
    if (scenarioOf(run_id).solveFails) throw Object.assign(new Error("no answer"), { name: "SolverError" });
    return { run_id };
  }),
  ReviewResult: task("ReviewResult", ({ run_id }) => ({ run_id })),
  Finalize: task("Finalize", () => ({ status: "SUCCEEDED" })),
  HandleFailure: task("HandleFailure", () => ({ status: "FAILED" })),
  AwaitInput: task("AwaitInput", () => ({ waiting: "input" })),
  AwaitApproval: task("AwaitApproval", () => ({ waiting: "approval" })),
  WaitTimedOut: task("WaitTimedOut", () => ({ timed_out: null })),
};

let sfn: LocalStepFunctions;
let runs = 0;

beforeAll(async () => {
  sfn = await LocalStepFunctions.fromFile(ASL, handlers, { retryIntervalOverrides: { Work: 0 } });
});

/** Runs a scenario; returns [transitions counted from the invocations, transitions the execution made, status]. */
async function run(scenario: Scenario): Promise<[number, number, string]> {
  runs += 1;
  const runId = `run-${runs}`;
  scenarios.set(runId, scenario);
  const { executionArn } = sfn.startExecution({ input: { run_id: runId } });
  const { status } = await sfn.waitForExecution(executionArn);
  const billed = sfn
    .history(executionArn)
    .filter((event) => event.type === "StateEntered" || event.type === "StateRetried").length;
  return [counted.get(runId) ?? 0, billed, status];
}

describe("transitionsOf", () => {
  it("counts what a successful run with two levels enters: 15 states", async () => {
    // Plan, ReviewPlan, PlanReviewed, RunLevels, RunSteps ×2, Work ×3, CheckSteps, AnyStepFailed,
    // Solve, ReviewResult, Finalize, Succeeded.
    const [fromInvocations, entered, status] = await run({ levels: [["A", "B"], ["C"]] });
    expect(status).toBe("SUCCEEDED");
    expect(entered).toBe(15);
    expect(fromInvocations).toBe(entered);
  });

  it("counts a retried Work attempt as one more transition each", async () => {
    const [fromInvocations, entered, status] = await run({ levels: [["A"], ["B"]], flakyAttempts: 2 });
    expect(status).toBe("SUCCEEDED");
    // Plan, ReviewPlan, PlanReviewed, RunLevels, RunSteps ×2, Work ×2 + 2 retries, CheckSteps,
    // AnyStepFailed, Solve, ReviewResult, Finalize, Succeeded.
    expect(entered).toBe(16);
    expect(fromInvocations).toBe(entered);
  });

  it("counts a replan that runs new levels, and one that leaves nothing to run", async () => {
    const [fromInvocations, entered, status] = await run({
      levels: [["A"], ["B"]],
      erroring: ["B", "C"],
      replanLevels: [["C"]],
    });
    expect(status).toBe("SUCCEEDED");
    expect(fromInvocations).toBe(entered);
  });

  it("counts a plan that failed review going straight to Finalize", async () => {
    const [fromInvocations, entered] = await run({ levels: [["A"]], needsReview: true });
    // Plan, ReviewPlan, PlanReviewed, Finalize, Succeeded.
    expect(entered).toBe(5);
    expect(fromInvocations).toBe(5);
  });

  it("counts a failure caught into HandleFailure and the Fail state after it", async () => {
    const [fromInvocations, entered, status] = await run({ levels: [["A"]], solveFails: true });
    expect(status).toBe("FAILED");
    expect(fromInvocations).toBe(entered);
  });

  it("reads the Choice states' fields from the output", () => {
    expect(transitionsOf("Plan", { levels: [["a"]] })).toBe(1);
    expect(transitionsOf("Work", undefined)).toBe(1);
    expect(transitionsOf("ReviewPlan", { levels: [["a"], ["b"], ["c"]], wait_for: "none" })).toBe(
      2 + 1 + 3 + 2,
    );
    expect(transitionsOf("ReviewPlan", { levels: [["a"]], wait_for: "input" })).toBe(2);
    expect(transitionsOf("ReviewPlan", { levels: [["a"]], rejected: true })).toBe(2);
    expect(transitionsOf("Replan", { levels: [["a"]], replanned: false })).toBe(2);
    expect(transitionsOf("Replan", { levels: [["a"], ["b"]], replanned: true })).toBe(2 + 1 + 2 + 2);
    expect(transitionsOf("Finalize", {})).toBe(2);
  });
});
