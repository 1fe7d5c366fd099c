// The result of a run as the API returns it (docs/api.openapi.yaml RunResult), whichever agent wrote
// it. Its finding lists are the loan agent's conditions: the API has one result shape for every
// run, so another agent's result, and an answer the engine writes itself (a plan rejected or
// failing review), carries them empty (noFindings). Imports nothing.

export interface ConditionFinding {
  id: string;
  title?: string;
  status?: string;
  /** The catalog's compartment (Compliance, Income, Assets, Credit), when known. */
  compartment?: string;
  /** The catalog's priority ("high" | "medium" | "low", or 1–3 with 1 the highest), when known. */
  priority?: string | number;
  reason?: string;
  /** `source: "ocr"` and the OCR engine's `confidence` (0–100) only for a page read by OCR. */
  citations?: Array<{
    document: string;
    page?: number;
    excerpt?: string;
    source?: "ocr";
    confidence?: number;
    /** With `source: "ocr"`: arithmetic on the page confirms the cited amount, whatever the confidence. */
    confirmed_by?: "running_balance" | "deposits_total";
  }>;
  [key: string]: unknown;
}

export interface RunResult {
  summary: string;
  fulfilled_conditions: ConditionFinding[];
  unfulfilled_conditions: ConditionFinding[];
  missing_information: string[];
  recommendations: string[];
  /** The conditions that apply to the loan, when the instructions asked which apply (nothing judged). */
  applicable_conditions?: ConditionFinding[];
  /** How the instructions were read, in one sentence. */
  interpretation?: string;
}

/** The finding lists of a result that judged nothing. */
export function noFindings(): Pick<RunResult, "fulfilled_conditions" | "unfulfilled_conditions"> {
  return { fulfilled_conditions: [], unfulfilled_conditions: [] };
}

/** How a finished run judged its conditions (a batch line's `verdicts`): how many verdicts of each kind its result holds. */
export interface VerdictCounts {
  fulfilled: number;
  not_fulfilled: number;
  insufficient_evidence: number;
}

const VERDICT_KINDS = ["fulfilled", "not_fulfilled", "insufficient_evidence"] as const;
export type VerdictKind = (typeof VERDICT_KINDS)[number];

/**
 * One finding's verdict: its own status decides ("Not Fulfilled" reads as not_fulfilled); without a
 * known one, `fallback`, the verdict of the list it is in.
 */
export function findingVerdict(finding: unknown, fallback: VerdictKind): VerdictKind {
  const raw = (finding as { status?: unknown } | null)?.status;
  const status =
    typeof raw === "string"
      ? raw
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, "_")
      : "";
  return VERDICT_KINDS.find((candidate) => candidate === status) ?? fallback;
}

/**
 * The verdicts of a run's result by kind. A finding's own status decides ("Not Fulfilled" reads as
 * not_fulfilled); without one, the list it is in (fulfilled, else not_fulfilled). Conditions listed
 * as applying (nothing judged) are no verdicts.
 */
export function verdictCounts(result: RunResult): VerdictCounts {
  const counts: VerdictCounts = { fulfilled: 0, not_fulfilled: 0, insufficient_evidence: 0 };
  const count = (findings: unknown, fallback: VerdictKind) => {
    if (!Array.isArray(findings)) return;
    for (const finding of findings) counts[findingVerdict(finding, fallback)] += 1;
  };
  count(result.fulfilled_conditions, "fulfilled");
  count(result.unfulfilled_conditions, "not_fulfilled");
  return counts;
}
