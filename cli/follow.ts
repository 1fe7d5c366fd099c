// Follows a run's progress events from a running API (a deployed stage, or the local twin's): over
// the WebSocket when it can (subscribe, replay after `after_seq`, then live), else by polling GET
// /v1/runs/{id}/events. Whatever the source, events reach the caller once each, in seq order, ending
// with the `complete` event: the ordering is lambdas/contracts/event-order.ts, the server's too
// (docs/events.md).
import WebSocket from "ws";
import type { EventsPage } from "../lambdas/contracts/api-types.ts";
import { EventOrder, isProgressEvent } from "../lambdas/contracts/event-order.ts";
import { isTerminal, type ProgressEvent } from "../lambdas/core/types.ts";
import type { ApiClient, ApiRequestError } from "./api-client.ts";

export interface FollowOptions {
  client: ApiClient;
  runId: string;
  /** The run's WebSocket URL (from the 202); null/undefined: poll. */
  websocketUrl?: string | null;
  /** Sent as ?token=; undefined connects without one. */
  token?: string;
  onEvent: (event: ProgressEvent) => void;
  /** Follow from after this seq (default 0: the whole run); a resumed run is followed from its `resume` event. */
  afterSeq?: number;
  /** Diagnostics for people: fell back to polling, reconnecting… */
  onNotice?: (message: string) => void;
  pollIntervalMs?: number;
  /** While subscribed, silence this long triggers a catch-up read over REST (missed pushes). */
  catchUpMs?: number;
  reconnectAttempts?: number;
  reconnectDelayMs?: number;
  /** How long to wait for the WebSocket to open before giving up on it. */
  connectTimeoutMs?: number;
  /** Stops following (the run goes on): followRun resolves "stopped". */
  signal?: AbortSignal;
}

/** "completed": the run's `complete` event was delivered; "stopped": `signal` ended the following first. */
export type FollowOutcome = "completed" | "stopped";

type Order = EventOrder<ProgressEvent>;

/**
 * Hands a page of GET /v1/runs/{id}/events to the order. The page of an ended run holds every event
 * there is (every writer has finished): a hole left in it is a lost write, which must not stall us.
 */
function takePage(order: Order, page: EventsPage): ProgressEvent[] {
  return order.push(page.events, { final: isTerminal(page.status) });
}

export async function followRun(options: FollowOptions): Promise<FollowOutcome> {
  const order: Order = new EventOrder({
    runId: options.runId,
    afterSeq: options.afterSeq ?? 0,
    onEvent: options.onEvent,
  });
  if (options.websocketUrl) {
    const outcome = await viaWebSocket(options, options.websocketUrl, order);
    if (outcome === "done") return "completed";
    if (options.signal?.aborted) return "stopped";
    options.onNotice?.(`${outcome}; following ${options.runId} by polling ${options.client.baseUrl} instead`);
  }
  return viaPolling(options, order);
}

async function viaPolling(options: FollowOptions, order: Order): Promise<FollowOutcome> {
  const interval = options.pollIntervalMs ?? 500;
  let failures = 0;
  while (!order.done) {
    if (options.signal?.aborted) return "stopped";
    try {
      const page = await options.client.events(options.runId, order.lastSeq);
      failures = 0;
      // Events released: more may be waiting behind them, read on at once.
      if (takePage(order, page).length > 0) continue;
    } catch (error) {
      // An API that restarts (the twin) or hiccups is waited for; one that stays away is an error,
      // and so is a refusal (404: no such run) that no retry changes.
      const status = (error as ApiRequestError).status;
      if (status !== undefined && status < 500 && status !== 429) throw error;
      if (++failures >= 10) throw error;
      options.onNotice?.(`${(error as Error).message}; retrying`);
    }
    await pause(interval * Math.min(2 ** failures, 16), options.signal);
  }
  return "completed";
}

/** Waits `ms`, or less when `signal` aborts meanwhile. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** "done" when the run completed; otherwise why the WebSocket is no use (the caller polls). */
async function viaWebSocket(
  options: FollowOptions,
  websocketUrl: string,
  order: Order,
): Promise<"done" | string> {
  const attempts = options.reconnectAttempts ?? 5;
  const delay = options.reconnectDelayMs ?? 250;
  let failures = 0;
  let connectedOnce = false;
  for (;;) {
    const result = await oneConnection(options, websocketUrl, order);
    if (order.done) return "done";
    if (result.refused || options.signal?.aborted) return result.reason;
    if (result.opened) {
      connectedOnce = true;
      failures = 0;
    }
    // Never reachable: there is no WebSocket there (or no route to it); don't wait for reconnects.
    if (!connectedOnce) return result.reason;
    if (++failures > attempts) return `${result.reason} (gave up after ${attempts} reconnects)`;
    options.onNotice?.(`${result.reason}; reconnecting and resubscribing after seq ${order.lastSeq}`);
    await pause(delay * 2 ** (failures - 1), options.signal);
    if (options.signal?.aborted) return "stopped following";
  }
}

function subscribeUrl(websocketUrl: string, token: string | undefined): string {
  if (token === undefined) return websocketUrl;
  const url = new URL(websocketUrl);
  url.searchParams.set("token", token);
  return url.toString();
}

/** One connection's life: open, subscribe after the last seq seen, take events until it closes or the run completes. */
function oneConnection(
  options: FollowOptions,
  websocketUrl: string,
  order: Order,
): Promise<{ opened: boolean; refused: boolean; reason: string }> {
  return new Promise((resolve) => {
    let opened = false;
    let settled = false;
    let catchUpTimer: NodeJS.Timeout | undefined;
    const socket = new WebSocket(subscribeUrl(websocketUrl, options.token), {
      handshakeTimeout: options.connectTimeoutMs ?? 5_000,
    });
    const stop = () => finish({ refused: false, reason: "stopped following" });
    const finish = (outcome: { refused: boolean; reason: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(catchUpTimer);
      options.signal?.removeEventListener("abort", stop);
      socket.removeAllListeners();
      socket.on("error", () => undefined); // a late error after we stopped listening must not crash the CLI
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)
        socket.terminate();
      resolve({ opened, ...outcome });
    };
    const armCatchUp = () => {
      clearTimeout(catchUpTimer);
      catchUpTimer = setTimeout(async () => {
        // A push lost between API Gateway and us would stall the display forever: read what is stored.
        try {
          takePage(order, await options.client.events(options.runId, order.lastSeq));
        } catch {
          // The WebSocket may still be fine; the next round tries again.
        }
        if (order.done) finish({ refused: false, reason: "run completed" });
        else armCatchUp();
      }, options.catchUpMs ?? 5_000);
    };

    if (options.signal?.aborted) stop();
    else options.signal?.addEventListener("abort", stop, { once: true });

    socket.on("open", () => {
      opened = true;
      socket.send(JSON.stringify({ action: "subscribe", run_id: options.runId, after_seq: order.lastSeq }));
      armCatchUp();
    });
    socket.on("message", (data) => {
      armCatchUp();
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (isProgressEvent(message)) {
        order.push([message as ProgressEvent]);
        if (order.done) finish({ refused: false, reason: "run completed" });
        return;
      }
      const {
        type,
        error,
        message: text,
      } = (message ?? {}) as { type?: unknown; error?: unknown; message?: unknown };
      if (type === "error" || error !== undefined) {
        // The server refused the subscription ({"type": "error", "message": …}: a token for another
        // run, an unknown run…): polling may still work.
        const detail = type === "error" ? text : error;
        const reason = typeof detail === "string" ? detail : JSON.stringify(detail);
        finish({ refused: true, reason: `the WebSocket refused the subscription: ${reason}` });
      } else if (typeof text === "string") {
        // API Gateway's own answers ({"message": "Internal server error", …}).
        options.onNotice?.(`WebSocket: ${text}`);
      }
    });
    socket.on("unexpected-response", (_request, response) => {
      const status = response.statusCode ?? 0;
      finish({
        refused: status === 401 || status === 403,
        reason: `the WebSocket answered HTTP ${status} to the connection${status === 401 || status === 403 ? " (token refused)" : ""}`,
      });
    });
    socket.on("error", (error) => {
      const code = (error as { code?: string }).code;
      finish({ refused: false, reason: `the WebSocket ${websocketUrl} failed: ${code ?? error.message}` });
    });
    socket.on("close", (code) => {
      finish({ refused: false, reason: `the WebSocket closed (code ${code})` });
    });
  });
}
