// Follows a run's progress events from a running API: over the WebSocket when it can (subscribe,
// replay after `after_seq`, then live), else by polling GET /v1/runs/{id}/events. Whatever the
// source, events reach the caller once each, in seq order, ending with the `complete` event.
import WebSocket from "ws";
import type { ProgressEvent } from "../lambdas/core/types.ts";
import type { ApiClient, ApiRequestError } from "./api-client.ts";
import { sleep } from "./api-client.ts";

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
}

/** Dedupes by seq and releases events only in seq order without gaps (later ones wait in a buffer). */
export class EventSequencer {
  private last = 0;
  private readonly pending = new Map<number, ProgressEvent>();
  private completed = false;

  constructor(
    private readonly runId: string,
    private readonly deliver: (event: ProgressEvent) => void,
    afterSeq = 0,
  ) {
    this.last = afterSeq;
  }

  get lastSeq(): number {
    return this.last;
  }

  get done(): boolean {
    return this.completed;
  }

  push(events: Iterable<ProgressEvent>): void {
    for (const event of events) {
      if (event.run_id !== this.runId || !Number.isInteger(event.seq) || event.seq <= this.last) continue;
      this.pending.set(event.seq, event);
    }
    for (
      let next = this.pending.get(this.last + 1);
      next && !this.completed;
      next = this.pending.get(this.last + 1)
    ) {
      this.pending.delete(next.seq);
      this.last = next.seq;
      this.deliver(next);
      // A worker still finishing after a cancel may write after `complete`: the run is over for us.
      if (next.stage === "complete") this.completed = true;
    }
  }
}

export async function followRun(options: FollowOptions): Promise<void> {
  const sequencer = new EventSequencer(options.runId, options.onEvent, options.afterSeq ?? 0);
  if (options.websocketUrl) {
    const outcome = await viaWebSocket(options, options.websocketUrl, sequencer);
    if (outcome === "done") return;
    options.onNotice?.(`${outcome}; following ${options.runId} by polling ${options.client.baseUrl} instead`);
  }
  await viaPolling(options, sequencer);
}

async function viaPolling(options: FollowOptions, sequencer: EventSequencer): Promise<void> {
  const interval = options.pollIntervalMs ?? 500;
  let failures = 0;
  while (!sequencer.done) {
    try {
      const page = await options.client.events(options.runId, sequencer.lastSeq);
      failures = 0;
      sequencer.push(page.events);
      // A full page means more are waiting: read on at once.
      if (sequencer.done || page.events.length > 0) continue;
    } catch (error) {
      // An API that restarts (the twin) or hiccups is waited for; one that stays away is an error,
      // and so is a refusal (404: no such run) that no retry changes.
      const status = (error as ApiRequestError).status;
      if (status !== undefined && status < 500 && status !== 429) throw error;
      if (++failures >= 10) throw error;
      options.onNotice?.(`${(error as Error).message}; retrying`);
    }
    await sleep(interval * Math.min(2 ** failures, 16));
  }
}

/** "done" when the run completed; otherwise why the WebSocket is no use (the caller polls). */
async function viaWebSocket(
  options: FollowOptions,
  websocketUrl: string,
  sequencer: EventSequencer,
): Promise<"done" | string> {
  const attempts = options.reconnectAttempts ?? 5;
  const delay = options.reconnectDelayMs ?? 250;
  let failures = 0;
  let connectedOnce = false;
  for (;;) {
    const result = await oneConnection(options, websocketUrl, sequencer);
    if (sequencer.done) return "done";
    if (result.refused) return result.reason;
    if (result.opened) {
      connectedOnce = true;
      failures = 0;
    }
    // Never reachable: there is no WebSocket there (or no route to it); don't wait for reconnects.
    if (!connectedOnce) return result.reason;
    if (++failures > attempts) return `${result.reason} (gave up after ${attempts} reconnects)`;
    options.onNotice?.(`${result.reason}; reconnecting and resubscribing after seq ${sequencer.lastSeq}`);
    await sleep(delay * 2 ** (failures - 1));
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
  sequencer: EventSequencer,
): Promise<{ opened: boolean; refused: boolean; reason: string }> {
  return new Promise((resolve) => {
    let opened = false;
    let settled = false;
    let catchUpTimer: NodeJS.Timeout | undefined;
    const socket = new WebSocket(subscribeUrl(websocketUrl, options.token), {
      handshakeTimeout: options.connectTimeoutMs ?? 5_000,
    });
    const finish = (outcome: { refused: boolean; reason: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(catchUpTimer);
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
          sequencer.push((await options.client.events(options.runId, sequencer.lastSeq)).events);
        } catch {
          // The WebSocket may still be fine; the next round tries again.
        }
        if (sequencer.done) finish({ refused: false, reason: "run completed" });
        else armCatchUp();
      }, options.catchUpMs ?? 5_000);
    };

    socket.on("open", () => {
      opened = true;
      socket.send(
        JSON.stringify({ action: "subscribe", run_id: options.runId, after_seq: sequencer.lastSeq }),
      );
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
      if (isEvent(message)) {
        sequencer.push([message]);
        if (sequencer.done) finish({ refused: false, reason: "run completed" });
        return;
      }
      const { error, message: text } = (message ?? {}) as { error?: unknown; message?: unknown };
      if (error !== undefined) {
        // The server refused the subscription (token for another run, unknown run…): polling may still work.
        const reason = typeof error === "string" ? error : JSON.stringify(error);
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

function isEvent(message: unknown): message is ProgressEvent {
  const candidate = message as Partial<ProgressEvent> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.seq === "number" &&
    typeof candidate.stage === "string" &&
    typeof candidate.run_id === "string"
  );
}
