// What `rewoo eval` computes, without I/O: the labels a loan file carries (`expected`), each labelled
// verdict scored against its run's result, the totals, confusion matrices by condition and by document
// kind, right and wrong verdicts by the confidence of their evidence, the thresholds, and what changed
// since a previous summary. The command (eval.ts) reads the files, runs the batch and prints.
import * as z from "zod";
import {
  type ConditionFinding,
  findingVerdict,
  type RunResult,
  type VerdictKind,
} from "../lambdas/contracts/run-result.ts";
import type { RequestProblem } from "../lambdas/core/request.ts";

export const VERDICT_LABELS = ["fulfilled", "not_fulfilled", "insufficient_evidence"] as const;
/** What a labelled condition got: a verdict, no verdict in a result (missing), or no result at all (run_failed). */
export type Got = VerdictKind | "missing" | "run_failed";

/** Line statuses whose run ended with a result that is scored (a NEEDS_REVIEW result is what a person would see). */
const SCORED_STATUSES = ["SUCCEEDED", "NEEDS_REVIEW"];

export type Labels = Record<string, VerdictKind>;

/** Condition ids are compared without regard to case or surrounding spaces, as the catalog finds them. */
export const conditionKey = (id: string) => id.trim().toUpperCase();

/**
 * The loan file's `expected` labels, and the request without them (what is sent). Every problem is
 * named by its field; a file with any is not run.
 */
export function splitLabelledRequest(
  raw: unknown,
): { labels: Labels; request: Record<string, unknown> } | { problems: RequestProblem[] } {
  const shape = `an object {"<condition id>": "fulfilled" | "not_fulfilled" | "insufficient_evidence"}`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { problems: [{ field: "(file)", message: "expected a JSON object: an evaluation request" }] };
  }
  const { expected, ...request } = raw as Record<string, unknown>;
  if (expected === undefined) return { problems: [{ field: "expected", message: `required: ${shape}` }] };
  if (typeof expected !== "object" || expected === null || Array.isArray(expected)) {
    return { problems: [{ field: "expected", message: `expected ${shape}` }] };
  }
  const problems: RequestProblem[] = [];
  const labels: Labels = {};
  const seen = new Set<string>();
  for (const [id, value] of Object.entries(expected)) {
    const key = conditionKey(id);
    const field = `expected.${id}`;
    if (key === "") problems.push({ field, message: "a condition id may not be blank" });
    else if (seen.has(key))
      problems.push({ field, message: `labels ${key} twice (condition ids ignore case)` });
    else if (!VERDICT_LABELS.includes(value as VerdictKind))
      problems.push({
        field,
        message: `expected "fulfilled", "not_fulfilled" or "insufficient_evidence", got ${JSON.stringify(value)}`,
      });
    else labels[key] = value as VerdictKind;
    seen.add(key);
  }
  if (problems.length === 0 && Object.keys(labels).length === 0) {
    problems.push({ field: "expected", message: `labels no condition: expected ${shape}` });
  }
  return problems.length ? { problems } : { labels, request };
}

/** One labelled loan file and how its batch line ended. */
export interface LabelledOutcome {
  /** The folder's file name, or `line N` of a manifest. */
  file: string;
  line: number;
  labels: Labels;
  /** The kind of document the file's classification names (form_1120, bank_statement…). */
  document_kind: string;
  /** The batch line's status (SUCCEEDED, NEEDS_REVIEW, FAILED, INVALID, NOT_RUN…). */
  status: string;
  run_id?: string;
  /** Why the line has no result (its error), when it has none. */
  error?: string;
  result?: RunResult;
  /** The result reviewer's score (1–10) of the run. */
  review_score?: number;
}

type Citation = NonNullable<ConditionFinding["citations"]>[number];

/** Every labelled verdict of the evaluation, right or wrong. */
export interface ScoredVerdict {
  file: string;
  line: number;
  condition: string;
  expected: VerdictKind;
  got: Got;
  right: boolean;
  run_id?: string;
  run_status: string;
  document_kind: string;
  /** The lowest OCR confidence (0–100) of the verdict's citations; absent when none cites a page read by OCR. */
  ocr_confidence?: number;
  review_score?: number;
}

export interface Mismatch {
  file: string;
  condition: string;
  expected: VerdictKind;
  got: Got;
  run_id?: string;
  /** The run's reason for its verdict, or why there is none. */
  reason: string;
  citations?: Citation[];
  run_status: string;
  ocr_confidence?: number;
}

export interface Tally {
  total: number;
  right: number;
  accuracy: number;
  false_fulfilled: number;
  /** expected → got → how many. */
  confusion: Partial<Record<VerdictKind, Partial<Record<Got, number>>>>;
}

export interface Thresholds {
  min_accuracy?: number;
  max_false_fulfilled: number;
}

export interface EvalSummary {
  source: string;
  batch_id: string;
  created_at: string;
  /** The API the runs live behind (absent for the local twin). */
  api?: string;
  files: number;
  total: number;
  right: number;
  accuracy: number;
  false_fulfilled: number;
  by_condition: Record<string, Tally>;
  by_document_kind: Record<string, Tally>;
  /** Right and wrong verdicts by the confidence of their evidence (CONFIDENCE_BANDS). */
  by_confidence: Record<string, { total: number; right: number; accuracy: number }>;
  mismatches: Mismatch[];
  verdicts: ScoredVerdict[];
  thresholds: Thresholds;
  passed: boolean;
  /** Each threshold that does not hold, in words. */
  failed_thresholds: string[];
  compare?: Comparison;
}

/** The bands of by_confidence, in the order they are shown. */
export const CONFIDENCE_BANDS = {
  text_layer: "text layer (no page read by OCR cited)",
  ocr_90_100: "OCR, lowest cited confidence 90–100",
  ocr_70_89: "OCR, lowest cited confidence 70–89",
  ocr_below_70: "OCR, lowest cited confidence below 70",
  no_verdict: "no verdict (missing, run failed)",
} as const;
export type ConfidenceBand = keyof typeof CONFIDENCE_BANDS;

export function confidenceBand(verdict: Pick<ScoredVerdict, "got" | "ocr_confidence">): ConfidenceBand {
  if (verdict.got === "missing" || verdict.got === "run_failed") return "no_verdict";
  if (verdict.ocr_confidence === undefined) return "text_layer";
  if (verdict.ocr_confidence >= 90) return "ocr_90_100";
  return verdict.ocr_confidence >= 70 ? "ocr_70_89" : "ocr_below_70";
}

/** The finding of `condition` in the result and its verdict: the fulfilled list first, as the API lists them. */
function judged(
  result: RunResult,
  condition: string,
): { verdict: VerdictKind; finding: ConditionFinding } | undefined {
  const lists: Array<[unknown, VerdictKind]> = [
    [result.fulfilled_conditions, "fulfilled"],
    [result.unfulfilled_conditions, "not_fulfilled"],
  ];
  for (const [findings, fallback] of lists) {
    if (!Array.isArray(findings)) continue;
    for (const finding of findings as ConditionFinding[]) {
      if (typeof finding?.id === "string" && conditionKey(finding.id) === condition)
        return { verdict: findingVerdict(finding, fallback), finding };
    }
  }
  return undefined;
}

function lowestOcrConfidence(citations: Citation[] | undefined): number | undefined {
  const read = (citations ?? []).filter(
    (citation) => citation?.source === "ocr" && typeof citation.confidence === "number",
  );
  return read.length ? Math.min(...read.map((citation) => citation.confidence as number)) : undefined;
}

const ratio = (right: number, total: number) => (total === 0 ? 0 : right / total);

/** The record's value at `key`, made and stored first when there is none. */
function entry<K extends string, V>(record: Partial<Record<K, V>>, key: K, make: () => V): V {
  const existing = record[key];
  if (existing !== undefined) return existing;
  const made = make();
  record[key] = made;
  return made;
}

function emptyTally(): Tally {
  return { total: 0, right: 0, accuracy: 0, false_fulfilled: 0, confusion: {} };
}

function count(tally: Tally, verdict: ScoredVerdict): void {
  tally.total += 1;
  if (verdict.right) tally.right += 1;
  if (isFalseFulfilled(verdict)) tally.false_fulfilled += 1;
  const row = entry(tally.confusion, verdict.expected, (): Partial<Record<Got, number>> => ({}));
  row[verdict.got] = (row[verdict.got] ?? 0) + 1;
  tally.accuracy = ratio(tally.right, tally.total);
}

/** A condition the run called fulfilled that the lender labelled otherwise: the costly mistake. */
export const isFalseFulfilled = (verdict: Pick<ScoredVerdict, "expected" | "got">) =>
  verdict.got === "fulfilled" && verdict.expected !== "fulfilled";

/** Scores every label of every file (none is dropped: a verdict the run did not give is a mismatch). */
export function scoreEvaluation(
  outcomes: readonly LabelledOutcome[],
  context: { source: string; batch_id: string; created_at: string; api?: string; thresholds: Thresholds },
): EvalSummary {
  const verdicts: ScoredVerdict[] = [];
  const mismatches: Mismatch[] = [];
  for (const outcome of outcomes) {
    const scored = outcome.result && SCORED_STATUSES.includes(outcome.status) ? outcome.result : undefined;
    for (const [condition, expected] of Object.entries(outcome.labels)) {
      const found = scored ? judged(scored, condition) : undefined;
      const got: Got = found?.verdict ?? (scored ? "missing" : "run_failed");
      const ocr = lowestOcrConfidence(found?.finding.citations);
      const common = {
        file: outcome.file,
        condition,
        expected,
        got,
        ...(outcome.run_id ? { run_id: outcome.run_id } : {}),
        run_status: outcome.status,
        ...(ocr !== undefined ? { ocr_confidence: ocr } : {}),
      };
      const verdict: ScoredVerdict = {
        ...common,
        line: outcome.line,
        right: got === expected,
        document_kind: outcome.document_kind,
        ...(outcome.review_score !== undefined ? { review_score: outcome.review_score } : {}),
      };
      verdicts.push(verdict);
      if (verdict.right) continue;
      const reason = found
        ? (found.finding.reason ?? "(the run gave no reason)")
        : scored
          ? `the run's result does not judge ${condition}`
          : `the line ended ${outcome.status}${outcome.error ? `: ${outcome.error}` : " without a result"}`;
      const citations = found?.finding.citations;
      mismatches.push({ ...common, reason, ...(citations?.length ? { citations } : {}) });
    }
  }
  const byCondition: Record<string, Tally> = {};
  const byKind: Record<string, Tally> = {};
  const byConfidence: EvalSummary["by_confidence"] = {};
  for (const verdict of verdicts) {
    count(entry(byCondition, verdict.condition, emptyTally), verdict);
    count(entry(byKind, verdict.document_kind, emptyTally), verdict);
    const band = entry(byConfidence, confidenceBand(verdict), () => ({ total: 0, right: 0, accuracy: 0 }));
    band.total += 1;
    if (verdict.right) band.right += 1;
    band.accuracy = ratio(band.right, band.total);
  }
  const right = verdicts.length - mismatches.length;
  const falseFulfilled = verdicts.filter(isFalseFulfilled).length;
  const failed = failedThresholds(
    { accuracy: ratio(right, verdicts.length), false_fulfilled: falseFulfilled },
    context.thresholds,
  );
  return {
    source: context.source,
    batch_id: context.batch_id,
    created_at: context.created_at,
    ...(context.api ? { api: context.api } : {}),
    files: outcomes.length,
    total: verdicts.length,
    right,
    accuracy: ratio(right, verdicts.length),
    false_fulfilled: falseFulfilled,
    by_condition: sortedRecord(byCondition),
    by_document_kind: sortedRecord(byKind),
    by_confidence: Object.fromEntries(
      (Object.keys(CONFIDENCE_BANDS) as ConfidenceBand[])
        .filter((band) => byConfidence[band])
        .map((band) => [band, byConfidence[band]]),
    ) as EvalSummary["by_confidence"],
    mismatches,
    verdicts,
    thresholds: context.thresholds,
    passed: failed.length === 0,
    failed_thresholds: failed,
  };
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** Each threshold that does not hold, in words (empty: the evaluation passes). */
export function failedThresholds(
  measured: { accuracy: number; false_fulfilled: number },
  thresholds: Thresholds,
): string[] {
  const failed: string[] = [];
  if (thresholds.min_accuracy !== undefined && measured.accuracy < thresholds.min_accuracy) {
    failed.push(`accuracy ${percent(measured.accuracy)} is below --min-accuracy ${thresholds.min_accuracy}`);
  }
  if (measured.false_fulfilled > thresholds.max_false_fulfilled) {
    failed.push(
      `${measured.false_fulfilled} false "fulfilled" ${measured.false_fulfilled === 1 ? "verdict exceeds" : "verdicts exceed"} --max-false-fulfilled ${thresholds.max_false_fulfilled}`,
    );
  }
  return failed;
}

/** 0.8333 → "83.3%". */
export function percent(value: number): string {
  return `${(Math.round(value * 1000) / 10).toFixed(1)}%`;
}

// ---------------------------------------------------------------------------------------------
// Compare with a previous summary

/** What --compare reads of a previous `rewoo eval --json` summary. */
const PreviousSummarySchema = z.object({
  source: z.string().optional(),
  created_at: z.string().optional(),
  total: z.number().int().nonnegative(),
  right: z.number().int().nonnegative(),
  accuracy: z.number().min(0).max(1),
  by_condition: z.record(
    z.string(),
    z.object({ total: z.number().int().nonnegative(), right: z.number().int().nonnegative() }),
  ),
  verdicts: z.array(
    z.object({
      file: z.string(),
      condition: z.string(),
      expected: z.enum(VERDICT_LABELS),
      got: z.string(),
      right: z.boolean(),
      run_id: z.string().optional(),
    }),
    { error: "expected the verdicts list of a `rewoo eval --json` summary" },
  ),
});
export type PreviousSummary = z.infer<typeof PreviousSummarySchema>;

/** The previous summary, or every problem named by its field. */
export function parsePreviousSummary(value: unknown): PreviousSummary | { problems: RequestProblem[] } {
  const parsed = PreviousSummarySchema.safeParse(value);
  if (parsed.success) return parsed.data;
  return {
    problems: parsed.error.issues.map((issue) => ({
      field: issue.path.length ? issue.path.map(String).join(".") : "(file)",
      message: issue.message,
    })),
  };
}

export interface VerdictChange {
  file: string;
  condition: string;
  expected: VerdictKind;
  /** The label in the previous summary, when it was another. */
  expected_before?: VerdictKind;
  before: string;
  after: Got;
  run_id?: string;
}

export interface ConditionDelta {
  condition: string;
  before?: { total: number; right: number; accuracy: number };
  after?: { total: number; right: number; accuracy: number };
  /** after − before accuracy, when the condition is in both. */
  delta?: number;
}

export interface Comparison {
  previous: { source?: string; created_at?: string };
  accuracy: { before: number; after: number; delta: number };
  /** Right before, wrong now. */
  regressions: VerdictChange[];
  /** Wrong before, right now. */
  fixes: VerdictChange[];
  /** Wrong both times, with another verdict. */
  still_wrong_changed: VerdictChange[];
  /** Labelled now, not before; labelled before, not now. */
  added: Array<{ file: string; condition: string }>;
  removed: Array<{ file: string; condition: string }>;
  by_condition: ConditionDelta[];
}

const verdictKey = (verdict: { file: string; condition: string }) =>
  `${verdict.file}\u0000${conditionKey(verdict.condition)}`;

/** What changed from `previous` to `current`: verdicts by file and condition, then accuracy by condition. */
export function compareSummaries(previous: PreviousSummary, current: EvalSummary): Comparison {
  const before = new Map(previous.verdicts.map((verdict) => [verdictKey(verdict), verdict]));
  const now = new Map(current.verdicts.map((verdict) => [verdictKey(verdict), verdict]));
  const regressions: VerdictChange[] = [];
  const fixes: VerdictChange[] = [];
  const changed: VerdictChange[] = [];
  const added: Comparison["added"] = [];
  for (const verdict of current.verdicts) {
    const old = before.get(verdictKey(verdict));
    if (!old) {
      added.push({ file: verdict.file, condition: verdict.condition });
      continue;
    }
    const change: VerdictChange = {
      file: verdict.file,
      condition: verdict.condition,
      expected: verdict.expected,
      ...(old.expected !== verdict.expected ? { expected_before: old.expected } : {}),
      before: old.got,
      after: verdict.got,
      ...(verdict.run_id ? { run_id: verdict.run_id } : {}),
    };
    if (old.right && !verdict.right) regressions.push(change);
    else if (!old.right && verdict.right) fixes.push(change);
    else if (!old.right && !verdict.right && old.got !== verdict.got) changed.push(change);
  }
  const removed = previous.verdicts
    .filter((verdict) => !now.has(verdictKey(verdict)))
    .map((verdict) => ({ file: verdict.file, condition: conditionKey(verdict.condition) }));
  const conditions = new Set([
    ...Object.keys(previous.by_condition).map(conditionKey),
    ...Object.keys(current.by_condition),
  ]);
  const previousByCondition = new Map(
    Object.entries(previous.by_condition).map(([id, tally]) => [conditionKey(id), tally]),
  );
  const byCondition = [...conditions].map((condition): ConditionDelta => {
    const old = previousByCondition.get(condition);
    const cur = current.by_condition[condition];
    const beforeTally = old
      ? { total: old.total, right: old.right, accuracy: ratio(old.right, old.total) }
      : undefined;
    const afterTally = cur ? { total: cur.total, right: cur.right, accuracy: cur.accuracy } : undefined;
    return {
      condition,
      ...(beforeTally ? { before: beforeTally } : {}),
      ...(afterTally ? { after: afterTally } : {}),
      ...(beforeTally && afterTally ? { delta: afterTally.accuracy - beforeTally.accuracy } : {}),
    };
  });
  // Worst change first; conditions in only one report after those in both.
  byCondition.sort(
    (a, b) =>
      (a.delta ?? Number.POSITIVE_INFINITY) - (b.delta ?? Number.POSITIVE_INFINITY) ||
      a.condition.localeCompare(b.condition),
  );
  return {
    previous: {
      ...(previous.source !== undefined ? { source: previous.source } : {}),
      ...(previous.created_at !== undefined ? { created_at: previous.created_at } : {}),
    },
    accuracy: {
      before: previous.accuracy,
      after: current.accuracy,
      delta: current.accuracy - previous.accuracy,
    },
    regressions,
    fixes,
    still_wrong_changed: changed,
    added,
    removed,
    by_condition: byCondition,
  };
}
