// The report's plan cache section: the measured counts as given, the savings computed from them.
import { describe, expect, it } from "vitest";
import { type PlanCacheResults, planCacheSection } from "../../../bench/plan-cache.ts";

const results: PlanCacheResults = {
  requests: 12,
  shapes: 3,
  off: { llm_calls: 24, input_tokens: 40000, output_tokens: 8000, cached_plans: 0 },
  on: { llm_calls: 15, input_tokens: 30000, output_tokens: 6000, cached_plans: 9 },
  same_results: 12,
  modelled_planner_ms_saved: 45000,
  elapsed_ms: 9000,
};

describe("planCacheSection", () => {
  it("tables both streams and what the cache saved", () => {
    const lines = planCacheSection(results);
    expect(lines[0]).toBe("## The plan cache");
    expect(lines).toContain(
      [
        "| stream | cached plans | LLM calls | input tokens | output tokens |",
        "| --- | ---: | ---: | ---: | ---: |",
        "| cache off | 0 | 24 | 40000 | 8000 |",
        "| cache on | 9 | 15 | 30000 | 6000 |",
        "| **saved** |  | **9** (38 %) | 10000 (25 %) | 2000 (25 %) |",
      ].join("\n"),
    );
    const summary = lines.at(-1) ?? "";
    expect(summary).toContain("the other 9 run it filled in");
    expect(summary).toContain("45.0 s over the stream (5000 ms per cached plan)");
    expect(summary).toContain("12 of 12 requests");
  });
});
