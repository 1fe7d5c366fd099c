// OCR with Amazon Textract's asynchronous text detection, over the document's S3 object (Textract
// reads it with the worker's own credentials, so no bytes are uploaded and no size limit of the
// synchronous API applies). A job outlives a Lambda invocation when the document is long: the engine
// waits a bounded time, then throws OcrPendingError; the state machine retries the step, and the
// retry starts "the same" job again with the same ClientRequestToken, which Textract answers with the
// job already running, so a document is read once however many times the step runs.
import { createHash } from "node:crypto";
import {
  GetDocumentAnalysisCommand,
  GetDocumentTextDetectionCommand,
  StartDocumentAnalysisCommand,
  StartDocumentTextDetectionCommand,
  TextractClient,
} from "@aws-sdk/client-textract";
import * as z from "zod";
import {
  OcrDocumentError,
  type OcrEngine,
  type OcrField,
  type OcrLine,
  OcrPendingError,
  type OcrRequest,
  type OcrResult,
  type OcrSignature,
  type OcrSpan,
  type OcrTable,
  type OcrWord,
} from "./engine.ts";

export interface TextractEngineOptions {
  /**
   * Milliseconds the caller may still run (the Lambda context's remaining time, narrowed to the
   * tool's timeout). Unset: only `maxWaitMs` bounds the wait.
   */
  deadline?: () => number;
  /** Left free before the deadline: fetching the results and the rest of the step come after. */
  safetyMarginMs?: number;
  /**
   * Longest one call waits for a running job. Past it the wait is handed to the state machine, which
   * waits between retries without holding a worker (and its reserved concurrency) idle.
   */
  maxWaitMs?: number;
  /** First pause between status checks; each next one is 1.5 times longer, up to `maxPollIntervalMs`. */
  firstPollIntervalMs?: number;
  maxPollIntervalMs?: number;
  /** A job that read only some pages (PARTIAL_SUCCESS): what Textract warned about. */
  onWarning?: (message: string) => void;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Analyse the document for signatures (AnalyzeDocument's SIGNATURES feature) as well as its text:
   * the asynchronous document analysis instead of text detection. A hand signature is no text; only
   * this sees it on a scan.
   */
  signatures?: boolean;
  /**
   * Analyse the document's key–value pairs and tables too (the FORMS and TABLES features): they
   * fill the document model's KEY_VALUE_SET, TABLE and CELL blocks as Textract found them.
   */
  forms?: boolean;
}

/** Textract returns at most 1,000 blocks per call; fewer calls for long documents. */
const MAX_RESULTS = 1000;

/** The SDK's client, built by the engine's loader with the engine (ocr/select.ts). */
export { TextractClient };

export function createTextractEngine(client: TextractClient, options: TextractEngineOptions = {}): OcrEngine {
  const settings = {
    safetyMarginMs: options.safetyMarginMs ?? 15_000,
    maxWaitMs: options.maxWaitMs ?? 30_000,
    firstPollIntervalMs: options.firstPollIntervalMs ?? 1_000,
    maxPollIntervalMs: options.maxPollIntervalMs ?? 5_000,
    deadline: options.deadline ?? (() => Number.POSITIVE_INFINITY),
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    onWarning: options.onWarning ?? (() => undefined),
  };
  return {
    name: "textract",
    async recognize(request: OcrRequest): Promise<OcrResult> {
      const api =
        options.signatures || options.forms
          ? analysis({ signatures: options.signatures === true, forms: options.forms === true })
          : TEXT_DETECTION;
      const jobId = await startJob(client, request, api);
      let pause = settings.firstPollIntervalMs;
      let waited = 0;
      for (;;) {
        const first = await getResults(client, request, jobId, api);
        if (first.JobStatus === "SUCCEEDED" || first.JobStatus === "PARTIAL_SUCCESS") {
          const responses = await remainingResults(client, request, jobId, first, api);
          const warnings = responses.flatMap((response) => response.Warnings ?? []);
          if (first.JobStatus === "PARTIAL_SUCCESS" || warnings.length > 0) {
            settings.onWarning(describePartialRead(request, first, warnings));
          }
          return { engine: "textract", pages: toPages(request, responses, api) };
        }
        if (first.JobStatus === "FAILED") {
          throw new OcrDocumentError(
            request.document,
            `Textract could not read ${request.document}: ${first.StatusMessage || "it gave no reason"} (job ${jobId})`,
          );
        }
        const budget = Math.min(settings.deadline() - settings.safetyMarginMs, settings.maxWaitMs - waited);
        if (budget <= 0) throw new OcrPendingError(request.document, jobId);
        const wait = Math.min(pause, budget);
        await settings.sleep(wait);
        waited += wait;
        pause = Math.min(pause * 1.5, settings.maxPollIntervalMs);
      }
    },
  };
}

/**
 * Textract's idempotency token for this read: the same for every retry of the step, different for
 * another document or run. Textract accepts [a-zA-Z0-9-_]{1,64}; a SHA-256 in base64url is 43 such
 * characters whatever the request token holds. The location is part of it so that a token reused
 * for another object never meets IdempotentParameterMismatchException.
 */
export function clientRequestTokenFor(request: Pick<OcrRequest, "requestToken" | "location">): string {
  return createHash("sha256")
    .update(`${request.requestToken}\n${request.location.bucket}/${request.location.key}`)
    .digest("base64url");
}

/** The two asynchronous APIs: text detection, or document analysis with its features. */
interface Api {
  start: string;
  get: string;
  startCommand: (input: StartInput) => StartDocumentTextDetectionCommand | StartDocumentAnalysisCommand;
  getCommand: (input: GetInput) => GetDocumentTextDetectionCommand | GetDocumentAnalysisCommand;
  signatures: boolean;
  forms: boolean;
}
type StartInput = {
  DocumentLocation: { S3Object: { Bucket: string; Name: string } };
  ClientRequestToken: string;
};
type GetInput = { JobId: string; MaxResults: number; NextToken?: string };

const TEXT_DETECTION: Api = {
  start: "StartDocumentTextDetection",
  get: "GetDocumentTextDetection",
  startCommand: (input) => new StartDocumentTextDetectionCommand(input),
  getCommand: (input) => new GetDocumentTextDetectionCommand(input),
  signatures: false,
  forms: false,
};

function analysis(features: { signatures: boolean; forms: boolean }): Api {
  const FeatureTypes: Array<"SIGNATURES" | "FORMS" | "TABLES"> = [
    ...(features.signatures ? (["SIGNATURES"] as const) : []),
    ...(features.forms ? (["FORMS", "TABLES"] as const) : []),
  ];
  return {
    start: "StartDocumentAnalysis",
    get: "GetDocumentAnalysis",
    startCommand: (input) => new StartDocumentAnalysisCommand({ ...input, FeatureTypes }),
    getCommand: (input) => new GetDocumentAnalysisCommand(input),
    ...features,
  };
}

async function startJob(client: TextractClient, request: OcrRequest, api: Api): Promise<string> {
  const command = api.startCommand({
    DocumentLocation: { S3Object: { Bucket: request.location.bucket, Name: request.location.key } },
    ClientRequestToken: clientRequestTokenFor(request),
  });
  const response = await client.send(command as StartDocumentTextDetectionCommand).catch((error: unknown) => {
    throw asDocumentError(error, request);
  });
  return parseResponse(StartResponse, response, request, api.start).JobId;
}

async function getResults(
  client: TextractClient,
  request: OcrRequest,
  jobId: string,
  api: Api,
  nextToken?: string,
): Promise<GetResponse> {
  const command = api.getCommand({
    JobId: jobId,
    MaxResults: MAX_RESULTS,
    ...(nextToken ? { NextToken: nextToken } : {}),
  });
  const response = await client.send(command as GetDocumentTextDetectionCommand).catch((error: unknown) => {
    throw asDocumentError(error, request);
  });
  return parseResponse(GetResponseSchema, response, request, api.get);
}

async function remainingResults(
  client: TextractClient,
  request: OcrRequest,
  jobId: string,
  first: GetResponse,
  api: Api,
): Promise<GetResponse[]> {
  const responses = [first];
  const seen = new Set<string>();
  let next = first.NextToken;
  while (next) {
    // A token handed back twice would loop for ever; Textract never does it, so say so if it did.
    if (seen.has(next)) {
      throw new Error(`${api.get} for ${request.document} (job ${jobId}) returned the same NextToken twice`);
    }
    seen.add(next);
    const response = await getResults(client, request, jobId, api, next);
    responses.push(response);
    next = response.NextToken;
  }
  return responses;
}

// ---- What Textract answers, checked ---------------------------------------------------------------

const StartResponse = z.object({ JobId: z.string().min(1, "expected the job's id") });

const BoundingBox = z.object({
  Left: z.number(),
  Top: z.number(),
  Width: z.number().nonnegative(),
  Height: z.number().nonnegative(),
});

const Relationship = z.object({ Type: z.string(), Ids: z.array(z.string()).default([]) });

const LineBlock = z.object({
  Id: z.string().min(1),
  Page: z.number().int().positive().optional(),
  Relationships: z.array(Relationship).default([]),
});

const WordBlock = z.object({
  Id: z.string().min(1),
  Page: z.number().int().positive().optional(),
  Text: z.string(),
  Confidence: z.number().min(0).max(100),
  Geometry: z.object({ BoundingBox }),
});

const SignatureBlock = z.object({
  Id: z.string().min(1),
  Page: z.number().int().positive().optional(),
  Confidence: z.number().min(0).max(100),
  Geometry: z.object({ BoundingBox }),
});

/** KEY_VALUE_SET, TABLE and CELL blocks (FORMS and TABLES): their words are their CHILD WORD blocks. */
const StructureBlock = z.object({
  Id: z.string().min(1),
  Page: z.number().int().positive().optional(),
  Confidence: z.number().min(0).max(100).default(0),
  Geometry: z.object({ BoundingBox }),
  Relationships: z.array(Relationship).default([]),
  EntityTypes: z.array(z.string()).optional(),
  RowIndex: z.number().int().positive().optional(),
  ColumnIndex: z.number().int().positive().optional(),
});
type Structure = z.infer<typeof StructureBlock>;

/** Blocks are checked one by one (LINE, WORD, SIGNATURE and the FORMS/TABLES ones), so that a message names the block. */
const GetResponseSchema = z.object({
  JobStatus: z.enum(["IN_PROGRESS", "SUCCEEDED", "FAILED", "PARTIAL_SUCCESS"]),
  StatusMessage: z.string().optional(),
  NextToken: z.string().optional(),
  DocumentMetadata: z.object({ Pages: z.number().int().nonnegative() }).optional(),
  Blocks: z.array(z.looseObject({ BlockType: z.string() })).default([]),
  Warnings: z
    .array(z.object({ ErrorCode: z.string().optional(), Pages: z.array(z.number()).default([]) }))
    .optional(),
});
type GetResponse = z.infer<typeof GetResponseSchema>;

function parseResponse<T extends z.ZodType>(
  schema: T,
  response: unknown,
  request: OcrRequest,
  operation: string,
): z.infer<T> {
  const parsed = schema.safeParse(response);
  if (parsed.success) return parsed.data;
  throw new UnexpectedTextractResponseError(operation, request.document, parsed.error);
}

export class UnexpectedTextractResponseError extends Error {
  override name = "UnexpectedTextractResponseError";
  constructor(operation: string, document: string, error: z.ZodError, where = "") {
    const problems = error.issues.map(
      (issue) =>
        `${[where, ...issue.path.map(String)].filter(Boolean).join(".") || "(response)"}: ${issue.message}`,
    );
    super(`${operation} for ${document} answered in an unexpected shape: ${problems.join("; ")}`);
  }
}

// ---- Blocks → words in PDF points -------------------------------------------------------------

type Word = z.infer<typeof WordBlock>;
type Line = z.infer<typeof LineBlock>;

function toPages(request: OcrRequest, responses: GetResponse[], api: Api): OcrResult["pages"] {
  /** A block in the shape its type must have, or an error naming the block. */
  const checked = <T extends z.ZodType>(
    schema: T,
    block: { BlockType: string },
    where: string,
  ): z.infer<T> => {
    const parsed = schema.safeParse(block);
    if (parsed.success) return parsed.data;
    throw new UnexpectedTextractResponseError(
      api.get,
      request.document,
      parsed.error,
      `${where} (${block.BlockType})`,
    );
  };
  const wanted = new Set(request.pages);
  const documentPages = responses.find((response) => response.DocumentMetadata)?.DocumentMetadata?.Pages;
  const lines = new Map<number, Line[]>(request.pages.map((page) => [page, []]));
  const words = new Map<string, Word>();
  const signatures = new Map<number, OcrSignature[]>(request.pages.map((page) => [page, []]));
  const structures = new Map<number, Structure[]>(request.pages.map((page) => [page, []]));
  const byId = new Map<string, Structure>();
  const tableIds = new Set<string>();
  for (const [answer, response] of responses.entries()) {
    for (const [index, block] of response.Blocks.entries()) {
      // Paginated: the index is within its answer (NextToken page), which is named too.
      const where = responses.length > 1 ? `answer ${answer + 1}: Blocks[${index}]` : `Blocks[${index}]`;
      if (block.BlockType === "SIGNATURE" && api.signatures) {
        const parsed = { data: checked(SignatureBlock, block, where) };
        const page = pageOf(parsed.data, documentPages, request, where, api);
        const size = request.pageSizes[page - 1];
        if (wanted.has(page) && size) signatures.get(page)?.push(signatureInPoints(parsed.data, size));
        continue;
      }
      if (
        api.forms &&
        (block.BlockType === "KEY_VALUE_SET" || block.BlockType === "TABLE" || block.BlockType === "CELL")
      ) {
        const parsed = { data: checked(StructureBlock, block, where) };
        const page = pageOf(parsed.data, documentPages, request, where, api);
        byId.set(parsed.data.Id, parsed.data);
        if (wanted.has(page) && block.BlockType !== "CELL") structures.get(page)?.push(parsed.data);
        if (block.BlockType === "TABLE") tableIds.add(parsed.data.Id);
        continue;
      }
      if (block.BlockType !== "LINE" && block.BlockType !== "WORD") continue;
      const parsed = {
        data:
          block.BlockType === "LINE" ? checked(LineBlock, block, where) : checked(WordBlock, block, where),
      };
      const page = pageOf(parsed.data, documentPages, request, where, api);
      if (!wanted.has(page)) continue;
      if (block.BlockType === "LINE") lines.get(page)?.push(parsed.data as Line);
      else words.set(parsed.data.Id, parsed.data as Word);
    }
  }
  return request.pages.map((page) => {
    const size = request.pageSizes[page - 1];
    if (!size) throw new Error(`OCR of ${request.document}: no page size for page ${page}`);
    const pageLines: OcrLine[] = [];
    // Textract lists LINE blocks in reading order and a line's words left to right.
    for (const line of lines.get(page) ?? []) {
      const lineWords = line.Relationships.filter((relation) => relation.Type === "CHILD")
        .flatMap((relation) => relation.Ids)
        .map((id) => {
          const word = words.get(id);
          if (!word) {
            throw new Error(
              `${api.get} for ${request.document}: LINE ${line.Id} on page ${page} names WORD ${id}, which is not among the results`,
            );
          }
          return toPoints(word, size);
        });
      if (lineWords.length > 0) pageLines.push({ words: lineWords });
    }
    return {
      page,
      lines: pageLines,
      ...(api.signatures ? { signatures: signatures.get(page) ?? [] } : {}),
      ...(api.forms ? structuresOf(structures.get(page) ?? [], tableIds, byId, words, size) : {}),
    };
  });
}

/** A page's KEY_VALUE_SET and TABLE blocks as key–value pairs and tables, their text from their words. */
function structuresOf(
  blocks: ReadonlyArray<Structure>,
  tableIds: ReadonlySet<string>,
  byId: ReadonlyMap<string, Structure>,
  words: ReadonlyMap<string, Word>,
  size: { width: number; height: number },
): { fields: OcrField[]; tables: OcrTable[] } {
  const children = (block: Structure, type: string) =>
    block.Relationships.filter((relation) => relation.Type === type).flatMap((relation) => relation.Ids);
  const span = (block: Structure): OcrSpan => {
    const text = children(block, "CHILD")
      .map((id) => words.get(id)?.Text)
      .filter((word): word is string => word !== undefined)
      .join(" ");
    const box = block.Geometry.BoundingBox;
    return {
      text,
      x: box.Left * size.width,
      right: (box.Left + box.Width) * size.width,
      top: (1 - box.Top) * size.height,
      y: (1 - box.Top - box.Height) * size.height,
      confidence: block.Confidence,
    };
  };
  const fields: OcrField[] = [];
  const tables: OcrTable[] = [];
  for (const block of blocks) {
    if (tableIds.has(block.Id)) {
      const cells = children(block, "CHILD").flatMap((id) => {
        const cell = byId.get(id);
        return cell?.RowIndex && cell.ColumnIndex
          ? [{ row: cell.RowIndex, column: cell.ColumnIndex, span: span(cell) }]
          : [];
      });
      if (cells.length > 0) tables.push({ cells });
      continue;
    }
    if (!block.EntityTypes?.includes("KEY")) continue;
    const key = span(block);
    if (!key.text) continue;
    const value = children(block, "VALUE")
      .map((id) => byId.get(id))
      .find((candidate) => candidate !== undefined);
    const valueSpan = value ? span(value) : null;
    fields.push({ key, value: valueSpan?.text ? valueSpan : null });
  }
  return { fields, tables };
}

/** A SIGNATURE block's box, relative to the page from its top left, in PDF points from the bottom left. */
function signatureInPoints(
  block: z.infer<typeof SignatureBlock>,
  size: { width: number; height: number },
): OcrSignature {
  const box = block.Geometry.BoundingBox;
  return {
    x: box.Left * size.width,
    right: (box.Left + box.Width) * size.width,
    top: (1 - box.Top) * size.height,
    y: (1 - box.Top - box.Height) * size.height,
    confidence: block.Confidence,
    source: "textract",
  };
}

function pageOf(
  block: { Page?: number | undefined },
  documentPages: number | undefined,
  request: OcrRequest,
  where: string,
  api: Api,
): number {
  if (block.Page !== undefined) return block.Page;
  // Only a one-page document may leave the page out (the synchronous API does); otherwise a word
  // could land on the wrong page.
  if (documentPages === 1) return 1;
  throw new Error(
    `${api.get} for ${request.document}: ${where}.Page: expected the page number of a block in a ${documentPages ?? "?"}-page document`,
  );
}

/** Textract's box is relative to the page (0–1, origin top left); the contract wants PDF points from the bottom left. */
function toPoints(word: Word, size: { width: number; height: number }): OcrWord {
  const box = word.Geometry.BoundingBox;
  return {
    text: word.Text,
    x: box.Left * size.width,
    y: (1 - box.Top - box.Height) * size.height,
    width: box.Width * size.width,
    height: box.Height * size.height,
    confidence: word.Confidence,
  };
}

function describePartialRead(
  request: OcrRequest,
  first: GetResponse,
  warnings: NonNullable<GetResponse["Warnings"]>,
): string {
  const details = warnings.map(
    (warning) =>
      `${warning.ErrorCode ?? "unnamed warning"}${warning.Pages.length ? ` on page${warning.Pages.length > 1 ? "s" : ""} ${warning.Pages.join(", ")}` : ""}`,
  );
  return `Textract read ${request.document} only in part (${first.JobStatus}): ${details.join("; ") || first.StatusMessage || "no warning given"}`;
}

// ---- Errors -------------------------------------------------------------------------------------

/**
 * Textract's refusals that are the document's own problem become OcrDocumentError (the verdicts that
 * needed it say so); anything else (throttling, 5xx, access denied, a bug of ours) is rethrown as it
 * came, for the SDK's and the state machine's retries or for an operator.
 */
function asDocumentError(error: unknown, request: OcrRequest): unknown {
  const name = (error as { name?: unknown })?.name;
  const message = String((error as { message?: unknown })?.message ?? "");
  const where = `s3://${request.location.bucket}/${request.location.key}`;
  const reason =
    name === "InvalidS3ObjectException"
      ? `Textract could not read ${where} (the object must exist, be readable by the worker and be in the function's region)`
      : name === "UnsupportedDocumentException"
        ? "Textract does not read this format (it reads PDF, TIFF, JPEG and PNG)"
        : name === "DocumentTooLargeException"
          ? "the document is larger than Textract reads (500 MB and 3,000 pages for a PDF)"
          : name === "BadDocumentException"
            ? "Textract cannot read the document (damaged, encrypted or not what its name says)"
            : name === "InvalidParameterException" && /document|page|file|S3 ?object/i.test(message)
              ? "Textract refused the document"
              : undefined;
  if (!reason) return error;
  return new OcrDocumentError(
    request.document,
    `OCR of ${request.document} failed: ${reason}${message ? ` (${name}: ${message})` : ""}`,
  );
}
