// Starting a run: create the run record, start the execution named after the run. Shared by the API's
// start handler, the batch function's lines and the twin, so all start runs the same way. The request
// comes validated (ValidatedRequest): each caller validates it where it entered, once.

import type { ValidatedRequest } from "../core/request.ts";
import type { EventPublisher } from "../store/events.ts";
import { timeOrderedId } from "../store/keys.ts";
import type { RunMode, RunStore } from "../store/runs.ts";

export type StartExecution = (name: string, input: { run_id: string }) => Promise<unknown>;

/** What newRunId produces (and what the API accepts as a run id in its paths). */
export const RUN_ID_PATTERN = /^run-[\w-]{1,100}$/;

export function newRunId(now = new Date()): string {
  return timeOrderedId("run", now);
}

/**
 * The run record was created but its execution could not be started. The run has been marked
 * FAILED (nothing would ever move it on from PLANNING otherwise); `cause` is the start error.
 */
export class StartExecutionError extends Error {
  override name = "StartExecutionError";
  constructor(
    readonly runId: string,
    override readonly cause: unknown,
    /** false when even marking the run FAILED did not work (the store is down as well). */
    readonly markedFailed: boolean,
  ) {
    super(`could not start the execution of run ${runId}: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

export async function startRun(
  request: ValidatedRequest,
  deps: {
    runs: RunStore;
    startExecution: StartExecution;
    /** When given, a run that fails to start also gets its `complete` event, like any other ending. */
    publisher?: EventPublisher;
  },
  options: { runId?: string; mode?: RunMode; sessionId?: string } = {},
): Promise<{ run_id: string; created: boolean }> {
  const { run_id: runId, created } = await createRunRecord(request, deps, options);
  if (created) await startExecutionOf(runId, deps);
  return { run_id: runId, created };
}

/**
 * Starts the execution of a created run; a run whose execution cannot start is marked FAILED (with
 * its `complete` event when a publisher is given) and StartExecutionError says why.
 */
export async function startExecutionOf(
  runId: string,
  deps: { runs: RunStore; startExecution: StartExecution; publisher?: EventPublisher },
): Promise<void> {
  try {
    await deps.startExecution(runId, { run_id: runId });
  } catch (error) {
    // The start error is what the caller must hear about, even if the store fails too.
    const marked = await failUnstartedRun(runId, error, deps).then(
      () => true,
      () => false,
    );
    throw new StartExecutionError(runId, error, marked);
  }
}

/**
 * Creates the run record without starting an execution: for callers whose workflow starts the
 * execution itself (the batch workflow runs each line as a child execution). `created` is false when
 * a run with this id already exists.
 */
export async function createRunRecord(
  request: ValidatedRequest,
  deps: { runs: RunStore },
  options: { runId?: string; mode?: RunMode; sessionId?: string } = {},
): Promise<{ run_id: string; created: boolean }> {
  const runId = options.runId ?? newRunId();
  const created = await deps.runs.createRun(runId, request, {
    mode: options.mode ?? "rewoo",
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
  });
  return { run_id: runId, created };
}

export async function failUnstartedRun(
  runId: string,
  error: unknown,
  deps: { runs: RunStore; publisher?: EventPublisher },
): Promise<void> {
  const failure = {
    error: "StartExecutionFailed",
    cause: `${(error as Error)?.name ?? "Error"}: ${(error as Error)?.message ?? String(error)}`,
  };
  if ((await deps.runs.updateRun(runId, { status: "FAILED", error: failure })) && deps.publisher) {
    await deps.publisher.publish(runId, {
      stage: "complete",
      status: "FAILED",
      error: `${failure.error}: ${failure.cause}`,
    });
  }
}
