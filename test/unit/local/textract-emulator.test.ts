// The twin's Textract emulator, spoken to by the real @aws-sdk/client-textract over HTTP as AWS is:
// idempotent job starts, the errors the SDK raises by name, IN_PROGRESS while reading, the blocks of
// a real tesseract read of the scanned Form 1120 paged with NextToken, their geometry and relations,
// and the worker's own engine (select.ts) reading through it with no credentials configured.

import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import {
  DetectDocumentTextCommand,
  GetDocumentAnalysisCommand,
  GetDocumentTextDetectionCommand,
  type GetDocumentTextDetectionCommandOutput,
  IdempotentParameterMismatchException,
  InvalidJobIdException,
  InvalidParameterException,
  InvalidS3ObjectException,
  StartDocumentAnalysisCommand,
  StartDocumentTextDetectionCommand,
  TextractClient,
  TextractServiceException,
} from "@aws-sdk/client-textract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateScannedSampleDocuments } from "../../../examples/scanned.ts";
import { type Emulators, startEmulators } from "../../../infra/local/emulators.ts";
import { localS3ClientConfig, provisionResources } from "../../../infra/local/provision.ts";
import {
  startTextractEmulator,
  type TextractBlock,
  type TextractEmulator,
  toBlocks,
} from "../../../infra/local/textract-emulator.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import type { OcrEngine } from "../../../lambdas/tools/ocr/engine.ts";
import { ocrEngineFor } from "../../../lambdas/tools/ocr/select.ts";
import { createTesseractEngine } from "../../../lambdas/tools/ocr/tesseract.ts";
import { clientRequestTokenFor } from "../../../lambdas/tools/ocr/textract.ts";

const REGION = "us-east-1";
const BUCKET = "rewoo-documents";
const RETURN_KEY = "rm-conditions/scanned/1120-signed.pdf";
const NOTES_KEY = "notes/readme.txt";
const PNG_KEY = "notes/photo.png";
const LETTER = { width: 612, height: 792 };
/** What the worker's reader passes as the request token for this document in run run-1. */
const READ = {
  requestToken: `run-1|s3://${BUCKET}/${RETURN_KEY}`,
  location: { bucket: BUCKET, key: RETURN_KEY },
};

let storage: Emulators;
let s3: S3Client;
let emulator: TextractEmulator;
let textract: TextractClient;
let returnBytes: Uint8Array;
/** Opened once the first test has seen the return's job IN_PROGRESS: the read is held until then. */
let releaseRead: () => void = () => undefined;
const readReleased = new Promise<void>((resolve) => {
  releaseRead = resolve;
});

beforeAll(async () => {
  storage = await startEmulators({ dataDir: "/nonexistent-because-not-persisted", persist: false });
  await provisionResources({
    dynamodbEndpoint: storage.dynamodbEndpoint,
    s3Endpoint: storage.s3Endpoint,
    region: REGION,
    runsTable: "rewoo-runs",
    connectionsTable: "rewoo-connections",
    buckets: [BUCKET],
  });
  s3 = new S3Client(localS3ClientConfig(storage.s3Endpoint, REGION));
  const scan = (await generateScannedSampleDocuments()).find((document) => document.key === RETURN_KEY);
  if (!scan) throw new Error(`no scanned sample ${RETURN_KEY}`);
  returnBytes = scan.bytes;
  const put = (key: string, body: Uint8Array | string, type: string) =>
    s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentType: type }));
  await put(RETURN_KEY, returnBytes, "application/pdf");
  await put(NOTES_KEY, "Loan notes: call the borrower on Monday.\n", "text/plain");
  await put(
    PNG_KEY,
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
    "image/png",
  );
  // The real tesseract engine, held at the door until the first test has seen a job still running.
  const tesseract = createTesseractEngine();
  const held: OcrEngine = {
    name: "tesseract",
    recognize: async (request) => {
      await readReleased;
      return tesseract.recognize(request);
    },
  };
  emulator = await startTextractEmulator({ s3, ocr: held });
  textract = new TextractClient({
    region: REGION,
    endpoint: emulator.endpoint,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
    maxAttempts: 1,
  });
}, 120_000);

afterAll(async () => {
  releaseRead();
  textract?.destroy();
  await emulator?.stop();
  s3?.destroy();
  await storage?.stop();
});

const start = (key: string, token?: string) =>
  textract.send(
    new StartDocumentTextDetectionCommand({
      DocumentLocation: { S3Object: { Bucket: BUCKET, Name: key } },
      ...(token ? { ClientRequestToken: token } : {}),
    }),
  );
const get = (JobId: string, extra: { MaxResults?: number; NextToken?: string } = {}) =>
  textract.send(new GetDocumentTextDetectionCommand({ JobId, ...extra }));
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error as TextractServiceException,
  );

/** Every answer of a finished job, following NextToken from the first. */
async function allAnswers(
  jobId: string,
  maxResults?: number,
): Promise<GetDocumentTextDetectionCommandOutput[]> {
  const answers = [await get(jobId, maxResults ? { MaxResults: maxResults } : {})];
  for (let next = answers[0]?.NextToken; next; next = answers.at(-1)?.NextToken) {
    answers.push(await get(jobId, { NextToken: next, ...(maxResults ? { MaxResults: maxResults } : {}) }));
  }
  return answers;
}

let returnJob: Promise<string> | undefined;
/** The return's job, started with the token the worker's engine derives for run-1 (so it finds it too). */
const returnJobId = () => {
  returnJob ??= start(RETURN_KEY, clientRequestTokenFor(READ)).then((answer) => answer.JobId as string);
  return returnJob;
};

let finished: Promise<TextractBlock[]> | undefined;
/** The return's blocks once read, in one answer (they fit in 1,000). */
const returnBlocks = () => {
  finished ??= (async () => {
    const jobId = await returnJobId();
    releaseRead();
    await emulator.idle();
    const answers = await allAnswers(jobId);
    return answers.flatMap((answer) => answer.Blocks ?? []) as TextractBlock[];
  })();
  return finished;
};

describe("the Textract emulator, through the real Textract client", () => {
  // The first job OCRs the three-page scan (tesseract, a worker thread): minutes, not seconds, when the
  // machine's cores are shared with other suites, so this test allows more than the default minute.
  it("answers IN_PROGRESS while the document is being read, then SUCCEEDED with every page", {
    timeout: 240_000,
  }, async () => {
    const jobId = await returnJobId();
    expect(jobId).toMatch(/^[0-9a-f]{64}$/);
    const running = await get(jobId);
    expect(running.JobStatus).toBe("IN_PROGRESS");
    expect(running.Blocks).toBeUndefined();

    const blocks = await returnBlocks();
    const done = await get(jobId);
    expect(done.JobStatus).toBe("SUCCEEDED");
    expect(done.DocumentMetadata).toEqual({ Pages: 3 });
    expect(done.DetectDocumentTextModelVersion).toBe("1.0");
    // Textract reads every page of a PDF: one PAGE block each, numbered 1 to 3.
    expect(blocks.filter((block) => block.BlockType === "PAGE").map((block) => block.Page)).toEqual([
      1, 2, 3,
    ]);
    expect(emulator.jobs().find((job) => job.jobId === jobId)).toMatchObject({
      key: RETURN_KEY,
      status: "SUCCEEDED",
      pages: 3,
      blocks: blocks.length,
    });
  });

  it("pages the blocks with NextToken, honouring MaxResults: every block exactly once, in order", async () => {
    const jobId = await returnJobId();
    const blocks = await returnBlocks();
    // The return reads as several hundred blocks: one answer of the default 1,000, many of 50.
    expect(blocks.length).toBeGreaterThan(300);
    expect(blocks.length).toBeLessThan(1000);
    const answers = await allAnswers(jobId, 50);
    expect(answers).toHaveLength(Math.ceil(blocks.length / 50));
    for (const [index, answer] of answers.entries()) {
      expect(answer.JobStatus).toBe("SUCCEEDED");
      expect(answer.DocumentMetadata?.Pages).toBe(3);
      expect(answer.Blocks?.length).toBe(index < answers.length - 1 ? 50 : blocks.length - 50 * index);
      expect(Boolean(answer.NextToken)).toBe(index < answers.length - 1);
    }
    const paged = answers.flatMap((answer) => answer.Blocks ?? []).map((block) => block.Id);
    expect(paged).toEqual(blocks.map((block) => block.Id));
    expect(new Set(paged).size).toBe(blocks.length);

    // A NextToken is the job's own: another job's, or a made-up one, is refused.
    const other = await start(NOTES_KEY);
    const stolen = await failure(get(other.JobId as string, { NextToken: answers[0]?.NextToken as string }));
    expect(stolen).toBeInstanceOf(InvalidParameterException);
    expect(await failure(get(jobId, { NextToken: "not-a-token" }))).toBeInstanceOf(InvalidParameterException);
    expect(await failure(get(jobId, { MaxResults: 0 }))).toBeInstanceOf(InvalidParameterException);
  });

  it("gives PAGE, LINE and WORD blocks Textract's geometry and CHILD relationships, with the scan's text", async () => {
    const blocks = await returnBlocks();
    const byId = new Map(blocks.map((block) => [block.Id, block]));
    expect(byId.size).toBe(blocks.length);
    for (const block of blocks) {
      const box = block.Geometry.BoundingBox;
      for (const value of [box.Left, box.Top, box.Width, box.Height]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      expect(box.Left + box.Width).toBeLessThanOrEqual(1 + 1e-12);
      expect(box.Top + box.Height).toBeLessThanOrEqual(1 + 1e-12);
      // The polygon is the box's corners, clockwise from the top left.
      expect(block.Geometry.Polygon.map((point) => [point.X, point.Y])).toEqual([
        [box.Left, box.Top],
        [box.Left + box.Width, box.Top],
        [box.Left + box.Width, box.Top + box.Height],
        [box.Left, box.Top + box.Height],
      ]);
      if (block.BlockType !== "PAGE") {
        expect(block.Confidence).toBeGreaterThanOrEqual(0);
        expect(block.Confidence).toBeLessThanOrEqual(100);
        expect(block.Text?.trim()).not.toBe("");
      }
    }
    const children = (block: TextractBlock) =>
      (block.Relationships ?? [])
        .filter((relation) => relation.Type === "CHILD")
        .flatMap((relation) => relation.Ids);
    const lines = blocks.filter((block) => block.BlockType === "LINE");
    const words = blocks.filter((block) => block.BlockType === "WORD");
    // Each page's PAGE block names exactly its LINEs, in the order they are listed.
    for (const page of blocks.filter((block) => block.BlockType === "PAGE")) {
      expect(children(page)).toEqual(lines.filter((line) => line.Page === page.Page).map((line) => line.Id));
    }
    // Each LINE names WORDs of its page, its text is theirs joined, its box holds theirs; every WORD
    // belongs to exactly one LINE.
    const owners = new Map<string, string>();
    for (const line of lines) {
      const lineWords = children(line).map((id) => byId.get(id));
      expect(lineWords.length).toBeGreaterThan(0);
      for (const word of lineWords) {
        expect(word?.BlockType).toBe("WORD");
        expect(word?.Page).toBe(line.Page);
        expect(owners.has(word?.Id as string)).toBe(false);
        owners.set(word?.Id as string, line.Id);
        const inner = word?.Geometry.BoundingBox;
        const outer = line.Geometry.BoundingBox;
        expect(inner?.Left).toBeGreaterThanOrEqual(outer.Left);
        expect(inner?.Top).toBeGreaterThanOrEqual(outer.Top);
        expect((inner?.Left ?? 0) + (inner?.Width ?? 0)).toBeLessThanOrEqual(
          outer.Left + outer.Width + 1e-12,
        );
        expect((inner?.Top ?? 0) + (inner?.Height ?? 0)).toBeLessThanOrEqual(
          outer.Top + outer.Height + 1e-12,
        );
      }
      expect(line.Text).toBe(lineWords.map((word) => word?.Text).join(" "));
    }
    expect(owners.size).toBe(words.length);
    // What the scan says, read by OCR: the form, the corporation, its EIN, Schedule L, the signature block.
    const text = (page: number) =>
      lines
        .filter((line) => line.Page === page)
        .map((line) => line.Text)
        .join("\n");
    expect(text(1)).toMatch(/Form 1120/);
    expect(text(1)).toMatch(/Acme Widgets, Inc\./);
    expect(text(1)).toMatch(/12-3456789/);
    expect(`${text(2)}\n${text(3)}`).toMatch(/Schedule L/);
    // The heading is near the top of page 1: Textract's origin is the top left.
    const heading = lines.find((line) => line.Page === 1 && /Form 1120/.test(line.Text ?? ""));
    expect(heading?.Geometry.BoundingBox.Top).toBeLessThan(0.2);
  });

  it("returns the same job for the same ClientRequestToken, another for another token or none", async () => {
    const before = emulator.startedJobs;
    const first = await start(NOTES_KEY, "loan-42-notes");
    const again = await start(NOTES_KEY, "loan-42-notes");
    const other = await start(NOTES_KEY, "loan-43-notes");
    expect(again.JobId).toBe(first.JobId);
    expect(other.JobId).not.toBe(first.JobId);
    // Without a token every call is a job of its own.
    const [a, b] = [await start(NOTES_KEY), await start(NOTES_KEY)];
    expect(a.JobId).not.toBe(b.JobId);
    expect(emulator.startedJobs - before).toBe(4);
    expect(emulator.jobs().find((job) => job.jobId === first.JobId)).toMatchObject({
      clientRequestToken: "loan-42-notes",
      startRequests: 2,
    });
    // A token reused for another document is refused, as Textract refuses it.
    const mismatch = await failure(start(RETURN_KEY, "loan-42-notes"));
    expect(mismatch).toBeInstanceOf(IdempotentParameterMismatchException);
    expect(mismatch.$metadata.httpStatusCode).toBe(400);
  });

  it("refuses what Textract refuses, each as the exception the SDK names", async () => {
    const missing = await failure(start("rm-conditions/no-such-file.pdf", "missing-file"));
    expect(missing).toBeInstanceOf(InvalidS3ObjectException);
    expect(missing.name).toBe("InvalidS3ObjectException");
    expect(missing.$metadata.httpStatusCode).toBe(400);
    expect(missing.message).toMatch(/Unable to get object metadata from S3/);
    const noBucket = await failure(
      textract.send(
        new StartDocumentTextDetectionCommand({
          DocumentLocation: { S3Object: { Bucket: "no-such-bucket", Name: RETURN_KEY } },
        }),
      ),
    );
    expect(noBucket).toBeInstanceOf(InvalidS3ObjectException);
    // A token outside [a-zA-Z0-9-_]{1,64}, a missing location, an SNS channel the emulator cannot serve.
    expect(await failure(start(NOTES_KEY, "run 1/scan.pdf"))).toBeInstanceOf(InvalidParameterException);
    expect(await failure(start(NOTES_KEY, "x".repeat(65)))).toBeInstanceOf(InvalidParameterException);
    const noLocation = await failure(
      textract.send(new StartDocumentTextDetectionCommand({ DocumentLocation: undefined as never })),
    );
    expect(noLocation).toBeInstanceOf(InvalidParameterException);
    expect(noLocation.message).toMatch(/DocumentLocation is required/);
    const notified = await failure(
      textract.send(
        new StartDocumentTextDetectionCommand({
          DocumentLocation: { S3Object: { Bucket: BUCKET, Name: NOTES_KEY } },
          NotificationChannel: {
            SNSTopicArn: "arn:aws:sns:us-east-1:123456789012:t",
            RoleArn: "arn:aws:iam::1:role/r",
          },
        }),
      ),
    );
    expect(notified).toBeInstanceOf(InvalidParameterException);
    const unknownJob = await failure(get("0".repeat(64)));
    expect(unknownJob).toBeInstanceOf(InvalidJobIdException);
    expect(unknownJob.$metadata.httpStatusCode).toBe(400);
    // An operation the emulator does not serve says so rather than answering something else.
    const detect = await failure(
      textract.send(
        new DetectDocumentTextCommand({ Document: { Bytes: new Uint8Array([0x25, 0x50, 0x44, 0x46]) } }),
      ),
    );
    expect(detect).toBeInstanceOf(TextractServiceException);
    expect(detect.name).toBe("UnknownOperationException");
  });

  it("serves document analysis with SIGNATURES, FORMS and TABLES, refuses the features it cannot answer, and keeps the two APIs' jobs apart", async () => {
    const refused = await failure(
      textract.send(
        new StartDocumentAnalysisCommand({
          DocumentLocation: { S3Object: { Bucket: BUCKET, Name: NOTES_KEY } },
          FeatureTypes: ["SIGNATURES", "QUERIES"],
        }),
      ),
    );
    expect(refused).toBeInstanceOf(InvalidParameterException);
    expect(refused.message).toContain(
      "FeatureTypes QUERIES: the local Textract emulator analyses SIGNATURES, FORMS, TABLES only",
    );
    const analysis = await textract.send(
      new StartDocumentAnalysisCommand({
        DocumentLocation: { S3Object: { Bucket: BUCKET, Name: NOTES_KEY } },
        FeatureTypes: ["SIGNATURES"],
      }),
    );
    // A job of one API is unknown to the other's Get, as in Textract.
    expect(await failure(get(analysis.JobId as string))).toBeInstanceOf(InvalidJobIdException);
    await emulator.idle();
    const answer = await textract.send(new GetDocumentAnalysisCommand({ JobId: analysis.JobId }));
    expect(answer.JobStatus).toBe("FAILED");
    expect(answer.AnalyzeDocumentModelVersion).toBeDefined();
  });

  it("answers an analysis's handwriting as SIGNATURE blocks on their page, in Textract's geometry", () => {
    const page = {
      page: 1,
      lines: [{ words: [{ text: "Signature", x: 74, y: 126, width: 40, height: 8, confidence: 95 }] }],
      signatures: [{ x: 100, y: 132, right: 190, top: 160, confidence: 88, source: "ink" as const }],
    };
    const size = [{ width: 612, height: 792 }];
    expect(toBlocks([page], size).some((block) => block.BlockType === "SIGNATURE")).toBe(false);
    const signature = toBlocks([page], size, { signatures: true }).find(
      (block) => block.BlockType === "SIGNATURE",
    );
    expect(signature?.Page).toBe(1);
    expect(signature?.Confidence).toBe(88);
    const box = signature?.Geometry.BoundingBox;
    expect(box?.Left).toBeCloseTo(100 / 612, 6);
    expect(box?.Width).toBeCloseTo(90 / 612, 6);
    expect(box?.Top).toBeCloseTo(1 - 160 / 792, 6);
    expect(box?.Height).toBeCloseTo(28 / 792, 6);
  });

  it("fails a job whose object is not a PDF (FAILED, with why), after the IN_PROGRESS answers it was told to hold", async () => {
    emulator.setMinInProgress({ getCalls: 2 });
    const notes = await start(NOTES_KEY, "hold-two-gets");
    emulator.setMinInProgress({});
    const photo = await start(PNG_KEY, "png-photo");
    await emulator.idle();
    // Read (failed) already, yet held for its first two answers; the job started after the reset is not.
    expect(emulator.jobs().find((job) => job.jobId === notes.JobId)?.status).toBe("FAILED");
    expect((await get(notes.JobId as string)).JobStatus).toBe("IN_PROGRESS");
    expect((await get(notes.JobId as string)).JobStatus).toBe("IN_PROGRESS");
    const failed = await get(notes.JobId as string);
    expect(failed.JobStatus).toBe("FAILED");
    expect(failed.StatusMessage).toBe("Request has unsupported document format");
    expect(failed.Blocks).toBeUndefined();
    // Held until a promise settles: IN_PROGRESS however often it is asked, then its real state.
    let release: () => void = () => undefined;
    emulator.setMinInProgress({ until: new Promise<void>((resolve) => (release = resolve)) });
    const untilReleased = await start(NOTES_KEY, "hold-until-released");
    emulator.setMinInProgress({});
    await emulator.idle();
    for (let call = 0; call < 5; call++) {
      expect((await get(untilReleased.JobId as string)).JobStatus).toBe("IN_PROGRESS");
    }
    release();
    await Promise.resolve();
    expect((await get(untilReleased.JobId as string)).JobStatus).toBe("FAILED");
    // An image Textract itself would read: the emulator says it reads PDF only.
    const image = await get(photo.JobId as string);
    expect(image.JobStatus).toBe("FAILED");
    expect(image.StatusMessage).toMatch(/reads PDF only \(Textract itself also reads PNG\)/);
  });

  it("is what the worker's Textract engine reads in the twin: no credentials configured, the same job found again, words in PDF points", async () => {
    const jobId = await returnJobId();
    const blocks = await returnBlocks();
    const before = emulator.startedJobs;
    const engine = ocrEngineFor(
      parseConfig({
        RUNS_TABLE: "rewoo-runs",
        DOCUMENTS_BUCKET: BUCKET,
        ARTIFACTS_BUCKET: "rewoo-artifacts",
        REWOO_OCR_ENGINE: "textract",
        TEXTRACT_ENDPOINT: emulator.endpoint,
      }),
      { deadline: () => Number.POSITIVE_INFINITY },
    );
    const result = await engine?.recognize({
      document: RETURN_KEY,
      bytes: returnBytes,
      ...READ,
      pages: [1, 3],
      pageSizes: [LETTER, LETTER, LETTER],
    });
    // The engine's ClientRequestToken for run-1 is the one the first test started the job with.
    expect(emulator.startedJobs).toBe(before);
    expect(emulator.jobs().find((job) => job.jobId === jobId)?.startRequests).toBeGreaterThanOrEqual(2);
    expect(result?.engine).toBe("textract");
    expect(result?.pages.map((page) => page.page)).toEqual([1, 3]);
    const page1 = result?.pages[0]?.lines ?? [];
    expect(page1.map((line) => line.words.map((word) => word.text).join(" ")).join("\n")).toMatch(
      /12-3456789/,
    );
    // Back in PDF points from the bottom left: the EIN word where its block says, on a letter page.
    const einWord = page1.flatMap((line) => line.words).find((word) => word.text === "12-3456789");
    const einBlock = blocks.find(
      (block) => block.BlockType === "WORD" && block.Page === 1 && block.Text === "12-3456789",
    );
    const box = einBlock?.Geometry.BoundingBox;
    expect(einWord?.x).toBeCloseTo((box?.Left ?? Number.NaN) * LETTER.width, 6);
    expect(einWord?.y).toBeCloseTo((1 - (box?.Top ?? Number.NaN) - (box?.Height ?? 0)) * LETTER.height, 6);
    expect(einWord?.confidence).toBe(einBlock?.Confidence);
    for (const word of result?.pages.flatMap((page) => page.lines.flatMap((line) => line.words)) ?? []) {
      expect(word.x).toBeGreaterThanOrEqual(0);
      expect(word.x + word.width).toBeLessThanOrEqual(LETTER.width + 1e-9);
      expect(word.y).toBeGreaterThanOrEqual(0);
      expect(word.y + word.height).toBeLessThanOrEqual(LETTER.height + 1e-9);
    }
  });
});
