// What `rewoo batch` sends: a folder of request files (one batch line per *.json file, in name order)
// or a JSON Lines manifest (one request per line). Lines the CLI cannot send are its to report, in
// the same shape as the API reports an invalid line: text that is not JSON (the API takes the batch
// inline, as JSON values, so such a line cannot reach it), and with --local a PDF on disk that is
// missing or not a PDF. Everything else goes to the API, which validates each request as its line.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { LineError } from "../lambdas/core/batch.ts";
import { InvalidRequestError } from "../lambdas/core/request.ts";
import { type StagedDocument, stageLocalDocuments } from "./local-documents.ts";

export interface BatchLine {
  /** The line's number in the manifest (1-based, blank lines counted as an editor does), or the file's position in the folder. */
  line: number;
  /** The request file the line came from, for a folder (its name inside the folder). */
  file?: string;
  /** The request as read, when it could be (then it is sent). */
  request?: unknown;
  /** Why the line is not sent: found by the CLI, reported as the line's INVALID result. */
  error?: LineError;
}

export interface BatchInput {
  /** The folder or manifest as given on the command line. */
  source: string;
  kind: "folder" | "manifest";
  lines: BatchLine[];
  /** Where local PDF paths in the requests are relative to (the folder, or the manifest's folder). */
  baseDir: string;
}

/** The folder or manifest could not be read as a batch at all (nothing is sent). */
export class BatchInputError extends Error {
  override name = "BatchInputError";
  readonly field = "input";
}

export function readBatchInput(path: string): BatchInput {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (error) {
    throw new BatchInputError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (isFolder) return readFolder(path);
  if (extname(path).toLowerCase() !== ".jsonl") {
    throw new BatchInputError(
      `${path} is neither a folder of request files (*.json) nor a JSON Lines manifest (*.jsonl)`,
    );
  }
  return readManifest(path);
}

/** Name order as people read it: loan-2.json before loan-10.json. */
const byName = new Intl.Collator("en", { numeric: true }).compare;

function readFolder(folder: string): BatchInput {
  const files = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && extname(entry.name).toLowerCase() === ".json")
    .map((entry) => entry.name)
    .sort(byName);
  if (files.length === 0) throw new BatchInputError(`${folder} has no request file (*.json)`);
  const lines = files.map((file, index): BatchLine => {
    const line = index + 1;
    let text: string;
    try {
      text = readFileSync(join(folder, file), "utf8");
    } catch (error) {
      const message = `${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
      return {
        line,
        file,
        error: { code: "unreadable_file", message, fields: [{ field: "(file)", message }] },
      };
    }
    try {
      return { line, file, request: JSON.parse(text) };
    } catch (error) {
      const message = `${file} is not JSON: ${(error as Error).message}`;
      return { line, file, error: { code: "invalid_json", message, fields: [{ field: "(file)", message }] } };
    }
  });
  return { source: folder, kind: "folder", lines, baseDir: resolve(folder) };
}

function readManifest(file: string): BatchInput {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new BatchInputError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const lines: BatchLine[] = [];
  text.split("\n").forEach((raw, index) => {
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (content.trim() === "") return;
    const line = index + 1;
    try {
      lines.push({ line, request: JSON.parse(content) });
    } catch (error) {
      // The API's words for the same line in an S3 manifest, so both read alike.
      const message = `line ${line} is not JSON: ${(error as Error).message}`;
      lines.push({ line, error: { code: "invalid_json", message, fields: [{ field: "(line)", message }] } });
    }
  });
  if (lines.length === 0) throw new BatchInputError(`${file} has no request line (every line is blank)`);
  return { source: file, kind: "manifest", lines, baseDir: dirname(resolve(file)) };
}

/**
 * `--local`: PDF files on disk in a line's s3_pdf_paths are checked and rewritten to the keys they are
 * uploaded under, as `rewoo evaluate --local` does; a line whose file is missing or not a PDF becomes
 * that line's INVALID result and the rest of the batch goes on. A file named by many lines is uploaded once.
 */
export function stageBatchDocuments(input: BatchInput): { input: BatchInput; staged: StagedDocument[] } {
  const staged = new Map<string, StagedDocument>();
  const lines = input.lines.map((line): BatchLine => {
    if (line.request === undefined) return line;
    try {
      const result = stageLocalDocuments(line.request, input.baseDir);
      for (const document of result.staged) staged.set(document.key, document);
      return { ...line, request: result.request };
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error;
      const { request: _notSent, ...rest } = line;
      return { ...rest, error: { code: "invalid_request", message: error.message, fields: error.problems } };
    }
  });
  return { input: { ...input, lines }, staged: [...staged.values()] };
}

/** How a line is named to people: `line 7` of a manifest, or the folder's file. */
export function lineLabel(line: { line: number; file?: string }): string {
  return line.file ? basename(line.file) : `line ${line.line}`;
}
