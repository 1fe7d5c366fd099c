// The concurrency measure's own process (bench/bench.ts spawns one per N): a fresh twin with the
// concurrency scenario's documents and tool latencies, one unmeasured run, then N evaluations started
// at once. Prints one JSON line (ThroughputSample). A process of its own, so each N starts from the
// same state and the twin's options (Work environments) are those of this measure alone.
import { startTwin } from "../infra/local/twin.ts";
import { percentile } from "./measure.ts";
import {
  benchmarkDocuments,
  CONCURRENCY_SCENARIO,
  latencySpec,
  SCENARIOS,
  toolLatencies,
} from "./scenarios.ts";

export interface ThroughputSample {
  n: number;
  scenario: string;
  /** Work environments (worker threads); 0: Work runs on the twin's thread. */
  worker_environments: number;
  throughput_per_s: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
  errors: number;
  total_ms: number;
  /** CPU the process used (all its threads) while the N runs ran, per run. */
  cpu_ms_per_run: number;
}

const [nArg, environmentsArg] = process.argv.slice(2);
const n = Number(nArg);
const environments = Number(environmentsArg ?? 0);
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(environments) || environments < 0) {
  console.error("usage: throughput-probe.ts <concurrent runs ≥ 1> [work environments ≥ 0]");
  process.exit(2);
}
process.env.POWERTOOLS_LOG_LEVEL ??= "ERROR";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const scenario = SCENARIOS.find((candidate) => candidate.name === CONCURRENCY_SCENARIO);
if (!scenario) throw new Error(`no scenario ${CONCURRENCY_SCENARIO}`);
const twin = await startTwin({
  persist: false,
  env: {
    REWOO_LLM_PROVIDER: "rule-based",
    REWOO_MAX_STEPS: "16",
    REWOO_TOOL_LATENCY_MS: latencySpec(toolLatencies(scenario.name)),
  },
  workerEnvironments: environments,
});
try {
  const bucket = twin.services.config.documentsBucket;
  for (const document of await benchmarkDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
  }
  const once = async () => {
    const start = performance.now();
    try {
      const { run_id } = await twin.startRun(scenario.request);
      const record = await twin.waitForRun(run_id);
      return { ms: performance.now() - start, ok: record.status === "SUCCEEDED" };
    } catch {
      return { ms: performance.now() - start, ok: false };
    }
  };
  await once(); // module JIT, SDK connections, the environments' cold starts
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const outcomes = await Promise.all(Array.from({ length: n }, once));
  const total = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const latencies = outcomes.map((outcome) => outcome.ms);
  const sample: ThroughputSample = {
    n,
    scenario: scenario.name,
    worker_environments: environments,
    throughput_per_s: Math.round((n / (total / 1000)) * 100) / 100,
    p50_ms: Math.round(percentile(latencies, 50)),
    p95_ms: Math.round(percentile(latencies, 95)),
    max_ms: Math.round(Math.max(...latencies)),
    errors: outcomes.filter((outcome) => !outcome.ok).length,
    total_ms: Math.round(total),
    cpu_ms_per_run: Math.round((used.user + used.system) / 1000 / n),
  };
  console.log(JSON.stringify(sample));
} finally {
  await twin.stop();
}
