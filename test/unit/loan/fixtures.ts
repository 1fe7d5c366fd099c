// Sample PDFs generated and extracted once per test file; assertions shared by the loan tests.
import { expect } from "vitest";
import { generateSampleDocuments } from "../../../examples/samples.ts";
import {
  type ConditionInput,
  evaluateConditions,
  type Verdict,
} from "../../../lambdas/agents/loan/conditions-engine.ts";
import { type ExtractedDocument, extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { predictConditions } from "../../../lambdas/agents/loan/preconditions.ts";

export const AS_OF = new Date("2025-04-15T12:00:00Z");

export const TAX_METADATA = {
  loan_program: "Flex Supreme",
  classification: "1120 Corporate Tax Return",
  as_of_date: "2025-04-15",
  borrower_info: { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 },
  extracted_entities: { ein: "12-3456789", tax_year: 2024 },
};

export const BANK_METADATA = {
  loan_program: "Flex Supreme",
  classification: "Bank Statements",
  as_of_date: "2025-04-15",
  borrower_info: { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 },
};

let samples: Promise<Map<string, ExtractedDocument>> | undefined;

/** All sample documents, extracted, by key without the rm-conditions/ prefix. */
export function extractedSamples(): Promise<Map<string, ExtractedDocument>> {
  samples ??= (async () => {
    const documents = await generateSampleDocuments();
    const extracted = await Promise.all(
      documents.map((document) => extractPdfText(document.bytes, document.key)),
    );
    return new Map(
      extracted.map((document) => [document.document.replace(/^rm-conditions\//, ""), document]),
    );
  })();
  return samples;
}

export async function sample(...names: string[]): Promise<ExtractedDocument[]> {
  const all = await extractedSamples();
  return names.map((name) => {
    const document = all.get(name);
    if (!document) throw new Error(`no sample named ${name}`);
    return document;
  });
}

export function pdf(bytes: Uint8Array, name: string): Promise<ExtractedDocument> {
  return extractPdfText(bytes, name);
}

/** Evaluates with the PreConditions output for `metadata`, as the agent does, and checks every citation. */
/**
 * A text PDF's extraction handed over as OCR would hand it: every page `source: "ocr"` at
 * `pageConfidence`, each column at the confidence `confidenceOf` gives it, so a rule on OCR
 * confidence is checked exactly on a known text.
 */
export function asOcrRead(
  document: ExtractedDocument,
  confidenceOf: (cell: string) => number,
  pageConfidence = 85,
): ExtractedDocument {
  if (!document.cells) throw new Error(`${document.document} has no columns`);
  return {
    ...document,
    has_text_layer: false,
    cells: document.cells.map((page) =>
      page.map((line) => line.map((cell) => ({ ...cell, confidence: confidenceOf(cell.text) }))),
    ),
    page_sources: document.pages.map(() => ({ source: "ocr", confidence: pageConfidence })),
    ocr: {
      engine: "tesseract",
      pages: document.pages.map((_, index) => index + 1),
      seconds: 1,
      confidence: pageConfidence,
    },
  };
}

export function evaluate(
  metadata: Record<string, unknown>,
  documents: ExtractedDocument[],
  only?: string[],
): Map<string, Verdict> {
  const predicted = predictConditions(metadata, { asOf: AS_OF }).conditions;
  const conditions: ConditionInput[] = only
    ? predicted.filter((condition) => only.includes(condition.id))
    : predicted;
  const { verdicts } = evaluateConditions(conditions, documents, { asOf: AS_OF });
  expectValidCitations(verdicts, documents);
  return new Map(verdicts.map((verdict) => [verdict.condition_id, verdict]));
}

export function verdictOf(verdicts: Map<string, Verdict>, id: string): Verdict {
  const verdict = verdicts.get(id);
  if (!verdict) throw new Error(`no verdict for ${id}; got ${[...verdicts.keys()].join(", ")}`);
  return verdict;
}

/** The invariant of issue 3: a decision cites a page whose text contains the excerpt. */
export function expectValidCitations(verdicts: Verdict[], documents: ExtractedDocument[]): void {
  for (const verdict of verdicts) {
    if (verdict.status !== "insufficient_evidence") {
      expect(verdict.citations.length, `${verdict.condition_id} has no citation`).toBeGreaterThan(0);
    }
    for (const citation of verdict.citations) {
      const document = documents.find((d) => d.document === citation.document);
      expect(document, `${verdict.condition_id} cites unknown ${citation.document}`).toBeDefined();
      const text = document?.pages[citation.page - 1];
      expect(text, `${verdict.condition_id} cites missing page ${citation.page}`).toBeDefined();
      expect(citation.excerpt.length).toBeGreaterThan(0);
      expect(citation.excerpt.length).toBeLessThanOrEqual(200);
      expect(text, `${verdict.condition_id}: page ${citation.page} of ${citation.document}`).toContain(
        citation.excerpt,
      );
    }
  }
}
