// The one ordering of progress events shared by the dashboard, the CLI and the server side.
import { describe, expect, it } from "vitest";
import { contiguousAfter, EventOrder, isProgressEvent } from "../../../dashboard/event-order.js";

const RUN = "run-20260101120000-abcdef12";

interface TestEvent {
  run_id: string;
  seq: number;
  stage: string;
}

/** Events of RUN by seq: `complete` where asked, `resume` where asked, else `worker`. */
function events(seqs: number[], stages: Record<number, string> = {}): TestEvent[] {
  return seqs.map((seq) => ({ run_id: RUN, seq, stage: stages[seq] ?? "worker" }));
}

function follower(options: { afterSeq?: number; stopAtComplete?: boolean } = {}) {
  const delivered: number[] = [];
  const order = new EventOrder<TestEvent>({
    runId: RUN,
    onEvent: (event) => delivered.push(event.seq),
    ...options,
  });
  return { order, delivered };
}

describe("EventOrder", () => {
  it("delivers each seq once, in order, holding later ones until the gap closes", () => {
    const { order, delivered } = follower();
    expect(order.push(events([1, 2, 2, 4])).map((event) => event.seq)).toEqual([1, 2]);
    expect(order.lastSeq).toBe(2);
    expect(order.buffered).toBe(1);
    order.push(events([3, 1]));
    expect(delivered).toEqual([1, 2, 3, 4]);
    expect(order.lastSeq).toBe(4);
    expect(order.buffered).toBe(0);
  });

  it("keeps the first copy of a seq that arrives twice while it waits", () => {
    const { order } = follower();
    order.push([{ run_id: RUN, seq: 2, stage: "plan" }]);
    order.push([{ run_id: RUN, seq: 2, stage: "worker" }]);
    expect(order.push(events([1])).map((event) => event.stage)).toEqual(["worker", "plan"]);
  });

  it("ignores another run's events, events without an integer seq and what the caller already has", () => {
    const { order, delivered } = follower({ afterSeq: 3 });
    order.push([
      { run_id: "run-other", seq: 4, stage: "worker" },
      { run_id: RUN, seq: 4.5, stage: "worker" },
      ...events([2, 3]),
    ]);
    expect(delivered).toEqual([]);
    order.push(events([4]));
    expect(delivered).toEqual([4]);
  });

  it("stops at the complete event: nothing after it is delivered, and what waited is let go", () => {
    const { order, delivered } = follower();
    order.push(events([1, 2, 4], { 3: "complete" }));
    expect(order.done).toBe(false);
    order.push(events([3], { 3: "complete" }));
    expect(delivered).toEqual([1, 2, 3]);
    expect(order.done).toBe(true);
    expect(order.buffered).toBe(0);
    order.push(events([4, 5]));
    expect(delivered).toEqual([1, 2, 3]);
    expect(order.lastSeq).toBe(3);
  });

  it("without stopAtComplete goes on after a resume: done again only at the next complete", () => {
    const { order, delivered } = follower({ stopAtComplete: false });
    order.push(events([1, 2], { 2: "complete" }));
    expect(order.done).toBe(true);
    order.push(events([3, 4], { 3: "resume" }));
    expect(order.done).toBe(false);
    order.push(events([5], { 5: "complete" }));
    expect(delivered).toEqual([1, 2, 3, 4, 5]);
    expect(order.done).toBe(true);
  });

  it("releases past a hole only when told the events are final (the run ended: a lost write)", () => {
    const { order, delivered } = follower();
    order.push(events([1, 3, 4], { 4: "complete" }));
    expect(delivered).toEqual([1]);
    expect(order.push(events([3, 4], { 4: "complete" }), { final: true }).map((e) => e.seq)).toEqual([3, 4]);
    expect(delivered).toEqual([1, 3, 4]);
    expect(order.done).toBe(true);
    expect(order.lastSeq).toBe(4);
  });

  it("a final push with nothing new releases what was buffered", () => {
    const { order, delivered } = follower();
    order.push(events([2, 5]));
    order.push([], { final: true });
    expect(delivered).toEqual([2, 5]);
    expect(order.lastSeq).toBe(5);
  });
});

describe("contiguousAfter", () => {
  const seqs = (...values: number[]) => values.map((seq) => ({ seq }));

  it("returns the events that follow without a hole, in seq order", () => {
    expect(contiguousAfter(seqs(3, 1, 2), 0)).toEqual(seqs(1, 2, 3));
  });

  it("stops before a hole: seq 5 landed before seq 4 was written", () => {
    expect(contiguousAfter(seqs(3, 5, 6), 2)).toEqual(seqs(3));
  });

  it("skips events already seen and duplicates, and returns nothing when the next one is missing", () => {
    expect(contiguousAfter(seqs(1, 2, 4), 2)).toEqual([]);
    expect(contiguousAfter(seqs(3, 3, 4), 2)).toEqual(seqs(3, 4));
  });

  it("goes on past a complete event (a resumed run's events follow it)", () => {
    const stored = events([1, 2, 3], { 1: "complete", 2: "resume" });
    expect(contiguousAfter(stored, 0)).toEqual(stored);
  });
});

describe("isProgressEvent", () => {
  it("tells events from the WebSocket's other messages", () => {
    expect(isProgressEvent({ run_id: RUN, seq: 1, stage: "plan" })).toBe(true);
    expect(isProgressEvent({ type: "error", message: "forbidden" })).toBe(false);
    expect(isProgressEvent({ message: "Internal server error" })).toBe(false);
    expect(isProgressEvent({ run_id: RUN, seq: "1", stage: "plan" })).toBe(false);
    expect(isProgressEvent(null)).toBe(false);
  });
});
