// Scanned documents end to end in the twin: image-only PDFs in S3, the real state machine, the
// worker reading them with the twin's OCR engine (tesseract.js), verdicts and citations in the
// run's result. The OCR of a document runs once per run, shared by the steps that read it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateScannedSampleDocuments } from "../../examples/scanned.ts";
import type { Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  const bucket = twin.services.config.documentsBucket;
  for (const scan of await generateScannedSampleDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: scan.key }, scan.bytes, "application/pdf");
  }
}, 120_000);

afterAll(async () => {
  await twin?.stop();
});

async function evaluate(request: unknown): Promise<RunRecord> {
  const { run_id } = await twin.startRun(request);
  const run = await twin.waitForRun(run_id);
  expect(run.status, JSON.stringify(run.error)).toBe("SUCCEEDED");
  return run;
}

function conditions(run: RunRecord) {
  return [...(run.result?.fulfilled_conditions ?? []), ...(run.result?.unfulfilled_conditions ?? [])];
}

interface OcrSummary {
  engine: string;
  pages: number[];
  seconds: number;
  confidence: number;
}

describe("scanned documents in the twin", () => {
  it("a scanned, slightly rotated Form 1120 gets its original's five verdicts, each citation marked OCR", async () => {
    const run = await evaluate(taxReturnRequest(["rm-conditions/scanned/1120-signed.pdf"]));
    expect(run.result?.fulfilled_conditions.map((condition) => condition.id).sort()).toEqual([
      "TR_COMPLETE",
      "TR_EIN_MATCH",
      "TR_NAME_MATCH",
      "TR_SIGNED",
      "TR_TAX_YEAR",
    ]);
    for (const condition of conditions(run)) {
      expect(condition.citations?.length, condition.id).toBeGreaterThan(0);
      for (const citation of condition.citations ?? []) {
        expect(citation, condition.id).toMatchObject({
          document: "rm-conditions/scanned/1120-signed.pdf",
          source: "ocr",
          confidence: expect.any(Number),
        });
      }
    }
    // The evidence says how the document was read, and both steps that read it share one OCR.
    const retrieved = run.evidence.find((evidence) => evidence.tool === "retrieve_s3_document");
    const judged = run.evidence.find((evidence) => evidence.tool === "call_conditions_ai_api");
    const retrievedOcr = (retrieved?.output as { ocr?: OcrSummary } | undefined)?.ocr;
    const judgedOcr = (judged?.output as { documents?: Array<{ ocr?: OcrSummary }> } | undefined)
      ?.documents?.[0]?.ocr;
    expect(retrievedOcr).toMatchObject({ engine: "tesseract", pages: [1, 2, 3] });
    expect(retrievedOcr?.seconds).toBeGreaterThan(0);
    expect(judgedOcr).toEqual(retrievedOcr);
  });

  it("a scanned statement with an NSF fee is BS_NO_NSF: not_fulfilled, the fee's line cited", async () => {
    const run = await evaluate({
      metadata: {
        loan_program: "Flex Supreme",
        classification: "Bank Statements",
        as_of_date: "2025-04-15",
        borrower_info: { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 },
      },
      instructions: "Evaluate the bank statements",
      s3_pdf_paths: [
        "rm-conditions/scanned/statement-2025-02.pdf",
        "rm-conditions/scanned/statement-2025-03-nsf.pdf",
      ],
    });
    const nsf = run.result?.unfulfilled_conditions.find((condition) => condition.id === "BS_NO_NSF");
    expect(nsf?.status).toBe("not_fulfilled");
    expect(nsf?.citations).toEqual([
      expect.objectContaining({
        document: "rm-conditions/scanned/statement-2025-03-nsf.pdf",
        page: 1,
        excerpt: expect.stringMatching(/NSF Fee - Returned Check #1043\s+-35\.00/),
        source: "ocr",
      }),
    ]);
    expect(run.result?.fulfilled_conditions.map((condition) => condition.id).sort()).toEqual([
      "BS_LARGE_DEPOSITS",
      "BS_NAME_MATCH",
      "BS_SAME_ACCOUNT",
      "BS_TWO_MONTHS",
    ]);
  });
});
