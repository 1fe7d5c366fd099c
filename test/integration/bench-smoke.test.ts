// Smoke test of the benchmark (bench/): one scenario, one concurrent evaluation, into a temporary
// directory. It checks that the files are written with the expected shape and that the numbers
// relate sanely; it asserts nothing about timing (benchmarks are not tests).
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BenchResults, runBench } from "../../bench/bench.ts";

const SCENARIO = "tax-return-history";
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
    live: false,
    command: "vitest bench-smoke",
    log: () => undefined,
  });
}, 60_000);

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
    expect(results.concurrency).toEqual([
      expect.objectContaining({
        n: 1,
        throughput_per_s: expect.any(Number),
        p50_ms: expect.any(Number),
        p95_ms: expect.any(Number),
        errors: 0,
      }),
    ]);
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
    // Plan, RunLevels, a RunSteps per level, a Work per step, Solve, Finalize, Succeeded.
    expect(s.transitions).toBe(s.tool_calls + s.levels + 5);
    expect(s.lambda_invocations).toBe(s.tool_calls + 3);
    expect(s.cost_usd).toBeCloseTo((s.transitions * 0.025) / 1000, 10);
    expect(s.max_payload_bytes).toBeGreaterThan(0);
    expect(s.max_payload_bytes).toBeLessThan(256 * 1024);
    expect(s.critical_path_ms).toBeLessThanOrEqual(s.lower_bound_ms);
    expect(s.lower_bound_ms).toBeLessThanOrEqual(s.lower_bound_capped_ms);
  });
});
