// Live progress over the API Gateway WebSocket: connect with a token, subscribe to one run after
// the last seq seen, and keep that subscription alive. A closed connection (server restart, idle
// timeout, network change) is reopened with exponential backoff and re-subscribed after the last
// contiguous seq, so the server replays exactly what was missed and the page never reloads.
// Whatever the source, events reach onEvent once each and in seq order (event-order.js, the same
// ordering the CLI follows runs with; docs/events.md).
import { EventOrder, isProgressEvent } from "./event-order.js";
import { TERMINAL } from "./run-state.js";

const MIN_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

export class LiveConnection {
  /**
   * @param {object} options
   * @param {string} options.url WebSocket URL without the token.
   * @param {(event: object) => void} options.onEvent each progress event of the watched run, once, in seq order.
   * @param {(status: {state: string, retryInMs?: number}) => void} options.onStatus connection state changes.
   * @param {(message: string) => void} options.onServerError `{type: "error"}` messages (bad run id, forbidden).
   */
  constructor({ url, onEvent, onStatus, onServerError, WebSocketImpl = globalThis.WebSocket }) {
    this.url = url;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.onServerError = onServerError;
    this.WebSocketImpl = WebSocketImpl;
    this.socket = null;
    this.socketToken = null;
    this.target = null;
    this.attempts = 0;
    this.retryTimer = null;
    this.state = "idle";
    // Coming back online is a better moment to retry than whatever the backoff says.
    globalThis.addEventListener?.("online", () => {
      if (this.retryTimer) this.#reconnectNow();
    });
  }

  /** Follows `runId` from `getAfterSeq()` on; switching runs reuses the connection when the token allows. */
  watch(runId, token, getAfterSeq = () => 0) {
    this.target = { runId, token, order: followOrder(runId, getAfterSeq(), this.onEvent) };
    if (this.socket && this.socketToken === token) {
      if (this.socket.readyState === 1) this.#subscribe();
      return; // still connecting: onopen subscribes to the current target
    }
    this.#reconnectNow();
  }

  stop() {
    this.target = null;
    this.#closeSocket();
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.#setStatus({ state: "idle" });
  }

  #reconnectNow() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.#closeSocket();
    this.#connect();
  }

  #connect() {
    const target = this.target;
    if (!target) return;
    const url = `${this.url}${this.url.includes("?") ? "&" : "?"}token=${encodeURIComponent(target.token)}`;
    let socket;
    try {
      socket = new this.WebSocketImpl(url);
    } catch (error) {
      this.onServerError?.(`cannot open ${this.url}: ${error.message}`);
      this.#scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.socketToken = target.token;
    this.#setStatus({ state: this.attempts === 0 ? "connecting" : "reconnecting" });
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.attempts = 0;
      this.#setStatus({ state: "live" });
      this.#subscribe();
    };
    socket.onmessage = (message) => {
      if (socket !== this.socket) return;
      this.#receive(message.data);
    };
    socket.onclose = () => {
      // A socket replaced on purpose (run switch, stop) must not trigger a reconnect.
      if (socket !== this.socket) return;
      this.socket = null;
      this.#scheduleReconnect();
    };
    // onerror is always followed by onclose, which does the work.
    socket.onerror = () => {};
  }

  #subscribe() {
    const { runId, order } = this.target;
    this.socket.send(JSON.stringify({ action: "subscribe", run_id: runId, after_seq: order.lastSeq }));
  }

  #receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return; // not ours
    }
    const messages = Array.isArray(message) ? message : [message];
    for (const item of messages) {
      if (item?.type === "error")
        this.onServerError?.(item.message ?? "the WebSocket server reported an error");
      // Another run's events (a subscription being replaced) are not the target's: the order drops them.
      else if (isProgressEvent(item)) this.target?.order.push([item]);
    }
  }

  #scheduleReconnect() {
    if (!this.target) return;
    // 250 ms, 500 ms, 1 s, 2 s, 4 s, 5 s, 5 s…, with jitter so a restarted server is not hit by
    // every dashboard at the same instant.
    const base = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** this.attempts);
    const delay = Math.round(base * (0.75 + Math.random() * 0.25));
    this.attempts += 1;
    this.#setStatus({ state: "reconnecting", retryInMs: delay });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.#connect();
    }, delay);
  }

  #closeSocket() {
    const socket = this.socket;
    this.socket = null;
    this.socketToken = null;
    if (socket && socket.readyState <= 1) socket.close(1000, "switching");
  }

  #setStatus(status) {
    this.state = status.state;
    this.onStatus?.(status);
  }
}

/**
 * Fallback without a token that may watch the run: poll the stored events over REST. Slower than
 * the WebSocket, same events, same ordering.
 */
export class EventPoller {
  constructor({ api, onEvent, onError, intervalMs = 1000 }) {
    this.api = api;
    this.onEvent = onEvent;
    this.onError = onError;
    this.intervalMs = intervalMs;
    this.timer = null;
    this.generation = 0;
  }

  watch(runId, getAfterSeq, isDone) {
    this.stop();
    const generation = ++this.generation;
    const order = followOrder(runId, getAfterSeq(), this.onEvent);
    const tick = async () => {
      if (generation !== this.generation) return;
      let received = 0;
      try {
        const page = await this.api.getEvents(runId, order.lastSeq);
        if (generation !== this.generation) return;
        // A page of an ended run holds everything there is: a hole left in it is a lost write.
        received = order.push(page?.events ?? [], { final: TERMINAL.has(page?.status) }).length;
      } catch (error) {
        this.onError?.(error);
        received = -1;
      }
      if (generation !== this.generation) return;
      // Stop once the run has ended and a page came back empty (the events may be paginated).
      if (received === 0 && isDone()) return;
      this.timer = setTimeout(tick, received > 0 ? 50 : this.intervalMs);
    };
    tick();
  }

  stop() {
    this.generation += 1;
    clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * The dashboard shows a run's whole history: a `complete` event followed by a `resume` (the run was
 * resumed) does not end it.
 */
function followOrder(runId, afterSeq, onEvent) {
  return new EventOrder({ runId, afterSeq, onEvent, stopAtComplete: false });
}
