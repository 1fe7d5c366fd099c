// Adds the global secondary indexes a table of an older layout lacks, keeping its items: a data folder
// persisted by an earlier version of the twin (`.rewoo/` of `npm start`) must keep working when the
// contract (lambdas/contracts/tables.ts) gains an index, e.g. by_loan on the runs table.
//
// DynamoDB adds an index with UpdateTable (one per call) and fills it from the items by itself.
// dynalite refuses that UpdateTable on an on-demand table (and would ignore GlobalSecondaryIndexUpdates
// anyway), so when the index is still missing afterwards the table is rebuilt: every item is copied to a backup table, the table is
// created again with the contract's definition, and the items are written back. The backup is only
// dropped once the items are back, and a backup left by an interrupted rebuild is restored at the next
// start, so no crash in between loses a run.
import {
  type AttributeValue,
  BatchWriteItemCommand,
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  PutItemCommand,
  ScanCommand,
  type TableDescription,
  UpdateTableCommand,
} from "@aws-sdk/client-dynamodb";
import { RUNS_BY_LOAN } from "../../lambdas/contracts/tables.ts";
import { META } from "../../lambdas/store/keys.ts";
import { loanIndexAttributes } from "../../lambdas/store/runs.ts";

type RawItem = Record<string, AttributeValue>;

/**
 * The attributes an index reads that items written before it existed do not have, by index name: the
 * rebuild adds them, so old runs are found through the new index too. Items stay in DynamoDB's
 * attribute-value form (nothing is converted and back): only the few fields a key is made of are read.
 */
const BACKFILLS: Record<string, (item: RawItem) => Record<string, string>> = {
  [RUNS_BY_LOAN.name]: (item) => {
    if (!item.pk?.S?.startsWith("RUN#") || item.sk?.S !== META) return {};
    const loan = item.request?.M?.metadata?.M?.loan_number;
    return loanIndexAttributes({
      run_id: item.run_id?.S ?? "",
      created_at: item.created_at?.S ?? "",
      request: { metadata: { loan_number: loan?.S ?? (loan?.N !== undefined ? Number(loan.N) : undefined) } },
    });
  },
};

/** The backup table of a rebuild, and the item that says the backup holds every item. */
export const backupTableName = (tableName: string) => `${tableName}.index-rebuild`;
const COMPLETE_MARKER: RawItem = { pk: { S: "#index-rebuild" }, sk: { S: "#complete" } };

export interface IndexesAdded {
  /** The indexes that were missing and now exist. */
  added: string[];
  /** How they were added: DynamoDB's UpdateTable, or the rebuild dynalite needs. */
  how: "update-table" | "rebuild";
  /** Items that gained index attributes (BACKFILLS). */
  backfilled: number;
}

/** The contract's indexes missing from `table` (by name). */
export function missingIndexes(definition: CreateTableCommandInput, table: TableDescription): string[] {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  return (definition.GlobalSecondaryIndexes ?? [])
    .map((index) => index.IndexName as string)
    .filter((name) => !present.has(name));
}

/**
 * Makes `definition.TableName` have every index of `definition`, items kept. Undefined when nothing
 * was missing.
 */
export async function addMissingIndexes(
  client: DynamoDBClient,
  definition: CreateTableCommandInput,
): Promise<IndexesAdded | undefined> {
  const tableName = definition.TableName as string;
  const table = await activeTable(client, tableName);
  if (!table) throw new Error(`Table ${tableName} does not exist`);
  const missing = missingIndexes(definition, table);
  if (missing.length === 0) return undefined;

  for (const name of missing) {
    const index = definition.GlobalSecondaryIndexes?.find((gsi) => gsi.IndexName === name);
    if (!index) continue;
    try {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: definition.AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [
            { Create: { IndexName: name, KeySchema: index.KeySchema, Projection: index.Projection } },
          ],
        }),
      );
    } catch (error) {
      // dynalite validates an index Create as if every table were provisioned (it wants a
      // ProvisionedThroughput, which an on-demand table must not have): rebuild instead.
      if ((error as Error).name !== "ValidationException") throw error;
      break;
    }
    await activeTable(client, tableName);
  }
  const updated = await activeTable(client, tableName);
  if (updated && missingIndexes(definition, updated).length === 0) {
    // DynamoDB fills a new index from the items it finds: give old items the attributes it reads.
    const backfilled = await backfillInPlace(client, tableName, missing);
    return { added: missing, how: "update-table", backfilled };
  }
  return { added: missing, how: "rebuild", backfilled: await rebuild(client, definition, missing) };
}

/**
 * Restores a table from the backup an interrupted rebuild left, if there is one: a complete backup is
 * written back (the table may have been dropped already), an incomplete one is dropped (the rebuild
 * dropped nothing before its backup was complete). Call before looking at the table.
 */
export async function recoverInterruptedRebuild(
  client: DynamoDBClient,
  definition: CreateTableCommandInput,
): Promise<"none" | "restored" | "discarded"> {
  const tableName = definition.TableName as string;
  const backup = backupTableName(tableName);
  if (!(await activeTable(client, backup))) return "none";
  const items = await scanAll(client, backup);
  const complete = items.some((item) => isMarker(item));
  if (complete) {
    if (!(await activeTable(client, tableName))) {
      await client.send(new CreateTableCommand(definition));
      await activeTable(client, tableName);
    }
    const indexes = (definition.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName as string);
    await writeAll(
      client,
      tableName,
      items.filter((item) => !isMarker(item)).map((item) => withBackfill(item, indexes).item),
    );
  }
  await dropTable(client, backup);
  return complete ? "restored" : "discarded";
}

async function rebuild(
  client: DynamoDBClient,
  definition: CreateTableCommandInput,
  added: string[],
): Promise<number> {
  const tableName = definition.TableName as string;
  const backup = backupTableName(tableName);
  const items = await scanAll(client, tableName);
  await client.send(new CreateTableCommand({ ...definition, TableName: backup }));
  await activeTable(client, backup);
  await writeAll(client, backup, items);
  await client.send(new PutItemCommand({ TableName: backup, Item: COMPLETE_MARKER }));

  await dropTable(client, tableName);
  await client.send(new CreateTableCommand(definition));
  await activeTable(client, tableName);
  let backfilled = 0;
  const filled = items.map((item) => {
    const result = withBackfill(item, added);
    if (result.changed) backfilled += 1;
    return result.item;
  });
  await writeAll(client, tableName, filled);
  await dropTable(client, backup);
  return backfilled;
}

async function backfillInPlace(client: DynamoDBClient, tableName: string, added: string[]): Promise<number> {
  const changed = (await scanAll(client, tableName))
    .map((item) => withBackfill(item, added))
    .filter((result) => result.changed)
    .map((result) => result.item);
  await writeAll(client, tableName, changed);
  return changed.length;
}

/** The item with the attributes the `indexes` read (BACKFILLS) added where it lacks them. */
function withBackfill(item: RawItem, indexes: string[]): { item: RawItem; changed: boolean } {
  const extra: RawItem = {};
  for (const index of indexes) {
    for (const [name, value] of Object.entries(BACKFILLS[index]?.(item) ?? {})) {
      if (!(name in item)) extra[name] = { S: value };
    }
  }
  if (Object.keys(extra).length === 0) return { item, changed: false };
  return { item: { ...item, ...extra }, changed: true };
}

const isMarker = (item: RawItem) =>
  item.pk?.S === COMPLETE_MARKER.pk?.S && item.sk?.S === COMPLETE_MARKER.sk?.S;

async function scanAll(client: DynamoDBClient, tableName: string): Promise<RawItem[]> {
  const items: RawItem[] = [];
  let startKey: RawItem | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** BatchWriteItem, 25 items a call, until none is left unprocessed. */
async function writeAll(client: DynamoDBClient, tableName: string, items: RawItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let requests = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 50) throw new Error(`could not write the items of ${tableName} back`);
      const { UnprocessedItems } = await client.send(
        new BatchWriteItemCommand({ RequestItems: { [tableName]: requests } }),
      );
      requests = (UnprocessedItems?.[tableName] ?? []).flatMap((request) =>
        request.PutRequest?.Item ? [{ PutRequest: { Item: request.PutRequest.Item } }] : [],
      );
      if (requests.length > 0) await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
    }
  }
}

async function dropTable(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  const deadline = Date.now() + 10_000;
  while (await describe(client, tableName)) {
    if (Date.now() > deadline) throw new Error(`Table ${tableName} was not deleted within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The table once it and its indexes are ACTIVE; undefined when it does not exist. */
async function activeTable(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const table = await describe(client, tableName);
    if (!table) return undefined;
    const indexesActive = (table.GlobalSecondaryIndexes ?? []).every((gsi) => gsi.IndexStatus === "ACTIVE");
    if (table.TableStatus === "ACTIVE" && indexesActive) return table;
    if (Date.now() > deadline) throw new Error(`Table ${tableName} did not become ACTIVE within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function describe(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if ((error as Error).name === "ResourceNotFoundException") return undefined;
    throw error;
  }
}
