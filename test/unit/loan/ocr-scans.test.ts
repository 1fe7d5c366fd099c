// The sample documents printed and scanned (image-only PDFs: skewed, blurred, noisy, JPEG) read by
// real OCR (tesseract.js, the offline engine) must get the verdicts their text originals get, both
// ways, with every citation marked OCR and its excerpt on the OCR text of the cited page. A scan too
// degraded to read decides nothing and says what could not be read.
import { beforeAll, describe, expect, it } from "vitest";
import { generateSampleDocuments } from "../../../examples/samples.ts";
import { generateScannedSampleDocuments, SCANNED_SAMPLE_PREFIX } from "../../../examples/scanned.ts";
import { evaluateConditions, type Verdict } from "../../../lambdas/agents/loan/conditions-engine.ts";
import { type ExtractedDocument, extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { predictConditions } from "../../../lambdas/agents/loan/preconditions.ts";
import { createTesseractEngine } from "../../../lambdas/tools/ocr/tesseract.ts";
import { AS_OF, BANK_METADATA, expectValidCitations, TAX_METADATA } from "./fixtures.ts";

const text = new Map<string, ExtractedDocument>();
const scanned = new Map<string, ExtractedDocument>();

beforeAll(async () => {
  const sources = await generateSampleDocuments();
  const ocr = createTesseractEngine();
  for (const source of sources) text.set(source.key, await extractPdfText(source.bytes, source.key));
  // One document after another: each already reads its pages in parallel.
  for (const scan of await generateScannedSampleDocuments({ sources })) {
    const name = scan.key.slice(SCANNED_SAMPLE_PREFIX.length);
    scanned.set(name, await extractPdfText(scan.bytes, scan.key, { ocr }));
  }
}, 600_000);

function originals(names: string[]): ExtractedDocument[] {
  return names.map((name) => {
    const document = text.get(`rm-conditions/${name}`);
    if (!document) throw new Error(`no text sample ${name}`);
    return document;
  });
}

function scans(names: string[]): ExtractedDocument[] {
  return names.map((name) => {
    const document = scanned.get(name);
    if (!document) throw new Error(`no scanned sample ${name}`);
    return document;
  });
}

function judge(metadata: Record<string, unknown>, documents: ExtractedDocument[]): Verdict[] {
  const conditions = predictConditions(metadata, { asOf: AS_OF }).conditions;
  const { verdicts } = evaluateConditions(conditions, documents, { asOf: AS_OF });
  expectValidCitations(verdicts, documents);
  return verdicts;
}

const statuses = (verdicts: Verdict[]) => verdicts.map((verdict) => [verdict.condition_id, verdict.status]);

const CASES: Array<[string, Record<string, unknown>, string[]]> = [
  ["signed return", TAX_METADATA, ["1120-signed.pdf"]],
  ["unsigned return", TAX_METADATA, ["1120-unsigned.pdf"]],
  ["January and February statements", BANK_METADATA, ["statement-2025-01.pdf", "statement-2025-02.pdf"]],
  [
    "a March statement with an NSF fee",
    BANK_METADATA,
    ["statement-2025-02.pdf", "statement-2025-03-nsf.pdf"],
  ],
  [
    "a March statement with a large deposit",
    BANK_METADATA,
    ["statement-2025-02.pdf", "statement-2025-03-large-deposit.pdf"],
  ],
  [
    "a statement in another holder's name",
    BANK_METADATA,
    ["statement-2025-01.pdf", "statement-2025-02-other-name.pdf"],
  ],
];

describe("scanned samples read by OCR", () => {
  it("have every page read by OCR, none from a text layer", () => {
    for (const [name, document] of scanned) {
      if (name === "1120-signed-mixed.pdf") continue;
      expect(document.has_text_layer, name).toBe(false);
      expect(document.ocr, name).toMatchObject({ engine: "tesseract" });
      expect(document.ocr?.pages, name).toEqual(document.pages.map((_, index) => index + 1));
      expect(document.ocr?.seconds, name).toBeGreaterThan(0);
    }
  });

  it.each(CASES)(
    "%s: the same verdicts as the text originals, every citation marked OCR",
    (_, metadata, names) => {
      const expected = judge(metadata, originals(names));
      const verdicts = judge(metadata, scans(names));
      expect(statuses(verdicts)).toEqual(statuses(expected));
      // Both ways: the cases hold fulfilled and not_fulfilled verdicts.
      for (const verdict of verdicts) {
        expect(verdict.citations.length, verdict.condition_id).toBeGreaterThan(0);
        for (const citation of verdict.citations) {
          expect(citation.source, verdict.condition_id).toBe("ocr");
          expect(citation.confidence, verdict.condition_id).toBeGreaterThanOrEqual(80);
        }
      }
    },
  );

  it("the NSF fee on a scanned statement is not_fulfilled, citing the fee's line", () => {
    const verdicts = judge(BANK_METADATA, scans(["statement-2025-02.pdf", "statement-2025-03-nsf.pdf"]));
    const nsf = verdicts.find((verdict) => verdict.condition_id === "BS_NO_NSF");
    expect(nsf?.status).toBe("not_fulfilled");
    expect(nsf?.citations).toEqual([
      expect.objectContaining({
        document: "rm-conditions/scanned/statement-2025-03-nsf.pdf",
        page: 1,
        excerpt: expect.stringMatching(/^03\/17\s+NSF Fee - Returned Check #1043\s+-35\.00/),
        source: "ocr",
      }),
    ]);
  });

  it("a mixed file: the scanned first page by OCR, the text pages from their text layer", () => {
    const [mixed] = scans(["1120-signed-mixed.pdf"]);
    expect(mixed?.page_sources?.map((source) => source.source)).toEqual(["ocr", "text", "text"]);
    const verdicts = judge(TAX_METADATA, scans(["1120-signed-mixed.pdf"]));
    expect(statuses(verdicts)).toEqual(statuses(judge(TAX_METADATA, originals(["1120-signed.pdf"]))));
    const complete = verdicts.find((verdict) => verdict.condition_id === "TR_COMPLETE");
    // Page 1 (the return) is cited from OCR, Schedule L on page 3 from its text layer.
    expect(complete?.citations.map((citation) => [citation.page, citation.source])).toEqual([
      [1, "ocr"],
      [3, undefined],
    ]);
  });

  it("a scan too degraded to read decides nothing and names the fields and pages it could not read", () => {
    const verdicts = judge(TAX_METADATA, scans(["1120-signed-illegible.pdf"]));
    for (const verdict of verdicts) {
      expect(verdict.status, verdict.condition_id).toBe("insufficient_evidence");
      expect(verdict.reason, verdict.condition_id).toMatch(
        /page \d of rm-conditions\/scanned\/1120-signed-illegible\.pdf was read by OCR at \d+% (mean )?confidence, below the 80% required/,
      );
      expect(verdict.remedies?.join(" "), verdict.condition_id).toMatch(/sharper scan/);
    }
    const ein = verdicts.find((verdict) => verdict.condition_id === "TR_EIN_MATCH");
    expect(ein?.missing?.join(" ")).toMatch(/\bein\b/);
  });
});
