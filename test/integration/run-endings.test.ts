// Every run ends, and ends right: executions that end outside the workflow (stopped from the console,
// timed out, failure handler out of retries) still close their run through EventBridge; a failed run
// resumes from where it stopped without repeating a tool or LLM call; a retried Plan or Solve reuses
// what is stored; transient faults are retried; nothing is published after `complete`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { ProgressEvent } from "../../lambdas/core/types.ts";
import { handler as finalizeHandler } from "../../lambdas/finalize/index.ts";
import { handler as plannerHandler } from "../../lambdas/planner/index.ts";
import type { PlanOutput } from "../../lambdas/planner/plan-run.ts";
import { handler as solverHandler } from "../../lambdas/solver/index.ts";
import { executionNameOf } from "../../lambdas/store/runs.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  // Slow tools keep runs in flight long enough to stop them; no backoff between retries.
  twin = await bootTwinWithSamples(
    { REWOO_TOOL_LATENCY_MS: "*=300" },
    { retryIntervalOverrides: { Work: 0 } },
  );
});

afterAll(async () => {
  await twin?.stop();
});

afterEach(() => {
  twin.services.faults.configure(undefined);
});

const signed = () => taxReturnRequest(["rm-conditions/1120-signed.pdf"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function events(runId: string): Promise<ProgressEvent[]> {
  return twin.services.runs.listEvents(runId);
}

async function untilEvidence(runId: string, count: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await twin.services.runs.listEvidence(runId)).length >= count) return;
    await sleep(20);
  }
  throw new Error(`run ${runId} never stored ${count} evidence items`);
}

function statusChange(runId: string, name: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    version: "0",
    id: `test-${Math.random()}`,
    "detail-type": "Step Functions Execution Status Change",
    source: "aws.states",
    detail: {
      executionArn: `arn:aws:states:us-east-1:123456789012:execution:rewoo:${name}`,
      name,
      status,
      input: JSON.stringify({ run_id: runId }),
      error: null,
      cause: null,
      ...extra,
    },
  } as never;
}

describe("runs whose execution ends outside the workflow", () => {
  it("ends CANCELLED with a complete event when the execution is stopped from outside the API", async () => {
    const { run_id, executionArn } = await twin.startRun(signed());
    await untilEvidence(run_id, 1);
    // What the console or `aws stepfunctions stop-execution` does: no API involved.
    twin.stepFunctions.stopExecution(executionArn);
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("CANCELLED");
    expect(record.error).toMatchObject({ error: "ExecutionAborted" });

    // The worker that was running when the execution stopped finishes in the background; its events
    // are dropped, so `complete` stays the last event.
    await twin.stepFunctions.idle(executionArn);
    await twin.settled();
    const stored = await events(run_id);
    expect(stored.at(-1)).toMatchObject({ stage: "complete", status: "CANCELLED" });
    expect(stored.filter((event) => event.stage === "complete")).toHaveLength(1);
  });

  it("ends FAILED when the execution times out (States.Timeout)", async () => {
    const runId = `run-timeout-${Date.now()}`;
    await twin.services.runs.createRun(runId, signed() as never);
    await finalizeHandler(statusChange(runId, runId, "TIMED_OUT"));
    const record = await twin.services.runs.getRun(runId);
    expect(record?.status).toBe("FAILED");
    expect(record?.error?.error).toBe("States.Timeout");
    expect((await events(runId)).map((event) => event.stage)).toEqual(["complete"]);
    // A second delivery of the same event (EventBridge delivers at least once) changes nothing.
    expect(await finalizeHandler(statusChange(runId, runId, "TIMED_OUT"))).toMatchObject({
      outcome: "ignored",
    });
    expect(await events(runId)).toHaveLength(1);
  });

  it("ends FAILED with the execution's error when the failure handler could not record it", async () => {
    const runId = `run-failed-${Date.now()}`;
    await twin.services.runs.createRun(runId, signed() as never);
    await finalizeHandler(
      statusChange(runId, runId, "FAILED", {
        error: "Lambda.Unknown",
        cause: "HandleFailure out of retries",
      }),
    );
    const record = await twin.services.runs.getRun(runId);
    expect(record?.status).toBe("FAILED");
    expect(record?.error).toEqual({ error: "Lambda.Unknown", cause: "HandleFailure out of retries" });
  });
});

describe("resuming a failed run", () => {
  it("finishes it from where it stopped: no tool, planner or solver call repeated", async () => {
    // The worker of the Conditions AI step dies every time: the Map fails, HandleFailure marks the run FAILED.
    twin.services.faults.configure("call_conditions_ai_api=1:crash");
    const { run_id } = await twin.startRun(signed());
    const failed = await twin.waitForRun(run_id);
    expect(failed.status).toBe("FAILED");
    expect(failed.error?.error).toBe("Rewoo.InjectedCrash");
    const doneBefore = failed.evidence.filter((item) => item.status === "ok");
    expect(doneBefore.map((item) => item.tool)).toContain("call_preconditions_api");

    twin.services.faults.configure(undefined);
    const response = await fetch(`${twin.urls.api}/v1/runs/${run_id}/resume`, { method: "POST" });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ run_id, attempt: 2, execution_name: `${run_id}-r2` });

    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.attempt).toBe(2);
    expect(record.error).toBeUndefined();
    // Finished evidence is untouched, and its tools were not called again.
    for (const before of doneBefore) {
      expect(record.evidence.find((item) => item.step_id === before.step_id)).toEqual(before);
    }
    const stored = await events(run_id);
    for (const before of doneBefore) {
      const starts = stored.filter(
        (event) => event.stage === "worker" && event.step === before.step_id && event.status === "started",
      );
      expect(starts).toHaveLength(1);
    }
    // One planner call (the first attempt's plan is reused) and one solver call.
    expect(record.usage.llm_calls).toBe(2);
    expect(stored.filter((event) => event.stage === "plan")).toHaveLength(1);
    const stages = stored.map((event) =>
      event.stage === "complete" ? `complete:${event.status}` : event.stage,
    );
    expect(stages).toContain("complete:FAILED");
    expect(stages.indexOf("resume")).toBeGreaterThan(stages.indexOf("complete:FAILED"));
    expect(stages.at(-1)).toBe("complete:SUCCEEDED");

    // The end of the first execution, delivered late, says nothing about the resumed run.
    expect(await finalizeHandler(statusChange(run_id, run_id, "FAILED"))).toMatchObject({
      outcome: "ignored",
    });

    const again = await fetch(`${twin.urls.api}/v1/runs/${run_id}/resume`, { method: "POST" });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("run_not_resumable");
  });

  it("answers 404 for an unknown run and 400 for a malformed id", async () => {
    expect((await fetch(`${twin.urls.api}/v1/runs/run-nope/resume`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${twin.urls.api}/v1/runs/..%2Fx/resume`, { method: "POST" })).status).toBe(400);
  });
});

describe("retries", () => {
  it("reuse the stored plan and result: a retried Plan or Solve makes no LLM call and no event", async () => {
    const { run_id } = await twin.startRun(signed());
    const done = await twin.waitForRun(run_id);
    expect(done.status).toBe("SUCCEEDED");
    const meta = await twin.services.runs.getMeta(run_id);
    // Hand the run to a (pretend) new execution, as a resume would, and retry both tasks.
    expect(
      await twin.services.runs.reopenRun(run_id, {
        executionName: `${run_id}-retry`,
        fromAttempt: meta.attempt ?? 1,
        allowed: ["SUCCEEDED"],
      }),
    ).toBe(true);
    const before = await events(run_id);
    const planned = (await plannerHandler({ run_id })) as PlanOutput;
    expect(planned.levels).toEqual(done.plan?.levels);
    await solverHandler({ run_id });
    const after = await twin.services.runs.getRun(run_id);
    expect(after?.usage).toEqual(done.usage);
    expect(after?.result).toEqual(done.result);
    expect(await events(run_id)).toEqual(before);
    expect(executionNameOf(await twin.services.runs.getMeta(run_id))).toBe(`${run_id}-retry`);
  });

  it("retry transient infrastructure faults (throttling) until the run succeeds", async () => {
    twin.services.faults.configure("*=0.5:throttle", 7);
    const { run_id, executionArn } = await twin.startRun(signed());
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    const retried = twin.stepFunctions
      .history(executionArn)
      .filter((event) => event.type === "StateRetried" && event.stateName === "Work");
    expect(retried.length).toBeGreaterThan(0);
  });
});
