// Sessions in the runs table (one item collection per session, beside the runs'): META holds what a
// follow-up inherits and the session's runs in order; ENTRY#<seq> items are what the session itself
// records (requests, resets, cancels). The rest of its transcript is its runs' events.
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { TTL_ATTRIBUTE } from "../contracts/tables.ts";
import type { SessionContext, SessionEntry } from "../core/sessions.ts";
import { META, sessionEntryKey, sessionKey, timeOrderedId } from "./keys.ts";
import { queryAllPages } from "./pagination.ts";
import { RETENTION_SECONDS } from "./runs.ts";

export interface SessionItem {
  session_id: string;
  /** What the next request inherits; absent after a reset (and before the first request). */
  context?: SessionContext;
  /** The session's runs, oldest first. */
  run_ids: string[];
  /** The customer a chat session belongs to (banking): only they may continue it. */
  customer_id?: string;
  /** Runs started before the last reset: the session's state no longer follows them. */
  reset_after?: number;
  entry_seq: number;
  created_at: string;
  updated_at: string;
}

export function newSessionId(now = new Date()): string {
  return timeOrderedId("sess", now);
}

export class SessionStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(sessionId: string): Promise<SessionItem | undefined> {
    const { Item } = await this.ddb.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: sessionKey(sessionId), sk: META },
        ConsistentRead: true,
      }),
    );
    return Item as SessionItem | undefined;
  }

  /**
   * A run started in the session: it becomes the session's latest, and its request the context.
   * `customerId`: the chat's customer, whose session it must be; without it the session must be no
   * customer's (a loan run never joins a customer's conversation, even racing its first message).
   */
  async recordRequest(
    sessionId: string,
    runId: string,
    request: Record<string, unknown>,
    customerId?: string,
  ): Promise<void> {
    const at = this.now().toISOString();
    const context: SessionContext = {
      metadata: request.metadata as Record<string, unknown>,
      s3_pdf_paths: request.s3_pdf_paths as string[],
    };
    const { Attributes } = await this.ddb.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: sessionKey(sessionId), sk: META },
        UpdateExpression:
          "SET session_id = :id, #context = :context, run_ids = list_append(if_not_exists(run_ids, :none), :run), " +
          `created_at = if_not_exists(created_at, :at), updated_at = :at, ${TTL_ATTRIBUTE} = :expires ADD entry_seq :one`,
        ConditionExpression: customerId ? "customer_id = :customer" : "attribute_not_exists(customer_id)",
        ExpressionAttributeNames: { "#context": "context" },
        ExpressionAttributeValues: {
          ...(customerId ? { ":customer": customerId } : {}),
          ":id": sessionId,
          ":context": context,
          ":none": [],
          ":run": [runId],
          ":at": at,
          ":expires": this.expiry(),
          ":one": 1,
        },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    await this.putEntry(sessionId, Number(Attributes?.entry_seq), {
      type: "request",
      at,
      run_id: runId,
      request,
    });
  }

  /**
   * Forgets what follow-ups inherit; its `runs` first runs no longer set its state. False for an
   * unknown session.
   */
  async reset(sessionId: string, runs: number): Promise<boolean> {
    const at = this.now().toISOString();
    try {
      const { Attributes } = await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: sessionKey(sessionId), sk: META },
          UpdateExpression: "REMOVE #context SET reset_after = :runs, updated_at = :at ADD entry_seq :one",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#context": "context" },
          ExpressionAttributeValues: { ":runs": runs, ":at": at, ":one": 1 },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      await this.putEntry(sessionId, Number(Attributes?.entry_seq), { type: "reset", at });
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async recordCancel(sessionId: string, runId: string, reason: string): Promise<void> {
    await this.appendEntry(sessionId, {
      type: "cancel",
      at: this.now().toISOString(),
      run_id: runId,
      reason,
    });
  }

  /**
   * Makes `sessionId` the customer's chat session, or confirms it is already theirs, and returns it. Undefined when it
   * belongs to someone else or to no customer (an operator's loan session): to the caller, that is
   * a session that does not exist.
   */
  async claimForCustomer(sessionId: string, customerId: string): Promise<SessionItem | undefined> {
    const at = this.now().toISOString();
    try {
      const { Attributes } = await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: sessionKey(sessionId), sk: META },
          UpdateExpression:
            "SET session_id = :id, customer_id = :customer, run_ids = if_not_exists(run_ids, :none), " +
            "entry_seq = if_not_exists(entry_seq, :zero), created_at = if_not_exists(created_at, :at), " +
            `updated_at = :at, ${TTL_ATTRIBUTE} = :expires`,
          ConditionExpression: "attribute_not_exists(pk) OR customer_id = :customer",
          ExpressionAttributeValues: {
            ":id": sessionId,
            ":customer": customerId,
            ":none": [],
            ":zero": 0,
            ":at": at,
            ":expires": this.expiry(),
          },
          ReturnValues: "ALL_NEW",
        }),
      );
      return Attributes as SessionItem;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  /** A chat message, the customer's or the assistant's, in the session's ordered log. */
  async recordMessage(
    sessionId: string,
    message: { role: "user" | "assistant"; text: string; run_id?: string },
  ): Promise<void> {
    await this.appendEntry(sessionId, { type: "message", at: this.now().toISOString(), ...message }, true);
  }

  async entries(sessionId: string): Promise<SessionEntry[]> {
    const items = await queryAllPages(this.ddb, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :entry)",
      ExpressionAttributeValues: { ":pk": sessionKey(sessionId), ":entry": "ENTRY#" },
      ConsistentRead: true,
    });
    return items.map((item) => item.entry as SessionEntry);
  }

  /** The next entry of the session's log: its number taken from the session, then the entry written. */
  private async appendEntry(sessionId: string, entry: SessionEntry, mustExist = false): Promise<void> {
    const { Attributes } = await this.ddb.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: sessionKey(sessionId), sk: META },
        UpdateExpression: "SET updated_at = :at ADD entry_seq :one",
        ...(mustExist ? { ConditionExpression: "attribute_exists(pk)" } : {}),
        ExpressionAttributeValues: { ":at": entry.at, ":one": 1 },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    await this.putEntry(sessionId, Number(Attributes?.entry_seq), entry);
  }

  private async putEntry(sessionId: string, seq: number, entry: SessionEntry): Promise<void> {
    await this.ddb.send(
      new PutCommand({
        TableName: this.table,
        Item: { pk: sessionKey(sessionId), sk: sessionEntryKey(seq), entry, [TTL_ATTRIBUTE]: this.expiry() },
      }),
    );
  }

  private expiry(): number {
    return Math.floor(this.now().getTime() / 1000) + RETENTION_SECONDS;
  }
}
