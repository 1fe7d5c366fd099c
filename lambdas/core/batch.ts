// What a batch is, shared by the API (which creates batches and reads them), the batch function (the
// Distributed Map's item steps and the batch's bookkeeping), the store and the CLI. Pure: no I/O (a new
// batch's id is made by the store, lambdas/store/batches.ts, like a session's).

import { type VerdictCounts, verdictCounts } from "../contracts/run-result.ts";
import type { RequestProblem } from "./request.ts";
import type { TerminalStatus } from "./types.ts";

/** Requests a POST /v1/batches body may carry inline; a larger portfolio comes as a manifest. */
export const MAX_INLINE_REQUESTS = 1_000;
/** Lines (with a request) a manifest may hold. */
export const MAX_MANIFEST_LINES = 10_000;
/** Bytes of a manifest object: the API reads it once, whole, to number its lines. */
export const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;
/**
 * Bytes of one manifest line. A line travels as a Distributed Map item (the child execution's input,
 * 256 KiB at most with the batch id around it); a request that the run record can store is far smaller.
 */
export const MAX_LINE_BYTES = 200 * 1024;
export const DEFAULT_MAX_CONCURRENCY = 10;
export const DEFAULT_TOLERATED_FAILURE_PERCENTAGE = 10;

export const BATCH_ID_PATTERN = /^batch-[\w-]{1,100}$/;

/**
 * A line's run is named after its batch and line: a retried item step (a Lambda retry, a redriven
 * Map Run) finds the run it already created instead of starting a second one.
 */
export function runIdForLine(batchId: string, line: number): string {
  return `run-${batchId.replace(/^batch-/, "")}-${line}`;
}

/** Where the API keeps a batch's numbered manifest and where the ResultWriter writes, in the artifacts bucket. */
export const batchManifestKey = (batchId: string) => `batches/${batchId}/manifest.jsonl`;
export const batchResultsPrefix = (batchId: string) => `batches/${batchId}/results`;

export type BatchStatus = "RUNNING" | "SUCCEEDED" | "FAILED" | "ABORTED";

/** What a finished line is counted as: its run's terminal status, or INVALID (no run was created). */
export type RecordedLineStatus = TerminalStatus | "INVALID";

/**
 * A line's status in the results: recorded, or RUNNING (its run is in flight), PENDING (not started
 * yet), NOT_RUN (the batch ended before it started), STOPPED (the batch ended while its run was in flight).
 */
export type LineStatus = RecordedLineStatus | "RUNNING" | "PENDING" | "NOT_RUN" | "STOPPED";

/** Statuses that count as a failed line for the batch's tolerated failure percentage. */
export const FAILED_LINE_STATUSES: readonly RecordedLineStatus[] = ["FAILED", "INTERRUPTED"];

export interface LineError {
  code: string;
  message: string;
  fields?: RequestProblem[];
}

/** Where a line came from, for people to find it: the caller's file, and the documents its request names. */
export interface LineSource {
  /** The file the caller read the request from (a folder's request file), as the caller named it. */
  file?: string;
  /** The file names of the request's s3_pdf_paths (the last part of each path). */
  documents?: string[];
}

// A line's verdict counts are the API result's, counted where the result's shape is defined.
export { type VerdictCounts, verdictCounts };

export interface LineResult extends LineSource {
  line: number;
  status: LineStatus;
  run_id?: string;
  error?: LineError;
  /** The line's run ended with a result: its verdicts by kind. */
  verdicts?: VerdictCounts;
}

/**
 * One item of the numbered manifest the Distributed Map reads: the line's request as parsed, or why
 * the line could not be parsed (then the item step reports it INVALID without looking further), with
 * the file the caller read it from when the caller said.
 */
export type ManifestItem = ({ line: number; request: unknown } | { line: number; unreadable: LineError }) & {
  file?: string;
};

/** A line's `file` as a caller may name it: a file name or relative path, no control characters. */
export const MAX_FILE_NAME_CHARS = 255;
export const FILE_NAME_PATTERN = /^[^\p{Cc}]+$/u;
/** Document names a line's result lists at most, each cut to MAX_FILE_NAME_CHARS. */
export const MAX_LINE_DOCUMENTS = 20;

/**
 * The file names of a request's s3_pdf_paths, whatever else the request holds (an invalid line is
 * named by them too); undefined when it names none.
 */
export function documentNames(request: unknown): string[] | undefined {
  if (request === null || typeof request !== "object") return undefined;
  const paths = (request as { s3_pdf_paths?: unknown }).s3_pdf_paths;
  if (!Array.isArray(paths)) return undefined;
  const names = paths
    .filter((path): path is string => typeof path === "string" && path.trim() !== "")
    .slice(0, MAX_LINE_DOCUMENTS)
    .map((path) => (path.replace(/\/+$/, "").split("/").at(-1) || path).slice(0, MAX_FILE_NAME_CHARS));
  return names.length > 0 ? names : undefined;
}

/** The batch workflow's execution input (statemachine/batch.asl.json reads these paths). */
export interface BatchExecutionInput {
  batch_id: string;
  manifest: { bucket: string; key: string };
  max_concurrency: number;
  tolerated_failure_percentage: number;
  results: { bucket: string; prefix: string };
}

/** Runs of line numbers, [first, last] inclusive: a manifest's lines without storing each number. */
export type LineRanges = Array<[number, number]>;

export function lineRanges(lines: readonly number[]): LineRanges {
  const ranges: LineRanges = [];
  for (const line of lines) {
    const last = ranges.at(-1);
    if (last && line === last[1] + 1) last[1] = line;
    else ranges.push([line, line]);
  }
  return ranges;
}

export function* linesOf(ranges: LineRanges): Generator<number> {
  for (const [first, last] of ranges) for (let line = first; line <= last; line++) yield line;
}
