// Every handler invocation is counted on the run it works for (one request, duration × memory, the
// transitions of its state), whether it succeeded or threw; and its metrics are flushed once.
import type { Logger } from "@aws-lambda-powertools/logger";
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { Tracer } from "@aws-lambda-powertools/tracer";
import { afterEach, describe, expect, it, vi } from "vitest";
import { instrumentHandler } from "../../../lambdas/runtime/invocation.ts";
import { flushMetrics, metricsPublished } from "../../../lambdas/runtime/metrics.ts";

const tracer = new Tracer({ serviceName: "rewoo-test" });
const logger = { warn: vi.fn() } as unknown as Logger & { warn: ReturnType<typeof vi.fn> };

function setup(options: { memoryMb?: number } = {}) {
  const counts: Array<{ runId: string; usage: unknown }> = [];
  let now = 1_000;
  const runs = {
    addInvocation: vi.fn(async (runId: string, usage: unknown) => {
      counts.push({ runId, usage });
    }),
  };
  const spec = {
    name: "rewoo-planner",
    tracer,
    memoryMb: options.memoryMb ?? 1024,
    meter: (event: { run_id: string; action?: string }) => ({
      runId: event.run_id,
      task: event.action === "review" ? ("ReviewPlan" as const) : ("Plan" as const),
    }),
    runs: () => runs,
    logger,
    clock: () => now,
  };
  const advance = (ms: number) => {
    now += ms;
  };
  return { spec, counts, runs, advance };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("instrumentHandler", () => {
  it("counts one request, duration × the context's memory and the state's transitions on the run", async () => {
    const { spec, counts, advance } = setup();
    const handler = instrumentHandler(spec, async (_event, _context, invocation) => {
      advance(250);
      // What Finalize would include in a cost: this invocation so far.
      expect(invocation.soFar(2)).toEqual({ requests: 1, mb_ms: 250 * 512, transitions: 2 });
      return { levels: [["E1", "E2"], ["E3"]], needs_review: false, rejected: false, wait_for: "none" };
    });
    await handler({ run_id: "run-1", action: "review" }, { memoryLimitInMB: "512" });
    // ReviewPlan → PlanReviewed → RunLevels, RunSteps ×2, CheckSteps, AnyStepFailed.
    expect(counts).toEqual([{ runId: "run-1", usage: { requests: 1, mb_ms: 250 * 512, transitions: 7 } }]);
  });

  it("adds no count at the end of an invocation whose handler counted it in a write of its own", async () => {
    const { spec, counts, runs } = setup();
    const handler = instrumentHandler(spec, async (_event, _context, invocation) => {
      invocation.markCounted?.();
      return "done";
    });
    await expect(handler({ run_id: "run-3" })).resolves.toBe("done");
    expect(runs.addInvocation).not.toHaveBeenCalled();
    expect(counts).toEqual([]);
  });

  it("counts a failed attempt as its state once, and rethrows", async () => {
    const { spec, counts, advance } = setup({ memoryMb: 1024 });
    const failure = new Error("model unavailable");
    const handler = instrumentHandler(spec, async () => {
      advance(40);
      throw failure;
    });
    await expect(handler({ run_id: "run-2" })).rejects.toBe(failure);
    // No context (the twin): the function's configured memory.
    expect(counts).toEqual([{ runId: "run-2", usage: { requests: 1, mb_ms: 40 * 1024, transitions: 1 } }]);
  });

  it("takes the memory from AWS_LAMBDA_FUNCTION_MEMORY_SIZE when no context says", async () => {
    vi.stubEnv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "2048");
    const { spec, counts, advance } = setup({ memoryMb: 128 });
    await instrumentHandler(spec, async () => advance(10))({ run_id: "run-3" });
    expect(counts[0]?.usage).toMatchObject({ mb_ms: 10 * 2048 });
  });

  it("answers even when the count cannot be stored, and says so", async () => {
    const { spec, runs } = setup();
    runs.addInvocation.mockRejectedValueOnce(new Error("throttled"));
    await expect(instrumentHandler(spec, async () => "done")({ run_id: "run-4" })).resolves.toBe("done");
    expect(logger.warn).toHaveBeenCalledWith("could not count the invocation on its run", {
      run_id: "run-4",
      error: "throttled",
    });
  });

  it("flushes the metrics the invocation stored, once, at its end", async () => {
    const { spec } = setup();
    const metrics = new Metrics({ namespace: "ReWOO", serviceName: "rewoo-test" });
    const publish = vi.spyOn(metrics, "publishStoredMetrics");
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    vi.stubEnv("AWS_LAMBDA_FUNCTION_NAME", "rewoo-test");
    const handler = instrumentHandler({ ...spec, metrics }, async () => {
      metrics.addMetric("RunsByStatus", MetricUnit.Count, 1);
      expect(publish).not.toHaveBeenCalled();
    });
    await handler({ run_id: "run-5" });
    expect(publish).toHaveBeenCalledOnce();
    // An invocation that stored nothing writes nothing (Powertools would warn about an empty flush).
    await instrumentHandler({ ...spec, metrics }, async () => undefined)({ run_id: "run-6" });
    write.mockRestore();
    expect(publish).toHaveBeenCalledOnce();
    expect(lines.map((line) => JSON.parse(line).RunsByStatus)).toEqual([1]);
  });
});

describe("metrics outside Lambda", () => {
  it("are dropped without a line, unless POWERTOOLS_METRICS_DISABLED says otherwise", () => {
    expect(metricsPublished({})).toBe(false);
    expect(metricsPublished({ AWS_LAMBDA_FUNCTION_NAME: "f" })).toBe(true);
    expect(metricsPublished({ AWS_LAMBDA_FUNCTION_NAME: "f", POWERTOOLS_DEV: "true" })).toBe(false);
    expect(metricsPublished({ POWERTOOLS_METRICS_DISABLED: "false" })).toBe(true);

    const metrics = new Metrics({ namespace: "ReWOO", serviceName: "rewoo-test" });
    const write = vi.spyOn(process.stdout, "write");
    const log = vi.spyOn(console, "log");
    metrics.addMetric("RunsByStatus", MetricUnit.Count, 1);
    flushMetrics(metrics, {});
    expect(write).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    expect(metrics.hasStoredMetrics()).toBe(false);
    write.mockRestore();
    log.mockRestore();
  });
});
