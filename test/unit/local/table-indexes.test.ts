// A runs table from before the by_loan index (a data folder of an older twin): provisioning adds the
// index, keeps every item, and gives the old runs the attributes the index reads, so a loan number
// search finds them. Also: a rebuild interrupted before or after its backup was complete.
import { DescribeTableCommand, DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../../infra/local/emulators.ts";
import {
  createTableInput,
  localDynamoDbClientConfig,
  provisionResources,
  runsTableDefinition,
} from "../../../infra/local/provision.ts";
import { backupTableName } from "../../../infra/local/table-indexes.ts";
import { RUNS_BY_DAY, RUNS_BY_PROFILE, TABLES } from "../../../lambdas/contracts/tables.ts";
import { RunStore } from "../../../lambdas/store/runs.ts";
import { createActiveTable } from "../../support/tables.ts";

const REGION = "us-east-1";
let emulators: Emulators;
let client: DynamoDBClient;
let ddb: DynamoDBDocumentClient;
let tables = 0;

beforeAll(async () => {
  emulators = await startEmulators({ dataDir: "/nonexistent-because-not-persisted", persist: false });
  client = new DynamoDBClient(localDynamoDbClientConfig(emulators.dynamodbEndpoint, REGION));
  ddb = DynamoDBDocumentClient.from(client);
});

afterAll(async () => {
  client?.destroy();
  await emulators?.stop();
});

/** The runs table as the twin created it before by_loan existed. */
const OLD_RUNS = { ...TABLES.runs, indexes: [RUNS_BY_PROFILE, RUNS_BY_DAY] };

/** Items an older twin stored: two runs (one with a loan number, as a number), an event, a session. */
const oldItems = [
  {
    pk: "RUN#run-old-1",
    sk: "META",
    run_id: "run-old-1",
    status: "SUCCEEDED",
    request: { metadata: { loan_program: "FHA", loan_number: " LN-42 " }, s3_pdf_paths: ["a.pdf"] },
    created_at: "2025-05-09T10:00:00.000Z",
    updated_at: "2025-05-09T10:05:00.000Z",
    gsi2pk: "DAY#2025-05-09",
    gsi2sk: "2025-05-09T10:00:00.000Z",
    usage_input_tokens: 12345678901234,
  },
  {
    pk: "RUN#run-old-2",
    sk: "META",
    run_id: "run-old-2",
    status: "FAILED",
    request: { metadata: { loan_program: "VA", loan_number: 7001 }, s3_pdf_paths: ["b.pdf"] },
    created_at: "2025-05-10T08:00:00.000Z",
    updated_at: "2025-05-10T08:01:00.000Z",
    gsi2pk: "DAY#2025-05-10",
    gsi2sk: "2025-05-10T08:00:00.000Z",
  },
  { pk: "RUN#run-old-1", sk: "EVENT#000000001", seq: 1, stage: "planning", at: "2025-05-09T10:00:01.000Z" },
  { pk: "SESSION#s-1", sk: "META", session_id: "s-1", runs: ["run-old-1"] },
];

async function oldTable(): Promise<string> {
  tables += 1;
  const name = `runs-old-${tables}`;
  await createActiveTable(client, createTableInput(OLD_RUNS, name));
  for (const Item of oldItems) await ddb.send(new PutCommand({ TableName: name, Item }));
  return name;
}

const provision = (runsTable: string) =>
  provisionResources({
    dynamodbEndpoint: emulators.dynamodbEndpoint,
    s3Endpoint: emulators.s3Endpoint,
    region: REGION,
    runsTable,
    connectionsTable: `connections-${runsTable}`,
    buckets: [],
  });

const indexNames = async (name: string) =>
  ((await client.send(new DescribeTableCommand({ TableName: name }))).Table?.GlobalSecondaryIndexes ?? [])
    .map((index) => index.IndexName)
    .sort();

const itemsOf = async (name: string) =>
  ((await ddb.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? []).sort((a, b) =>
    `${a.pk}${a.sk}`.localeCompare(`${b.pk}${b.sk}`),
  );

const loanSearch = (name: string, loanNumber: string) =>
  new RunStore(ddb, name, () => new Date("2025-05-10T12:00:00.000Z")).listRecentRuns({
    from: "2025-05-01",
    to: "2025-05-10",
    loanNumber,
    limit: 10,
  });

describe("provisioning a runs table without the by_loan index", () => {
  it("adds the index, keeps every item and makes old runs findable by loan number", async () => {
    const name = await oldTable();
    expect(await indexNames(name)).toEqual(["by_day", "by_profile"]);

    const report = await provision(name);
    expect(report.tablesExisting).toContain(name);
    expect(await indexNames(name)).toEqual(["by_day", "by_loan", "by_profile"]);

    const items = await itemsOf(name);
    expect(items).toHaveLength(oldItems.length);
    const expected = oldItems.map((item) =>
      item.pk === "RUN#run-old-1" && item.sk === "META"
        ? { ...item, gsi3pk: "LOAN#LN-42", gsi3sk: "2025-05-09T10:00:00.000Z#run-old-1" }
        : item.pk === "RUN#run-old-2"
          ? { ...item, gsi3pk: "LOAN#7001", gsi3sk: "2025-05-10T08:00:00.000Z#run-old-2" }
          : item,
    );
    expect(items).toEqual(expected.sort((a, b) => `${a.pk}${a.sk}`.localeCompare(`${b.pk}${b.sk}`)));

    expect((await loanSearch(name, "LN-42")).runs.map((run) => run.run_id)).toEqual(["run-old-1"]);
    expect((await loanSearch(name, "7001")).runs.map((run) => run.run_id)).toEqual(["run-old-2"]);
    const tableNames = (await client.send(new ListTablesCommand({}))).TableNames ?? [];
    expect(tableNames).not.toContain(backupTableName(name));

    // Provisioning again changes nothing.
    const again = await provision(name);
    expect(again.tablesExisting).toContain(name);
    expect(await itemsOf(name)).toEqual(items);
  });

  it("restores the table from a complete backup left by an interrupted rebuild", async () => {
    tables += 1;
    const name = `runs-interrupted-${tables}`;
    // The rebuild had copied everything (marker written) and dropped the table, then stopped.
    const backup = backupTableName(name);
    await createActiveTable(client, runsTableDefinition(backup));
    for (const Item of oldItems) await ddb.send(new PutCommand({ TableName: backup, Item }));
    await ddb.send(new PutCommand({ TableName: backup, Item: { pk: "#index-rebuild", sk: "#complete" } }));

    await provision(name);
    expect(await indexNames(name)).toEqual(["by_day", "by_loan", "by_profile"]);
    expect((await itemsOf(name)).map((item) => `${item.pk} ${item.sk}`)).toEqual(
      oldItems.map((item) => `${item.pk} ${item.sk}`).sort(),
    );
    expect((await loanSearch(name, "LN-42")).runs.map((run) => run.run_id)).toEqual(["run-old-1"]);
    expect((await client.send(new ListTablesCommand({}))).TableNames).not.toContain(backup);
  });

  it("drops an incomplete backup and rebuilds from the table, which it had not touched", async () => {
    const name = await oldTable();
    const backup = backupTableName(name);
    await createActiveTable(client, runsTableDefinition(backup));
    await ddb.send(new PutCommand({ TableName: backup, Item: oldItems[0] }));

    await provision(name);
    expect(await indexNames(name)).toEqual(["by_day", "by_loan", "by_profile"]);
    expect(await itemsOf(name)).toHaveLength(oldItems.length);
    expect((await client.send(new ListTablesCommand({}))).TableNames).not.toContain(backup);
  });
});
