// `rewoo chat` without a twin: which options it refuses (each named), what it prints for a turn and
// for the API's refusal, how it exits, and that a conversation stays in one session. The API is a
// small HTTP server on loopback answering as POST /v1/chat does.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  ChatConversation,
  ChatOptionsError,
  errorLines,
  exitCodeOfFailure,
  runChat,
  stateLine,
  validateChatOptions,
} from "../../../cli/chat.ts";
import { chatPageUrl, mintCustomerToken, twinCustomerTokenKey } from "../../../cli/customer-token.ts";
import { verifyToken } from "../../../lambdas/auth/tokens.ts";

process.env.NO_COLOR = "1";

function problemsOf(
  raw: Parameters<typeof validateChatOptions>[0],
): Array<{ field: string; message: string }> {
  try {
    validateChatOptions(raw);
  } catch (error) {
    if (error instanceof ChatOptionsError) return error.problems;
    throw error;
  }
  return [];
}

describe("validateChatOptions", () => {
  it("takes --local with the default demo customer, and trims the messages", () => {
    expect(validateChatOptions({ local: true, message: [" I lost my card ", "the debit one"] })).toEqual({
      target: { kind: "local", customerId: "cust_alice" },
      messages: ["I lost my card", "the debit one"],
      json: false,
    });
    expect(validateChatOptions({ local: true, customer: "cust_bob", session: "sess-1" })).toEqual({
      target: { kind: "local", customerId: "cust_bob" },
      session: "sess-1",
      messages: [],
      json: false,
    });
  });

  it("takes --api with a customer token, without the trailing slash", () => {
    expect(
      validateChatOptions({
        api: "https://bank.example/prod/",
        customerToken: "p.s",
        message: ["hi"],
        json: true,
      }),
    ).toEqual({
      target: { kind: "api", api: "https://bank.example/prod", customerToken: "p.s" },
      messages: ["hi"],
      json: true,
    });
  });

  it("refuses an unknown demo customer, naming the known ones", () => {
    expect(problemsOf({ local: true, customer: "cust_zed" })).toEqual([
      {
        field: "--customer",
        message:
          'unknown demo customer "cust_zed"; the twin\'s demo customers are cust_alice, cust_sam, cust_bob',
      },
    ]);
  });

  it("needs exactly one of --local and --api", () => {
    const both = problemsOf({ local: true, api: "http://127.0.0.1:3000", customerToken: "p.s" });
    expect(both.map((p) => p.field)).toEqual(["--local / --api", "--customer-token"]);
    expect(problemsOf({}).map((p) => p.field)).toEqual(["--local / --api"]);
  });

  it("names every other offending option at once", () => {
    const problems = problemsOf({
      api: "ftp://bank.example",
      customer: "cust_alice",
      session: "no spaces allowed",
      message: ["hello", "   ", "x".repeat(2001)],
      json: false,
    });
    expect(problems).toEqual([
      { field: "--api", message: 'expected an http(s) URL, got "ftp://bank.example"' },
      {
        field: "--customer",
        message: "applies with --local only; with --api give the customer's --customer-token",
      },
      {
        field: "--customer-token",
        message: "required with --api: the signed-in customer's token (sent as X-Customer-Token)",
      },
      {
        field: "--session",
        message:
          "expected a session id: letters, digits, _ or - (at most 64), starting with a letter or digit",
      },
      { field: "--message[2]", message: "expected the customer's message, got nothing" },
      { field: "--message[3]", message: "expected at most 2000 characters, got 2001" },
    ]);
  });

  it("refuses --customer-token with --local, and --json without --message", () => {
    expect(problemsOf({ local: true, customerToken: "p.s", json: true })).toEqual([
      {
        field: "--customer-token",
        message: "applies with --api only; with --local the token is minted for --customer",
      },
      {
        field: "--json",
        message: "applies to --message turns; the interactive prompt prints the conversation",
      },
    ]);
  });
});

describe("what a turn prints", () => {
  it("puts the state and the scores the run has in one bracketed line", () => {
    expect(stateLine({ state: "awaiting_clarification", plan_review_score: 9 })).toBe(
      "[awaiting_clarification · plan 9/10]",
    );
    expect(stateLine({ state: "completed", plan_review_score: 10, execution_review_score: 8 })).toBe(
      "[completed · plan 10/10 · execution 8/10]",
    );
    expect(stateLine({ state: "idle" })).toBe("[idle]");
  });

  it("names the API's refusal with every field, and exits 2 for a 4xx, 1 otherwise", () => {
    const refused = {
      status: 401,
      code: "customer_unauthenticated",
      message: "token has expired",
      fields: [{ field: "X-Customer-Token", message: "token has expired" }],
    };
    expect(errorLines(refused)).toEqual([
      "the API refused the message: 401 customer_unauthenticated: token has expired",
      "  X-Customer-Token: token has expired",
    ]);
    expect(exitCodeOfFailure(refused)).toBe(2);
    const down = {
      status: undefined,
      code: "unreachable",
      message: "cannot reach http://x/v1/chat: ECONNREFUSED",
      fields: [],
    };
    expect(errorLines(down)).toEqual(["cannot reach http://x/v1/chat: ECONNREFUSED"]);
    expect(exitCodeOfFailure(down)).toBe(1);
    expect(exitCodeOfFailure({ ...refused, status: 500 })).toBe(1);
  });
});

// ---------------------------------------------------------------- against a stand-in API

interface Received {
  token: string | undefined;
  body: { message: string; session_id?: string };
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Answers each POST /v1/chat with the next scripted [status, body]; records what it was sent. */
async function stubApi(answers: Array<[number, unknown]>): Promise<{ api: string; received: Received[] }> {
  const received: Received[] = [];
  const stub = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== "POST" || request.url !== "/v1/chat") {
      response.writeHead(404).end();
      return;
    }
    received.push({
      token: request.headers["x-customer-token"] as string | undefined,
      body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
    });
    const [status, body] = answers.shift() ?? [
      500,
      { error: { code: "internal_error", message: "no more answers" } },
    ];
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  server = stub;
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  return { api: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`, received };
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const input = new PassThrough();
  return {
    out,
    err,
    input,
    io: {
      // Colours depend on the terminal (CI sets FORCE_COLOR); the words are what is checked.
      stdout: (text: string) => out.push(stripVTControlCharacters(text)),
      stderr: (text: string) => err.push(stripVTControlCharacters(text)),
      input,
      output: new PassThrough(),
    },
  };
}

const SESSION = "sess-20260101120000-abcdef12";
const RUN = "run-20260101120000-12345678";
const asked = {
  session_id: SESSION,
  run_id: RUN,
  reply: "Which card is it: your debit card or your credit card?",
  state: "awaiting_clarification",
  plan_review_score: 10,
};
const blocked = {
  session_id: SESSION,
  run_id: RUN,
  reply: "I've blocked your debit card ending 4321.",
  state: "completed",
  plan_review_score: 10,
  execution_review_score: 9,
};

describe("rewoo chat --api", () => {
  it("sends each --message in order in one session with the customer's token, and prints each turn", async () => {
    const { api, received } = await stubApi([
      [200, asked],
      [200, blocked],
    ]);
    const { io, out, err } = capture();
    const code = await runChat(
      validateChatOptions({ api, customerToken: "tok.sig", message: ["I lost my card", "the debit one"] }),
      io,
    );
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(received).toEqual([
      { token: "tok.sig", body: { message: "I lost my card" } },
      { token: "tok.sig", body: { message: "the debit one", session_id: SESSION } },
    ]);
    expect(out.join("")).toBe(
      [
        "you: I lost my card",
        "assistant: Which card is it: your debit card or your credit card?",
        "  [awaiting_clarification · plan 10/10]",
        "you: the debit one",
        "assistant: I've blocked your debit card ending 4321.",
        "  [completed · plan 10/10 · execution 9/10]",
        "",
      ].join("\n"),
    );
  });

  it("continues --session, and --json prints each raw answer as one JSON line", async () => {
    const { api, received } = await stubApi([[200, blocked]]);
    const { io, out } = capture();
    const code = await runChat(
      validateChatOptions({
        api,
        customerToken: "tok.sig",
        session: SESSION,
        message: ["the debit one"],
        json: true,
      }),
      io,
    );
    expect(code).toBe(0);
    expect(received[0]?.body).toEqual({ message: "the debit one", session_id: SESSION });
    expect(
      out
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual([blocked]);
  });

  it("stops at the API's refusal, prints its fields and exits 2", async () => {
    const refusal = {
      error: {
        code: "session_not_found",
        message: `session "${SESSION}" does not exist`,
        fields: [{ field: "session_id", message: "not one of this customer's sessions" }],
      },
    };
    const { api, received } = await stubApi([
      [200, asked],
      [404, refusal],
    ]);
    const { io, out, err } = capture();
    const code = await runChat(
      validateChatOptions({
        api,
        customerToken: "tok.sig",
        message: ["I lost my card", "the debit one", "never sent"],
      }),
      io,
    );
    expect(code).toBe(2);
    expect(received).toHaveLength(2);
    expect(out.join("")).toContain("you: the debit one\n");
    expect(err.join("")).toBe(
      `the API refused the message: 404 session_not_found: session "${SESSION}" does not exist\n  session_id: not one of this customer's sessions\n`,
    );
  });

  it("with --json the refusal's body is a line of its own too", async () => {
    const refusal = {
      error: { code: "invalid_request", message: "message: expected at most 2000 characters" },
    };
    const { api } = await stubApi([[400, refusal]]);
    const { io, out } = capture();
    expect(
      await runChat(validateChatOptions({ api, customerToken: "tok.sig", message: ["x"], json: true }), io),
    ).toBe(2);
    expect(JSON.parse(out.join(""))).toEqual(refusal);
  });

  it("exits 1 when the API cannot be reached", async () => {
    const { api } = await stubApi([]);
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    const { io, err } = capture();
    expect(await runChat(validateChatOptions({ api, customerToken: "tok.sig", message: ["hi"] }), io)).toBe(
      1,
    );
    expect(err.join("")).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat: ECONNREFUSED\n$/);
  });

  it("refuses an answer that is not a chat reply", async () => {
    const { api } = await stubApi([[200, { hello: "world" }]]);
    const turn = await new ChatConversation(api, "tok.sig").send("hi");
    expect(turn).toMatchObject({ ok: false, failure: { status: 200, code: "bad_response" } });
  });

  it("at the prompt, sends each line typed, echoes piped lines and leaves on exit", async () => {
    const { api, received } = await stubApi([
      [200, asked],
      [200, blocked],
    ]);
    const { io, out, input } = capture();
    input.end("I lost my card\n\n  the debit one  \nexit\nnever sent\n");
    const code = await runChat(validateChatOptions({ api, customerToken: "tok.sig" }), io);
    expect(code).toBe(0);
    expect(received.map((r) => r.body.message)).toEqual(["I lost my card", "the debit one"]);
    const printed = out.join("");
    expect(printed).toContain(
      "you: I lost my card\nassistant: Which card is it: your debit card or your credit card?\n  [awaiting_clarification · plan 10/10]\nyou: the debit one\n",
    );
    expect(printed).toContain(
      `session ${SESSION}; to go on with it: npx rewoo chat --customer-token <token> --session ${SESSION} --api ${api}\n`,
    );
  });

  it("at the prompt, a refused token ends the conversation with exit 2", async () => {
    const unauthorized = {
      error: {
        code: "customer_unauthenticated",
        message: "token signature does not match",
        fields: [{ field: "X-Customer-Token", message: "token signature does not match" }],
      },
    };
    const { api, received } = await stubApi([[401, unauthorized]]);
    const { io, err, input } = capture();
    input.end("hello\nagain\n");
    expect(await runChat(validateChatOptions({ api, customerToken: "bad.sig" }), io)).toBe(2);
    expect(received).toHaveLength(1);
    expect(err.join("")).toContain("  X-Customer-Token: token signature does not match\n");
  });
});

describe("demo customer tokens", () => {
  const KEY = "customer-key-0123456789abcdef0123456789";

  it("reads the twin's customer key from the environment first, else from its data folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rewoo-chat-secret-"));
    await expect(twinCustomerTokenKey({}, dir)).rejects.toThrow(
      `no customer token key in ${join(dir, "token-keys", "customer")} (and REWOO_CUSTOMER_TOKEN_SECRET is not set)`,
    );
    mkdirSync(join(dir, "token-keys"));
    writeFileSync(join(dir, "token-keys", "customer"), "from-the-folder-0123456789abcdef0123\n");
    expect(await twinCustomerTokenKey({}, dir)).toBe("from-the-folder-0123456789abcdef0123");
    expect(await twinCustomerTokenKey({ REWOO_CUSTOMER_TOKEN_SECRET: "configured" }, dir)).toBe("configured");
  });

  it("mints a customer token the API verifies (and no other verifier), and a chat page URL carrying it", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    const token = mintCustomerToken(KEY, "cust_sam", now);
    const keys = { customer: { current: KEY } };
    expect(verifyToken(token, { accept: ["customer"], keys, now })).toMatchObject({
      aud: "customer",
      scope: { kind: "customer", customer_id: "cust_sam" },
      iat: now.getTime() / 1000,
      exp: now.getTime() / 1000 + 8 * 3600,
    });
    expect(() => verifyToken(token, { accept: ["run", "operator"], keys, now })).toThrow(/wrong audience/);
    expect(chatPageUrl("http://127.0.0.1:3000/", token)).toBe(
      `http://127.0.0.1:3000/?customer_token=${token}#/chat`,
    );
  });
});
