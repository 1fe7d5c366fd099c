// GET /v1/runs/{run_id}/stream: the run's progress events as Server-Sent Events (text/event-stream),
// the stored ones first, then the live ones as they are stored, until the run's `complete` event.
// Each event is one SSE message: `id` is its seq (so a reconnecting EventSource sends Last-Event-ID and
// resumes after it), `event` is its stage (plan, worker, solver, complete…: the stage names of the
// legacy streaming endpoint, docs/architecture.md), `data` the event as GET /v1/runs/{id}/events
// returns it. In AWS the route is a REST API method with response streaming (a Lambda invoked with
// InvokeWithResponseStream); in the twin the same handler writes to the HTTP response. Polls the
// runs table: a stream is one reader of the run's item collection, off every run's critical path.
import type { APIGatewayProxyEvent } from "aws-lambda";
import { isTerminal, type ProgressEvent, type RunStatus } from "../core/types.ts";
import { contiguousAfter } from "../store/events.ts";
import { RunNotFoundError } from "../store/runs.ts";
import { type ErrorBody, HttpError, header } from "./http.ts";
import { checkRunId } from "./runs.ts";

/** What the stream reads of a run: the RunStore's own methods. */
export interface RunEventSource {
  getMeta(runId: string): Promise<{ status: RunStatus }>;
  listEvents(runId: string, afterSeq?: number): Promise<ProgressEvent[]>;
}

/** The writable the response goes to (Lambda's HttpResponseStream, or the twin's http.ServerResponse). */
export interface ResponseSink {
  write(chunk: string): boolean;
  end(chunk?: string): void;
  once(event: "drain" | "close", listener: () => void): unknown;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
}

export interface ResponseMeta {
  statusCode: number;
  headers: Record<string, string>;
}

export interface EventStreamOptions {
  /** How often the table is read while the run is live. */
  pollMs?: number;
  /** An SSE comment after this long without an event, so proxies keep the connection open. */
  heartbeatMs?: number;
  /** Milliseconds the invocation may still run; the stream ends (to be resumed) before it is cut. */
  remainingMs?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_POLL_MS = 1_000;
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** Stop this long before the invocation's end: a clean end lets the client resume at once. */
const STOP_MARGIN_MS = 5_000;
/** What an EventSource waits before reconnecting after the stream ends. */
const RETRY_MS = 1_000;

export type StreamEnd = "complete" | "finished" | "time_limit" | "client_gone";

/** The Last-Event-ID header (a reconnecting EventSource) or `last_event_id` (curl, first connect). */
export function lastEventIdOf(
  event: Pick<APIGatewayProxyEvent, "headers" | "queryStringParameters">,
): number {
  const fromHeader = header(event, "last-event-id");
  const raw = fromHeader ?? event.queryStringParameters?.last_event_id ?? undefined;
  if (raw === undefined || raw === null || raw === "") return 0;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) {
    const field = fromHeader === undefined ? "last_event_id" : "Last-Event-ID";
    throw new HttpError(400, "invalid_last_event_id", `invalid ${field}`, [
      { field, message: "expected the seq of the last event received (a non-negative integer)" },
    ]);
  }
  return value;
}

/** One SSE message: id = seq, event = stage, data = the event (one line of JSON). */
export function sseMessage(event: ProgressEvent): string {
  return `id: ${event.seq}\nevent: ${event.stage}\ndata: ${JSON.stringify(event)}\n\n`;
}

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-store",
  // Tells nginx-like proxies in front of the twin or a custom domain not to buffer the stream.
  "x-accel-buffering": "no",
};

/**
 * Answers one stream request: 400/404 as the REST API's JSON errors, 204 for a run whose `complete`
 * event the client has already received (an EventSource stops reconnecting on 204), else 200 and the
 * events until `complete`, the client leaves, or the invocation's time runs out (the client resumes
 * with Last-Event-ID).
 */
export async function serveRunEventStream(
  request: Pick<APIGatewayProxyEvent, "headers" | "queryStringParameters" | "pathParameters">,
  runs: RunEventSource,
  open: (meta: ResponseMeta) => ResponseSink,
  options: EventStreamOptions = {},
): Promise<StreamEnd | number> {
  let runId: string;
  let afterSeq: number;
  let status: RunStatus;
  try {
    runId = checkRunId(request.pathParameters?.run_id);
    afterSeq = lastEventIdOf(request);
    status = (await runs.getMeta(runId)).status;
  } catch (error) {
    const problem =
      error instanceof HttpError
        ? error
        : error instanceof RunNotFoundError
          ? new HttpError(404, "run_not_found", error.message)
          : undefined;
    if (!problem) throw error;
    const body: ErrorBody = {
      error: {
        code: problem.code,
        message: problem.message,
        ...(problem.fields ? { fields: problem.fields } : {}),
      },
    };
    open({ statusCode: problem.status, headers: { "content-type": "application/json" } }).end(
      JSON.stringify(body),
    );
    return problem.status;
  }
  if (isTerminal(status)) {
    const rest = await runs.listEvents(runId, afterSeq);
    if (rest.length === 0) {
      open({ statusCode: 204, headers: { "cache-control": "no-store" } }).end();
      return 204;
    }
  }
  const sink = open({ statusCode: 200, headers: SSE_HEADERS });
  return pumpEvents(runId, afterSeq, runs, sink, options);
}

async function pumpEvents(
  runId: string,
  afterSeq: number,
  runs: RunEventSource,
  sink: ResponseSink,
  options: EventStreamOptions,
): Promise<StreamEnd> {
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const remainingMs = options.remainingMs ?? (() => Number.POSITIVE_INFINITY);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let gone = false;
  sink.once("close", () => {
    gone = true;
  });
  const send = async (chunk: string) => {
    if (!sink.write(chunk)) await new Promise<void>((resolve) => sink.once("drain", resolve));
  };

  await send(`retry: ${RETRY_MS}\n\n`);
  let last = afterSeq;
  let quietSince = Date.now();
  for (;;) {
    if (gone || sink.destroyed) return "client_gone";
    // Status before events (as GET /events): once it is final every writer is done, so what is stored
    // is all there is; while live only the gap-free prefix is sent, so a resumed stream skips nothing.
    const { status } = await runs.getMeta(runId);
    const stored = await runs.listEvents(runId, last);
    const events = isTerminal(status) ? stored : contiguousAfter(stored, last);
    for (const event of events) {
      await send(sseMessage(event));
      last = event.seq;
      quietSince = Date.now();
      if (event.stage === "complete") {
        sink.end();
        return "complete";
      }
    }
    if (isTerminal(status) && events.length === 0) {
      sink.end();
      return "finished";
    }
    if (remainingMs() < STOP_MARGIN_MS + pollMs) {
      sink.end(": time limit of this stream; reconnect with Last-Event-ID to go on\n\n");
      return "time_limit";
    }
    if (Date.now() - quietSince >= heartbeatMs) {
      await send(": keep-alive\n\n");
      quietSince = Date.now();
    }
    await sleep(pollMs);
  }
}
