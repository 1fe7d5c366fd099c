// The connections table (README: Architecture): one item per open WebSocket connection, keyed by
// connection_id, with a GSI `by_run` on the run the connection is subscribed to and a TTL.
//
// Besides who may watch what, the item carries the connection's delivery state (see
// lambdas/live/delivery.ts for the algorithm that uses it):
//   delivered_seq    the highest seq pushed to this connection for its current subscription
//   subscription_id  changes on every subscribe, so a drainer still working for an older
//                    subscription can never move the cursor of the new one
//   lease_owner / draining_until   a short lease: only its holder pushes to the connection, so
//                    messages leave in seq order and the cursor only moves forward
//
// One subscription per connection at a time. An operator's dashboard watching another run sends
// another subscribe, which switches the connection to that run; watching several runs at once
// means several connections. That keeps a single cursor and a single GSI key per item, which is
// what makes "no gaps, no duplicates" a property of one conditional update.
//
// Every update is conditional on the item existing (or on owning its lease): an UpdateItem on a
// missing key would otherwise resurrect a connection that $disconnect or a 410 just deleted.

import { randomUUID } from "node:crypto";
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { CONNECTIONS_BY_RUN, TTL_ATTRIBUTE } from "../contracts/tables.ts";
import { queryAllPages } from "./pagination.ts";

export type ConnectionScope = "run" | "operator";

export interface ConnectionRecord {
  connection_id: string;
  scope: ConnectionScope;
  /** For a run-scoped token: the only run this connection may subscribe to. */
  allowed_run_id?: string;
  /** The run this connection is subscribed to (the `by_run` GSI key); absent until it subscribes. */
  run_id?: string;
  delivered_seq?: number;
  subscription_id?: string;
  lease_owner?: string;
  /** Epoch milliseconds; after this the lease may be taken over (its holder is presumed dead). */
  draining_until?: number;
  connected_at: string;
  /** Epoch seconds, read by DynamoDB TTL. */
  expires_at: number;
}

/** A connection that is subscribed, as seen by the holder of its lease. */
export interface Subscription {
  connection_id: string;
  run_id: string;
  delivered_seq: number;
  subscription_id: string;
}

/**
 * API Gateway closes a WebSocket after 2 hours whatever happens, so an item older than that is a
 * connection whose $disconnect was lost; the margin covers clock skew.
 */
export const CONNECTION_TTL_SECONDS = 2 * 3600 + 5 * 60;

export class ConnectionStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Registers a connection at $connect (a reconnect gets a new id, so this never overwrites a live one). */
  async put(input: {
    connection_id: string;
    scope: ConnectionScope;
    allowed_run_id?: string;
  }): Promise<ConnectionRecord> {
    const at = this.now();
    const record: ConnectionRecord = {
      connection_id: input.connection_id,
      scope: input.scope,
      ...(input.scope === "run" && input.allowed_run_id ? { allowed_run_id: input.allowed_run_id } : {}),
      connected_at: at.toISOString(),
      [TTL_ATTRIBUTE]: Math.floor(at.getTime() / 1000) + CONNECTION_TTL_SECONDS,
    };
    await this.ddb.send(new PutCommand({ TableName: this.table, Item: record }));
    return record;
  }

  async get(connectionId: string): Promise<ConnectionRecord | undefined> {
    const { Item } = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { connection_id: connectionId }, ConsistentRead: true }),
    );
    if (!Item) return undefined;
    // TTL deletion lags (by days in AWS; dynalite never deletes): expired means gone.
    if (Number(Item[TTL_ATTRIBUTE]) < Math.floor(this.now().getTime() / 1000)) return undefined;
    return Item as ConnectionRecord;
  }

  async delete(connectionId: string): Promise<void> {
    await this.ddb.send(new DeleteCommand({ TableName: this.table, Key: { connection_id: connectionId } }));
  }

  /**
   * Points the connection at `runId` with its cursor at `afterSeq` (the client has everything up
   * to it). A fresh subscription_id fences off any drainer of the previous subscription. The lease
   * is left alone: a drainer in the middle of a push finishes that one message, fails its next
   * conditional advance and, on its re-check, continues with this subscription.
   * Returns undefined when the connection is not registered.
   */
  async subscribe(connectionId: string, runId: string, afterSeq: number): Promise<Subscription | undefined> {
    const subscriptionId = randomUUID();
    try {
      await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { connection_id: connectionId },
          UpdateExpression:
            "SET run_id = :run, delivered_seq = :after, subscription_id = :sub, subscribed_at = :at",
          ConditionExpression: "attribute_exists(connection_id)",
          ExpressionAttributeValues: {
            ":run": runId,
            ":after": afterSeq,
            ":sub": subscriptionId,
            ":at": this.now().toISOString(),
          },
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
    return {
      connection_id: connectionId,
      run_id: runId,
      delivered_seq: afterSeq,
      subscription_id: subscriptionId,
    };
  }

  /**
   * Connections subscribed to a run. The GSI is eventually consistent: a connection that has just
   * subscribed may be missing for a moment (the subscribe handler covers that window itself), and
   * one that has just switched runs may still be listed (its drain reads the item and finds the
   * other run).
   */
  async listByRun(runId: string): Promise<ConnectionRecord[]> {
    const items = await queryAllPages(this.ddb, {
      TableName: this.table,
      IndexName: CONNECTIONS_BY_RUN.name,
      KeyConditionExpression: `${CONNECTIONS_BY_RUN.partitionKey.name} = :run`,
      ExpressionAttributeValues: { ":run": runId },
    });
    return items as unknown as ConnectionRecord[];
  }

  /**
   * Takes the connection's delivery lease when nobody holds it or its holder's lease has run out.
   * Returns the subscription as it is at that instant, or undefined when the lease is held, the
   * connection is gone, or it is not subscribed.
   */
  async acquireLease(
    connectionId: string,
    owner: string,
    leaseMs: number,
  ): Promise<Subscription | undefined> {
    const now = this.now().getTime();
    try {
      const { Attributes } = await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { connection_id: connectionId },
          UpdateExpression: "SET lease_owner = :owner, draining_until = :until",
          ConditionExpression:
            "attribute_exists(connection_id) AND attribute_exists(run_id) AND " +
            "(attribute_not_exists(draining_until) OR draining_until < :now)",
          ExpressionAttributeValues: { ":owner": owner, ":until": now + leaseMs, ":now": now },
          ReturnValues: "ALL_NEW",
        }),
      );
      const item = Attributes as ConnectionRecord;
      return {
        connection_id: connectionId,
        run_id: item.run_id as string,
        delivered_seq: Number(item.delivered_seq ?? 0),
        subscription_id: String(item.subscription_id),
      };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  /**
   * Records that everything up to `seq` was pushed and extends the lease (a drain with a long
   * backlog, before a push that could outlast its lease). False when the caller no longer owns the
   * lease (taken over after it expired) or the subscription changed: the caller must stop pushing.
   */
  async advance(lease: LeaseRef, seq: number, leaseMs: number): Promise<boolean> {
    return this.ifOwner(
      lease,
      "SET delivered_seq = :seq, draining_until = :until",
      {
        ":seq": seq,
        ":until": this.now().getTime() + leaseMs,
        ":sub": lease.subscription_id,
      },
      " AND subscription_id = :sub",
    );
  }

  /**
   * Records that everything up to `seq` was pushed and gives the lease back, in one update. Returns
   * the subscription as it is after that, or undefined when the caller no longer owns the lease or
   * the subscription changed (then nothing is written).
   */
  async advanceAndRelease(lease: LeaseRef, seq: number): Promise<Subscription | undefined> {
    try {
      const { Attributes } = await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { connection_id: lease.connection_id },
          UpdateExpression: "SET delivered_seq = :seq REMOVE lease_owner, draining_until",
          ConditionExpression: "lease_owner = :owner AND subscription_id = :sub",
          ExpressionAttributeValues: { ":seq": seq, ":owner": lease.owner, ":sub": lease.subscription_id },
          ReturnValues: "ALL_NEW",
        }),
      );
      const item = Attributes as ConnectionRecord;
      return {
        connection_id: lease.connection_id,
        run_id: item.run_id as string,
        delivered_seq: Number(item.delivered_seq ?? 0),
        subscription_id: String(item.subscription_id),
      };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  /** Gives the lease back (a no-op when someone else has taken it over meanwhile). */
  async releaseLease(lease: LeaseRef): Promise<void> {
    await this.ifOwner(lease, "REMOVE lease_owner, draining_until", {});
  }

  private async ifOwner(
    lease: LeaseRef,
    update: string,
    values: Record<string, unknown>,
    extraCondition = "",
  ): Promise<boolean> {
    try {
      await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { connection_id: lease.connection_id },
          UpdateExpression: update,
          ConditionExpression: `lease_owner = :owner${extraCondition}`,
          ExpressionAttributeValues: { ":owner": lease.owner, ...values },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}

export interface LeaseRef {
  connection_id: string;
  owner: string;
  subscription_id: string;
}
