// Reference Conditions AI engine: one verdict per condition, read from the documents' text.
// Like the lender's service it receives only conditions and documents; everything it compares
// against comes in each condition's `expected` (filled by the PreConditions engine).
import {
  evaluateHolderName,
  evaluateLargeDeposits,
  evaluateNoNsf,
  evaluateSameAccount,
  evaluateTwoMonths,
} from "./bank-statements.ts";
import { findCondition, loadCatalog } from "./catalog.ts";
import type { ExtractedDocument } from "./pdf-text.ts";
import {
  evaluateComplete,
  evaluateEin,
  evaluateName,
  evaluateSigned,
  evaluateTaxYear,
} from "./tax-return.ts";
import { fromJsDate, MAX_EXCERPT, parseIsoOrUsDate } from "./text.ts";
import { type EvaluationContext, type Finding, insufficient, type Verdict } from "./verdict.ts";

export type { Citation } from "./text.ts";
export type { LetterOfExplanation, Verdict, VerdictStatus } from "./verdict.ts";

/** A condition id, or a condition as PreConditions returns it (only `id` and `expected` are read). */
export type ConditionInput =
  | string
  | {
      id?: string;
      condition_id?: string;
      title?: string;
      compartment?: string;
      expected?: Record<string, unknown> | null;
    };

export interface EvaluateOptions {
  /** "Today" for checks relative to the as-of date when a condition's expected has no as_of_date. */
  asOf?: Date;
}

export interface ConditionsResult {
  verdicts: Verdict[];
}

const EVALUATORS: Record<string, (context: EvaluationContext) => Finding> = {
  TR_SIGNED: evaluateSigned,
  TR_TAX_YEAR: evaluateTaxYear,
  TR_EIN_MATCH: evaluateEin,
  TR_NAME_MATCH: evaluateName,
  TR_COMPLETE: evaluateComplete,
  BS_TWO_MONTHS: evaluateTwoMonths,
  BS_NAME_MATCH: evaluateHolderName,
  BS_SAME_ACCOUNT: evaluateSameAccount,
  BS_NO_NSF: evaluateNoNsf,
  BS_LARGE_DEPOSITS: evaluateLargeDeposits,
};

export function evaluateConditions(
  conditions: ReadonlyArray<ConditionInput>,
  documents: ReadonlyArray<ExtractedDocument>,
  options: EvaluateOptions = {},
): ConditionsResult {
  const readable = documents.filter((document) => document.has_text_layer);
  const unreadable = documents
    .filter((document) => !document.has_text_layer)
    .map((document) => document.document);
  // A textless page inside a text PDF is usually a scanned insert (a signed page, a check image):
  // conclusions that rest on something being absent must not ignore it.
  for (const document of readable) {
    const blank = document.pages.flatMap((text, index) => (text.trim() === "" ? [index + 1] : []));
    if (blank.length > 0) unreadable.push(`${document.document} (page ${blank.join(", ")})`);
  }
  const seen = new Set<string>();
  const verdicts: Verdict[] = [];

  for (const input of conditions) {
    const { id, expected, title, compartment } = normalizeInput(input);
    if (id === "" || seen.has(id)) continue;
    seen.add(id);
    const entry = findCondition(id);
    const header = {
      condition_id: id,
      title: entry?.title ?? title ?? id,
      compartment: entry?.compartment ?? compartment ?? "Unknown",
    };
    const finding = ((): Finding => {
      const evaluator = EVALUATORS[id];
      if (!entry && !evaluator) {
        const known = loadCatalog().conditions.map((condition) => condition.id);
        return insufficient(
          `unknown condition ${id}: not in the condition catalog (known: ${known.join(", ")})`,
        );
      }
      if (!evaluator)
        return insufficient(`${id} has no automated check: review manually (${entry?.fulfilled_by ?? ""})`);
      if (documents.length === 0) return insufficient(`no documents were provided to evaluate ${id}`);
      if (readable.length === 0) {
        return insufficient(
          `${unreadable.join(", ")} ${unreadable.length === 1 ? "has" : "have"} no text layer (scanned image?): cannot evaluate ${id} without OCR`,
        );
      }
      const asOf = parseIsoOrUsDate(expected.as_of_date) ?? fromJsDate(options.asOf ?? new Date());
      try {
        return evaluator({ readable, unreadable, asOf, expected });
      } catch (error) {
        return insufficient(
          `the ${id} check failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    })();
    verdicts.push({ ...header, ...enforceCitations(finding, readable) });
  }
  return { verdicts };
}

function normalizeInput(input: ConditionInput): {
  id: string;
  expected: Record<string, unknown>;
  title?: string;
  compartment?: string;
} {
  if (typeof input === "string") return { id: input.trim().toUpperCase(), expected: {} };
  if (input === null || typeof input !== "object") return { id: "", expected: {} };
  const id = (input.id ?? input.condition_id ?? "").trim().toUpperCase();
  const expected =
    input.expected && typeof input.expected === "object" && !Array.isArray(input.expected)
      ? input.expected
      : {};
  return {
    id,
    expected,
    ...(typeof input.title === "string" ? { title: input.title } : {}),
    ...(typeof input.compartment === "string" ? { compartment: input.compartment } : {}),
  };
}

/**
 * A verdict may only rest on text that is on the page it cites. Citations failing that are
 * dropped, and a decision left without any citation becomes insufficient_evidence.
 */
function enforceCitations(finding: Finding, documents: ReadonlyArray<ExtractedDocument>): Finding {
  const citations = finding.citations.filter((citation) => {
    const text = documents.find((document) => document.document === citation.document)?.pages[
      citation.page - 1
    ];
    return (
      text !== undefined &&
      citation.excerpt !== "" &&
      citation.excerpt.length <= MAX_EXCERPT &&
      text.includes(citation.excerpt)
    );
  });
  if (finding.status !== "insufficient_evidence" && citations.length === 0) {
    return {
      ...finding,
      status: "insufficient_evidence",
      reason: `${finding.reason} (no verifiable citation)`,
      citations,
    };
  }
  return { ...finding, citations };
}
