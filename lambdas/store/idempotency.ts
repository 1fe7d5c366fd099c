// Idempotency keys: which run an Idempotency-Key started. Their items live in the runs table beside
// the runs, in their own partition per key; a conditional put makes one of concurrent requests the winner.
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { TTL_ATTRIBUTE } from "../contracts/tables.ts";
import { itemKey, META } from "./keys.ts";
import type { RunsTable } from "./run-item.ts";

/** Maps an Idempotency-Key (hashed: the key itself is the client's and may be sensitive) to the run it started. */
export interface IdempotencyRecord {
  key_hash: string;
  run_id: string;
  /** Hash of what the key was first used with (endpoint + body): another body under the same key is a conflict. */
  request_hash: string;
  created_at: string;
  /** Epoch seconds; DynamoDB TTL deletes the item some time after, so reads also treat it as gone. */
  expires_at: number;
}

// Idempotency items live in the runs table beside the runs, in their own partition per key.
const idempotencyKey = (keyHash: string) => itemKey(`IDEMPOTENCY#${keyHash}`, META);

/**
 * Records that `record.key_hash` started `record.run_id`, unless the key is already taken by a
 * record that has not expired. The conditional put makes exactly one of concurrent requests with
 * the same key the one that starts a run; the others get the winner's record back.
 * `replacing`: take over the record only if it still names that run (a stale claim whose run was never created).
 */
export async function claimIdempotencyKey(
  at: RunsTable,
  record: IdempotencyRecord,
  options: { replacing?: string } = {},
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
  const nowSeconds = Math.floor(at.now().getTime() / 1000);
  try {
    await at.ddb.send(
      new PutCommand({
        TableName: at.table,
        Item: { ...idempotencyKey(record.key_hash), ...record },
        ...(options.replacing === undefined
          ? {
              // TTL deletion lags by up to days (and dynalite never deletes): expired means free.
              ConditionExpression: `attribute_not_exists(pk) OR ${TTL_ATTRIBUTE} < :now`,
              ExpressionAttributeValues: { ":now": nowSeconds },
            }
          : {
              ConditionExpression: "run_id = :old",
              ExpressionAttributeValues: { ":old": options.replacing },
            }),
      }),
    );
    return { claimed: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const existing = await getIdempotencyRecord(at, record.key_hash);
    // Gone between the put and the read (released or expired): the caller may simply try again.
    if (!existing) throw error;
    return { claimed: false, existing };
  }
}

export async function getIdempotencyRecord(
  at: RunsTable,
  keyHash: string,
): Promise<IdempotencyRecord | undefined> {
  const { Item } = await at.ddb.send(
    new GetCommand({ TableName: at.table, Key: idempotencyKey(keyHash), ConsistentRead: true }),
  );
  if (!Item || Number(Item[TTL_ATTRIBUTE]) < Math.floor(at.now().getTime() / 1000)) return undefined;
  const { pk: _pk, sk: _sk, ...record } = Item;
  return record as IdempotencyRecord;
}

/** Frees a key whose run did not start, so the client's retry with the same key starts afresh. */
export async function releaseIdempotencyKey(at: RunsTable, keyHash: string, runId: string): Promise<void> {
  try {
    await at.ddb.send(
      new DeleteCommand({
        TableName: at.table,
        Key: idempotencyKey(keyHash),
        ConditionExpression: "run_id = :run",
        ExpressionAttributeValues: { ":run": runId },
      }),
    );
  } catch (error) {
    // Already taken over by another request: not ours to delete.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
