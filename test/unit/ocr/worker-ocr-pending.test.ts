// A step whose OCR job is still running must fail its invocation under the name OcrPending, so the
// Work state's Retry for it runs the step again later; every other tool failure stays evidence. The
// tool sees how long it may still run (the Lambda context's remaining time, narrowed to its timeout).
import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import type { Evidence } from "../../../lambdas/core/types.ts";
import type { Services } from "../../../lambdas/runtime/services.ts";
import { remainingTimeBudgetMs } from "../../../lambdas/runtime/time-budget.ts";
import { TRANSIENT_ERROR_NAME } from "../../../lambdas/runtime/transient.ts";
import { OcrPendingError } from "../../../lambdas/tools/ocr/engine.ts";
import { isStepRetryable, OCR_PENDING_ERROR_NAME, runStep } from "../../../lambdas/worker/run-step.ts";

const TOOL_TIMEOUT_MS = 120_000;
type ToolRun = (args: unknown, context: unknown) => Promise<unknown>;

const stub = vi.hoisted(() => ({ current: undefined as unknown }));
// The handler's graph, replaced by the stub below: these tests are about what the handler throws.
vi.mock("../../../lambdas/runtime/services.ts", () => ({
  services: () => stub.current,
  linkToolRuntime: () => undefined,
}));
vi.mock("../../../lambdas/runtime/tool-runtime.ts", () => ({ workerToolRuntime: () => ({}) }));

function stubServices(run: ToolRun) {
  const published: Array<Record<string, unknown>> = [];
  const stored: Evidence[] = [];
  const services = {
    runs: {
      getMetaAndEvidence: async () => ({
        meta: {
          plan: {
            steps: [
              { id: "E2", tool: "call_conditions_ai_api", args: { documents: ["scan.pdf"] }, depends_on: [] },
            ],
          },
        },
        evidence: new Map(),
      }),
      addUsage: async () => undefined,
    },
    evidence: {
      resolveAll: async () => new Map(),
      put: async (_runId: string, evidence: Evidence) => {
        stored.push(evidence);
        return { stored: evidence, written: true };
      },
    },
    publisher: {
      begin: (_runId: string, event: Record<string, unknown>) => {
        published.push(event);
        return { reserved: Promise.resolve(), published: Promise.resolve(undefined) };
      },
      publishAfter: async <T>(
        _runId: string,
        _stage: string,
        write: Promise<T>,
        bodyOf: (written: PromiseSettledResult<T>) => Record<string, unknown>,
      ) => {
        const value = await write;
        published.push(bodyOf({ status: "fulfilled", value }));
        return { value, event: undefined };
      },
    },
    faults: { draw: () => undefined },
    tools: { get: () => ({ args: z.looseObject({}), timeout_ms: TOOL_TIMEOUT_MS, run }) },
    config: { toolLatencyMs: {}, toolTimeoutMs: {} },
  };
  stub.current = services;
  return { services: services as unknown as Services, published, stored };
}

const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
const item = { run_id: "run-1", step_id: "E2", level_index: 1 };
// A document name that looks transient must not turn the pending job into Rewoo.TransientError.
const pending = () => new OcrPendingError("s3://docs/Timeout-scan.pdf", "job-7");

describe("a step whose OCR job is still running", () => {
  beforeEach(() => {
    stub.current = undefined;
  });

  it("fails the invocation under its own name, stores no evidence, and keeps its started event", async () => {
    const { services, stored, published } = stubServices(async () => {
      throw pending();
    });
    const error = await runStep(item, services, log).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OcrPendingError);
    expect((error as Error).name).toBe(OCR_PENDING_ERROR_NAME);
    expect(stored).toEqual([]);
    expect(published).toEqual([expect.objectContaining({ step: "E2", status: "started" })]);
  });

  it("is recognised by name, also when thrown from another copy of the class; other failures stay evidence", async () => {
    expect(isStepRetryable(pending())).toBe(true);
    expect(isStepRetryable(Object.assign(new Error("still running"), { name: "OcrPending" }))).toBe(true);
    expect(isStepRetryable(new Error("OcrPending"))).toBe(false);

    const { services, stored } = stubServices(async () => {
      throw new Error("the document could not be read");
    });
    const output = await runStep(item, services, log);
    expect(output.status).toBe("error");
    expect(stored[0]?.error).toBe("the document could not be read");
  });

  it("leaves the worker handler as OcrPending, not as the transient error with its shorter retry", async () => {
    stubServices(async () => {
      throw pending();
    });
    const { handler } = await import("../../../lambdas/worker/index.ts");
    const error = await handler(item, { getRemainingTimeInMillis: () => 60_000 }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).name).toBe("OcrPending");
    expect((error as Error).name).not.toBe(TRANSIENT_ERROR_NAME);
  });

  it("is matched by a Retry of the Work state placed before any catch-all, waiting minutes in all", () => {
    const asl = JSON.parse(
      readFileSync(new URL("../../../statemachine/rewoo.asl.json", import.meta.url), "utf8"),
    ) as Record<string, unknown>;
    const work = findState(asl, "Work") as { Retry: Array<Record<string, unknown>> };
    const index = work.Retry.findIndex((retrier) =>
      (retrier.ErrorEquals as string[]).includes(OCR_PENDING_ERROR_NAME),
    );
    expect(index).toBeGreaterThanOrEqual(0);
    const catchAll = work.Retry.findIndex((retrier) =>
      (retrier.ErrorEquals as string[]).includes("States.ALL"),
    );
    if (catchAll >= 0) expect(index).toBeLessThan(catchAll);

    const retrier = work.Retry[index] as {
      IntervalSeconds: number;
      BackoffRate: number;
      MaxAttempts: number;
      MaxDelaySeconds: number;
    };
    const pauses = Array.from({ length: retrier.MaxAttempts }, (_, attempt) =>
      Math.min(retrier.IntervalSeconds * retrier.BackoffRate ** attempt, retrier.MaxDelaySeconds),
    );
    const totalSeconds = pauses.reduce((sum, seconds) => sum + seconds, 0);
    // Textract's jobs take minutes for long documents; the run does not wait past ~15 minutes.
    expect(totalSeconds).toBeGreaterThanOrEqual(5 * 60);
    expect(totalSeconds).toBeLessThanOrEqual(15 * 60);
  });
});

describe("the time a tool may still run", () => {
  it("is the tool's timeout in a process without a Lambda context", async () => {
    let seen = Number.NaN;
    const { services } = stubServices(async () => {
      seen = remainingTimeBudgetMs();
      return { ok: true };
    });
    await runStep(item, services, log);
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThanOrEqual(TOOL_TIMEOUT_MS);
  });

  it("is the Lambda context's remaining time when that is shorter than the tool's timeout", async () => {
    let seen = Number.NaN;
    stubServices(async () => {
      seen = remainingTimeBudgetMs();
      return { ok: true };
    });
    const { handler } = await import("../../../lambdas/worker/index.ts");
    await handler(item, { getRemainingTimeInMillis: () => 45_000 });
    expect(seen).toBe(45_000);
    expect(remainingTimeBudgetMs()).toBe(Number.POSITIVE_INFINITY);
  });
});

function findState(node: unknown, name: string): unknown {
  if (!node || typeof node !== "object") return undefined;
  const states = (node as { States?: Record<string, unknown> }).States;
  if (states?.[name]) return states[name];
  for (const child of Object.values(node as Record<string, unknown>)) {
    const found = findState(child, name);
    if (found) return found;
  }
  return undefined;
}
