// What the reliability measures (bench/reliability.ts) record, as results.json and the report read it.

export const RELIABILITY_MEASURES = [
  "live-delivery",
  "faults",
  "crash-recovery",
  "memory",
  "health",
] as const;

export type ReliabilityMeasure = (typeof RELIABILITY_MEASURES)[number];

/** How much of each measure to do; the defaults depend on quick / full mode. */
export interface ReliabilitySizes {
  /** Runs per variant (0 and `subscribers` WebSocket subscribers) for the wall-time medians. */
  deliveryRepeats: number;
  subscribers: number;
  /** Runs per fault kind. */
  faultRuns: number;
  crashRuns: number;
  /** Sequential runs of the memory series. */
  memoryRuns: number;
}

export function defaultSizes(quick: boolean): ReliabilitySizes {
  return {
    deliveryRepeats: quick ? 3 : 7,
    subscribers: 50,
    faultRuns: 20,
    crashRuns: 10,
    memoryRuns: quick ? 100 : 1_000,
  };
}

export interface DeliveryVariant {
  subscribers: number;
  /** startRun() → the run record is terminal, per run. */
  run_ms: number[];
  /** Execution start → end in the executor's event log, per run. */
  execution_ms: number[];
  /** startRun() → the last subscriber received `complete`, per run (none without subscribers). */
  last_complete_ms: number[];
  median_run_ms: number;
  median_execution_ms: number;
  median_last_complete_ms: number | null;
  /**
   * Requests dynalite served and CPU time this process used (the twin, its emulators and the
   * subscribers share it), start → live delivery settled; medians per run.
   */
  median_dynamodb_requests: number;
  median_cpu_ms: number;
  /** Subscriber × run pairs that received every stored event exactly once, in seq order, of all pairs. */
  exact_deliveries: number;
  deliveries: number;
}

export interface LiveDeliveryResult {
  request: string;
  tool_latency_ms: Record<string, number>;
  repeats: number;
  variants: DeliveryVariant[];
}

export interface ErrorFaultResult {
  spec: string;
  runs: number;
  succeeded: number;
  failed: number;
  /** Runs with at least one step stored as error evidence. */
  runs_with_failed_steps: number;
  failed_steps: number;
  /** Failed steps that missing_information names (by step id and tool). */
  failed_steps_named: number;
  /** Failed steps a replan worked around: a later step of the same tool finished ok. */
  failed_steps_replanned: number;
  /** Runs with failed steps that SUCCEEDED with every failed step named or worked around by a replan. */
  runs_naming_every_failed_step: number;
}

export interface ThrottleFaultResult {
  spec: string;
  runs: number;
  succeeded: number;
  failed: number;
  steps: number;
  /** StateRetried events of Work in the executor's event logs. */
  work_retries: number;
  max_retries_one_run: number;
  /** Work gives up after 5 attempts: expected steps that exhaust them = steps × p^5. */
  expected_exhausted_steps: number;
}

export interface FaultsResult {
  requests: string[];
  seed: number;
  work_retry_interval_ms: number;
  error: ErrorFaultResult;
  throttle: ThrottleFaultResult;
}

export interface CrashRecoveryResult {
  request: string;
  tool_latency_ms: number;
  runs_started: number;
  /** Runs not yet terminal when the process was killed. */
  in_flight_at_kill: number;
  evidence_at_kill: number;
  resumed_at_boot: number;
  runs_completed: number;
  /** Tool calls made again for a step whose evidence was stored before the kill. */
  repeated_tool_calls: number;
  /** Evidence stored before the kill that differs afterwards. */
  evidence_changed: number;
  /** Spawn of the second process → it serves (recovery starts the resumed executions during boot). */
  boot_s: number;
  /** Spawn of the second process → every run terminal. */
  recover_s: number;
}

export interface MemoryResult {
  request: string;
  runs: number;
  sample_every: number;
  gc: boolean;
  closed_executions_kept: number;
  all_succeeded: boolean;
  series: Array<{
    runs: number;
    rss_mib: number;
    /** Anonymous RSS (Linux): RSS without the mapped LevelDB table files and binaries. */
    rss_anon_mib: number | null;
    heap_mib: number;
    executions: number;
  }>;
  rss_before_mib: number;
  rss_after_mib: number;
  rss_anon_before_mib: number | null;
  rss_anon_after_mib: number | null;
  heap_before_mib: number;
  heap_after_mib: number;
  /** Least-squares slopes over the samples after the first interval (warm-up excluded), per 100 runs. */
  rss_slope_mib_per_100: number;
  rss_anon_slope_mib_per_100: number | null;
  heap_slope_mib_per_100: number;
}

export interface HealthResult {
  max_body_bytes: number;
  /** The largest body the API accepted (202), found by shrinking from the limit after each 413. */
  body_bytes: number;
  longest_string_chars: number;
  refused_413: number;
  run_status: string;
  run_ms: number;
  polls: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  over_1s: number;
}

export interface ReliabilityResults {
  measures: ReliabilityMeasure[];
  live_delivery: LiveDeliveryResult | null;
  faults: FaultsResult | null;
  crash_recovery: CrashRecoveryResult | null;
  memory: MemoryResult | null;
  health: HealthResult | null;
  /** Measures that could not be taken, with why. */
  errors: Array<{ measure: ReliabilityMeasure; error: string }>;
}

export function emptyReliability(measures: readonly ReliabilityMeasure[]): ReliabilityResults {
  return {
    measures: [...measures],
    live_delivery: null,
    faults: null,
    crash_recovery: null,
    memory: null,
    health: null,
    errors: [],
  };
}
