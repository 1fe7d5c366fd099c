// POST /v1/chat: the banking assistant's conversation on the engine. A message is understood
// (intent and details), and then, depending on where the session's latest run stands: a new request
// starts a banking run; details answer the run's question (the plan is written again with them);
// "yes"/"no" decides a money movement the run waits to confirm; "cancel", "reset" and "new request"
// steer the conversation. The reply comes once the run needs the customer again or has ended (or
// after REWOO_CHAT_WAIT_SECONDS, with the run still working). The customer is the signed customer
// token's (X-Customer-Token), never anything in the message.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import * as z from "zod";
import {
  type BankingIntent,
  detectCommand,
  detectIntent,
  mergeSlots,
  type Slots,
  understand,
} from "../agents/banking/nlu.ts";
import {
  BANKING_PROFILE,
  bankingMetadata,
  bankingRequest,
  confirmationAnswer,
  confirmationPrompt,
  slotsFromAnswers,
} from "../agents/banking/profile.ts";
import { InvalidTokenError, mintToken } from "../auth/tokens.ts";
import type { ChatReply } from "../contracts/api-types.ts";
import { lazily } from "../core/lazy.ts";
import { SESSION_ID_PATTERN, sessionState } from "../core/sessions.ts";
import { isTerminal, WAITING_STATUSES } from "../core/types.ts";
import { newRunId, StartExecutionError, startExecutionOf } from "../runs/start-run.ts";
import type { MetaItem } from "../store/runs.ts";
import { newSessionId, type SessionItem } from "../store/sessions.ts";
import type { ApiContext } from "./context.ts";
import { HttpError, json, jsonBody } from "./http.ts";
import { stopRun } from "./runs.ts";
import { startFailure } from "./start.ts";
import { submitAnswers, submitDecision } from "./waits.ts";

export const CUSTOMER_TOKEN_HEADER = "X-Customer-Token";
const MESSAGE_LIMIT = 2_000;
const POLL_MS = 150;

/** A chat request's body, its schema built at the first message (lambdas/core/lazy.ts). */
const chatBody = /* @__PURE__ */ lazily(() =>
  z
    .object({
      session_id: z
        .string()
        .regex(SESSION_ID_PATTERN, "expected letters, digits, _ or - (at most 64)")
        .optional(),
      message: z
        .string()
        .trim()
        .min(1, "expected the customer's message")
        .max(MESSAGE_LIMIT, `expected at most ${MESSAGE_LIMIT} characters`),
    })
    .strict(),
);

const HELP =
  "I can help with a lost or stolen card, a fraud report, opening an account, your balance, or a transfer. What would you like to do?";

export async function chat(event: APIGatewayProxyEvent, ctx: ApiContext): Promise<APIGatewayProxyResult> {
  const customerId = await customerOf(event, ctx);
  const body = readBody(jsonBody(event, ctx.services.config.api.maxBodyBytes, '{"message": "..."}'));
  const { sessions } = ctx.services;
  const sessionId = body.session_id ?? newSessionId(ctx.services.now());
  // Another customer's session (or an operator's) is, to this caller, one that does not exist.
  const session = await sessions.claimForCustomer(sessionId, customerId);
  if (!session) throw new HttpError(404, "session_not_found", `session "${sessionId}" does not exist`);
  await sessions.recordMessage(sessionId, { role: "user", text: body.message });
  const answer = await converse(body.message, session, customerId, ctx);
  await sessions.recordMessage(sessionId, {
    role: "assistant",
    text: answer.reply,
    ...(answer.run_id ? { run_id: answer.run_id } : {}),
  });
  ctx.logger.info("chat turn", { session_id: sessionId, state: answer.state, run_id: answer.run_id });
  return json(200, answer);
}

/** The customer of a chat request: the verified customer token's, or 401. */
export async function customerOf(event: APIGatewayProxyEvent, ctx: ApiContext): Promise<string> {
  const header = Object.entries(event.headers ?? {}).find(
    ([name]) => name.toLowerCase() === CUSTOMER_TOKEN_HEADER.toLowerCase(),
  )?.[1];
  const unauthorized = (message: string) =>
    new HttpError(401, "customer_unauthenticated", message, [{ field: CUSTOMER_TOKEN_HEADER, message }]);
  if (!header) throw unauthorized("required: the signed-in customer's token");
  try {
    const { scope } = await ctx.verifyToken(header, ["customer"]);
    if (scope.kind !== "customer") throw unauthorized("expected a customer token");
    return scope.customer_id;
  } catch (error) {
    if (error instanceof InvalidTokenError) throw unauthorized(error.message);
    throw error;
  }
}

function readBody(input: unknown): z.infer<ReturnType<typeof chatBody>> {
  const parsed = chatBody().safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => ({
    field: issue.path.join(".") || "(body)",
    message:
      issue.code === "unrecognized_keys"
        ? `unknown field(s) ${issue.keys.join(", ")}; expected "message" and optionally "session_id"`
        : issue.message,
  }));
  throw new HttpError(
    400,
    "invalid_request",
    problems.map((p) => `${p.field}: ${p.message}`).join("; "),
    problems,
  );
}

async function converse(
  message: string,
  session: SessionItem,
  customerId: string,
  ctx: ApiContext,
): Promise<ChatReply> {
  const sessionId = session.session_id;
  const latestId = session.run_ids.slice(session.reset_after ?? 0).at(-1);
  const latest = latestId ? await ctx.services.runs.getMeta(latestId) : undefined;
  const open = latest && !isTerminal(latest.status) ? latest : undefined;
  const command = detectCommand(message);
  const intent = detectIntent(message);

  if ((command === "cancel" || command === "reset") && open && !stoppable(open)) {
    // Its tools are running: a transfer may be committing. Stopping the run would not stop that, and
    // "cancelled" would be a guess; the customer is told what really happened instead.
    const outcome = await replyFor(open.run_id, sessionId, ctx);
    const what = bankingMetadata(open.request).intent === "transfer" ? "the transfer" : "your request";
    return {
      ...outcome,
      reply: isTerminalState(outcome.state)
        ? `I couldn't cancel ${what}: it was already being carried out. ${outcome.reply}`
        : `I can't cancel ${what}: it is already being carried out. I'll tell you how it went in a moment.`,
    };
  }

  if (command === "cancel" || command === "reset") {
    if (open) await cancel(open, sessionId, `the customer said "${message}"`, ctx);
    if (command === "reset") await ctx.services.sessions.reset(sessionId, session.run_ids.length);
    const reply =
      command === "reset"
        ? "Let's start over. What can I do for you?"
        : open
          ? `OK, I've cancelled that request before anything was done${bankingMetadata(open.request).intent === "transfer" ? "; nothing was sent" : ""}. Anything else?`
          : "There's nothing in progress to cancel. What can I do for you?";
    return { session_id: sessionId, reply, state: "idle" };
  }

  if (open?.status === "AWAITING_APPROVAL") {
    const pending = bankingMetadata(open.request);
    const correction =
      intent === null || intent === pending.intent ? understand(message, pending.intent).slots : {};
    // Only a message that is an answer and nothing else decides: one that also makes a request, a
    // command or a change of details ("ok wait, make it 20 dollars") is acted on as that instead.
    const decision =
      (intent === null || intent === pending.intent) &&
      command === null &&
      Object.keys(correction).length === 0
        ? confirmationAnswer(message)
        : undefined;
    if (decision) {
      await submitDecision(
        open.run_id,
        decision === "yes"
          ? { decision: "approve", reason: "confirmed by the customer in the chat" }
          : { decision: "reject", reason: "declined by the customer in the chat" },
        ctx,
      );
      return replyFor(open.run_id, sessionId, ctx);
    }
    if (command !== "new_request" && Object.keys(correction).length > 0) {
      // "make it 20 dollars instead", "from savings": the same request with other details, which the
      // customer has not confirmed. It replaces the pending one and is confirmed on its own.
      await cancel(open, sessionId, "changed by the customer before confirming", ctx);
      const runId = await startBankingRun(
        pending.intent,
        message,
        sessionId,
        customerId,
        ctx,
        mergeSlots(correction, pending.slots),
      );
      return replyFor(runId, sessionId, ctx);
    }
    if ((!intent || intent === pending.intent) && command !== "new_request") {
      return {
        ...(await replyFor(open.run_id, sessionId, ctx, 0)),
        reply: `Please answer "yes" or "no": nothing is sent without your yes. ${confirmationPrompt(open.request)}`,
      };
    }
  }

  if (open?.status === "AWAITING_INPUT") {
    const pending = bankingMetadata(open.request).intent;
    if (command !== "new_request" && (!intent || intent === pending)) {
      const answers = answersFrom(message, pending, open);
      if (Object.keys(answers).length === 0) {
        const asked = open.clarification?.questions.map((question) => question.question).join(" ") ?? "";
        return {
          ...(await replyFor(open.run_id, sessionId, ctx, 0)),
          reply: `Sorry, I didn't catch that. ${asked}`,
        };
      }
      await submitAnswers(open.run_id, { answers }, ctx);
      return replyFor(open.run_id, sessionId, ctx);
    }
  }

  if (open && !WAITING_STATUSES.includes(open.status)) {
    return {
      ...(await replyFor(open.run_id, sessionId, ctx, 0)),
      reply: "I'm still working on your previous request; I'll have an answer in a moment.",
    };
  }

  // A new request: one the customer made while another waited on them supersedes it.
  if (!intent) {
    if (open) await cancel(open, sessionId, "superseded by a new request in the chat", ctx);
    return {
      session_id: sessionId,
      reply: command === "new_request" ? "Sure. What would you like to do?" : HELP,
      state: "idle",
    };
  }
  if (open) await cancel(open, sessionId, "superseded by a new request in the chat", ctx);
  const runId = await startBankingRun(intent, message, sessionId, customerId, ctx);
  return replyFor(runId, sessionId, ctx);
}

/** The message as the answer to each question it answers (fields `slots.<name>`; the run reads the words). */
function answersFrom(message: string, intent: BankingIntent, run: MetaItem): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const question of run.clarification?.questions ?? []) {
    const read = slotsFromAnswers(intent, { [question.field]: message });
    if (Object.keys(read).length > 0) answers[question.field] = message;
  }
  return answers;
}

async function startBankingRun(
  intent: BankingIntent,
  message: string,
  sessionId: string,
  customerId: string,
  ctx: ApiContext,
  slots: Slots = understand(message, intent).slots,
): Promise<string> {
  const { runs, sessions, publisher, config, now } = ctx.services;
  if (!config.stateMachineArn) throw new HttpError(500, "server_misconfigured", "no workflow configured");
  const request = bankingRequest({ intent, slots }, message, sessionId);
  const runId = newRunId(now());
  await runs.createRun(runId, request, { sessionId, profile: BANKING_PROFILE, customerId });
  try {
    await startExecutionOf(runId, { runs, publisher, startExecution: ctx.workflow.start });
  } catch (error) {
    if (error instanceof StartExecutionError) throw startFailure(error);
    throw error;
  }
  await sessions.recordRequest(sessionId, runId, request as unknown as Record<string, unknown>, customerId);
  return runId;
}

/**
 * Whether stopping the run stops everything it would do: before its tools run (planning, or waiting
 * for the customer), nothing has been done yet. Once they run, an act may be committing.
 */
function stoppable(run: MetaItem): boolean {
  return run.status === "PLANNING" || WAITING_STATUSES.includes(run.status);
}

function isTerminalState(state: ChatReply["state"]): boolean {
  return state === "completed" || state === "idle";
}

async function cancel(run: MetaItem, sessionId: string, why: string, ctx: ApiContext): Promise<void> {
  try {
    await stopRun(run.run_id, why, ctx);
  } catch (error) {
    // It ended meanwhile: nothing left to cancel.
    if (!(error instanceof HttpError && error.code === "run_finished")) throw error;
  }
  await ctx.services.sessions.recordCancel(sessionId, run.run_id, why);
}

/**
 * Waits (up to the chat wait) until the run needs the customer or has ended, and says where it
 * stands: its question, the confirmation it waits for, or its answer.
 */
async function replyFor(
  runId: string,
  sessionId: string,
  ctx: ApiContext,
  waitMs = ctx.services.config.api.chatWaitSeconds * 1000,
): Promise<ChatReply> {
  const { runs } = ctx.services;
  const deadline = Date.now() + waitMs;
  let meta = await runs.getMeta(runId);
  while (!(await settled(meta, ctx)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    meta = await runs.getMeta(runId);
  }
  const keys = await ctx.tokenKeys(["run"]);
  const base: ChatReply = {
    session_id: sessionId,
    run_id: runId,
    reply: "",
    state: sessionState(meta.status),
    ...(meta.plan_review ? { plan_review_score: meta.plan_review.score } : {}),
    ...(meta.result_review ? { execution_review_score: meta.result_review.score } : {}),
    subscribe_token: mintToken(
      keys,
      { kind: "run", run_id: runId },
      ctx.services.config.api.subscribeTokenTtlSeconds,
    ),
  };
  return { ...base, reply: replyText(meta) };
}

/**
 * Whether the run waits for the customer or has ended, and has said so in its events: a wait stores
 * its status before it announces it, and an ending closes the events with `complete`. The reply is
 * recorded after that announcement, so the transcript reads in the order it happened.
 */
async function settled(meta: MetaItem, ctx: ApiContext): Promise<boolean> {
  if (isTerminal(meta.status)) return meta.events_closed === true;
  const announcing =
    meta.status === "AWAITING_INPUT" && meta.clarification?.status === "asked"
      ? "question"
      : meta.status === "AWAITING_APPROVAL" && meta.approval?.status === "pending"
        ? "approval"
        : undefined;
  if (!announcing) return false;
  const events = await ctx.services.runs.listEvents(meta.run_id);
  return events.at(-1)?.stage === announcing;
}

function replyText(meta: MetaItem): string {
  switch (meta.status) {
    case "AWAITING_INPUT":
      return (meta.clarification?.questions ?? []).map((question) => question.question).join(" ");
    case "AWAITING_APPROVAL":
      return confirmationPrompt(meta.request);
    case "SUCCEEDED":
      return meta.result?.summary ?? "Done.";
    case "NEEDS_REVIEW":
      return `${meta.result?.summary ? `${meta.result.summary} ` : ""}A colleague will double-check this request before anything else happens, and will contact you.`;
    case "REJECTED":
      return meta.approval?.status === "rejected" || meta.approval?.status === "timed_out"
        ? "OK, I won't do that. Nothing was sent. Anything else?"
        : (meta.result?.summary ?? "I can't do that. Nothing was sent. Anything else?");
    case "CANCELLED":
      return "That request was cancelled. Anything else?";
    case "FAILED":
    case "INTERRUPTED":
      // The store could not tell what an act did: say so rather than guess either way.
      return meta.profile &&
        bankingMetadata(meta.request).intent === "transfer" &&
        meta.approval?.status === "approved"
        ? `Sorry, something went wrong on our side while sending the transfer and I can't tell yet whether it went through (reference ${meta.run_id}). Please check your balance before trying again; a colleague will look into it.`
        : `Sorry, I couldn't finish that request because something went wrong on our side (reference ${meta.run_id}). Please try again in a moment.`;
    default:
      return "I'm working on it; this is taking a little longer than usual.";
  }
}
