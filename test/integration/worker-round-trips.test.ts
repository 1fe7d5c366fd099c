// How many DynamoDB round trips a worker waits for before its tool runs, counted on the twin's real
// DynamoDB client (dynalite): one read for the run's META and the step's own evidence, one for the
// evidence it references. The `started` event is written while the tool runs: the test holds that
// write until the tool has started, so a worker that waited for it would never reach its tool.
import { DeleteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { createLogger } from "../../lambdas/runtime/logger.ts";
import { META, runKey, stepKey } from "../../lambdas/store/keys.ts";
import { runStep } from "../../lambdas/worker/run-step.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;
let record: RunRecord;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  const { run_id } = await twin.startRun(taxReturnRequest(["rm-conditions/tax-return-2024.pdf"]));
  record = await twin.waitForRun(run_id);
  expect(record.status).toBe("SUCCEEDED");
}, 120_000);

afterAll(async () => {
  await twin?.stop();
});

interface Sent {
  command: string;
  /** Whether the tool had started when DynamoDB answered. */
  answeredBeforeTool: boolean;
  eventWrite: boolean;
}

/**
 * Runs one step again through the worker (its evidence deleted, the run's event stream reopened)
 * and returns what the worker sent to DynamoDB, holding event-seq writes until the tool starts.
 */
async function rerunStep(stepId: string, keepEvidence = false) {
  const { ddb } = twin.services.clients;
  const runId = record.run_id;
  if (!keepEvidence) {
    await ddb.send(
      new DeleteCommand({
        TableName: twin.services.config.runsTable,
        Key: { pk: runKey(runId), sk: stepKey(stepId) },
      }),
    );
  }
  await ddb.send(
    new UpdateCommand({
      TableName: twin.services.config.runsTable,
      Key: { pk: runKey(runId), sk: META },
      UpdateExpression: "REMOVE events_closed",
    }),
  );
  const step = record.plan?.steps.find((candidate) => candidate.id === stepId);
  if (!step) throw new Error(`no step ${stepId}`);
  const tool = twin.services.tools.get(step.tool);
  const run = tool.run;
  let toolStarted = false;
  let releaseHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    releaseHeld = resolve;
  });
  tool.run = (...args: Parameters<typeof run>) => {
    toolStarted = true;
    releaseHeld();
    return run.apply(tool, args);
  };
  const sent: Sent[] = [];
  const name = "count-round-trips";
  ddb.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { UpdateExpression?: string };
      const eventWrite =
        context.commandName === "UpdateItemCommand" && /event_seq/.test(input.UpdateExpression ?? "");
      // A worker that waited for its `started` event would wait here forever (the test's timeout).
      if (eventWrite && !toolStarted) await held;
      const output = await next(args);
      sent.push({ command: String(context.commandName), answeredBeforeTool: !toolStarted, eventWrite });
      return output;
    },
    { step: "initialize", name },
  );
  try {
    const output = await runStep(
      {
        run_id: runId,
        step_id: stepId,
        level_index: record.plan?.levels.findIndex((level) => level.includes(stepId)) ?? 0,
      },
      twin.services,
      createLogger("worker-round-trips-test"),
    );
    return { output, sent, toolStarted };
  } finally {
    ddb.middlewareStack.remove(name);
    tool.run = run;
  }
}

describe("the worker's DynamoDB round trips before its tool", () => {
  it("is two for a step that reads upstream evidence: META with its own evidence, then the upstream", async () => {
    const conditions = record.plan?.steps.find((step) => step.tool === "call_conditions_ai_api");
    expect(conditions?.depends_on.length).toBeGreaterThan(0);
    const { output, sent, toolStarted } = await rerunStep(conditions?.id ?? "");
    expect(toolStarted).toBe(true);
    expect(output).toMatchObject({ status: "ok", reused: false });
    expect(sent.filter((request) => request.answeredBeforeTool).map((request) => request.command)).toEqual([
      "BatchGetItemCommand",
      "BatchGetItemCommand",
    ]);
    // started (counter + item) and completed (counter + item) were still written, after the tool started.
    expect(sent.filter((request) => request.eventWrite)).toHaveLength(2);
  });

  it("is one for a step that references no evidence", async () => {
    const first = record.plan?.steps.find((step) => step.depends_on.length === 0);
    const { output, sent } = await rerunStep(first?.id ?? "");
    expect(output).toMatchObject({ status: "ok", reused: false });
    expect(sent.filter((request) => request.answeredBeforeTool).map((request) => request.command)).toEqual([
      "BatchGetItemCommand",
    ]);
  });

  it("is one read, and no tool call, when the step's evidence is already stored", async () => {
    const first = record.plan?.steps.find((step) => step.depends_on.length === 0);
    const { output, sent, toolStarted } = await rerunStep(first?.id ?? "", true);
    expect(toolStarted).toBe(false);
    expect(output).toMatchObject({ status: "ok", reused: true });
    expect(sent.map((request) => request.command)).toEqual(["BatchGetItemCommand"]);
  });

  it("writes the started event before the completed one, both after the tool's evidence", async () => {
    const events = await twin.services.runs.listEvents(record.run_id);
    const rerun = events.filter((event) => event.stage === "worker").slice(-2);
    expect(rerun.map((event) => (event as { status?: string }).status)).toEqual(["started", "completed"]);
    expect(rerun[0].seq).toBeLessThan(rerun[1].seq);
  });
});
