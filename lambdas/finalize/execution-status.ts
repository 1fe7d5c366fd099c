// Runs whose execution ended outside the workflow's own failure handler: stopped from the console or
// CLI (ABORTED), past the state machine's TimeoutSeconds (TIMED_OUT), or failed where no Catch leads
// to HandleFailure, or with HandleFailure itself out of retries (FAILED). Step Functions reports these
// only as EventBridge "Step Functions Execution Status Change" events; a rule sends them here (the
// local twin's Step Functions emulation emits the same events), and the run gets its terminal status
// and `complete` event like any other ending. A run the API cancelled (it stops the execution, then
// ends the run itself) gets its estimated cost here, with the ABORTED status change that follows.
import type { Logger } from "@aws-lambda-powertools/logger";
import { EXECUTION_ENDED_PATTERN, EXECUTION_STATUS_CHANGE } from "../contracts/event-patterns.ts";
import { isTerminal, type TerminalStatus } from "../core/types.ts";
import type { Services } from "../runtime/services.ts";
import { executionNameOf, RunNotFoundError } from "../store/runs.ts";
import { type FinalizeOptions, runCloser } from "./finalize-run.ts";

export { EXECUTION_ENDED_PATTERN, EXECUTION_STATUS_CHANGE };

/** The event as EventBridge delivers it (only the fields read here). */
export interface ExecutionStatusChange {
  "detail-type": typeof EXECUTION_STATUS_CHANGE;
  source: "aws.states";
  detail: {
    executionArn: string;
    stateMachineArn?: string;
    name: string;
    status: "RUNNING" | "SUCCEEDED" | "FAILED" | "TIMED_OUT" | "ABORTED" | "PENDING_REDRIVE";
    /** The execution input, as a JSON string. */
    input?: string | null;
    error?: string | null;
    cause?: string | null;
  };
}

export function isExecutionStatusChange(event: unknown): event is ExecutionStatusChange {
  return (
    typeof event === "object" &&
    event !== null &&
    (event as Record<string, unknown>)["detail-type"] === EXECUTION_STATUS_CHANGE
  );
}

export type StatusChangeOutcome = { run_id?: string; outcome: "closed" | "ignored"; reason: string };

export async function closeEndedExecution(
  event: ExecutionStatusChange,
  services: Pick<Services, "runs" | "publisher" | "config">,
  log: Logger,
  options: FinalizeOptions = {},
): Promise<StatusChangeOutcome> {
  const { detail } = event;
  const ending = endingOf(detail);
  if (!ending) return { outcome: "ignored", reason: `status ${detail.status} does not end a run here` };
  const runId = runIdOf(detail);
  let run: Awaited<ReturnType<Services["runs"]["getMetaAndEvidence"]>>;
  try {
    run = await services.runs.getMetaAndEvidence(runId);
  } catch (error) {
    if (error instanceof RunNotFoundError) {
      log.warn("execution ended for an unknown run", { run_id: runId, execution: detail.executionArn });
      return { run_id: runId, outcome: "ignored", reason: "no such run" };
    }
    throw error;
  }
  const { meta, evidence } = run;
  // A resumed run is driven by a newer execution; the end of an older one says nothing about it.
  if (executionNameOf(meta) !== detail.name) {
    return { run_id: runId, outcome: "ignored", reason: `execution ${detail.name} no longer drives the run` };
  }
  // No state of the workflow runs this: the invocation is a request, with no transitions.
  const closer = runCloser(meta, evidence.values(), services.config, options, 0);
  const cost = closer.cost();
  if (!(await services.runs.updateRun(runId, { status: ending.status, error: ending.error, cost }))) {
    // Ended by the API (cancelled) before the execution stopped: its cost is still to be stored.
    const ended = await services.runs.getMeta(runId);
    if (isTerminal(ended.status) && !ended.cost && (await services.runs.recordCost(runId, cost))) {
      closer.ended(ended.status, cost);
    }
    return { run_id: runId, outcome: "ignored", reason: "the run had already ended" };
  }
  closer.ended(ending.status, cost);
  log.error("run ended outside its workflow", {
    run_id: runId,
    execution_status: detail.status,
    error: ending.error,
  });
  await services.publisher.publish(runId, {
    stage: "complete",
    status: ending.status,
    error: `${ending.error.error}: ${ending.error.cause}`,
  });
  return { run_id: runId, outcome: "closed", reason: `execution ${detail.status}` };
}

function endingOf(
  detail: ExecutionStatusChange["detail"],
): { status: TerminalStatus; error: { error: string; cause: string } } | undefined {
  switch (detail.status) {
    case "FAILED":
      return {
        status: "FAILED",
        error: {
          error: detail.error || "States.ExecutionFailed",
          cause: detail.cause || "the execution failed before its failure handler could record why",
        },
      };
    case "TIMED_OUT":
      return {
        status: "FAILED",
        error: {
          error: "States.Timeout",
          cause: "the execution exceeded the workflow's time limit (TimeoutSeconds)",
        },
      };
    case "ABORTED":
      return {
        status: "CANCELLED",
        error: {
          error: detail.error || "ExecutionAborted",
          cause: detail.cause || "the execution was stopped outside the API (console, CLI or StopExecution)",
        },
      };
    default:
      return undefined;
  }
}

export function runIdOf(detail: ExecutionStatusChange["detail"]): string {
  try {
    const input = JSON.parse(detail.input ?? "") as { run_id?: unknown };
    if (typeof input.run_id === "string") return input.run_id;
  } catch {
    // no readable input: executions are named after their run
  }
  return detail.name;
}
