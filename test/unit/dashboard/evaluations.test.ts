// What the dashboard's Evaluations page derives from a `rewoo eval --json` summary (without a browser):
// the summary the CLI writes is accepted as it is, anything else refused naming the field, the tables'
// rows, the wrong verdicts in words, the evaluations kept in this browser and the page's address.
import { describe, expect, it } from "vitest";
import { type LabelledOutcome, scoreEvaluation } from "../../../cli/eval-score.ts";

interface Row {
  id: string;
  total: number;
  right: number;
  accuracy: number;
  false_fulfilled: number;
}
interface Stored {
  key: string;
  file_name: string;
  opened_at: string;
  summary: { batch_id: string };
}
// The dashboard's modules are plain browser JavaScript without type declarations.
const modulePath = (name: string) => `../../../dashboard/${name}`;
const evaluations = (await import(modulePath("evaluations.js"))) as {
  parseEvalSummary: (text: string) => { summary?: Record<string, unknown>; error?: string };
  tallyRows: (record: unknown) => Row[];
  confusionText: (confusion: unknown) => string;
  percentText: (value: unknown) => string;
  rememberEvaluation: (list: Stored[], summary: unknown, fileName: string, openedAt?: string) => Stored[];
  readStoredEvaluations: (storage: { getItem(key: string): string | null } | null) => Stored[];
  evaluationRouteFrom: (hash: string) => string | null | undefined;
  REMEMBERED_MAX: number;
};

const outcome = (file: string, batchLine: number, got: "fulfilled" | "not_fulfilled"): LabelledOutcome => ({
  file,
  line: batchLine,
  labels: { TR_SIGNED: "not_fulfilled", TR_EIN_MATCH: "fulfilled" },
  document_kind: "form_1120",
  status: "SUCCEEDED",
  run_id: `run-b-${batchLine}`,
  result: {
    summary: "",
    fulfilled_conditions: [{ id: "TR_EIN_MATCH" }, ...(got === "fulfilled" ? [{ id: "TR_SIGNED" }] : [])],
    unfulfilled_conditions: got === "not_fulfilled" ? [{ id: "TR_SIGNED", reason: "no signature" }] : [],
    missing_information: [],
    recommendations: [],
  },
});
const summaryOf = (batchId: string) =>
  scoreEvaluation([outcome("a.json", 1, "fulfilled"), outcome("b.json", 2, "not_fulfilled")], {
    source: "loans/",
    batch_id: batchId,
    created_at: "2026-11-28T12:00:00.000Z",
    thresholds: { max_false_fulfilled: 0 },
  });

describe("parseEvalSummary", () => {
  it("accepts what rewoo eval --json prints", () => {
    const summary = summaryOf("batch-1");
    expect(evaluations.parseEvalSummary(JSON.stringify(summary, null, 2))).toEqual({ summary });
  });

  it("refuses anything else, naming the fields", () => {
    expect(evaluations.parseEvalSummary("{not json").error).toMatch(/^not JSON: /);
    expect(evaluations.parseEvalSummary("[]").error).toBe(
      "expected the JSON object `rewoo eval --json` prints",
    );
    // A `rewoo batch --json` summary is not an evaluation.
    const batch = {
      batch_id: "batch-1",
      status: "SUCCEEDED",
      source: "loans/",
      total: 3,
      counts: {},
      results: [],
    };
    expect(evaluations.parseEvalSummary(JSON.stringify(batch)).error).toBe(
      "right: expected a whole number ≥ 0; false_fulfilled: expected a whole number ≥ 0; accuracy: expected a number from 0 to 1; created_at: expected a string; by_condition: expected an object {<id>: {total, right, …}}",
    );
    const broken = { ...summaryOf("batch-1"), mismatches: [{ file: "a.json" }] };
    expect(evaluations.parseEvalSummary(JSON.stringify(broken)).error).toBe(
      "mismatches.0: expected {file, condition, expected, got, …}",
    );
  });
});

describe("the tables", () => {
  const summary = summaryOf("batch-1");

  it("one row per condition, by id, with the wrong verdicts in words", () => {
    const rows = evaluations.tallyRows(summary.by_condition);
    expect(rows.map((row) => [row.id, row.total, row.right, row.accuracy, row.false_fulfilled])).toEqual([
      ["TR_EIN_MATCH", 2, 2, 1, 0],
      ["TR_SIGNED", 2, 1, 0.5, 1],
    ]);
    expect(evaluations.confusionText(summary.by_condition.TR_SIGNED?.confusion)).toBe(
      "not_fulfilled → fulfilled 1",
    );
    expect(evaluations.confusionText(summary.by_condition.TR_EIN_MATCH?.confusion)).toBe("");
    expect(evaluations.percentText(2 / 3)).toBe("66.7%");
    expect(evaluations.percentText(undefined)).toBe("—");
  });
});

describe("the evaluations kept in this browser", () => {
  const storage = (value: unknown) => ({ getItem: () => JSON.stringify(value) });

  it("newest first, one per batch, at most REMEMBERED_MAX", () => {
    let list: Stored[] = [];
    for (let n = 1; n <= evaluations.REMEMBERED_MAX + 2; n++) {
      list = evaluations.rememberEvaluation(
        list,
        summaryOf(`batch-${n}`),
        `s${n}.json`,
        `2026-11-28T12:0${n % 10}:00Z`,
      );
    }
    list = evaluations.rememberEvaluation(list, summaryOf("batch-5"), "again.json", "2026-11-28T13:00:00Z");
    expect(list).toHaveLength(evaluations.REMEMBERED_MAX);
    expect(list.map((entry) => entry.key).slice(0, 3)).toEqual(["batch-5", "batch-12", "batch-11"]);
    expect(list[0]).toMatchObject({ file_name: "again.json", opened_at: "2026-11-28T13:00:00Z" });
    expect(list.filter((entry) => entry.key === "batch-5")).toHaveLength(1);
  });

  it("reads them back, dropping what is not an evaluation any more", () => {
    const kept = evaluations.rememberEvaluation([], summaryOf("batch-1"), "s.json", "2026-11-28T12:00:00Z");
    expect(evaluations.readStoredEvaluations(storage(kept))).toEqual(kept);
    const edited = [
      ...kept,
      { key: "batch-2", file_name: "x", opened_at: "", summary: { batch_id: "batch-2" } },
    ];
    expect(evaluations.readStoredEvaluations(storage(edited))).toEqual(kept);
    expect(evaluations.readStoredEvaluations({ getItem: () => "{oops" })).toEqual([]);
    expect(evaluations.readStoredEvaluations(null)).toEqual([]);
  });

  it("the page's address: the list, or one evaluation by its batch", () => {
    expect(evaluations.evaluationRouteFrom("#/evaluations")).toBeNull();
    expect(evaluations.evaluationRouteFrom("#/evaluations/batch-1%20x")).toBe("batch-1 x");
    expect(evaluations.evaluationRouteFrom("#/batches")).toBeUndefined();
  });
});
