// Verdicts on layouts the engines were not written against: the labelled loan files of
// examples/layouts/ (Form 1120 prints and bank layouts of our own design), judged as the agent
// judges them (PreConditions, then Conditions AI over the extracted text), scored per layout
// against the labels. A false "fulfilled" is the error that matters most; it must stay 0.
import { performance } from "node:perf_hooks";
import { bankStatementCases } from "../examples/layouts/bank-statements.ts";
import type { LabelledCase } from "../examples/layouts/cases.ts";
import { form1120Cases } from "../examples/layouts/form-1120.ts";
import { holdoutCases } from "../examples/layouts/holdout.ts";
import { holdoutCases2 } from "../examples/layouts/holdout-2.ts";
import { evaluateConditions, type Verdict } from "../lambdas/agents/loan/conditions-engine.ts";
import { type ExtractedDocument, extractPdfText } from "../lambdas/agents/loan/pdf-text.ts";
import { predictConditions } from "../lambdas/agents/loan/preconditions.ts";

export interface LayoutScore {
  layout: string;
  document: "form_1120" | "bank_statement";
  cases: number;
  /** Labelled verdicts (case × condition). */
  verdicts: number;
  right: number;
  /** Verdicts "fulfilled" whose label is not. */
  false_fulfilled: number;
  /** Verdicts "fulfilled" with a citation whose excerpt is not on the cited page (must be 0). */
  unverified_fulfilled: number;
  insufficient: number;
  /** "CONDITION: label → verdict" for every wrong verdict. */
  misses: string[];
}

export interface LayoutResults {
  layouts: LayoutScore[];
  verdicts: number;
  right: number;
  false_fulfilled: number;
  unverified_fulfilled: number;
  insufficient: number;
  /** Extraction and judging of every case, one after another. */
  elapsed_ms: number;
}

export async function measureLayouts(): Promise<LayoutResults> {
  const started = performance.now();
  const cases: Array<[LayoutScore["document"], LabelledCase]> = [
    ...(await form1120Cases()).map(
      (entry) => ["form_1120", entry] as [LayoutScore["document"], LabelledCase],
    ),
    ...(await bankStatementCases()).map(
      (entry) => ["bank_statement", entry] as [LayoutScore["document"], LabelledCase],
    ),
    ...[...(await holdoutCases()), ...(await holdoutCases2())].map(
      (entry) =>
        [
          Object.keys(entry.labels).some((id) => id.startsWith("TR_")) ? "form_1120" : "bank_statement",
          entry,
        ] as [LayoutScore["document"], LabelledCase],
    ),
  ];
  const scores = new Map<string, LayoutScore>();
  for (const [document, labelled] of cases) {
    const score =
      scores.get(labelled.layout) ??
      ({
        layout: labelled.layout,
        document,
        cases: 0,
        verdicts: 0,
        right: 0,
        false_fulfilled: 0,
        unverified_fulfilled: 0,
        insufficient: 0,
        misses: [],
      } satisfies LayoutScore);
    scores.set(labelled.layout, score);
    score.cases += 1;
    const documents = await Promise.all(
      labelled.documents.map((item) => extractPdfText(item.bytes, item.key)),
    );
    const judged = scoreCase(labelled, documents);
    score.verdicts += judged.verdicts;
    score.right += judged.right;
    score.false_fulfilled += judged.false_fulfilled;
    score.unverified_fulfilled += judged.unverified_fulfilled;
    score.insufficient += judged.insufficient;
    score.misses.push(...judged.misses);
  }
  const layouts = [...scores.values()];
  const sum = (key: "verdicts" | "right" | "false_fulfilled" | "unverified_fulfilled" | "insufficient") =>
    layouts.reduce((total, score) => total + score[key], 0);
  return {
    layouts,
    verdicts: sum("verdicts"),
    right: sum("right"),
    false_fulfilled: sum("false_fulfilled"),
    unverified_fulfilled: sum("unverified_fulfilled"),
    insufficient: sum("insufficient"),
    elapsed_ms: Math.round(performance.now() - started),
  };
}

/** One labelled case's verdicts scored against its labels. */
export type CaseScore = Pick<
  LayoutScore,
  "verdicts" | "right" | "false_fulfilled" | "unverified_fulfilled" | "insufficient" | "misses"
>;

/**
 * Judges one labelled case on its documents as given (extracted from the text layer, or read by
 * OCR from a scan: the scanned-documents section scores both the same way) as the agent judges it:
 * PreConditions from the case's metadata and as_of_date, then Conditions AI.
 */
export function scoreCase(
  labelled: LabelledCase,
  documents: ExtractedDocument[],
): CaseScore & { judged: Verdict[] } {
  const score: CaseScore = {
    verdicts: 0,
    right: 0,
    false_fulfilled: 0,
    unverified_fulfilled: 0,
    insufficient: 0,
    misses: [],
  };
  const asOf = new Date(`${String(labelled.metadata.as_of_date ?? "")}T12:00:00Z`);
  const options = Number.isNaN(asOf.getTime()) ? {} : { asOf };
  const { conditions } = predictConditions(labelled.metadata, options);
  const { verdicts } = evaluateConditions(conditions, documents, options);
  for (const [condition, label] of Object.entries(labelled.labels)) {
    const verdict = verdicts.find((item) => item.condition_id === condition);
    const status = verdict?.status ?? "missing";
    score.verdicts += 1;
    if (status === label) score.right += 1;
    else score.misses.push(`${condition}: ${label} → ${status} (${labelled.description})`);
    if (status === "insufficient_evidence") score.insufficient += 1;
    if (status === "fulfilled" && label !== "fulfilled") score.false_fulfilled += 1;
    if (status === "fulfilled") {
      const verified = (verdict?.citations ?? []).some((citation) =>
        documents
          .find((item) => item.document === citation.document)
          ?.pages[citation.page - 1]?.includes(citation.excerpt),
      );
      if (!verified) score.unverified_fulfilled += 1;
    }
  }
  return { ...score, judged: verdicts };
}
