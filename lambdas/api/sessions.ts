// Sessions on the REST API: a request's session (given, or new), what a follow-up inherits, and the
// session resources: GET /v1/sessions/{session_id} (state, runs, transcript; `?format=jsonl` for the
// transcript as JSON Lines), POST /v1/sessions/{session_id}/cancel and /reset.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import {
  SESSION_ID_PATTERN,
  type SessionContext,
  sessionState,
  transcriptOf,
  withSessionContext,
} from "../core/sessions.ts";
import { isTerminal, type RunStatus, WAITING_STATUSES } from "../core/types.ts";
import { newSessionId, type SessionItem } from "../store/sessions.ts";
import { CUSTOMER_TOKEN_HEADER, customerOf } from "./chat.ts";
import type { ApiContext } from "./context.ts";
import { HttpError, json } from "./http.ts";
import { stopRun } from "./runs.ts";

export interface SessionRequest {
  session_id: string;
  /** The request with the session's context applied (still to be validated). */
  body: unknown;
  session?: SessionItem;
}

/**
 * The session a start request belongs to: its `session_id` (an existing session's context applies)
 * or a new one. A malformed id is left for the request validation to name.
 */
export async function sessionRequest(body: unknown, ctx: ApiContext): Promise<SessionRequest> {
  const given = (body as { session_id?: unknown } | null)?.session_id;
  if (typeof given === "string" && SESSION_ID_PATTERN.test(given)) {
    const session = await ctx.services.sessions.get(given);
    if (session?.customer_id) {
      // A customer's conversation: a loan run there would be approved by the customer's next "yes".
      const message = `session "${given}" is a customer's banking chat; a loan evaluation cannot join it (use another session_id or none)`;
      throw new HttpError(409, "session_not_loan", message, [{ field: "session_id", message }]);
    }
    return {
      session_id: given,
      body: withSessionContext(body, session?.context),
      ...(session ? { session } : {}),
    };
  }
  if (given !== undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
    return { session_id: "", body };
  }
  // Not added to the request: it is the caller's, and its size budget too; the run record keeps it apart.
  return { session_id: newSessionId(ctx.services.now()), body };
}

/**
 * A new request in a session whose latest run still waits for its caller supersedes it (that run is
 * cancelled, as the original assistant's "new request" drops a pending clarification); one whose run
 * is still working gets 409.
 */
export async function makeRoom(session: SessionItem | undefined, ctx: ApiContext): Promise<void> {
  const latest = latestRun(session);
  if (!session || !latest) return;
  const { status } = await ctx.services.runs.getMeta(latest);
  if (isTerminal(status)) return;
  if (!WAITING_STATUSES.includes(status)) {
    throw new HttpError(
      409,
      "session_busy",
      `session ${session.session_id} is running ${latest} (${status}); wait for it, or cancel it with POST /v1/sessions/${session.session_id}/cancel`,
      [{ field: "session_id", message: `run ${latest} is ${status}` }],
    );
  }
  const reason = "superseded by a new request in its session";
  await stopRun(latest, reason, ctx);
  await ctx.services.sessions.recordCancel(session.session_id, latest, reason);
}

function latestRun(session: SessionItem | undefined): string | undefined {
  if (!session) return undefined;
  const current = session.run_ids.slice(session.reset_after ?? 0);
  return current.at(-1);
}

export async function getSession(
  sessionId: string,
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  const { sessions, runs } = ctx.services;
  const session = await requireSession(sessionId, event, "read", ctx);
  const format = event.queryStringParameters?.format ?? "json";
  if (format !== "json" && format !== "jsonl") {
    throw new HttpError(400, "invalid_format", `format: expected "json" or "jsonl", got "${format}"`, [
      { field: "format", message: 'expected "json" or "jsonl"' },
    ]);
  }
  const [entries, records] = await Promise.all([
    sessions.entries(sessionId),
    Promise.all(
      session.run_ids.map(async (runId) => {
        const meta = await runs.getMeta(runId);
        return {
          run_id: runId,
          status: meta.status,
          created_at: meta.created_at,
          events: await runs.listEvents(runId),
          ...(meta.result?.summary ? { summary: meta.result.summary } : {}),
        };
      }),
    ),
  ]);
  const transcript = transcriptOf(entries, records);
  if (format === "jsonl") {
    return {
      statusCode: 200,
      headers: {
        "content-type": "application/x-ndjson",
        "content-disposition": `attachment; filename="session_${sessionId}.jsonl"`,
        "cache-control": "no-store",
      },
      body: transcript.map((entry) => JSON.stringify(entry)).join("\n") + (transcript.length ? "\n" : ""),
    };
  }
  const latest = latestRun(session);
  const latestStatus = records.find((record) => record.run_id === latest)?.status as RunStatus | undefined;
  return json(200, {
    session_id: sessionId,
    state: sessionState(latestStatus),
    ...(latest ? { active_run_id: latest } : {}),
    context: session.context ?? null,
    runs: records.map(({ run_id, status, created_at, summary }) => ({
      run_id,
      status,
      created_at,
      ...(summary ? { summary } : {}),
    })),
    transcript,
    created_at: session.created_at,
    updated_at: session.updated_at,
  });
}

/** Cancels the session's latest run if it has not ended (the session goes back to idle). */
export async function cancelSession(
  sessionId: string,
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  const session = await requireSession(sessionId, event, "change", ctx);
  const latest = latestRun(session);
  const status = latest ? (await ctx.services.runs.getMeta(latest)).status : undefined;
  if (!latest || !status || isTerminal(status)) {
    throw new HttpError(409, "nothing_to_cancel", `session ${sessionId} has no run in progress`);
  }
  await stopRun(latest, "cancelled with its session", ctx);
  await ctx.services.sessions.recordCancel(sessionId, latest, "cancelled with its session");
  return json(200, { session_id: sessionId, cancelled_run_id: latest, state: "idle" });
}

/**
 * Forgets what follow-ups inherit (metadata, documents) and cancels a run still in progress: the
 * next request starts from scratch. The transcript keeps everything.
 */
export async function resetSession(
  sessionId: string,
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  const session = await requireSession(sessionId, event, "change", ctx);
  const latest = latestRun(session);
  if (latest && !isTerminal((await ctx.services.runs.getMeta(latest)).status)) {
    await stopRun(latest, "cancelled by a reset of its session", ctx);
    await ctx.services.sessions.recordCancel(sessionId, latest, "cancelled by a reset of its session");
  }
  await ctx.services.sessions.reset(sessionId, session.run_ids.length);
  return json(200, { session_id: sessionId, state: "idle", context: null as SessionContext | null });
}

/**
 * The session, if the caller may `access` it. A loan session is the operators' (the REST API's
 * callers). A customer's chat session is that customer's: read or changed with their token
 * (X-Customer-Token); an operator may read its transcript only where REWOO_CHAT_TRANSCRIPTS is
 * "officers", and never cancels or resets it (the customer says "cancel" in the chat).
 */
async function requireSession(
  sessionId: string,
  event: APIGatewayProxyEvent,
  access: "read" | "change",
  ctx: ApiContext,
): Promise<SessionItem> {
  if (!SESSION_ID_PATTERN.test(sessionId)) {
    throw new HttpError(400, "invalid_session_id", "invalid session id", [
      { field: "session_id", message: "expected letters, digits, _ or - (at most 64)" },
    ]);
  }
  const session = await ctx.services.sessions.get(sessionId);
  if (!session) throw new HttpError(404, "session_not_found", `session "${sessionId}" does not exist`);
  if (!session.customer_id) return session;
  if (hasHeader(event, CUSTOMER_TOKEN_HEADER)) {
    // Another customer's session is, to this caller, one that does not exist (as in the chat).
    if ((await customerOf(event, ctx)) !== session.customer_id) {
      throw new HttpError(404, "session_not_found", `session "${sessionId}" does not exist`);
    }
    return session;
  }
  if (access === "read" && ctx.services.config.api.officersReadChats) return session;
  const message =
    access === "read"
      ? `session "${sessionId}" is a customer's banking chat: only that customer may read it (with ${CUSTOMER_TOKEN_HEADER}), unless REWOO_CHAT_TRANSCRIPTS=officers`
      : `session "${sessionId}" is a customer's banking chat: only that customer may cancel or reset it (with ${CUSTOMER_TOKEN_HEADER}, or by saying so in the chat)`;
  throw new HttpError(403, "customer_session", message, [{ field: "session_id", message }]);
}

function hasHeader(event: APIGatewayProxyEvent, name: string): boolean {
  return Object.keys(event.headers ?? {}).some((header) => header.toLowerCase() === name.toLowerCase());
}
