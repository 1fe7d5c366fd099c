// The push function: consumes the runs table's DynamoDB stream and drains every WebSocket connection
// subscribed to a run whose events were just written. Publishers (planner, worker, solver, finalize,
// API) only write events; delivery happens here, off the run's critical path: in AWS a run does not
// wait for its dashboards (in the twin the drains share the run's process and slow it). In AWS an event source mapping (filtered by
// PUSH_STREAM_FILTERS) invokes this; the local twin's stream emulation invokes the same handler.
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { liveDelivery } from "../runtime/base-services.ts";
import { createLogger } from "../runtime/logger.ts";

export { PUSH_STREAM_FILTERS } from "../contracts/event-patterns.ts";

const logger = createLogger("rewoo-push");

export interface RunDrainer {
  drainAll(runId: string): Promise<void>;
}

/**
 * Drains each run of the batch once (a batch usually holds several events of the same run), in the
 * order the runs first appear. A run whose subscribers cannot be listed fails its first record and
 * everything after it, so the stream retries from there (partial batch response); events of runs
 * before it are not pushed twice.
 */
export async function pushBatch(
  records: DynamoDBRecord[],
  drainer: RunDrainer,
): Promise<DynamoDBBatchResponse> {
  const firstRecordOfRun = new Map<string, string>();
  for (const record of records) {
    const runId = record.dynamodb?.NewImage?.run_id?.S;
    const sequence = record.dynamodb?.SequenceNumber;
    if (!runId || !sequence || !String(record.dynamodb?.Keys?.sk?.S ?? "").startsWith("EVENT#")) continue;
    if (!firstRecordOfRun.has(runId)) firstRecordOfRun.set(runId, sequence);
  }
  for (const [runId, sequence] of firstRecordOfRun) {
    try {
      await drainer.drainAll(runId);
    } catch (error) {
      logger.warn("cannot push the run's events; the stream will retry", {
        run_id: runId,
        error: String(error),
      });
      return { batchItemFailures: [{ itemIdentifier: sequence }] };
    }
  }
  return { batchItemFailures: [] };
}

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const websocket = liveDelivery();
  if (!websocket) {
    throw new Error(
      "Invalid configuration: the push function needs CONNECTIONS_TABLE and WEBSOCKET_ENDPOINT",
    );
  }
  return pushBatch(event.Records, websocket.subscribers);
};
