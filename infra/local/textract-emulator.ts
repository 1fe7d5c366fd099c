// Amazon Textract's asynchronous text detection, emulated on loopback for the local twin, so that the
// deployed OCR path runs offline end to end: the worker's real TextractClient (lambdas/tools/ocr/
// textract.ts) starts a job over the S3 object, polls it, pages through its blocks with NextToken, and
// hands a job still running to the state machine (OcrPending) exactly as it does against AWS.
//
// It speaks Textract's wire protocol (AWS JSON 1.1: POST /, X-Amz-Target Textract.<Operation>),
// validates requests as the service does, answers errors as `{__type, Code, Message}` with their HTTP
// status (so the SDK raises the named exception), reads the document from the twin's S3 the way
// Textract reads it (GetObject), and reads it with tesseract.js: every page, as Textract does, turned
// into PAGE, LINE and WORD blocks in Textract's geometry (relative 0–1, origin top left).
// Served: StartDocumentTextDetection / GetDocumentTextDetection and StartDocumentAnalysis /
// GetDocumentAnalysis with the SIGNATURES, FORMS and TABLES features (what the worker calls): an
// analysis adds a SIGNATURE block for the handwriting the offline OCR found on the page (ink no word
// explains), and KEY_VALUE_SET, TABLE and CELL blocks for the key–value pairs and tables found by
// position on the read lines (lambdas/documents/forms-tables.ts). No other feature (QUERIES,
// LAYOUT), SNS notification or S3 output is emulated, and request signatures are not checked.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { GetObjectCommand, type S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { OcrDocumentError, type OcrEngine } from "../../lambdas/tools/ocr/engine.ts";
import { type TextractBlock, toBlocks } from "./textract-blocks.ts";

/** How long an idle keep-alive connection stays open (ms), as AWS endpoints keep one. */
const IDLE_CONNECTION_MS = 60_000;

export type { TextractBlock } from "./textract-blocks.ts";
export { toBlocks } from "./textract-blocks.ts";

export interface TextractEmulatorOptions {
  /** The S3 the documents are read from (the twin's s3rver): Textract reads the object itself. */
  s3: S3Client;
  /** Loopback by default: the emulator checks no signature. */
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /**
   * How long every job answers IN_PROGRESS at least, even when it has been read sooner. A real job
   * on a long document outlives the worker's polling window; this lets a test make a short one do so.
   */
  minInProgress?: MinInProgress;
  /**
   * Jobs read at once; the others wait IN_PROGRESS, as beyond Textract's concurrent-job quota. Each
   * running job holds its rasterised pages in memory and they share one tesseract pool, so a queue
   * bounds memory without slowing reads down (the work is CPU-bound either way). Default 2.
   */
  concurrentJobs?: number;
  /**
   * Finished jobs kept (Textract keeps results 7 days); the oldest beyond it are forgotten, and their
   * JobIds then answer InvalidJobIdException, as an expired job does. Default 100.
   */
  jobsKept?: number;
  /** The OCR engine (default: tesseract.js, loaded on the first job). */
  ocr?: OcrEngine;
}

/** Each set condition holds a job IN_PROGRESS until it is met; unset ones hold nothing. */
export interface MinInProgress {
  /** Its first `getCalls` GetDocumentTextDetection calls answer IN_PROGRESS. */
  getCalls?: number;
  /** For `ms` milliseconds after its start. */
  ms?: number;
  /**
   * Until this promise settles. Wall time is a weak hold in a busy process (the emulator's own
   * rasterising can stall the event loop for seconds, so a poller's calls arrive later than its
   * sleeps add up to): a test that must outlast a polling window waits for the retry it expects.
   */
  until?: Promise<unknown>;
}

interface Hold {
  getCalls: number;
  ms: number;
  /** Present while an `until` promise has not settled. */
  pending?: { settled: boolean };
}

export type JobStatus = "IN_PROGRESS" | "SUCCEEDED" | "FAILED";

/** What tests and operators can see of a job. */
export interface JobSummary {
  jobId: string;
  clientRequestToken?: string;
  bucket: string;
  key: string;
  /** The job's own state: IN_PROGRESS until it has been read (whatever the minInProgress hold answers). */
  status: JobStatus;
  /** StartDocumentTextDetection calls that returned this job (more than one: idempotent retries). */
  startRequests: number;
  getCalls: number;
  pages?: number;
  blocks?: number;
  statusMessage?: string;
}

export interface TextractEmulator {
  /** For TEXTRACT_ENDPOINT / the client's `endpoint`. */
  endpoint: string;
  /** Distinct jobs started since the emulator started (an idempotent repeat starts none). */
  readonly startedJobs: number;
  /** The jobs still remembered, oldest first. */
  jobs(): JobSummary[];
  /** Changes the hold (minInProgress) for jobs started from now on. */
  setMinInProgress(hold: MinInProgress): void;
  /** Resolves once every job started so far has been read (or has failed). */
  idle(): Promise<void>;
  /**
   * Closes the server. Jobs being read are let finish, so no OCR outlives the emulator; jobs still
   * queued are never started.
   */
  stop(): Promise<void>;
}

/** Textract's results are paged at most 1,000 blocks at a time (also its default). */
const MAX_RESULTS = 1000;
const MAX_PAGES = 3000;
const MAX_BYTES = 500 * 1024 * 1024;
/** Requests are a few hundred bytes; anything far larger is not a Textract request. */
const MAX_REQUEST_BYTES = 64 * 1024;
const MODEL_VERSION = "1.0";
const TARGET_PREFIX = "Textract.";
/** Textract's constraints on the request members the emulator reads (its API reference). */
const TOKEN = /^[a-zA-Z0-9-_]{1,64}$/;
const JOB_TAG = /^[a-zA-Z0-9_.\-:]{1,64}$/;
const BUCKET = /^[0-9A-Za-z.\-_]{3,255}$/;
const NON_BLANK = /\S/;

class TextractError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Which API started a job: Get of the other one does not know it (InvalidJobIdException). */
type JobKind = "text" | "analysis";

interface Job {
  jobId: string;
  kind: JobKind;
  /** An analysis's FeatureTypes (SIGNATURES, FORMS, TABLES). */
  features: string[];
  token?: string;
  /** What an idempotent repeat must match (IdempotentParameterMismatchException otherwise). */
  fingerprint: string;
  bucket: string;
  key: string;
  startedAt: number;
  hold: Hold;
  startRequests: number;
  getCalls: number;
  /** Settles when the job has been read or has failed; never rejects. */
  done: Promise<void>;
  outcome?: Outcome;
}

type Outcome =
  | { status: "SUCCEEDED"; pages: number; blocks: TextractBlock[] }
  | { status: "FAILED"; message: string };

export async function startTextractEmulator(options: TextractEmulatorOptions): Promise<TextractEmulator> {
  const jobs = new Map<string, Job>();
  const byToken = new Map<string, Job>();
  let hold: MinInProgress = options.minInProgress ?? {};
  let startedJobs = 0;
  const queue = new JobQueue(Math.max(1, options.concurrentJobs ?? 2));
  const jobsKept = Math.max(1, options.jobsKept ?? 100);
  let ocr: Promise<OcrEngine> | undefined;
  // Loaded on the first job: a twin that never sees a scan never loads tesseract.js.
  const engine = () => {
    ocr ??= options.ocr
      ? Promise.resolve(options.ocr)
      : import("../../lambdas/tools/ocr/tesseract.ts")
          .then((module) => module.createTesseractEngine())
          .catch((error: unknown) => {
            ocr = undefined;
            throw error;
          });
    return ocr;
  };

  /** What GetDocumentTextDetection answers: the job's state, or IN_PROGRESS while the hold lasts. */
  const answeredStatus = (job: Job): JobStatus => {
    if (!job.outcome) return "IN_PROGRESS";
    const held = job.hold;
    if (
      job.getCalls <= held.getCalls ||
      Date.now() - job.startedAt < held.ms ||
      held.pending?.settled === false
    ) {
      return "IN_PROGRESS";
    }
    return job.outcome.status;
  };

  const forgetOldJobs = () => {
    const finished = [...jobs.values()].filter((job) => job.outcome);
    for (const job of finished.slice(0, Math.max(0, finished.length - jobsKept))) {
      jobs.delete(job.jobId);
      if (job.token) byToken.delete(job.token);
    }
  };

  async function start(input: Record<string, unknown>, kind: JobKind): Promise<{ JobId: string }> {
    const features = kind === "analysis" ? featureTypes(input.FeatureTypes) : [];
    const location = object(input.DocumentLocation, "DocumentLocation", true);
    const s3Object = object(location?.S3Object, "DocumentLocation.S3Object", true);
    const bucket = text(s3Object?.Bucket, "DocumentLocation.S3Object.Bucket", BUCKET, true);
    const key = text(s3Object?.Name, "DocumentLocation.S3Object.Name", NON_BLANK, true, 1024);
    const version = text(s3Object?.Version, "DocumentLocation.S3Object.Version", NON_BLANK, false, 1024);
    const token = text(input.ClientRequestToken, "ClientRequestToken", TOKEN, false);
    const jobTag = text(input.JobTag, "JobTag", JOB_TAG, false);
    for (const unsupported of ["NotificationChannel", "OutputConfig", "KMSKeyId"]) {
      if (input[unsupported] !== undefined) {
        // Silently ignoring them would let a caller wait for a notification or an output that never comes.
        throw new TextractError(
          "InvalidParameterException",
          `${unsupported} is not supported by the local Textract emulator (it publishes no SNS notification and writes no output to S3)`,
        );
      }
    }
    const fingerprint = JSON.stringify([kind, features, bucket, key, version ?? null, jobTag ?? null]);
    if (token) {
      const existing = byToken.get(token);
      if (existing) {
        if (existing.fingerprint !== fingerprint) {
          throw new TextractError(
            "IdempotentParameterMismatchException",
            "The ClientRequestToken was already used with different parameters",
          );
        }
        existing.startRequests++;
        return { JobId: existing.jobId };
      }
    }
    // Textract checks the object when the job is started (InvalidS3ObjectException), not later.
    const bytes = await readObject(options.s3, bucket as string, key as string, version);
    // Checked again: a concurrent Start with the same token may have created the job meanwhile.
    const raced = token ? byToken.get(token) : undefined;
    if (raced) {
      raced.startRequests++;
      return { JobId: raced.jobId };
    }
    const jobId = randomBytes(32).toString("hex");
    const job: Job = {
      jobId,
      kind,
      features,
      ...(token ? { token } : {}),
      fingerprint,
      bucket: bucket as string,
      key: key as string,
      startedAt: Date.now(),
      hold: holdOf(hold),
      startRequests: 1,
      getCalls: 0,
      done: Promise.resolve(),
    };
    job.done = queue.run(
      async () => {
        try {
          job.outcome = await read(await engine(), job, bytes);
        } catch (error) {
          // Not the document's fault (the engine would not load, a tesseract worker died): the job
          // fails as Textract's do on an internal error, and the caller's document report says so.
          job.outcome = { status: "FAILED", message: `InternalServerError: ${String(error)}` };
        }
        forgetOldJobs();
      },
      () => {
        job.outcome = {
          status: "FAILED",
          message: "the local Textract emulator was stopped before this job ran",
        };
      },
    );
    jobs.set(jobId, job);
    if (token) byToken.set(token, job);
    startedJobs++;
    return { JobId: jobId };
  }

  function get(input: Record<string, unknown>, kind: JobKind): Record<string, unknown> {
    const version =
      kind === "analysis"
        ? { AnalyzeDocumentModelVersion: MODEL_VERSION }
        : { DetectDocumentTextModelVersion: MODEL_VERSION };
    const jobId = text(input.JobId, "JobId", TOKEN, true) as string;
    const maxResults = input.MaxResults;
    if (maxResults !== undefined && (!Number.isInteger(maxResults) || (maxResults as number) < 1)) {
      throw new TextractError("InvalidParameterException", "MaxResults must be an integer of at least 1");
    }
    const nextToken = text(input.NextToken, "NextToken", NON_BLANK, false, 255);
    const job = jobs.get(jobId);
    if (!job || job.kind !== kind)
      throw new TextractError("InvalidJobIdException", `Job ${jobId} does not exist`);
    // A token not issued for this job is refused whatever the job's state.
    const offset = nextToken ? offsetOf(nextToken, jobId) : 0;
    job.getCalls++;
    const status = answeredStatus(job);
    if (status === "IN_PROGRESS" || !job.outcome) {
      return { JobStatus: "IN_PROGRESS", ...version };
    }
    if (job.outcome.status === "FAILED") {
      return {
        JobStatus: "FAILED",
        StatusMessage: job.outcome.message,
        ...version,
      };
    }
    if (offset >= job.outcome.blocks.length && offset > 0) {
      throw new TextractError("InvalidParameterException", "NextToken is not valid for this job");
    }
    // Above 1,000 Textract returns 1,000, as documented.
    const size = Math.min((maxResults as number | undefined) ?? MAX_RESULTS, MAX_RESULTS);
    const end = Math.min(offset + size, job.outcome.blocks.length);
    return {
      DocumentMetadata: { Pages: job.outcome.pages },
      JobStatus: "SUCCEEDED",
      ...(end < job.outcome.blocks.length ? { NextToken: tokenFor(jobId, end) } : {}),
      Blocks: job.outcome.blocks.slice(offset, end),
      ...version,
    };
  }

  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    void serve(request, response, { start, get });
  });
  // Textract keeps an idle connection open far longer than Node's default of 5 s. With that default,
  // a client that polls again after a few seconds' read may reuse the connection just as the server
  // drops it, and its request fails with ECONNRESET (the SDK retries that; a client with
  // maxAttempts 1 fails).
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    endpoint: `http://${host}:${address.port}`,
    get startedJobs() {
      return startedJobs;
    },
    jobs: () =>
      [...jobs.values()].map((job) => ({
        jobId: job.jobId,
        ...(job.token ? { clientRequestToken: job.token } : {}),
        bucket: job.bucket,
        key: job.key,
        status: job.outcome?.status ?? "IN_PROGRESS",
        startRequests: job.startRequests,
        getCalls: job.getCalls,
        ...(job.outcome?.status === "SUCCEEDED"
          ? { pages: job.outcome.pages, blocks: job.outcome.blocks.length }
          : {}),
        ...(job.outcome?.status === "FAILED" ? { statusMessage: job.outcome.message } : {}),
      })),
    setMinInProgress(next) {
      hold = next;
    },
    async idle() {
      await Promise.all([...jobs.values()].map((job) => job.done));
    },
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets of the SDK's agent would hold close() open until they time out.
        server.closeIdleConnections();
        setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, 1_000).unref();
      });
      queue.close();
      await Promise.all([...jobs.values()].map((job) => job.done));
    },
  };
}

/** One job's hold, from the knob as it is when the job starts. */
function holdOf(knob: MinInProgress): Hold {
  const hold: Hold = { getCalls: Math.max(0, knob.getCalls ?? 0), ms: Math.max(0, knob.ms ?? 0) };
  if (knob.until) {
    const pending = { settled: false };
    const settle = () => {
      pending.settled = true;
    };
    knob.until.then(settle, settle);
    hold.pending = pending;
  }
  return hold;
}

// ---- The wire protocol ----------------------------------------------------------------------------

const OPERATIONS: Record<string, { call: "start" | "get"; kind: JobKind } | undefined> = {
  StartDocumentTextDetection: { call: "start", kind: "text" },
  GetDocumentTextDetection: { call: "get", kind: "text" },
  StartDocumentAnalysis: { call: "start", kind: "analysis" },
  GetDocumentAnalysis: { call: "get", kind: "analysis" },
};

/**
 * An analysis's FeatureTypes: SIGNATURES, FORMS and TABLES are what the emulator can answer; the
 * others it says it cannot.
 */
function featureTypes(value: unknown): string[] {
  const known = ["TABLES", "FORMS", "QUERIES", "SIGNATURES", "LAYOUT"];
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.some((feature) => !known.includes(String(feature)))
  ) {
    throw new TextractError(
      "InvalidParameterException",
      `FeatureTypes: expected a non-empty list of ${known.join(", ")}`,
    );
  }
  const unsupported = value.filter((feature) => !EMULATED_FEATURES.includes(String(feature)));
  if (unsupported.length > 0) {
    throw new TextractError(
      "InvalidParameterException",
      `FeatureTypes ${unsupported.join(", ")}: the local Textract emulator analyses ${EMULATED_FEATURES.join(", ")} only`,
    );
  }
  return [...new Set(value.map(String))].sort();
}

const EMULATED_FEATURES = ["SIGNATURES", "FORMS", "TABLES"];

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  operations: {
    start: (input: Record<string, unknown>, kind: JobKind) => Promise<unknown>;
    get: (input: Record<string, unknown>, kind: JobKind) => unknown;
  },
): Promise<void> {
  try {
    if (request.method !== "POST" || (request.url ?? "/").split("?")[0] !== "/") {
      throw new TextractError("UnknownOperationException", "Textract is served by POST /", 404);
    }
    const contentType = String(request.headers["content-type"] ?? "")
      .split(";")[0]
      ?.trim();
    if (contentType !== "application/x-amz-json-1.1") {
      throw new TextractError(
        "SerializationException",
        `Textract speaks application/x-amz-json-1.1, got ${contentType || "no content type"}`,
      );
    }
    // The SDK always signs; a request without a signature for Textract was not meant for Textract.
    const authorization = String(request.headers.authorization ?? "");
    if (!/^AWS4-HMAC-SHA256 Credential=[^,]*\/textract\/aws4_request/.test(authorization)) {
      throw new TextractError(
        "MissingAuthenticationTokenException",
        "Missing Authentication Token: requests must be signed (SigV4) for the service textract",
        403,
      );
    }
    // The operation first: another one's request (DetectDocumentText carries the document) may be
    // far larger than these two ever are.
    const target = String(request.headers["x-amz-target"] ?? "");
    const operation = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : "";
    const served = OPERATIONS[operation];
    if (!served) {
      throw new TextractError(
        "UnknownOperationException",
        `${target || "(no X-Amz-Target)"}: the local Textract emulator serves Textract.${Object.keys(OPERATIONS).join(", Textract.")} only`,
      );
    }
    const body = await readBody(request);
    let input: unknown;
    try {
      input = body.length === 0 ? {} : JSON.parse(body.toString("utf8"));
    } catch {
      throw new TextractError("SerializationException", "The request body is not JSON");
    }
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      throw new TextractError("SerializationException", "The request body must be a JSON object");
    }
    const answer =
      served.call === "start"
        ? await operations.start(input as Record<string, unknown>, served.kind)
        : operations.get(input as Record<string, unknown>, served.kind);
    reply(response, 200, answer);
  } catch (error) {
    const known =
      error instanceof TextractError
        ? error
        : new TextractError("InternalServerError", `The emulator failed: ${String(error)}`, 500);
    // Code and Message are the members of Textract's modelled exceptions; __type names the exception.
    reply(response, known.status, { __type: known.type, Code: known.type, Message: known.message });
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/x-amz-json-1.1",
    "content-length": Buffer.byteLength(payload),
    "x-amzn-requestid": randomUUID(),
  });
  response.end(payload);
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) {
      throw new TextractError("SerializationException", "The request body is too large");
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function object(value: unknown, name: string, required: boolean): Record<string, unknown> | undefined {
  if (value === undefined || value === null) {
    if (required) throw new TextractError("InvalidParameterException", `${name} is required`);
    return undefined;
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new TextractError("InvalidParameterException", `${name} must be an object`);
  }
  return value as Record<string, unknown>;
}

function text(
  value: unknown,
  name: string,
  pattern: RegExp,
  required: boolean,
  maxLength = Number.POSITIVE_INFINITY,
): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw new TextractError("InvalidParameterException", `${name} is required`);
    return undefined;
  }
  if (typeof value !== "string" || value.length === 0 || value.length > maxLength || !pattern.test(value)) {
    throw new TextractError(
      "InvalidParameterException",
      `${name} failed to satisfy its constraint (${pattern.source}${Number.isFinite(maxLength) ? `, at most ${maxLength} characters` : ""})`,
    );
  }
  return value;
}

/** NextToken: opaque to the caller; here the job and the offset of the next block. */
function tokenFor(jobId: string, offset: number): string {
  return Buffer.from(JSON.stringify({ j: jobId, o: offset })).toString("base64url");
}

function offsetOf(token: string, jobId: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  const { j, o } = (decoded ?? {}) as { j?: unknown; o?: unknown };
  if (j !== jobId || !Number.isInteger(o) || (o as number) <= 0) {
    throw new TextractError("InvalidParameterException", "NextToken is not valid for this job");
  }
  return o as number;
}

// ---- Reading the object ---------------------------------------------------------------------------

async function readObject(
  s3: S3Client,
  bucket: string,
  key: string,
  version: string | undefined,
): Promise<Uint8Array> {
  try {
    const object = await s3.send(
      new GetObjectCommand({ Bucket: bucket, Key: key, ...(version ? { VersionId: version } : {}) }),
    );
    if ((object.ContentLength ?? 0) > MAX_BYTES) {
      await object.Body?.transformToWebStream()
        .cancel()
        .catch(() => undefined);
      throw new TextractError(
        "DocumentTooLargeException",
        "S3 object size is more than the maximum limit 524288000 bytes",
      );
    }
    return (await object.Body?.transformToByteArray()) ?? new Uint8Array();
  } catch (error) {
    if (error instanceof TextractError) throw error;
    const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
    // A missing object or bucket, or one the caller may not read: what Textract says for all of them.
    if (status !== undefined && status >= 400 && status < 500) {
      throw new TextractError(
        "InvalidS3ObjectException",
        "Unable to get object metadata from S3. Check object key, region and/or access permissions.",
      );
    }
    throw error;
  }
}

// ---- Reading the document -------------------------------------------------------------------------

const IMAGE_SIGNATURES: Array<[string, number[]]> = [
  ["PNG", [0x89, 0x50, 0x4e, 0x47]],
  ["JPEG", [0xff, 0xd8, 0xff]],
  ["TIFF", [0x49, 0x49, 0x2a, 0x00]],
  ["TIFF", [0x4d, 0x4d, 0x00, 0x2a]],
];

async function read(engine: OcrEngine, job: Job, bytes: Uint8Array): Promise<Outcome> {
  const failed = (message: string) => ({ status: "FAILED" as const, message });
  // The PDF header may sit anywhere in the first 1,024 bytes.
  if (!Buffer.from(bytes.subarray(0, 1024)).includes("%PDF-")) {
    const image = IMAGE_SIGNATURES.find(([, magic]) => magic.every((byte, index) => bytes[index] === byte));
    return failed(
      image
        ? `Request has unsupported document format: the local Textract emulator reads PDF only (Textract itself also reads ${image[0]})`
        : "Request has unsupported document format",
    );
  }
  let pageSizes: Array<{ width: number; height: number }>;
  try {
    pageSizes = await pageSizesOf(bytes);
  } catch (error) {
    return failed(`Request has invalid document: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (pageSizes.length === 0) return failed("Request has invalid document: it has no pages");
  if (pageSizes.length > MAX_PAGES) {
    return failed(`The document has ${pageSizes.length} pages, more than the ${MAX_PAGES} Textract reads`);
  }
  try {
    const result = await engine.recognize({
      document: `s3://${job.bucket}/${job.key}`,
      bytes,
      location: { bucket: job.bucket, key: job.key },
      // Every page, as Textract reads them: the caller keeps the ones it wants.
      pages: pageSizes.map((_, index) => index + 1),
      pageSizes,
      requestToken: job.jobId,
    });
    return {
      status: "SUCCEEDED",
      pages: pageSizes.length,
      blocks: toBlocks(result.pages, pageSizes, {
        signatures: job.features.includes("SIGNATURES"),
        forms: job.features.includes("FORMS"),
        tables: job.features.includes("TABLES"),
      }),
    };
  } catch (error) {
    // MuPDF could not render it: the document's own problem. Anything else is the emulator's.
    if (error instanceof OcrDocumentError) return failed(`Request has invalid document: ${error.message}`);
    throw error;
  }
}

/**
 * Each page's size in points as displayed (its rotation applied), from MuPDF, which also rasterises
 * it for tesseract: the words' positions and the page they are relative to come from one renderer.
 */
async function pageSizesOf(bytes: Uint8Array): Promise<Array<{ width: number; height: number }>> {
  const mupdf = await import("mupdf");
  const document = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    if (document.needsPassword()) throw new Error("the PDF is encrypted with a password");
    const sizes: Array<{ width: number; height: number }> = [];
    const count = document.countPages();
    for (let index = 0; index < count; index++) {
      const page = document.loadPage(index);
      try {
        const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.getBounds();
        sizes.push({ width: x1 - x0, height: y1 - y0 });
      } finally {
        page.destroy();
      }
    }
    return sizes;
  } finally {
    document.destroy();
  }
}

/** At most `limit` jobs read at once; the rest wait their turn (IN_PROGRESS meanwhile). */
class JobQueue {
  private running = 0;
  private closed = false;
  private readonly waiting: Array<(run: boolean) => void> = [];

  constructor(private readonly limit: number) {}

  /** Runs `work` in its turn, or `dropped` instead if the queue is closed first; `work` must not throw. */
  async run(work: () => Promise<void>, dropped: () => void): Promise<void> {
    if (this.closed || (this.running >= this.limit && !(await this.turn()))) {
      dropped();
      return;
    }
    this.running++;
    try {
      await work();
    } finally {
      this.running--;
      this.waiting.shift()?.(true);
    }
  }

  close(): void {
    this.closed = true;
    for (const release of this.waiting.splice(0)) release(false);
  }

  private turn(): Promise<boolean> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
