// What `rewoo evaluate` prints about scanned documents: a citation of a page read by OCR is marked
// with the engine's confidence (a text page's citation prints exactly as before), and the documents
// Conditions AI reported are listed, an OCR'd one with its engine, pages, time, mean confidence and
// the fields read from its OCR pages. Plain objects of the API's shapes; nothing is OCR'd here.
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { formatRunRecord } from "../../../cli/progress.ts";
import type { Evidence, RunRecord, RunResult } from "../../../lambdas/core/types.ts";
import { RUN_ID, runRecord } from "./stub-api.ts";

const plain = (lines: string[]) => lines.map((line) => stripVTControlCharacters(line));

const SCAN = "uploads/5f1c/scanned-1120.pdf";
const TEXT = "rm-conditions/bank-2026-01.pdf";

function result(citations: NonNullable<RunResult["fulfilled_conditions"][number]["citations"]>): RunResult {
  return {
    summary: "1 of 1 conditions fulfilled",
    fulfilled_conditions: [{ id: "TR_SIGNED", title: "Signed", reason: "signed by Jane Doe", citations }],
    unfulfilled_conditions: [],
    missing_information: [],
    recommendations: [],
  };
}

function evidence(step: string, output: unknown, status: Evidence["status"] = "ok"): Evidence {
  return {
    step_id: step,
    tool: "call_conditions_ai_api",
    status,
    output,
    upstream_errors: [],
    started_at: "2026-01-01T12:00:01.000Z",
    finished_at: "2026-01-01T12:00:04.000Z",
    duration_ms: 3000,
  };
}

const record = (extra: Partial<RunRecord>): RunRecord => ({ ...runRecord("SUCCEEDED"), ...extra });

/** The lines from a heading to the blank line (or the end) after it. */
function section(lines: string[], heading: string): string[] {
  const start = lines.indexOf(heading);
  expect(start, heading).toBeGreaterThan(-1);
  const end = lines.indexOf("", start);
  return lines.slice(start, end === -1 ? undefined : end);
}

describe("citations of pages read by OCR", () => {
  it("marks an OCR page's citation with its confidence, and prints a text page's exactly as before", () => {
    const lines = plain(
      formatRunRecord(
        record({
          result: result([
            { document: TEXT, page: 2, excerpt: "Jane   Doe" },
            // The lead's shape: source and confidence ride on the citation; the type does not know them yet.
            {
              document: SCAN,
              page: 1,
              excerpt: "Signature of officer  Jane Doe",
              source: "ocr",
              confidence: 93,
            },
            { document: SCAN, page: 3, excerpt: "Date 03/14/2026", source: "ocr" },
            {
              document: SCAN,
              page: 4,
              excerpt: "05/12/26  DEPOSIT AT BRANCH  9,800.00  16,543.65",
              source: "ocr",
              confidence: 81,
              confirmed_by: "running_balance",
            },
          ] as never),
        }),
      ),
    );
    expect(section(lines, "Fulfilled")).toEqual([
      "Fulfilled",
      "  TR_SIGNED: fulfilled — Signed",
      "      signed by Jane Doe",
      `      ↳ ${TEXT} p.2 "Jane Doe"`,
      `      ↳ ${SCAN} p.1 [OCR 93%] "Signature of officer Jane Doe"`,
      // No confidence came with it: still marked as an OCR read.
      `      ↳ ${SCAN} p.3 [OCR] "Date 03/14/2026"`,
      // An amount the statement's running balance confirms says so beside the confidence.
      `      ↳ ${SCAN} p.4 [OCR 81%, confirmed by the running balance] "05/12/26 DEPOSIT AT BRANCH 9,800.00 16,543.65"`,
    ]);
  });

  it("marks nothing that is not an OCR page, whatever else the citation carries", () => {
    const lines = plain(
      formatRunRecord(
        record({
          result: result([
            { document: TEXT, page: 1, excerpt: "x", source: "text", confidence: 50 },
            { document: TEXT, page: 1, excerpt: "y", confidence: 70 },
          ] as never),
        }),
      ),
    );
    expect(lines).toContain(`      ↳ ${TEXT} p.1 "x"`);
    expect(lines).toContain(`      ↳ ${TEXT} p.1 "y"`);
  });

  it("keeps a document's control characters off the terminal", () => {
    const lines = formatRunRecord(
      record({
        result: result([
          {
            document: SCAN,
            page: 1,
            excerpt: "Jane\u001b[2J\u001b]0;pwned\u0007 Doe",
            source: "ocr",
            confidence: 90,
          },
        ] as never),
      }),
    );
    const cited = lines.find((line) => line.includes(SCAN)) ?? "";
    expect(cited).not.toContain("\u001b[2J");
    expect(cited).not.toContain("\u0007");
    expect(stripVTControlCharacters(cited)).toBe(`      ↳ ${SCAN} p.1 [OCR 90%] "Jane[2J]0;pwned Doe"`);
  });
});

describe("the documents Conditions AI reported", () => {
  const scanned = {
    document: SCAN,
    status: "read",
    page_count: 3,
    ocr: { engine: "tesseract", pages: [3, 1, 2], seconds: 2.43, confidence: 91 },
    extraction: {
      kind: "form_1120",
      fields: [
        {
          field: "ein",
          found: true,
          value: "12-3456789",
          page: 1,
          excerpt: "Employer identification number 12-3456789",
          source: "label",
          confidence: 1,
          ocr_confidence: 88,
        },
        {
          field: "officer_signature",
          found: true,
          value: "Jane Doe",
          page: 3,
          excerpt: "Signature of officer Jane Doe",
          source: "label",
          confidence: 1,
          ocr_confidence: 62,
        },
        // Read from the text layer of a page that had one: no OCR confidence, not listed.
        { field: "tax_year", found: true, value: "2025", page: 1, source: "label", confidence: 1 },
        { field: "schedule_l", found: false, note: "no 'Schedule L' heading on pages 1-3" },
      ],
    },
  };
  const text = {
    document: TEXT,
    status: "read",
    page_count: 1,
    extraction: {
      kind: "bank_statement",
      fields: [{ field: "holder_name", found: true, value: "Jane Doe" }],
    },
  };
  const photo = {
    document: "uploads/77aa/phone-photo.pdf",
    status: "no_text_layer",
    reason: "has no text layer (scanned image?)",
    page_count: 1,
    ocr: { engine: "textract", pages: [1], seconds: 71.6, confidence: 0 },
  };

  it("lists each document with its status, kind and pages; an OCR'd one with how it was read", () => {
    const lines = plain(
      formatRunRecord(
        record({ evidence: [evidence("E3", { verdicts: [], documents: [scanned, text, photo] })] }),
      ),
    );
    expect(section(lines, "Documents")).toEqual([
      "Documents",
      `  ${SCAN}: read · Form 1120 · 3 pages`,
      "      read by OCR (tesseract): pages 1–3, 2.4 s, mean confidence 91%",
      "      ein: 12-3456789 · p.1 [OCR 88%]",
      "      officer_signature: Jane Doe · p.3 [OCR 62%]",
      `  ${TEXT}: read · bank statement · 1 page`,
      "  uploads/77aa/phone-photo.pdf: no_text_layer · 1 page",
      "      has no text layer (scanned image?)",
      "      read by OCR (textract): page 1, 1 min 12 s, mean confidence 0%",
    ]);
    // After the findings, before the usage line.
    expect(lines.indexOf("Documents")).toBeGreaterThan(lines.indexOf("Fulfilled"));
    expect(lines.at(-1)).toMatch(/^Evidence: 1 ok, 0 failed/);
  });

  it("says when OCR could not read a document, and leaves out what the report does not give", () => {
    const failed = {
      document: SCAN,
      status: "no_text_layer",
      ocr: { engine: "textract", pages: [1, 2, 4], error: "Textract: unsupported document" },
    };
    const lines = plain(formatRunRecord(record({ evidence: [evidence("E3", { documents: [failed] })] })));
    expect(section(lines, "Documents")).toEqual([
      "Documents",
      `  ${SCAN}: no_text_layer`,
      "      read by OCR (textract): pages 1–2, 4, OCR failed: Textract: unsupported document",
    ]);
  });

  it("takes the latest successful step's report of a document, and nothing from failed steps", () => {
    const earlier = { document: SCAN, status: "unreadable", reason: "could not be read: timeout" };
    const lines = plain(
      formatRunRecord(
        record({
          evidence: [
            evidence("E3", { documents: [earlier] }),
            evidence("E4", { documents: [{ document: "ignored.pdf", status: "read" }] }, "error"),
            evidence("E5", { documents: [scanned] }),
          ],
        }),
      ),
    );
    const documents = section(lines, "Documents");
    expect(documents[1]).toBe(`  ${SCAN}: read · Form 1120 · 3 pages`);
    expect(documents.join("\n")).not.toContain("ignored.pdf");
    expect(documents.join("\n")).not.toContain("unreadable");
  });

  it("prints no Documents section when no step reported documents (a record as before)", () => {
    const lines = plain(
      formatRunRecord(
        record({
          evidence: [
            evidence("E1", { conditions: [] }),
            { ...evidence("E3", undefined), output_ref: "s3://bucket/runs/x/E3.json" },
          ],
        }),
      ),
    );
    expect(lines).not.toContain("Documents");
    expect(lines.slice(-2)).toEqual([
      "",
      "Evidence: 2 ok, 0 failed · LLM usage: 2 calls, 100 input + 50 output tokens",
    ]);
    expect(lines[1]).toBe(`Run ${RUN_ID}: SUCCEEDED`);
  });

  it("keeps control characters in a field's value off the terminal", () => {
    const hostile = {
      document: SCAN,
      status: "read",
      extraction: {
        kind: "form_1120",
        fields: [
          {
            field: "corporation_name",
            found: true,
            value: "Acme\u001b[31m Inc",
            page: 1,
            ocr_confidence: 77,
          },
        ],
      },
    };
    const lines = formatRunRecord(record({ evidence: [evidence("E3", { documents: [hostile] })] }));
    const field = lines.find((line) => line.includes("corporation_name")) ?? "";
    expect(field).not.toContain("\u001b[31m Inc");
    expect(stripVTControlCharacters(field)).toBe("      corporation_name: Acme[31m Inc · p.1 [OCR 77%]");
  });
});
