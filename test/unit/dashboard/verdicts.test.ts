// The pure parts of the verdicts an officer reads (without a browser): where a citation's excerpt lies
// among a PDF page's text-layer spans, which of the run's documents a citation names, what the JSON
// export holds and the summary page's address.
import { describe, expect, it } from "vitest";

interface RunDocument {
  path: string;
  bucket: string;
  key: string;
  url: string;
  expires_at: string;
}
// The dashboard's modules are plain browser JavaScript without type declarations.
const modulePath = (name: string) => `../../../dashboard/${name}`;
const viewer = (await import(modulePath("pdf-viewer.js"))) as {
  findExcerptSpans: (spanTexts: string[], excerpt: string) => number[] | null;
  pickDocument: (documents: RunDocument[], cited: string) => RunDocument | null;
};
const exporter = (await import(modulePath("verdict-export.js"))) as {
  verdictExport: (run: unknown, exportedAt?: Date) => Record<string, unknown>;
  exportFileName: (runId: string) => string;
  summaryHash: (runId: string) => string;
  summaryRunIdFromHash: (hash: string) => string | null;
};

describe("findExcerptSpans", () => {
  // A text layer splits a line into spans by font run and position, not by the extracted lines.
  const spans = [
    "B Employer identification",
    " number",
    "Acme Widgets, Inc.",
    "12-",
    "3456789",
    "Total assets",
  ];

  it("finds an excerpt spread over several spans, whatever its white space and case", () => {
    expect(viewer.findExcerptSpans(spans, "employer IDENTIFICATION number\nAcme  Widgets, Inc.")).toEqual([
      0, 1, 2,
    ]);
  });

  it("tolerates a hyphen broken over two spans and one left out", () => {
    expect(viewer.findExcerptSpans(spans, "12-3456789")).toEqual([3, 4]);
    expect(viewer.findExcerptSpans(spans, "123456789")).toEqual([3, 4]);
    expect(viewer.findExcerptSpans(["identi-", "fication"], "identification")).toEqual([0, 1]);
  });

  it("says null when the page does not hold the excerpt, or there is none", () => {
    expect(viewer.findExcerptSpans(spans, "Schedule L")).toBeNull();
    expect(viewer.findExcerptSpans(spans, "  ")).toBeNull();
    expect(viewer.findExcerptSpans([], "Acme")).toBeNull();
  });
});

describe("pickDocument", () => {
  const doc = (path: string, key = path): RunDocument => ({
    path,
    bucket: "docs",
    key,
    url: `https://docs.example/${key}`,
    expires_at: "2030-01-01T00:00:00Z",
  });
  const documents = [
    doc("uploads/0123456789abcdef/1120-signed.pdf"),
    doc("s3://docs/statements/jan.pdf", "statements/jan.pdf"),
  ];

  it("matches the path, then the key, then the file name", () => {
    expect(viewer.pickDocument(documents, "uploads/0123456789abcdef/1120-signed.pdf")).toBe(documents[0]);
    expect(viewer.pickDocument(documents, "statements/jan.pdf")).toBe(documents[1]);
    expect(viewer.pickDocument(documents, "1120-signed.pdf")).toBe(documents[0]);
  });

  it("gives null for a document the run does not have", () => {
    expect(viewer.pickDocument(documents, "uploads/x/other.pdf")).toBeNull();
    expect(viewer.pickDocument([], "1120-signed.pdf")).toBeNull();
  });
});

describe("verdictExport", () => {
  const result = {
    summary: "1 of 1 fulfilled",
    fulfilled_conditions: [
      {
        id: "TR_SIGNED",
        status: "fulfilled",
        citations: [{ document: "a.pdf", page: 2, excerpt: "Sign Here" }],
      },
    ],
    unfulfilled_conditions: [],
  };

  it("holds the run's id, request, status, result with citations, usage and cost", () => {
    const view = {
      runId: "run-1",
      status: "SUCCEEDED",
      request: {
        metadata: { loan_number: "L-1" },
        instructions: "all",
        s3_pdf_paths: ["a.pdf"],
        options: {},
      },
      result,
      usage: { llm_calls: 2 },
      cost: { total_usd: 0.01 },
      created_at: "2026-01-01T00:00:00Z",
    };
    expect(exporter.verdictExport(view, new Date("2026-02-01T00:00:00Z"))).toEqual({
      run_id: "run-1",
      exported_at: "2026-02-01T00:00:00.000Z",
      status: "SUCCEEDED",
      created_at: "2026-01-01T00:00:00Z",
      updated_at: undefined,
      request: { metadata: { loan_number: "L-1" }, instructions: "all", s3_pdf_paths: ["a.pdf"] },
      result,
      usage: { llm_calls: 2 },
      cost: { total_usd: 0.01 },
    });
  });

  it("reads a run record's run_id too, and says null for what a run has not got", () => {
    const exported = exporter.verdictExport({ run_id: "run-2", status: "FAILED" });
    expect(exported.run_id).toBe("run-2");
    expect(exported.result).toBeNull();
    expect(exported.request).toEqual({ metadata: null, instructions: null, s3_pdf_paths: [] });
  });

  it("names the file after the run and leaves no path separator in it", () => {
    expect(exporter.exportFileName("run-20260101-abc")).toBe("run-20260101-abc-verdicts.json");
    expect(exporter.exportFileName("../x y")).toBe(".._x_y-verdicts.json");
  });
});

describe("the summary's address", () => {
  it("round-trips a run id, and is not a run view's address", () => {
    expect(exporter.summaryHash("run/1")).toBe("#/runs/run%2F1/summary");
    expect(exporter.summaryRunIdFromHash("#/runs/run%2F1/summary")).toBe("run/1");
    expect(exporter.summaryRunIdFromHash("#/runs/run-1")).toBeNull();
  });
});
