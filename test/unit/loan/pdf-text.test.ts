import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import {
  buildForm1120,
  buildScannedPdf,
  buildTextPdf,
  generateSampleDocuments,
} from "../../../examples/samples.ts";
import { DocumentError, extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { cellAt, cellBelow, documentPages } from "../../../lambdas/agents/loan/text.ts";
import { sample } from "./fixtures.ts";

describe("extractPdfText", () => {
  it("returns one text per page with labels and values on their own lines, columns split by 2+ spaces", async () => {
    const [signed] = await sample("1120-signed.pdf");
    expect(signed?.page_count).toBe(3);
    expect(signed?.pages).toHaveLength(3);
    expect(signed?.has_text_layer).toBe(true);
    const page1 = signed?.pages[0]?.split("\n") ?? [];
    expect(page1).toContain("A Check if:  Name  B Employer identification number");
    expect(page1).toContain("1a Consolidated return  Acme Widgets, Inc.  12-3456789");
    expect(page1.some((line) => line.startsWith("Robert J. Tanner  03/10/2025  President"))).toBe(true);
    expect(signed?.pages[2]).toContain("Schedule L Balance Sheets per Books");
    // Vertical side captions stay out of the horizontal lines they cross.
    expect(page1).toContain("Income");
    expect(page1).toContain("3  Gross profit. Subtract line 2 from line 1c  3  1,128,000");
  });

  it("keeps statement rows in reading order across pages", async () => {
    const [january] = await sample("statement-2025-01.pdf");
    expect(january?.page_count).toBe(2);
    expect(january?.pages[0]).toContain("Statement Period: 01/01/2025 - 01/31/2025");
    expect(january?.pages[0]).toContain("01/10  Payroll Direct Deposit - ACME WIDGETS INC  3,650.00");
    expect(january?.pages[1]).toContain("Total Overdraft Fees  $0.00  $0.00");
    expect(january?.pages[1]).toContain("Page 2 of 2");
  });

  it("reports a page without text as has_text_layer false, not as an error", async () => {
    const scanned = await extractPdfText(await buildScannedPdf(), "rm-conditions/scanned.pdf");
    const { model, ...text } = scanned;
    expect(text).toEqual({
      document: "rm-conditions/scanned.pdf",
      page_count: 1,
      pages: [""],
      has_text_layer: false,
      cells: [[]],
    });
    // The model has the page and nothing read on it: no lines, no words, no signatures.
    expect(model?.pages.map((page) => page.blocks.map((block) => block.BlockType))).toEqual([["PAGE"]]);
  });

  it("keeps each column's extent on the page, so a value can be read under its column heading", async () => {
    const bytes = await buildTextPdf([
      [
        [
          [50, "Name of corporation"],
          [300, "Employer identification number"],
          [470, "Tax year ended"],
        ],
        [
          [300, "12 3456789"],
          [50, "Acme Widgets, Inc."],
        ],
      ],
    ]);
    const document = await extractPdfText(bytes, "rm/header.pdf");
    const [page] = documentPages(document);
    if (!page) throw new Error("no page");
    expect(page.lines).toEqual([
      "Name of corporation  Employer identification number  Tax year ended",
      "Acme Widgets, Inc.  12 3456789",
    ]);
    const heading = cellAt(page, 0, page.lines[0]?.indexOf("Employer") ?? -1);
    expect(heading).toMatchObject({ text: "Employer identification number", start: 21 });
    expect(heading?.x).toBeCloseTo(300, 0);
    if (!heading) throw new Error("no heading");
    expect(cellBelow(page, 0, heading)).toMatchObject({ line: 1, cell: { text: "12 3456789", start: 20 } });
    const year = cellAt(page, 0, page.lines[0]?.indexOf("Tax year") ?? -1);
    if (!year) throw new Error("no year heading");
    // Nothing is printed under "Tax year ended".
    expect(cellBelow(page, 0, year)).toBeNull();
    // Pages built from literal text (no positions) have no cells.
    expect(
      documentPages({ document: "x", page_count: 1, pages: ["a  b"], has_text_layer: true })[0]?.cells,
    ).toBe(undefined);
  });

  it("throws DocumentError naming the document for non-PDF bytes", async () => {
    const bytes = new TextEncoder().encode("<html>not a pdf</html>");
    const error = await extractPdfText(bytes, "rm-conditions/x.pdf").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentError);
    expect((error as DocumentError).name).toBe("DocumentError");
    expect((error as DocumentError).document).toBe("rm-conditions/x.pdf");
    expect((error as Error).message).toMatch(
      /^rm-conditions\/x\.pdf is not a readable PDF: expected a PDF file/,
    );
  });

  it("throws DocumentError for a truncated PDF and for empty bytes", async () => {
    const bytes = await buildForm1120();
    const truncated = await extractPdfText(bytes.slice(0, 400), "rm-conditions/cut.pdf").catch(
      (e: unknown) => e,
    );
    expect(truncated).toBeInstanceOf(DocumentError);
    expect((truncated as Error).message).toMatch(/^rm-conditions\/cut\.pdf is not a readable PDF: /);
    await expect(extractPdfText(new Uint8Array(0), "rm-conditions/empty.pdf")).rejects.toThrow(
      "rm-conditions/empty.pdf is not a readable PDF: the file is empty",
    );
  });

  it("leaves the caller's buffer intact (pdf.js detaches what it is given)", async () => {
    const bytes = await buildTextPdf([["Hello"]]);
    const length = bytes.byteLength;
    await extractPdfText(bytes, "a.pdf");
    expect(bytes.byteLength).toBe(length);
    const again = await extractPdfText(bytes, "a.pdf");
    expect(again.pages[0]).toBe("Hello");
  });

  it("reads the values typed into a fillable form's fields", async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    const page = document.addPage([612, 792]);
    page.drawText("Employer identification number", { x: 50, y: 700, size: 9, font });
    const field = document.getForm().createTextField("ein");
    field.setText("12-3456789");
    field.addToPage(page, { x: 250, y: 694, width: 120, height: 18, font });
    const extracted = await extractPdfText(await document.save(), "form.pdf");
    expect(extracted.pages[0]).toMatch(/Employer identification number\s{2,}12-3456789/);
  });

  it("generates byte-identical samples on every run", async () => {
    const first = await generateSampleDocuments();
    const second = await generateSampleDocuments();
    expect(first.map((d) => d.key)).toEqual([
      "rm-conditions/1120-signed.pdf",
      "rm-conditions/1120-unsigned.pdf",
      "rm-conditions/statement-2025-01.pdf",
      "rm-conditions/statement-2025-02.pdf",
      "rm-conditions/statement-2025-03-nsf.pdf",
      "rm-conditions/statement-2025-03-large-deposit.pdf",
      "rm-conditions/statement-2025-02-other-name.pdf",
      "rm-conditions/scanned.pdf",
    ]);
    first.forEach((document, index) => {
      expect(Buffer.from(document.bytes).equals(Buffer.from(second[index]?.bytes ?? []))).toBe(true);
      expect(document.description.length).toBeGreaterThan(10);
    });
  });
});
