// `rewoo evaluate --local` accepts PDFs from disk in s3_pdf_paths so a loan officer can try the
// agent on their own files: they are checked before anything starts, uploaded to the twin's
// documents bucket under a content-addressed key, and the request is rewritten to those keys. The
// request file is checked whole before the twin boots: its local files and everything the twin's API
// would refuse (validateRequest with the twin's policy and the condition catalog), in one report.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, isAbsolute, resolve } from "node:path";
import { DEFAULT_UPLOAD_PREFIX } from "../lambdas/contracts/documents.ts";
import { uploadKey } from "../lambdas/core/documents.ts";
import {
  InvalidRequestError,
  type RequestPolicy,
  type RequestProblem,
  validateRequest,
} from "../lambdas/core/request.ts";

export interface StagedDocument {
  file: string;
  key: string;
  bytes: Uint8Array;
}

/** Paths that can only mean a file on disk; anything else is a local file only if it exists. */
const looksLocal = (path: string) => isAbsolute(path) || /^\.{1,2}[\\/]|^~[\\/]/.test(path);

export function stageLocalDocuments(
  request: unknown,
  baseDir: string,
): { request: unknown; staged: StagedDocument[] } {
  const { problems, ...staged } = stageCollecting(request, baseDir);
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return staged;
}

/**
 * A request file for `rewoo evaluate --local`, staged and checked: throws InvalidRequestError naming
 * every problem, its local files' and the request's own, so one run of the command lists them all.
 */
export function checkLocalRequest(
  input: unknown,
  baseDir: string,
  policy: RequestPolicy,
): { request: unknown; staged: StagedDocument[] } {
  const { problems, request, staged } = stageCollecting(input, baseDir);
  try {
    validateRequest(request, policy);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    // A local file already named keeps only that problem: its path was never rewritten to a key.
    const named = new Set(problems.map((problem) => problem.field));
    problems.push(...error.problems.filter((problem) => !named.has(problem.field)));
  }
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return { request, staged };
}

function stageCollecting(
  request: unknown,
  baseDir: string,
): { request: unknown; staged: StagedDocument[]; problems: RequestProblem[] } {
  const paths = (request as { s3_pdf_paths?: unknown })?.s3_pdf_paths;
  if (!Array.isArray(paths)) return { request, staged: [], problems: [] };
  const problems: RequestProblem[] = [];
  const staged: StagedDocument[] = [];
  const rewritten = paths.map((path, index) => {
    if (typeof path !== "string" || path.startsWith("s3://")) return path;
    const file = resolve(baseDir, path);
    const exists = existsSync(file) && statSync(file).isFile();
    if (!exists) {
      if (looksLocal(path))
        problems.push({ field: `s3_pdf_paths[${index}]`, message: `local file ${file} does not exist` });
      return path;
    }
    const bytes = new Uint8Array(readFileSync(file));
    if (Buffer.from(bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") {
      problems.push({
        field: `s3_pdf_paths[${index}]`,
        message: `local file ${file} is not a PDF (it does not start with %PDF-)`,
      });
      return path;
    }
    const digest = createHash("sha256").update(bytes).digest("hex");
    const key = uploadKey(DEFAULT_UPLOAD_PREFIX, digest, basename(file));
    staged.push({ file, key, bytes });
    return key;
  });
  return { request: { ...(request as object), s3_pdf_paths: rewritten }, staged, problems };
}
