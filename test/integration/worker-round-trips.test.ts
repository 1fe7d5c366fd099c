// How many DynamoDB round trips a worker waits for before its tool runs, counted on the twin's real
// DynamoDB client (dynalite) by bench/round-trips.ts: one Query for the run's META and its evidence
// (the step's own, for the idempotency check, and the evidence it references). The `started` event is written while the tool runs:
// the measurement holds that write until the tool has started, so a worker that waited for it first
// would show it among the requests answered before the tool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureStepRoundTrips } from "../../bench/round-trips.ts";
import type { Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;
let record: RunRecord;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  const { run_id } = await twin.startRun(taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
  record = await twin.waitForRun(run_id);
  expect(record.status).toBe("SUCCEEDED");
  expect(record.evidence.map((item) => item.status)).toEqual(record.evidence.map(() => "ok"));
}, 120_000);

afterAll(async () => {
  await twin?.stop();
});

const answeredBeforeTool = (requests: Array<{ command: string; answered_before_tool: boolean }>) =>
  requests.filter((request) => request.answered_before_tool).map((request) => request.command);

describe("the worker's DynamoDB round trips before its tool", () => {
  it("is one Query for a step that reads upstream evidence: META, its own evidence and the upstream together", async () => {
    const conditions = record.plan?.steps.find((step) => step.tool === "call_conditions_ai_api");
    expect(conditions?.depends_on.length).toBeGreaterThan(0);
    const measured = await measureStepRoundTrips(twin, record, conditions?.id ?? "");
    expect(measured.tool_started).toBe(true);
    expect(measured.output).toMatchObject({ status: "ok", reused: false });
    expect(answeredBeforeTool(measured.requests)).toEqual(["QueryCommand"]);
    expect(measured.before_tool).toBe(1);
    // started and completed were still written (each: the counter, then the event item), after the tool started.
    expect(measured.requests.filter((request) => request.event_write)).toHaveLength(2);
    // After the tool: the evidence and the completed event's counter (with the invocation's count)
    // together, then the event item; no count of the invocation after that. The counter waits for
    // the started event's seq, which a tool as fast as this one (no latency) can outrun: one more.
    expect(measured.after_tool_sequential).toBeGreaterThanOrEqual(2);
    expect(measured.after_tool_sequential).toBeLessThanOrEqual(3);
    expect(measured.requests.filter((request) => /lambda_requests/.test(request.update ?? ""))).toHaveLength(
      1,
    );
  });

  it("is the same one Query for a step that references no evidence", async () => {
    const first = record.plan?.steps.find((step) => step.depends_on.length === 0);
    const measured = await measureStepRoundTrips(twin, record, first?.id ?? "");
    expect(measured.output).toMatchObject({ status: "ok", reused: false });
    expect(answeredBeforeTool(measured.requests)).toEqual(["QueryCommand"]);
  });

  it("is one read, and no tool call, when the step's evidence is already stored", async () => {
    const first = record.plan?.steps.find((step) => step.depends_on.length === 0);
    const measured = await measureStepRoundTrips(twin, record, first?.id ?? "", { keepEvidence: true });
    expect(measured.tool_started).toBe(false);
    expect(measured.output).toMatchObject({ status: "ok", reused: true });
    // The read, then the invocation's count on the run (its cost), as every invocation has.
    expect(measured.requests.map((request) => request.command)).toEqual([
      "QueryCommand",
      "UpdateItemCommand",
    ]);
  });

  it("writes the started event before the completed one", async () => {
    const events = await twin.services.runs.listEvents(record.run_id);
    const rerun = events.filter((event) => event.stage === "worker").slice(-2);
    expect(rerun.map((event) => (event as { status?: string }).status)).toEqual(["started", "completed"]);
    expect(rerun[0]?.seq).toBeLessThan(rerun[1]?.seq ?? 0);
  });
});
