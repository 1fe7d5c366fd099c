// How many Step Functions state transitions a run's workflow (statemachine/rewoo.asl.json) spends,
// counted from the Lambda invocations of its Task states. A standard workflow is billed per state
// entered, retries included; every Task state of this workflow invokes one of our functions, so each
// invocation counts its own state, and a successful one also the control states the ASL enters after
// it before the next Task (Choice, Pass, Map, Succeed, Fail), read from the invocation's output the
// way the ASL's Choice rules read it.
//
// Why not GetExecutionHistory: it would need the history of every execution of the run (resumes start
// new ones), one more IAM grant and paginated calls at Finalize, and the local twin's Step Functions
// API does not serve it; counting here costs one counter update per invocation that is made anyway
// (lambdas/runtime/invocation.ts). test/unit/core/billed-transitions.test.ts checks the assumptions
// below against the ASL itself.

/** The Task states of statemachine/rewoo.asl.json (the Work state runs inside the RunLevels/RunSteps Maps). */
export type WorkflowTask =
  | "Plan"
  | "ReviewPlan"
  | "AwaitInput"
  | "AwaitApproval"
  | "WaitTimedOut"
  | "Work"
  | "Replan"
  | "Solve"
  | "ReviewResult"
  | "Finalize"
  | "HandleFailure";

/** What a Task's output tells the Choice states after it (only the fields they test). */
interface LevelsOutput {
  levels?: unknown;
  needs_review?: unknown;
  rejected?: unknown;
  wait_for?: unknown;
  replanned?: unknown;
}

/**
 * The transitions one invocation of `task` accounts for. `output` is what the invocation returned;
 * undefined when it threw (then only its own state, entered once per attempt, counts: a retry enters it
 * again and a Catch's target is a Task counted by its own invocation).
 */
export function transitionsOf(task: WorkflowTask, output?: unknown): number {
  if (output === undefined) return 1;
  const result = (typeof output === "object" && output !== null ? output : {}) as LevelsOutput;
  switch (task) {
    case "ReviewPlan": {
      // ReviewPlan → PlanReviewed (Choice) → Finalize / AwaitInput / AwaitApproval (Tasks) or RunLevels.
      const toFinalize = result.needs_review === true || result.rejected === true;
      const toWait = result.wait_for === "input" || result.wait_for === "approval";
      return 2 + (toFinalize || toWait ? 0 : levelsPass(result.levels));
    }
    case "Replan":
      // Replan → Replanned (Choice) → RunLevels when it replanned, else Solve (a Task).
      return 2 + (result.replanned === true ? levelsPass(result.levels) : 0);
    case "Finalize": // → Succeeded
    case "HandleFailure": // → Failed
      return 2;
    default:
      // Plan → ReviewPlan, the waits → ReviewPlan, WaitTimedOut → ReviewPlan, Work (the last state of
      // its iteration), Solve → ReviewResult, ReviewResult → Finalize: the next state is a Task.
      return 1;
  }
}

/**
 * One pass of the levels: the RunLevels Map, one RunSteps Map per level (its Work states are counted
 * by the workers' invocations), then CheckSteps (Pass) and AnyStepFailed (Choice), which leads to
 * Replan or Solve, both Tasks.
 */
function levelsPass(levels: unknown): number {
  const count = Array.isArray(levels) ? levels.length : 0;
  return 1 + count + 2;
}
