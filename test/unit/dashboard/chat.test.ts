// What the dashboard's Chat page and Conversation panel derive without a browser: the words under a
// reply, the customer a token names (and why it will not do), a session's messages with where the
// conversation stood after each reply, what may be sent, and the API's refusal as lines.
import { describe, expect, it } from "vitest";
import { mintToken } from "../../../lambdas/auth/tokens.ts";

// The dashboard's modules are plain browser JavaScript without type declarations.
const modulePath = (name: string) => `../../../dashboard/${name}`;
interface Message {
  role: "user" | "assistant";
  text: string;
  at?: string;
  run_id?: string;
  state?: string;
  plan_review_score?: number;
  execution_review_score?: number;
}
const chat = (await import(modulePath("chat.js"))) as {
  sessionStateLabel: (state: unknown) => string;
  replyMeta: (reply: unknown) => string;
  customerTokenFrom: (search: string) => string;
  readCustomerToken: (
    token: string,
    now?: number,
  ) => { customerId: string | null; expiresAt: string | null; problem: string | null };
  conversationMessages: (session: unknown) => Message[];
  messageFrom: (text: unknown) => { message: string | null; error: string | null };
  chatErrorLines: (error: unknown) => string[];
};
const { ApiError } = (await import(modulePath("api.js"))) as {
  ApiError: new (status: number, body: unknown, message: string) => Error;
};

describe("the line under a reply", () => {
  it("says where the conversation stands in words, with the scores the run has", () => {
    expect(chat.replyMeta({ state: "awaiting_clarification", plan_review_score: 9 })).toBe(
      "Waiting for your answer · plan review 9/10",
    );
    expect(chat.replyMeta({ state: "completed", plan_review_score: 10, execution_review_score: 7 })).toBe(
      "Done · plan review 10/10 · execution review 7/10",
    );
    expect(chat.replyMeta({ state: "awaiting_approval" })).toBe("Waiting for your confirmation (yes or no)");
    expect(["idle", "executing", "something_new"].map(chat.sessionStateLabel)).toEqual([
      "Ready for a new request",
      "Still working on it",
      "something_new",
    ]);
  });
});

describe("the customer token", () => {
  const keys = {
    customer: { current: "dashboard-customer-key-0123456789abcdef" },
    operator: { current: "dashboard-operator-key-0123456789abcdef" },
  };
  const now = Date.parse("2026-01-01T12:00:00Z");

  it("comes from ?customer_token= only", () => {
    expect(chat.customerTokenFrom("?token=op.sig&customer_token=%20c.sig%20")).toBe("c.sig");
    expect(chat.customerTokenFrom("?token=op.sig")).toBe("");
  });

  it("names its customer and expiry, or why the API will refuse it", () => {
    const token = mintToken(keys, { kind: "customer", customer_id: "cust_alice" }, 3600, new Date(now));
    expect(chat.readCustomerToken(token, now)).toEqual({
      customerId: "cust_alice",
      expiresAt: "2026-01-01T13:00:00.000Z",
      problem: null,
    });
    expect(chat.readCustomerToken(token, now + 2 * 3600_000)).toEqual({
      customerId: "cust_alice",
      expiresAt: "2026-01-01T13:00:00.000Z",
      problem: "this token expired on 2026-01-01T13:00:00.000Z",
    });
    const operator = mintToken(keys, { kind: "operator" }, 3600, new Date(now));
    expect(chat.readCustomerToken(operator, now)).toEqual({
      customerId: null,
      expiresAt: "2026-01-01T13:00:00.000Z",
      problem: 'this token is not a customer\'s (its audience is "operator")',
    });
    for (const notAToken of ["not a token", "payload.signature", "a.b.c"]) {
      expect(chat.readCustomerToken(notAToken, now)).toEqual({
        customerId: null,
        expiresAt: null,
        problem: "this is not a token (expected <header>.<claims>.<signature>)",
      });
    }
  });
});

describe("conversationMessages", () => {
  const RUN_A = "run-20260101120000-aaaaaaaa";
  const RUN_B = "run-20260101120100-bbbbbbbb";
  let seq = 0;
  const entry = (fields: Record<string, unknown>) => ({
    seq: ++seq,
    at: `2026-01-01T12:00:${String(seq).padStart(2, "0")}Z`,
    ...fields,
  });

  it("keeps the messages in order, each reply with the state reached before the customer wrote again and its run's scores", () => {
    const transcript = [
      entry({ type: "message", role: "user", text: "I lost my card", state: "idle" }),
      entry({ type: "request", run_id: RUN_A, state: "executing" }),
      entry({ type: "review", run_id: RUN_A, target: "plan", score: 9, approved: true, state: "executing" }),
      entry({ type: "question", run_id: RUN_A, state: "awaiting_clarification" }),
      entry({
        type: "message",
        role: "assistant",
        text: "Which card?",
        run_id: RUN_A,
        state: "awaiting_clarification",
      }),
      entry({ type: "message", role: "user", text: "the debit one", state: "awaiting_clarification" }),
      entry({ type: "answer", run_id: RUN_A, state: "executing" }),
      entry({
        type: "review",
        run_id: RUN_A,
        target: "result",
        score: 10,
        approved: true,
        state: "executing",
      }),
      // The reply is recorded as the run ends; its result entry may be stamped just after it.
      entry({ type: "message", role: "assistant", text: "Blocked.", run_id: RUN_A, state: "executing" }),
      entry({ type: "result", run_id: RUN_A, status: "SUCCEEDED", state: "completed" }),
      entry({ type: "message", role: "user", text: "send 50 dollars to Sam", state: "completed" }),
      entry({ type: "request", run_id: RUN_B, state: "executing" }),
      entry({ type: "review", run_id: RUN_B, target: "plan", score: 8, approved: true, state: "executing" }),
      entry({
        type: "message",
        role: "assistant",
        text: "From which account?",
        run_id: RUN_B,
        state: "executing",
      }),
    ];
    const messages = chat.conversationMessages({ session_id: "s", transcript });
    expect(messages.map(({ at: _at, ...rest }) => rest)).toEqual([
      { role: "user", text: "I lost my card" },
      {
        role: "assistant",
        text: "Which card?",
        run_id: RUN_A,
        state: "awaiting_clarification",
        plan_review_score: 9,
      },
      { role: "user", text: "the debit one" },
      {
        role: "assistant",
        text: "Blocked.",
        run_id: RUN_A,
        state: "completed",
        plan_review_score: 9,
        execution_review_score: 10,
      },
      { role: "user", text: "send 50 dollars to Sam" },
      // Another run's scores are not this one's.
      {
        role: "assistant",
        text: "From which account?",
        run_id: RUN_B,
        state: "executing",
        plan_review_score: 8,
      },
    ]);
  });

  it("reads a session without a transcript as no messages", () => {
    expect(chat.conversationMessages({})).toEqual([]);
    expect(chat.conversationMessages(null)).toEqual([]);
  });
});

describe("what may be sent, and the API's refusal", () => {
  it("sends a trimmed message within the API's limit", () => {
    expect(chat.messageFrom("  yes ")).toEqual({ message: "yes", error: null });
    expect(chat.messageFrom(" \n ")).toEqual({ message: null, error: "write a message first" });
    expect(chat.messageFrom("x".repeat(2001))).toEqual({
      message: null,
      error: "at most 2,000 characters (now 2001)",
    });
  });

  it("shows the status, the code, the message and each field the API names", () => {
    const body = {
      error: {
        code: "customer_unauthenticated",
        message: "token has expired",
        fields: [{ field: "X-Customer-Token", message: "token has expired" }],
      },
    };
    expect(chat.chatErrorLines(new ApiError(401, body, "401 token has expired"))).toEqual([
      "401 customer_unauthenticated: token has expired",
      "X-Customer-Token: token has expired",
    ]);
    expect(chat.chatErrorLines(new ApiError(0, null, "cannot reach the API (Failed to fetch)"))).toEqual([
      "cannot reach the API (Failed to fetch)",
    ]);
  });
});
