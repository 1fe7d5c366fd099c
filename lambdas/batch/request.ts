// The body of POST /v1/batches, validated field by field (every problem at once, by its path), like an
// evaluation request. The requests themselves are not validated here: each is its line's item, and an
// invalid one is that line's INVALID result, never the batch's 400.
import * as z from "zod";
import {
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_TOLERATED_FAILURE_PERCENTAGE,
  FILE_NAME_PATTERN,
  MAX_FILE_NAME_CHARS,
  MAX_INLINE_REQUESTS,
} from "../core/batch.ts";
import { InvalidRequestError, type RequestProblem } from "../core/request.ts";

/** Where an inline request stands in the caller's file: its line there, and the file it came from. */
export interface InlineLine {
  line: number;
  file?: string;
}

export interface BatchRequest {
  manifest?: string;
  requests?: unknown[];
  /** With requests: each one's line in the caller's file (default: request n is line n). */
  lines?: InlineLine[];
  max_concurrency: number;
  tolerated_failure_percentage: number;
  name?: string;
}

export class InvalidBatchError extends InvalidRequestError {
  override name = "InvalidBatchError";
  constructor(problems: RequestProblem[]) {
    super(problems);
    this.message = `invalid batch: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`;
  }
}

/** The highest line number a caller may give (a file of a billion lines is not a loan portfolio). */
const MAX_LINE_NUMBER = 999_999_999;
const LINE_NUMBER = `expected a line number (an integer from 1 to ${MAX_LINE_NUMBER})`;

function schema(maxConcurrency: number) {
  return z.strictObject({
    manifest: z
      .string({ error: "expected a string: s3://bucket/key.jsonl, a JSON Lines object" })
      // The API may read .jsonl objects where documents are, never the documents themselves.
      .regex(/^s3:\/\/[^/]+\/.+\.jsonl$/s, "expected s3://bucket/key.jsonl, a JSON Lines object")
      .optional(),
    requests: z
      .array(z.unknown(), { error: "expected an array of evaluation requests" })
      .min(1, "expected at least one evaluation request")
      .max(
        MAX_INLINE_REQUESTS,
        `expected at most ${MAX_INLINE_REQUESTS} requests; put a larger portfolio in a manifest`,
      )
      .optional(),
    lines: z
      .array(
        z.strictObject({
          line: z
            .number({ error: LINE_NUMBER })
            .int(LINE_NUMBER)
            .min(1, LINE_NUMBER)
            // A line's run is named after it: the number must stay short.
            .max(MAX_LINE_NUMBER, LINE_NUMBER),
          file: z
            .string({ error: "expected a file name" })
            .min(1, `expected 1 to ${MAX_FILE_NAME_CHARS} characters`)
            .max(MAX_FILE_NAME_CHARS, `expected 1 to ${MAX_FILE_NAME_CHARS} characters`)
            .regex(FILE_NAME_PATTERN, "expected a file name without control characters")
            .optional(),
        }),
        { error: "expected an array of {line, file?}, one per request" },
      )
      .max(MAX_INLINE_REQUESTS, `expected at most ${MAX_INLINE_REQUESTS} entries, one per request`)
      .optional(),
    max_concurrency: z
      .number({ error: "expected an integer" })
      .int("expected an integer")
      .min(1, "expected at least 1")
      .max(maxConcurrency, `expected at most ${maxConcurrency} (REWOO_BATCH_MAX_CONCURRENCY)`)
      .default(Math.min(DEFAULT_MAX_CONCURRENCY, maxConcurrency)),
    tolerated_failure_percentage: z
      .number({ error: "expected a number from 0 to 100" })
      .min(0, "expected a number from 0 to 100")
      .max(100, "expected a number from 0 to 100")
      .default(DEFAULT_TOLERATED_FAILURE_PERCENTAGE),
    name: z
      .string({ error: "expected a string" })
      .min(1, "expected 1 to 80 characters")
      .max(80, "expected 1 to 80 characters")
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9 _.:-]*$/,
        "expected letters, digits, spaces, _ . : or -, starting with a letter or digit",
      )
      .optional(),
  });
}

/** The batch request, or InvalidBatchError naming every offending field. */
export function validateBatchRequest(input: unknown, options: { maxConcurrency: number }): BatchRequest {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new InvalidBatchError([
      { field: "(body)", message: "expected a JSON object with manifest or requests" },
    ]);
  }
  const parsed = schema(options.maxConcurrency).safeParse(input);
  if (!parsed.success) {
    const problems: RequestProblem[] = [];
    for (const issue of parsed.error.issues) {
      const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
      for (const key of keys) {
        const path = [...issue.path, ...(key === undefined ? [] : [key])].map(String).join(".");
        // One message per field: an empty name is both too short and not of the pattern.
        if (problems.some((problem) => problem.field === (path || "(body)"))) continue;
        problems.push({
          field: path || "(body)",
          message: issue.code === "unrecognized_keys" ? "unknown field" : issue.message,
        });
      }
    }
    throw new InvalidBatchError(problems);
  }
  const request = parsed.data;
  if ((request.manifest === undefined) === (request.requests === undefined)) {
    throw new InvalidBatchError([
      {
        field: "(body)",
        message:
          request.manifest === undefined
            ? "expected manifest (s3://bucket/key.jsonl, a JSON Lines object) or requests (an array)"
            : "expected manifest or requests, not both",
      },
    ]);
  }
  if (request.lines !== undefined) checkLines(request.lines, request.requests);
  return request;
}

/** `lines`: only beside requests, one per request, each line after the one before (as in a file). */
function checkLines(lines: InlineLine[], requests: unknown[] | undefined): void {
  if (requests === undefined) {
    throw new InvalidBatchError([
      { field: "lines", message: "only with requests: a manifest's lines are numbered as in the manifest" },
    ]);
  }
  if (lines.length !== requests.length) {
    throw new InvalidBatchError([
      {
        field: "lines",
        message: `expected one entry per request (${requests.length}), got ${lines.length}`,
      },
    ]);
  }
  const problems: RequestProblem[] = [];
  lines.forEach((entry, index) => {
    const previous = lines[index - 1];
    if (previous && entry.line <= previous.line) {
      problems.push({
        field: `lines.${index}.line`,
        message: `expected a line after ${previous.line} (lines.${index - 1}.line): each request's line in the file, in file order`,
      });
    }
  });
  if (problems.length > 0) throw new InvalidBatchError(problems);
}
