// End-to-end runs through the local twin: the real ASL file, the real handlers, real SDK clients
// against dynalite and s3rver, the rule-based LLM provider.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { Evidence, RunRecord } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  // A little latency per tool makes the steps of a level measurably concurrent.
  twin = await bootTwinWithSamples({ REWOO_TOOL_LATENCY_MS: "*=40" });
});

afterAll(async () => {
  await twin?.stop();
});

async function evaluate(request: unknown): Promise<RunRecord> {
  const { run_id } = await twin.startRun(request);
  return twin.waitForRun(run_id);
}

const overlaps = (a: Evidence, b: Evidence) =>
  Date.parse(a.started_at) < Date.parse(b.finished_at) &&
  Date.parse(b.started_at) < Date.parse(a.finished_at);

describe("a ReWOO run through the local twin", () => {
  let run: RunRecord;

  beforeAll(async () => {
    run = await evaluate(
      taxReturnRequest(["rm-conditions/1120-signed.pdf", "rm-conditions/1120-unsigned.pdf"], {
        instructions: "Evaluate all loan conditions for this tax return",
      }),
    );
  });

  it("succeeds with a plan of at least two dependency levels", () => {
    expect(run.status).toBe("SUCCEEDED");
    expect(run.plan?.levels.length).toBeGreaterThanOrEqual(2);
    const tools = run.plan?.steps.map((step) => step.tool);
    expect(tools).toContain("call_preconditions_api");
    expect(tools).toContain("call_conditions_ai_api");
    expect(tools?.filter((tool) => tool === "retrieve_s3_document")).toHaveLength(2);
  });

  it("stores ok evidence for every step of the plan", () => {
    expect(run.evidence.map((e) => e.step_id).sort()).toEqual(run.plan?.steps.map((s) => s.id).sort());
    for (const evidence of run.evidence) {
      expect(evidence.status, `${evidence.step_id}: ${evidence.error}`).toBe("ok");
      expect(evidence.output).toBeDefined();
      expect(evidence.duration_ms).toBeGreaterThanOrEqual(0);
    }
    const preconditions = run.evidence.find((e) => e.tool === "call_preconditions_api");
    const output = preconditions?.output as { conditions: { id: string }[] } | undefined;
    const conditionIds = output?.conditions.map((c) => c.id);
    expect(conditionIds).toEqual(expect.arrayContaining(["TR_SIGNED", "TR_EIN_MATCH", "TR_COMPLETE"]));
  });

  it("runs the steps of one level in parallel", () => {
    const firstLevel = run.plan?.levels[0] ?? [];
    expect(firstLevel.length).toBeGreaterThanOrEqual(2);
    const evidence = firstLevel.map((id) => run.evidence.find((e) => e.step_id === id) as Evidence);
    const overlapping = evidence.some((a, i) => evidence.slice(i + 1).some((b) => overlaps(a, b)));
    expect(overlapping).toBe(true);
  });

  it("starts a level only after the previous level finished", () => {
    const [first = [], second = []] = run.plan?.levels ?? [];
    const byId = new Map(run.evidence.map((e) => [e.step_id, e]));
    const lastFinish = Math.max(...first.map((id) => Date.parse(byId.get(id)?.finished_at ?? "")));
    for (const id of second)
      expect(Date.parse(byId.get(id)?.started_at ?? "")).toBeGreaterThanOrEqual(lastFinish);
  });

  it("records ordered progress events with gap-free seq", async () => {
    const events = await twin.services.runs.listEvents(run.run_id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]?.stage).toBe("plan");
    expect(events.at(-1)).toMatchObject({ stage: "complete", status: "SUCCEEDED" });
    const workerEvents = events.filter((e) => e.stage === "worker");
    expect(workerEvents).toHaveLength(2 * (run.plan?.steps.length ?? 0));
    const solver = events.filter((e) => e.stage === "solver").map((e) => e.stage === "solver" && e.status);
    expect(solver).toEqual(["started", "completed"]);
    expect(events.every((e) => e.run_id === run.run_id && typeof e.timestamp === "string")).toBe(true);
  });

  it("produces verdicts: the signed return passes the signature check only through the signed file", () => {
    const result = run.result;
    expect(result?.summary).toMatch(/condition/i);
    const all = [...(result?.fulfilled_conditions ?? []), ...(result?.unfulfilled_conditions ?? [])];
    expect(all.map((c) => c.id)).toEqual(
      expect.arrayContaining(["TR_SIGNED", "TR_EIN_MATCH", "TR_NAME_MATCH"]),
    );
    for (const condition of result?.fulfilled_conditions ?? []) {
      expect(condition.citations?.length, condition.id).toBeGreaterThan(0);
    }
  });

  it("accounts for exactly two LLM calls (planner + solver) with token counts", () => {
    expect(run.usage.llm_calls).toBe(2);
    expect(run.usage.input_tokens).toBeGreaterThan(100);
    expect(run.usage.output_tokens).toBeGreaterThan(10);
  });

  it("carries both reviews, approved with 10 (the offline reviewers are rules: no LLM call)", () => {
    expect(run.plan_review).toMatchObject({ approved: true, score: 10, issues: [] });
    expect(run.result_review).toMatchObject({ approved: true, score: 10, issues: [] });
  });
});

describe("failures that are data", () => {
  it("keeps a failing tool's error as evidence and still answers, naming the missing evidence", async () => {
    const run = await evaluate(
      taxReturnRequest(["rm-conditions/1120-signed.pdf", "rm-conditions/does-not-exist.pdf"]),
    );
    expect(run.status).toBe("SUCCEEDED");
    const failed = run.evidence.filter((e) => e.status === "error");
    const retrieval = failed.find((e) => e.tool === "retrieve_s3_document");
    expect(retrieval?.error).toMatch(/does-not-exist\.pdf.*does not exist/);
    expect(run.result?.missing_information.join("\n")).toContain(retrieval?.step_id);
    expect(run.result?.missing_information.join("\n")).toContain("does-not-exist.pdf");
  });

  it("runs steps one at a time when options.parallel is false", async () => {
    const run = await evaluate(
      taxReturnRequest(["rm-conditions/1120-signed.pdf", "rm-conditions/1120-unsigned.pdf"], {
        options: { parallel: false },
      }),
    );
    expect(run.status).toBe("SUCCEEDED");
    const firstLevel = (run.plan?.levels[0] ?? []).map(
      (id) => run.evidence.find((e) => e.step_id === id) as Evidence,
    );
    expect(firstLevel.length).toBeGreaterThanOrEqual(2);
    for (const [i, a] of firstLevel.entries()) {
      for (const b of firstLevel.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
    }
  });

  it("rejects a request with a document outside the allowed locations before starting anything", async () => {
    await expect(
      twin.startRun(taxReturnRequest(["s3://someone-elses-bucket/doc.pdf"])),
    ).rejects.toMatchObject({
      name: "InvalidRequestError",
      problems: [{ field: "s3_pdf_paths[0]", message: expect.stringMatching(/outside the allowed/) }],
    });
  });
});

describe("the worker", () => {
  it("calls its tool once when invoked twice for the same step", async () => {
    const { handler: plan } = await import("../../lambdas/planner/index.ts");
    const { handler: work } = await import("../../lambdas/worker/index.ts");
    const runId = `run-idempotency-${Date.now()}`;
    await twin.services.runs.createRun(runId, taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
    await plan({ run_id: runId });
    const tool = twin.services.tools.get("call_preconditions_api");
    const spy = vi.spyOn(tool, "run");
    try {
      const first = await work({ run_id: runId, step_id: "E1", level_index: 0 });
      const second = await work({ run_id: runId, step_id: "E1", level_index: 0 });
      expect(spy).toHaveBeenCalledTimes(1);
      expect(first).toMatchObject({ status: "ok", reused: false });
      expect(second).toMatchObject({ status: "ok", reused: true });
      const stored = await twin.services.runs.getEvidence(runId, ["E1"]);
      expect(stored.get("E1")?.status).toBe("ok");
    } finally {
      spy.mockRestore();
    }
  });
});
