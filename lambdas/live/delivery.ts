// Live delivery of progress events to WebSocket connections: stored events first, then live ones,
// in seq order, with no gaps and no duplicates — while replays, the stream consumer and subscribes
// all happen at once, in different Lambdas.
//
// Why it is hard. Seqs come from an atomic counter BEFORE the event item is written, so seq 6 can
// be stored while seq 5 is still in flight; a pusher that sent 6 would never send 5. Several
// Lambdas may push to the same connection at once (the stream consumer, a subscribe) and interleave.
// And a subscriber replaying history must not miss an event written during the replay, nor get
// it twice (once from the replay, once live).
//
// Its own room below the runtime and the handlers: the runtime wires it (lambdas/runtime/services.ts)
// for every function, the WebSocket routes and the stream consumer (lambdas/ws/) drive it.
//
// The design: the connection item (lambdas/store/connections.ts) holds the delivery cursor
// `delivered_seq` and a short lease. Pushing to a connection is always the same "drain":
//
//   loop:
//     know the connection's cursor and the stored events after it (consistent reads);
//     keep only those contiguous with the cursor (contiguousAfter) — stop if there are none
//     take the lease (conditional update: free or expired) — stop if someone else holds it
//     PostToConnection each contiguous event, then in ONE conditional update move the cursor to
//        the last one sent and give the lease back (still our lease, same subscription)
//     loop: re-check for events that arrived meanwhile
//
//   stream consumer:       after events are stored (DynamoDB Streams → lambdas/ws/push.ts), drain
//                          every connection subscribed to their run; the run's events are read once
//                          for all of them, and so is every re-check
//   subscribe:             set the cursor to after_seq, then drain
//
// Cost: a drain that pushes is two writes (take the lease, move the cursor and release) whatever
// the number of events it sends; the reads are shared by the run's subscribers.
// Why nothing is sent twice: only the lease holder pushes, and it moves the cursor past what it
// sent before giving the lease back, so the next holder starts after the last message sent. A
// holder with a long backlog records its progress and renews the lease before a push that could
// outlast it, so a lease never expires mid-push.
// Why nothing is skipped: a drain only ever pushes cursor+1, cursor+2, … (contiguous), so seq 6
// waits while 5 is missing. The stream record of 5 triggers a drain after 5 is written, which sees 5 and 6.
// Why nothing is left behind (no lost wake-up): a drain that finds pending events but cannot take
// the lease gives up only because another drain holds it; that holder releases AFTER the failed
// attempt, and its re-check reads the events AFTER that — so it sees every event whose drain
// gave up on it (the failed attempt came after that event was written). Reads are strongly
// consistent, so "written before" means "seen".
// Crashes: a holder that dies keeps the lease until draining_until; the next drain after that
// (the next event, or the client's re-subscribe on reconnect) takes over from the stored cursor.
// The cursor only moves after successful pushes, so a crash never skips an event; at worst the
// messages of the interrupted drain are sent again, and clients keep one event per seq (the CLI's
// follower and the dashboard both do).
// A client that re-subscribes while a drain pushes to it may get the rest of that drain's batch
// (events carry their run_id and seq, so it can tell); the drain's final update then fails on the
// new subscription_id, it releases the lease and its re-check continues with the new subscription.
import { randomUUID } from "node:crypto";
import {
  type ApiGatewayManagementApiClient,
  GoneException,
  PostToConnectionCommand,
} from "@aws-sdk/client-apigatewaymanagementapi";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ProgressEvent } from "../core/types.ts";
import { ConnectionStore, type LeaseRef, type Subscription } from "../store/connections.ts";
import { contiguousAfter } from "../store/events.ts";
import type { RunStore } from "../store/runs.ts";
import { errorMessage, eventMessage } from "./messages.ts";

export interface DeliveryLogger {
  warn(message: string, extra: Record<string, unknown>): void;
}

/** Sends one message to one connection; "gone" when API Gateway answers 410 (the client left). */
export interface ConnectionPoster {
  post(connectionId: string, data: string): Promise<"sent" | "gone">;
}

export class ManagementApiPoster implements ConnectionPoster {
  constructor(private readonly client: ApiGatewayManagementApiClient) {}

  async post(connectionId: string, data: string): Promise<"sent" | "gone"> {
    try {
      await this.client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: data }));
      return "sent";
    } catch (error) {
      if (error instanceof GoneException || (error as Error).name === "GoneException") return "gone";
      throw error;
    }
  }
}

export interface LiveDeliveryOptions {
  connections: ConnectionStore;
  runs: Pick<RunStore, "listEvents">;
  poster: ConnectionPoster;
  logger?: DeliveryLogger;
  now?: () => Date;
  /** How long a drain may push before others may take over (it renews while it works). */
  leaseMs?: number;
  /** The longest one push may take; a drain with less lease left renews before pushing. */
  pushBudgetMs?: number;
}

/**
 * How one drain round ended: `pushed` (the state after it, to re-check from), `idle` (nothing
 * contiguous was pending), `busy` (another drain holds the lease and will re-check), `gone` (the
 * client left or is not subscribed), `lost` (the lease or the subscription changed under it) or
 * `failed` (a push failed; the next drain retries).
 */
type RoundOutcome =
  | { kind: "pushed"; state: Subscription }
  | { kind: "idle" | "busy" | "gone" | "lost" | "failed" };

/** Guards against a drain that never runs out of work (it cannot, events of a run are finite). */
const MAX_ROUNDS = 1000;

export class LiveDelivery {
  private readonly connections: ConnectionStore;
  private readonly runs: Pick<RunStore, "listEvents">;
  private readonly poster: ConnectionPoster;
  private readonly logger?: DeliveryLogger;
  private readonly now: () => Date;
  private readonly leaseMs: number;
  private readonly pushBudgetMs: number;

  constructor(options: LiveDeliveryOptions) {
    this.connections = options.connections;
    this.runs = options.runs;
    this.poster = options.poster;
    this.logger = options.logger;
    this.now = options.now ?? (() => new Date());
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pushBudgetMs = options.pushBudgetMs ?? 15_000;
    if (this.pushBudgetMs >= this.leaseMs) {
      throw new Error(`pushBudgetMs (${this.pushBudgetMs}) must be below leaseMs (${this.leaseMs})`);
    }
  }

  /**
   * Pushes to the connection every stored event after its cursor that is contiguous with it, in
   * seq order, unless another drain holds the connection's lease (that one will see the events).
   * `known` is the subscription as the caller just wrote it (a subscribe), saving the first read.
   */
  async drain(connectionId: string, known?: Subscription): Promise<void> {
    let state: Subscription | undefined = known;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (!state) {
        const connection = await this.connections.get(connectionId);
        if (!connection?.run_id) return;
        state = {
          connection_id: connectionId,
          run_id: connection.run_id,
          delivered_seq: Number(connection.delivered_seq ?? 0),
          subscription_id: String(connection.subscription_id),
        };
      }
      const outcome = await this.round(state, await this.runs.listEvents(state.run_id, state.delivered_seq));
      if (outcome.kind === "lost") {
        state = undefined; // read the connection again: it re-subscribed, or another drain took over
        continue;
      }
      if (outcome.kind !== "pushed") return;
      state = outcome.state;
    }
    this.logger?.warn("websocket drain stopped after too many rounds", { connection_id: connectionId });
  }

  /**
   * One round of the drain for a connection whose cursor is believed to be `seen.delivered_seq`,
   * given the run's stored events after at least that cursor. Reads nothing when nothing is pending.
   */
  async round(seen: Subscription, events: ProgressEvent[]): Promise<RoundOutcome> {
    if (contiguousAfter(events, seen.delivered_seq).length === 0) return { kind: "idle" };
    const owner = randomUUID();
    const leaseStart = this.now().getTime();
    const held = await this.connections.acquireLease(seen.connection_id, owner, this.leaseMs);
    if (!held) return { kind: "busy" };
    const lease: LeaseRef = {
      connection_id: seen.connection_id,
      owner,
      subscription_id: held.subscription_id,
    };
    let sent = held.delivered_seq;
    let outcome: "done" | "lost" | "gone" | "failed" = "failed";
    try {
      // Between the look and the lease another drain may have pushed, or the client re-subscribed.
      const pending =
        held.run_id === seen.run_id && held.delivered_seq >= seen.delivered_seq
          ? contiguousAfter(events, held.delivered_seq)
          : contiguousAfter(await this.runs.listEvents(held.run_id, held.delivered_seq), held.delivered_seq);
      let until = leaseStart + this.leaseMs;
      outcome = "done";
      for (const event of pending) {
        if (this.now().getTime() + this.pushBudgetMs > until) {
          // A long backlog: record the progress so far and extend the lease before the next push.
          const renewedAt = this.now().getTime();
          if (!(await this.connections.advance(lease, sent, this.leaseMs))) {
            outcome = "lost";
            break;
          }
          until = renewedAt + this.leaseMs;
        }
        if ((await this.poster.post(lease.connection_id, eventMessage(event))) === "gone") {
          outcome = "gone";
          break;
        }
        sent = event.seq;
      }
    } catch (error) {
      outcome = "failed";
      this.logger?.warn("websocket push failed", {
        connection_id: seen.connection_id,
        run_id: held.run_id,
        error: String(error),
      });
    }
    if (outcome === "gone") {
      await this.connections.delete(lease.connection_id);
      return { kind: "gone" };
    }
    // Move the cursor past what was sent and give the lease back, in one update.
    const after = await this.connections.advanceAndRelease(lease, sent);
    if (!after) {
      // Taken over, or re-subscribed meanwhile: give the lease back (if still ours) and look again.
      await this.connections.releaseLease(lease);
      return { kind: "lost" };
    }
    // A connection that keeps failing (throttled, forbidden) gets its backlog on the next drain;
    // retrying here would hold the stream consumer (and every other run's dashboards) hostage to a sick client.
    if (outcome === "failed") return { kind: "failed" };
    return outcome === "lost" ? { kind: "lost" } : { kind: "pushed", state: after };
  }

  /** An out-of-band message (an error answer to a bad subscribe): not part of the event stream. */
  async sendError(connectionId: string, message: string): Promise<void> {
    if ((await this.poster.post(connectionId, errorMessage(message))) === "gone") {
      await this.connections.delete(connectionId);
    }
  }
}

/**
 * The consumer's side: after events of a run are stored, drain every connection subscribed to it.
 * Runs in the stream consumer (lambdas/ws/push.ts), never in a publisher, so a run's wall time does
 * not depend on how many dashboards watch it. The run's events are read once per round for all its
 * subscribers (the listed cursors tell who needs what), so a drain costs each connection its two
 * writes and its messages. Throws only when the subscribers or the events cannot be read (the
 * stream retries that batch); a single connection's trouble is logged and left to the next drain.
 */
export class RunSubscribers {
  constructor(
    private readonly connections: ConnectionStore,
    private readonly delivery: LiveDelivery,
    private readonly runs: Pick<RunStore, "listEvents">,
    private readonly logger?: DeliveryLogger,
    /** Pushes to this many connections at once (a popular run must not open hundreds of sockets). */
    private readonly concurrency = 16,
  ) {}

  async drainAll(runId: string): Promise<void> {
    // The GSI is eventually consistent: a listed cursor may lag (the lease's consistent answer
    // corrects it); a connection that has just subscribed may be missing (its subscribe drains it).
    let watching: Subscription[] = (await this.connections.listByRun(runId))
      .filter((c) => c.run_id === runId)
      .map((c) => ({
        connection_id: c.connection_id,
        run_id: runId,
        delivered_seq: Number(c.delivered_seq ?? 0),
        subscription_id: String(c.subscription_id),
      }));
    for (let round = 0; watching.length > 0 && round < MAX_ROUNDS; round++) {
      const from = Math.min(...watching.map((s) => s.delivered_seq));
      const events = await this.runs.listEvents(runId, from);
      const next: Subscription[] = [];
      await this.forEach(watching, async (seen) => {
        const outcome = await this.delivery.round(seen, events);
        if (outcome.kind === "pushed" && outcome.state.run_id === runId) next.push(outcome.state);
        // Moved to another run, or lost to a re-subscribe: its own drain loop takes it from here.
        else if (outcome.kind === "pushed" || outcome.kind === "lost") {
          await this.delivery.drain(seen.connection_id);
        }
      });
      watching = next;
    }
  }

  private async forEach(items: Subscription[], work: (item: Subscription) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const item = items[next++] as Subscription;
        try {
          await work(item);
        } catch (error) {
          this.logger?.warn("websocket drain failed", {
            connection_id: item.connection_id,
            run_id: item.run_id,
            error: String(error),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, items.length) }, worker));
  }
}

export interface LiveDeliveryServices {
  connections: ConnectionStore;
  delivery: LiveDelivery;
  subscribers: RunSubscribers;
}

/**
 * Live delivery when both the connections table and the management API (PostToConnection) are
 * configured; undefined for a deployment without a WebSocket API. The caller builds the client
 * (lambdas/runtime/clients.ts: endpoint, timeouts, tracing), so this room needs no configuration.
 */
export function createLiveDelivery(options: {
  ddb: DynamoDBDocumentClient;
  connectionsTable: string | undefined;
  managementApi: ApiGatewayManagementApiClient | undefined;
  runs: RunStore;
  logger?: DeliveryLogger;
}): LiveDeliveryServices | undefined {
  const { ddb, connectionsTable, managementApi, runs, logger } = options;
  if (!connectionsTable || !managementApi) return undefined;
  const connections = new ConnectionStore(ddb, connectionsTable);
  const delivery = new LiveDelivery({
    connections,
    runs,
    poster: new ManagementApiPoster(managementApi),
    logger,
  });
  return { connections, delivery, subscribers: new RunSubscribers(connections, delivery, runs, logger) };
}
