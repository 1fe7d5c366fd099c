// What the dashboard's Find runs and Needs you derive without a browser: the filters of the address
// and back, the query GET /v1/runs gets in the API's names, the page's own checks (named like the
// API's fields), the empty state's words, and which runs need a person and why.
import { describe, expect, it } from "vitest";

interface Filters {
  q: string;
  status: string[];
  program: string;
  classification: string;
  from: string;
  to: string;
  limit: number;
}
interface Run {
  run_id: string;
  status: string;
  resumable?: boolean;
}
// The dashboard's modules are plain browser JavaScript without type declarations.
const modulePath = (name: string) => `../../../dashboard/${name}`;
const finder = (await import(modulePath("run-finder.js"))) as {
  finderFiltersFrom: (hash: string) => Filters | undefined;
  finderHash: (filters: Partial<Filters>) => string;
  runListQuery: (filters: Partial<Filters>, cursor?: string) => Record<string, string>;
  validateFilters: (filters: Partial<Filters>) => Array<{ field: string; message: string }>;
  describeFilters: (filters: Partial<Filters>) => string;
  statusIcon: (status: string) => string;
};
const needs = (await import(modulePath("needs-you.js"))) as {
  needsYou: (run: Run) => boolean;
  needsYouReason: (run: Run) => { kind: string; why: string; action: string } | null;
};

const none: Filters = { q: "", status: [], program: "", classification: "", from: "", to: "", limit: 20 };

describe("the finder's address", () => {
  it("reads the filters of #/find?…, and nothing from another page's address", () => {
    expect(finder.finderFiltersFrom("#/find")).toEqual(none);
    expect(
      finder.finderFiltersFrom(
        "#/find?q=LN-1001&status=FAILED,AWAITING_INPUT&program=Jumbo+Prime&classification=Bank%20Statements&from=2026-11-01&to=2026-11-24&limit=5",
      ),
    ).toEqual({
      q: "LN-1001",
      status: ["FAILED", "AWAITING_INPUT"],
      program: "Jumbo Prime",
      classification: "Bank Statements",
      from: "2026-11-01",
      to: "2026-11-24",
      limit: 5,
    });
    expect(finder.finderFiltersFrom("#/find?limit=x")?.limit).toBe(20);
    expect(finder.finderFiltersFrom("#/runs/run-1")).toBeUndefined();
    expect(finder.finderFiltersFrom("#/finder")).toBeUndefined();
  });

  it("writes only the filters that are set, and reads them back the same", () => {
    expect(finder.finderHash(none)).toBe("#/find");
    const filters = { ...none, status: ["SUCCEEDED"], program: "Flex Supreme", limit: 2 };
    const hash = finder.finderHash(filters);
    expect(hash).toBe("#/find?status=SUCCEEDED&program=Flex+Supreme&limit=2");
    expect(finder.finderFiltersFrom(hash)).toEqual(filters);
  });

  it("asks GET /v1/runs in the API's names, with the cursor of the page", () => {
    const filters = {
      ...none,
      q: "LN-1",
      status: ["FAILED", "INTERRUPTED"],
      program: "Flex Supreme",
      from: "2026-11-01",
    };
    expect(finder.runListQuery(filters, "abc")).toEqual({
      q: "LN-1",
      status: "FAILED,INTERRUPTED",
      loan_program: "Flex Supreme",
      from: "2026-11-01",
      limit: "20",
      cursor: "abc",
    });
    expect(finder.runListQuery(none)).toEqual({ limit: "20" });
  });
});

describe("the finder's checks and words", () => {
  it("names the field of each refused filter like the API does", () => {
    expect(finder.validateFilters(none)).toEqual([]);
    expect(finder.validateFilters({ ...none, from: "2026-11-20", to: "2026-11-01" })).toEqual([
      { field: "from", message: 'must be on or before the "to" date (2026-11-01)' },
    ]);
    expect(finder.validateFilters({ ...none, from: "11/20/2026", status: ["DONE"] })).toEqual([
      { field: "from", message: "expected a date, YYYY-MM-DD" },
      { field: "status", message: "unknown status DONE" },
    ]);
  });

  it("says what matched nothing, and where it looked", () => {
    expect(finder.describeFilters({ ...none, q: "LN-9", status: ["FAILED", "INTERRUPTED"] })).toBe(
      "No runs match “LN-9”, status Failed or Interrupted in the recent runs.",
    );
    expect(finder.describeFilters({ ...none, program: "Jumbo", from: "2026-11-01", to: "2026-11-24" })).toBe(
      "No runs match program “Jumbo” in the runs created 2026-11-01 to 2026-11-24.",
    );
    expect(finder.describeFilters({ ...none, to: "2026-11-24" })).toBe("No runs created until 2026-11-24.");
    expect(finder.describeFilters(none)).toBe("No runs yet.");
  });

  it("gives every status an icon besides its word", () => {
    expect(finder.statusIcon("AWAITING_APPROVAL")).toBe("‖");
    expect(finder.statusIcon("SUCCEEDED")).toBe("✓");
    expect(finder.statusIcon("REJECTED")).toBe("✕");
    expect(finder.statusIcon("SOMETHING_NEW")).toBe("?");
  });
});

describe("Needs you", () => {
  it("takes the runs that wait, and the failed or interrupted ones that can be resumed", () => {
    const run = (status: string, resumable?: boolean): Run => ({ run_id: "run-1", status, resumable });
    expect(needs.needsYou(run("AWAITING_INPUT"))).toBe(true);
    expect(needs.needsYou(run("AWAITING_APPROVAL"))).toBe(true);
    expect(needs.needsYou(run("FAILED", true))).toBe(true);
    expect(needs.needsYou(run("INTERRUPTED"))).toBe(true); // an API that does not say `resumable`
    expect(needs.needsYou(run("FAILED", false))).toBe(false); // tried too often: start a new run
    expect(needs.needsYou(run("SUCCEEDED"))).toBe(false);
    expect(needs.needsYou(run("RUNNING"))).toBe(false);
  });

  it("says why in words, with the action", () => {
    const reason = (status: string) => needs.needsYouReason({ run_id: "run-1", status });
    expect(reason("AWAITING_INPUT")).toMatchObject({ kind: "input", action: "Answer questions" });
    expect(reason("AWAITING_APPROVAL")).toMatchObject({ kind: "approval", action: "Review the plan" });
    expect(reason("FAILED")).toMatchObject({ kind: "resume", action: "Resume" });
    expect(reason("INTERRUPTED")?.why).toMatch(/interrupted/);
    expect(reason("SUCCEEDED")).toBeNull();
  });
});
