// Live delivery of progress events to WebSocket connections: stored events first, then live ones,
// in seq order, with no gaps and no duplicates — while replays, several publishers (the parallel
// workers of a level) and subscribes all happen at once, in different Lambdas.
//
// Why it is hard. Seqs come from an atomic counter BEFORE the event item is written, so seq 6 can
// be stored while seq 5 is still in flight; a pusher that sent 6 would never send 5. Several
// Lambdas publish at once, so several could push to the same connection at once and interleave.
// And a subscriber replaying history must not miss an event written during the replay, nor get
// it twice (once from the replay, once live).
//
// The design: the connection item (lambdas/store/connections.ts) holds the delivery cursor
// `delivered_seq` and a short lease. Pushing to a connection is always the same "drain":
//
//   loop:
//     read the item (consistent) and the stored events after its cursor (consistent);
//     keep only those contiguous with the cursor (contiguousAfter) — stop if there are none
//     take the lease (conditional update: free or expired) — stop if someone else holds it
//     for each contiguous event: PostToConnection, then advance the cursor to its seq
//        (conditional: still our lease, same subscription) — stop pushing if that fails
//     release the lease, and loop: re-check for events that arrived meanwhile
//
//   stream consumer:       after events are stored (DynamoDB Streams → lambdas/ws/stream.ts), drain
//                          every connection subscribed to their run
//   subscribe:             set the cursor to after_seq, then drain
//
// Why nothing is sent twice: only the lease holder pushes, and it advances the cursor (under the
// lease) after every message, so the next holder starts after the last message sent. A holder
// renews before a push when its lease is near its end, so a lease never expires mid-push
// (pushes are bounded by the client's timeouts, far below the lease).
// Why nothing is skipped: a drain only ever pushes cursor+1, cursor+2, … (contiguous), so seq 6
// waits while 5 is missing. The stream record of 5 triggers a drain after 5 is written, which sees 5 and 6.
// Why nothing is left behind (no lost wake-up): a drain that finds pending events but cannot take
// the lease gives up only because another drain holds it; that holder releases AFTER the failed
// attempt, and its re-check reads the events AFTER that — so it sees every event whose drain
// gave up on it (the failed attempt came after that event was written). Reads are strongly
// consistent, so "written before" means "seen".
// Crashes: a holder that dies keeps the lease until draining_until; the next drain after that
// (the next event, or the client's re-subscribe on reconnect) takes over from the stored cursor.
// The cursor only moves after a successful push, so a crash never skips an event (at worst the
// one push whose cursor update was lost is sent again).
import { randomUUID } from "node:crypto";
import {
  type ApiGatewayManagementApiClient,
  GoneException,
  PostToConnectionCommand,
} from "@aws-sdk/client-apigatewaymanagementapi";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ProgressEvent } from "../core/types.ts";
import { createManagementApiClient } from "../runtime/clients.ts";
import type { Config } from "../runtime/config.ts";
import { ConnectionStore, type LeaseRef } from "../store/connections.ts";
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

type PushOutcome = "done" | "lost" | "gone" | "failed";

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
   */
  async drain(connectionId: string): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      // Looking before taking the lease keeps the common case (another drain already pushed
      // everything) down to two reads, without a write.
      const connection = await this.connections.get(connectionId);
      if (!connection?.run_id) return;
      const cursor = Number(connection.delivered_seq ?? 0);
      const pending = contiguousAfter(await this.runs.listEvents(connection.run_id, cursor), cursor);
      if (pending.length === 0) return;

      const owner = randomUUID();
      const leaseStart = this.now().getTime();
      const held = await this.connections.acquireLease(connectionId, owner, this.leaseMs);
      if (!held) return;
      const lease: LeaseRef = { connection_id: connectionId, owner, subscription_id: held.subscription_id };
      let outcome: PushOutcome = "failed";
      try {
        // Between the look and the lease another drain may have pushed, or the client re-subscribed.
        const events =
          held.run_id === connection.run_id &&
          held.subscription_id === connection.subscription_id &&
          held.delivered_seq === cursor
            ? pending
            : contiguousAfter(
                await this.runs.listEvents(held.run_id, held.delivered_seq),
                held.delivered_seq,
              );
        outcome = await this.push(lease, events, leaseStart + this.leaseMs);
      } catch (error) {
        this.logger?.warn("websocket push failed", {
          connection_id: connectionId,
          run_id: held.run_id,
          error: String(error),
        });
      } finally {
        if (outcome !== "gone") await this.connections.releaseLease(lease);
      }
      // A connection that keeps failing (throttled, forbidden) gets its backlog on the next drain;
      // retrying here would hold the stream consumer (and every other run's dashboards) hostage to a sick client.
      if (outcome === "gone" || outcome === "failed") return;
    }
    this.logger?.warn("websocket drain stopped after too many rounds", { connection_id: connectionId });
  }

  /** An out-of-band message (an error answer to a bad subscribe): not part of the event stream. */
  async sendError(connectionId: string, message: string): Promise<void> {
    if ((await this.poster.post(connectionId, errorMessage(message))) === "gone") {
      await this.connections.delete(connectionId);
    }
  }

  private async push(lease: LeaseRef, events: ProgressEvent[], leaseEnd: number): Promise<PushOutcome> {
    let until = leaseEnd;
    for (const event of events) {
      if (this.now().getTime() + this.pushBudgetMs > until) {
        const renewedAt = this.now().getTime();
        if (!(await this.connections.renewLease(lease, this.leaseMs))) return "lost";
        until = renewedAt + this.leaseMs;
      }
      if ((await this.poster.post(lease.connection_id, eventMessage(event))) === "gone") {
        await this.connections.delete(lease.connection_id);
        return "gone";
      }
      const advancedAt = this.now().getTime();
      // Fails when the lease was taken over or the client re-subscribed: stop, the loop re-checks.
      if (!(await this.connections.advance(lease, event.seq, this.leaseMs))) return "lost";
      until = advancedAt + this.leaseMs;
    }
    return "done";
  }
}

/**
 * The consumer's side: after events of a run are stored, drain every connection subscribed to it.
 * Runs in the stream consumer (lambdas/ws/stream.ts), never in a publisher, so a run's wall time does
 * not depend on how many dashboards watch it. Throws only when the subscribers cannot be listed (the
 * stream retries that batch); a single connection's trouble is logged and left to the next drain.
 */
export class RunSubscribers {
  constructor(
    private readonly connections: ConnectionStore,
    private readonly delivery: LiveDelivery,
    private readonly logger?: DeliveryLogger,
    /** Pushes to this many connections at once (a popular run must not open hundreds of sockets). */
    private readonly concurrency = 16,
  ) {}

  async drainAll(runId: string): Promise<void> {
    const subscribers = (await this.connections.listByRun(runId)).map((c) => c.connection_id);
    let next = 0;
    const worker = async () => {
      while (next < subscribers.length) {
        const connectionId = subscribers[next++] as string;
        try {
          await this.delivery.drain(connectionId);
        } catch (error) {
          this.logger?.warn("websocket drain failed", {
            connection_id: connectionId,
            run_id: runId,
            error: String(error),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, subscribers.length) }, worker));
  }
}

export interface LiveDeliveryServices {
  connections: ConnectionStore;
  delivery: LiveDelivery;
  subscribers: RunSubscribers;
}

/** Live delivery when both the connections table and the management endpoint are configured. */
export function createLiveDelivery(
  config: Config,
  ddb: DynamoDBDocumentClient,
  runs: RunStore,
  logger?: DeliveryLogger,
): LiveDeliveryServices | undefined {
  const client = createManagementApiClient(config);
  if (!config.connectionsTable || !client) return undefined;
  const connections = new ConnectionStore(ddb, config.connectionsTable);
  const delivery = new LiveDelivery({ connections, runs, poster: new ManagementApiPoster(client), logger });
  return { connections, delivery, subscribers: new RunSubscribers(connections, delivery, logger) };
}
