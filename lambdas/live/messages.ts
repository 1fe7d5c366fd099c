// What goes over the WebSocket. Progress events are sent as they are stored (docs/api.openapi.yaml ProgressEvent), one
// event per message; the other messages carry a `type` (events never do), so a client tells them apart.
import type { ProgressEvent } from "../core/types.ts";

/**
 * API Gateway refuses PostToConnection payloads above 128 KB. Measured in UTF-8 bytes and kept
 * under 128 000 so it holds whichever way "KB" is read.
 */
export const MAX_MESSAGE_BYTES = 128_000;

/** Sent instead of an event whose JSON does not fit in one message: the client fetches the rest over REST. */
export interface TruncatedEvent {
  run_id: string;
  seq: number;
  timestamp: string;
  stage: ProgressEvent["stage"];
  status?: string;
  step?: string;
  tool?: string;
  level?: number;
  truncated: true;
  /** The REST resource that holds the full content (the run record has the plan, evidence and result). */
  resource: string;
}

export interface ErrorMessage {
  type: "error";
  message: string;
}

export function runResource(runId: string): string {
  return `/v1/runs/${encodeURIComponent(runId)}`;
}

/**
 * The message for one event: its JSON, or a pointer to the REST resource when the JSON is too
 * large (a `plan` event of a long plan, a `solver` event with big results, a worker error with a
 * huge upstream body). The pointer keeps what a progress view needs — stage, status, step — and
 * the seq, so the stream stays gap-free.
 */
export function eventMessage(event: ProgressEvent, limit = MAX_MESSAGE_BYTES): string {
  const json = JSON.stringify(event);
  if (Buffer.byteLength(json, "utf8") <= limit) return json;
  const pointer: TruncatedEvent = {
    run_id: event.run_id,
    seq: event.seq,
    timestamp: event.timestamp,
    stage: event.stage,
    ...("status" in event && typeof event.status === "string" ? { status: event.status } : {}),
    ...(event.stage === "worker" ? { step: event.step, tool: event.tool, level: event.level } : {}),
    truncated: true,
    resource: runResource(event.run_id),
  };
  return JSON.stringify(pointer);
}

export function errorMessage(message: string): string {
  return JSON.stringify({ type: "error", message } satisfies ErrorMessage);
}
