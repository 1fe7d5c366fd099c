// A batch's ending, recorded once: FinishBatch after the Distributed Map (SUCCEEDED, with where its
// ResultWriter wrote), FailBatch from the Map's Catch (FAILED, with the Map's error), and the batch
// workflow's EventBridge status changes for endings no state records (a stopped batch: ABORTED; a
// timed-out one, or one whose FailBatch gave up: FAILED).
import { EXECUTION_STATUS_CHANGE } from "../contracts/event-patterns.ts";
import type { BatchStatus } from "../core/batch.ts";
import { BatchNotFoundError, type BatchStore } from "../store/batches.ts";
import { s3Uri } from "../store/blobs.ts";

export interface BatchEnding {
  batch_id: string;
  status: Exclude<BatchStatus, "RUNNING">;
  /** false when the batch had already ended. */
  recorded: boolean;
}

/** The Map's output when it has a ResultWriter (Step Functions' shape). */
export interface MapRunOutput {
  MapRunArn?: string;
  ResultWriterDetails?: { Bucket: string; Key: string };
}

export async function finishBatch(
  batchId: string,
  map: MapRunOutput,
  deps: { batches: BatchStore },
): Promise<BatchEnding> {
  const details = map.ResultWriterDetails;
  const recorded = await deps.batches.finish(batchId, {
    status: "SUCCEEDED",
    ...(details ? { results_manifest: s3Uri({ bucket: details.Bucket, key: details.Key }) } : {}),
  });
  return { batch_id: batchId, status: "SUCCEEDED", recorded };
}

export async function failBatch(
  batchId: string,
  error: { Error?: string; Cause?: string },
  deps: { batches: BatchStore },
): Promise<BatchEnding> {
  const recorded = await deps.batches.finish(batchId, {
    status: "FAILED",
    error: {
      error: error.Error || "States.Runtime",
      cause: (error.Cause || "the batch's Distributed Map failed").slice(0, 4_000),
    },
  });
  return { batch_id: batchId, status: "FAILED", recorded };
}

/** Step Functions' "Execution Status Change" event, only the fields read here. */
export interface BatchExecutionStatusChange {
  "detail-type": typeof EXECUTION_STATUS_CHANGE;
  detail: {
    name: string;
    status: string;
    error?: string | null;
    cause?: string | null;
  };
}

export function isBatchStatusChange(event: unknown): event is BatchExecutionStatusChange {
  return (
    typeof event === "object" &&
    event !== null &&
    (event as Record<string, unknown>)["detail-type"] === EXECUTION_STATUS_CHANGE
  );
}

/** The batch execution is named after its batch; an ending no state recorded is recorded here. */
export async function closeEndedBatch(
  event: BatchExecutionStatusChange,
  deps: { batches: BatchStore },
): Promise<BatchEnding | { batch_id: string; ignored: string }> {
  const { name, status } = event.detail;
  const ending =
    status === "ABORTED"
      ? {
          status: "ABORTED" as const,
          error: {
            error: event.detail.error || "States.Aborted",
            cause: event.detail.cause || "the batch's execution was stopped",
          },
        }
      : status === "TIMED_OUT"
        ? {
            status: "FAILED" as const,
            error: { error: "States.Timeout", cause: "the batch exceeded its workflow's time limit" },
          }
        : status === "FAILED"
          ? {
              status: "FAILED" as const,
              error: {
                error: event.detail.error || "States.ExecutionFailed",
                cause: event.detail.cause || "the batch's execution failed",
              },
            }
          : undefined;
  if (!ending) return { batch_id: name, ignored: `status ${status} does not end a batch here` };
  try {
    const recorded = await deps.batches.finish(name, ending);
    return { batch_id: name, status: ending.status, recorded };
  } catch (error) {
    if (error instanceof BatchNotFoundError) return { batch_id: name, ignored: "no such batch" };
    throw error;
  }
}
