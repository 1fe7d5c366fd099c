// The worker's events after its tool, through the real EventPublisher on an in-memory run: the
// completed event follows the started one in seq, carries the invocation's count, and a seq reserved
// for an evidence write that failed is still filled before the failure is thrown.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { Evidence, ProgressEvent, ProgressEventBody } from "../../../lambdas/core/types.ts";
import type { Services } from "../../../lambdas/runtime/services.ts";
import { EventPublisher } from "../../../lambdas/store/events.ts";
import type { InvocationCount, RunStore } from "../../../lambdas/store/runs.ts";
import { runStep } from "../../../lambdas/worker/run-step.ts";

class MemoryRun {
  seq = 0;
  readonly events: ProgressEvent[] = [];
  readonly counted: InvocationCount[] = [];

  async getMetaAndEvidence() {
    return {
      meta: { plan: { steps: [{ id: "E1", tool: "call_preconditions_api", args: {}, depends_on: [] }] } },
      evidence: new Map(),
    };
  }

  async reserveEventSeq(_runId: string, _stage: string, options: { invocation?: InvocationCount } = {}) {
    if (options.invocation) this.counted.push(options.invocation);
    this.seq += 1;
    return this.seq;
  }

  async putEvent(runId: string, seq: number, body: ProgressEventBody) {
    const event = { ...body, run_id: runId, seq, timestamp: "2026-11-28T00:00:00.000Z" } as ProgressEvent;
    this.events.push(event);
    return event;
  }

  async addUsage() {}
}

function servicesWith(run: MemoryRun, put: (evidence: Evidence) => Promise<unknown>): Services {
  return {
    runs: run,
    evidence: {
      resolveAll: async () => new Map(),
      put: (_runId: string, evidence: Evidence) => put(evidence),
    },
    publisher: new EventPublisher(run as unknown as RunStore),
    faults: { draw: () => undefined },
    tools: { get: () => ({ args: z.looseObject({}), timeout_ms: 5_000, run: async () => ({ met: true }) }) },
    config: { toolLatencyMs: {}, toolTimeoutMs: {} },
  } as unknown as Services;
}

const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
const item = { run_id: "run-1", step_id: "E1", level_index: 0 };

describe("the worker's events after its tool", () => {
  it("publishes started then completed, counting the invocation in the completed event's update", async () => {
    const run = new MemoryRun();
    let marked = 0;
    const invocation = {
      soFar: (transitions: number) => ({ requests: 1, mb_ms: 10, transitions }),
      markCounted: () => {
        marked += 1;
      },
    };
    const output = await runStep(
      item,
      servicesWith(run, async (evidence) => ({ stored: evidence, written: true })),
      log,
      invocation,
    );
    expect(output).toEqual({ run_id: "run-1", step_id: "E1", status: "ok", reused: false });
    expect(run.events.map((event) => [event.seq, (event as { status?: string }).status])).toEqual([
      [1, "started"],
      [2, "completed"],
    ]);
    expect(run.counted).toEqual([{ requests: 1, mb_ms: 10, transitions: 1 }]);
    expect(marked).toBe(1);
  });

  it("fills the completed event's seq with a failed event when the evidence cannot be stored, then throws", async () => {
    const run = new MemoryRun();
    const throttled = Object.assign(new Error("Rate exceeded"), {
      name: "ProvisionedThroughputExceededException",
    });
    const failure = await runStep(
      item,
      servicesWith(run, async () => {
        throw throttled;
      }),
      log,
    ).catch((error: unknown) => error);
    expect(failure).toBe(throttled);
    expect(run.events.map((event) => event.seq)).toEqual([1, 2]);
    expect(run.events[1]).toMatchObject({
      stage: "worker",
      step: "E1",
      status: "failed",
      error: "evidence not stored: ProvisionedThroughputExceededException: Rate exceeded",
    });
  });
});
