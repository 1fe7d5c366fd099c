// A scanned form's box edges, read by OCR as "|" or "[|" between two fields: no text of their own,
// but a boundary. The field after the edge starts a column of its own (so the name in the box is
// read apart from the checkbox caption beside it), and the edge's low confidence is nobody's.
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import type { OcrEngine, OcrWord } from "../../../lambdas/tools/ocr/engine.ts";

const word = (text: string, x: number, confidence = 94): OcrWord => ({
  text,
  x,
  y: 700,
  width: text.length * 5,
  height: 9,
  confidence,
});

const engine: OcrEngine = {
  name: "tesseract",
  recognize: async (request) => ({
    engine: "tesseract",
    pages: request.pages.map((page) => ({
      page,
      lines: [
        {
          words: [
            word("(attach", 40),
            word("Form", 80),
            word("851)", 105),
            word("[|", 127, 22),
            word("Harborview", 140),
            word("Marine", 193),
            word("|", 230, 41),
            word("84-2917365", 236),
          ],
        },
      ],
    })),
  }),
};

describe("box edges read by OCR", () => {
  it("part the fields beside them and leave the text and the cells' confidence", async () => {
    const document = await PDFDocument.create();
    document.addPage([612, 792]);
    const extracted = await extractPdfText(await document.save(), "scan.pdf", { ocr: engine });
    expect(extracted.pages[0]).toBe("(attach Form 851)  Harborview Marine  84-2917365");
    expect(extracted.cells?.[0]?.[0]?.map((cell) => [cell.text, cell.confidence])).toEqual([
      ["(attach Form 851)", 94],
      ["Harborview Marine", 94],
      ["84-2917365", 94],
    ]);
  });
});
