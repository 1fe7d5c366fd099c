// Smoke test of the benchmark (bench/): one scenario, one concurrent evaluation, every reliability
// measure at a small size, the scanned-documents section on its one single-page loan file, into a
// temporary directory. It checks that the files are written with the expected shape and that the numbers
// relate sanely; it asserts nothing about timing (benchmarks are not tests).
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBench } from "../../bench/bench.ts";
import { RELIABILITY_MEASURES } from "../../bench/reliability.ts";
import type { BenchResults } from "../../bench/results.ts";

const SCENARIO = "tax-return-history";
const SIZES = { deliveryRepeats: 1, subscribers: 5, faultRuns: 4, crashRuns: 3, memoryRuns: 8 };
let out: string;
let results: BenchResults;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), "rewoo-bench-smoke-"));
  results = await runBench({
    quick: true,
    out,
    report: join(out, "BENCHMARKS.md"),
    scenarios: [SCENARIO],
    concurrency: [1],
    repeats: 1,
    bundles: false,
    layouts: true,
    // One page of OCR (a few seconds): enough to check the section's plumbing and its invariants.
    ocr: { maxPages: 1, samples: false },
    live: false,
    reliability: RELIABILITY_MEASURES,
    reliabilitySizes: SIZES,
    batchFiles: 4,
    command: "vitest bench-smoke",
    log: () => undefined,
  });
}, 240_000);

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

describe("npm run bench (smoke)", () => {
  it("writes results.json, the report, the chart and the scripted responses", async () => {
    for (const file of [
      "results.json",
      "BENCHMARKS.md",
      "tokens-vs-tools.svg",
      "latency.svg",
      `scripted/${SCENARIO}.rewoo.json`,
      `scripted/${SCENARIO}.react.json`,
    ]) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    const written = JSON.parse(await readFile(join(out, "results.json"), "utf8")) as BenchResults;
    expect(written.scenarios.map((s) => s.name)).toEqual([SCENARIO]);
    expect(await readFile(join(out, "tokens-vs-tools.svg"), "utf8")).toMatch(
      /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
    );
    const report = await readFile(join(out, "BENCHMARKS.md"), "utf8");
    for (const heading of [
      "## Tokens and LLM calls",
      "## Wall time",
      "## Concurrency",
      "## AWS cost per run",
      "## Reliability and bounded cost",
      "### Live delivery off the critical path",
      "### Injected tool faults",
      "### Crash recovery",
      "### Twin memory",
      "### `/health` while the largest accepted request is processed",
    ]) {
      expect(report).toContain(heading);
    }
    expect(report).toContain("tokens-vs-tools.svg");
  });

  it("has the shape of the issue", () => {
    const [scenario] = results.scenarios;
    expect(scenario).toMatchObject({
      name: SCENARIO,
      tool_calls: expect.any(Number),
      rewoo: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        llm_calls: expect.any(Number),
        wall_ms: expect.any(Number),
      },
      react: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        llm_calls: expect.any(Number),
      },
      token_ratio: expect.any(Number),
      lower_bound_ms: expect.any(Number),
      critical_path_ms: expect.any(Number),
      transitions: expect.any(Number),
      cost_usd: expect.any(Number),
      max_payload_bytes: expect.any(Number),
    });
    expect(results.totals.token_ratio).toEqual(expect.any(Number));
    // Each N on a fresh twin, with Work on the twin's thread and in two environments of its own.
    expect(results.concurrency).toEqual(
      [0, 2].map((environments) =>
        expect.objectContaining({
          n: 1,
          worker_environments: environments,
          throughput_per_s: expect.any(Number),
          p50_ms: expect.any(Number),
          p95_ms: expect.any(Number),
          cpu_ms_per_run: expect.any(Number),
          errors: 0,
        }),
      ),
    );
    // The worker's round trips before its tool, on the scenario's steps: one Query each.
    expect(results.round_trips?.map((row) => row.before_tool)).toEqual(results.round_trips?.map(() => 1));
    expect(results.round_trips?.length).toBeGreaterThan(0);
    expect(results.batch).toMatchObject({
      files: 4,
      status: "SUCCEEDED",
      errors: 0,
      counts: { SUCCEEDED: 4 },
    });
    expect(Array.isArray(results.bundles)).toBe(true);
  });

  it("relates the numbers sanely", () => {
    const [s] = results.scenarios;
    if (!s) throw new Error("no scenario");
    expect(s.rewoo.status).toBe("SUCCEEDED");
    expect(s.tool_calls).toBe(4);
    // ReWOO: planner + solver. ReAct: one call per tool call, plus the final answer.
    expect(s.rewoo.llm_calls).toBe(2);
    expect(s.react.llm_calls).toBe(s.tool_calls + 1);
    expect(s.react.llm_calls).toBeGreaterThan(s.rewoo.llm_calls);
    expect(s.react.completed).toBe(true);
    expect(s.react.same_verdicts).toBe(true);
    // The recorded usage is exactly the count of the prompts the handlers render.
    expect(s.rewoo.usage_verified).toBe(true);
    expect(s.rewoo.input_tokens).toBeGreaterThan(0);
    expect(s.token_ratio).toBeCloseTo(s.react.total_tokens / s.rewoo.total_tokens, 2);
    expect(s.transitions).toBeGreaterThan(0);
    // Plan, ReviewPlan, PlanReviewed, RunLevels, a RunSteps per level, a Work per step, CheckSteps,
    // AnyStepFailed, Solve, ReviewResult, Finalize, Succeeded.
    expect(s.transitions).toBe(s.tool_calls + s.levels + 10);
    // Planner, plan review, a worker per step, solver, result review, finalize: no step failed, so the
    // planner is not asked to replan.
    expect(s.lambda_invocations).toBe(s.tool_calls + 5);
    expect(s.cost_usd).toBeCloseTo((s.transitions * 0.025) / 1000, 10);
    expect(s.max_payload_bytes).toBeGreaterThan(0);
    expect(s.max_payload_bytes).toBeLessThan(256 * 1024);
    expect(s.critical_path_ms).toBeLessThanOrEqual(s.lower_bound_ms);
    expect(s.lower_bound_ms).toBeLessThanOrEqual(s.lower_bound_capped_ms);
  });

  it("scores the engines on every labelled layout: no false fulfilled, every fulfilled cited on its page", async () => {
    const layouts = results.layouts;
    if (!layouts) throw new Error("no layouts section");
    const byDocument = (kind: string) => layouts.layouts.filter((score) => score.document === kind).length;
    expect(byDocument("form_1120")).toBeGreaterThanOrEqual(4);
    expect(byDocument("bank_statement")).toBeGreaterThanOrEqual(6);
    expect(layouts.verdicts).toBe(layouts.layouts.reduce((sum, score) => sum + score.verdicts, 0));
    expect(layouts.right).toBeLessThanOrEqual(layouts.verdicts);
    expect(layouts.false_fulfilled).toBe(0);
    expect(layouts.unverified_fulfilled).toBe(0);
    for (const score of layouts.layouts)
      expect(score.misses.length, score.layout).toBe(score.verdicts - score.right);
    const report = await readFile(join(out, "BENCHMARKS.md"), "utf8");
    expect(report).toContain("## Verdicts on layouts the engines were not written against");
  });

  it("scores a scanned held-out file read by OCR beside its text original: no false fulfilled", async () => {
    const ocr = results.ocr;
    if (!ocr) throw new Error("no OCR section");
    expect(ocr.total).toMatchObject({ cases: 1, documents: 1, pages: 1 });
    expect(ocr.total.verdicts).toBeGreaterThan(0);
    expect(ocr.total.false_fulfilled_scanned).toBe(0);
    expect(ocr.total.unverified_fulfilled_scanned).toBe(0);
    for (const set of ocr.sets) {
      expect(set.misses_scanned.length, set.set).toBe(set.verdicts - set.right_scanned);
      expect(set.misses_text.length, set.set).toBe(set.verdicts - set.right_text);
    }
    // The page was read by OCR (it has no text layer once scanned), with a confidence.
    expect(ocr.cost).toMatchObject({ documents: 1, pages: 1 });
    expect(ocr.cost.mean_confidence).toBeGreaterThan(0);
    expect(ocr.scan_cost).toMatchObject({ cached_documents: 1, cached_pages: 1 });
    expect(ocr.samples).toBeNull();
    const report = await readFile(join(out, "BENCHMARKS.md"), "utf8");
    expect(report).toContain("## Scanned documents (OCR)");
    expect(report).toContain("- Scanned documents: ");
  });

  it("takes every reliability measure, with the properties the system promises", () => {
    const reliability = results.reliability;
    if (!reliability) throw new Error("no reliability section");
    expect(reliability.errors).toEqual([]);

    const delivery = reliability.live_delivery;
    expect(delivery?.variants.map((v) => v.subscribers)).toEqual([0, SIZES.subscribers]);
    for (const variant of delivery?.variants ?? []) {
      expect(variant.run_ms).toHaveLength(SIZES.deliveryRepeats);
      expect(variant.median_dynamodb_requests).toBeGreaterThan(0);
    }
    const watched = delivery?.variants[1];
    // Every subscriber got every event of the run exactly once, in order.
    expect(watched?.deliveries).toBe(SIZES.subscribers * SIZES.deliveryRepeats);
    expect(watched?.exact_deliveries).toBe(watched?.deliveries);
    expect(watched?.last_complete_ms).toHaveLength(SIZES.deliveryRepeats);

    // Tool errors are data: every run ends SUCCEEDED, each failed step named or replanned around.
    const faults = reliability.faults;
    expect(faults?.error).toMatchObject({ runs: SIZES.faultRuns, succeeded: SIZES.faultRuns, failed: 0 });
    expect((faults?.error.failed_steps_named ?? 0) + (faults?.error.failed_steps_replanned ?? 0)).toBe(
      faults?.error.failed_steps,
    );
    expect(faults?.error.runs_naming_every_failed_step).toBe(faults?.error.runs_with_failed_steps);
    expect(faults?.throttle.runs).toBe(SIZES.faultRuns);
    expect((faults?.throttle.succeeded ?? 0) + (faults?.throttle.failed ?? 0)).toBe(SIZES.faultRuns);
    expect(faults?.throttle.steps).toBeGreaterThan(0);

    // A killed twin: every run completes, no tool repeated, no evidence changed.
    expect(reliability.crash_recovery).toMatchObject({
      runs_started: SIZES.crashRuns,
      runs_completed: SIZES.crashRuns,
      repeated_tool_calls: 0,
      evidence_changed: 0,
    });
    expect(reliability.crash_recovery?.evidence_at_kill).toBeGreaterThan(0);

    const memory = reliability.memory;
    expect(memory?.all_succeeded).toBe(true);
    expect(memory?.series.map((sample) => sample.runs)).toEqual([0, 2, 4, 6, 8]);
    expect(memory?.series.at(-1)?.executions).toBe(SIZES.memoryRuns + 1);

    const health = reliability.health;
    expect(health?.run_status).toBe("SUCCEEDED");
    expect(health?.body_bytes).toBeLessThanOrEqual(health?.max_body_bytes ?? 0);
    expect(health?.polls).toBeGreaterThan(0);
  });
});
