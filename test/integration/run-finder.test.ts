// GET /v1/runs's filters, search and paging through the whole local twin: runs started through the
// API, found by status, classification, run id and loan number (the by_loan index), paged with
// next_cursor, and a wrong parameter refused with a 400 that names it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { RunList } from "../../lambdas/contracts/api-types.ts";
import {
  bankRequestWithoutIncome,
  bootTwinWithSamples,
  taxReturnRequest,
  untilStatus,
} from "./twin-fixture.ts";

let twin: Twin;
const started: { run_id: string; loan: string; kind: "tax" | "bank" }[] = [];

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  // Two tax-return runs of loan LN-900 (one given as a number with spaces around), one bank-statement
  // run of another loan that stops to ask for the monthly income (a run that needs a person).
  const requests = [
    { loan: "LN-900", kind: "tax" as const, body: taxReturnRequest(["rm-conditions/1120-signed.pdf"]) },
    { loan: "LN-900", kind: "tax" as const, body: taxReturnRequest(["rm-conditions/1120-signed.pdf"]) },
    { loan: "77 ", kind: "bank" as const, body: bankRequestWithoutIncome() },
  ];
  for (const { loan, kind, body } of requests) {
    const request = { ...body, metadata: { ...body.metadata, loan_number: loan === "77 " ? 77 : loan } };
    const { run_id } = await twin.startRun(request);
    started.push({ run_id, loan: loan.trim(), kind });
    if (kind === "tax") await twin.waitForRun(run_id);
    else await untilStatus(twin, run_id, "AWAITING_INPUT");
  }
});

afterAll(async () => {
  await twin?.stop();
});

async function list(query: Record<string, string>): Promise<RunList> {
  const response = await fetch(`${twin.urls.api}/v1/runs?${new URLSearchParams(query)}`);
  expect(response.status, JSON.stringify(query)).toBe(200);
  return (await response.json()) as RunList;
}
const ids = (runs: RunList["runs"]) => runs.map((run) => run.run_id);
const newestFirst = (runs: typeof started) => runs.map((run) => run.run_id).reverse();

describe("GET /v1/runs through the twin", () => {
  it("lists today's runs newest first, each with its loan number and whether it can be resumed", async () => {
    const { runs, next_cursor } = await list({});
    expect(ids(runs)).toEqual(newestFirst(started));
    expect(next_cursor).toBeUndefined();
    const bank = runs.find((run) => run.run_id === started[2]?.run_id);
    expect(bank).toMatchObject({
      status: "AWAITING_INPUT",
      loan_number: "77",
      resumable: false,
      request: {
        metadata: { loan_program: "Flex Supreme", classification: "Bank Statements", loan_number: 77 },
      },
    });
    expect(Object.keys(bank?.request.metadata ?? {}).sort()).toEqual([
      "classification",
      "loan_number",
      "loan_program",
    ]);
  });

  it("filters by status and classification", async () => {
    expect(ids((await list({ status: "AWAITING_INPUT,AWAITING_APPROVAL,FAILED,INTERRUPTED" })).runs)).toEqual(
      [started[2]?.run_id],
    );
    expect(ids((await list({ classification: "1120 Corporate Tax Return" })).runs)).toEqual(
      newestFirst(started.filter((run) => run.kind === "tax")),
    );
    expect((await list({ loan_program: "Another Program" })).runs).toEqual([]);
  });

  it("finds runs by loan number (by_loan) and by run id", async () => {
    expect(ids((await list({ q: "LN-900" })).runs)).toEqual(
      newestFirst(started.filter((run) => run.loan === "LN-900")),
    );
    expect(ids((await list({ q: " 77 " })).runs)).toEqual([started[2]?.run_id]);
    expect(ids((await list({ q: started[0]?.run_id ?? "" })).runs)).toEqual([started[0]?.run_id]);
    expect((await list({ q: "LN-901" })).runs).toEqual([]);
  });

  it("pages with next_cursor, neither skipping nor repeating a run", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list({ limit: "1", ...(cursor ? { cursor } : {}) });
      seen.push(...ids(page.runs));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(newestFirst(started));

    const loanPage = await list({ q: "LN-900", limit: "1" });
    expect(loanPage.next_cursor).toEqual(expect.any(String));
    const rest = await list({ q: "LN-900", limit: "1", cursor: loanPage.next_cursor ?? "" });
    expect([...ids(loanPage.runs), ...ids(rest.runs)]).toEqual(
      newestFirst(started.filter((run) => run.loan === "LN-900")),
    );
  });

  it("refuses a wrong parameter with a 400 that names it", async () => {
    for (const [query, field] of [
      [{ status: "DONE" }, "status"],
      [{ from: "yesterday" }, "from"],
      [{ cursor: "not-a-cursor" }, "cursor"],
      [{ limit: "500" }, "limit"],
    ] as const) {
      const response = await fetch(`${twin.urls.api}/v1/runs?${new URLSearchParams(query)}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; fields: { field: string }[] } };
      expect(body.error.code).toBe("invalid_query");
      expect(body.error.fields.map((problem) => problem.field)).toEqual([field]);
    }
  });
});
