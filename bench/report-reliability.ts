// The report's reliability section (bench/reliability.ts's results).

import type {
  CrashRecoveryResult,
  FaultsResult,
  HealthResult,
  LiveDeliveryResult,
  MemoryResult,
  ReliabilityMeasure,
  ReliabilityResults,
} from "./reliability-results.ts";
import { fixed, int, table } from "./report-format.ts";

export function reliabilitySection(rel: ReliabilityResults, cpus: number): string[] {
  const out: string[] = [
    "## Reliability and bounded cost",
    "",
    "What live delivery, failing tools, a killed process, a long series of runs and the largest accepted request cost. Live delivery and injected faults run on the benchmark's twin, which is booted with Work's Retry interval at 0 ms instead of the ASL's 2 s backoff (`retryIntervalOverrides`), so retries are counted, not waited for; the other measures start `rewoo dev` (or the twin) in a process of their own.",
    "",
  ];
  return [
    ...out,
    ...(rel.live_delivery
      ? liveDeliveryLines(rel.live_delivery, cpus)
      : notMeasured(rel, "live-delivery", "Live delivery off the critical path")),
    ...(rel.faults ? faultLines(rel.faults) : notMeasured(rel, "faults", "Injected tool faults")),
    ...(rel.crash_recovery
      ? crashRecoveryLines(rel.crash_recovery)
      : notMeasured(rel, "crash-recovery", "Crash recovery")),
    ...(rel.memory ? memoryLines(rel.memory) : notMeasured(rel, "memory", "Twin memory")),
    ...(rel.health
      ? healthLines(rel.health)
      : notMeasured(rel, "health", "`/health` while the largest accepted request is processed")),
  ];
}

/** A subsection's heading and why it has no numbers: the measure failed, or was not asked for. */
function notMeasured(rel: ReliabilityResults, measure: ReliabilityMeasure, title: string): string[] {
  const error = rel.errors.find((e) => e.measure === measure);
  if (error) return [`### ${title}`, "", `Not measured: ${error.error}`, ""];
  if (!rel.measures.includes(measure)) return [`### ${title}`, "", "Skipped (`--reliability`).", ""];
  return [];
}

const ms = (n: number | null) => (n === null ? "–" : `${int(n)} ms`);

/** The subsection on live delivery with and without subscribers. */
function liveDeliveryLines(d: LiveDeliveryResult, cpus: number): string[] {
  const lines: string[] = [];
  const latency = Object.entries(d.tool_latency_ms)
    .map(([tool, value]) => `${tool} ${value} ms`)
    .join(", ");
  lines.push(
    "### Live delivery off the critical path",
    "",
    `How measured: \`${d.request}\` through the twin (tool latencies ${latency}), ${d.repeats} runs without and ${d.repeats} with ${d.variants.at(-1)?.subscribers ?? 0} subscribers, alternating. Subscribers are real WebSocket clients on the twin's gateway (operator token), in a thread of their own (a dashboard's work is its browser's, not the twin's), connected before the clock starts; each sends \`{"action":"subscribe","run_id":…,"after_seq":0}\` as soon as the run exists. *Run* = start → run record terminal; *execution* = the executor's log; *last complete* = start → the last subscriber received \`complete\`; *exact* = subscriber × run pairs that received every stored event once, in seq order; *DynamoDB requests* and *CPU* = what dynalite served and what the process (all its threads: twin, emulators, push function and subscribers alike) used from start until live delivery had settled. Medians.`,
    "",
    table(
      [
        "subscribers",
        "run",
        "execution",
        "last `complete` received",
        "exact deliveries",
        "DynamoDB requests",
        "CPU",
      ],
      d.variants.map((v) => [
        v.subscribers,
        ms(v.median_run_ms),
        ms(v.median_execution_ms),
        ms(v.median_last_complete_ms),
        v.deliveries ? `${v.exact_deliveries} / ${v.deliveries}` : "–",
        int(v.median_dynamodb_requests),
        ms(v.median_cpu_ms),
      ]),
    ),
    "",
  );
  const [alone, watched] = d.variants;
  if (alone && watched && watched.median_run_ms > 1.2 * alone.median_run_ms) {
    lines.push(
      `Publishers do not wait for delivery, yet the watched run took ${fixed(watched.median_run_ms / alone.median_run_ms, 1)}× as long. The push function runs in its own thread, as it runs in its own invocations on AWS, but this machine's ${cpus} cores are shared: ${watched.subscribers} subscribers add ${int(watched.median_cpu_ms - alone.median_cpu_ms)} ms of CPU per run (their subscribes and replays, ${int(watched.median_dynamodb_requests - alone.median_dynamodb_requests)} more DynamoDB requests — about ${int((watched.median_dynamodb_requests - alone.median_dynamodb_requests) / Math.max(1, watched.subscribers))} per subscriber — and one WebSocket message per event and subscriber), and the emulators that answer them (dynalite, the gateway) share the run's thread. On AWS none of that is the run's compute; what remains there is the DynamoDB traffic, two writes per subscriber per batch of events.`,
      "",
    );
  }
  return lines;
}

/** The subsection on injected tool faults. */
function faultLines(f: FaultsResult): string[] {
  const lines: string[] = [];
  lines.push(
    "### Injected tool faults",
    "",
    `How measured: ${f.error.runs} runs per fault kind, one after another, alternating ${f.requests.map((x) => `\`${x}\``).join(" and ")}, with \`REWOO_FAULTS\` semantics (\`services.faults.configure(spec, ${f.seed})\`) and no tool latency. *error*: a failed step counts as named when a \`missing_information\` entry names its step id and its tool, and as replanned when the run replanned (\`REWOO_MAX_REPLANS\`, default 1) and a later step of the same tool finished ok. *throttle*: Work retries are the executor's \`StateRetried\` events of Work (retry interval ${f.work_retry_interval_ms} ms); Work gives up after 5 attempts, so about steps × 0.3⁵ steps are expected to exhaust them.`,
    "",
    table(
      ["faults", "runs", "SUCCEEDED", "FAILED", "what the runs did"],
      [
        [
          `\`${f.error.spec}\``,
          f.error.runs,
          f.error.succeeded,
          f.error.failed,
          `${f.error.runs_naming_every_failed_step} of ${f.error.runs_with_failed_steps} runs with failed steps succeeded naming or replanning around every failed step (of ${f.error.failed_steps} failed steps, ${f.error.failed_steps_replanned} replanned around, ${f.error.failed_steps_named} named)`,
        ],
        [
          `\`${f.throttle.spec}\``,
          f.throttle.runs,
          f.throttle.succeeded,
          f.throttle.failed,
          `${int(f.throttle.work_retries)} Work retries over ${int(f.throttle.steps)} steps (at most ${f.throttle.max_retries_one_run} in one run); expected steps out of attempts: ${fixed(f.throttle.expected_exhausted_steps, 2)}`,
        ],
      ],
      ["l", "", "", "", "l"],
    ),
    "",
  );
  return lines;
}

/** The subsection on crash recovery. */
function crashRecoveryLines(c: CrashRecoveryResult): string[] {
  const lines: string[] = [];
  lines.push(
    "### Crash recovery",
    "",
    `How measured: \`rewoo dev\` on a fresh data folder with every tool slowed to ${c.tool_latency_ms} ms; ${c.runs_started} evaluations of \`${c.request}\` posted to \`/v1/evaluate-conditions\`; SIGKILL once ${c.runs_started} evidence items are stored; a second \`rewoo dev\` on the same folder. *Repeated tool calls*: extra worker \`started\` events for steps whose evidence was stored before the kill. *Evidence changed*: stored items that differ afterwards. Times from spawning the second process.`,
    "",
    table(
      [
        "runs started",
        "in flight at kill",
        "evidence at kill",
        "resumed at boot",
        "completed",
        "tool calls repeated",
        "evidence changed",
        "serving after",
        "all runs ended after",
      ],
      [
        [
          c.runs_started,
          c.in_flight_at_kill,
          c.evidence_at_kill,
          c.resumed_at_boot,
          `${c.runs_completed} / ${c.runs_started}`,
          c.repeated_tool_calls,
          c.evidence_changed,
          `${fixed(c.boot_s, 1)} s`,
          `${fixed(c.recover_s, 1)} s`,
        ],
      ],
    ),
    "",
  );
  return lines;
}

/** The subsection on the twin's memory over a series of runs. */
function memoryLines(m: MemoryResult): string[] {
  const lines: string[] = [];
  const mib = (n: number | null) => (n === null ? "n/a" : `${fixed(n, 1)} MiB`);
  const perHundred = (n: number | null) => (n === null ? "n/a" : `${fixed(n, 2)} MiB`);
  lines.push(
    "### Twin memory",
    "",
    `How measured: a twin on a persisted data folder (as \`rewoo dev\` runs it) in its own \`node --expose-gc\` process (\`bench/memory-probe.ts\`) evaluates \`${m.request}\` ${int(m.runs)} times one after another, after one unmeasured run; memory is sampled after a full GC every ${m.sample_every} runs. Slopes are least-squares fits from run ${m.sample_every} on. RSS includes LevelDB's memory-mapped table files (dynalite persists to LevelDB), which grow with the stored data; *anonymous* RSS leaves them out. The Step Functions emulation keeps the last ${int(m.closed_executions_kept)} closed executions.${m.all_succeeded ? "" : " **Not every run succeeded.**"}`,
    "",
    table(
      ["", "before", "after", "slope per 100 runs"],
      [
        ["RSS", mib(m.rss_before_mib), mib(m.rss_after_mib), perHundred(m.rss_slope_mib_per_100)],
        [
          "anonymous RSS",
          mib(m.rss_anon_before_mib),
          mib(m.rss_anon_after_mib),
          perHundred(m.rss_anon_slope_mib_per_100),
        ],
        ["JS heap used", mib(m.heap_before_mib), mib(m.heap_after_mib), perHundred(m.heap_slope_mib_per_100)],
        ["executions held", int(m.series[0]?.executions ?? 0), int(m.series.at(-1)?.executions ?? 0), ""],
      ],
      ["l"],
    ),
    "",
    `Series (runs: RSS / anonymous RSS / heap, MiB): ${m.series
      .map(
        (x) =>
          `${x.runs}: ${fixed(x.rss_mib, 0)} / ${x.rss_anon_mib === null ? "n/a" : fixed(x.rss_anon_mib, 0)} / ${fixed(x.heap_mib, 0)}`,
      )
      .join("; ")}.`,
    "",
  );
  return lines;
}

/** The subsection on `/health` under the largest accepted request. */
function healthLines(h: HealthResult): string[] {
  const lines: string[] = [];
  lines.push(
    "### `/health` while the largest accepted request is processed",
    "",
    `How measured: \`rewoo dev\` in its own process with \`REWOO_MAX_BODY_BYTES=${h.max_body_bytes}\`; the tax return sample with one unbroken string in its metadata, first just under the body limit, then ${h.refused_413 ? `${h.refused_413} times 2 % of the limit smaller after each 413 (the run record's storage budget is tighter than the body limit)` : "accepted at once"}. GET \`/health\` is polled every 50 ms from this process, from the first POST until the accepted run has ended.`,
    "",
    table(
      ["accepted body", "string", "run", "polls", "p50", "p99", "max", "> 1 s"],
      [
        [
          `${int(h.body_bytes)} B`,
          `${int(h.longest_string_chars)} chars`,
          `${h.run_status} after ${int(h.run_ms)} ms`,
          int(h.polls),
          `${fixed(h.p50_ms, 1)} ms`,
          `${fixed(h.p99_ms, 1)} ms`,
          `${fixed(h.max_ms, 1)} ms`,
          h.over_1s,
        ],
      ],
    ),
    "",
  );
  return lines;
}
