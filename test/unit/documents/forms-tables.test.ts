// The document model's key–value pairs and tables (KEY_VALUE_SET, TABLE, CELL), found offline by
// position from a PDF's laid-out lines, and read by the statement finders where their own wording
// finds nothing: a statement written with labels they were never taught ("Acct #", "Billing
// cycle", "Customer") is read through its key–value pairs.
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { readStatement } from "../../../lambdas/agents/loan/statement-fields.ts";
import { blocksOfType, keyValues, type PageModel, tableRows } from "../../../lambdas/documents/blocks.ts";
import { keyValuePairs, tablesOf } from "../../../lambdas/documents/forms-tables.ts";
import { BANK_METADATA, evaluate, verdictOf } from "../loan/fixtures.ts";

async function statement(labels: { account: string; period: string; holder: string }): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage([612, 792]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  const text = (value: string, x: number, y: number, size = 9) => page.drawText(value, { x, y, size, font });
  text("Prairie Hollow Credit Union", 40, 750, 14);
  text(labels.holder, 40, 720);
  text("Dana K. Whitfield", 160, 720);
  text(labels.account, 40, 706);
  text("****4821", 160, 706);
  text(labels.period, 40, 692);
  text("04/01/2026 - 04/30/2026", 160, 692);
  text("Posted", 40, 650);
  text("Memo", 110, 650);
  text("Money out", 380, 650);
  text("Money in", 450, 650);
  text("Balance", 520, 650);
  const rows: Array<[string, string, string, string, string]> = [
    ["04/02", "Payroll Harbor Freight", "", "2,310.44", "4,120.10"],
    ["04/09", "Rent April", "1,450.00", "", "2,670.10"],
    ["04/16", "Grocery Outlet 118", "96.42", "", "2,573.68"],
    ["04/30", "Payroll Harbor Freight", "", "2,310.44", "4,884.12"],
  ];
  rows.forEach((row, index) => {
    const y = 634 - index * 14;
    text(row[0], 40, y);
    text(row[1], 110, y);
    if (row[2]) text(row[2], 380, y);
    if (row[3]) text(row[3], 450, y);
    text(row[4], 520, y);
  });
  text("Thank you for banking with us.", 40, 540);
  return await document.save();
}

const UNUSUAL = { account: "Acct #:", period: "Billing cycle:", holder: "Customer:" };

function firstPage(model: { pages: PageModel[] } | undefined): PageModel {
  const page = model?.pages[0];
  if (!page) throw new Error("no document model");
  return page;
}

describe("key–value pairs and tables in the document model", () => {
  it("finds labels with their values and a table with its header and rows, as Textract blocks", async () => {
    const extracted = await extractPdfText(await statement(UNUSUAL), "stmt.pdf");
    const page = firstPage(extracted.model);
    const pairs = keyValues(page).map((pair) => [pair.key, pair.value]);
    expect(pairs).toEqual(
      expect.arrayContaining([
        ["Customer", "Dana K. Whitfield"],
        ["Acct #", "****4821"],
        ["Billing cycle", "04/01/2026 - 04/30/2026"],
      ]),
    );
    // Each KEY names its VALUE, and both are made of the page's WORD blocks.
    const keys = blocksOfType(page, "KEY_VALUE_SET").filter((block) => block.EntityTypes?.includes("KEY"));
    const words = new Set(blocksOfType(page, "WORD").map((word) => word.Id));
    for (const key of keys) {
      expect(key.Relationships?.find((relation) => relation.Type === "VALUE")?.Ids).toHaveLength(1);
      const children = key.Relationships?.find((relation) => relation.Type === "CHILD")?.Ids ?? [];
      expect(children.length).toBeGreaterThan(0);
      for (const id of children) expect(words.has(id)).toBe(true);
    }
    const [table, ...others] = tableRows(page);
    expect(others).toEqual([]);
    expect(table?.[0]).toEqual(["Posted", "Memo", "Money out", "Money in", "Balance"]);
    expect(table?.[2]).toEqual(["04/09", "Rent April", "1,450.00", "", "2,670.10"]);
    expect(table).toHaveLength(5);
    const cells = blocksOfType(page, "CELL");
    expect(cells.find((cell) => cell.Text === "2,310.44")).toMatchObject({ RowIndex: 2, ColumnIndex: 4 });
  });

  it("reads the statement's period, account and holder from key–value pairs the line finders do not know", async () => {
    const extracted = await extractPdfText(await statement(UNUSUAL), "stmt.pdf");
    const read = readStatement(extracted);
    expect(read?.periods.map((period) => period.value)).toEqual([
      { start: { y: 2026, m: 4, d: 1 }, end: { y: 2026, m: 4, d: 30 } },
    ]);
    expect(read?.accounts.map((account) => account.value)).toEqual(["4821"]);
    expect(read?.holders.map((holder) => holder.value)).toEqual(["Dana K. Whitfield"]);
    // The line finders alone do not know "Customer:" as the holder's label.
    const { model: _model, ...linesOnly } = extracted;
    expect(readStatement(linesOnly)?.holders).toEqual([]);
    // Found by position, so below a value printed beside a label the finders know.
    expect(read?.periods[0]?.confidence).toBeLessThan(1);
    const verdicts = evaluate(
      { ...BANK_METADATA, borrower_info: { name: "Dana K. Whitfield" } },
      [extracted],
      ["BS_NAME_MATCH"],
    );
    expect(verdictOf(verdicts, "BS_NAME_MATCH").status).toBe("fulfilled");
    expect(verdictOf(verdicts, "BS_NAME_MATCH").citations[0]?.excerpt).toContain("Dana K. Whitfield");
  });

  it("pairs a row of labels with the one row of values under it, and takes a longer run for a table", () => {
    const line = (y: number, ...cells: Array<[string, number]>) => ({
      box: { x: cells[0]?.[1] ?? 0, right: 560, y, top: y + 9 },
      cells: cells.map(([text, x]) => ({ text, x, right: x + text.length * 5 })),
    });
    const header = line(700, ["Account Number", 40], ["Statement Period", 220], ["Page", 480]);
    const values = line(688, ["0012-3456-789", 40], ["March 1 - March 31, 2026", 220], ["1 of 3", 480]);
    const prose = line(640, ["Questions? Call us any time.", 40]);
    expect(tablesOf([header, values, prose])).toEqual([]);
    expect(keyValuePairs([header, values, prose]).map((pair) => [pair.key.text, pair.value?.text])).toEqual([
      ["Account Number", "0012-3456-789"],
      ["Statement Period", "March 1 - March 31, 2026"],
      ["Page", "1 of 3"],
    ]);
    const more = line(676, ["0012-3456-790", 40], ["April 1 - April 30, 2026", 220], ["2 of 3", 480]);
    const tables = tablesOf([header, values, more, prose]);
    expect(tables).toHaveLength(1);
    expect(keyValuePairs([header, values, more, prose], tables)).toEqual([]);
  });

  it("leaves a label with nothing printed for it without a value, and takes no sentence for a table", () => {
    const line = (y: number, ...cells: Array<[string, number]>) => ({
      box: { x: 40, right: 560, y, top: y + 9 },
      cells: cells.map(([text, x]) => ({ text, x, right: x + text.length * 5 })),
    });
    const pairs = keyValuePairs([line(700, ["Signature:", 40]), line(600, ["Date printed 04/30/2026", 40])]);
    expect(pairs).toEqual([expect.objectContaining({ value: null })]);
    const sentences = [
      line(700, ["We changed our fees.", 40], ["See page 4.", 300], ["Call us.", 480]),
      line(688, ["Your balance was low twice.", 40]),
      line(676, ["Keep this for your records.", 40]),
    ];
    expect(tablesOf(sentences)).toEqual([]);
  });
});
