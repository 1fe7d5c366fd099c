// The storage emulators and provisioning, exercised through the real AWS SDK v3 clients.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../../infra/local/emulators.ts";
import {
  localDynamoDbClientConfig,
  localS3ClientConfig,
  type ProvisionOptions,
  provisionResources,
} from "../../../infra/local/provision.ts";

const REGION = "us-east-1";

function resources(emulators: Emulators): ProvisionOptions {
  return {
    dynamodbEndpoint: emulators.dynamodbEndpoint,
    s3Endpoint: emulators.s3Endpoint,
    region: REGION,
    runsTable: "rewoo-runs",
    connectionsTable: "rewoo-connections",
    buckets: ["rewoo-documents", "rewoo-artifacts"],
  };
}

describe("local emulators (in memory)", () => {
  let emulators: Emulators;
  let dynamo: DynamoDBClient;
  let documents: DynamoDBDocumentClient;
  let s3: S3Client;

  beforeAll(async () => {
    emulators = await startEmulators({ dataDir: "/nonexistent-because-not-persisted", persist: false });
    dynamo = new DynamoDBClient(localDynamoDbClientConfig(emulators.dynamodbEndpoint, REGION));
    documents = DynamoDBDocumentClient.from(dynamo);
    s3 = new S3Client(localS3ClientConfig(emulators.s3Endpoint, REGION));
  });

  afterAll(async () => {
    dynamo?.destroy();
    s3?.destroy();
    await emulators?.stop();
  });

  it("listens on loopback only", () => {
    expect(emulators.dynamodbEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulators.s3Endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("provisions tables and buckets idempotently", async () => {
    const first = await provisionResources(resources(emulators));
    expect(first.tablesCreated).toEqual(["rewoo-runs", "rewoo-connections"]);
    expect(first.bucketsCreated).toEqual(["rewoo-documents", "rewoo-artifacts"]);
    // dynalite has no UpdateTimeToLive.
    expect(first.ttl).toBe("unsupported");

    const second = await provisionResources(resources(emulators));
    expect(second.tablesCreated).toEqual([]);
    expect(second.tablesExisting).toEqual(["rewoo-runs", "rewoo-connections"]);
    expect(second.bucketsExisting).toEqual(["rewoo-documents", "rewoo-artifacts"]);

    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: "rewoo-runs" }));
    expect(Table?.KeySchema).toEqual([
      { AttributeName: "pk", KeyType: "HASH" },
      { AttributeName: "sk", KeyType: "RANGE" },
    ]);
    expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual([
      "by_profile",
      "by_day",
      "by_loan",
    ]);
    const connections = await dynamo.send(new DescribeTableCommand({ TableName: "rewoo-connections" }));
    expect(connections.Table?.GlobalSecondaryIndexes?.[0]?.KeySchema).toEqual([
      { AttributeName: "run_id", KeyType: "HASH" },
    ]);
  });

  it("stores and reads items through lib-dynamodb, including the GSI", async () => {
    const item = {
      pk: "RUN#r1",
      sk: "META",
      gsi1pk: "PROFILE#loan",
      gsi1sk: "2026-11-21T00:00:00.000Z",
      status: "RUNNING",
      nested: { levels: [["E1", "E2"], ["E3"]], ratio: 0.25 },
    };
    await documents.send(new PutCommand({ TableName: "rewoo-runs", Item: item }));
    const { Item } = await documents.send(
      new GetCommand({ TableName: "rewoo-runs", Key: { pk: "RUN#r1", sk: "META" }, ConsistentRead: true }),
    );
    expect(Item).toEqual(item);

    const { Items } = await documents.send(
      new QueryCommand({
        TableName: "rewoo-runs",
        IndexName: "by_profile",
        KeyConditionExpression: "gsi1pk = :p",
        ExpressionAttributeValues: { ":p": "PROFILE#loan" },
      }),
    );
    expect(Items).toEqual([item]);
  });

  it("round-trips a 200 KB binary object byte for byte", async () => {
    const body = randomBytes(200 * 1024);
    await s3.send(new PutObjectCommand({ Bucket: "rewoo-artifacts", Key: "runs/r1/blob.bin", Body: body }));
    const got = await s3.send(new GetObjectCommand({ Bucket: "rewoo-artifacts", Key: "runs/r1/blob.bin" }));
    const bytes = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
    expect(bytes.length).toBe(body.length);
    expect(bytes.equals(body)).toBe(true);
  });
});

describe("local emulators (persisted)", () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "rewoo-emulators-test-"));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps tables, items and objects across restarts and refuses a second instance on the same folder", async () => {
    const first = await startEmulators({ dataDir });
    try {
      await provisionResources(resources(first));
      const dynamo = DynamoDBDocumentClient.from(
        new DynamoDBClient(localDynamoDbClientConfig(first.dynamodbEndpoint, REGION)),
      );
      const s3 = new S3Client(localS3ClientConfig(first.s3Endpoint, REGION));
      await dynamo.send(new PutCommand({ TableName: "rewoo-runs", Item: { pk: "RUN#p", sk: "META", n: 1 } }));
      await s3.send(new PutObjectCommand({ Bucket: "rewoo-documents", Key: "a/b.txt", Body: "hello" }));
      dynamo.destroy();
      s3.destroy();

      await expect(startEmulators({ dataDir })).rejects.toThrow(/in use by another process/);
    } finally {
      await first.stop();
    }

    const second = await startEmulators({ dataDir });
    try {
      const report = await provisionResources(resources(second));
      expect(report.tablesCreated).toEqual([]);
      const dynamo = DynamoDBDocumentClient.from(
        new DynamoDBClient(localDynamoDbClientConfig(second.dynamodbEndpoint, REGION)),
      );
      const s3 = new S3Client(localS3ClientConfig(second.s3Endpoint, REGION));
      const { Item } = await dynamo.send(
        new GetCommand({ TableName: "rewoo-runs", Key: { pk: "RUN#p", sk: "META" } }),
      );
      expect(Item).toEqual({ pk: "RUN#p", sk: "META", n: 1 });
      const object = await s3.send(new GetObjectCommand({ Bucket: "rewoo-documents", Key: "a/b.txt" }));
      expect(await object.Body?.transformToString()).toBe("hello");
      dynamo.destroy();
      s3.destroy();
    } finally {
      await second.stop();
    }
  });
});
