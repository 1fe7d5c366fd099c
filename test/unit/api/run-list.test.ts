// GET /v1/runs's query parameters: what reaches the store, and a 400 naming each wrong parameter.
import { describe, expect, it } from "vitest";
import type { ApiContext } from "../../../lambdas/api/context.ts";
import { HttpError } from "../../../lambdas/api/http.ts";
import { listRecentRuns, runListQuery } from "../../../lambdas/api/runs.ts";
import { encodeCursor, InvalidCursorError } from "../../../lambdas/store/run-cursor.ts";
import type { RunListPage, RunListQuery } from "../../../lambdas/store/runs.ts";
import { apiEvent } from "./events.ts";

const NOW = new Date("2025-05-10T15:00:00.000Z");
const queryOf = (query: Record<string, string>) =>
  runListQuery(apiEvent({ method: "GET", path: "/v1/runs", query }), NOW);

function refusal(query: Record<string, string>): { field: string; message: string } {
  try {
    queryOf(query);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.status).toBe(400);
    expect(http.code).toBe("invalid_query");
    expect(http.fields).toHaveLength(1);
    return http.fields?.[0] as { field: string; message: string };
  }
  throw new Error(`expected ${JSON.stringify(query)} to be refused`);
}

const CURSOR = encodeCursor({
  v: 1,
  day: "2025-05-09",
  key: { pk: "RUN#run-a", sk: "META", gsi2pk: "DAY#2025-05-09", gsi2sk: "2025-05-09T01:00:00.000Z" },
});

describe("runListQuery", () => {
  it("defaults to the last 7 days (UTC), 20 runs, no filter", () => {
    expect(queryOf({})).toEqual({ from: "2025-05-04", to: "2025-05-10", limit: 20 });
    expect(queryOf({ to: "2025-03-01" })).toEqual({ from: "2025-02-23", to: "2025-03-01", limit: 20 });
  });

  it("passes every filter on", () => {
    expect(
      queryOf({
        status: "failed, INTERRUPTED,FAILED",
        loan_program: " FHA ",
        classification: "Purchase",
        from: "2025-04-01",
        to: "2025-04-30",
        limit: "50",
        cursor: CURSOR,
      }),
    ).toEqual({
      statuses: ["FAILED", "INTERRUPTED"],
      loanProgram: "FHA",
      classification: "Purchase",
      from: "2025-04-01",
      to: "2025-04-30",
      limit: 50,
      cursor: {
        v: 1,
        day: "2025-05-09",
        key: { pk: "RUN#run-a", sk: "META", gsi2pk: "DAY#2025-05-09", gsi2sk: "2025-05-09T01:00:00.000Z" },
      },
    });
  });

  it("searches q as a run id (or a loan number) or as a loan number, over 92 days unless given days", () => {
    expect(queryOf({ q: "run-20250510-ab12" })).toEqual({
      from: "2025-02-08",
      to: "2025-05-10",
      runId: "run-20250510-ab12",
      loanNumber: "run-20250510-ab12",
      limit: 20,
    });
    expect(queryOf({ q: " 2024-000123 ", from: "2025-05-01" })).toEqual({
      from: "2025-05-01",
      to: "2025-05-10",
      loanNumber: "2024-000123",
      limit: 20,
    });
  });

  it.each([
    [{ status: "DONE,FAILED" }, "status", /unknown status "DONE".*PLANNING, RUNNING.*REJECTED/],
    [{ status: "" }, "status", /non-empty/],
    [{ loan_program: " " }, "loan_program", /non-empty/],
    [{ classification: "x".repeat(201) }, "classification", /at most 200/],
    [{ from: "2025-5-1" }, "from", /YYYY-MM-DD/],
    [{ to: "2025-02-30" }, "to", /YYYY-MM-DD/],
    [{ from: "2025-05-11", to: "2025-05-10" }, "from", /on or before to \(2025-05-10\)/],
    [{ from: "2025-01-01", to: "2025-05-10" }, "from", /at most 92 days/],
    [{ q: "x".repeat(65) }, "q", /run id or a loan number/],
    [{ limit: "0" }, "limit", /from 1 to 100/],
    [{ limit: "101" }, "limit", /from 1 to 100/],
    [{ cursor: "%%%" }, "cursor", /next_cursor/],
    [{ cursor: Buffer.from('{"v":1,"day":"yesterday"}').toString("base64url") }, "cursor", /next_cursor/],
  ])("refuses %j naming %s", (query, field, message) => {
    const problem = refusal(query as Record<string, string>);
    expect(problem.field).toBe(field);
    expect(problem.message).toMatch(message);
  });

  it("takes 92 days exactly", () => {
    expect(queryOf({ from: "2025-02-08", to: "2025-05-10" })).toMatchObject({ from: "2025-02-08" });
  });
});

describe("listRecentRuns", () => {
  const contextWith = (listRecentRuns: (query: RunListQuery) => Promise<RunListPage>) =>
    ({ services: { now: () => NOW, runs: { listRecentRuns } } }) as unknown as ApiContext;
  const call = (ctx: ApiContext, query: Record<string, string> = {}) =>
    listRecentRuns(apiEvent({ method: "GET", path: "/v1/runs", query }), ctx);

  it("answers the page with next_cursor as the store's cursor, encoded", async () => {
    const ctx = contextWith(async () => ({
      runs: [],
      cursor: { v: 1, day: "2025-05-08" },
    }));
    const response = await call(ctx);
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.body);
    expect(body).toEqual({ runs: [], next_cursor: encodeCursor({ v: 1, day: "2025-05-08" }) });
    const last = await call(contextWith(async () => ({ runs: [] })));
    expect(JSON.parse(last.body)).toEqual({ runs: [] });
  });

  it("turns a cursor the store cannot continue into a 400 naming cursor", async () => {
    const ctx = contextWith(async () => {
      throw new InvalidCursorError("the cursor is outside the days asked for");
    });
    await expect(call(ctx, { cursor: CURSOR })).rejects.toMatchObject({
      status: 400,
      fields: [{ field: "cursor", message: expect.stringContaining("outside the days") }],
    });
  });
});
