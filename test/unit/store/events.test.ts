import { describe, expect, it } from "vitest";
import { contiguousAfter } from "../../../lambdas/store/events.ts";

const events = (...seqs: number[]) => seqs.map((seq) => ({ seq }));

describe("contiguousAfter", () => {
  it("returns the events that follow without a hole, in seq order", () => {
    expect(contiguousAfter(events(3, 1, 2), 0)).toEqual(events(1, 2, 3));
  });

  it("stops before a hole: seq 5 landed before seq 4 was written", () => {
    expect(contiguousAfter(events(3, 5, 6), 2)).toEqual(events(3));
  });

  it("skips events already seen and returns nothing when the next one is missing", () => {
    expect(contiguousAfter(events(1, 2, 4), 2)).toEqual([]);
  });
});
