// Textract's FORMS and TABLES features: the analysis asks for them, and the KEY_VALUE_SET, TABLE and
// CELL blocks it answers become the page's key–value pairs and tables (their text from their WORD
// children, their boxes in PDF points), which the document model holds as Textract gave them. The
// answer here is the local emulator's (infra/local/textract-blocks.ts) for words laid out as a
// statement's header and transaction table, sent through the real Textract client.
import {
  GetDocumentAnalysisCommand,
  StartDocumentAnalysisCommand,
  TextractClient,
} from "@aws-sdk/client-textract";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, describe, expect, it } from "vitest";
import { toBlocks } from "../../../infra/local/textract-blocks.ts";
import { keyValues, tableRows } from "../../../lambdas/documents/blocks.ts";
import { pageModel } from "../../../lambdas/documents/page-model.ts";
import type { OcrPage, OcrRequest, OcrWord } from "../../../lambdas/tools/ocr/engine.ts";
import { createTextractEngine } from "../../../lambdas/tools/ocr/textract.ts";

const textract = mockClient(TextractClient);
const SIZE = { width: 612, height: 792 };

/** Words of one line at baseline `y`: each [text, x], 6 points a character at size 10. */
function line(y: number, ...words: Array<[string, number]>): OcrPage["lines"][number] {
  return {
    words: words.flatMap(([text, x]) => {
      let left = x;
      return text.split(" ").map((word): OcrWord => {
        const placed = { text: word, x: left, y, width: word.length * 6, height: 10, confidence: 93 };
        left += (word.length + 1) * 6;
        return placed;
      });
    }),
  };
}

const SCANNED: OcrPage = {
  page: 1,
  lines: [
    line(740, ["Member:", 40], ["Rosa Delgado-Finch", 160]),
    line(724, ["Acct No:", 40], ["0047-2231", 160]),
    line(680, ["Date", 40], ["Details", 110], ["Withdrawn", 330], ["Deposited", 420], ["Balance", 510]),
    line(664, ["05/03", 40], ["Payroll Saguaro Tile", 110], ["1,204.00", 420], ["3,318.55", 510]),
    line(648, ["05/07", 40], ["Electric bill", 110], ["88.10", 330], ["3,230.45", 510]),
    line(632, ["05/19", 40], ["NSF fee", 110], ["35.00", 330], ["3,195.45", 510]),
  ],
};

const REQUEST: OcrRequest = {
  document: "scans/statement.pdf",
  bytes: new Uint8Array(),
  location: { bucket: "documents", key: "scans/statement.pdf" },
  pages: [1],
  pageSizes: [SIZE],
  requestToken: "run-1/scans/statement.pdf",
};

beforeEach(() => textract.reset());

describe("Textract document analysis with FORMS and TABLES", () => {
  it("asks for FORMS and TABLES, and reads the key–value pairs and tables the analysis answers", async () => {
    const blocks = toBlocks([SCANNED], [SIZE], { signatures: true, forms: true, tables: true });
    expect(new Set(blocks.map((block) => block.BlockType))).toEqual(
      new Set(["PAGE", "LINE", "WORD", "KEY_VALUE_SET", "TABLE", "CELL"]),
    );
    textract.on(StartDocumentAnalysisCommand).resolves({ JobId: "job-1" });
    textract.on(GetDocumentAnalysisCommand).resolves({
      JobStatus: "SUCCEEDED",
      DocumentMetadata: { Pages: 1 },
      Blocks: blocks as never,
    });
    const engine = createTextractEngine(new TextractClient({ region: "us-east-1" }), {
      signatures: true,
      forms: true,
    });
    const [page] = (await engine.recognize(REQUEST)).pages;
    const [start] = textract.commandCalls(StartDocumentAnalysisCommand);
    expect(start?.args[0].input.FeatureTypes).toEqual(["SIGNATURES", "FORMS", "TABLES"]);
    expect(page?.fields?.map((field) => [field.key.text, field.value?.text])).toEqual([
      ["Member:", "Rosa Delgado-Finch"],
      ["Acct No:", "0047-2231"],
    ]);
    const value = page?.fields?.[1]?.value;
    expect(value?.x).toBeCloseTo(160, 0);
    expect(value?.confidence).toBe(93);
    const [table] = page?.tables ?? [];
    const nsf = table?.cells.filter((cell) => cell.row === 4).map((cell) => [cell.column, cell.span.text]);
    expect(nsf).toEqual([
      [1, "05/19"],
      [2, "NSF fee"],
      [3, "35.00"],
      [5, "3,195.45"],
    ]);

    // The document model takes them as Textract found them.
    const model = pageModel(1, SIZE, [], [], [], true, {
      fields: (page?.fields ?? []).map((field) => ({
        key: { text: field.key.text, box: field.key },
        value: field.value ? { text: field.value.text, box: field.value } : null,
      })),
      tables: (page?.tables ?? []).map((found) => ({
        cells: found.cells.map((cell) => ({ ...cell, span: { text: cell.span.text, box: cell.span } })),
      })),
    });
    expect(keyValues(model).map((pair) => [pair.key, pair.value])).toEqual([
      ["Member", "Rosa Delgado-Finch"],
      ["Acct No", "0047-2231"],
    ]);
    expect(tableRows(model)[0]?.[0]).toEqual(["Date", "Details", "Withdrawn", "Deposited", "Balance"]);
  });

  it("leaves FORMS and TABLES out when only signatures are asked for, and text detection asks for none", async () => {
    const blocks = toBlocks([SCANNED], [SIZE], { signatures: true });
    expect(blocks.some((block) => block.BlockType === "KEY_VALUE_SET" || block.BlockType === "TABLE")).toBe(
      false,
    );
    textract.on(StartDocumentAnalysisCommand).resolves({ JobId: "job-2" });
    textract.on(GetDocumentAnalysisCommand).resolves({
      JobStatus: "SUCCEEDED",
      DocumentMetadata: { Pages: 1 },
      Blocks: blocks as never,
    });
    const engine = createTextractEngine(new TextractClient({ region: "us-east-1" }), { signatures: true });
    const [page] = (await engine.recognize(REQUEST)).pages;
    expect(textract.commandCalls(StartDocumentAnalysisCommand)[0]?.args[0].input.FeatureTypes).toEqual([
      "SIGNATURES",
    ]);
    expect(page?.fields).toBeUndefined();
    expect(page?.tables).toBeUndefined();
  });

  it("names the block when a CELL comes in a shape Textract never answers", async () => {
    textract.on(StartDocumentAnalysisCommand).resolves({ JobId: "job-3" });
    textract.on(GetDocumentAnalysisCommand).resolves({
      JobStatus: "SUCCEEDED",
      DocumentMetadata: { Pages: 1 },
      Blocks: [{ BlockType: "CELL", Id: "c-1", Page: 1, RowIndex: 0 } as never],
    });
    const engine = createTextractEngine(new TextractClient({ region: "us-east-1" }), { forms: true });
    await expect(engine.recognize(REQUEST)).rejects.toThrow(/Blocks\[0\] \(CELL\)/);
  });
});
