// Finalize stores the run's estimated cost with its terminal status and writes one EMF line with the
// run's ending (every terminal status, failures and cancellations included), on a fake store.
import type { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_PRICE_TABLE, type RunCost } from "../../../lambdas/core/cost.ts";
import type { Evidence, RunStatus } from "../../../lambdas/core/types.ts";
import type { ExecutionStatusChange } from "../../../lambdas/finalize/execution-status.ts";
import { closeEndedExecution } from "../../../lambdas/finalize/execution-status.ts";
import { finalizeRun } from "../../../lambdas/finalize/finalize-run.ts";
import type { Invocation } from "../../../lambdas/runtime/invocation.ts";
import { flushMetrics } from "../../../lambdas/runtime/metrics.ts";
import type { BaseServices } from "../../../lambdas/runtime/services.ts";
import type { MetaItem } from "../../../lambdas/store/runs.ts";

const RUN = "run-20260101000000-abcdef01";

const evidence = (step_id: string, status: "ok" | "error") => ({ step_id, status }) as Evidence;

/** A run as the workflow leaves it before Finalize: 12,000 tokens on the rule-based provider, counters. */
function meta(overrides: Partial<MetaItem> = {}): MetaItem {
  return {
    run_id: RUN,
    status: "SOLVING",
    request: { metadata: {}, s3_pdf_paths: [] } as unknown as MetaItem["request"],
    usage_llm_calls: 3,
    usage_input_tokens: 10_000,
    usage_output_tokens: 2_000,
    // Planner, reviewer, two workers, solver: 5 invocations, 3 GB-seconds, 14 transitions so far.
    lambda_requests: 5,
    lambda_mb_ms: 3 * 1024 * 1000,
    sfn_transitions: 14,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

interface FakeRun {
  meta: MetaItem;
  evidence: Evidence[];
  updates: Array<Record<string, unknown>>;
  published: Array<Record<string, unknown>>;
}

function fakeServices(run: FakeRun, provider = "rule-based", plannerModel?: string): BaseServices {
  const terminal: RunStatus[] = [
    "SUCCEEDED",
    "FAILED",
    "CANCELLED",
    "NEEDS_REVIEW",
    "REJECTED",
    "INTERRUPTED",
  ];
  return {
    config: { llm: { provider, plannerModel }, prices: DEFAULT_PRICE_TABLE },
    runs: {
      getMetaAndEvidence: async () => ({
        meta: run.meta,
        evidence: new Map(run.evidence.map((item) => [item.step_id, item])),
      }),
      getMeta: async () => run.meta,
      updateRun: async (_id: string, patch: Record<string, unknown>) => {
        if (terminal.includes(run.meta.status)) return false;
        run.updates.push(patch);
        run.meta = { ...run.meta, ...patch } as MetaItem;
        return true;
      },
      recordCost: async (_id: string, cost: RunCost) => {
        if (run.meta.cost) return false;
        run.updates.push({ cost });
        run.meta = { ...run.meta, cost };
        return true;
      },
    },
    publisher: { publish: async (_id: string, body: Record<string, unknown>) => run.published.push(body) },
  } as unknown as BaseServices;
}

const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() } as unknown as Logger;

/** This invocation has run 200 ms at 512 MB so far. */
const invocation: Invocation = {
  soFar: (transitions) => ({ requests: 1, mb_ms: 200 * 512, transitions }),
};

/** The EMF lines the metrics write, as Lambda would (POWERTOOLS_METRICS_DISABLED unset there). */
function emfLines(metrics: Metrics): Array<Record<string, unknown>> {
  const written: string[] = [];
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    flushMetrics(metrics, { AWS_LAMBDA_FUNCTION_NAME: "rewoo-finalize" });
  } finally {
    write.mockRestore();
  }
  return written
    .join("")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const newMetrics = () => new Metrics({ namespace: "ReWOO", serviceName: "rewoo-finalize" });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("finalizeRun", () => {
  it("stores the cost with SUCCEEDED and emits the ending's metrics once", async () => {
    const run: FakeRun = {
      meta: meta(),
      evidence: [evidence("E1", "ok"), evidence("E2", "error"), evidence("E3", "error")],
      updates: [],
      published: [],
    };
    const metrics = newMetrics();
    await expect(
      finalizeRun({ run_id: RUN, mode: "success" }, fakeServices(run), log, { invocation, metrics }),
    ).resolves.toEqual({ status: "SUCCEEDED" });

    const [update] = run.updates;
    expect(update?.status).toBe("SUCCEEDED");
    const cost = update?.cost as RunCost;
    // Rule-based: no model to pay. Step Functions: 14 + Finalize + Succeeded = 16 × $0.000025.
    // Lambda: 6 requests, (3,072,000 + 102,400) MB·ms = 3.1 GB-s × $0.0000166667 + 6 × $0.0000002.
    expect(cost).toMatchObject({
      currency: "USD",
      llm: 0,
      step_functions: 0.0004,
      lambda: 0.00005287,
      total: 0.00045287,
      estimated: true,
      breakdown: { lambda: { requests: 6, gb_seconds: 3.1 }, step_functions: { transitions: 16 } },
    });

    const [line, ...more] = emfLines(metrics);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      service: "rewoo-finalize",
      profile: "loan_evaluation",
      status: "SUCCEEDED",
      RunsByStatus: 1,
      ToolErrors: 2,
      LlmInputTokens: 10_000,
      LlmOutputTokens: 2_000,
      RunCostUsd: 0.00045287,
      run_id: RUN,
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: "ReWOO",
            Dimensions: [["service", "profile", "status"]],
            Metrics: [
              { Name: "RunsByStatus", Unit: "Count" },
              { Name: "ToolErrors", Unit: "Count" },
              { Name: "LlmInputTokens", Unit: "Count" },
              { Name: "LlmOutputTokens", Unit: "Count" },
              { Name: "RunCostUsd", Unit: "None" },
            ],
          },
        ],
      },
    });
  });

  it("prices the tokens of a Bedrock run at its model", async () => {
    const run: FakeRun = { meta: meta(), evidence: [], updates: [], published: [] };
    await finalizeRun({ run_id: RUN, mode: "success" }, fakeServices(run, "bedrock"), log, { invocation });
    // The default Bedrock model (Claude 3.5 Haiku): 10,000 × $0.80/M + 2,000 × $4/M.
    const cost = run.updates[0]?.cost as RunCost | undefined;
    expect(cost?.llm).toBe(0.016);
    expect(cost?.breakdown.llm.priced_as).toBe("anthropic.claude-3-5-haiku-20241022-v1:0");
  });

  it("prices the tokens at the models that answered, a fallback model included, not the ones configured", async () => {
    // Configured: Sonnet 4 for the planner. It was throttled and Nova Pro answered instead.
    const run: FakeRun = {
      meta: meta({ usage_models: new Set(["amazon.nova-pro-v1:0"]) }),
      evidence: [],
      updates: [],
      published: [],
    };
    await finalizeRun(
      { run_id: RUN, mode: "success" },
      fakeServices(run, "bedrock", "us.anthropic.claude-sonnet-4-20250514-v1:0"),
      log,
      { invocation },
    );
    // 10,000 × $0.80/M + 2,000 × $3.20/M at Nova Pro, where Sonnet's prices would say 0.06.
    const cost = run.updates[0]?.cost as RunCost | undefined;
    expect(cost?.llm).toBe(0.0144);
    expect(cost?.breakdown.llm.priced_as).toBe("amazon.nova-pro-v1:0");
  });

  it("stores the cost and counts the ending of a FAILED run too", async () => {
    const run: FakeRun = { meta: meta({ status: "RUNNING" }), evidence: [], updates: [], published: [] };
    const metrics = newMetrics();
    await finalizeRun(
      { run_id: RUN, mode: "failure", error: { Error: "States.Timeout", Cause: "too slow" } },
      fakeServices(run),
      log,
      { invocation, metrics },
    );
    expect(run.updates[0]).toMatchObject({ status: "FAILED", cost: { step_functions: 0.0004 } });
    expect(emfLines(metrics)[0]).toMatchObject({ status: "FAILED", RunsByStatus: 1, ToolErrors: 0 });
  });

  it("neither stores a cost nor counts an ending twice when the run had already ended", async () => {
    const run: FakeRun = { meta: meta({ status: "SUCCEEDED" }), evidence: [], updates: [], published: [] };
    const metrics = newMetrics();
    await finalizeRun({ run_id: RUN, mode: "success" }, fakeServices(run), log, { invocation, metrics });
    expect(run.updates).toEqual([]);
    expect(emfLines(metrics)).toEqual([]);
  });
});

describe("closeEndedExecution", () => {
  const aborted = (): ExecutionStatusChange => ({
    "detail-type": "Step Functions Execution Status Change",
    source: "aws.states",
    detail: { executionArn: `arn:aws:states:::execution:rewoo:${RUN}`, name: RUN, status: "ABORTED" },
  });

  it("ends a stopped run CANCELLED with its cost and counts it", async () => {
    const run: FakeRun = { meta: meta({ status: "RUNNING" }), evidence: [], updates: [], published: [] };
    const metrics = newMetrics();
    await closeEndedExecution(aborted(), fakeServices(run), log, { invocation, metrics });
    // No workflow state ran this invocation: 14 transitions, the invocation a request.
    expect(run.updates[0]).toMatchObject({
      status: "CANCELLED",
      cost: { breakdown: { step_functions: { transitions: 14 }, lambda: { requests: 6 } } },
    });
    expect(emfLines(metrics)[0]).toMatchObject({ status: "CANCELLED", RunsByStatus: 1 });
  });

  it("adds the cost to a run the API cancelled first, once", async () => {
    const run: FakeRun = { meta: meta({ status: "CANCELLED" }), evidence: [], updates: [], published: [] };
    const metrics = newMetrics();
    await closeEndedExecution(aborted(), fakeServices(run), log, { invocation, metrics });
    expect(run.updates).toHaveLength(1);
    expect(run.meta.cost?.step_functions).toBe(0.00035);
    expect(emfLines(metrics)[0]).toMatchObject({ status: "CANCELLED", RunsByStatus: 1 });

    await closeEndedExecution(aborted(), fakeServices(run), log, { invocation, metrics });
    expect(run.updates).toHaveLength(1);
    expect(emfLines(metrics)).toEqual([]);
  });
});
