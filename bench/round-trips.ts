// How many DynamoDB round trips a worker waits for before its tool runs, counted on the twin's real
// DynamoDB client: one step of a finished run is run again through the worker (its evidence deleted,
// the run's event stream reopened) while every request is recorded. Progress-event writes (the
// event counter) are held until the tool has started: a worker that waited for its `started`
// event before calling the tool would never reach it, so what the worker awaits is what is counted.
import { DeleteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Twin } from "../infra/local/twin.ts";
import type { RunRecord } from "../lambdas/core/types.ts";
import { createLogger } from "../lambdas/runtime/logger.ts";
import { META, runKey, stepKey } from "../lambdas/store/keys.ts";
import { runStep, type WorkOutput } from "../lambdas/worker/run-step.ts";

export interface SentRequest {
  /** The DynamoDB operation (BatchGetItemCommand, UpdateItemCommand, ...). */
  command: string;
  /** Whether DynamoDB answered before the tool started. */
  answered_before_tool: boolean;
  /** An event-counter update (a progress event's first write). */
  event_write: boolean;
}

export interface StepRoundTrips {
  step_id: string;
  tool: string;
  output: WorkOutput;
  tool_started: boolean;
  requests: SentRequest[];
  /** Requests answered before the tool started: the round trips the tool waited for. */
  before_tool: number;
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
  let release: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    release = resolve;
  });
  tool.run = (...args: Parameters<typeof run>) => {
    toolStarted = true;
    release();
    return run.apply(tool, args);
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
      const output = await next(args);
      requests.push({
        command: String(context.commandName),
        answered_before_tool: !toolStarted,
        event_write: eventWrite,
      });
      return output;
    },
    { step: "initialize", name },
  );
  try {
    const level = record.plan?.levels.findIndex((ids) => ids.includes(stepId)) ?? 0;
    const output = await runStep(
      { run_id: runId, step_id: stepId, level_index: Math.max(0, level) },
      twin.services,
      createLogger("rewoo-round-trips"),
    );
    return {
      step_id: stepId,
      tool: step.tool,
      output,
      tool_started: toolStarted,
      requests,
      before_tool: requests.filter((request) => request.answered_before_tool).length,
    };
  } finally {
    ddb.middlewareStack.remove(name);
    tool.run = run;
  }
}
