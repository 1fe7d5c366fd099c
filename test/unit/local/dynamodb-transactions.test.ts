// DynamoDB transactions in the local twin, through the real AWS SDK v3 clients against dynalite.
import type { AddressInfo } from "node:net";
import {
  DynamoDBClient,
  IdempotentParameterMismatchException,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from "@aws-sdk/client-dynamodb";
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import dynalite from "dynalite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  attachDynamoDbTransactions,
  IDEMPOTENCY_WINDOW_MS,
} from "../../../infra/local/dynamodb-transactions.ts";
import { type Emulators, startEmulators } from "../../../infra/local/emulators.ts";
import { localDynamoDbClientConfig } from "../../../infra/local/provision.ts";
import { createActiveTable } from "../../support/tables.ts";

const REGION = "us-east-1";
const TABLE = "ledger";

async function createTable(client: DynamoDBClient, name = TABLE): Promise<void> {
  await createActiveTable(client, {
    TableName: name,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: "pk", AttributeType: "S" },
      { AttributeName: "sk", AttributeType: "S" },
    ],
    KeySchema: [
      { AttributeName: "pk", KeyType: "HASH" },
      { AttributeName: "sk", KeyType: "RANGE" },
    ],
  });
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected the request to be refused, but it succeeded");
}

describe("DynamoDB transactions in the twin (dynalite + the transactions layer)", () => {
  let emulators: Emulators;
  let client: DynamoDBClient;
  let ddb: DynamoDBDocumentClient;
  let partition = 0;
  let pk: string;

  beforeAll(async () => {
    emulators = await startEmulators({ dataDir: "/nonexistent-because-not-persisted", persist: false });
    client = new DynamoDBClient(localDynamoDbClientConfig(emulators.dynamodbEndpoint, REGION));
    ddb = DynamoDBDocumentClient.from(client);
    await createTable(client);
  });

  afterAll(async () => {
    client?.destroy();
    await emulators?.stop();
  });

  beforeEach(() => {
    partition += 1;
    pk = `P${partition}`;
  });

  const put = (sk: string, fields: Record<string, unknown>) =>
    ddb.send(new PutCommand({ TableName: TABLE, Item: { pk, sk, ...fields } }));
  const get = async (sk: string) =>
    (await ddb.send(new GetCommand({ TableName: TABLE, Key: { pk, sk }, ConsistentRead: true }))).Item;

  it("commits Put, Update, Delete and ConditionCheck together", async () => {
    await put("A", { balance: 100 });
    await put("B", { balance: 5 });
    await put("GONE", { note: "to delete" });
    await put("GUARD", { open: true });
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: TABLE,
              Key: { pk, sk: "A" },
              UpdateExpression: "SET balance = balance - :amount",
              ConditionExpression: "balance >= :amount",
              ExpressionAttributeValues: { ":amount": 30 },
            },
          },
          {
            Update: {
              TableName: TABLE,
              Key: { pk, sk: "B" },
              UpdateExpression: "SET balance = balance + :amount",
              ExpressionAttributeValues: { ":amount": 30 },
            },
          },
          {
            Put: {
              TableName: TABLE,
              Item: { pk, sk: "LOG#1", amount: 30 },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          { Delete: { TableName: TABLE, Key: { pk, sk: "GONE" } } },
          {
            ConditionCheck: {
              TableName: TABLE,
              Key: { pk, sk: "GUARD" },
              ConditionExpression: "#open = :yes",
              ExpressionAttributeNames: { "#open": "open" },
              ExpressionAttributeValues: { ":yes": true },
            },
          },
        ],
      }),
    );
    expect(await get("A")).toEqual({ pk, sk: "A", balance: 70 });
    expect(await get("B")).toEqual({ pk, sk: "B", balance: 35 });
    expect(await get("LOG#1")).toEqual({ pk, sk: "LOG#1", amount: 30 });
    expect(await get("GONE")).toBeUndefined();
    expect(await get("GUARD")).toEqual({ pk, sk: "GUARD", open: true });
  });

  it("cancels with one reason per action, the old item where asked, and changes nothing", async () => {
    await put("A", { balance: 100 });
    await put("B", { balance: 5 });
    await put("C", { status: "closed" });
    const error = await rejectionOf(
      ddb.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: TABLE,
                Key: { pk, sk: "A" },
                UpdateExpression: "SET balance = balance - :amount",
                ConditionExpression: "balance >= :amount",
                ExpressionAttributeValues: { ":amount": 50 },
              },
            },
            { Put: { TableName: TABLE, Item: { pk, sk: "NEW", created: true } } },
            {
              Update: {
                TableName: TABLE,
                Key: { pk, sk: "B" },
                UpdateExpression: "SET balance = balance - :amount",
                ConditionExpression: "balance >= :amount",
                ExpressionAttributeValues: { ":amount": 50 },
                ReturnValuesOnConditionCheckFailure: "ALL_OLD",
              },
            },
            { Delete: { TableName: TABLE, Key: { pk, sk: "A2" } } },
            {
              // Fails too: its reason is given although the transaction was already cancelled.
              ConditionCheck: {
                TableName: TABLE,
                Key: { pk, sk: "C" },
                ConditionExpression: "#status = :open",
                ExpressionAttributeNames: { "#status": "status" },
                ExpressionAttributeValues: { ":open": "open" },
              },
            },
            {
              // An update's condition is judged alone: the value only its update uses is not in the way.
              Update: {
                TableName: TABLE,
                Key: { pk, sk: "MISSING" },
                UpdateExpression: "SET balance = :amount",
                ConditionExpression: "attribute_exists(pk)",
                ExpressionAttributeValues: { ":amount": 1 },
              },
            },
          ],
        }),
      ),
    );
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect(error.message).toBe(
      "Transaction cancelled, please refer cancellation reasons for specific reasons [None, None, ConditionalCheckFailed, None, ConditionalCheckFailed, ConditionalCheckFailed]",
    );
    expect((error as unknown as TransactionCanceledException).CancellationReasons).toEqual([
      { Code: "None" },
      { Code: "None" },
      {
        Code: "ConditionalCheckFailed",
        Message: "The conditional request failed",
        Item: { pk: { S: pk }, sk: { S: "B" }, balance: { N: "5" } },
      },
      { Code: "None" },
      { Code: "ConditionalCheckFailed", Message: "The conditional request failed" },
      { Code: "ConditionalCheckFailed", Message: "The conditional request failed" },
    ]);
    expect(await get("A")).toEqual({ pk, sk: "A", balance: 100 });
    expect(await get("NEW")).toBeUndefined();
    expect(await get("B")).toEqual({ pk, sk: "B", balance: 5 });
    expect(await get("C")).toEqual({ pk, sk: "C", status: "closed" });
    expect(await get("MISSING")).toBeUndefined();
  });

  it("undoes the actions already applied when a later one is refused by DynamoDB's own checks", async () => {
    await put("A", { balance: 100 });
    const error = await rejectionOf(
      ddb.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: TABLE,
                Key: { pk, sk: "A" },
                UpdateExpression: "SET balance = :zero",
                ExpressionAttributeValues: { ":zero": 0 },
              },
            },
            { Put: { TableName: TABLE, Item: { pk, sk: "NEW" } } },
            {
              Update: {
                TableName: TABLE,
                Key: { pk, sk: "B" },
                UpdateExpression: "SET balance = balance +",
              },
            },
          ],
        }),
      ),
    );
    expect(error.name).toBe("ValidationException");
    expect(error.message).toMatch(/Invalid UpdateExpression/);
    expect(await get("A")).toEqual({ pk, sk: "A", balance: 100 });
    expect(await get("NEW")).toBeUndefined();
  });

  const increment = (token: string, by: number): TransactWriteItemsCommand =>
    new TransactWriteItemsCommand({
      ClientRequestToken: token,
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: { pk: { S: pk }, sk: { S: "COUNTER" } },
            UpdateExpression: "ADD hits :by",
            ExpressionAttributeValues: { ":by": { N: String(by) } },
          },
        },
      ],
    });

  it("applies a transaction once per ClientRequestToken: the same request again succeeds without effect", async () => {
    const token = `tok-${pk}`;
    await client.send(increment(token, 1));
    await client.send(increment(token, 1));
    await client.send(increment(token, 1));
    expect(await get("COUNTER")).toEqual({ pk, sk: "COUNTER", hits: 1 });
    await client.send(increment(`other-${pk}`, 1));
    expect(await get("COUNTER")).toEqual({ pk, sk: "COUNTER", hits: 2 });
  });

  it("refuses another request under a token already used (IdempotentParameterMismatchException)", async () => {
    const token = `tok-${pk}`;
    await client.send(increment(token, 1));
    const error = await rejectionOf(client.send(increment(token, 5)));
    expect(error).toBeInstanceOf(IdempotentParameterMismatchException);
    expect(await get("COUNTER")).toEqual({ pk, sk: "COUNTER", hits: 1 });
  });

  it("does not consume the token of a cancelled transaction", async () => {
    const input = (token: string): TransactWriteCommandInput => ({
      ClientRequestToken: token,
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: { pk, sk: "ONCE" },
            ConditionExpression: "attribute_exists(pk)",
          },
        },
      ],
    });
    const token = `tok-${pk}`;
    expect(await rejectionOf(ddb.send(new TransactWriteCommand(input(token))))).toBeInstanceOf(
      TransactionCanceledException,
    );
    await put("ONCE", { before: true });
    await ddb.send(new TransactWriteCommand(input(token)));
    expect(await get("ONCE")).toEqual({ pk, sk: "ONCE" });
  });

  it("refuses, with DynamoDB's messages, what DynamoDB refuses before starting", async () => {
    const refusal = async (input: TransactWriteCommandInput) => {
      const error = await rejectionOf(ddb.send(new TransactWriteCommand(input)));
      return { name: error.name, message: error.message };
    };
    await put("A", { balance: 1 });
    const tooMany = Array.from({ length: 101 }, (_, index) => ({
      Put: { TableName: TABLE, Item: { pk, sk: `I${index}` } },
    }));
    expect(await refusal({ TransactItems: tooMany })).toEqual({
      name: "ValidationException",
      message:
        "1 validation error detected: Value '[101 items]' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100",
    });
    expect(
      await refusal({
        TransactItems: [
          { Put: { TableName: TABLE, Item: { pk, sk: "A", balance: 2 } } },
          { Delete: { TableName: TABLE, Key: { pk, sk: "A" } } },
        ],
      }),
    ).toEqual({
      name: "ValidationException",
      message: "Transaction request cannot include multiple operations on one item",
    });
    expect(
      await refusal({
        TransactItems: [
          {
            Put: { TableName: TABLE, Item: { pk, sk: "X" } },
            Delete: { TableName: TABLE, Key: { pk, sk: "Y" } },
          },
        ],
      }),
    ).toEqual({
      name: "ValidationException",
      message: "TransactItems can only contain one of Check, Put, Update or Delete",
    });
    expect(
      await refusal({
        ClientRequestToken: "x".repeat(37),
        TransactItems: [{ Put: { TableName: TABLE, Item: { pk, sk: "X" } } }],
      }),
    ).toEqual({
      name: "ValidationException",
      message: `1 validation error detected: Value '${"x".repeat(37)}' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36`,
    });
    expect(
      (await refusal({ TransactItems: [{ Put: { TableName: "no-such-table", Item: { pk, sk: "X" } } }] }))
        .name,
    ).toBe("ResourceNotFoundException");
    // 101 items, two actions on one item, a bad token: nothing was written.
    expect(await get("A")).toEqual({ pk, sk: "A", balance: 1 });
    expect(await get("I0")).toBeUndefined();
    expect(await get("X")).toBeUndefined();
  });

  it("serializes concurrent transactions on one item: 50 conditional decrements of 25 units never go below zero", async () => {
    await put("ACCOUNT", { balance: 25 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        ddb.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: TABLE,
                  Key: { pk, sk: "ACCOUNT" },
                  UpdateExpression: "SET balance = balance - :one",
                  ConditionExpression: "balance >= :one",
                  ExpressionAttributeValues: { ":one": 1 },
                },
              },
              { Put: { TableName: TABLE, Item: { pk, sk: `DEBIT#${String(index).padStart(2, "0")}` } } },
            ],
          }),
        ),
      ),
    );
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(25);
    expect(refused).toHaveLength(25);
    for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(TransactionCanceledException);
    expect(await get("ACCOUNT")).toEqual({ pk, sk: "ACCOUNT", balance: 0 });
    const debits = await ddb.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :debit)",
        ExpressionAttributeValues: { ":pk": pk, ":debit": "DEBIT#" },
        ConsistentRead: true,
      }),
    );
    expect(debits.Count).toBe(25);
  });

  it("reads items consistently with TransactGetItems, a missing one as an empty response", async () => {
    await put("A", { balance: 7, name: "a" });
    await put("B", { balance: 9 });
    const { Responses } = await ddb.send(
      new TransactGetCommand({
        TransactItems: [
          { Get: { TableName: TABLE, Key: { pk, sk: "A" } } },
          { Get: { TableName: TABLE, Key: { pk, sk: "NOPE" } } },
          {
            Get: {
              TableName: TABLE,
              Key: { pk, sk: "B" },
              ProjectionExpression: "#balance",
              ExpressionAttributeNames: { "#balance": "balance" },
            },
          },
        ],
      }),
    );
    expect(Responses).toEqual([
      { Item: { pk, sk: "A", balance: 7, name: "a" } },
      {},
      { Item: { balance: 9 } },
    ]);
    const duplicate = await rejectionOf(
      ddb.send(
        new TransactGetCommand({
          TransactItems: [
            { Get: { TableName: TABLE, Key: { pk, sk: "A" } } },
            { Get: { TableName: TABLE, Key: { pk, sk: "A" } } },
          ],
        }),
      ),
    );
    expect(duplicate.message).toBe("Transaction request cannot include multiple operations on one item");
  });

  it("passes every other operation to dynalite untouched", async () => {
    await put("A", { balance: 3 });
    await ddb.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { pk, sk: "A" },
        UpdateExpression: "SET balance = balance + :two",
        ExpressionAttributeValues: { ":two": 2 },
      }),
    );
    expect(await get("A")).toEqual({ pk, sk: "A", balance: 5 });
    const failed = await rejectionOf(
      ddb.send(
        new PutCommand({
          TableName: TABLE,
          Item: { pk, sk: "A" },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
    expect(failed.name).toBe("ConditionalCheckFailedException");
  });
});

describe("a token's idempotency window", () => {
  it("closes 10 minutes after its transaction committed: the same request is then a new transaction", async () => {
    let now = Date.parse("2025-01-01T00:00:00Z");
    const server = dynalite({ createTableMs: 0 });
    attachDynamoDbTransactions(server, { now: () => now });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = new DynamoDBClient(
      localDynamoDbClientConfig(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, REGION),
    );
    try {
      await createTable(client);
      const increment = new TransactWriteItemsCommand({
        ClientRequestToken: "window",
        TransactItems: [
          {
            Update: {
              TableName: TABLE,
              Key: { pk: { S: "W" }, sk: { S: "COUNTER" } },
              UpdateExpression: "ADD hits :one",
              ExpressionAttributeValues: { ":one": { N: "1" } },
            },
          },
        ],
      });
      const hits = async () =>
        (
          await DynamoDBDocumentClient.from(client).send(
            new GetCommand({ TableName: TABLE, Key: { pk: "W", sk: "COUNTER" }, ConsistentRead: true }),
          )
        ).Item?.hits;
      await client.send(increment);
      now += IDEMPOTENCY_WINDOW_MS - 1;
      await client.send(increment);
      expect(await hits()).toBe(1);
      now += 1;
      await client.send(increment);
      expect(await hits()).toBe(2);
    } finally {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
