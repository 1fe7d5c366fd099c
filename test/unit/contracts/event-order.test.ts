// The event order has one rule in two files: lambdas/contracts/event-order.ts for the server side
// and the CLI, dashboard/event-order.js for the page (served as plain files, it cannot import
// TypeScript). The same deliveries, in many seeded orders with duplicates, holes, other runs' events
// and non-events mixed in, must give the same releases and the same position from both.
import { describe, expect, it } from "vitest";
import * as page from "../../../dashboard/event-order.js";
import * as contract from "../../../lambdas/contracts/event-order.ts";
import { seededRandom } from "../../../lambdas/core/seeded-random.ts";

interface Event {
  run_id: string;
  seq: number;
  stage: string;
}

type Batch = { events: unknown[]; final: boolean };

/** A run's events 1..count (complete last, a resume and more after it when `resumed`), delivered in batches. */
function deliveries(seed: number): { batches: Batch[]; afterSeq: number } {
  const random = seededRandom(seed);
  const count = 3 + Math.floor(random() * 12);
  const stages: string[] = Array.from({ length: count }, (_, i) => (i === 0 ? "plan" : "step"));
  stages[count - 1] = "complete";
  if (random() < 0.4) stages.push("resume", "step", "complete");
  const events: unknown[] = stages.map((stage, i) => ({ run_id: "run-a", seq: i + 1, stage }));
  // Duplicates, another run's events, a hole (a lost write) and things that are not events.
  for (let i = 0; i < 4; i++) events.push(events[Math.floor(random() * events.length)]);
  events.push({ run_id: "run-b", seq: 1, stage: "plan" }, { message: "Forbidden" }, null, { seq: 2.5 });
  if (random() < 0.5) events.splice(1 + Math.floor(random() * (stages.length - 1)), 1);
  for (let i = events.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [events[i], events[j]] = [events[j], events[i]];
  }
  const batches: Batch[] = [];
  while (events.length > 0)
    batches.push({ events: events.splice(0, 1 + Math.floor(random() * 4)), final: false });
  const last = batches.at(-1);
  if (last && random() < 0.5) last.final = true;
  return { batches, afterSeq: random() < 0.3 ? 1 : 0 };
}

function run(
  implementation: typeof contract,
  { batches, afterSeq }: ReturnType<typeof deliveries>,
  options: { runId?: string; stopAtComplete: boolean },
) {
  const handed: unknown[] = [];
  const order = new implementation.EventOrder<Event>({
    ...options,
    afterSeq,
    onEvent: (e) => handed.push(e),
  });
  const steps = batches.map(({ events, final }) => ({
    released: order.push(events as Event[], { final }),
    lastSeq: order.lastSeq,
    done: order.done,
    buffered: order.buffered,
  }));
  const flat = batches.flatMap((batch) => batch.events) as Event[];
  return { steps, handed, contiguous: implementation.contiguousAfter(flat, afterSeq) };
}

describe("the event order's two files", () => {
  it("release the same events and keep the same position for 300 seeded deliveries", () => {
    let released = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const delivery = deliveries(seed);
      for (const options of [
        { runId: "run-a", stopAtComplete: true },
        { runId: "run-a", stopAtComplete: false },
        { stopAtComplete: true },
      ]) {
        const expected = run(contract, delivery, options);
        expect(run(page as typeof contract, delivery, options), `seed ${seed}`).toEqual(expected);
        released += expected.handed.length;
      }
    }
    // The deliveries release events at all (a broken generator would compare empty lists).
    expect(released).toBeGreaterThan(3000);
  });

  it("tell progress events from other messages alike", () => {
    const values = [
      { run_id: "r", seq: 1, stage: "plan" },
      { run_id: "r", seq: 1.5, stage: "plan" },
      { seq: 1, stage: "plan" },
      { run_id: "r", seq: 1 },
      { message: "Internal server error" },
      null,
      "text",
    ];
    const fromContract = values.map(contract.isProgressEvent);
    expect(values.map(page.isProgressEvent)).toEqual(fromContract);
    expect(fromContract).toEqual([true, false, false, false, false, false, false]);
  });
});
