// "Could not locate" is not "missing": a part of the return is reported missing (not_fulfilled) only
// when every page was read from its text layer and none prints the part's title. A page that prints
// the title but whose lines could not be read, or a page read by OCR, makes it insufficient_evidence.
import { describe, expect, it } from "vitest";
import type { ExtractedDocument } from "../../../lambdas/agents/loan/pdf-text.ts";
import { evaluate, sample, TAX_METADATA, verdictOf } from "./fixtures.ts";

const SCHEDULE_L_TITLE = /schedule\s+l\b|balance\s+sheets\s+per\s+books/i;

/** The signed sample return with its Schedule L page replaced by `page` (or dropped when null). */
async function withScheduleLPage(page: string | null): Promise<ExtractedDocument> {
  const [original] = await sample("1120-signed.pdf");
  if (!original) throw new Error("no sample return");
  const index = original.pages.findIndex((text) => /balance\s+sheets\s+per\s+books/i.test(text));
  expect(index).toBeGreaterThan(0);
  const pages = original.pages.flatMap((text, at) => (at !== index ? [text] : page === null ? [] : [page]));
  return { document: "rm/return.pdf", page_count: pages.length, pages, has_text_layer: true };
}

describe("TR_COMPLETE decides 'missing' only on positive evidence", () => {
  it("is not_fulfilled when every page was read and none prints Schedule L", async () => {
    const document = await withScheduleLPage(null);
    expect(document.pages.some((text) => /balance\s+sheets\s+per\s+books/i.test(text))).toBe(false);
    const verdict = verdictOf(evaluate(TAX_METADATA, [document], ["TR_COMPLETE"]), "TR_COMPLETE");
    expect(verdict.status).toBe("not_fulfilled");
  });

  it("is insufficient_evidence when a page prints the Schedule L title but its lines cannot be read", async () => {
    const document = await withScheduleLPage(
      [
        "Form 1120 (2024)  Page 5",
        "Schedule L  Balance Sheets per Books",
        "(the rest of the page is smudged)",
      ].join("\n"),
    );
    const verdict = verdictOf(evaluate(TAX_METADATA, [document], ["TR_COMPLETE"]), "TR_COMPLETE");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain('prints the Schedule L title "Balance Sheets per Books"');
  });

  it("is insufficient_evidence when a page was read by OCR, which may have missed the title", async () => {
    const without = await withScheduleLPage(null);
    const document: ExtractedDocument = {
      ...without,
      page_sources: without.pages.map((_, index) =>
        index === without.pages.length - 1 ? { source: "ocr", confidence: 91 } : { source: "text" },
      ),
    };
    expect(document.pages.some((text) => SCHEDULE_L_TITLE.test(text) && /per\s+books/i.test(text))).toBe(
      false,
    );
    const verdict = verdictOf(evaluate(TAX_METADATA, [document], ["TR_COMPLETE"]), "TR_COMPLETE");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain("were read by OCR");
  });
});
