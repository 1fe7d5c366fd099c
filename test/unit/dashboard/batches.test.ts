// What the dashboard's Batches view derives from the API's answers (without a browser): the results'
// JSON Lines, the progress bar's segments and words, a line's error, which lines need a look, and
// the batches remembered in this browser.
import { describe, expect, it } from "vitest";

interface Progress {
  processed: number;
  total: number;
  percent: number;
  segments: Array<{ status: string; count: number; share: number }>;
}
interface Remembered {
  batch_id: string;
  name?: string;
  status?: string;
  total?: number;
  processed?: number;
  opened_at: string;
}
// The dashboard's modules are plain browser JavaScript without type declarations.
const modulePath = (name: string) => `../../../dashboard/${name}`;
const batches = (await import(modulePath("batches.js"))) as {
  parseBatchResults: (text: string) => {
    lines: Array<{
      line: number;
      file?: string;
      documents?: string[];
      status: string;
      run_id?: string;
      error?: unknown;
    }>;
    unreadable: number;
  };
  batchProgress: (batch: unknown) => Progress;
  progressText: (progress: Progress) => string;
  describeLineError: (error: unknown) => string;
  needsAttention: (line: { status: string }) => boolean;
  rememberBatch: (list: Remembered[], batch: unknown, openedAt?: string) => Remembered[];
  readRemembered: (storage: { getItem(key: string): string | null } | null) => Remembered[];
  batchStatusLabel: (status: string) => string;
  lineStatusLabel: (status: string) => string;
  lineSourceText: (line: { file?: string; documents?: string[] }) => string;
  verdictsText: (verdicts: unknown) => string;
};

const BATCH = "batch-20260101120000-abcdef12";

describe("a line's file or documents, and its verdicts", () => {
  it("keeps them when well formed, drops them when not, and words them for the table", () => {
    const verdicts = { fulfilled: 4, not_fulfilled: 1, insufficient_evidence: 0 };
    const { lines } = batches.parseBatchResults(
      [
        JSON.stringify({ line: 2, file: "loan-2.json", documents: ["a.pdf"], status: "SUCCEEDED", verdicts }),
        JSON.stringify({
          line: 5,
          documents: ["a.pdf", 3, "b.pdf"],
          status: "SUCCEEDED",
          verdicts: { fulfilled: 1 },
        }),
        JSON.stringify({ line: 7, file: 9, documents: "a.pdf", status: "PENDING" }),
      ].join("\n"),
    );
    expect(lines).toEqual([
      { line: 2, file: "loan-2.json", documents: ["a.pdf"], status: "SUCCEEDED", verdicts },
      { line: 5, documents: ["a.pdf", "b.pdf"], status: "SUCCEEDED" },
      { line: 7, status: "PENDING" },
    ]);
    expect(lines.map((line) => batches.lineSourceText(line))).toEqual(["loan-2.json", "a.pdf, b.pdf", ""]);
    expect(batches.verdictsText(verdicts)).toBe("4 fulfilled · 1 not fulfilled · 0 insufficient evidence");
    expect(batches.verdictsText(undefined)).toBe("");
  });
});

describe("parseBatchResults", () => {
  it("reads one result per line in line order, and counts what it cannot read instead of failing", () => {
    const text = [
      JSON.stringify({
        line: 4,
        status: "FAILED",
        run_id: "run-4",
        error: { code: "run_failed", message: "x" },
      }),
      "",
      JSON.stringify({ line: 1, status: "SUCCEEDED", run_id: "run-1" }),
      "{broken",
      JSON.stringify({ line: "2", status: "SUCCEEDED" }),
      JSON.stringify({ line: 3, status: "INVALID", run_id: 7 }),
      "",
    ].join("\n");
    const { lines, unreadable } = batches.parseBatchResults(text);
    expect(lines).toEqual([
      { line: 1, status: "SUCCEEDED", run_id: "run-1" },
      { line: 3, status: "INVALID" },
      { line: 4, status: "FAILED", run_id: "run-4", error: { code: "run_failed", message: "x" } },
    ]);
    expect(unreadable).toBe(2);
  });
});

describe("batchProgress", () => {
  it("processed of total, and one segment per status with lines, in reading order", () => {
    const progress = batches.batchProgress({
      total: 200,
      processed: 57,
      counts: { INVALID: 2, SUCCEEDED: 50, FAILED: 1, NEEDS_REVIEW: 4, CANCELLED: 0, SOMETHING_NEW: 0 },
    });
    expect(progress.processed).toBe(57);
    expect(progress.percent).toBe(28);
    expect(progress.segments.map((segment) => [segment.status, segment.count, segment.share])).toEqual([
      ["SUCCEEDED", 50, 0.25],
      ["NEEDS_REVIEW", 4, 0.02],
      ["FAILED", 1, 0.005],
      ["INVALID", 2, 0.01],
    ]);
    expect(batches.progressText(progress)).toBe("57 of 200 lines processed (28 %)");
  });

  it("a batch without lines or counts draws an empty bar, not NaN", () => {
    const progress = batches.batchProgress({ total: 0, processed: 0 });
    expect(progress).toEqual({ processed: 0, total: 0, percent: 0, segments: [] });
  });
});

describe("a line's error and status", () => {
  it("names each field with what was expected; a whole-line error keeps its message", () => {
    expect(
      batches.describeLineError({
        code: "invalid_request",
        message: "invalid request: metadata: required; s3_pdf_paths: expected at least one",
        fields: [
          { field: "metadata", message: "required" },
          { field: "s3_pdf_paths", message: "expected at least one" },
        ],
      }),
    ).toBe("metadata: required; s3_pdf_paths: expected at least one");
    expect(
      batches.describeLineError({
        code: "invalid_json",
        message: "line 5 is not JSON: Unexpected end",
        fields: [{ field: "(line)", message: "line 5 is not JSON: Unexpected end" }],
      }),
    ).toBe("line 5 is not JSON: Unexpected end");
    expect(batches.describeLineError(undefined)).toBe("");
  });

  it("lines that need a look: anything finished but SUCCEEDED", () => {
    const attention = [
      "SUCCEEDED",
      "RUNNING",
      "PENDING",
      "FAILED",
      "INVALID",
      "NEEDS_REVIEW",
      "NOT_RUN",
    ].filter((status) => batches.needsAttention({ status }));
    expect(attention).toEqual(["FAILED", "INVALID", "NEEDS_REVIEW", "NOT_RUN"]);
  });

  it("statuses are words", () => {
    expect(batches.batchStatusLabel("SUCCEEDED")).toBe("Finished");
    expect(batches.batchStatusLabel("ABORTED")).toBe("Stopped");
    expect(batches.lineStatusLabel("NOT_RUN")).toBe("Not run");
    expect(batches.lineStatusLabel("SOMETHING_NEW")).toBe("SOMETHING_NEW");
  });
});

describe("the batches remembered in this browser", () => {
  it("the batch opened last comes first, once, keeping when it was first opened; at most 20", () => {
    let list: Remembered[] = [];
    list = batches.rememberBatch(list, { batch_id: BATCH, status: "RUNNING", total: 5, processed: 1 }, "t1");
    list = batches.rememberBatch(list, { batch_id: "batch-2", status: "SUCCEEDED" }, "t2");
    list = batches.rememberBatch(
      list,
      { batch_id: BATCH, name: "Q1", status: "SUCCEEDED", total: 5, processed: 5, counts: { SUCCEEDED: 5 } },
      "t3",
    );
    expect(list).toEqual([
      { batch_id: BATCH, name: "Q1", status: "SUCCEEDED", total: 5, processed: 5, opened_at: "t1" },
      { batch_id: "batch-2", status: "SUCCEEDED", opened_at: "t2" },
    ]);
    for (let i = 0; i < 30; i++) list = batches.rememberBatch(list, { batch_id: `batch-n${i}` }, `n${i}`);
    expect(list).toHaveLength(20);
    expect(list[0]?.batch_id).toBe("batch-n29");
    expect(batches.rememberBatch(list, { batch_id: "not a batch" })).toBe(list);
  });

  it("reads back what it stored and drops what it cannot use", () => {
    const storage = (value: string | null) => ({ getItem: () => value });
    expect(batches.readRemembered(storage(JSON.stringify([{ batch_id: BATCH, opened_at: "t" }])))).toEqual([
      { batch_id: BATCH, opened_at: "t" },
    ]);
    expect(
      batches.readRemembered(storage(JSON.stringify([{ batch_id: "<img>" }, null, 3, { batch_id: BATCH }]))),
    ).toEqual([{ batch_id: BATCH }]);
    expect(batches.readRemembered(storage("{not json"))).toEqual([]);
    expect(batches.readRemembered(storage(JSON.stringify({ batch_id: BATCH })))).toEqual([]);
    expect(batches.readRemembered(null)).toEqual([]);
  });
});
