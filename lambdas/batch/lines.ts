// The Distributed Map's item steps (statemachine/batch.asl.json, one child workflow per manifest line):
// StartLine creates the line's run exactly as the API does (the same validation and run record) without
// starting it, because the child workflow runs the evaluation workflow itself, as a child execution that
// it waits for; RecordLine reads how the run ended and counts the line once in the batch record.

import { checkLoanMetadata } from "../agents/loan/request-catalog.ts";
import {
  documentNames,
  FAILED_LINE_STATUSES,
  type LineError,
  type LineSource,
  type ManifestItem,
  type RecordedLineStatus,
  runIdForLine,
  type VerdictCounts,
  verdictCounts,
} from "../core/batch.ts";
import type { ResultPolicy } from "../core/destinations.ts";
import type { DocumentPolicy } from "../core/documents.ts";
import { InvalidRequestError, RequestTooLargeError, validateRequest } from "../core/request.ts";
import { isTerminal, type TerminalStatus } from "../core/types.ts";
import { createRunRecord } from "../runs/start-run.ts";
import type { BatchStore } from "../store/batches.ts";
import type { RunStore } from "../store/runs.ts";

export interface LineDeps {
  runs: RunStore;
  batches: BatchStore;
  documentPolicy: DocumentPolicy;
  resultPolicy: ResultPolicy;
}

/** An INVALID line names at most this many fields (a line of garbage could name hundreds). */
const MAX_FIELDS_REPORTED = 20;
const MAX_MESSAGE_CHARS = 2_000;

/**
 * What StartLine hands to the rest of the child workflow: the run to execute, or why there is none
 * (`invalid`), or that the run had already ended (`finished`, a retried item), so nothing runs again.
 */
export interface StartedLine extends LineSource {
  line: number;
  run_id?: string;
  invalid?: LineError;
  finished?: TerminalStatus;
}

export async function startLine(batchId: string, item: ManifestItem, deps: LineDeps): Promise<StartedLine> {
  const documents = "request" in item ? documentNames(item.request) : undefined;
  const source: LineSource = {
    ...(item.file ? { file: item.file } : {}),
    ...(documents ? { documents } : {}),
  };
  const line = { line: item.line, ...source };
  if ("unreadable" in item) return { ...line, invalid: item.unreadable };
  const request = item.request;
  if (request !== null && typeof request === "object" && "session_id" in request) {
    const message =
      "a batch line may not name a session: sessions are conversations, each batch line is a request of its own";
    return {
      ...line,
      invalid: { code: "session_not_allowed", message, fields: [{ field: "session_id", message }] },
    };
  }
  const runId = runIdForLine(batchId, item.line);
  let created: boolean;
  try {
    const validated = validateRequest(request, {
      documents: deps.documentPolicy,
      results: deps.resultPolicy,
      metadataProblems: checkLoanMetadata,
    });
    ({ created } = await createRunRecord(validated, { runs: deps.runs }, { runId, mode: "rewoo" }));
  } catch (error) {
    if (error instanceof InvalidRequestError) return { ...line, invalid: invalidLine(error) };
    throw error;
  }
  if (!created) {
    const { status } = await deps.runs.getMeta(runId);
    if (isTerminal(status)) return { ...line, run_id: runId, finished: status };
  }
  await deps.batches.lineStarted(batchId, item.line, runId, source);
  return { ...line, run_id: runId };
}

/**
 * How the child execution ended, as the workflow passes it on: RunEvaluation's `{status}` when the
 * execution succeeded, its caught `{Error, Cause}` otherwise, `{skipped: true}` when nothing ran.
 */
export type ExecutionOutcome = { status: string } | { Error: string; Cause?: string } | { skipped: true };

export interface RecordedLine extends LineSource {
  line: number;
  status: RecordedLineStatus;
  run_id?: string;
  error?: LineError;
  verdicts?: VerdictCounts;
  /** The child workflow fails on this line, so that the Map's tolerated failure percentage sees it. */
  failed: boolean;
}

export async function recordLine(
  batchId: string,
  started: StartedLine,
  execution: ExecutionOutcome,
  deps: LineDeps,
): Promise<RecordedLine> {
  const result = await lineResult(started, execution, deps);
  await deps.batches.recordLine(batchId, result);
  return { ...result, failed: FAILED_LINE_STATUSES.includes(result.status) };
}

async function lineResult(
  started: StartedLine,
  execution: ExecutionOutcome,
  deps: LineDeps,
): Promise<Omit<RecordedLine, "failed">> {
  const line = started.line;
  const source: LineSource = {
    ...(started.file ? { file: started.file } : {}),
    ...(started.documents?.length ? { documents: started.documents } : {}),
  };
  return { line, ...source, ...(await outcomeOf(started, execution, deps)) };
}

async function outcomeOf(
  started: StartedLine,
  execution: ExecutionOutcome,
  deps: LineDeps,
): Promise<Omit<RecordedLine, "failed" | "line" | keyof LineSource>> {
  if (!started.invalid && !started.run_id && "Error" in execution) {
    // StartLine itself failed (after its retries): no run was created, the line could not be started.
    return {
      status: "FAILED",
      error: { code: "start_failed", message: clip(`${execution.Error}: ${execution.Cause ?? ""}`) },
    };
  }
  if (started.invalid || !started.run_id) {
    return {
      status: "INVALID",
      error: started.invalid ?? { code: "invalid_request", message: "the line has no request" },
    };
  }
  const runId = started.run_id;
  const meta = await deps.runs.getMeta(runId);
  if (isTerminal(meta.status)) {
    return {
      run_id: runId,
      status: meta.status,
      ...(meta.result ? { verdicts: verdictCounts(meta.result) } : {}),
      ...(meta.error && meta.status !== "SUCCEEDED"
        ? { error: { code: "run_failed", message: clip(`${meta.error.error}: ${meta.error.cause}`) } }
        : {}),
    };
  }
  // The execution ended (it was stopped, timed out, or failed where its own handler could not record
  // it) before its run was closed; EventBridge closes the run shortly, the line fails now.
  const cause =
    "Error" in execution ? `${execution.Error}: ${execution.Cause ?? ""}` : `run is ${meta.status}`;
  return {
    run_id: runId,
    status: "FAILED",
    error: {
      code: "execution_failed",
      message: clip(`the run's execution ended before the run did (${cause})`),
    },
  };
}

function invalidLine(error: InvalidRequestError): LineError {
  return {
    code: error instanceof RequestTooLargeError ? "request_too_large" : "invalid_request",
    message: clip(error.message),
    fields: error.problems
      .slice(0, MAX_FIELDS_REPORTED)
      .map((problem) => ({ field: problem.field, message: clip(problem.message) })),
  };
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}
