// How many DynamoDB round trips a worker waits for before its tool runs, counted on the twin's real
// DynamoDB client: one step of a finished run is run again through the worker (its evidence deleted,
// the run's event stream reopened) while every request is recorded. Progress-event writes (the
// event counter) are held until the tool has started: a worker that waited for its `started`
// event before calling the tool would never reach it, so what the worker awaits is what is counted.
// The step runs through the worker's handler, so the invocation's own count on the run is included.
import { DeleteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Twin } from "../infra/local/twin.ts";
import type { RunRecord } from "../lambdas/core/types.ts";
import { META, runKey, stepKey } from "../lambdas/store/keys.ts";
import type { WorkOutput } from "../lambdas/worker/run-step.ts";

export interface SentRequest {
  /** The DynamoDB operation (BatchGetItemCommand, UpdateItemCommand, ...). */
  command: string;
  /** Whether DynamoDB answered before the tool started. */
  answered_before_tool: boolean;
  /** An event-counter update (a progress event's first write). */
  event_write: boolean;
  /** Its UpdateExpression, for an update. */
  update?: string;
  /** When it was sent and answered (performance.now()). */
  sent_at: number;
  answered_at: number;
}

export interface StepRoundTrips {
  step_id: string;
  tool: string;
  output: WorkOutput;
  tool_started: boolean;
  requests: SentRequest[];
  /** Requests answered before the tool started: the round trips the tool waited for. */
  before_tool: number;
  /**
   * Round trips in sequence after the tool returned (requests sent together count once): what the
   * step's result waits for before the worker answers.
   */
  after_tool_sequential: number;
}

const HOLD_LIMIT_MS = 30_000;

/**
 * Runs `stepId` of the finished run `record` again through the worker and counts its DynamoDB
 * requests. `keepEvidence` leaves the stored evidence in place (the idempotent path).
 */
export async function measureStepRoundTrips(
  twin: Twin,
  record: RunRecord,
  stepId: string,
  options: { keepEvidence?: boolean } = {},
): Promise<StepRoundTrips> {
  const { ddb } = twin.services.clients;
  const table = twin.services.config.runsTable;
  const runId = record.run_id;
  const step = record.plan?.steps.find((candidate) => candidate.id === stepId);
  if (!step) throw new Error(`run ${runId} has no step ${stepId}`);
  if (!options.keepEvidence) {
    await ddb.send(new DeleteCommand({ TableName: table, Key: { pk: runKey(runId), sk: stepKey(stepId) } }));
  }
  await ddb.send(
    new UpdateCommand({
      TableName: table,
      Key: { pk: runKey(runId), sk: META },
      UpdateExpression: "REMOVE events_closed",
    }),
  );
  const tool = twin.services.tools.get(step.tool);
  const run = tool.run;
  let toolStarted = false;
  let toolFinishedAt = Number.POSITIVE_INFINITY;
  let release: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    release = resolve;
  });
  tool.run = (...args: Parameters<typeof run>) => {
    toolStarted = true;
    release();
    return run.apply(tool, args).finally(() => {
      toolFinishedAt = performance.now();
    });
  };
  const requests: SentRequest[] = [];
  const name = "rewoo-count-round-trips";
  ddb.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { UpdateExpression?: string };
      const eventWrite =
        context.commandName === "UpdateItemCommand" && /event_seq/.test(input.UpdateExpression ?? "");
      if (eventWrite && !toolStarted) {
        await Promise.race([started, new Promise((resolve) => setTimeout(resolve, HOLD_LIMIT_MS))]);
      }
      const sentAt = performance.now();
      const output = await next(args);
      requests.push({
        command: String(context.commandName),
        answered_before_tool: !toolStarted,
        event_write: eventWrite,
        ...(input.UpdateExpression ? { update: input.UpdateExpression } : {}),
        sent_at: sentAt,
        answered_at: performance.now(),
      });
      return output;
    },
    { step: "initialize", name },
  );
  try {
    const level = record.plan?.levels.findIndex((ids) => ids.includes(stepId)) ?? 0;
    // Imported here, not at the top: the handler's logger takes its level when its module loads, after
    // the bench has set it.
    const { handler: workerHandler } = await import("../lambdas/worker/index.ts");
    const output = await workerHandler({ run_id: runId, step_id: stepId, level_index: Math.max(0, level) });
    return {
      step_id: stepId,
      tool: step.tool,
      output,
      tool_started: toolStarted,
      requests,
      before_tool: requests.filter((request) => request.answered_before_tool).length,
      after_tool_sequential: sequentialRounds(
        requests.filter((request) => request.sent_at >= toolFinishedAt),
      ),
    };
  } finally {
    ddb.middlewareStack.remove(name);
    tool.run = run;
  }
}

/** Requests in rounds: one starts when a request is sent after the current round's first answer. */
function sequentialRounds(requests: readonly SentRequest[]): number {
  let rounds = 0;
  let frontier = Number.NEGATIVE_INFINITY;
  for (const request of [...requests].sort((a, b) => a.sent_at - b.sent_at)) {
    if (request.sent_at >= frontier) {
      rounds += 1;
      frontier = request.answered_at;
    }
  }
  return rounds;
}
