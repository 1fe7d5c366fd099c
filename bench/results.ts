// What the benchmark's measures produce, as written to bench/results.json and read by the report
// (report.ts). Types only: the measures (bench.ts, ocr.ts, banking-nlu.ts, ...) and the report both
// import them here, so the measures can call the report's section writers without a cycle.

import type { DEFAULT_SCAN } from "../examples/scanned.ts";
import type { BankingIntent, Slots } from "../lambdas/agents/banking/nlu.ts";
import type { BatchBenchResult } from "./batch.ts";
import type { BundleResult } from "./bundles.ts";
import type { HeldOutScore } from "./held-out-documents.ts";
import type { LayoutResults } from "./layouts.ts";
import type { OverheadBreakdown } from "./measure.ts";
import type { PlanCacheResults } from "./plan-cache.ts";
import type { ReliabilityResults } from "./reliability.ts";

// ---- the loan scenarios, ReWOO against ReAct (bench.ts) ----------------------------------------

export interface ArchitectureNumbers {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  llm_calls: number;
}

export interface ScenarioResult {
  name: string;
  description: string;
  documents: number;
  tool_calls: number;
  levels: number;
  widest_level: number;
  latencies_ms: Record<string, number>;
  rewoo: ArchitectureNumbers & {
    status: string;
    planner_input_tokens: number;
    planner_output_tokens: number;
    solver_input_tokens: number;
    solver_output_tokens: number;
    /** Execution start → end, from the executor's event log (median over the repeats). */
    wall_ms: number;
    wall_ms_runs: number[];
    /** startRun() → run finished, as a caller sees it (first run). */
    client_ms: number;
    planner_ms: number;
    solver_ms: number;
    finalize_ms: number;
    /** Re-rendering the prompts from the run record gives exactly the usage the run recorded. */
    usage_verified: boolean;
    modelled_with_llm_ms: number;
  };
  react: ArchitectureNumbers & {
    completed: boolean;
    /** Tools run one after another: the sum of their durations (the scripted model answers at once). */
    wall_ms: number;
    tool_ms: number;
    largest_prompt_tokens: number;
    modelled_with_llm_ms: number;
    /** Same verdicts (condition id → status) as the ReWOO run. */
    same_verdicts: boolean;
  };
  /** ReAct total tokens ÷ ReWOO total tokens (> 1: ReWOO uses fewer). */
  token_ratio: number;
  /** The same ratio with output tokens weighted 5× input tokens (the usual list-price ratio of hosted models). */
  cost_weighted_ratio: number;
  /** Where wall − lower bound went (first run). */
  overhead_breakdown: OverheadBreakdown;
  lower_bound_ms: number;
  lower_bound_capped_ms: number;
  critical_path_ms: number;
  sequential_tools_ms: number;
  overhead_ms: number;
  transitions: number;
  lambda_invocations: number;
  /** Step Functions Standard: transitions × $0.025 / 1,000. */
  cost_usd: number;
  lambda_cost_usd: number;
  max_payload_bytes: number;
  max_payload_state: string;
}

export interface ConcurrencyResult {
  n: number;
  scenario: string;
  /** Work environments (worker threads) of the measuring twin; 0: Work on the twin's thread. */
  worker_environments?: number;
  /** CPU of the whole process (every thread) per run. */
  cpu_ms_per_run?: number;
  throughput_per_s: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
  errors: number;
  total_ms: number;
}

export interface LiveResult {
  provider: string;
  planner_model: string;
  solver_model: string;
  scenarios: Array<{
    name: string;
    rewoo: ArchitectureNumbers & { status: string; tool_calls: number; error?: string };
    react: ArchitectureNumbers & {
      completed: boolean;
      tool_calls: number;
      usage_source: string;
      error?: string;
    };
    token_ratio: number;
  }>;
}

export interface ParallelResult {
  scenario: string;
  widest_level: number;
  worker_concurrency: number;
  parallel_wall_ms: number;
  sequential_wall_ms: number;
  speedup: number;
  sequential_tools_ms: number;
  parallel_lower_bound_ms: number;
  parallel_lower_bound_capped_ms: number;
}

/** Sums over the scenarios (bench.ts, totals()). */
export interface Totals {
  scenarios: number;
  tool_calls: number;
  rewoo_input_tokens: number;
  rewoo_output_tokens: number;
  rewoo_total_tokens: number;
  rewoo_llm_calls: number;
  react_input_tokens: number;
  react_output_tokens: number;
  react_total_tokens: number;
  react_llm_calls: number;
  /** ReAct total tokens ÷ ReWOO total tokens. */
  token_ratio: number;
  token_savings_pct: number;
  cost_weighted_ratio: number;
  rewoo_wall_ms: number;
  lower_bound_ms: number;
  critical_path_ms: number;
  transitions: number;
  cost_usd: number;
  lambda_cost_usd: number;
  max_payload_bytes: number;
}

export interface RoundTripResult {
  scenario: string;
  step_id: string;
  tool: string;
  /** DynamoDB requests answered before the tool started. */
  before_tool: number;
  before_tool_commands: string[];
  /** Round trips in sequence after the tool returned (absent in results measured before it was). */
  after_tool_sequential?: number;
  /** Every DynamoDB request of the step. */
  requests: number;
}

export interface BenchResults {
  meta: Record<string, unknown>;
  scenarios: ScenarioResult[];
  /** The worker's DynamoDB round trips per step, on one scenario. */
  round_trips?: RoundTripResult[];
  totals: Totals;
  parallel: ParallelResult | null;
  concurrency: ConcurrencyResult[];
  bundles: BundleResult[];
  layouts: LayoutResults | null;
  /** The hand-labelled real documents of test/fixtures/held-out-documents/ (absent when not measured). */
  held_out?: HeldOutScore | null;
  /** The held-out layouts and the samples, scanned and read by OCR (absent when not measured). */
  ocr?: OcrResults | null;
  /** The banking chat messages, development and held-out tables (absent when not measured). */
  banking_nlu?: BankingNluResults | null;
  /** A stream of loan requests with the plan cache off and on (bench/plan-cache.ts; absent when not measured). */
  plan_cache?: PlanCacheResults | null;
  /** A portfolio batch through the twin (POST /v1/batches, the Distributed Map emulation). */
  batch?: BatchBenchResult & { max_concurrency: number };
  live: LiveResult | null;
  reliability: ReliabilityResults | null;
  notes: string[];
}

// ---- scanned documents read by OCR (ocr.ts) ----------------------------------------------------

export interface OcrSetScore {
  set: string;
  cases: number;
  documents: number;
  pages: number;
  /** Labelled verdicts (case × condition). */
  verdicts: number;
  right_text: number;
  right_scanned: number;
  false_fulfilled_text: number;
  false_fulfilled_scanned: number;
  /** "Fulfilled" on a scan without a citation whose excerpt is on the cited (OCR) page. */
  unverified_fulfilled_scanned: number;
  insufficient_text: number;
  insufficient_scanned: number;
  /** "LAYOUT: CONDITION: label → verdict (description)" for every wrong verdict on a scan. */
  misses_scanned: string[];
  /** The engine's reason for each of them, in the same order: why the scan was not decided. */
  miss_reasons_scanned: string[];
  /** The same for the text originals (the layout section lists them too). */
  misses_text: string[];
}

/** What OCR cost over a group of documents, each read on its own, one after another. */
export interface OcrCost {
  documents: number;
  pages: number;
  /** Σ of each document's `ocr.seconds` (its OCR wall time: rasterising and tesseract). */
  seconds: number;
  /** seconds ÷ pages. */
  seconds_per_page: number;
  /** Per document, its OCR wall time ÷ its pages. */
  seconds_per_page_min: number;
  seconds_per_page_median: number;
  seconds_per_page_max: number;
  /** Mean of the OCR pages' confidence (each page's mean word confidence), page-weighted. */
  mean_confidence: number;
  min_page_confidence: number;
  /** Pages read below the confidence a decision needs (DEFAULT_OCR_MIN_CONFIDENCE). */
  pages_below_minimum: number;
}

export interface ScanCost {
  /** Documents scanned this run because the on-disk cache did not hold them. */
  generated_documents: number;
  generated_pages: number;
  generated_ms: number;
  /** Every document read back from the cache, after the cold pass. */
  cached_documents: number;
  cached_pages: number;
  cached_ms: number;
}

export interface SampleComparison {
  name: string;
  documents: string[];
  verdicts: number;
  identical: number;
  /** "CONDITION: text → scan" for every verdict that differs. */
  differences: string[];
}

export interface OcrSampleResults {
  cases: SampleComparison[];
  verdicts: number;
  identical: number;
  /** The signed return with page 1 scanned and pages 2-3 kept as text. */
  mixed: SampleComparison & { page_sources: string[] };
  /** The signed return scanned far too degraded to read: every verdict must be insufficient_evidence. */
  illegible: {
    dpi: number;
    verdicts: number;
    insufficient: number;
    statuses: Record<string, string>;
    confidence: number;
  };
  cost: OcrCost;
  scan: { generated: boolean; ms: number };
}

export interface OcrResults {
  scan: typeof DEFAULT_SCAN;
  engine: string;
  workers: number;
  cores: number;
  /** The 1-minute load average when the measure started and ended: OCR time is CPU-bound. */
  load_average: [number, number];
  min_confidence: number;
  sets: OcrSetScore[];
  total: Omit<OcrSetScore, "set" | "misses_scanned" | "miss_reasons_scanned" | "misses_text">;
  /** The held-out scans. */
  cost: OcrCost;
  scan_cost: ScanCost;
  samples: OcrSampleResults | null;
  elapsed_ms: number;
}

// ---- the banking chat messages (banking-nlu.ts) ------------------------------------------------

export interface NluMiss {
  message: string;
  pending?: BankingIntent;
  expected: { request: string; slots: Slots };
  got: { request: string; slots: Slots };
  /** One line per difference: the request, each labelled slot that differs, each slot not labelled. */
  wrong: string[];
}

export interface NluIntentRow {
  /** A banking intent, "command", or "none" (a message that asks for none of the five). */
  expected: string;
  messages: number;
  intent_right: number;
  fully_right: number;
}

export interface NluScore {
  table: string;
  messages: number;
  /** The request read right: the command for a command, otherwise the intent (or none) and no command. */
  intent_right: number;
  /** Slots named by the labels of messages that are not commands. */
  slots_labelled: number;
  /** Labelled slots read exactly as labelled. */
  slots_right: number;
  /** Slots read that the label does not name (the label says they must stay missing). */
  slots_extra: number;
  /** Request right, every labelled slot right and no extra slot. */
  fully_right: number;
  /** Slot-only answers to a request under way (`pending`). */
  follow_ups: { messages: number; fully_right: number };
  per_intent: NluIntentRow[];
  misses: NluMiss[];
}

export interface BankingNluResults {
  tables: NluScore[];
  elapsed_ms: number;
}
