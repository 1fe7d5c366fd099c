// EventPublisher.publishAfter against an in-memory run store: the seq it reserves while the reported
// write runs is always filled, usage is never lost, and the event never precedes what it reports.
import { describe, expect, it } from "vitest";
import type { ProgressEvent, ProgressEventBody, Usage } from "../../../lambdas/core/types.ts";
import { EventPublisher } from "../../../lambdas/store/events.ts";
import type { InvocationCount, RunStore } from "../../../lambdas/store/runs.ts";

class MemoryRuns {
  seq = 0;
  closed = false;
  readonly events: ProgressEvent[] = [];
  readonly usage: Usage[] = [];
  readonly invocations: InvocationCount[] = [];
  readonly log: string[] = [];

  async reserveEventSeq(
    _runId: string,
    _stage: string,
    options: { usage?: Usage; invocation?: InvocationCount } = {},
  ) {
    this.log.push("reserve");
    if (this.closed) return undefined;
    if (options.usage) this.usage.push(options.usage);
    if (options.invocation) this.invocations.push(options.invocation);
    this.seq += 1;
    return this.seq;
  }

  async putEvent(runId: string, seq: number, body: ProgressEventBody) {
    this.log.push(`put ${seq}`);
    const event = { ...body, run_id: runId, seq, timestamp: "2026-11-28T00:00:00.000Z" } as ProgressEvent;
    this.events.push(event);
    return event;
  }

  async addUsage(_runId: string, usage: Usage) {
    this.log.push("addUsage");
    this.usage.push(usage);
  }
}

const usage: Usage = { llm_calls: 1, input_tokens: 10, output_tokens: 2, models: ["m"] };
const body = (status: "completed" | "failed", error?: string): ProgressEventBody => ({
  stage: "worker",
  step: "E1",
  tool: "call_conditions_ai_api",
  level: 0,
  status,
  ...(error ? { error } : {}),
});

function publisherWith(runs: MemoryRuns) {
  return new EventPublisher(runs as unknown as RunStore);
}

describe("EventPublisher.publishAfter", () => {
  it("stores the event after the write has settled, with the usage in the seq's update", async () => {
    const runs = new MemoryRuns();
    let finish: (value: string) => void = () => undefined;
    const write = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const published = publisherWith(runs).publishAfter(
      "run-1",
      "worker",
      write.then((value) => {
        runs.log.push("written");
        return value;
      }),
      (settled) => body(settled.status === "fulfilled" ? "completed" : "failed"),
      { usage, invocation: () => ({ requests: 1, mb_ms: 2048, transitions: 1 }) },
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs.log).toEqual(["reserve"]);
    finish("evidence");
    const { value, event, counted } = await published;
    expect(value).toBe("evidence");
    expect(counted).toBe(true);
    expect(runs.invocations).toEqual([{ requests: 1, mb_ms: 2048, transitions: 1 }]);
    expect(runs.log).toEqual(["reserve", "written", "put 1"]);
    expect(event).toMatchObject({ seq: 1, status: "completed" });
    expect(runs.usage).toEqual([usage]);
  });

  it("fills the reserved seq when the write fails, then throws the write's error", async () => {
    const runs = new MemoryRuns();
    const failure = new Error("throttled");
    const published = publisherWith(runs).publishAfter(
      "run-1",
      "worker",
      Promise.reject(failure),
      (settled) =>
        settled.status === "rejected" ? body("failed", String(settled.reason)) : body("completed"),
    );
    await expect(published).rejects.toBe(failure);
    expect(runs.events).toEqual([
      expect.objectContaining({ seq: 1, status: "failed", error: "Error: throttled" }),
    ]);
  });

  it("stores no event on a closed stream and adds the usage on its own", async () => {
    const runs = new MemoryRuns();
    runs.closed = true;
    const { value, event, counted } = await publisherWith(runs).publishAfter(
      "run-1",
      "worker",
      Promise.resolve(42),
      () => body("completed"),
      { usage, invocation: () => ({ requests: 1, mb_ms: 1, transitions: 1 }) },
    );
    expect(value).toBe(42);
    // Not counted: the invocation's own count at its end adds it.
    expect(counted).toBe(false);
    expect(runs.invocations).toEqual([]);
    expect(event).toBeUndefined();
    expect(runs.events).toEqual([]);
    expect(runs.usage).toEqual([usage]);
    expect(runs.log).toEqual(["reserve", "addUsage"]);
  });
});
