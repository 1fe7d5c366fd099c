// The memory measure's own process (bench/reliability.ts spawns it with --expose-gc): a twin on a
// persisted data folder, as `rewoo dev` runs it, evaluating the signed tax return sample N times one
// after another. Its only other work is sampling its own memory, so what grows is the twin's.
// Prints one JSON line per sample on stdout.
import { readFile } from "node:fs/promises";
import { generateSampleDocuments } from "../examples/samples.ts";
import { startTwin } from "../infra/local/twin.ts";

export interface MemorySample {
  /** Runs finished when the sample was taken. */
  runs: number;
  rss_bytes: number;
  heap_used_bytes: number;
  /** Memory of C++ objects bound to JavaScript ones (Buffers included), and of ArrayBuffers alone. */
  external_bytes: number;
  array_buffers_bytes: number;
  /**
   * RSS split (Linux only): anonymous memory (heaps, native allocations) and mapped files — LevelDB
   * (dynalite's persisted store) memory-maps its table files, so their pages count in RSS too.
   */
  rss_anon_bytes?: number;
  rss_file_bytes?: number;
  /** Execution records the Step Functions emulation holds (running and closed). */
  executions: number;
  /** Every run so far ended SUCCEEDED. */
  all_succeeded: boolean;
}

const [runsArg, everyArg, dataDir] = process.argv.slice(2);
const runs = Number(runsArg);
const every = Number(everyArg);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(every) || every < 1 || !dataDir) {
  console.error("usage: memory-probe.ts <runs ≥ 1> <sample every ≥ 1> <data folder>");
  process.exit(2);
}

process.env.POWERTOOLS_LOG_LEVEL ??= "ERROR";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const gc = (globalThis as { gc?: () => void }).gc;

const twin = await startTwin({
  dataDir,
  persist: true,
  env: { REWOO_LLM_PROVIDER: "rule-based", REWOO_TOOL_LATENCY_MS: "" },
});
const bucket = twin.services.config.documentsBucket;
for (const document of await generateSampleDocuments()) {
  await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
}
const request = JSON.parse(
  await readFile(new URL("../examples/sample-tax-return.json", import.meta.url), "utf8"),
);

let succeeded = true;
const runOnce = async () => {
  const { run_id } = await twin.startRun(request);
  const record = await twin.waitForRun(run_id);
  if (record.status !== "SUCCEEDED") succeeded = false;
};
const sample = async (done: number) => {
  // Live delivery and the status-change bus work after the run record is terminal; let them finish.
  await twin.settled();
  gc?.();
  const usage = process.memoryUsage();
  const line: MemorySample = {
    runs: done,
    rss_bytes: usage.rss,
    heap_used_bytes: usage.heapUsed,
    external_bytes: usage.external,
    array_buffers_bytes: usage.arrayBuffers,
    ...(await rssSplit()),
    executions: twin.stepFunctions.listExecutions().length,
    all_succeeded: succeeded,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
};

async function rssSplit(): Promise<Pick<MemorySample, "rss_anon_bytes" | "rss_file_bytes">> {
  const status = await readFile("/proc/self/status", "utf8").catch(() => "");
  const kib = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    return match?.[1] ? Number(match[1]) * 1024 : undefined;
  };
  const anon = kib("RssAnon");
  const file = kib("RssFile");
  return {
    ...(anon === undefined ? {} : { rss_anon_bytes: anon }),
    ...(file === undefined ? {} : { rss_file_bytes: file }),
  };
}

// One run before the first sample: module JIT and connection pools are not growth.
await runOnce();
await sample(0);
for (let done = 1; done <= runs; done++) {
  await runOnce();
  if (done % every === 0 || done === runs) await sample(done);
}
await twin.stop();
process.exit(0);
