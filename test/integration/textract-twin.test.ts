// The deployed OCR path, offline: a twin whose worker reads scans with Amazon Textract
// (REWOO_OCR_ENGINE=textract), answered by the twin's Textract emulator. The worker's real Textract
// client starts an asynchronous job over the document's S3 object, polls it and pages through its
// blocks; a job still running past the worker's polling window fails the step as OcrPending, the
// Work state's Retry runs it again, and the retry finds the same job by its ClientRequestToken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateScannedSampleDocuments } from "../../examples/scanned.ts";
import type { TextractEmulator } from "../../infra/local/textract-emulator.ts";
import type { Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

const SCAN = "rm-conditions/scanned/1120-signed.pdf";

let twin: Twin;
let textract: TextractEmulator;

beforeAll(async () => {
  twin = await bootTwinWithSamples({ REWOO_OCR_ENGINE: "textract" });
  if (!twin.textract) throw new Error("the twin started no Textract emulator for REWOO_OCR_ENGINE=textract");
  textract = twin.textract;
  const scan = (await generateScannedSampleDocuments()).find((document) => document.key === SCAN);
  if (!scan) throw new Error(`no scanned sample ${SCAN}`);
  await twin.services.blobs.putBytes(
    { bucket: twin.services.config.documentsBucket, key: SCAN },
    scan.bytes,
    "application/pdf",
  );
}, 120_000);

afterAll(async () => {
  await twin?.stop();
});

async function evaluate(): Promise<{ run: RunRecord; executionArn: string }> {
  const { run_id, executionArn } = await twin.startRun(taxReturnRequest([SCAN]));
  const run = await twin.waitForRun(run_id);
  expect(run.status, JSON.stringify(run.error)).toBe("SUCCEEDED");
  return { run, executionArn };
}

function expectTheOriginalsVerdicts(run: RunRecord) {
  expect(run.result?.fulfilled_conditions.map((condition) => condition.id).sort()).toEqual([
    "TR_COMPLETE",
    "TR_EIN_MATCH",
    "TR_NAME_MATCH",
    "TR_SIGNED",
    "TR_TAX_YEAR",
  ]);
  for (const condition of run.result?.fulfilled_conditions ?? []) {
    expect(condition.citations?.length, condition.id).toBeGreaterThan(0);
    for (const citation of condition.citations ?? []) {
      expect(citation, condition.id).toMatchObject({
        document: SCAN,
        source: "ocr",
        confidence: expect.any(Number),
      });
    }
  }
}

interface OcrSummary {
  engine: string;
  pages: number[];
}

/** Resolves once the Work state has retried a step after OcrPending; throws if the execution ends first. */
async function untilWorkRetried(executionArn: string): Promise<void> {
  for (;;) {
    const history = twin.stepFunctions.history(executionArn);
    if (history.some((event) => event.type === "StateRetried" && event.stateName === "Work")) return;
    const { status } = twin.stepFunctions.describeExecution(executionArn);
    if (status !== "RUNNING") {
      const failures = history.filter((event) => event.type === "StateFailed").map((event) => event.error);
      throw new Error(
        `the execution ended ${status} before Work was retried (failed states: ${failures.join(", ")})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const jobsOfTheScan = () => textract.jobs().filter((job) => job.key === SCAN);
const newJobs = (before: Set<string>) => jobsOfTheScan().filter((job) => !before.has(job.jobId));

describe("Textract in the twin", () => {
  it("reads the scanned Form 1120 through the emulator: its original's five verdicts, OCR citations, one job", async () => {
    expect(process.env.TEXTRACT_ENDPOINT).toBe(textract.endpoint);
    const before = new Set(jobsOfTheScan().map((job) => job.jobId));
    const jobsStarted = textract.startedJobs;

    const { run } = await evaluate();

    expectTheOriginalsVerdicts(run);
    // Both steps that read the document report the one Textract read of its three scanned pages.
    const retrieved = run.evidence.find((evidence) => evidence.tool === "retrieve_s3_document");
    const judged = run.evidence.find((evidence) => evidence.tool === "call_conditions_ai_api");
    const retrievedOcr = (retrieved?.output as { ocr?: OcrSummary } | undefined)?.ocr;
    const judgedOcr = (judged?.output as { documents?: Array<{ ocr?: OcrSummary }> } | undefined)
      ?.documents?.[0]?.ocr;
    expect(retrievedOcr).toMatchObject({ engine: "textract", pages: [1, 2, 3] });
    expect(judgedOcr).toEqual(retrievedOcr);
    // One job for the document in this run, read in full.
    expect(textract.startedJobs - jobsStarted).toBe(1);
    expect(newJobs(before)).toEqual([
      expect.objectContaining({
        bucket: twin.services.config.documentsBucket,
        status: "SUCCEEDED",
        pages: 3,
      }),
    ]);
  }, 300_000);

  it("a job still running past the worker's polling window: OcrPending, the Work state's Retry, the same job, SUCCEEDED", async () => {
    const before = new Set(jobsOfTheScan().map((job) => job.jobId));
    const jobsStarted = textract.startedJobs;
    // The run's job answers IN_PROGRESS until the Work state has retried a step that found it running:
    // the engine gives up polling within its window (about 30 s) whatever that window is.
    let release: () => void = () => undefined;
    textract.setMinInProgress({ until: new Promise<void>((resolve) => (release = resolve)) });
    let run: RunRecord;
    let executionArn: string;
    try {
      const submitted = await twin.startRun(taxReturnRequest([SCAN]));
      executionArn = submitted.executionArn;
      await untilWorkRetried(executionArn);
      release();
      run = await twin.waitForRun(submitted.run_id);
    } finally {
      release();
      textract.setMinInProgress({});
    }
    expect(run.status, JSON.stringify(run.error)).toBe("SUCCEEDED");

    expectTheOriginalsVerdicts(run);
    // The worker's invocation failed under the name the Work state's Retry matches, and was retried.
    const history = twin.stepFunctions.history(executionArn);
    const pending = history.filter(
      (event) => event.type === "StateFailed" && event.stateName === "Work" && event.error === "OcrPending",
    );
    expect(pending.length).toBeGreaterThan(0);
    expect(
      history.filter((event) => event.type === "StateRetried" && event.stateName === "Work").length,
    ).toBeGreaterThanOrEqual(pending.length);
    expect(history.some((event) => event.type === "StateCaught")).toBe(false);
    // One job for the document in this run: the retried step started it again and got the same one.
    expect(textract.startedJobs - jobsStarted).toBe(1);
    const [job, ...others] = newJobs(before);
    expect(others).toEqual([]);
    expect(job?.status).toBe("SUCCEEDED");
    expect(job?.startRequests).toBeGreaterThanOrEqual(2);
  }, 300_000);
});
