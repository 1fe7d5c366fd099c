// The banking assistant in the dashboard: the Chat page (#/chat), where a person writes as the
// customer whose token the page was opened with (POST /v1/chat), and the Conversation panel of a
// banking run's view (the session's messages, GET /v1/sessions/{id}, with the run's review scores).
// The plain functions come first and touch no DOM (tested without a browser).
import { ApiError } from "./api.js";
import { apiFetch } from "./auth.js";
import { h, replace } from "./dom.js";
import { errorLines } from "./waiting.js";

export const BANKING_PROFILE = "banking_assistant";
/** The API's limit on a message (POST /v1/chat). */
export const MESSAGE_LIMIT = 2000;
const SESSION_STORAGE_KEY = "rewoo.chat.session";
/** While a banking run's conversation may still change without an event saying so (the reply is recorded after the run settles). */
const CONVERSATION_POLL_MS = 1500;

const STATE_LABEL = {
  idle: "Ready for a new request",
  awaiting_clarification: "Waiting for your answer",
  awaiting_approval: "Waiting for your confirmation (yes or no)",
  executing: "Still working on it",
  completed: "Done",
};

/** A conversation's state in words (the API's own name for anything unknown). */
export function sessionStateLabel(state) {
  return Object.hasOwn(STATE_LABEL, state) ? STATE_LABEL[state] : String(state ?? "");
}

/** The line under a reply: its state in words and the review scores the run has so far. */
export function replyMeta(reply) {
  const parts = [sessionStateLabel(reply?.state)];
  if (Number.isFinite(reply?.plan_review_score)) parts.push(`plan review ${reply.plan_review_score}/10`);
  if (Number.isFinite(reply?.execution_review_score))
    parts.push(`execution review ${reply.execution_review_score}/10`);
  return parts.join(" · ");
}

/** `?customer_token=` of the page's address ("" when absent): never config.json, which anyone can read. */
export function customerTokenFrom(search) {
  return new URLSearchParams(search).get("customer_token")?.trim() ?? "";
}

/**
 * What the page can read of a customer token without its key (the API checks the signature): the
 * customer and the expiry, or why it is not a customer token. Only for telling the person early;
 * the API's answer decides. The token is `<header>.<claims>.<signature>` (lambdas/auth/tokens.ts).
 */
export function readCustomerToken(token, now = Date.now()) {
  const parts = String(token).split(".");
  let claims;
  try {
    if (parts.length !== 3) throw new Error("not three parts");
    const base64 = parts[1].replaceAll("-", "+").replaceAll("_", "/");
    claims = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "=")));
  } catch {
    return {
      customerId: null,
      expiresAt: null,
      problem: "this is not a token (expected <header>.<claims>.<signature>)",
    };
  }
  const expiresAt = Number.isFinite(claims?.exp) ? new Date(claims.exp * 1000).toISOString() : null;
  if (claims?.aud !== "customer" || typeof claims.sub !== "string" || claims.sub === "") {
    return {
      customerId: null,
      expiresAt,
      problem: `this token is not a customer's (its audience is ${JSON.stringify(claims?.aud ?? null)})`,
    };
  }
  const customerId = claims.sub;
  if (expiresAt && Date.parse(expiresAt) <= now) {
    return { customerId, expiresAt, problem: `this token expired on ${expiresAt}` };
  }
  return { customerId, expiresAt, problem: null };
}

/**
 * The chat messages of a session's transcript, in order. Each assistant message carries where the
 * conversation stood when the customer next wrote (or now): the state after the last entry before
 * that, and its run's review scores by then. A run's `result` entry may be stamped just after the
 * reply that announced it, so the state right after the reply itself can lag behind.
 */
export function conversationMessages(session) {
  const transcript = Array.isArray(session?.transcript) ? session.transcript : [];
  const isMessage = (entry) => entry?.type === "message" && typeof entry.text === "string";
  const messages = [];
  transcript.forEach((entry, index) => {
    if (!isMessage(entry)) return;
    const role = entry.role === "user" ? "user" : "assistant";
    const message = {
      role,
      text: entry.text,
      at: entry.at,
      ...(typeof entry.run_id === "string" ? { run_id: entry.run_id } : {}),
    };
    if (role === "assistant") {
      let end = transcript.findIndex((later, i) => i > index && isMessage(later) && later.role === "user");
      if (end === -1) end = transcript.length;
      const upTo = transcript.slice(0, end);
      message.state = upTo.at(-1)?.state ?? entry.state;
      for (const review of upTo) {
        if (review?.type !== "review" || review.run_id !== entry.run_id || !Number.isFinite(review.score))
          continue;
        message[review.target === "plan" ? "plan_review_score" : "execution_review_score"] = review.score;
      }
    }
    messages.push(message);
  });
  return messages;
}

/** A message the page can send: trimmed, not empty, within the API's limit. */
export function messageFrom(text) {
  const message = String(text ?? "").trim();
  if (!message) return { message: null, error: "write a message first" };
  if (message.length > MESSAGE_LIMIT) {
    return {
      message: null,
      error: `at most ${MESSAGE_LIMIT.toLocaleString("en-US")} characters (now ${message.length})`,
    };
  }
  return { message, error: null };
}

/** The API's refusal as lines: its status and message, then each field it names. */
export function chatErrorLines(error) {
  const status = error instanceof ApiError && error.status > 0 ? `${error.status} ` : "";
  const code = error?.code ? `${error.code}: ` : "";
  const message = error?.body?.error?.message ?? error?.message ?? String(error);
  const fields = Array.isArray(error?.fields) ? error.fields : [];
  return [`${status}${code}${message}`, ...(fields.length ? errorLines({ fields }) : [])];
}

const shortRunId = (runId) => {
  const match = /-([0-9a-f]{6,})$/i.exec(runId);
  return match ? `…${match[1]}` : runId;
};

// ---------------------------------------------------------------------------------------------
// The API (POST /v1/chat needs the customer's token; api.js's client sends none)

async function request(url, init) {
  let response;
  try {
    // Signed like every REST call of the page when an officer is signed in (auth.js).
    response = await apiFetch(url, { cache: "no-store", ...init });
  } catch (error) {
    throw new ApiError(0, null, `cannot reach the API (${error.message})`);
  }
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { message: text };
  }
  if (!response.ok) {
    const message = body?.error?.message ?? body?.message ?? "request failed";
    throw new ApiError(response.status, body, `${response.status} ${message}`);
  }
  return body;
}

export function sendChatMessage(apiBase, customerToken, message, sessionId) {
  return request(`${apiBase}/v1/chat`, {
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      "x-customer-token": customerToken,
    },
    body: JSON.stringify({ message, ...(sessionId ? { session_id: sessionId } : {}) }),
  });
}

/**
 * A session with its transcript. A customer's chat session is read with that customer's token; an
 * officer (no token) reads one only where the API allows officers to read chats.
 */
export function getSession(apiBase, sessionId, customerToken) {
  return request(`${apiBase}/v1/sessions/${encodeURIComponent(sessionId)}`, {
    method: "GET",
    headers: {
      accept: "application/json",
      ...(customerToken ? { "x-customer-token": customerToken } : {}),
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Drawing

/**
 * One message: the customer's on the right, the assistant's on the left, each named in words (the
 * side and the colour only repeat it). An assistant message says where the conversation stands and
 * links to its run.
 */
function messageBubble(message, { currentRunId = null } = {}) {
  const mine = message.role === "user";
  const meta = mine ? null : replyMeta(message);
  const otherRun = message.run_id && currentRunId && message.run_id !== currentRunId;
  return h(
    "li",
    {
      class: `chat-message chat-${mine ? "user" : "assistant"}${otherRun ? " chat-other-run" : ""}`,
      dataset: { testid: `chat-message-${message.role}`, role: message.role, state: message.state },
    },
    h("span", { class: "chat-who" }, mine ? "You" : "Assistant"),
    h("p", { class: "chat-text" }, message.text),
    meta
      ? h(
          "p",
          { class: "chat-meta", dataset: { testid: "chat-meta" } },
          meta,
          message.run_id && message.run_id !== currentRunId
            ? [
                " · ",
                h(
                  "a",
                  {
                    href: `#/runs/${encodeURIComponent(message.run_id)}`,
                    dataset: { testid: "chat-run-link" },
                  },
                  `${otherRun ? "other request, " : ""}run ${shortRunId(message.run_id)}`,
                ),
              ]
            : null,
        )
      : null,
  );
}

function reviewBadge(label, review, testid) {
  if (!review) return h("span", { class: "review-score muted", dataset: { testid } }, `${label}: not yet`);
  const approved = review.approved === true;
  return h(
    "span",
    {
      class: `review-score ${approved ? "review-ok" : "review-low"}`,
      dataset: { testid },
      title: Array.isArray(review.issues)
        ? review.issues
            .map((i) => i?.message)
            .filter(Boolean)
            .join("\n")
        : null,
    },
    `${label}: ${review.score}/10 ${approved ? "✓ passed" : "⚠ below the threshold"}`,
  );
}

/**
 * The Conversation panel of a banking run: the session's messages, the run's review scores, what
 * the assistant understood and how it ended. The plan is the run view's own Plan card.
 */
export function renderConversation(el, { record, messages, error }) {
  const banking = record?.result?.banking;
  return replace(
    el,
    h(
      "div",
      { class: "card-head" },
      h("h2", { id: "conversation-heading" }, "Conversation"),
      h(
        "div",
        { class: "review-scores", dataset: { testid: "conversation-scores" } },
        reviewBadge("Plan review", record?.plan_review, "plan-review-score"),
        reviewBadge("Execution review", record?.result_review, "execution-review-score"),
      ),
    ),
    h(
      "p",
      { class: "small muted" },
      record?.customer_id ? `Customer ${record.customer_id}` : "Customer",
      record?.session_id ? [" · session ", h("span", { class: "mono" }, record.session_id)] : null,
      banking?.intent ? ` · request: ${String(banking.intent).replaceAll("_", " ")}` : null,
      banking?.outcome ? ` · outcome: ${banking.outcome}` : null,
      " · its plan is drawn below.",
    ),
    error
      ? h("div", { class: "alert alert-error", role: "alert" }, `Could not load the conversation: ${error}`)
      : null,
    messages === null
      ? h("p", { class: "muted small" }, "Loading the conversation…")
      : messages.length === 0
        ? h("p", { class: "muted small" }, "No messages in this session yet.")
        : h(
            "ol",
            { class: "chat-log chat-log-static", "aria-label": "Messages, oldest first" },
            messages.map((message) => messageBubble(message, { currentRunId: record?.run_id })),
          ),
  );
}

/**
 * Keeps the Conversation panel of the run view up to date: shown only for banking runs, read again
 * when the run moves on (its events) and, until the run's reply is in, every little while.
 */
export class ConversationPanel {
  constructor(el, { apiBase, fetchSession = getSession }) {
    this.el = el;
    this.apiBase = apiBase;
    this.fetchSession = fetchSession;
    this.record = null;
    this.status = null;
    this.messages = null;
    this.error = "";
    this.key = "";
    this.drawn = "";
    this.fetching = false;
    this.again = false;
    this.timer = null;
    this.pollTimer = null;
  }

  /** Called on every render of the run view with the run's latest record (or null) and its status. */
  update(runId, record, status, lastSeq) {
    if (record?.run_id !== runId || record?.profile !== BANKING_PROFILE || !record.session_id) {
      this.#reset();
      this.el.hidden = true;
      return;
    }
    const changedRun = this.record?.run_id !== runId;
    if (changedRun) this.#reset();
    this.record = record;
    this.status = status;
    this.el.hidden = false;
    const key = `${runId}|${status}|${lastSeq}|${record.updated_at}`;
    if (key !== this.key) {
      this.key = key;
      this.#schedule(changedRun ? 0 : 150);
    }
    this.#draw();
  }

  hide() {
    this.#reset();
    this.el.hidden = true;
  }

  #reset() {
    clearTimeout(this.timer);
    clearTimeout(this.pollTimer);
    this.record = null;
    this.messages = null;
    this.error = "";
    this.key = "";
    this.drawn = "";
  }

  #schedule(delayMs) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.#fetch(), delayMs);
  }

  async #fetch() {
    const record = this.record;
    if (!record) return;
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    try {
      const session = await this.fetchSession(this.apiBase, record.session_id);
      if (this.record?.run_id !== record.run_id) return;
      this.messages = conversationMessages(session);
      this.error = "";
    } catch (error) {
      if (this.record?.run_id === record.run_id) this.error = error.message;
    } finally {
      this.fetching = false;
    }
    if (this.again) {
      this.again = false;
      return this.#fetch();
    }
    this.#draw();
    clearTimeout(this.pollTimer);
    if (this.record && !this.#settled())
      this.pollTimer = setTimeout(() => this.#fetch(), CONVERSATION_POLL_MS);
  }

  /** The run's reply is in: the last message is the assistant's for this run, and the run waits or has ended. */
  #settled() {
    const last = this.messages?.at(-1);
    const moving = ["PENDING", "PLANNING", "RUNNING", "SOLVING"].includes(this.status);
    return !moving && last?.role === "assistant" && last.run_id === this.record?.run_id;
  }

  #draw() {
    const record = this.record;
    if (!record) return;
    const drawn = JSON.stringify([
      this.messages,
      this.error,
      record.plan_review,
      record.result_review,
      record.result?.banking?.outcome,
    ]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    renderConversation(this.el, { record, messages: this.messages, error: this.error });
  }
}

// ---------------------------------------------------------------------------------------------
// The Chat page

/** sessionStorage, or null where the browser refuses it. */
function pageStorage() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export class ChatPage {
  /**
   * @param {HTMLElement} root the page's container (hidden unless the address is #/chat)
   * @param {{apiBase: string, customerToken: string, storage?: Storage | null}} options
   */
  constructor(root, { apiBase, customerToken, storage = pageStorage() }) {
    this.root = root;
    this.apiBase = apiBase;
    this.token = customerToken;
    this.storage = storage;
    this.claims = readCustomerToken(customerToken);
    this.messages = [];
    this.sessionId = null;
    this.busy = false;
    this.built = false;
  }

  show() {
    if (!this.built) this.#build();
    this.root.hidden = false;
    if (this.input && !this.input.disabled) this.input.focus();
  }

  hide() {
    this.root.hidden = true;
  }

  get #storageKey() {
    return `${SESSION_STORAGE_KEY}.${this.claims.customerId}`;
  }

  #build() {
    this.built = true;
    const heading = h("h2", { id: "chat-heading" }, "Chat with the banking assistant");
    if (!this.token) {
      replace(
        this.root,
        h(
          "section",
          { class: "card", "aria-labelledby": "chat-heading" },
          heading,
          h(
            "div",
            { class: "alert alert-warn", dataset: { testid: "chat-no-token" } },
            h(
              "p",
              {},
              "This page needs a customer token: the assistant acts for the signed-in customer only.",
            ),
            h(
              "p",
              {},
              "Open the page with ",
              h("code", {}, "?customer_token=<token>"),
              " in its address (before the #). With the local twin, ",
              h("code", {}, "npx rewoo dev"),
              " prints a Chat link with a demo token for cust_alice; ",
              h("code", {}, "npx rewoo chat --local"),
              " talks to the assistant from a terminal. A bank's own sign-in signs its customers' tokens with the deployment's customer token key.",
            ),
          ),
        ),
      );
      return;
    }
    this.log = h("ol", {
      class: "chat-log",
      role: "log",
      "aria-live": "polite",
      "aria-labelledby": "chat-heading",
      tabindex: "0",
      dataset: { testid: "chat-log" },
    });
    this.busyNote = h(
      "p",
      { class: "chat-busy", role: "status", dataset: { testid: "chat-busy" }, hidden: true },
      h("span", { class: "chat-dots", "aria-hidden": "true" }),
      "The assistant is working on it…",
    );
    this.input = h("input", {
      id: "chat-input",
      name: "message",
      type: "text",
      autocomplete: "off",
      maxlength: String(MESSAGE_LIMIT),
      "aria-describedby": "chat-error chat-hint",
      dataset: { testid: "chat-input" },
    });
    this.send = h(
      "button",
      { type: "submit", class: "btn btn-primary", dataset: { testid: "chat-send" } },
      "Send",
    );
    this.errorBox = h("div", {
      id: "chat-error",
      class: "field-error",
      role: "alert",
      hidden: true,
      dataset: { testid: "chat-error" },
    });
    const form = h(
      "form",
      { class: "chat-form", novalidate: true, onSubmit: (event) => this.#submit(event) },
      h("label", { for: "chat-input" }, "Your message"),
      h("div", { class: "input-row" }, this.input, this.send),
      h(
        "p",
        { id: "chat-hint", class: "small muted" },
        'Enter sends. Try "I lost my card" or "send 50 dollars to Sam"; answer "yes" or "no" when asked to confirm.',
      ),
      this.errorBox,
    );
    const who = this.claims.customerId ? `Signed in as ${this.claims.customerId}` : "Customer token given";
    const tokenProblem = this.claims.problem
      ? h(
          "div",
          { class: "alert alert-warn", dataset: { testid: "chat-token-problem" } },
          `${this.claims.problem}: the API will most likely refuse it. Open the page with a fresh ?customer_token= (npx rewoo dev prints one).`,
        )
      : null;
    replace(
      this.root,
      h(
        "section",
        { class: "card chat-card", "aria-labelledby": "chat-heading" },
        h(
          "div",
          { class: "card-head" },
          heading,
          h(
            "div",
            { class: "chat-actions" },
            h("span", { class: "small muted", dataset: { testid: "chat-customer" } }, who),
            h(
              "button",
              {
                type: "button",
                class: "btn",
                onClick: () => this.#newConversation(),
                dataset: { testid: "chat-new" },
              },
              "New conversation",
            ),
          ),
        ),
        tokenProblem,
        this.log,
        this.busyNote,
        form,
      ),
    );
    this.#restore();
    this.#drawLog();
  }

  /** The conversation this browser tab had with this customer, read back after a reload. */
  async #restore() {
    const saved = this.claims.customerId ? this.storage?.getItem(this.#storageKey) : null;
    if (!saved) return;
    try {
      const session = await getSession(this.apiBase, saved, this.token);
      if (this.sessionId || this.messages.length) return; // the person wrote meanwhile
      this.sessionId = saved;
      this.messages = conversationMessages(session);
      this.#drawLog();
    } catch {
      this.storage?.removeItem(this.#storageKey);
    }
  }

  #newConversation() {
    this.sessionId = null;
    this.messages = [];
    if (this.claims.customerId) this.storage?.removeItem(this.#storageKey);
    this.#showError(null);
    this.#drawLog();
    this.input.focus();
  }

  async #submit(event) {
    event.preventDefault();
    if (this.busy) return;
    const { message, error } = messageFrom(this.input.value);
    if (error) {
      this.#showError([error]);
      return;
    }
    this.#showError(null);
    this.messages = [...this.messages, { role: "user", text: message }];
    this.input.value = "";
    this.#setBusy(true);
    this.#drawLog();
    try {
      const reply = await sendChatMessage(this.apiBase, this.token, message, this.sessionId);
      this.sessionId = reply.session_id;
      if (this.claims.customerId) this.storage?.setItem(this.#storageKey, reply.session_id);
      this.messages = [
        ...this.messages,
        {
          role: "assistant",
          text: reply.reply,
          state: reply.state,
          ...(reply.run_id ? { run_id: reply.run_id } : {}),
          ...(Number.isFinite(reply.plan_review_score) ? { plan_review_score: reply.plan_review_score } : {}),
          ...(Number.isFinite(reply.execution_review_score)
            ? { execution_review_score: reply.execution_review_score }
            : {}),
        },
      ];
    } catch (failure) {
      // Not said: the message goes back into the box, to be sent again.
      this.messages = this.messages.slice(0, -1);
      this.input.value = message;
      this.#showError(chatErrorLines(failure));
    } finally {
      this.#setBusy(false);
      this.#drawLog();
      this.input.focus();
    }
  }

  #setBusy(busy) {
    this.busy = busy;
    this.busyNote.hidden = !busy;
    this.send.disabled = busy;
    this.send.textContent = busy ? "Sending…" : "Send";
    if (busy) this.log.setAttribute("aria-busy", "true");
    else this.log.removeAttribute("aria-busy");
  }

  #showError(lines) {
    if (!lines) {
      this.errorBox.hidden = true;
      this.errorBox.replaceChildren();
      this.input.removeAttribute("aria-invalid");
      return;
    }
    const [first, ...rest] = lines;
    replace(
      this.errorBox,
      h("p", {}, `The message was not sent: ${first}`),
      rest.length
        ? h(
            "ul",
            {},
            rest.map((line) => h("li", {}, line)),
          )
        : null,
    );
    this.errorBox.hidden = false;
    this.input.setAttribute("aria-invalid", "true");
  }

  #drawLog() {
    if (this.messages.length === 0) {
      replace(
        this.log,
        h(
          "li",
          { class: "chat-empty muted" },
          `No messages yet${this.sessionId ? "" : ": write one below to start a conversation"}.`,
        ),
      );
    } else {
      replace(
        this.log,
        this.messages.map((message) => messageBubble(message)),
      );
    }
    if (this.sessionId) this.log.dataset.session = this.sessionId;
    else delete this.log.dataset.session;
    this.log.scrollTop = this.log.scrollHeight;
  }
}
