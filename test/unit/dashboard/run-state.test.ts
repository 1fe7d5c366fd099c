// What the dashboard derives from a run record and its progress events when the planner planned
// again: the latest plan is drawn, reused steps stay completed, a failure before the replan does not
// mark the step that runs again, the header counts the replans, the activity log says why.
import { describe, expect, it } from "vitest";
import type { Evidence, Plan, ProgressEvent, RunRecord } from "../../../lambdas/core/types.ts";
import { plan, RUN_ID, replannedPlan, replannedRunEvents, runEvents, runRecord } from "../cli/stub-api.ts";

interface StepView {
  id: string;
  status: string;
}
interface RunView {
  plan?: Plan;
  steps: StepView[];
  planStage: string;
  replans: number;
  planSource: "planner" | "cache" | null;
  replanEvents: ProgressEvent[];
}
interface RunStateLike {
  applyRecord(record: unknown): void;
  applyEvent(event: unknown): { applied: boolean; refetch: boolean };
  view(): RunView;
}
// The dashboard's modules are plain browser JavaScript without type declarations.
const modulePath = (name: string) => `../../../dashboard/${name}`;
const { RunState } = (await import(modulePath("run-state.js"))) as {
  RunState: new (runId: string) => RunStateLike;
};
const { describeEvent } = (await import(modulePath("views.js"))) as {
  describeEvent: (event: unknown, context?: { afterReplan?: boolean }) => string;
};

const statuses = (view: RunView) => view.steps.map((step) => `${step.id}=${step.status}`);

function evidence(stepId: string, tool: string, status: "ok" | "error", finishedAt: string): Evidence {
  return {
    step_id: stepId,
    tool,
    status,
    ...(status === "error" ? { error: "Conditions AI answered 500" } : { output: {} }),
    upstream_errors: [],
    started_at: finishedAt,
    finished_at: finishedAt,
    duration_ms: 1,
  };
}

const events = replannedRunEvents();
const seqOf = (stage: string, nth = 0) => events.filter((event) => event.stage === stage)[nth]?.seq ?? 0;
const upTo = (seq: number) => events.filter((event) => event.seq <= seq);

describe("RunState with a replan", () => {
  it("draws the new plan once its event arrives; the planner is running in between", () => {
    const state = new RunState(RUN_ID);
    for (const event of upTo(seqOf("replan"))) state.applyEvent(event);
    let view = state.view();
    expect(view.plan).toEqual(plan);
    expect(view.planStage).toBe("running");
    // The failed step is what the planner is replanning around: not shown as failed any more.
    expect(statuses(view)).toEqual(["E1=completed", "E2=completed", "E3=pending"]);
    expect(view.replans).toBe(1);

    const second = events.find((event) => event.seq === seqOf("plan", 1));
    expect(state.applyEvent(second)).toEqual({ applied: true, refetch: true });
    view = state.view();
    expect(view.plan).toEqual(replannedPlan);
    expect(view.planStage).toBe("completed");
    expect(statuses(view)).toEqual(["E1=completed", "E2=completed", "E4=pending"]);
  });

  it("keeps reused steps completed by their stored evidence and follows the new steps' events", () => {
    const state = new RunState(RUN_ID);
    // Replayed out of order, as a resubscription may deliver them.
    for (const event of [...events].reverse()) state.applyEvent(event);
    const record: RunRecord = {
      ...runRecord("SUCCEEDED"),
      plan: replannedPlan,
      replans: 1,
      evidence: [
        evidence("E1", "call_preconditions_api", "ok", "2026-01-01T12:00:04.000Z"),
        evidence("E2", "retrieve_s3_document", "ok", "2026-01-01T12:00:03.000Z"),
        evidence("E3", "call_conditions_ai_api", "error", "2026-01-01T12:00:06.000Z"),
        evidence("E4", "call_conditions_ai_api", "ok", "2026-01-01T12:00:10.000Z"),
      ],
    };
    state.applyRecord(record);
    const view = state.view();
    expect(view.plan).toEqual(replannedPlan);
    expect(statuses(view)).toEqual(["E1=completed", "E2=completed", "E4=completed"]);
    expect(view.replans).toBe(1);
    expect(view.replanEvents.map((event) => event.seq)).toEqual([seqOf("replan")]);
  });

  it("runs a step again under its old id after a replan: its earlier failure does not show", () => {
    const rerun: Plan = { ...plan, steps: plan.steps.map((step) => ({ ...step })) };
    const state = new RunState(RUN_ID);
    for (const event of upTo(seqOf("replan"))) state.applyEvent(event);
    const base = { run_id: RUN_ID, timestamp: "2026-01-01T12:00:09.000Z" };
    state.applyEvent({ ...base, seq: seqOf("replan") + 1, stage: "plan", plan: rerun });
    state.applyRecord({
      ...runRecord("RUNNING"),
      plan: rerun,
      replans: 1,
      evidence: [evidence("E3", "call_conditions_ai_api", "error", "2026-01-01T12:00:06.000Z")],
    });
    expect(statuses(state.view())).toEqual(["E1=completed", "E2=completed", "E3=pending"]);
    state.applyEvent({
      ...base,
      seq: seqOf("replan") + 2,
      stage: "worker",
      step: "E3",
      tool: "call_conditions_ai_api",
      level: 1,
      status: "started",
    });
    expect(statuses(state.view())).toEqual(["E1=completed", "E2=completed", "E3=running"]);
    // The second failure, after the replan, is a failure.
    state.applyRecord({
      ...runRecord("FAILED"),
      plan: rerun,
      replans: 1,
      evidence: [evidence("E3", "call_conditions_ai_api", "error", "2026-01-01T12:00:12.000Z")],
    });
    expect(statuses(state.view())).toContain("E3=failed");
  });

  it("takes the record's plan when the record knows of a replan whose plan event has not arrived", () => {
    const state = new RunState(RUN_ID);
    for (const event of upTo(seqOf("replan") - 1)) state.applyEvent(event);
    state.applyRecord({ ...runRecord("RUNNING"), plan: replannedPlan, replans: 1 });
    expect(state.view().plan).toEqual(replannedPlan);
    expect(state.view().replans).toBe(1);
  });

  it("changes nothing for a run without replans (old records have no replans field)", () => {
    const state = new RunState(RUN_ID);
    for (const event of runEvents("SUCCEEDED")) {
      const { refetch } = state.applyEvent(event);
      if (event.stage === "plan") expect(refetch).toBe(false);
    }
    state.applyRecord({ ...runRecord("SUCCEEDED"), replans: "two" });
    const view = state.view();
    expect(view.plan).toEqual(plan);
    expect(view.replans).toBe(0);
    expect(view.replanEvents).toEqual([]);
    expect(view.planStage).toBe("completed");
  });
});

describe("describeEvent", () => {
  it("says plainly that the planner planned again, and why", () => {
    const replan = events.find((event) => event.stage === "replan");
    expect(describeEvent(replan)).toBe(
      "Replanned (attempt 1): E3 call_conditions_ai_api failed: Conditions AI answered 500",
    );
    expect(describeEvent({ stage: "replan", attempt: 2, failed_steps: ["E3", "E5"] })).toBe(
      "Replanned (attempt 2): E3, E5 failed",
    );
    expect(describeEvent({ stage: "replan" })).toBe("Replanned (attempt ?): a required step failed");
  });

  it("calls the plan that follows a replan the new plan", () => {
    const plans = events.filter((event) => event.stage === "plan");
    expect(describeEvent(plans[0])).toBe("Plan: 3 steps in 2 levels");
    expect(describeEvent(plans[1], { afterReplan: true })).toBe("New plan: 3 steps in 2 levels");
  });
});

describe("where the plan came from", () => {
  it("is the record's plan_source, and unknown until a record says", () => {
    const state = new RunState(RUN_ID);
    for (const event of runEvents()) state.applyEvent(event);
    expect(state.view().planSource).toBeNull();
    state.applyRecord({ ...runRecord("SUCCEEDED"), plan_source: "cache" });
    expect(state.view().planSource).toBe("cache");
    state.applyRecord({ ...runRecord("SUCCEEDED"), plan_source: "elsewhere" });
    expect(state.view().planSource).toBeNull();
  });
});
