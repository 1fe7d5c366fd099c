// The run resources: GET /v1/runs/{run_id}, GET /v1/runs/{run_id}/events, POST /v1/runs/{run_id}/cancel,
// POST /v1/runs/{run_id}/resume.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import type { EventsPage, RunList } from "../contracts/api-types.ts";
import { isTerminal, RUN_STATUSES, type RunStatus } from "../core/types.ts";
import { ResumeRefusedError, resumeRun } from "../runs/resume-run.ts";
import { RUN_ID_PATTERN } from "../runs/start-run.ts";
import { contiguousAfter } from "../store/events.ts";
import { loanNumberOf, MAX_LOAN_NUMBER_LENGTH } from "../store/keys.ts";
import { decodeCursor, encodeCursor, InvalidCursorError } from "../store/run-cursor.ts";
import { executionNameOf, type RunListQuery, RunNotFoundError } from "../store/runs.ts";
import type { ApiContext } from "./context.ts";
import { HttpError, json } from "./http.ts";

export const DEFAULT_EVENTS_LIMIT = 500;
export const MAX_EVENTS_LIMIT = 1000;

/** Days a list may span (a quarter): by_day is read one day after the other. */
export const MAX_LIST_DAYS = 92;
/** Days listed when `from` is not given: `to` and the 6 days before it. */
export const DEFAULT_LIST_DAYS = 7;
const MAX_FILTER_LENGTH = 200;

/**
 * GET /v1/runs: runs newest first, filtered by status, loan program, classification and creation
 * days, or found by run id / loan number (`q`), a page at a time (`cursor` ← `next_cursor`).
 */
export async function listRecentRuns(
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  const query = runListQuery(event, ctx.services.now());
  try {
    const page = await ctx.services.runs.listRecentRuns(query);
    const list: RunList = {
      runs: page.runs,
      ...(page.cursor ? { next_cursor: encodeCursor(page.cursor) } : {}),
    };
    return json(200, list);
  } catch (error) {
    if (error instanceof InvalidCursorError)
      throw invalidQuery("cursor", `expected a next_cursor of this list (${error.message})`);
    throw error;
  }
}

/** The store query of GET /v1/runs's parameters; 400 naming the first parameter that is wrong. */
export function runListQuery(event: APIGatewayProxyEvent, now: Date): RunListQuery {
  const params = event.queryStringParameters ?? {};
  const text = (name: string): string | undefined => {
    const raw = params[name];
    if (raw === undefined || raw === null) return undefined;
    const value = raw.trim();
    if (value.length === 0 || value.length > MAX_FILTER_LENGTH) {
      throw invalidQuery(name, `expected a non-empty value of at most ${MAX_FILTER_LENGTH} characters`);
    }
    return value;
  };

  const statusText = text("status");
  let statuses: RunStatus[] | undefined;
  if (statusText !== undefined) {
    statuses = statusText.split(",").map((part) => part.trim().toUpperCase()) as RunStatus[];
    const unknown = statuses.filter((status) => !RUN_STATUSES.includes(status));
    if (unknown.length > 0) {
      throw invalidQuery(
        "status",
        `unknown status ${unknown.map((status) => `"${status}"`).join(", ")}: expected a comma-separated list of ${RUN_STATUSES.join(", ")}`,
      );
    }
    statuses = [...new Set(statuses)];
  }
  const loanProgram = text("loan_program");
  const classification = text("classification");
  const q = text("q");

  const toGiven = day(params.to, "to");
  const fromGiven = day(params.from, "from");
  const to = toGiven ?? now.toISOString().slice(0, 10);
  // A search (q) without dates looks as far back as a list may: runs are kept 90 days.
  const span = q !== undefined && fromGiven === undefined ? MAX_LIST_DAYS : DEFAULT_LIST_DAYS;
  const from = fromGiven ?? addDays(to, -(span - 1));
  if (from > to) throw invalidQuery("from", `expected a day on or before to (${to})`);
  if (addDays(from, MAX_LIST_DAYS - 1) < to) {
    throw invalidQuery("from", `expected at most ${MAX_LIST_DAYS} days from from to to`);
  }

  const limit = integerParam(event, "limit", 20, 1, 100);
  const cursorText = params.cursor;
  let cursor: RunListQuery["cursor"];
  if (cursorText !== undefined && cursorText !== null) {
    try {
      cursor = decodeCursor(cursorText);
    } catch (error) {
      if (!(error instanceof InvalidCursorError)) throw error;
      throw invalidQuery("cursor", `expected a next_cursor of this list (${error.message})`);
    }
  }

  let runId: string | undefined;
  let loanNumber: string | undefined;
  if (q !== undefined) {
    if (RUN_ID_PATTERN.test(q)) runId = q;
    loanNumber = loanNumberOf(q);
    if (runId === undefined && loanNumber === undefined) {
      throw invalidQuery(
        "q",
        `expected a run id or a loan number of at most ${MAX_LOAN_NUMBER_LENGTH} characters`,
      );
    }
  }
  return {
    ...(statuses ? { statuses } : {}),
    ...(loanProgram !== undefined ? { loanProgram } : {}),
    ...(classification !== undefined ? { classification } : {}),
    from,
    to,
    ...(runId !== undefined ? { runId } : {}),
    ...(loanNumber !== undefined ? { loanNumber } : {}),
    limit,
    ...(cursor ? { cursor } : {}),
  };
}

/** A `YYYY-MM-DD` parameter that names a real day. */
function day(raw: string | null | undefined, name: string): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const value = raw.trim();
  const valid =
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
    new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
  if (!valid) throw invalidQuery(name, "expected a day as YYYY-MM-DD (UTC)");
  return value;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function invalidQuery(name: string, message: string): HttpError {
  return new HttpError(400, "invalid_query", `invalid ${name}`, [{ field: name, message }]);
}

export async function getRun(runId: string, ctx: ApiContext): Promise<APIGatewayProxyResult> {
  checkRunId(runId);
  const record = await ctx.services.runs.getRun(runId);
  if (!record) throw new RunNotFoundError(runId);
  return json(200, record);
}

export async function listRunEvents(
  runId: string,
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  const { runs } = ctx.services;
  checkRunId(runId);
  const afterSeq = integerParam(event, "after_seq", 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = integerParam(event, "limit", DEFAULT_EVENTS_LIMIT, 1, MAX_EVENTS_LIMIT);
  // Status first: when it is already final every writer has finished, so the stored events are all
  // there is. While the run is live, seq n+1 can be stored before seq n (concurrent steps): only
  // the contiguous prefix is served, so a poller that advances to next_after_seq never skips one.
  const { status } = await runs.getMeta(runId);
  const stored = await runs.listEvents(runId, afterSeq);
  const events = (isTerminal(status) ? stored : contiguousAfter(stored, afterSeq)).slice(0, limit);
  const page: EventsPage = {
    run_id: runId,
    status,
    events,
    next_after_seq: events.at(-1)?.seq ?? afterSeq,
  };
  return json(200, page);
}

/**
 * Stops the execution, then ends the run CANCELLED with a `complete` event. The store refuses to move a
 * finished run, so a run that finishes while this runs stays what it became (and this answers 409).
 */
export async function cancelRun(runId: string, ctx: ApiContext): Promise<APIGatewayProxyResult> {
  checkRunId(runId);
  await stopRun(runId, "cancelled through the API", ctx);
  return json(200, { run_id: runId, status: "CANCELLED" });
}

/** Ends a run CANCELLED (with its `complete` event); 409 when it has ended already. */
export async function stopRun(runId: string, why: string, ctx: ApiContext): Promise<void> {
  const { runs, publisher } = ctx.services;
  const meta = await runs.getMeta(runId);
  if (isTerminal(meta.status)) throw runFinished(runId, meta.status);
  if (meta.customer_id && (meta.status === "RUNNING" || meta.status === "SOLVING")) {
    // A customer's request whose tools run may be moving money: a stop would not stop the act, only
    // make the run's ending lie about it. It ends by itself, and says what it did.
    const message = `run ${runId} is carrying out a customer's request (${meta.status}); it cannot be cancelled once its tools run, and will end by itself`;
    throw new HttpError(409, "acting_in_progress", message, [{ field: "run_id", message }]);
  }

  // Stop first: once the run reads CANCELLED nothing may start another step. No execution (a run whose
  // start crashed) is nothing to stop; the run is still cancelled.
  const stopped = await ctx.workflow.stop(executionNameOf(meta), `run ${runId} ${why}`);
  if (!(await runs.updateRun(runId, { status: "CANCELLED" }))) {
    throw runFinished(runId, (await runs.getMeta(runId)).status);
  }
  await publisher.publish(runId, { stage: "complete", status: "CANCELLED", error: `the run was ${why}` });
  ctx.logger.info("run cancelled", { run_id: runId, execution_stopped: stopped, why });
}

/**
 * Redrives a FAILED or INTERRUPTED run from where it stopped: a new execution for the same run, in
 * which every finished step is reused (202). 409 for a run that is not resumable.
 */
export async function resumeRunRoute(runId: string, ctx: ApiContext): Promise<APIGatewayProxyResult> {
  const { runs, publisher } = ctx.services;
  checkRunId(runId);
  try {
    const resumed = await resumeRun(
      runId,
      { runs, publisher, startExecution: ctx.workflow.start },
      { reason: "resumed through the API" },
    );
    ctx.logger.info("run resumed", { ...resumed });
    return json(202, { ...resumed, status: (await runs.getMeta(runId)).status });
  } catch (error) {
    if (error instanceof ResumeRefusedError) {
      throw new HttpError(409, "run_not_resumable", error.message, [
        { field: "run_id", message: error.message },
      ]);
    }
    if (error instanceof RunNotFoundError) throw error;
    throw new HttpError(
      503,
      "workflow_unavailable",
      `run ${runId} could not be resumed: the workflow did not start (${(error as Error).message}); it is FAILED again and may be resumed later`,
      undefined,
      { "Retry-After": "1" },
    );
  }
}

function runFinished(runId: string, status: RunStatus): HttpError {
  return new HttpError(
    409,
    "run_finished",
    `run ${runId} already ${status}; only a running run can be cancelled`,
  );
}

export function checkRunId(runId: string | undefined): string {
  if (runId === undefined || !RUN_ID_PATTERN.test(runId)) {
    throw new HttpError(400, "invalid_run_id", "invalid run id", [
      { field: "run_id", message: "expected run-<letters, digits, - or _> (at most 104 characters)" },
    ]);
  }
  return runId;
}

function integerParam(
  event: APIGatewayProxyEvent,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = event.queryStringParameters?.[name];
  if (raw === undefined || raw === null) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw invalidQuery(name, `expected an integer from ${min} to ${max}`);
  }
  return value;
}
