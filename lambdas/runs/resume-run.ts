// Resuming a run: a new execution of the same workflow for the same run. Every step is idempotent
// (the planner reuses the stored plan, the worker the evidence stored `ok`, the solver the stored
// result), so the new execution redoes exactly what the old one did not finish: no tool or LLM call
// is repeated for work already done. Used by POST /v1/runs/{run_id}/resume, `rewoo runs resume`,
// and the local twin when it finds runs whose executions died with its process.
import { RESUMABLE_STATUSES, type RunStatus, UNFINISHED_STATUSES, WAITING_STATUSES } from "../core/types.ts";
import type { EventPublisher } from "../store/events.ts";
import type { RunStore } from "../store/runs.ts";
import { failUnstartedRun, type StartExecution } from "./start-run.ts";

/** A run that keeps failing is not redriven forever (the twin resumes at every boot). */
export const MAX_ATTEMPTS = 5;

/** Step Functions execution names are at most 80 characters. */
const MAX_EXECUTION_NAME = 80;

export class ResumeRefusedError extends Error {
  override name = "ResumeRefusedError";
  constructor(
    readonly runId: string,
    readonly status: RunStatus,
    message: string,
  ) {
    super(message);
  }
}

export interface ResumeDeps {
  runs: RunStore;
  startExecution: StartExecution;
  publisher: EventPublisher;
}

export async function resumeRun(
  runId: string,
  deps: ResumeDeps,
  options: {
    /** Said in the `resume` event: why the run is resumed. */
    reason: string;
    /** Also take runs that have not ended (their execution is known to be gone: the twin's boot). */
    orphaned?: boolean;
  },
): Promise<{ run_id: string; attempt: number; execution_name: string }> {
  const meta = await deps.runs.getMeta(runId);
  const allowed: RunStatus[] = [...RESUMABLE_STATUSES, ...(options.orphaned ? UNFINISHED_STATUSES : [])];
  if (!allowed.includes(meta.status)) {
    throw new ResumeRefusedError(
      runId,
      meta.status,
      `run ${runId} is ${meta.status}; only ${RESUMABLE_STATUSES.join(" or ")} runs can be resumed`,
    );
  }
  const attempt = meta.attempt ?? 1;
  // A run waiting for a person lost only its wait (the twin stopped), not its work: waiting again
  // is not another try, however often the twin restarts meanwhile.
  if (attempt >= MAX_ATTEMPTS && !WAITING_STATUSES.includes(meta.status)) {
    throw new ResumeRefusedError(
      runId,
      meta.status,
      `run ${runId} has already run ${attempt} times (the limit is ${MAX_ATTEMPTS}); start a new run instead`,
    );
  }
  const executionName = `${runId}-r${attempt + 1}`;
  if (executionName.length > MAX_EXECUTION_NAME) {
    throw new ResumeRefusedError(runId, meta.status, `run id ${runId} is too long to name another execution`);
  }
  if (!(await deps.runs.reopenRun(runId, { executionName, fromAttempt: attempt, allowed }))) {
    const now = await deps.runs.getMeta(runId);
    throw new ResumeRefusedError(
      runId,
      now.status,
      `run ${runId} was resumed or changed meanwhile (now ${now.status})`,
    );
  }
  await deps.publisher.publish(runId, { stage: "resume", attempt: attempt + 1, reason: options.reason });
  try {
    await deps.startExecution(executionName, { run_id: runId });
  } catch (error) {
    await failUnstartedRun(runId, error, deps).catch(() => undefined);
    throw error;
  }
  return { run_id: runId, attempt: attempt + 1, execution_name: executionName };
}
