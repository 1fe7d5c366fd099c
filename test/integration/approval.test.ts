// Operator approval through the twin: with options.approval "required" the run waits in
// AWAITING_APPROVAL after the plan review, and nothing but the planner runs until an operator
// approves (the plan runs), edits (the replacement plan, validated like a planner's, runs as edited)
// or rejects it (the run ends REJECTED without calling a tool).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { PlanStep, RunRecord } from "../../lambdas/core/types.ts";
import {
  bootTwinWithSamples,
  post,
  taxReturnRequest,
  untilEvent,
  untilStatus,
  verdictOf,
} from "./twin-fixture.ts";

const SIGNED = "rm-conditions/1120-signed.pdf";
const UNSIGNED = "rm-conditions/1120-unsigned.pdf";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
});

afterAll(async () => {
  await twin?.stop();
});

async function waitingForApproval(): Promise<RunRecord> {
  const { run_id } = await twin.startRun(taxReturnRequest([SIGNED], { options: { approval: "required" } }));
  await untilStatus(twin, run_id, "AWAITING_APPROVAL");
  await untilEvent(twin, run_id, "approval");
  const record = (await twin.services.runs.getRun(run_id)) as RunRecord;
  // Nothing but the planner (and its reviewer) ran.
  expect(record.evidence).toEqual([]);
  const stages = (await twin.services.runs.listEvents(run_id)).map((event) => event.stage);
  expect(stages).toEqual(["plan", "review", "approval"]);
  expect(record.approval).toMatchObject({ status: "pending", deadline: expect.any(String) });
  expect(record.plan_review?.approved).toBe(true);
  return record;
}

const asSteps = (steps: PlanStep[]) =>
  steps.map(({ id, tool, args, depends_on, description }) => ({ id, tool, args, depends_on, description }));

describe("a run that requires approval", () => {
  it("runs the plan once an operator approves it", async () => {
    const waiting = await waitingForApproval();
    const approved = await post(twin.urls.api, `/v1/runs/${waiting.run_id}/approval`, {
      decision: "approve",
      reason: "looks right",
    });
    expect(approved.status).toBe(202);
    expect(approved.body.approval).toMatchObject({ status: "approved", reason: "looks right" });
    const record = await twin.waitForRun(waiting.run_id);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.evidence.map((item) => item.step_id).sort()).toEqual(
      (waiting.plan?.steps ?? []).map((step) => step.id).sort(),
    );
    expect(verdictOf(record, "TR_SIGNED")).toBe("fulfilled");
    const stages = (await twin.services.runs.listEvents(waiting.run_id)).map((event) => event.stage);
    expect(stages.slice(0, 4)).toEqual(["plan", "review", "approval", "approval"]);
  });

  it("refuses an edit that is not a valid plan, keeps waiting, then runs an edited plan as edited", async () => {
    const waiting = await waitingForApproval();
    const url = `/v1/runs/${waiting.run_id}/approval`;

    const unknownTool = await post(twin.urls.api, url, {
      decision: "edit",
      plan: [{ id: "E1", tool: "drop_tables", args: {}, depends_on: [] }],
    });
    expect(unknownTool.status).toBe(400);
    expect(unknownTool.body.error.code).toBe("invalid_plan");
    expect(unknownTool.body.error.message).toContain("drop_tables");

    const steps = asSteps(waiting.plan?.steps ?? []);
    const foreign = steps.map((step) =>
      step.tool === "call_conditions_ai_api"
        ? { ...step, args: { ...step.args, documents: [UNSIGNED] } }
        : step,
    );
    const notTheirs = await post(twin.urls.api, url, { decision: "edit", plan: foreign });
    expect(notTheirs.status).toBe(400);
    expect(notTheirs.body.error.code).toBe("plan_not_approved");
    expect(notTheirs.body.error.message).toContain(
      `${UNSIGNED}, which is not one of the request's documents`,
    );

    const noReason = await post(twin.urls.api, url, { decision: "reject" });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.fields).toEqual([
      { field: "reason", message: expect.stringContaining("required") },
    ]);
    expect((await twin.services.runs.getMeta(waiting.run_id)).status).toBe("AWAITING_APPROVAL");

    // The operator narrows the evaluation to the signature.
    const onlySigned = steps.map((step) =>
      step.tool === "call_preconditions_api"
        ? { ...step, args: { ...step.args, conditions: ["TR_SIGNED"] } }
        : step,
    );
    const edited = await post(twin.urls.api, url, {
      decision: "edit",
      plan: onlySigned,
      reason: "only the signature is in question",
    });
    expect(edited.status).toBe(202);
    expect(edited.body).toMatchObject({ approval: { status: "edited" }, plan_review: { approved: true } });

    const record = await twin.waitForRun(waiting.run_id);
    expect(record.status).toBe("SUCCEEDED");
    const preconditions = record.plan?.steps.find((step) => step.tool === "call_preconditions_api");
    expect(preconditions?.args).toMatchObject({ conditions: ["TR_SIGNED"] });
    const ran = record.evidence.find((item) => item.tool === "call_preconditions_api");
    expect(ran?.args).toMatchObject({ conditions: ["TR_SIGNED"] });
    const judged = [
      ...(record.result?.fulfilled_conditions ?? []),
      ...(record.result?.unfulfilled_conditions ?? []),
    ];
    expect(judged.map((finding) => finding.id)).toEqual(["TR_SIGNED"]);
    const events = await twin.services.runs.listEvents(waiting.run_id);
    expect(events.filter((event) => event.stage === "plan")).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ stage: "complete", status: "SUCCEEDED" });
  });

  it("ends REJECTED without calling a tool when an operator rejects the plan", async () => {
    const waiting = await waitingForApproval();
    const rejected = await post(twin.urls.api, `/v1/runs/${waiting.run_id}/approval`, {
      decision: "reject",
      reason: "wrong borrower on this file",
    });
    expect(rejected.status).toBe(202);
    const record = await twin.waitForRun(waiting.run_id);
    expect(record.status).toBe("REJECTED");
    expect(record.evidence).toEqual([]);
    expect(record.approval).toMatchObject({ status: "rejected", reason: "wrong borrower on this file" });
    expect(record.result?.summary).toBe(
      "Rejected: an operator rejected the plan: wrong borrower on this file, so no tool was called and no condition was judged.",
    );
    const events = await twin.services.runs.listEvents(waiting.run_id);
    expect(events.some((event) => event.stage === "worker")).toBe(false);
    expect(events.at(-1)).toMatchObject({ stage: "complete", status: "REJECTED" });
    const late = await post(twin.urls.api, `/v1/runs/${waiting.run_id}/approval`, { decision: "approve" });
    expect(late.status).toBe(409);
  });

  it("names what is wrong with a decision", async () => {
    const { run_id } = await twin.startRun(taxReturnRequest([SIGNED], { options: { approval: "required" } }));
    await untilStatus(twin, run_id, "AWAITING_APPROVAL");
    const url = `/v1/runs/${run_id}/approval`;
    const cases: Array<[unknown, string]> = [
      [{ decision: "maybe" }, "decision"],
      [{ decision: "approve", plan: [] }, "plan"],
      [{ decision: "edit" }, "plan"],
      [{ decision: "approve", approver: "me" }, "approver"],
      [{ decision: "approve", reason: 7 }, "reason"],
    ];
    for (const [body, field] of cases) {
      const answer = await post(twin.urls.api, url, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.fields[0].field, JSON.stringify(body)).toBe(field);
    }
    const bad = await post(
      twin.urls.api,
      "/v1/evaluate-conditions",
      taxReturnRequest([SIGNED], { options: { approval: "yes" } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields[0]).toMatchObject({
      field: "options.approval",
      message: 'expected "required" or "none"',
    });
    // Clean up: the run ends rejected.
    expect((await post(twin.urls.api, url, { decision: "reject", reason: "test over" })).status).toBe(202);
    expect((await twin.waitForRun(run_id)).status).toBe("REJECTED");
  });
});
