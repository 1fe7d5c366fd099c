// dynalite's Query and Scan must release the store iterators they open: an iterator left open pins
// LevelDB's obsolete table files and memtables (or the in-memory store's old tree) for good.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dynaliteIteratorBases, type IteratorPrototype } from "../../../infra/local/dynalite-iterators.ts";
import { type Emulators, startEmulators } from "../../../infra/local/emulators.ts";
import { localDynamoDbClientConfig, provisionResources } from "../../../infra/local/provision.ts";

const REGION = "us-east-1";
const TABLE = "rewoo-runs";
const ITEMS = 30;

/** Counts close() calls on dynalite's store iterators while installed. */
function countCloses(): { count: () => number; restore: () => void } {
  let closed = 0;
  const restores = dynaliteIteratorBases().map((base: IteratorPrototype) => {
    const close = base.close;
    base.close = function countedClose(this: IteratorPrototype) {
      closed += 1;
      return close.call(this);
    };
    return () => {
      base.close = close;
    };
  });
  return {
    count: () => closed,
    restore: () => {
      for (const restore of restores) restore();
    },
  };
}

async function eventually(condition: () => boolean): Promise<void> {
  // Streams release their iterator after the response has been written; give them a moment.
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.each([
  { store: "in memory", persist: false },
  { store: "LevelDB on disk", persist: true },
])("dynalite iterators ($store)", ({ persist }) => {
  let dataDir: string;
  let emulators: Emulators;
  let client: DynamoDBClient;
  let documents: DynamoDBDocumentClient;
  let counter: ReturnType<typeof countCloses> | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "rewoo-dynalite-iterators-"));
    emulators = await startEmulators({ dataDir, persist });
    await provisionResources({
      dynamodbEndpoint: emulators.dynamodbEndpoint,
      s3Endpoint: emulators.s3Endpoint,
      region: REGION,
      runsTable: TABLE,
      connectionsTable: "rewoo-connections",
      buckets: [],
    });
    client = new DynamoDBClient(localDynamoDbClientConfig(emulators.dynamodbEndpoint, REGION));
    documents = DynamoDBDocumentClient.from(client);
    for (let i = 0; i < ITEMS; i++) {
      const seq = String(i).padStart(10, "0");
      await documents.send(
        new PutCommand({ TableName: TABLE, Item: { pk: "RUN#r1", sk: `EVENT#${seq}`, seq: i } }),
      );
    }
  });

  afterEach(() => counter?.restore());

  afterAll(async () => {
    client?.destroy();
    await emulators?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("releases the iterator of every Query read to its end, Query stopped by a Limit, and Scan", async () => {
    counter = countCloses();
    const byRun = {
      TableName: TABLE,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": "RUN#r1" },
    };
    const full = await documents.send(new QueryCommand(byRun));
    const limited = await documents.send(new QueryCommand({ ...byRun, Limit: 5 }));
    const scanned = await documents.send(new ScanCommand({ TableName: TABLE }));
    expect(full.Items).toHaveLength(ITEMS);
    expect(limited.Items).toHaveLength(5);
    expect(limited.LastEvaluatedKey).toBeDefined();
    expect(scanned.Items).toHaveLength(ITEMS);

    const { count } = counter;
    await eventually(() => count() >= 3);
    expect(count()).toBeGreaterThanOrEqual(3);
  });
});
