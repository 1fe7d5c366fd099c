// Creates, idempotently, the tables and buckets that CDK creates in AWS, inside the local emulators.
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DynamoDBClient,
  type DynamoDBClientConfig,
  ResourceInUseException,
  type TableDescription,
  UpdateTimeToLiveCommand,
  type UpdateTimeToLiveCommandInput,
} from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, PutBucketCorsCommand, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { DOCUMENTS_BUCKET_CORS } from "../../lambdas/contracts/documents.ts";
import {
  attributeDefinitions,
  type KeyAttribute,
  TABLES,
  type TableSchema,
} from "../../lambdas/contracts/tables.ts";
import { LOCAL_CREDENTIALS } from "./emulators.ts";
import { addMissingIndexes, recoverInterruptedRebuild } from "./table-indexes.ts";

export { LOCAL_CREDENTIALS };

/** Client settings for dynalite (and any other emulator that ignores signatures). */
export function localClientConfig(endpoint: string, region: string) {
  return {
    endpoint,
    region,
    credentials: { ...LOCAL_CREDENTIALS },
  } satisfies DynamoDBClientConfig;
}

export function localDynamoDbClientConfig(endpoint: string, region: string): DynamoDBClientConfig {
  return localClientConfig(endpoint, region);
}

export function localS3ClientConfig(endpoint: string, region: string): S3ClientConfig {
  return {
    ...localClientConfig(endpoint, region),
    // Virtual-hosted addressing would put the bucket into the host name (bucket.127.0.0.1), which
    // does not resolve.
    forcePathStyle: true,
    // With the SDK's default (flexible checksums sent as aws-chunked trailers) s3rver, which does not
    // decode aws-chunked, stores the chunk framing as object data: streamed bodies come back corrupted.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  };
}

export interface ProvisionOptions {
  dynamodbEndpoint: string;
  s3Endpoint: string;
  region: string;
  runsTable: string;
  connectionsTable: string;
  /** The banking assistant's core-banking table (CORE_BANKING_TABLE); absent: not provisioned. */
  coreBankingTable?: string;
  buckets: string[];
  /**
   * Buckets a browser page reads and writes through presigned URLs (the documents bucket), and the
   * origins it may be served from: each gets DOCUMENTS_BUCKET_CORS, set again at every start, so a
   * persisted data folder from before gains it too.
   */
  browserAccess?: { buckets: string[]; origins: readonly string[] };
}

export interface ProvisionReport {
  tablesCreated: string[];
  tablesExisting: string[];
  bucketsCreated: string[];
  bucketsExisting: string[];
  /** dynalite has no UpdateTimeToLive: stale runs and connections are not expired locally. */
  ttl: "enabled" | "unsupported";
}

export function runsTableDefinition(tableName: string): CreateTableCommandInput {
  return createTableInput(TABLES.runs, tableName);
}

export function connectionsTableDefinition(tableName: string): CreateTableCommandInput {
  return createTableInput(TABLES.connections, tableName);
}

/** Customers, accounts, cards, payees, transfers and fraud cases; see lambdas/store/core-banking.ts. */
export function coreBankingTableDefinition(tableName: string): CreateTableCommandInput {
  return createTableInput(TABLES.coreBanking, tableName);
}

/** What the twin sends its emulator for one table: CreateTable, then UpdateTimeToLive where the schema has a TTL. */
export interface TwinTable {
  createTable: CreateTableCommandInput;
  timeToLive?: UpdateTimeToLiveCommandInput;
}

/**
 * The twin's tables, from the same schema the Data stack deploys (lambdas/contracts/tables.ts). Pure:
 * the drift test compares these requests with the synthesized templates.
 */
export function twinTables(
  names: Pick<ProvisionOptions, "runsTable" | "connectionsTable" | "coreBankingTable">,
): TwinTable[] {
  const table = (schema: TableSchema, tableName: string): TwinTable => ({
    createTable: createTableInput(schema, tableName),
    ...(schema.ttlAttribute
      ? {
          timeToLive: {
            TableName: tableName,
            TimeToLiveSpecification: { AttributeName: schema.ttlAttribute, Enabled: true },
          },
        }
      : {}),
  });
  return [
    table(TABLES.runs, names.runsTable),
    table(TABLES.connections, names.connectionsTable),
    ...(names.coreBankingTable ? [table(TABLES.coreBanking, names.coreBankingTable)] : []),
  ];
}

export async function provisionResources(options: ProvisionOptions): Promise<ProvisionReport> {
  const dynamo = new DynamoDBClient(localDynamoDbClientConfig(options.dynamodbEndpoint, options.region));
  const s3 = new S3Client(localS3ClientConfig(options.s3Endpoint, options.region));
  const report: ProvisionReport = {
    tablesCreated: [],
    tablesExisting: [],
    bucketsCreated: [],
    bucketsExisting: [],
    ttl: "enabled",
  };
  try {
    const tables = twinTables(options);
    for (const { createTable } of tables) {
      const created = await ensureTable(dynamo, createTable);
      (created ? report.tablesCreated : report.tablesExisting).push(createTable.TableName as string);
    }

    for (const { timeToLive } of tables) {
      if (!timeToLive || report.ttl === "unsupported") continue;
      try {
        await dynamo.send(new UpdateTimeToLiveCommand(timeToLive));
      } catch (error) {
        const name = (error as Error).name;
        // dynalite answers UnknownOperationException; a real table that already has TTL answers
        // ValidationException ("TimeToLive is already enabled").
        if (name === "UnknownOperationException") report.ttl = "unsupported";
        else if (name !== "ValidationException") throw error;
      }
    }

    for (const bucket of options.buckets) {
      try {
        await s3.send(new CreateBucketCommand({ Bucket: bucket }));
        report.bucketsCreated.push(bucket);
      } catch (error) {
        const name = (error as Error).name;
        // s3rver answers BucketAlreadyExists even for its own (single-account) buckets.
        if (name !== "BucketAlreadyOwnedByYou" && name !== "BucketAlreadyExists") throw error;
        report.bucketsExisting.push(bucket);
      }
    }
    for (const bucket of options.browserAccess?.buckets ?? []) {
      await s3.send(
        new PutBucketCorsCommand({
          Bucket: bucket,
          CORSConfiguration: {
            CORSRules: [
              {
                AllowedOrigins: [...(options.browserAccess?.origins ?? [])],
                AllowedMethods: [...DOCUMENTS_BUCKET_CORS.methods],
                AllowedHeaders: [...DOCUMENTS_BUCKET_CORS.allowedHeaders],
                ExposeHeaders: [...DOCUMENTS_BUCKET_CORS.exposedHeaders],
                MaxAgeSeconds: DOCUMENTS_BUCKET_CORS.maxAgeSeconds,
              },
            ],
          },
        }),
      );
    }
    return report;
  } finally {
    dynamo.destroy();
    s3.destroy();
  }
}

/** Returns true when the table was created, false when it already existed with the expected keys. */
async function ensureTable(client: DynamoDBClient, definition: CreateTableCommandInput): Promise<boolean> {
  const tableName = definition.TableName as string;
  await recoverInterruptedRebuild(client, definition);
  let created = true;
  try {
    await client.send(new CreateTableCommand(definition));
  } catch (error) {
    if (!(error instanceof ResourceInUseException) && (error as Error).name !== "ResourceInUseException") {
      throw error;
    }
    created = false;
  }
  let table = await waitForActive(client, tableName);
  if (!created) {
    // A persisted data folder from before an index was added to the contract: add it, items kept.
    if (await addMissingIndexes(client, definition)) table = await waitForActive(client, tableName);
    const drift = schemaDrift(definition, table);
    if (drift) {
      // A persisted data folder from an older layout: the repositories would fail later with
      // confusing ValidationExceptions, so refuse now.
      throw new Error(
        `Table ${tableName} exists with a different schema (${drift}); delete the local data folder or the table and start again`,
      );
    }
  }
  return created;
}

async function waitForActive(client: DynamoDBClient, tableName: string): Promise<TableDescription> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((gsi) => gsi.IndexStatus === "ACTIVE");
    if (Table && Table.TableStatus === "ACTIVE" && indexesActive) return Table;
    if (Date.now() > deadline) throw new Error(`Table ${tableName} did not become ACTIVE within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function schemaDrift(expected: CreateTableCommandInput, actual: TableDescription): string | undefined {
  const keys = (schema: { AttributeName?: string; KeyType?: string }[] | undefined) =>
    (schema ?? []).map((key) => `${key.AttributeName}:${key.KeyType}`).join(",");
  if (keys(expected.KeySchema) !== keys(actual.KeySchema)) {
    return `key ${keys(actual.KeySchema)} instead of ${keys(expected.KeySchema)}`;
  }
  for (const gsi of expected.GlobalSecondaryIndexes ?? []) {
    const found = actual.GlobalSecondaryIndexes?.find((index) => index.IndexName === gsi.IndexName);
    if (!found) return `missing index ${gsi.IndexName}`;
    if (keys(found.KeySchema) !== keys(gsi.KeySchema)) {
      return `index ${gsi.IndexName} keyed on ${keys(found.KeySchema)} instead of ${keys(gsi.KeySchema)}`;
    }
  }
  return undefined;
}

function keySchema(partitionKey: KeyAttribute, sortKey: KeyAttribute | undefined) {
  return [
    { AttributeName: partitionKey.name, KeyType: "HASH" as const },
    ...(sortKey ? [{ AttributeName: sortKey.name, KeyType: "RANGE" as const }] : []),
  ];
}

/**
 * The CreateTable request for a table of this schema (what the twin sends its emulator). The stream and
 * TTL are not part of it: dynalite has no streams (the twin records one from its writes) and TTL is
 * enabled by a separate UpdateTimeToLive.
 */
export function createTableInput(table: TableSchema, tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: table.billing,
    AttributeDefinitions: attributeDefinitions(table).map(({ name, type }) => ({
      AttributeName: name,
      AttributeType: type,
    })),
    KeySchema: keySchema(table.partitionKey, table.sortKey),
    ...(table.indexes.length
      ? {
          GlobalSecondaryIndexes: table.indexes.map((index) => ({
            IndexName: index.name,
            KeySchema: keySchema(index.partitionKey, index.sortKey),
            Projection: { ProjectionType: index.projection },
          })),
        }
      : {}),
  };
}
