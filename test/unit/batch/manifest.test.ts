// The numbered manifest the Distributed Map reads, and the batch request's validation: pure functions.
import { describe, expect, it } from "vitest";
import { manifestText, numberInlineRequests, numberJsonLines } from "../../../lambdas/batch/manifest.ts";
import { InvalidBatchError, validateBatchRequest } from "../../../lambdas/batch/request.ts";
import {
  documentNames,
  lineRanges,
  linesOf,
  MAX_LINE_BYTES,
  runIdForLine,
  verdictCounts,
} from "../../../lambdas/core/batch.ts";
import type { RunResult } from "../../../lambdas/core/types.ts";
import { RUN_ID_PATTERN } from "../../../lambdas/runs/start-run.ts";

describe("numberJsonLines", () => {
  it("numbers lines as an editor does, skipping blank lines (also CRLF files) without renumbering", () => {
    const manifest = numberJsonLines('{"a":1}\r\n\r\n  \n{"b":2}\n[3]\n');
    expect(manifest.items).toEqual([
      { line: 1, request: { a: 1 } },
      { line: 4, request: { b: 2 } },
      { line: 5, request: [3] },
    ]);
    expect(manifest.total).toBe(3);
    expect(manifest.ranges).toEqual([
      [1, 1],
      [4, 5],
    ]);
  });

  it("keeps a line that is not JSON as that line's error, naming the line", () => {
    const { items } = numberJsonLines('{"a":1}\n{"metadata": {\n');
    expect(items[1]).toMatchObject({ line: 2, unreadable: { code: "invalid_json" } });
    const error = (items[1] as { unreadable: { message: string; fields: Array<{ field: string }> } })
      .unreadable;
    expect(error.message).toMatch(/^line 2 is not JSON: /);
    expect(error.fields[0]?.field).toBe("(line)");
  });

  it("refuses a line above the item size without parsing it", () => {
    const big = JSON.stringify({ metadata: { notes: "x".repeat(MAX_LINE_BYTES) } });
    const { items } = numberJsonLines(`${big}\n{}`);
    expect(items[0]).toMatchObject({ line: 1, unreadable: { code: "line_too_large" } });
    expect(items[1]).toEqual({ line: 2, request: {} });
  });

  it("writes one JSON item per line, which reads back as the items", () => {
    const manifest = numberJsonLines('{"a":1}\n\nnot json\n');
    const text = manifestText(manifest);
    expect(text.endsWith("\n")).toBe(true);
    expect(
      text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual(manifest.items);
    expect(manifestText(numberJsonLines(""))).toBe("");
  });
});

describe("numberInlineRequests", () => {
  it("makes entry n line n + 1, sized like a manifest line", () => {
    const manifest = numberInlineRequests([{ a: 1 }, "x".repeat(MAX_LINE_BYTES + 1), null]);
    expect(manifest.items[0]).toEqual({ line: 1, request: { a: 1 } });
    expect(manifest.items[1]).toMatchObject({ line: 2, unreadable: { code: "line_too_large" } });
    expect(manifest.items[2]).toEqual({ line: 3, request: null });
    expect(manifest.ranges).toEqual([[1, 3]]);
  });
});

describe("numberInlineRequests with the caller's lines", () => {
  it("numbers each request as its line in the caller's file and keeps the file it came from", () => {
    const manifest = numberInlineRequests(
      [{ a: 1 }, "x".repeat(MAX_LINE_BYTES + 1), { c: 3 }],
      [{ line: 2, file: "loan-a.json" }, { line: 5 }, { line: 6, file: "loan-c.json" }],
    );
    expect(manifest.items[0]).toEqual({ line: 2, request: { a: 1 }, file: "loan-a.json" });
    expect(manifest.items[1]).toMatchObject({ line: 5, unreadable: { code: "line_too_large" } });
    expect(manifest.items[1]).not.toHaveProperty("file");
    expect(manifest.items[2]).toEqual({ line: 6, request: { c: 3 }, file: "loan-c.json" });
    expect(manifest.ranges).toEqual([
      [2, 2],
      [5, 6],
    ]);
  });
});

describe("documentNames", () => {
  it("takes the last part of each s3_pdf_path, whatever else the request holds", () => {
    expect(
      documentNames({ s3_pdf_paths: ["rm-conditions/1120-signed.pdf", "s3://bucket/a/b/stmt 1.pdf", 7, ""] }),
    ).toEqual(["1120-signed.pdf", "stmt 1.pdf"]);
    expect(documentNames({ metadata: {} })).toBeUndefined();
    expect(documentNames({ s3_pdf_paths: "one.pdf" })).toBeUndefined();
    expect(documentNames(null)).toBeUndefined();
    expect(documentNames({ s3_pdf_paths: Array.from({ length: 30 }, (_, i) => `d/${i}.pdf`) })).toHaveLength(
      20,
    );
  });
});

describe("verdictCounts", () => {
  const result = (fulfilled: unknown[], unfulfilled: unknown[]) =>
    ({
      summary: "",
      fulfilled_conditions: fulfilled,
      unfulfilled_conditions: unfulfilled,
      missing_information: [],
      recommendations: [],
    }) as unknown as RunResult;

  it("counts each finding by its status, else by the list it is in", () => {
    expect(
      verdictCounts(
        result(
          [{ id: "A" }, { id: "B", status: "fulfilled" }],
          [
            { id: "C", status: "not_fulfilled" },
            { id: "D", status: "Insufficient Evidence" },
            { id: "E", status: "insufficient-evidence" },
            { id: "F" },
          ],
        ),
      ),
    ).toEqual({ fulfilled: 2, not_fulfilled: 2, insufficient_evidence: 2 });
  });

  it("counts nothing for a result that judged nothing", () => {
    expect(verdictCounts(result([], []))).toEqual({
      fulfilled: 0,
      not_fulfilled: 0,
      insufficient_evidence: 0,
    });
  });
});

describe("line ranges", () => {
  it("round-trips the line numbers", () => {
    const lines = [1, 2, 3, 7, 9, 10];
    expect(lineRanges(lines)).toEqual([
      [1, 3],
      [7, 7],
      [9, 10],
    ]);
    expect([...linesOf(lineRanges(lines))]).toEqual(lines);
    expect(lineRanges([])).toEqual([]);
  });
});

describe("runIdForLine", () => {
  it("names a line's run after its batch and line: a run id the API accepts", () => {
    const runId = runIdForLine("batch-20260101120000-1a2b3c4d", 42);
    expect(runId).toBe("run-20260101120000-1a2b3c4d-42");
    expect(RUN_ID_PATTERN.test(runId)).toBe(true);
  });
});

describe("validateBatchRequest", () => {
  const problems = (input: unknown) => {
    try {
      validateBatchRequest(input, { maxConcurrency: 50 });
    } catch (error) {
      if (error instanceof InvalidBatchError) return error.problems;
      throw error;
    }
    return [];
  };

  it("applies the defaults", () => {
    expect(validateBatchRequest({ requests: [{}] }, { maxConcurrency: 50 })).toEqual({
      requests: [{}],
      max_concurrency: 10,
      tolerated_failure_percentage: 10,
    });
    expect(validateBatchRequest({ requests: [{}] }, { maxConcurrency: 4 }).max_concurrency).toBe(4);
  });

  it("wants exactly one of manifest and requests", () => {
    expect(problems({})).toEqual([
      {
        field: "(body)",
        message: "expected manifest (s3://bucket/key.jsonl, a JSON Lines object) or requests (an array)",
      },
    ]);
    expect(problems({ manifest: "s3://b/a.jsonl", requests: [{}] })[0]?.message).toBe(
      "expected manifest or requests, not both",
    );
    expect(problems([])).toEqual([
      { field: "(body)", message: "expected a JSON object with manifest or requests" },
    ]);
  });

  it("names every offending field at once", () => {
    const found = problems({
      manifest: "s3://bucket/loans.csv",
      max_concurrency: 51,
      tolerated_failure_percentage: -1,
      name: "",
      colour: "red",
    });
    expect(found.map((problem) => problem.field).sort()).toEqual([
      "colour",
      "manifest",
      "max_concurrency",
      "name",
      "tolerated_failure_percentage",
    ]);
    expect(found.find((problem) => problem.field === "max_concurrency")?.message).toBe(
      "expected at most 50 (REWOO_BATCH_MAX_CONCURRENCY)",
    );
    expect(problems({ requests: [] })[0]).toEqual({
      field: "requests",
      message: "expected at least one evaluation request",
    });
    expect(problems({ requests: Array.from({ length: 1001 }, () => ({})) })[0]?.field).toBe("requests");
    expect(problems({ requests: [{}], max_concurrency: 2.5 })[0]?.field).toBe("max_concurrency");
  });

  it("takes each request's line and file in the caller's file, checked against the requests", () => {
    const lines = [{ line: 2, file: "loan-1.json" }, { line: 7 }];
    expect(validateBatchRequest({ requests: [{}, {}], lines }, { maxConcurrency: 50 }).lines).toEqual(lines);
    expect(problems({ manifest: "s3://b/a.jsonl", lines: [{ line: 1 }] })).toEqual([
      { field: "lines", message: "only with requests: a manifest's lines are numbered as in the manifest" },
    ]);
    expect(problems({ requests: [{}, {}], lines: [{ line: 1 }] })).toEqual([
      { field: "lines", message: "expected one entry per request (2), got 1" },
    ]);
    expect(problems({ requests: [{}, {}, {}], lines: [{ line: 3 }, { line: 3 }, { line: 1 }] })).toEqual([
      {
        field: "lines.1.line",
        message: "expected a line after 3 (lines.0.line): each request's line in the file, in file order",
      },
      {
        field: "lines.2.line",
        message: "expected a line after 3 (lines.1.line): each request's line in the file, in file order",
      },
    ]);
    for (const line of [0, 1.5, 1e9, "1"]) {
      expect(problems({ requests: [{}], lines: [{ line }] })[0]).toEqual({
        field: "lines.0.line",
        message: "expected a line number (an integer from 1 to 999999999)",
      });
    }
    expect(problems({ requests: [{}], lines: [{ line: 1, file: "a\nb.json" }] })[0]).toEqual({
      field: "lines.0.file",
      message: "expected a file name without control characters",
    });
    expect(problems({ requests: [{}], lines: [{ line: 1, colour: "red" }] })[0]).toEqual({
      field: "lines.0.colour",
      message: "unknown field",
    });
  });
});
