// Textract's document analysis with the SIGNATURES feature: the asynchronous analysis API is called
// instead of text detection, and the SIGNATURE blocks it answers become the page's signatures, in PDF
// points like the words, so the document model holds them as it holds the offline reading's ink.
import { readFileSync } from "node:fs";
import {
  GetDocumentAnalysisCommand,
  type GetDocumentAnalysisCommandOutput,
  StartDocumentAnalysisCommand,
  StartDocumentTextDetectionCommand,
  TextractClient,
} from "@aws-sdk/client-textract";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, describe, expect, it } from "vitest";
import type { OcrRequest } from "../../../lambdas/tools/ocr/engine.ts";
import { createTextractEngine } from "../../../lambdas/tools/ocr/textract.ts";

const textract = mockClient(TextractClient);

const PAGE_SIZES = [
  { width: 612, height: 792 },
  { width: 595, height: 842 },
  { width: 612, height: 792 },
];

/** The recorded three-page answer (PAGE, LINE, WORD blocks) with a signature on page 1, as analysis returns it. */
function analysed(): GetDocumentAnalysisCommandOutput {
  const answers = [1, 2, 3].map(
    (n) =>
      JSON.parse(
        readFileSync(new URL(`./fixtures/scanned-return.get-${n}.json`, import.meta.url), "utf8"),
      ) as GetDocumentAnalysisCommandOutput,
  );
  const [first] = answers;
  return {
    $metadata: { httpStatusCode: 200 },
    JobStatus: "SUCCEEDED",
    ...(first?.DocumentMetadata ? { DocumentMetadata: first.DocumentMetadata } : {}),
    Blocks: [
      ...answers.flatMap((answer) => answer.Blocks ?? []),
      {
        BlockType: "SIGNATURE",
        Id: "sig-1",
        Page: 1,
        Confidence: 97.5,
        Geometry: { BoundingBox: { Left: 0.15, Top: 0.8, Width: 0.2, Height: 0.04 } },
      },
    ],
  };
}

const REQUEST: OcrRequest = {
  document: "scans/return.pdf",
  bytes: new Uint8Array(),
  location: { bucket: "documents", key: "scans/return.pdf" },
  pages: [1, 2, 3],
  pageSizes: PAGE_SIZES,
  requestToken: "run-1/scans/return.pdf",
};

beforeEach(() => textract.reset());

describe("Textract document analysis with SIGNATURES", () => {
  it("starts an analysis with the SIGNATURES feature, not a text detection", async () => {
    textract.on(StartDocumentAnalysisCommand).resolves({ JobId: "job-1" });
    textract.on(GetDocumentAnalysisCommand).resolves(analysed());
    const engine = createTextractEngine(new TextractClient({ region: "us-east-1" }), { signatures: true });
    await engine.recognize(REQUEST);
    expect(textract.commandCalls(StartDocumentTextDetectionCommand)).toHaveLength(0);
    const [start] = textract.commandCalls(StartDocumentAnalysisCommand);
    expect(start?.args[0].input.FeatureTypes).toEqual(["SIGNATURES"]);
    expect(start?.args[0].input.DocumentLocation?.S3Object).toEqual({
      Bucket: "documents",
      Name: "scans/return.pdf",
    });
  });

  it("places each SIGNATURE block on its page in points, and says every analysed page was looked at", async () => {
    textract.on(StartDocumentAnalysisCommand).resolves({ JobId: "job-1" });
    textract.on(GetDocumentAnalysisCommand).resolves(analysed());
    const engine = createTextractEngine(new TextractClient({ region: "us-east-1" }), { signatures: true });
    const result = await engine.recognize(REQUEST);
    const [one, two, three] = result.pages;
    expect(one?.signatures).toHaveLength(1);
    const signature = one?.signatures?.[0];
    expect(signature?.x).toBeCloseTo(0.15 * 612, 3);
    expect(signature?.right).toBeCloseTo(0.35 * 612, 3);
    expect(signature?.top).toBeCloseTo(0.2 * 792, 3);
    expect(signature?.y).toBeCloseTo(0.16 * 792, 3);
    expect(signature?.confidence).toBe(97.5);
    // Pages analysed without a signature were still looked at: an empty list, not none.
    expect(two?.signatures).toEqual([]);
    expect(three?.signatures).toEqual([]);
    expect(one?.lines.length).toBeGreaterThan(0);
  });
});
