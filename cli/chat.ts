// `rewoo chat`: a conversation with the banking assistant (POST /v1/chat) as a signed-in customer,
// through the local twin (a customer token minted with the twin's own secret) or a running API (a
// token the caller brings). One-shot with --message (scripts, tests), else a prompt at the terminal.
import { createInterface } from "node:readline";
import pc from "picocolors";
import { DEMO_CUSTOMERS } from "../examples/banking/customers.ts";
import type { ChatReply } from "../lambdas/contracts/api-types.ts";
import type { RequestProblem } from "../lambdas/core/request.ts";
import { SESSION_ID_PATTERN } from "../lambdas/core/sessions.ts";
import {
  DEFAULT_CUSTOMER,
  DEMO_CUSTOMER_IDS,
  mintCustomerToken,
  twinCustomerTokenKey,
} from "./customer-token.ts";
import { localAddress, withLocalApi } from "./local.ts";
import { EXIT_INVALID_INPUT, EXIT_RUN_FAILED, EXIT_SUCCEEDED } from "./output.ts";
import { rewooCommand } from "./wait-commands.ts";

/** The API's own limit on a message (POST /v1/chat), checked before anything boots. */
export const MESSAGE_LIMIT = 2_000;
/** The API answers within REWOO_CHAT_WAIT_SECONDS (at most 25 s); this only guards against a hung server. */
const REQUEST_TIMEOUT_MS = 60_000;
const LEAVE_WORDS = new Set(["exit", "quit"]);

/** The options as commander hands them over, before validation. */
export interface RawChatOptions {
  local?: boolean;
  api?: string;
  customer?: string;
  customerToken?: string;
  session?: string;
  message?: string[];
  json?: boolean;
}

export type ChatTarget =
  | { kind: "local"; customerId: string }
  | { kind: "api"; api: string; customerToken: string };

export interface ChatOptions {
  target: ChatTarget;
  session?: string;
  /** Empty: the interactive prompt. */
  messages: string[];
  json: boolean;
}

export class ChatOptionsError extends Error {
  override name = "ChatOptionsError";
  constructor(readonly problems: RequestProblem[]) {
    super(problems.map((problem) => `${problem.field}: ${problem.message}`).join("; "));
  }
}

/** Checks every option before a twin boots or a request leaves, naming each offending one. */
export function validateChatOptions(raw: RawChatOptions): ChatOptions {
  const problems: RequestProblem[] = [];
  const local = raw.local === true;
  const api = raw.api;
  if (local === (api !== undefined)) {
    problems.push({
      field: "--local / --api",
      message: "choose one of --local (the local twin) or --api <url> (a running API)",
    });
  }
  if (api !== undefined && !isHttpUrl(api)) {
    problems.push({ field: "--api", message: `expected an http(s) URL, got "${api}"` });
  }
  const known = DEMO_CUSTOMER_IDS;
  if (raw.customer !== undefined) {
    if (api !== undefined) {
      problems.push({
        field: "--customer",
        message: "applies with --local only; with --api give the customer's --customer-token",
      });
    } else if (!known.includes(raw.customer)) {
      problems.push({
        field: "--customer",
        message: `unknown demo customer "${raw.customer}"; the twin's demo customers are ${known.join(", ")}`,
      });
    }
  }
  if (raw.customerToken !== undefined && local) {
    problems.push({
      field: "--customer-token",
      message: "applies with --api only; with --local the token is minted for --customer",
    });
  } else if (api !== undefined && (raw.customerToken === undefined || raw.customerToken.trim() === "")) {
    problems.push({
      field: "--customer-token",
      message: "required with --api: the signed-in customer's token (sent as X-Customer-Token)",
    });
  }
  if (raw.session !== undefined && !SESSION_ID_PATTERN.test(raw.session)) {
    problems.push({
      field: "--session",
      message: "expected a session id: letters, digits, _ or - (at most 64), starting with a letter or digit",
    });
  }
  const messages = raw.message ?? [];
  messages.forEach((message, index) => {
    const field = messages.length > 1 ? `--message[${index + 1}]` : "--message";
    if (message.trim() === "")
      problems.push({ field, message: "expected the customer's message, got nothing" });
    else if (message.trim().length > MESSAGE_LIMIT)
      problems.push({
        field,
        message: `expected at most ${MESSAGE_LIMIT} characters, got ${message.trim().length}`,
      });
  });
  if (raw.json === true && messages.length === 0) {
    problems.push({
      field: "--json",
      message: "applies to --message turns; the interactive prompt prints the conversation",
    });
  }
  if (problems.length > 0) throw new ChatOptionsError(problems);
  const target: ChatTarget =
    api !== undefined
      ? { kind: "api", api: api.replace(/\/+$/, ""), customerToken: (raw.customerToken as string).trim() }
      : { kind: "local", customerId: raw.customer ?? DEFAULT_CUSTOMER };
  return {
    target,
    ...(raw.session !== undefined ? { session: raw.session } : {}),
    messages: messages.map((message) => message.trim()),
    json: raw.json === true,
  };
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

// ---------------------------------------------------------------- printing

/** The dim line under a reply: the conversation's state and the review scores the run has. */
export function stateLine(reply: Pick<ChatReply, "state" | "plan_review_score" | "execution_review_score">) {
  const parts: string[] = [reply.state];
  if (reply.plan_review_score !== undefined) parts.push(`plan ${reply.plan_review_score}/10`);
  if (reply.execution_review_score !== undefined) parts.push(`execution ${reply.execution_review_score}/10`);
  return `[${parts.join(" · ")}]`;
}

/** The API's refusal, one line for the error and one per field it names. */
export function errorLines(failure: ChatFailure): string[] {
  const heading =
    failure.status === undefined
      ? failure.message
      : `the API refused the message: ${failure.status} ${failure.code}: ${failure.message}`;
  return [heading, ...failure.fields.map((field) => `  ${field.field}: ${field.message}`)];
}

/** 4xx: what was sent is wrong (exit 2, as for any refused input); unreachable or 5xx: 1. */
export function exitCodeOfFailure(failure: ChatFailure): number {
  return failure.status !== undefined && failure.status >= 400 && failure.status < 500
    ? EXIT_INVALID_INPUT
    : EXIT_RUN_FAILED;
}

// ---------------------------------------------------------------- the API

export interface ChatFailure {
  /** HTTP status; undefined when the API could not be reached. */
  status: number | undefined;
  code: string;
  message: string;
  fields: RequestProblem[];
  /** The body as the API sent it (printed by --json). */
  body?: unknown;
}

export type ChatTurn = { ok: true; reply: ChatReply } | { ok: false; failure: ChatFailure };

/** One conversation: every message goes to the same session (the first reply names it when none was given). */
export class ChatConversation {
  sessionId: string | undefined;
  private readonly url: string;

  constructor(
    api: string,
    private readonly customerToken: string,
    sessionId?: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.url = `${api.replace(/\/+$/, "")}/v1/chat`;
    this.sessionId = sessionId;
  }

  async send(message: string, signal?: AbortSignal): Promise<ChatTurn> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    let response: Response;
    try {
      response = await this.fetchImpl(this.url, {
        method: "POST",
        headers: {
          accept: "application/json",
          "content-type": "application/json",
          "x-customer-token": this.customerToken,
        },
        body: JSON.stringify({ message, ...(this.sessionId ? { session_id: this.sessionId } : {}) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      const { cause } = error as { cause?: { code?: string; message?: string } };
      const why = signal?.aborted ? "stopped" : (cause?.code ?? cause?.message ?? (error as Error).message);
      return {
        ok: false,
        failure: {
          status: undefined,
          code: "unreachable",
          message: `cannot reach ${this.url}: ${why}`,
          fields: [],
        },
      };
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const error = (body as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | undefined)
        ?.error;
      const fields = Array.isArray(error?.fields)
        ? error.fields
            .filter((field): field is RequestProblem => typeof field?.field === "string")
            .map((field) => ({ field: field.field, message: String(field.message ?? "") }))
        : [];
      return {
        ok: false,
        failure: {
          status: response.status,
          code: typeof error?.code === "string" ? error.code : `http_${response.status}`,
          message:
            typeof error?.message === "string" ? error.message : text.slice(0, 200) || response.statusText,
          fields,
          ...(body !== undefined ? { body } : {}),
        },
      };
    }
    const reply = body as ChatReply | undefined;
    if (
      typeof reply?.reply !== "string" ||
      typeof reply.session_id !== "string" ||
      typeof reply.state !== "string"
    ) {
      return {
        ok: false,
        failure: {
          status: response.status,
          code: "bad_response",
          message: "the answer is not a chat reply ({session_id, reply, state})",
          fields: [],
          ...(body !== undefined ? { body } : {}),
        },
      };
    }
    this.sessionId = reply.session_id;
    return { ok: true, reply };
  }
}

// ---------------------------------------------------------------- the command

export interface ChatIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The prompt's input (the terminal, or piped lines). */
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where the prompt is drawn. */
  output: NodeJS.WritableStream;
}

const processIo = (): ChatIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  input: process.stdin,
  output: process.stdout,
});

/** `rewoo chat`: validated options in, exit code out. */
export async function runChat(options: ChatOptions, io: ChatIo = processIo()): Promise<number> {
  const { target } = options;
  if (target.kind === "api") {
    return converse(new ChatConversation(target.api, target.customerToken, options.session), options, io, {
      api: target.api,
    });
  }
  return withLocalApi(undefined, { json: options.json }, async (api) => {
    let token: string;
    try {
      token = mintCustomerToken(await twinCustomerTokenKey(), target.customerId);
    } catch (error) {
      io.stderr(`${pc.red("cannot sign in as a demo customer")}: ${(error as Error).message}\n`);
      return EXIT_RUN_FAILED;
    }
    return converse(new ChatConversation(api, token, options.session), options, io, {
      local: true,
      customerId: target.customerId,
    });
  });
}

interface Where {
  api?: string;
  local?: boolean;
  customerId?: string;
}

async function converse(
  conversation: ChatConversation,
  options: ChatOptions,
  io: ChatIo,
  where: Where,
): Promise<number> {
  return options.messages.length > 0 ? sendAll(conversation, options, io) : prompt(conversation, io, where);
}

/** --message …: each in order, in one session; the first refusal ends the conversation. */
async function sendAll(conversation: ChatConversation, options: ChatOptions, io: ChatIo): Promise<number> {
  for (const message of options.messages) {
    const turn = await conversation.send(message);
    if (!turn.ok) {
      if (options.json && turn.failure.body !== undefined)
        io.stdout(`${JSON.stringify(turn.failure.body)}\n`);
      if (!options.json) io.stdout(`you: ${message}\n`);
      printFailure(turn.failure, io);
      return exitCodeOfFailure(turn.failure);
    }
    if (options.json) io.stdout(`${JSON.stringify(turn.reply)}\n`);
    else printTurn(message, turn.reply, io);
  }
  return EXIT_SUCCEEDED;
}

function printTurn(message: string | undefined, reply: ChatReply, io: ChatIo): void {
  if (message !== undefined) io.stdout(`${pc.bold("you:")} ${message}\n`);
  io.stdout(`${pc.cyan("assistant:")} ${reply.reply}\n`);
  io.stdout(`  ${pc.dim(stateLine(reply))}\n`);
}

function printFailure(failure: ChatFailure, io: ChatIo): void {
  const [first, ...fields] = errorLines(failure);
  io.stderr(`${pc.red(first as string)}\n`);
  for (const line of fields) io.stderr(`${line}\n`);
}

/**
 * The prompt: a line typed is a message; "exit", "quit", Ctrl-D or Ctrl-C leave (a request on its way
 * is abandoned). Piped lines are echoed, since no terminal shows them.
 */
async function prompt(conversation: ChatConversation, io: ChatIo, where: Where): Promise<number> {
  const terminal = io.input.isTTY === true;
  const lines = createInterface({
    input: io.input,
    output: io.output,
    terminal,
    prompt: `${pc.bold("you:")} `,
  });
  const leaving = new AbortController();
  const leave = () => {
    leaving.abort();
    lines.close();
  };
  lines.on("SIGINT", leave);
  process.on("SIGINT", leave);
  process.on("SIGTERM", leave);
  const who = where.customerId
    ? `${where.customerId} (${DEMO_CUSTOMERS.find((customer) => customer.customer_id === where.customerId)?.name})`
    : "the customer of the token";
  io.stdout(`${pc.dim(`chatting with the banking assistant as ${who}; "exit", "quit" or Ctrl-C leaves`)}\n`);
  // Without a terminal the prompt would only interleave with the echoed lines.
  const showPrompt = () => {
    if (terminal) lines.prompt();
  };
  let code = EXIT_SUCCEEDED;
  try {
    showPrompt();
    for await (const line of lines) {
      const message = line.trim();
      if (LEAVE_WORDS.has(message.toLowerCase())) break;
      if (message === "") {
        showPrompt();
        continue;
      }
      if (!terminal) io.stdout(`${pc.bold("you:")} ${message}\n`);
      if (message.length > MESSAGE_LIMIT) {
        io.stderr(`${pc.red(`the message is too long: at most ${MESSAGE_LIMIT} characters`)}\n`);
        showPrompt();
        continue;
      }
      const turn = await conversation.send(message, leaving.signal);
      if (leaving.signal.aborted) break;
      if (turn.ok) printTurn(undefined, turn.reply, io);
      else {
        printFailure(turn.failure, io);
        // Without a valid token or an API nothing else typed can succeed; other refusals concern one message.
        if (turn.failure.status === undefined || turn.failure.status === 401) {
          code = exitCodeOfFailure(turn.failure);
          break;
        }
      }
      showPrompt();
    }
  } finally {
    process.off("SIGINT", leave);
    process.off("SIGTERM", leave);
    lines.close();
  }
  if (terminal) io.stdout("\n");
  if (conversation.sessionId) {
    const again = where.local
      ? rewooCommand(localAddress(), [
          "chat",
          ...(where.customerId && where.customerId !== DEFAULT_CUSTOMER
            ? ["--customer", where.customerId]
            : []),
          "--session",
          conversation.sessionId,
        ])
      : rewooCommand({ api: where.api ?? "" }, [
          "chat",
          "--customer-token",
          { placeholder: "<token>" },
          "--session",
          conversation.sessionId,
        ]);
    io.stdout(`${pc.dim(`session ${conversation.sessionId}; to go on with it: ${again}`)}\n`);
  }
  return code;
}
