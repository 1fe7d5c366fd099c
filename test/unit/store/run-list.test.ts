// The run list (GET /v1/runs) against dynalite through the real SDK: filters, paging across days and
// across the Queries' own pages, the search by loan number in the by_loan index, and the bound on the
// work of one call.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../../infra/local/emulators.ts";
import { localDynamoDbClientConfig, runsTableDefinition } from "../../../infra/local/provision.ts";
import type { RunStatus } from "../../../lambdas/core/types.ts";
import { decodeCursor, encodeCursor, InvalidCursorError } from "../../../lambdas/store/run-cursor.ts";
import {
  type ListBounds,
  type RunListPage,
  type RunListQuery,
  RunStore,
} from "../../../lambdas/store/runs.ts";
import { createActiveTable } from "../../support/tables.ts";

const REGION = "us-east-1";
const TABLE = "run-list";

let emulators: Emulators;
let client: DynamoDBClient;
let ddb: DynamoDBDocumentClient;
let clock = new Date("2025-05-10T12:00:00.000Z");
const store = (bounds: Partial<ListBounds> = {}) => new RunStore(ddb, TABLE, () => clock, bounds);

interface Seeded {
  run_id: string;
  created_at: string;
  status: RunStatus;
  loan_program: string;
  classification: string;
  loan_number?: unknown;
}
const seeded: Seeded[] = [];

const STATUSES: RunStatus[] = ["SUCCEEDED", "FAILED", "AWAITING_INPUT", "NEEDS_REVIEW", "INTERRUPTED"];

/** 30 runs over 2025-05-06 … 2025-05-10 (6 a day, 3 hours apart), statuses and programs rotating. */
async function seed(): Promise<void> {
  const runs = store();
  for (let index = 0; index < 30; index++) {
    const day = 6 + Math.floor(index / 6);
    clock = new Date(
      `2025-05-${String(day).padStart(2, "0")}T${String((index % 6) * 3 + 1).padStart(2, "0")}:00:00.000Z`,
    );
    const run: Seeded = {
      run_id: `run-list-${String(index).padStart(2, "0")}`,
      created_at: clock.toISOString(),
      status: STATUSES[index % STATUSES.length] as RunStatus,
      loan_program: index % 2 === 0 ? "Conventional" : "FHA",
      classification: index % 3 === 0 ? "Purchase" : "Refinance",
      // Loan L-7 has runs on several days; a few runs name no loan or an unusable one.
      ...(index % 4 === 0 ? { loan_number: " L-7 " } : index % 4 === 1 ? { loan_number: 1000 + index } : {}),
    };
    if (index === 2) run.loan_number = "";
    if (index === 3) run.loan_number = { nested: true };
    const metadata: Record<string, unknown> = {
      loan_program: run.loan_program,
      classification: run.classification,
      borrower_name: "Pat Doe",
      ...(run.loan_number !== undefined ? { loan_number: run.loan_number } : {}),
    };
    expect(await runs.createRun(run.run_id, { metadata, s3_pdf_paths: ["a.pdf"] })).toBe(true);
    await runs.updateRun(run.run_id, { status: run.status });
    seeded.push(run);
  }
  clock = new Date("2025-05-10T23:00:00.000Z");
}

beforeAll(async () => {
  emulators = await startEmulators({ dataDir: "/nonexistent-because-not-persisted", persist: false });
  client = new DynamoDBClient(localDynamoDbClientConfig(emulators.dynamodbEndpoint, REGION));
  ddb = DynamoDBDocumentClient.from(client);
  await createActiveTable(client, runsTableDefinition(TABLE));
  await seed();
});

afterAll(async () => {
  client?.destroy();
  await emulators?.stop();
});

const newestFirst = (runs: Seeded[]) =>
  [...runs].sort((a, b) => b.created_at.localeCompare(a.created_at)).map((run) => run.run_id);

const base: RunListQuery = { from: "2025-05-04", to: "2025-05-10", limit: 20 };

/** Every page of a query, following the cursors through their encoded form (as a client does). */
async function allPages(query: RunListQuery, bounds: Partial<ListBounds> = {}): Promise<RunListPage[]> {
  const pages: RunListPage[] = [];
  let cursor: RunListQuery["cursor"];
  do {
    const page = await store(bounds).listRecentRuns({ ...query, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.cursor ? decodeCursor(encodeCursor(page.cursor)) : undefined;
    expect(pages.length).toBeLessThan(200);
  } while (cursor);
  return pages;
}
const idsOf = (pages: RunListPage[]) => pages.flatMap((page) => page.runs.map((run) => run.run_id));

describe("the by_loan index attributes", () => {
  const metaOf = async (runId: string) =>
    (await ddb.send(new GetCommand({ TableName: TABLE, Key: { pk: `RUN#${runId}`, sk: "META" } }))).Item;

  it("are written for a string or number loan number, trimmed, and only then", async () => {
    expect(await metaOf("run-list-00")).toMatchObject({
      gsi3pk: "LOAN#L-7",
      gsi3sk: "2025-05-06T01:00:00.000Z#run-list-00",
    });
    expect(await metaOf("run-list-01")).toMatchObject({ gsi3pk: "LOAN#1001" });
    for (const runId of ["run-list-02", "run-list-03", "run-list-06"]) {
      const meta = await metaOf(runId);
      expect(meta?.run_id).toBe(runId);
      expect(meta).not.toHaveProperty("gsi3pk");
      expect(meta).not.toHaveProperty("gsi3sk");
    }
  });
});

describe("RunStore.listRecentRuns", () => {
  it("lists the days asked for, newest first, as summaries", async () => {
    const page = await store().listRecentRuns({ ...base, limit: 100 });
    expect(page.runs.map((run) => run.run_id)).toEqual(newestFirst(seeded));
    expect(page.cursor).toBeUndefined();
    const first = page.runs.find((run) => run.run_id === "run-list-00");
    expect(first).toEqual({
      run_id: "run-list-00",
      status: "SUCCEEDED",
      mode: "rewoo",
      created_at: "2025-05-06T01:00:00.000Z",
      updated_at: expect.any(String),
      request: {
        metadata: { loan_program: "Conventional", classification: "Purchase", loan_number: " L-7 " },
      },
      loan_number: "L-7",
      resumable: false,
    });
    expect(page.runs.find((run) => run.run_id === "run-list-01")).toMatchObject({
      status: "FAILED",
      loan_number: "1001",
      resumable: true,
    });
    expect(page.runs.find((run) => run.run_id === "run-list-02")).not.toHaveProperty("loan_number");
  });

  it("filters by status, loan program, classification and days", async () => {
    const query = {
      ...base,
      limit: 100,
      statuses: ["FAILED", "INTERRUPTED"] as RunStatus[],
      loanProgram: "FHA",
      from: "2025-05-07",
      to: "2025-05-09",
    };
    const expected = seeded.filter(
      (run) =>
        ["FAILED", "INTERRUPTED"].includes(run.status) &&
        run.loan_program === "FHA" &&
        run.created_at >= "2025-05-07" &&
        run.created_at < "2025-05-10",
    );
    expect(expected.length).toBeGreaterThan(1);
    expect(idsOf(await allPages(query))).toEqual(newestFirst(expected));

    const purchases = await store().listRecentRuns({ ...base, limit: 100, classification: "Purchase" });
    expect(purchases.runs.map((run) => run.run_id)).toEqual(
      newestFirst(seeded.filter((run) => run.classification === "Purchase")),
    );
  });

  it("pages across days and across the Queries' own pages without skipping or repeating a run", async () => {
    for (const limit of [1, 4, 6, 7]) {
      for (const queryPageSize of [2, 5, 100]) {
        const pages = await allPages({ ...base, limit }, { queryPageSize });
        expect(idsOf(pages), `limit ${limit}, Query pages of ${queryPageSize}`).toEqual(newestFirst(seeded));
        for (const page of pages) expect(page.runs.length).toBeLessThanOrEqual(limit);
        expect(pages.at(-1)?.cursor).toBeUndefined();
      }
    }
    // With a filter the Queries' pages and the list's pages fall in different places.
    const query = { ...base, limit: 3, statuses: ["SUCCEEDED", "NEEDS_REVIEW"] as RunStatus[] };
    const pages = await allPages(query, { queryPageSize: 4 });
    expect(idsOf(pages)).toEqual(
      newestFirst(seeded.filter((run) => ["SUCCEEDED", "NEEDS_REVIEW"].includes(run.status))),
    );
  });

  it("stops at its bound with a cursor even when the page is not full", async () => {
    const bounds = { maxItemsRead: 5, queryPageSize: 100 };
    // Nothing matches: each call reads at most 5 index items, then hands back a cursor.
    const pages = await allPages({ ...base, loanProgram: "VA" }, bounds);
    expect(idsOf(pages)).toEqual([]);
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(seeded.length / 5));
    expect(pages[0]?.cursor).toEqual({ v: 1, day: "2025-05-10", key: expect.any(Object) });

    const interrupted = await allPages({ ...base, statuses: ["INTERRUPTED"] }, bounds);
    // One run in five is INTERRUPTED: each bounded call finds about one, far fewer than the limit of 20.
    expect(interrupted.slice(0, -1).every((page) => page.runs.length < 3 && page.cursor)).toBe(true);
    expect(interrupted.length).toBeGreaterThan(3);
    expect(idsOf(interrupted)).toEqual(newestFirst(seeded.filter((run) => run.status === "INTERRUPTED")));

    const fewQueries = await allPages({ ...base, limit: 100 }, { maxQueries: 2, queryPageSize: 4 });
    expect(fewQueries.length).toBeGreaterThan(1);
    expect(idsOf(fewQueries)).toEqual(newestFirst(seeded));
  });

  it("finds a loan number's runs in by_loan, newest first, paged and filtered", async () => {
    const ofLoan = seeded.filter((run) => run.loan_number === " L-7 ");
    expect(ofLoan.length).toBeGreaterThan(3);
    const pages = await allPages({ ...base, loanNumber: "L-7", limit: 2 }, { queryPageSize: 3 });
    expect(idsOf(pages)).toEqual(newestFirst(ofLoan));
    expect(pages[0]?.cursor).toMatchObject({ v: 1, loan: "L-7" });

    const filtered = await store().listRecentRuns({
      ...base,
      loanNumber: "L-7",
      from: "2025-05-08",
      statuses: ["SUCCEEDED", "AWAITING_INPUT", "NEEDS_REVIEW", "INTERRUPTED"],
    });
    expect(filtered.runs.map((run) => run.run_id)).toEqual(
      newestFirst(ofLoan.filter((run) => run.created_at >= "2025-05-08" && run.status !== "FAILED")),
    );
    expect((await store().listRecentRuns({ ...base, loanNumber: "1005" })).runs.map((r) => r.run_id)).toEqual(
      ["run-list-05"],
    );
    expect((await store().listRecentRuns({ ...base, loanNumber: "L-8" })).runs).toEqual([]);
  });

  it("finds a run by id, if it passes the filters; an unknown id may be a loan number", async () => {
    const found = await store().listRecentRuns({ ...base, runId: "run-list-07", loanNumber: "run-list-07" });
    expect(found.runs.map((run) => run.run_id)).toEqual(["run-list-07"]);
    expect(found.cursor).toBeUndefined();
    const filteredOut = await store().listRecentRuns({
      ...base,
      runId: "run-list-07",
      statuses: ["SUCCEEDED"],
    });
    expect(filteredOut.runs).toEqual([]);
    expect(
      (await store().listRecentRuns({ ...base, runId: "run-list-07", from: "2025-05-09" })).runs,
    ).toEqual([]);
    expect((await store().listRecentRuns({ ...base, runId: "run-nobody" })).runs).toEqual([]);
  });

  it("refuses a cursor that does not continue this list", async () => {
    const page = await store().listRecentRuns({ ...base, limit: 2 });
    const cursor = page.cursor;
    expect(cursor).toMatchObject({ day: "2025-05-10" });
    if (!cursor) return;
    await expect(store().listRecentRuns({ ...base, to: "2025-05-09", cursor })).rejects.toThrow(
      InvalidCursorError,
    );
    await expect(store().listRecentRuns({ ...base, loanNumber: "L-7", cursor })).rejects.toThrow(
      InvalidCursorError,
    );
  });
});

describe("the run list cursor", () => {
  it("round-trips and refuses malformed or edited text", () => {
    const cursor = {
      v: 1 as const,
      day: "2025-05-10",
      key: {
        pk: "RUN#run-a",
        sk: "META" as const,
        gsi2pk: "DAY#2025-05-10",
        gsi2sk: "2025-05-10T01:00:00.000Z",
      },
    };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    const edited = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    for (const text of [
      "",
      "not base64!",
      edited("a string"),
      edited({ ...cursor, day: "2025-05-09" }), // the key is not on the day
      edited({ ...cursor, key: { ...cursor.key, pk: "SESSION#x" } }),
      edited({ ...cursor, extra: 1 }),
      edited({ v: 2, day: "2025-05-10" }),
      edited({ v: 1, loan: "L-7", key: { ...cursor.key } }),
    ]) {
      expect(() => decodeCursor(text), text).toThrow(InvalidCursorError);
    }
  });
});
