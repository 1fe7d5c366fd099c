// `rewoo runs list`'s filters: the query they send to GET /v1/runs, --needs-you, the next page's
// cursor, and the API's 400 named by parameter — against a stand-in API.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { runApiList } from "../../../cli/remote.ts";
import { RunListOptionError, runListParams } from "../../../cli/run-list.ts";
import type { RunList } from "../../../lambdas/contracts/api-types.ts";

const NOW = new Date("2026-03-31T10:00:00.000Z");

describe("runListParams", () => {
  it("maps each option to the API's parameter", () => {
    expect(
      runListParams({
        limit: 50,
        status: "FAILED",
        program: "FHA",
        classification: "Purchase",
        from: "2026-03-01",
        to: "2026-03-15",
        search: "LN-42",
        cursor: "abc",
      }),
    ).toEqual({
      limit: 50,
      status: "FAILED",
      loan_program: "FHA",
      classification: "Purchase",
      from: "2026-03-01",
      to: "2026-03-15",
      q: "LN-42",
      cursor: "abc",
    });
    expect(runListParams({ limit: 20 })).toEqual({ limit: 20 });
  });

  it("--needs-you: waiting and resumable runs over 30 days", () => {
    expect(runListParams({ limit: 20, needsYou: true }, NOW)).toEqual({
      limit: 20,
      status: "AWAITING_INPUT,AWAITING_APPROVAL,FAILED,INTERRUPTED",
      from: "2026-03-02",
    });
    expect(runListParams({ limit: 20, needsYou: true, to: "2026-02-28" }, NOW)).toMatchObject({
      from: "2026-01-30",
      to: "2026-02-28",
    });
    expect(runListParams({ limit: 20, needsYou: true, from: "2026-03-20" }, NOW)).toMatchObject({
      from: "2026-03-20",
    });
    expect(() => runListParams({ limit: 20, needsYou: true, status: "FAILED" })).toThrow(RunListOptionError);
  });
});

describe("rewoo runs list against an API", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** A stand-in GET /v1/runs that records each query and answers `reply`. */
  async function stub(reply: (query: URLSearchParams) => { status: number; body: unknown }) {
    const queries: Record<string, string>[] = [];
    server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://stub");
      queries.push(Object.fromEntries(url.searchParams));
      const { status, body } =
        url.pathname === "/v1/runs" ? reply(url.searchParams) : { status: 404, body: {} };
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, queries };
  }

  function output(api: string) {
    const out = { stdout: "", stderr: "" };
    return {
      out,
      options: {
        api,
        json: false,
        stdout: (text: string) => {
          out.stdout += stripVTControlCharacters(text);
        },
        stderr: (text: string) => {
          out.stderr += stripVTControlCharacters(text);
        },
      },
    };
  }

  const page: RunList = {
    runs: [
      {
        run_id: "run-20260330-failed01",
        status: "FAILED",
        mode: "rewoo",
        created_at: "2026-03-30T09:00:00.000Z",
        updated_at: "2026-03-30T09:01:00.000Z",
        request: { metadata: { loan_program: "FHA", classification: "Purchase", loan_number: "LN-42" } },
        loan_number: "LN-42",
        resumable: true,
      },
    ],
    next_cursor: "eyJ2IjoxfQ",
  };

  it("sends the filters, prints the runs with their loan number, what to do, and the next cursor", async () => {
    const api = await stub(() => ({ status: 200, body: page }));
    const { out, options } = output(api.url);
    expect(await runApiList({ ...options, limit: 10, needsYou: true, program: "FHA" })).toBe(0);
    expect(api.queries).toHaveLength(1);
    expect(api.queries[0]).toMatchObject({
      limit: "10",
      status: "AWAITING_INPUT,AWAITING_APPROVAL,FAILED,INTERRUPTED",
      loan_program: "FHA",
      from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(out.stdout.split("\n")).toEqual([
      "run-20260330-failed01  FAILED             2026-03-30T09:00:00.000Z  FHA · Purchase · loan LN-42",
      `1 run can be resumed from where it stopped: npx rewoo runs resume <run_id> --api ${api.url}`,
      "more runs: add --cursor eyJ2IjoxfQ (same options) for the next page",
      "",
    ]);
  });

  it("--json prints the API's page with its next_cursor; --cursor and --search are sent", async () => {
    const api = await stub(() => ({ status: 200, body: page }));
    const { out, options } = output(api.url);
    expect(
      await runApiList({ ...options, json: true, limit: 20, search: "LN-42", cursor: "eyJ2IjoxfQ" }),
    ).toBe(0);
    expect(api.queries[0]).toEqual({ limit: "20", q: "LN-42", cursor: "eyJ2IjoxfQ" });
    expect(JSON.parse(out.stdout)).toEqual(page);
  });

  it("says so when nothing matches, and nothing about a next page on the last", async () => {
    const api = await stub(() => ({ status: 200, body: { runs: [] } }));
    const { out, options } = output(api.url);
    expect(await runApiList({ ...options, limit: 20, status: "REJECTED" })).toBe(0);
    expect(out.stdout).toBe("no runs match\n");
  });

  it("names the parameter the API refused (exit 2), and refuses --needs-you with --status itself", async () => {
    const api = await stub(() => ({
      status: 400,
      body: {
        error: {
          code: "invalid_query",
          message: "invalid status",
          fields: [{ field: "status", message: 'unknown status "DONE": expected …' }],
        },
      },
    }));
    const { out, options } = output(api.url);
    expect(await runApiList({ ...options, limit: 20, status: "DONE" })).toBe(2);
    expect(out.stderr).toContain('status: unknown status "DONE"');

    const second = output(api.url);
    expect(await runApiList({ ...second.options, limit: 20, status: "FAILED", needsYou: true })).toBe(2);
    expect(second.out.stderr).toContain("--needs-you chooses the statuses itself");
    expect(api.queries).toHaveLength(1);
  });
});
