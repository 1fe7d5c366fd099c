// The benchmark: ReWOO (through the local twin) vs ReAct (bench/react.ts) on the same loan scenarios,
// tools, documents and LLM provider interface. See BENCHMARKS.md for what each number means.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, platform, release, totalmem } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startTwin, type Twin } from "../infra/local/twin.ts";
import type { RunRecord } from "../lambdas/core/types.ts";
import { createLlmProviders, type LlmProviders } from "../lambdas/llm/index.ts";
import { TOKENIZER_ENCODING } from "../lambdas/llm/tokenizer.ts";
import { parseConfig } from "../lambdas/runtime/config.ts";
import { measureBankingNlu } from "./banking-nlu.ts";
import { runBatchBench } from "./batch.ts";
import { measureBundles } from "./bundles.ts";
import { measureHeldOutDocuments, measureHeldOutWithOcr } from "./held-out-documents.ts";
import { formatJson } from "./json.ts";
import { measureLayouts } from "./layouts.ts";
import {
  type Bounds,
  installPayloadProbe,
  LLM_LATENCY_MODEL,
  median,
  type PayloadProbe,
  PRICES,
} from "./measure.ts";
import { measureOcr, type OcrBenchOptions } from "./ocr.ts";
import type { PlanCacheResults } from "./plan-cache.ts";
import { runReact } from "./react.ts";
import {
  defaultSizes,
  emptyReliability,
  measureInOwnProcesses,
  measureOnTwin,
  type ReliabilityMeasure,
  type ReliabilitySizes,
  WORK_RETRY_INTERVAL_MS,
} from "./reliability.ts";
import { writeReport } from "./report.ts";
import type { BenchResults, ConcurrencyResult, LiveResult, ScenarioResult, Totals } from "./results.ts";
import { measureStepRoundTrips } from "./round-trips.ts";
import {
  boundsOf,
  measureScenario,
  type RunTiming,
  round,
  runRewoo,
  timing,
  totalsOf,
  weighted,
} from "./scenario-run.ts";
import {
  benchmarkDocuments,
  CONCURRENCY_SCENARIO,
  ROUND_TRIP_SCENARIO,
  SCENARIOS,
  type Scenario,
  setLatencies,
  WIDE_SCENARIO,
} from "./scenarios.ts";
import type { ThroughputSample } from "./throughput-probe.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface BenchOptions {
  quick: boolean;
  /** Directory for results.json, the charts and the scripted responses. */
  out: string;
  /** Path of the Markdown report. */
  report: string;
  /** Scenario names (default: all). */
  scenarios?: string[];
  /** Simultaneous evaluations (default: quick 1,10; full 1,10,50,100). */
  concurrency?: number[];
  /** ReWOO runs per scenario for the wall-time median (default: quick 1, full 3). */
  repeats?: number;
  bundles: boolean;
  /** Score the engines on the labelled layouts of examples/layouts/. */
  layouts: boolean;
  /** Score the engines on the hand-labelled real documents of test/fixtures/held-out-documents/ (default: on). */
  heldOut?: boolean;
  /**
   * Score the held-out layouts printed and scanned, read by offline OCR (bench/ocr.ts), with its
   * options (the smoke test takes a subset); default off.
   */
  ocr?: boolean | OcrBenchOptions;
  /** Score the banking assistant's reading of the labelled chat messages of examples/banking/ (default: on). */
  bankingNlu?: boolean;
  /** A stream of loan requests with the plan cache off and on, in a twin of its own (default: on). */
  planCache?: boolean;
  /** Run the live section when REWOO_LLM_PROVIDER=bedrock|openai is configured. */
  live: boolean;
  /** Measures of the reliability section (bench/reliability.ts); empty: no section. */
  reliability: readonly ReliabilityMeasure[];
  /** Overrides of the reliability measures' sizes (default: by quick / full mode). */
  reliabilitySizes?: Partial<ReliabilitySizes>;
  /** Loan files of the portfolio batch measure (default: quick 50, full 1,000); 0: no batch. */
  batchFiles?: number;
  /** The command line, for the report. */
  command: string;
  log?: (line: string) => void;
}

const LIVE_PROVIDERS = new Set(["bedrock", "openai"]);

export async function runBench(options: BenchOptions): Promise<BenchResults> {
  const started = Date.now();
  const sink = options.log ?? ((line: string) => console.log(line));
  const log = (line: string) => sink(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`);
  const repeats = options.repeats ?? (options.quick ? 1 : 3);
  const concurrencyLevels = options.concurrency ?? (options.quick ? [1, 10] : [1, 10, 50, 100]);
  const scenarios = options.scenarios?.length
    ? options.scenarios.map((name) => {
        const found = SCENARIOS.find((s) => s.name === name);
        if (!found)
          throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.map((s) => s.name).join(", ")}`);
        return found;
      })
    : SCENARIOS;

  // The scripted section always runs on the deterministic provider; a configured live provider is
  // remembered for its own, labelled section.
  const liveProvider = process.env.REWOO_LLM_PROVIDER;
  process.env.POWERTOOLS_LOG_LEVEL ??= "ERROR";
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

  log(`booting the local twin (${options.quick ? "quick" : "full"} mode)…`);
  const twin = await startTwin({
    persist: false,
    env: { REWOO_LLM_PROVIDER: "rule-based", REWOO_MAX_STEPS: "16", REWOO_TOOL_LATENCY_MS: "" },
    // Only the injected-fault measure makes Work retry; it counts retries, it need not wait for them.
    retryIntervalOverrides: { Work: WORK_RETRY_INTERVAL_MS },
  });
  const reliability = {
    measures: options.reliability,
    sizes: { ...defaultSizes(options.quick), ...options.reliabilitySizes },
    log,
  };
  let probe: PayloadProbe | undefined;
  const results: BenchResults = {
    meta: {},
    scenarios: [],
    totals: totals([]),
    parallel: null,
    concurrency: [],
    bundles: [],
    layouts: null,
    live: null,
    reliability: options.reliability.length ? emptyReliability(options.reliability) : null,
    notes: [],
  };
  const scriptedDir = join(options.out, "scripted");
  await mkdir(scriptedDir, { recursive: true });
  try {
    probe = await installPayloadProbe();
    const bucket = twin.services.config.documentsBucket;
    for (const document of await benchmarkDocuments()) {
      await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
    }

    // One unmeasured run first (module JIT, SDK connections): the first scenario must not pay for
    // the process starting. Another loan program, so no history lookup of the scenarios sees it.
    const warmup = SCENARIOS.find((s) => s.name === CONCURRENCY_SCENARIO) as Scenario;
    await runRewoo(
      twin,
      { ...warmup.request, metadata: { ...warmup.request.metadata, loan_program: "Bench Warm-up" } },
      probe,
    );

    const memory = lambdaMemory();
    const byName = new Map<
      string,
      { scenario: Scenario; result: ScenarioResult; record: RunRecord; runs: RunTiming[] }
    >();

    // Pass 1: tokens, the first wall time, transitions, payloads — in a fixed order on a fresh store, so
    // history lookups see the same past runs in quick and full mode.
    for (const scenario of scenarios) {
      log(`scenario ${scenario.name}`);
      const { result, record, first } = await measureScenario(
        twin,
        scenario,
        probe,
        memory,
        scriptedDir,
        log,
      );
      results.scenarios.push(result);
      byName.set(scenario.name, { scenario, result, record, runs: [timing(first)] });
    }

    // Further repeats for the wall-time median (full mode).
    for (let repeat = 1; repeat < repeats; repeat++) {
      for (const scenario of scenarios) {
        const entry = byName.get(scenario.name);
        if (!entry) continue;
        setLatencies(twin, entry.result.latencies_ms);
        const again = await runRewoo(twin, scenario.request, probe);
        entry.result.rewoo.wall_ms_runs.push(again.analysis.execution_ms);
        entry.runs.push(timing(again));
        entry.result.max_payload_bytes = Math.max(entry.result.max_payload_bytes, again.payload?.bytes ?? 0);
        entry.result.transitions = Math.max(entry.result.transitions, again.analysis.transitions);
      }
      log(`repeat ${repeat + 1}/${repeats} done`);
    }
    for (const { result, runs } of byName.values()) useMedianRun(result, runs);

    // The worker's DynamoDB round trips, step by step, on the scenario with every kind of tool.
    const tripsOf = byName.get(ROUND_TRIP_SCENARIO) ?? [...byName.values()][0];
    if (tripsOf?.record.plan) {
      log(`worker round trips on ${tripsOf.scenario.name}`);
      results.round_trips = await roundTrips(twin, tripsOf.scenario, tripsOf.record);
    }

    // parallel: true vs false on the widest level.
    const wide =
      byName.get(WIDE_SCENARIO) ??
      [...byName.values()].sort((a, b) => b.result.widest_level - a.result.widest_level)[0];
    if (wide) {
      log(`parallel vs sequential on ${wide.scenario.name}`);
      results.parallel = await parallelAgainstSequential(twin, wide.scenario, wide.result, probe, repeats);
    }

    // Concurrency: N evaluations started at once, each N on a fresh twin in a process of its own,
    // with Work on the twin's thread and in environments of its own.
    for (const environments of CONCURRENCY_WORK_ENVIRONMENTS) {
      for (const n of concurrencyLevels) {
        log(`concurrency N=${n}, ${environments} Work environment(s)`);
        results.concurrency.push(await throughputProbe(n, environments));
      }
    }

    // A portfolio batch: N loan files through POST /v1/batches and the batch workflow.
    const batchFiles = options.batchFiles ?? (options.quick ? 50 : 1_000);
    if (batchFiles > 0) {
      log(`portfolio batch of ${batchFiles} loan files`);
      setLatencies(twin, {});
      results.batch = {
        ...(await runBatchBench(twin, { files: batchFiles, maxConcurrency: BATCH_MAX_CONCURRENCY })),
        max_concurrency: BATCH_MAX_CONCURRENCY,
      };
    }

    // A configured real provider: the same scenarios, provider-reported usage.
    if (options.live && liveProvider && LIVE_PROVIDERS.has(liveProvider)) {
      log(`live provider ${liveProvider}`);
      results.live = await liveSection(twin, scenarios, liveProvider, log);
    }

    if (results.reliability) await measureOnTwin(twin, results.reliability, reliability);
  } finally {
    probe?.uninstall();
    await twin.stop();
  }

  await measureWithoutTheTwin(options, results, reliability, twin.services.config.api.maxBodyBytes, log);

  results.totals = totals(results.scenarios);
  results.meta = meta(options, started, repeats, concurrencyLevels, memoryOrDefault());
  results.notes = notes(results);

  await mkdir(options.out, { recursive: true });
  await writeFile(join(options.out, "results.json"), formatJson(results));
  await writeReport(results, { out: options.out, report: options.report });
  log(
    `wrote ${join(options.out, "results.json")} and ${options.report} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return results;
}

/** Lines of the portfolio batch evaluated at once (the Distributed Map's MaxConcurrency). */
const BATCH_MAX_CONCURRENCY = 50;

/** Work on the twin's thread (0), and in two environments of its own (worker threads). */
const CONCURRENCY_WORK_ENVIRONMENTS = [0, 2];

/** A bench script in a process of its own; its answer is the last JSON line it prints. */
function childMeasure<T>(args: string[], label: string): Promise<T> {
  return new Promise<T>((resolveMeasure, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
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
      const line = stdout.split("\n").findLast((candidate) => candidate.startsWith("{"));
      if (code !== 0 || !line) {
        reject(new Error(`${label} exited with ${code}: ${stderr}`));
        return;
      }
      resolveMeasure(JSON.parse(line) as T);
    });
  });
}

/**
 * bench/plan-cache.ts in a process of its own: its twin must not meet the clients the shared twin's
 * services left behind in this process (they are made once, on first use, for that twin's endpoints).
 */
function planCacheProbe(borrowers: number): Promise<PlanCacheResults> {
  return childMeasure(["bench/plan-cache.ts", "--borrowers", String(borrowers)], "plan cache measure");
}

/** bench/throughput-probe.ts in a process of its own: a fresh twin, N evaluations at once. */
function throughputProbe(n: number, environments: number): Promise<ConcurrencyResult> {
  return childMeasure<ThroughputSample>(
    ["bench/throughput-probe.ts", String(n), String(environments)],
    `throughput probe (N=${n})`,
  );
}

/**
 * REWOO_LLM_PROVIDER=bedrock|openai: the twin's planner and solver bindings are swapped for the live
 * provider (the configuration the handlers would build at cold start with that environment), the
 * ReWOO runs go through the twin, and ReAct calls the same provider. Usage is what the provider reports.
 */
async function liveSection(
  twin: Twin,
  scenarios: Scenario[],
  providerName: string,
  log: (line: string) => void,
): Promise<LiveResult> {
  const config = parseConfig({ ...process.env, REWOO_LLM_PROVIDER: providerName });
  const live: LlmProviders = createLlmProviders(config.llm, { region: config.region });
  const llm = twin.services.llm;
  const saved = { planner: llm.planner, solver: llm.solver };
  const out: LiveResult = {
    provider: providerName,
    planner_model: live.planner.model,
    solver_model: live.solver.model,
    scenarios: [],
  };
  llm.planner = live.planner;
  llm.solver = live.solver;
  try {
    for (const scenario of scenarios) {
      log(`  live ${scenario.name}`);
      setLatencies(twin, {});
      const entry: LiveResult["scenarios"][number] = {
        name: scenario.name,
        rewoo: {
          input_tokens: 0,
          output_tokens: 0,
          total_tokens: 0,
          llm_calls: 0,
          status: "ERROR",
          tool_calls: 0,
        },
        react: {
          input_tokens: 0,
          output_tokens: 0,
          total_tokens: 0,
          llm_calls: 0,
          completed: false,
          tool_calls: 0,
          usage_source: "n/a",
        },
        token_ratio: Number.NaN,
      };
      try {
        const { run_id } = await twin.startRun(scenario.request);
        const record = await twin.waitForRun(run_id);
        entry.rewoo = {
          ...totalsOf(record.usage),
          status: record.status,
          tool_calls: record.plan?.steps.length ?? 0,
          ...(record.error ? { error: `${record.error.error}: ${record.error.cause}` } : {}),
        };
      } catch (error) {
        entry.rewoo.error = (error as Error).message;
      }
      try {
        const react = await runReact({
          request: scenario.request,
          tools: twin.services.tools,
          provider: live.planner.provider,
          model: live.planner.model,
          runId: `react-live-${scenario.name}`,
          maxTurns: 2 * (scenario.request.s3_pdf_paths.length + 3) + 2,
        });
        entry.react = {
          ...totalsOf(react),
          completed: react.final_answer !== undefined,
          tool_calls: react.steps.length,
          usage_source: [...new Set(react.calls.map((c) => c.source))].join("+") || "n/a",
          ...(react.error ? { error: react.error } : {}),
        };
      } catch (error) {
        entry.react.error = (error as Error).message;
      }
      entry.token_ratio = entry.rewoo.total_tokens
        ? round(entry.react.total_tokens / entry.rewoo.total_tokens, 2)
        : Number.NaN;
      out.scenarios.push(entry);
    }
  } finally {
    llm.planner = saved.planner;
    llm.solver = saved.solver;
  }
  return out;
}

function totals(scenarios: ScenarioResult[]): Totals {
  const sum = (f: (s: ScenarioResult) => number) => scenarios.reduce((t, s) => t + f(s), 0);
  const rewoo = sum((s) => s.rewoo.total_tokens);
  const react = sum((s) => s.react.total_tokens);
  return {
    scenarios: scenarios.length,
    tool_calls: sum((s) => s.tool_calls),
    rewoo_input_tokens: sum((s) => s.rewoo.input_tokens),
    rewoo_output_tokens: sum((s) => s.rewoo.output_tokens),
    rewoo_total_tokens: rewoo,
    rewoo_llm_calls: sum((s) => s.rewoo.llm_calls),
    react_input_tokens: sum((s) => s.react.input_tokens),
    react_output_tokens: sum((s) => s.react.output_tokens),
    react_total_tokens: react,
    react_llm_calls: sum((s) => s.react.llm_calls),
    token_ratio: round(react / rewoo, 2),
    token_savings_pct: round((1 - rewoo / react) * 100, 1),
    cost_weighted_ratio: round(sum((s) => weighted(s.react)) / sum((s) => weighted(s.rewoo)), 2),
    rewoo_wall_ms: sum((s) => s.rewoo.wall_ms),
    lower_bound_ms: sum((s) => s.lower_bound_ms),
    critical_path_ms: sum((s) => s.critical_path_ms),
    transitions: sum((s) => s.transitions),
    cost_usd: sum((s) => s.cost_usd),
    lambda_cost_usd: sum((s) => s.lambda_cost_usd),
    max_payload_bytes: Math.max(0, ...scenarios.map((s) => s.max_payload_bytes)),
  };
}

// ------------------------------------------------------------------------------------------------

const DEFAULT_MEMORY: Record<string, number> = { planner: 1024, worker: 2048, solver: 1024, finalize: 512 };

/** Memory sizes of the workflow functions as infra/constructs/workflow.ts declares them (fallback: the values at the time of writing). */
function lambdaMemory(): Record<string, number> {
  const memory = { ...DEFAULT_MEMORY };
  const stack = join(REPO_ROOT, "infra", "constructs", "workflow.ts");
  if (existsSync(stack)) {
    const text = readFileSync(stack, "utf8");
    for (const match of text.matchAll(/"lambdas\/(\w+)\/index\.ts",\s*\{[^}]*?memorySize:\s*(\d+)/g)) {
      if (match[1] && match[2]) memory[match[1]] = Number(match[2]);
    }
  }
  return memory;
}

function memoryOrDefault(): Record<string, number> {
  try {
    return lambdaMemory();
  } catch {
    return DEFAULT_MEMORY;
  }
}

function packageVersion(name: string): string {
  try {
    const file = join(REPO_ROOT, "node_modules", name, "package.json");
    return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  } catch {
    return "n/a";
  }
}

function meta(
  options: BenchOptions,
  started: number,
  repeats: number,
  concurrency: number[],
  memory: Record<string, number>,
): Record<string, unknown> {
  const cpu = cpus();
  return {
    date: new Date(started).toISOString(),
    command: options.command,
    mode: options.quick ? "quick" : "full",
    duration_s: round((Date.now() - started) / 1000, 1),
    machine: {
      cores: cpu.length,
      cpu_model: cpu[0]?.model ?? "unknown",
      memory_gb: round(totalmem() / 1024 ** 3, 1),
      os: `${platform()} ${release()}`,
      node: process.version,
    },
    packages: Object.fromEntries(
      [
        "aws-local-stepfunctions",
        "dynalite",
        "s3rver",
        "@aws-sdk/client-dynamodb",
        "gpt-tokenizer",
        "esbuild",
        "unpdf",
        "pdf-lib",
        "zod",
        "tsx",
        "typescript",
      ].map((name) => [name, packageVersion(name)]),
    ),
    tokenizer: `gpt-tokenizer ${packageVersion("gpt-tokenizer")}, encoding ${TOKENIZER_ENCODING}`,
    llm: "scripted competent model: ReWOO through the twin with REWOO_LLM_PROVIDER=rule-based (its completions are the scripted answers; usage = o200k_base counts of the real rendered prompts and completions); ReAct with ScriptedProvider replaying its turns",
    repeats,
    concurrency_levels: concurrency,
    worker_concurrency: Number(process.env.REWOO_WORKER_CONCURRENCY ?? 10),
    prices: {
      ...PRICES,
      note: "us-east-1 list prices: Step Functions Standard $0.025 per 1,000 state transitions; Lambda arm64 $0.20 per 1M requests and $0.0000133334 per GB-second; no free tier",
    },
    lambda_memory_mb: memory,
    llm_latency_model: LLM_LATENCY_MODEL,
    tool_latency: "injected per (scenario, tool): 50 + FNV-1a(scenario|tool) mod 451 ms, i.e. 50–500 ms",
    out: relative(REPO_ROOT, resolve(options.out)) || ".",
  };
}

function notes(results: BenchResults): string[] {
  const out: string[] = [];
  const unverified = results.scenarios.filter((s) => !s.rewoo.usage_verified).map((s) => s.name);
  if (unverified.length) {
    out.push(`ReWOO usage could not be re-derived from the rendered prompts for: ${unverified.join(", ")}`);
  }
  const differing = results.scenarios.filter((s) => !s.react.same_verdicts).map((s) => s.name);
  if (differing.length) out.push(`ReAct and ReWOO verdicts differ for: ${differing.join(", ")}`);
  const failed = results.scenarios.filter((s) => s.rewoo.status !== "SUCCEEDED").map((s) => s.name);
  if (failed.length) out.push(`ReWOO runs that did not succeed: ${failed.join(", ")}`);
  for (const bundle of results.bundles)
    if (bundle.error) out.push(`bundle ${bundle.function}: ${bundle.error}`);
  for (const { measure, error } of results.reliability?.errors ?? [])
    out.push(`reliability measure ${measure} could not be taken: ${error}`);
  return out;
}

/** The run with the median wall time, compared with the bounds from its own durations. */
function useMedianRun(result: ScenarioResult, runs: RunTiming[]): void {
  const chosen = [...runs].sort((a, b) => a.wall_ms - b.wall_ms)[Math.floor((runs.length - 1) / 2)];
  if (!chosen) return;
  result.rewoo.wall_ms = chosen.wall_ms;
  result.rewoo.planner_ms = chosen.planner_ms;
  result.rewoo.solver_ms = chosen.solver_ms;
  result.rewoo.finalize_ms = chosen.finalize_ms;
  result.overhead_breakdown = chosen.breakdown;
  Object.assign(result, boundsOf(chosen.bounds, chosen.wall_ms));
}

/** The worker's DynamoDB round trips of each step of the run, measured again one step at a time. */
async function roundTrips(
  twin: Twin,
  scenario: Scenario,
  record: RunRecord,
): Promise<BenchResults["round_trips"]> {
  const found: NonNullable<BenchResults["round_trips"]> = [];
  setLatencies(twin, {});
  for (const step of record.plan?.steps ?? []) {
    const measured = await measureStepRoundTrips(twin, record, step.id);
    found.push({
      scenario: scenario.name,
      step_id: step.id,
      tool: step.tool,
      before_tool: measured.before_tool,
      before_tool_commands: measured.requests
        .filter((request) => request.answered_before_tool)
        .map((request) => request.command.replace(/Command$/, "")),
      after_tool_sequential: measured.after_tool_sequential,
      requests: measured.requests.length,
    });
  }
  return found;
}

/** The widest scenario with `parallel: false` and with `parallel: true`, median wall times. */
async function parallelAgainstSequential(
  twin: Twin,
  scenario: Scenario,
  result: ScenarioResult,
  probe: PayloadProbe | undefined,
  repeats: number,
): Promise<NonNullable<BenchResults["parallel"]>> {
  setLatencies(twin, result.latencies_ms);
  const sequentialRuns: number[] = [];
  const parallelRuns: number[] = [];
  let sequentialBounds: Bounds | undefined;
  for (let i = 0; i < Math.max(1, Math.min(repeats, 2)); i++) {
    const sequential = await runRewoo(
      twin,
      { ...scenario.request, options: { ...scenario.request.options, parallel: false } },
      probe,
      1,
    );
    sequentialRuns.push(sequential.analysis.execution_ms);
    sequentialBounds ??= sequential.bounds;
    const parallel = await runRewoo(twin, scenario.request, probe);
    parallelRuns.push(parallel.analysis.execution_ms);
  }
  const parallelMs = median(parallelRuns);
  const sequentialMs = median(sequentialRuns);
  return {
    scenario: scenario.name,
    widest_level: result.widest_level,
    worker_concurrency: twin.services.config.workerConcurrency,
    parallel_wall_ms: parallelMs,
    sequential_wall_ms: sequentialMs,
    speedup: round(sequentialMs / parallelMs, 2),
    sequential_tools_ms: sequentialBounds?.sequential_tools_ms ?? 0,
    parallel_lower_bound_ms: result.lower_bound_ms,
    parallel_lower_bound_capped_ms: result.lower_bound_capped_ms,
  };
}

/** The measures that need no twin, or a twin of their own: run once the shared twin is gone, so it takes no CPU from them. */
async function measureWithoutTheTwin(
  options: BenchOptions,
  results: BenchResults,
  reliability: Omit<Parameters<typeof measureInOwnProcesses>[1], "maxBodyBytes">,
  maxBodyBytes: number,
  log: (line: string) => void,
): Promise<void> {
  if (results.reliability) {
    await measureInOwnProcesses(results.reliability, {
      ...reliability,
      maxBodyBytes,
    });
  }

  if (options.layouts) {
    log("judging the labelled layouts…");
    results.layouts = await measureLayouts();
  }

  if (options.heldOut !== false) {
    log("judging the held-out real documents…");
    // With the held-out layouts' OCR, the image-only held-out statements are read by OCR too.
    results.held_out = options.ocr ? await measureHeldOutWithOcr() : await measureHeldOutDocuments();
  }

  if (options.ocr) {
    log("scanning the held-out layouts and reading them by OCR…");
    results.ocr = await measureOcr({ ...(options.ocr === true ? {} : options.ocr), log });
  }

  if (options.bankingNlu !== false) {
    log("reading the labelled banking chat messages…");
    results.banking_nlu = measureBankingNlu();
  }

  if (options.planCache !== false) {
    log("a stream of loan requests with the plan cache off and on…");
    results.plan_cache = await planCacheProbe(options.quick ? 2 : 4);
  }

  if (options.bundles) {
    log("bundling the Lambda entries with esbuild…");
    results.bundles = await measureBundles(REPO_ROOT, { importSamples: options.quick ? 1 : 3 });
  }
}
