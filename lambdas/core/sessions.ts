// Sessions: runs grouped under one id, like the turns of a conversation with an assistant. A
// follow-up request inherits the session's metadata and documents unless it overrides them; the
// session's state and its transcript (every request, question, answer, review, decision and result,
// in order) are read from the session's own entries and its runs' events. Pure.
import type { ProgressEvent, RunStatus } from "./types.ts";

/** A client-chosen session id: letters, digits, `_` and `-`, at most 64 characters. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** What a follow-up inherits: the last request's metadata and documents (cleared by a reset). */
export interface SessionContext {
  metadata: Record<string, unknown>;
  s3_pdf_paths: string[];
}

export type SessionState =
  | "idle"
  | "awaiting_clarification"
  | "awaiting_approval"
  | "executing"
  | "completed";

/** The session's state from its latest run (none, or reset since: idle). */
export function sessionState(latest: RunStatus | undefined): SessionState {
  switch (latest) {
    case undefined:
      return "idle";
    case "AWAITING_INPUT":
      return "awaiting_clarification";
    case "AWAITING_APPROVAL":
      return "awaiting_approval";
    case "PLANNING":
    case "RUNNING":
    case "SOLVING":
      return "executing";
    default:
      return "completed";
  }
}

/**
 * The request a follow-up stands for: its metadata deep-merged over the session's (its own fields
 * win), the session's documents unless it names its own. Anything else is the follow-up's.
 */
export function withSessionContext(body: unknown, context: SessionContext | undefined): unknown {
  if (!context || body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const request = body as Record<string, unknown>;
  const metadata = request.metadata;
  return {
    ...request,
    metadata:
      metadata === undefined
        ? structuredClone(context.metadata)
        : isRecord(metadata)
          ? deepMerge(context.metadata, metadata)
          : metadata,
    s3_pdf_paths: request.s3_pdf_paths === undefined ? [...context.s3_pdf_paths] : request.s3_pdf_paths,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    const current = merged[key];
    merged[key] = isRecord(current) && isRecord(value) ? deepMerge(current, value) : structuredClone(value);
  }
  return merged;
}

// ---------------------------------------------------------------- transcript

/** What the session itself records (the rest of the transcript comes from its runs' events). */
export type SessionEntry =
  | { type: "request"; at: string; run_id: string; request: Record<string, unknown> }
  /** A chat message of the conversation, the customer's or the assistant's. */
  | { type: "message"; at: string; role: "user" | "assistant"; text: string; run_id?: string }
  | { type: "reset"; at: string }
  | { type: "cancel"; at: string; run_id: string; reason: string };

type Derived =
  | SessionEntry
  | { type: "question"; at: string; run_id: string; questions: unknown[]; deadline: string }
  | { type: "answer"; at: string; run_id: string; status: string; fields: string[] }
  | { type: "review"; at: string; run_id: string; target: string; score: number; approved: boolean }
  | { type: "approval"; at: string; run_id: string; status: string; reason?: string }
  | { type: "result"; at: string; run_id: string; status: string; summary?: string; error?: string };

/** A line of the transcript: numbered, with the session's state after it. */
export type TranscriptEntry = Derived & { seq: number; state: SessionState };

/** One run's events as transcript entries (plans and worker progress stay in the run's own events). */
function fromEvents(runId: string, events: readonly ProgressEvent[], summary: string | undefined): Derived[] {
  const entries: Derived[] = [];
  for (const event of events) {
    const at = event.timestamp;
    switch (event.stage) {
      case "question":
        entries.push({
          type: "question",
          at,
          run_id: runId,
          questions: event.questions,
          deadline: event.deadline,
        });
        break;
      case "answer":
        entries.push({ type: "answer", at, run_id: runId, status: event.status, fields: event.fields });
        break;
      case "review":
        entries.push({
          type: "review",
          at,
          run_id: runId,
          target: event.target,
          score: event.score,
          approved: event.approved,
        });
        break;
      case "approval":
        entries.push({
          type: "approval",
          at,
          run_id: runId,
          status: event.status,
          ...(event.reason ? { reason: event.reason } : {}),
        });
        break;
      case "complete":
        entries.push({
          type: "result",
          at,
          run_id: runId,
          status: event.status,
          ...(summary ? { summary } : {}),
          ...(event.error ? { error: event.error } : {}),
        });
        break;
      default:
        break;
    }
  }
  return entries;
}

const STATE_AFTER: Record<string, (entry: Derived) => SessionState | undefined> = {
  request: () => "executing",
  question: () => "awaiting_clarification",
  answer: () => "executing",
  approval: (entry) => {
    const status = entry.type === "approval" ? entry.status : "";
    return status === "pending"
      ? "awaiting_approval"
      : status === "approved" || status === "edited"
        ? "executing"
        : undefined;
  },
  result: () => "completed",
  reset: () => "idle",
};

/**
 * The ordered transcript: the session's entries and its runs' events by time (the session's own
 * entry first on a tie: a request comes before what its run did), each with the session's state
 * after it, numbered from 1.
 */
export function transcriptOf(
  entries: readonly SessionEntry[],
  runs: ReadonlyArray<{ run_id: string; events: readonly ProgressEvent[]; summary?: string }>,
): TranscriptEntry[] {
  const all: Array<{ entry: Derived; own: boolean }> = [
    ...entries.map((entry) => ({ entry, own: true })),
    ...runs.flatMap((run) =>
      fromEvents(run.run_id, run.events, run.summary).map((entry) => ({ entry, own: false })),
    ),
  ];
  all.sort((a, b) => a.entry.at.localeCompare(b.entry.at) || Number(b.own) - Number(a.own));
  let state: SessionState = "idle";
  return all.map(({ entry }, index) => {
    state = STATE_AFTER[entry.type]?.(entry) ?? state;
    return { ...entry, seq: index + 1, state } as TranscriptEntry;
  });
}
