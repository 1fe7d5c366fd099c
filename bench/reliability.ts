// Reliability and bounded cost: what live delivery, injected tool faults, a killed process, a long
// series of runs and the largest accepted request cost the twin. Each measure is one function; the
// first two use the benchmark's twin, the others start the twin in processes of their own (it is
// killed, or watched from outside while it is busy). See the report's section for what each means.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LambdaThread } from "../infra/local/lambda-thread.ts";
import { CLOSED_EXECUTIONS_KEPT } from "../infra/local/step-functions.ts";
import type { Twin } from "../infra/local/twin.ts";
import { isTerminal } from "../lambdas/contracts/run-status.ts";
import type { EvaluationRequest, Evidence, RunRecord } from "../lambdas/core/types.ts";
import { type DashboardCommand, type DashboardReport, epochNow } from "./dashboards.ts";
import { launchEnv, startDevProcess } from "./dev-process.ts";
import { analyzeHistory, median, percentile } from "./measure.ts";
import type { MemorySample } from "./memory-probe.ts";
import type {
  CrashRecoveryResult,
  ErrorFaultResult,
  FaultsResult,
  HealthResult,
  LiveDeliveryResult,
  MemoryResult,
  ReliabilityMeasure,
  ReliabilityResults,
  ReliabilitySizes,
} from "./reliability-results.ts";
import { setLatencies, toolLatencies } from "./scenarios.ts";

export {
  type CrashRecoveryResult,
  type DeliveryVariant,
  defaultSizes,
  type ErrorFaultResult,
  emptyReliability,
  type FaultsResult,
  type HealthResult,
  type LiveDeliveryResult,
  type MemoryResult,
  RELIABILITY_MEASURES,
  type ReliabilityMeasure,
  type ReliabilityResults,
  type ReliabilitySizes,
  type ThrottleFaultResult,
} from "./reliability-results.ts";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));

const TAX_RETURN = "examples/sample-tax-return.json";

const BANK_STATEMENTS = "examples/sample-bank-statements.json";

/** The twin is booted with this Retry interval for Work (the ASL says 2 s with backoff). */
export const WORK_RETRY_INTERVAL_MS = 0;

interface Context {
  measures: readonly ReliabilityMeasure[];
  sizes: ReliabilitySizes;
  log: (line: string) => void;
}

/** Measures 1 and 2, on the benchmark's twin (booted with Work's Retry interval at WORK_RETRY_INTERVAL_MS). */
export async function measureOnTwin(twin: Twin, out: ReliabilityResults, ctx: Context): Promise<void> {
  await attempt(out, ctx, "live-delivery", async () => {
    const result = await liveDelivery(twin, ctx.sizes);
    out.live_delivery = result;
    for (const v of result.variants) {
      ctx.log(
        `  ${v.subscribers} subscribers: run ${v.median_run_ms} ms, last complete ${v.median_last_complete_ms ?? "–"} ms, ${v.median_dynamodb_requests} DynamoDB requests`,
      );
    }
  });
  await attempt(out, ctx, "faults", async () => {
    const result = await withoutInjectedFaultLogs(() => injectedFaults(twin, ctx.sizes.faultRuns));
    out.faults = result;
    ctx.log(
      `  error: ${result.error.succeeded}/${result.error.runs} SUCCEEDED, ${result.error.failed_steps_named}/${result.error.failed_steps} failed steps named; throttle: ${result.throttle.succeeded}/${result.throttle.runs} SUCCEEDED, ${result.throttle.work_retries} Work retries`,
    );
  });
}

/** Measures 3–5, each on a twin in a process of its own. */
export async function measureInOwnProcesses(
  out: ReliabilityResults,
  ctx: Context & { maxBodyBytes: number },
): Promise<void> {
  await attempt(out, ctx, "crash-recovery", async () => {
    const result = await crashRecovery(ctx.sizes.crashRuns);
    out.crash_recovery = result;
    ctx.log(
      `  ${result.runs_completed}/${result.runs_started} completed, ${result.repeated_tool_calls} tool calls repeated, ${result.evidence_changed} evidence changed, ${result.recover_s} s`,
    );
  });
  await attempt(out, ctx, "memory", async () => {
    const result = await twinMemory(ctx.sizes.memoryRuns);
    out.memory = result;
    ctx.log(
      `  RSS ${result.rss_before_mib} → ${result.rss_after_mib} MiB, heap ${result.heap_before_mib} → ${result.heap_after_mib} MiB over ${result.runs} runs`,
    );
  });
  await attempt(out, ctx, "health", async () => {
    const result = await healthUnderLargestRequest(ctx.maxBodyBytes);
    out.health = result;
    ctx.log(`  ${result.body_bytes} B accepted; /health p99 ${result.p99_ms} ms, max ${result.max_ms} ms`);
  });
}

async function attempt(
  out: ReliabilityResults,
  ctx: Context,
  measure: ReliabilityMeasure,
  body: () => Promise<void>,
): Promise<void> {
  if (!ctx.measures.includes(measure)) return;
  ctx.log(`reliability: ${measure}`);
  try {
    await body();
  } catch (error) {
    // One measure that cannot be taken (a port, a slow machine) should not cost the whole report.
    out.errors.push({ measure, error: (error as Error).message ?? String(error) });
    ctx.log(`  ${measure} failed: ${(error as Error).message}`);
  }
}

/**
 * The worker logs every injected throttle as the error a real one would be; the measure expects
 * hundreds of them, and the benchmark's console should keep showing its progress, so lines about
 * injected faults are dropped while the measure runs (nothing else is).
 */
async function withoutInjectedFaultLogs<T>(body: () => Promise<T>): Promise<T> {
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => stream.write);
  streams.forEach((stream, index) => {
    const write = writes[index] as typeof stream.write;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      typeof chunk === "string" && chunk.includes("(REWOO_FAULTS)")
        ? true
        : write.call(stream, chunk as string, ...(rest as []))) as typeof stream.write;
  });
  try {
    return await body();
  } finally {
    streams.forEach((stream, index) => {
      stream.write = writes[index] as typeof stream.write;
    });
  }
}

function sample(path: string): EvaluationRequest {
  return JSON.parse(readFileSync(join(REPO_ROOT, path), "utf8")) as EvaluationRequest;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ------------------------------------------------------------------------------------------------
// 1. Live delivery off the critical path

/**
 * The signed tax return sample with and without `subscribers` dashboards watching it. Subscribers
 * connect before the clock starts and subscribe (replay from seq 0) as soon as the run exists,
 * as a dashboard following a new run does. Variants alternate so drift hits both alike.
 */
export async function liveDelivery(twin: Twin, sizes: ReliabilitySizes): Promise<LiveDeliveryResult> {
  const request = sample(TAX_RETURN);
  const latencies = toolLatencies("sample-tax-return");
  setLatencies(twin, latencies);
  const url = `${twin.urls.websocket}?token=${encodeURIComponent(twin.operatorToken)}`;
  const variants = [0, sizes.subscribers].map((subscribers) => ({
    subscribers,
    run_ms: [] as number[],
    execution_ms: [] as number[],
    last_complete_ms: [] as number[],
    dynamodb_requests: [] as number[],
    cpu_ms: [] as number[],
    exact: 0,
    pairs: 0,
  }));
  let dynamodbRequests = 0;
  const countRequest = () => {
    dynamodbRequests += 1;
  };
  twin.emulators.dynamodbServer.on("request", countRequest);
  // The dashboards run in a thread of their own: their sockets' work is not the twin's.
  const dashboards = new LambdaThread<DashboardCommand, DashboardReport | null>(
    new URL("./dashboards.ts", import.meta.url),
  );
  try {
    for (let repeat = 0; repeat < sizes.deliveryRepeats; repeat++) {
      const order = repeat % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        await dashboards.invoke({ op: "connect", url, count: variant.subscribers });
        try {
          const t0 = epochNow();
          const cpu0 = process.cpuUsage();
          const requests0 = dynamodbRequests;
          const { run_id, executionArn } = await twin.startRun(request);
          if (variant.subscribers) await dashboards.invoke({ op: "subscribe", run_id });
          const record = await twin.waitForRun(run_id);
          variant.run_ms.push(epochNow() - t0);
          if (record.status !== "SUCCEEDED") throw new Error(`run ${run_id} ended ${record.status}`);
          variant.execution_ms.push(analyzeHistory(twin.stepFunctions.history(executionArn)).execution_ms);
          const report = (await dashboards.invoke({
            op: "wait",
            run_id,
            timeout_ms: 30_000,
          })) as DashboardReport;
          if (variant.subscribers) {
            variant.last_complete_ms.push(
              Math.max(...report.completed_at.map((at) => (at ?? Number.NaN) - t0)),
            );
          }
          await twin.settled();
          const cpu = process.cpuUsage(cpu0);
          variant.cpu_ms.push((cpu.user + cpu.system) / 1000);
          variant.dynamodb_requests.push(dynamodbRequests - requests0);
          const stored = (await twin.services.runs.listEvents(run_id)).map((event) => event.seq);
          for (const got of report.seqs) {
            variant.pairs += 1;
            if (got.length === stored.length && got.every((seq, i) => seq === stored[i])) variant.exact += 1;
          }
        } finally {
          await dashboards.invoke({ op: "close" });
        }
      }
    }
  } finally {
    twin.emulators.dynamodbServer.off("request", countRequest);
    await dashboards.close();
  }
  return {
    request: TAX_RETURN,
    tool_latency_ms: latencies,
    repeats: sizes.deliveryRepeats,
    variants: variants.map((v) => ({
      subscribers: v.subscribers,
      run_ms: v.run_ms.map(Math.round),
      execution_ms: v.execution_ms.map(Math.round),
      last_complete_ms: v.last_complete_ms.map(Math.round),
      median_run_ms: Math.round(median(v.run_ms)),
      median_execution_ms: Math.round(median(v.execution_ms)),
      median_last_complete_ms: v.last_complete_ms.length ? Math.round(median(v.last_complete_ms)) : null,
      median_dynamodb_requests: Math.round(median(v.dynamodb_requests)),
      median_cpu_ms: Math.round(median(v.cpu_ms)),
      exact_deliveries: v.exact,
      deliveries: v.pairs,
    })),
  };
}

// ------------------------------------------------------------------------------------------------
// 2. Injected tool faults

const FAULT_SEED = 20_261_121;

const FAULT_PROBABILITY = 0.3;

/** Work's attempts for Rewoo.TransientError: the first call plus MaxAttempts 4 in the ASL. */
const WORK_ATTEMPTS = 5;

/**
 * `runs` runs alternating between the bank statements and the tax return samples, one after
 * another, with every tool call failing with probability 0.3 (`error`), then with the worker's
 * store throttled with probability 0.3 (`throttle`). Tool latency is off: faults, not waiting,
 * are measured.
 */
export async function injectedFaults(twin: Twin, runs: number): Promise<FaultsResult> {
  const requests = [BANK_STATEMENTS, TAX_RETURN];
  const bodies = requests.map(sample);
  const faults = twin.services.faults;
  setLatencies(twin, {});
  const runAll = async (spec: string) => {
    faults.configure(spec, FAULT_SEED);
    const out: Array<{ record: RunRecord; executionArn: string }> = [];
    try {
      for (let i = 0; i < runs; i++) {
        const { run_id, executionArn } = await twin.startRun(bodies[i % bodies.length]);
        out.push({ record: await twin.waitForRun(run_id), executionArn });
      }
    } finally {
      faults.configure(undefined);
    }
    return out;
  };

  const errorSpec = `*=${FAULT_PROBABILITY}:error`;
  const errorRuns = await runAll(errorSpec);
  const error: ErrorFaultResult = {
    spec: errorSpec,
    runs,
    succeeded: 0,
    failed: 0,
    runs_with_failed_steps: 0,
    failed_steps: 0,
    failed_steps_named: 0,
    failed_steps_replanned: 0,
    runs_naming_every_failed_step: 0,
  };
  for (const { record } of errorRuns) {
    if (record.status === "SUCCEEDED") error.succeeded += 1;
    if (record.status === "FAILED") error.failed += 1;
    const failed = record.evidence.filter((item) => item.status === "error");
    if (failed.length === 0) continue;
    error.runs_with_failed_steps += 1;
    error.failed_steps += failed.length;
    const named = failed.filter((item) => namesFailedStep(record.result?.missing_information ?? [], item));
    const replanned = failed.filter((item) => !named.includes(item) && replannedAround(record, item));
    error.failed_steps_named += named.length;
    error.failed_steps_replanned += replanned.length;
    if (record.status === "SUCCEEDED" && named.length + replanned.length === failed.length)
      error.runs_naming_every_failed_step += 1;
  }

  const throttleSpec = `*=${FAULT_PROBABILITY}:throttle`;
  const throttleRuns = await runAll(throttleSpec);
  const retriesPerRun = throttleRuns.map(
    ({ executionArn }) =>
      twin.stepFunctions
        .history(executionArn)
        .filter((event) => event.type === "StateRetried" && event.stateName === "Work").length,
  );
  const steps = throttleRuns.reduce((sum, { record }) => sum + (record.plan?.steps.length ?? 0), 0);
  return {
    requests,
    seed: FAULT_SEED,
    work_retry_interval_ms: WORK_RETRY_INTERVAL_MS,
    error,
    throttle: {
      spec: throttleSpec,
      runs,
      succeeded: throttleRuns.filter(({ record }) => record.status === "SUCCEEDED").length,
      failed: throttleRuns.filter(({ record }) => record.status === "FAILED").length,
      steps,
      work_retries: retriesPerRun.reduce((a, b) => a + b, 0),
      max_retries_one_run: Math.max(0, ...retriesPerRun),
      expected_exhausted_steps: round(steps * FAULT_PROBABILITY ** WORK_ATTEMPTS, 3),
    },
  };
}

/**
 * The solver names a failed step in missing_information as "<step id> <tool> … failed: <error>"
 * (the rule-based solver; the solver prompt asks a model for step id, tool and error too).
 */
/** After a replan, a later step of the same tool that finished ok stands in for the failed one. */
function replannedAround(record: RunRecord, item: Evidence): boolean {
  if (!record.replans) return false;
  return record.evidence.some(
    (other) =>
      other.tool === item.tool &&
      other.status === "ok" &&
      other.step_id !== item.step_id &&
      Date.parse(other.finished_at) >= Date.parse(item.finished_at),
  );
}

function namesFailedStep(missing: readonly string[], item: Evidence): boolean {
  const id = new RegExp(`\\b${item.step_id}\\b`);
  return missing.some((line) => id.test(line) && line.includes(item.tool));
}

// ------------------------------------------------------------------------------------------------
// 3. Crash recovery

const CRASH_TOOL_LATENCY_MS = 250;

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) {
    throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as T;
}

const okEvidence = (record: RunRecord) => record.evidence.filter((item) => item.status === "ok");

/**
 * `rewoo dev` on a fresh data folder with slow tools; `runs` evaluations of the tax return sample
 * through the REST API; SIGKILL (no shutdown code runs) once about a third of the work is stored;
 * a second `rewoo dev` on the same folder resumes what was in flight.
 */
export async function crashRecovery(runs: number): Promise<CrashRecoveryResult> {
  const dataDir = await mkdtemp(join(tmpdir(), "rewoo-bench-crash-"));
  const env = { REWOO_TOOL_LATENCY_MS: `*=${CRASH_TOOL_LATENCY_MS}` };
  try {
    const first = await startDevProcess(dataDir, env);
    const runIds: string[] = [];
    let before: RunRecord[] = [];
    try {
      const body = JSON.stringify(sample(TAX_RETURN));
      for (let i = 0; i < runs; i++) {
        const started = await getJson<{ run_id: string }>(`${first.api}/v1/evaluate-conditions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        runIds.push(started.run_id);
      }
      // Each run stores 3–4 evidence items: kill with about a third of the work done.
      for (let i = 0; i < 1_200; i++) {
        before = await Promise.all(runIds.map((id) => getJson<RunRecord>(`${first.api}/v1/runs/${id}`)));
        if (before.reduce((sum, record) => sum + okEvidence(record).length, 0) >= runs) break;
        await sleep(10);
      }
    } finally {
      await first.stop("SIGKILL");
    }
    const inFlight = before.filter((record) => !isTerminal(record.status)).length;

    const restarted = performance.now();
    const second = await startDevProcess(dataDir, env);
    try {
      let after: RunRecord[] = [];
      for (let i = 0; i < 6_000; i++) {
        after = await Promise.all(runIds.map((id) => getJson<RunRecord>(`${second.api}/v1/runs/${id}`)));
        if (after.every((record) => isTerminal(record.status))) break;
        await sleep(50);
      }
      const recoverMs = performance.now() - restarted;
      let repeated = 0;
      let changed = 0;
      for (const record of before) {
        const final = after.find((candidate) => candidate.run_id === record.run_id);
        const { events } = await getJson<{
          events: Array<{ stage: string; step?: string; status?: string }>;
        }>(`${second.api}/v1/runs/${record.run_id}/events`);
        for (const item of okEvidence(record)) {
          const now = final?.evidence.find((candidate) => candidate.step_id === item.step_id);
          if (JSON.stringify(now) !== JSON.stringify(item)) changed += 1;
          // The worker announces `started` only when it is about to call the tool.
          const starts = events.filter(
            (event) => event.stage === "worker" && event.step === item.step_id && event.status === "started",
          ).length;
          repeated += Math.max(0, starts - 1);
        }
      }
      const resumed = /in flight when the last twin stopped: (\d+) resumed/.exec(second.output())?.[1];
      return {
        request: TAX_RETURN,
        tool_latency_ms: CRASH_TOOL_LATENCY_MS,
        runs_started: runs,
        in_flight_at_kill: inFlight,
        evidence_at_kill: before.reduce((sum, record) => sum + okEvidence(record).length, 0),
        resumed_at_boot: Number(resumed ?? 0),
        runs_completed: after.filter((record) => record.status === "SUCCEEDED").length,
        repeated_tool_calls: repeated,
        evidence_changed: changed,
        boot_s: round(second.boot_ms / 1000, 2),
        recover_s: round(recoverMs / 1000, 2),
      };
    } finally {
      await second.stop("SIGTERM");
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------------
// 4. Twin memory

/**
 * bench/memory-probe.ts in its own node with --expose-gc: a twin on a persisted data folder (as
 * `rewoo dev` runs it) evaluating the tax return sample `runs` times one after another, sampling
 * its memory after a full GC.
 */
export async function twinMemory(runs: number): Promise<MemoryResult> {
  const every = Math.max(1, Math.min(100, Math.floor(runs / 4)));
  const dataDir = await mkdtemp(join(tmpdir(), "rewoo-bench-memory-"));
  try {
    const samples = await new Promise<MemorySample[]>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ["--expose-gc", "--import", "tsx", "bench/memory-probe.ts", String(runs), String(every), dataDir],
        { cwd: REPO_ROOT, env: launchEnv(), stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr = (stderr + chunk).slice(-4_000);
      });
      child.once("error", reject);
      child.once("exit", (code) => {
        if (code !== 0) {
          reject(new Error(`memory probe exited with ${code}: ${stderr}`));
          return;
        }
        resolve(
          stdout
            .split("\n")
            .filter((line) => line.startsWith("{"))
            .map((line) => JSON.parse(line) as MemorySample),
        );
      });
    });
    const first = samples[0];
    const last = samples.at(-1);
    if (!first || !last) throw new Error("the memory probe printed no samples");
    const steady = samples.filter((s) => s.runs >= every);
    const mib = (bytes: number) => round(bytes / 1024 ** 2, 1);
    const anon = (s: MemorySample) => (s.rss_anon_bytes === undefined ? null : mib(s.rss_anon_bytes));
    const perHundred = (value: (s: MemorySample) => number) =>
      round((slope(steady, value) * 100) / 1024 ** 2, 2);
    const hasAnon = samples.every((s) => s.rss_anon_bytes !== undefined);
    return {
      request: TAX_RETURN,
      runs,
      sample_every: every,
      gc: true,
      closed_executions_kept: CLOSED_EXECUTIONS_KEPT,
      all_succeeded: last.all_succeeded,
      series: samples.map((s) => ({
        runs: s.runs,
        rss_mib: mib(s.rss_bytes),
        rss_anon_mib: anon(s),
        heap_mib: mib(s.heap_used_bytes),
        executions: s.executions,
      })),
      rss_before_mib: mib(first.rss_bytes),
      rss_after_mib: mib(last.rss_bytes),
      rss_anon_before_mib: anon(first),
      rss_anon_after_mib: anon(last),
      heap_before_mib: mib(first.heap_used_bytes),
      heap_after_mib: mib(last.heap_used_bytes),
      rss_slope_mib_per_100: perHundred((s) => s.rss_bytes),
      rss_anon_slope_mib_per_100: hasAnon ? perHundred((s) => s.rss_anon_bytes ?? 0) : null,
      heap_slope_mib_per_100: perHundred((s) => s.heap_used_bytes),
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Least-squares slope of value over runs (0 with fewer than two samples). */
function slope(samples: readonly MemorySample[], value: (s: MemorySample) => number): number {
  if (samples.length < 2) return 0;
  const mx = samples.reduce((sum, s) => sum + s.runs, 0) / samples.length;
  const my = samples.reduce((sum, s) => sum + value(s), 0) / samples.length;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.runs - mx) * (value(s) - my);
    den += (s.runs - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

// ------------------------------------------------------------------------------------------------
// 5. /health while the largest accepted request is processed

const HEALTH_POLL_MS = 50;

/** Shrink step after a 413: the accepted body is within this share of the largest acceptable one. */
const SHRINK_STEP = 0.02;

/**
 * The tax return sample with one unbroken string in its metadata, as large as the API accepts:
 * first just under REWOO_MAX_BODY_BYTES, then smaller after each 413 (the run record's storage
 * budget is tighter than the body limit). GET /health is polled every 50 ms from the first POST
 * until the accepted run has ended, from this process, so a stall of the twin's event loop shows.
 */
export async function healthUnderLargestRequest(maxBodyBytes: number): Promise<HealthResult> {
  const dataDir = await mkdtemp(join(tmpdir(), "rewoo-bench-health-"));
  try {
    const dev = await startDevProcess(dataDir, {
      REWOO_MAX_BODY_BYTES: String(maxBodyBytes),
      REWOO_TOOL_LATENCY_MS: "",
    });
    try {
      const latencies: number[] = [];
      const pending = new Set<Promise<void>>();
      const poll = () => {
        const t0 = performance.now();
        const request = fetch(`${dev.api}/health`)
          .then((response) => response.arrayBuffer())
          .then(
            () => {
              latencies.push(performance.now() - t0);
            },
            () => {
              latencies.push(Number.POSITIVE_INFINITY);
            },
          )
          .finally(() => pending.delete(request));
        pending.add(request);
      };
      const base = sample(TAX_RETURN);
      const bodyOf = (chars: number) =>
        JSON.stringify({ ...base, metadata: { ...base.metadata, underwriter_memo: "A".repeat(chars) } });
      const overhead = Buffer.byteLength(bodyOf(0));
      let chars = maxBodyBytes - overhead - 1;
      let refused = 0;
      let runId: string | undefined;
      const started = performance.now();
      poll();
      const timer = setInterval(poll, HEALTH_POLL_MS);
      try {
        while (chars > 0 && !runId) {
          const response = await fetch(`${dev.api}/v1/evaluate-conditions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: bodyOf(chars),
          });
          const text = await response.text();
          if (response.status === 202) runId = (JSON.parse(text) as { run_id: string }).run_id;
          else if (response.status === 413) {
            refused += 1;
            chars -= Math.ceil(maxBodyBytes * SHRINK_STEP);
          } else
            throw new Error(
              `POST /v1/evaluate-conditions answered ${response.status}: ${text.slice(0, 300)}`,
            );
        }
        if (!runId) throw new Error("no body size was accepted");
        let record: RunRecord | undefined;
        for (let i = 0; i < 2_400 && !(record && isTerminal(record.status)); i++) {
          await sleep(250);
          record = await getJson<RunRecord>(`${dev.api}/v1/runs/${runId}`);
        }
        const runMs = performance.now() - started;
        clearInterval(timer);
        await Promise.all(pending);
        return {
          max_body_bytes: maxBodyBytes,
          body_bytes: Buffer.byteLength(bodyOf(chars)),
          longest_string_chars: chars,
          refused_413: refused,
          run_status: record?.status ?? "unknown",
          run_ms: Math.round(runMs),
          polls: latencies.length,
          p50_ms: round(percentile(latencies, 50), 1),
          p99_ms: round(percentile(latencies, 99), 1),
          max_ms: round(Math.max(...latencies), 1),
          over_1s: latencies.filter((ms) => ms > 1_000).length,
        };
      } finally {
        clearInterval(timer);
      }
    } finally {
      await dev.stop("SIGTERM");
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
