// Bounded replanning: when a step the loan profile requires fails, the state machine goes back to the
// planner once; the new plan reuses the finished evidence (no tool called twice for the same
// question) and the run answers. With REWOO_MAX_REPLANS=0 the solver answers with the failure, as
// before replanning existed (see replanning-disabled.test.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { ProgressEvent } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples({ REWOO_MAX_REPLANS: "1" });
});

afterAll(async () => {
  await twin?.stop();
});

afterEach(() => {
  twin.services.faults.configure(undefined);
});

/** Tool calls made, per tool: the worker's `started` events. */
function callsPerTool(events: ProgressEvent[]): Record<string, number> {
  const calls: Record<string, number> = {};
  for (const event of events) {
    if (event.stage === "worker" && event.status === "started")
      calls[event.tool] = (calls[event.tool] ?? 0) + 1;
  }
  return calls;
}

describe("replanning after a required step failed", () => {
  it("still names a document whose retrieval failed before the replan and that the new plan left out", async () => {
    twin.services.faults.configure("retrieve_s3_document=1:error:1,call_conditions_ai_api=1:error:1");
    const documents = ["rm-conditions/1120-signed.pdf", "rm-conditions/1120-unsigned.pdf"];
    const { run_id } = await twin.startRun(taxReturnRequest(documents));
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.replans).toBe(1);
    const failedRetrieval = record.evidence.find(
      (item) => item.tool === "retrieve_s3_document" && item.status === "error",
    );
    if (!failedRetrieval) throw new Error("no retrieval failed");
    // The new plan does not carry the failed retrieval, yet the answer says it failed.
    expect(record.plan?.steps.map((step) => step.id)).not.toContain(failedRetrieval.step_id);
    const missing = record.result?.missing_information.join("\n") ?? "";
    expect(missing).toMatch(new RegExp(`${failedRetrieval.step_id} retrieve_s3_document`));
    // The Conditions AI call the replan redid is not reported as missing.
    expect(missing).not.toMatch(/call_conditions_ai_api failed/);
  });

  it("plans again once, reuses the finished steps and answers", async () => {
    twin.services.faults.configure("call_conditions_ai_api=1:error:1");
    const { run_id } = await twin.startRun(taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.replans).toBe(1);

    const events = await twin.services.runs.listEvents(run_id);
    const replan = events.find((event) => event.stage === "replan");
    expect(replan).toMatchObject({ attempt: 1, failed_steps: ["E3"] });
    expect(replan && "reason" in replan ? replan.reason : "").toMatch(
      /call_conditions_ai_api failed: injected fault/,
    );
    expect(events.filter((event) => event.stage === "plan")).toHaveLength(2);
    // PreConditions and the retrieval ran once; only the failed Conditions AI call was made again.
    expect(callsPerTool(events)).toEqual({
      call_preconditions_api: 1,
      retrieve_s3_document: 1,
      call_conditions_ai_api: 2,
    });
    expect(record.plan?.steps.map((step) => step.id)).toEqual(["E1", "E2", "E4"]);
    expect(record.result?.fulfilled_conditions.map((finding) => finding.id)).toContain("TR_SIGNED");
    expect(record.result?.missing_information).toEqual([]);
    // Planner twice, solver once.
    expect(record.usage.llm_calls).toBe(3);
  });

  it("does not replan when only an optional step failed", async () => {
    twin.services.faults.configure("retrieve_s3_document=1:error:1");
    const { run_id } = await twin.startRun(taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.replans).toBeUndefined();
    const events = await twin.services.runs.listEvents(run_id);
    expect(events.some((event) => event.stage === "replan")).toBe(false);
    expect(record.usage.llm_calls).toBe(2);
  });

  it("replans at most REWOO_MAX_REPLANS times, then answers with the failure", async () => {
    twin.services.faults.configure("call_conditions_ai_api=1:error");
    const { run_id } = await twin.startRun(taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.replans).toBe(1);
    const events = await twin.services.runs.listEvents(run_id);
    expect(callsPerTool(events)).toEqual({
      call_preconditions_api: 1,
      retrieve_s3_document: 1,
      call_conditions_ai_api: 2,
    });
    expect(record.result?.summary).toMatch(/Not evaluated: call_conditions_ai_api \(E4\) failed/);
  });
});
