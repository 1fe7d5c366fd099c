// Amazon Textract's asynchronous text detection as the OCR engine, against responses of the real
// API's shape (fixtures/scanned-return.get-*.json: a three-page scanned return, PAGE, LINE and WORD
// blocks with their geometry, relationships, confidence and page, split over three paginated
// answers the way Textract splits them, a line's words arriving in the next answer).
import { readFileSync } from "node:fs";
import {
  GetDocumentTextDetectionCommand,
  type GetDocumentTextDetectionCommandOutput,
  InvalidS3ObjectException,
  ProvisionedThroughputExceededException,
  StartDocumentTextDetectionCommand,
  TextractClient,
} from "@aws-sdk/client-textract";
import { mockClient } from "aws-sdk-client-mock";
import { allCustomMatcher } from "aws-sdk-client-mock-vitest";
import type {} from "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import {
  OcrDocumentError,
  OcrPendingError,
  type OcrRequest,
  type OcrWord,
} from "../../../lambdas/tools/ocr/engine.ts";
import {
  clientRequestTokenFor,
  createTextractEngine,
  type TextractEngineOptions,
  UnexpectedTextractResponseError,
} from "../../../lambdas/tools/ocr/textract.ts";

expect.extend(allCustomMatcher);

const textract = mockClient(TextractClient);
const JOB_ID = "8a3cc3a4d0f09d3fb2c1a0c5e1f1d0b26c0c4c0d8e5d1c2b7a6f9e8d7c6b5a41";

function recorded(n: 1 | 2 | 3): GetDocumentTextDetectionCommandOutput {
  return JSON.parse(
    readFileSync(new URL(`./fixtures/scanned-return.get-${n}.json`, import.meta.url), "utf8"),
  ) as GetDocumentTextDetectionCommandOutput;
}

/** The same job in one answer (as if it fitted in 1,000 blocks): no NextToken. */
function oneAnswer(): GetDocumentTextDetectionCommandOutput {
  const { NextToken: _next, ...first } = recorded(1);
  return { ...first, Blocks: [1, 2, 3].flatMap((n) => recorded(n as 1 | 2 | 3).Blocks ?? []) };
}

const IN_PROGRESS = {
  $metadata: { httpStatusCode: 200 },
  JobStatus: "IN_PROGRESS",
} satisfies GetDocumentTextDetectionCommandOutput;

/** Letter pages, points; page 2 is A4 to show each page is placed on its own size. */
const PAGE_SIZES = [
  { width: 612, height: 792 },
  { width: 595, height: 842 },
  { width: 612, height: 792 },
];

function request(overrides: Partial<OcrRequest> = {}): OcrRequest {
  return {
    document: "s3://loan-docs/rm-conditions/return-scan.pdf",
    bytes: new Uint8Array(),
    location: { bucket: "loan-docs", key: "rm-conditions/return-scan.pdf" },
    pages: [1, 2, 3],
    pageSizes: PAGE_SIZES,
    requestToken: "run-01JQ7Z6N4T:s3://loan-docs/rm-conditions/return-scan.pdf",
    ...overrides,
  };
}

/** Pauses are recorded, not waited: the tests count them and add them up, they never measure time. */
function engine(options: TextractEngineOptions = {}) {
  const pauses: number[] = [];
  const built = createTextractEngine(new TextractClient({ region: "us-east-1" }), {
    sleep: async (ms) => {
      pauses.push(ms);
    },
    ...options,
  });
  return { engine: built, pauses };
}

function succeedsWithThreeAnswers() {
  textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
  textract
    .on(GetDocumentTextDetectionCommand)
    .resolves(recorded(1))
    .on(GetDocumentTextDetectionCommand, { JobId: JOB_ID, NextToken: recorded(1).NextToken })
    .resolves(recorded(2))
    .on(GetDocumentTextDetectionCommand, { JobId: JOB_ID, NextToken: recorded(2).NextToken })
    .resolves(recorded(3));
}

const texts = (words: OcrWord[]) => words.map((word) => word.text).join(" ");

describe("the Textract OCR engine", () => {
  beforeEach(() => textract.reset());

  it("reads a finished multi-page job across its paginated answers: every line on its page, in reading order", async () => {
    succeedsWithThreeAnswers();
    const result = await engine().engine.recognize(request());

    expect(result.engine).toBe("textract");
    expect(result.pages.map((page) => page.page)).toEqual([1, 2, 3]);
    expect(result.pages.map((page) => page.lines.map((line) => texts(line.words)))).toEqual([
      [
        "Form 1120 U.S. Corporation Income Tax Return",
        "Name Acme Widgets Inc",
        "Employer identification number",
        "12-3456789",
      ],
      ["Schedule L Balance Sheets per Books"],
      ["Sign Here", "Jane Doe 03/15/2025 President"],
    ]);
    // One start, then the first answer and the two its NextTokens lead to, each asking for 1,000 blocks.
    expect(textract).toHaveReceivedCommandTimes(StartDocumentTextDetectionCommand, 1);
    expect(textract).toHaveReceivedCommandTimes(GetDocumentTextDetectionCommand, 3);
    expect(textract).toHaveReceivedNthCommandWith(GetDocumentTextDetectionCommand, 3, {
      JobId: JOB_ID,
      MaxResults: 1000,
      NextToken: recorded(2).NextToken,
    });
  });

  it("places each word in PDF points from the page's bottom left, with Textract's confidence", async () => {
    succeedsWithThreeAnswers();
    const result = await engine().engine.recognize(request());

    // BoundingBox {Left 0.5, Top 0.25, Width 0.2, Height 0.0125} on a 612 × 792 page.
    const ein = result.pages[0]?.lines[3]?.words[0];
    expect(ein?.text).toBe("12-3456789");
    expect(ein?.x).toBeCloseTo(306, 6);
    expect(ein?.y).toBeCloseTo(792 * (1 - 0.25 - 0.0125), 6);
    expect(ein?.width).toBeCloseTo(122.4, 6);
    expect(ein?.height).toBeCloseTo(9.9, 6);
    expect(ein?.confidence).toBe(96.5);

    // Page 3: {Left 0.25, Top 0.8, Width 0.05, Height 0.02} and {Left 0.305, …}: bottom at 0.82.
    const [jane, doe] = result.pages[2]?.lines[1]?.words ?? [];
    expect(jane).toMatchObject({ text: "Jane", confidence: 91.25 });
    expect(jane?.x).toBeCloseTo(153, 6);
    expect(jane?.y).toBeCloseTo(792 * 0.18, 6);
    expect(doe).toMatchObject({ text: "Doe", confidence: 62.5 });
    expect(doe?.x).toBeCloseTo(186.66, 6);
    expect(doe?.x).toBeGreaterThan((jane?.x ?? 0) + (jane?.width ?? 0));

    // The A4 page is placed on its own size: the heading's top sits about 5 % below the top edge.
    const schedule = result.pages[1]?.lines[0]?.words[0];
    expect(schedule?.text).toBe("Schedule");
    expect((schedule?.y ?? 0) + (schedule?.height ?? 0)).toBeCloseTo(842 * (1 - 0.0502), 1);
    expect(schedule?.x).toBeCloseTo(595 * 0.0731, 1);
  });

  it("returns only the pages asked for, in the order asked, and an empty page past the document's end", async () => {
    succeedsWithThreeAnswers();
    const result = await engine().engine.recognize(
      request({ pages: [3, 1, 4], pageSizes: [...PAGE_SIZES, PAGE_SIZES[0] as never] }),
    );

    expect(result.pages.map((page) => page.page)).toEqual([3, 1, 4]);
    expect(result.pages[0]?.lines.map((line) => texts(line.words))).toEqual([
      "Sign Here",
      "Jane Doe 03/15/2025 President",
    ]);
    expect(result.pages[1]?.lines).toHaveLength(4);
    expect(result.pages[2]?.lines).toEqual([]);
    const everyWord = result.pages.flatMap((page) => page.lines.flatMap((line) => texts(line.words)));
    expect(everyWord.join(" ")).not.toContain("Schedule");
  });

  it("starts the job over the S3 object with a token Textract accepts, the same for the same read", async () => {
    succeedsWithThreeAnswers();
    const { engine: ocr } = engine();
    await ocr.recognize(request());
    await ocr.recognize(request());
    await ocr.recognize(
      request({ requestToken: "run-01JQ7Z9XYZ:s3://loan-docs/rm-conditions/return-scan.pdf" }),
    );

    const starts = textract.commandCalls(StartDocumentTextDetectionCommand).map((call) => call.args[0].input);
    expect(starts[0]?.DocumentLocation).toEqual({
      S3Object: { Bucket: "loan-docs", Name: "rm-conditions/return-scan.pdf" },
    });
    const tokens = starts.map((input) => input.ClientRequestToken);
    expect(tokens[0]).toMatch(/^[a-zA-Z0-9-_]{1,64}$/);
    expect(tokens[1]).toBe(tokens[0]);
    expect(tokens[2]).not.toBe(tokens[0]);
    expect(tokens[0]).toBe(clientRequestTokenFor(request()));
    // Another object under the same request token is another job, never a parameter mismatch.
    expect(
      clientRequestTokenFor(request({ location: { bucket: "loan-docs", key: "rm-conditions/other.pdf" } })),
    ).not.toBe(tokens[0]);
  });

  it("polls a running job with growing pauses until it finishes", async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
    textract
      .on(GetDocumentTextDetectionCommand)
      .resolvesOnce(IN_PROGRESS)
      .resolvesOnce(IN_PROGRESS)
      .resolvesOnce(IN_PROGRESS)
      .resolves(oneAnswer());
    const { engine: ocr, pauses } = engine({ firstPollIntervalMs: 1_000, maxPollIntervalMs: 2_000 });
    const result = await ocr.recognize(request({ pages: [3] }));

    expect(result.pages[0]?.lines).toHaveLength(2);
    expect(textract).toHaveReceivedCommandTimes(GetDocumentTextDetectionCommand, 4);
    expect(pauses).toEqual([1_000, 1_500, 2_000]);
  });

  it("throws OcrPending, naming the job, when the job is still running at the deadline minus the margin", async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
    textract.on(GetDocumentTextDetectionCommand).resolves(IN_PROGRESS);
    // A simulated clock: the invocation has 40 s left, and only the engine's pauses pass.
    let remaining = 40_000;
    const { engine: ocr, pauses } = engine({
      deadline: () => remaining,
      safetyMarginMs: 15_000,
      maxWaitMs: 60_000,
      sleep: async (ms) => {
        pauses.push(ms);
        remaining -= ms;
      },
    });

    const error = await ocr.recognize(request()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OcrPendingError);
    expect(error).toMatchObject({ name: "OcrPending", jobId: JOB_ID, document: request().document });
    // It waited right up to the margin and not a millisecond into it.
    expect(pauses.reduce((sum, ms) => sum + ms, 0)).toBe(25_000);
    expect(remaining).toBe(15_000);
  });

  it("does not wait at all when the invocation is already inside its margin, and hands the wait over after maxWaitMs", async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
    textract.on(GetDocumentTextDetectionCommand).resolves(IN_PROGRESS);

    const late = engine({ deadline: () => 9_000, safetyMarginMs: 10_000 });
    await expect(late.engine.recognize(request())).rejects.toThrow(OcrPendingError);
    expect(late.pauses).toEqual([]);
    expect(textract).toHaveReceivedCommandTimes(GetDocumentTextDetectionCommand, 1);

    const patient = engine({ maxWaitMs: 10_000, maxPollIntervalMs: 5_000 });
    await expect(patient.engine.recognize(request())).rejects.toThrow(
      `OCR of ${request().document} is still running (job ${JOB_ID})`,
    );
    expect(patient.pauses.reduce((sum, ms) => sum + ms, 0)).toBe(10_000);
  });

  it("reports a FAILED job as the document's own problem, with Textract's reason", async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
    textract.on(GetDocumentTextDetectionCommand).resolves({
      $metadata: { httpStatusCode: 200 },
      JobStatus: "FAILED",
      StatusMessage: "Request has unsupported document format",
    });

    const error = await engine()
      .engine.recognize(request())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OcrDocumentError);
    expect(error).toMatchObject({ document: request().document });
    expect((error as Error).message).toBe(
      `Textract could not read ${request().document}: Request has unsupported document format (job ${JOB_ID})`,
    );
  });

  it("turns Textract's refusal of the object into OcrDocumentError, and rethrows throttling untouched for the retries", async () => {
    textract.on(StartDocumentTextDetectionCommand).rejects(
      new InvalidS3ObjectException({
        message: "Unable to get object metadata from S3. Check object key, region and/or access permissions.",
        $metadata: {},
      }),
    );
    const refused = await engine()
      .engine.recognize(request())
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(OcrDocumentError);
    expect((refused as Error).message).toContain(
      "Textract could not read s3://loan-docs/rm-conditions/return-scan.pdf",
    );
    expect((refused as Error).message).toContain("InvalidS3ObjectException");

    textract.reset();
    const throttled = new ProvisionedThroughputExceededException({
      message: "Provisioned rate exceeded",
      $metadata: { httpStatusCode: 400 },
    });
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
    textract.on(GetDocumentTextDetectionCommand).rejects(throttled);
    await expect(engine().engine.recognize(request())).rejects.toBe(throttled);
  });

  it("uses what a PARTIAL_SUCCESS job read and passes its warnings on", async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
    textract.on(GetDocumentTextDetectionCommand).resolves({
      ...oneAnswer(),
      JobStatus: "PARTIAL_SUCCESS",
      Warnings: [{ ErrorCode: "UNSUPPORTED_PAGE_SIZE", Pages: [2] }],
    });
    const warnings: string[] = [];
    const result = await engine({ onWarning: (message) => warnings.push(message) }).engine.recognize(
      request({ pages: [2, 3] }),
    );

    expect(result.pages.map((page) => page.lines.length)).toEqual([1, 2]);
    expect(warnings).toEqual([
      `Textract read ${request().document} only in part (PARTIAL_SUCCESS): UNSUPPORTED_PAGE_SIZE on page 2`,
    ]);
  });

  it("names what was unexpected in an answer of another shape", async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
    const answer = oneAnswer();
    const blocks = answer.Blocks ?? [];
    const doe = blocks.findIndex((block) => block.Text === "Doe");
    const { Confidence: _dropped, ...withoutConfidence } = blocks[doe] ?? {};
    blocks[doe] = withoutConfidence;
    textract.on(GetDocumentTextDetectionCommand).resolves({ ...answer, Blocks: blocks });

    const error = await engine()
      .engine.recognize(request({ pages: [3] }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnexpectedTextractResponseError);
    expect((error as Error).message).toMatch(
      /^GetDocumentTextDetection for s3:\/\/loan-docs\/rm-conditions\/return-scan\.pdf answered in an unexpected shape: Blocks\[34\] \(WORD\)\.Confidence: /,
    );

    // Paginated, the block is named within its answer.
    textract.reset();
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
    const second = recorded(2);
    const widgets = (second.Blocks ?? []).find((block) => block.Text === "Widgets");
    if (widgets?.Geometry?.BoundingBox) widgets.Geometry.BoundingBox.Left = "0.19" as never;
    textract
      .on(GetDocumentTextDetectionCommand)
      .resolves(recorded(1))
      .on(GetDocumentTextDetectionCommand, { JobId: JOB_ID, NextToken: recorded(1).NextToken })
      .resolves(second)
      .on(GetDocumentTextDetectionCommand, { JobId: JOB_ID, NextToken: recorded(2).NextToken })
      .resolves(recorded(3));
    await expect(engine().engine.recognize(request())).rejects.toThrow(
      /answer 2: Blocks\[0\] \(WORD\)\.Geometry\.BoundingBox\.Left: /,
    );

    textract.reset();
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: JOB_ID });
    textract.on(GetDocumentTextDetectionCommand).resolves({ $metadata: {}, JobStatus: "DONE" as never });
    await expect(engine().engine.recognize(request())).rejects.toThrow(/JobStatus: /);
  });
});
