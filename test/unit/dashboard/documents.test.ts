// The words the dashboard shows (and the CLI prints) about scanned documents: which citations and
// fields come from a page read by OCR and how sure the engine was, and how a document was read
// (engine, pages, time, mean confidence). Records may come from an older or newer API, so anything
// malformed counts as absent rather than failing or marking a text page as OCR.
import { describe, expect, it } from "vitest";
import {
  citationOcr,
  documentOcr,
  documentReports,
  fieldOcrConfidence,
  kindLabel,
  ocrConfidence,
  ocrSummary,
  ocrTag,
  ocrTagTitle,
  pageRanges,
} from "../../../dashboard/documents.js";

describe("citations and fields from OCR pages", () => {
  it("marks only citations whose source is ocr, with a whole-number confidence when one came", () => {
    expect(citationOcr({ document: "a.pdf", page: 1, excerpt: "x", source: "ocr", confidence: 93 })).toEqual({
      confidence: 93,
    });
    expect(citationOcr({ document: "a.pdf", source: "ocr", confidence: 92.6 })).toEqual({ confidence: 93 });
    expect(citationOcr({ document: "a.pdf", source: "ocr" })).toEqual({ confidence: null });
    // An amount the running balance confirms says so; an unknown confirmation is not shown.
    expect(
      citationOcr({ document: "a.pdf", source: "ocr", confidence: 81, confirmed_by: "running_balance" }),
    ).toEqual({ confidence: 81, confirmed: "confirmed by the running balance" });
    expect(
      citationOcr({ document: "a.pdf", source: "ocr", confidence: 60, confirmed_by: "deposits_total" }),
    ).toEqual({ confidence: 60, confirmed: "confirmed by the deposits total" });
    for (const odd of ["toString", "guess", 1]) {
      expect(citationOcr({ document: "a.pdf", source: "ocr", confidence: 81, confirmed_by: odd })).toEqual({
        confidence: 81,
      });
    }
    for (const odd of [-1, 101, "93", Number.NaN, null]) {
      expect(citationOcr({ document: "a.pdf", source: "ocr", confidence: odd }), String(odd)).toEqual({
        confidence: null,
      });
    }
    // A text page's citation, whatever else it carries, is not marked.
    for (const text of [
      { document: "a.pdf", page: 1, excerpt: "x" },
      { document: "a.pdf", source: "text", confidence: 80 },
      { document: "a.pdf", source: "OCR", confidence: 80 },
      null,
      "a.pdf",
    ]) {
      expect(citationOcr(text), JSON.stringify(text)).toBeNull();
    }
  });

  it("reads a field's OCR confidence only from ocr_confidence (its own 0–1 confidence is something else)", () => {
    expect(fieldOcrConfidence({ field: "ein", found: true, confidence: 1, ocr_confidence: 88 })).toBe(88);
    expect(fieldOcrConfidence({ field: "ein", found: true, confidence: 1 })).toBeNull();
    expect(fieldOcrConfidence({ field: "ein", ocr_confidence: "88" })).toBeNull();
    expect(fieldOcrConfidence(undefined)).toBeNull();
    expect([0, 100, 99.6, 100.4].map(ocrConfidence)).toEqual([0, 100, 100, null]);
  });

  it("tags and explains an OCR read", () => {
    expect(ocrTag(93)).toBe("OCR 93%");
    expect(ocrTag(0)).toBe("OCR 0%");
    expect(ocrTag(null)).toBe("OCR");
    expect(ocrTagTitle(1, 93)).toBe(
      "Page 1 was read by OCR (a scan or photo, no text layer) at 93% confidence",
    );
    expect(ocrTagTitle(undefined, null)).toBe("This page was read by OCR (a scan or photo, no text layer)");
  });
});

describe("how a document was read", () => {
  it("joins consecutive pages into ranges, in order, once each", () => {
    expect(pageRanges([3, 1, 2])).toBe("1–3");
    expect(pageRanges([1, 2, 3, 5, 7, 8, 2])).toBe("1–3, 5, 7–8");
    expect(pageRanges([4])).toBe("4");
    expect(pageRanges([0, -1, 1.5, "2", 6])).toBe("6");
    expect(pageRanges(undefined)).toBe("");
  });

  it("says engine, pages, time and mean confidence in one phrase", () => {
    const report = {
      document: "scan.pdf",
      status: "read",
      ocr: { engine: "tesseract", pages: [1, 2, 3], seconds: 2.43, confidence: 91 },
    };
    expect(ocrSummary(report)).toBe("read by OCR (tesseract): pages 1–3, 2.4 s, mean confidence 91%");
    expect(ocrSummary({ ocr: { engine: "textract", pages: [2], seconds: 0.04, confidence: 99.5 } })).toBe(
      "read by OCR (textract): page 2, 0.0 s, mean confidence 100%",
    );
    expect(ocrSummary({ ocr: { engine: "textract", pages: [1], seconds: 59.97, confidence: 50 } })).toBe(
      "read by OCR (textract): page 1, 1 min 0 s, mean confidence 50%",
    );
    expect(ocrSummary({ ocr: { engine: "textract", pages: [1], seconds: 125.4, confidence: 50 } })).toBe(
      "read by OCR (textract): page 1, 2 min 5 s, mean confidence 50%",
    );
    // A return's pages no condition reads, skimmed by their running header.
    const skimmed = {
      engine: "tesseract",
      pages: [1, 2, 3, 4, 5, 6],
      skimmed: [3, 2, 5],
      seconds: 9.96,
      confidence: 80,
    };
    expect(ocrSummary({ ocr: skimmed })).toBe(
      "read by OCR (tesseract): pages 1–6 (2–3, 5 by their header only), 10.0 s, mean confidence 80%",
    );
    expect(ocrSummary({ ocr: { ...skimmed, skimmed: [4] } })).toBe(
      "read by OCR (tesseract): pages 1–6 (4 by its header only), 10.0 s, mean confidence 80%",
    );
  });

  it("leaves out what the report does not give, and says when OCR failed", () => {
    expect(ocrSummary({ ocr: {} })).toBe("read by OCR");
    expect(ocrSummary({ ocr: { engine: "tesseract", pages: "1-3", seconds: -1, confidence: "high" } })).toBe(
      "read by OCR (tesseract)",
    );
    expect(ocrSummary({ ocr: { engine: "textract", pages: [1], error: "unsupported document" } })).toBe(
      "read by OCR (textract): page 1, OCR failed: unsupported document",
    );
    expect(
      documentOcr({ ocr: { engine: "tesseract", pages: [2, 1, 2], seconds: 1, confidence: 80 } }),
    ).toEqual({
      engine: "tesseract",
      pages: [1, 2],
      skimmed: [],
      seconds: 1,
      confidence: 80,
      error: null,
    });
  });

  it("is silent for a document without an OCR reading", () => {
    for (const report of [
      { document: "a.pdf", status: "read" },
      { ocr: null },
      { ocr: [1] },
      null,
      undefined,
    ]) {
      expect(ocrSummary(report), JSON.stringify(report)).toBeNull();
      expect(documentOcr(report)).toBeNull();
    }
  });
});

describe("documentReports", () => {
  it("keeps the reports that name a document, from Conditions AI's output only", () => {
    const read = { document: "a.pdf", status: "read" };
    expect(
      documentReports({ verdicts: [], documents: [read, { status: "read" }, null, "b.pdf", [1]] }),
    ).toEqual([read]);
    expect(documentReports({ conditions: [] })).toEqual([]);
    expect(documentReports(undefined)).toEqual([]);
    expect(documentReports({ documents: "a.pdf" })).toEqual([]);
  });

  it("names the kinds of document in words", () => {
    expect(["form_1120", "bank_statement", "other", "toString"].map(kindLabel)).toEqual([
      "Form 1120",
      "bank statement",
      "other",
      "toString",
    ]);
  });
});
