// Where the offline OCR spends its time: which OCR-read pages get a second look at their unsure
// lines (a Form 1120's later pages that show nothing the conditions read do not), when a cached
// reading answers a request, and the uncompressed image file the pages are handed to tesseract in.
import { describe, expect, it } from "vitest";
import { worthRereading } from "../../../lambdas/agents/loan/ocr-focus.ts";
import { type OcrLine, pageText } from "../../../lambdas/tools/ocr/engine.ts";
import { cachedAnswer, toPgm } from "../../../lambdas/tools/ocr/tesseract.ts";

const line = (...words: string[]): OcrLine => ({
  words: words.map((text, index) => ({ text, x: index * 40, y: 700, width: 30, height: 10, confidence: 90 })),
});

describe("which pages get a second look", () => {
  it("skips a Form 1120 page after the first that shows nothing of Schedule L, a signature or page 1", () => {
    expect(worthRereading("Form 1120 (2025) Page 3\nSchedule J Tax Computation and Payment")).toBe(false);
    // Sparse-text OCR gives the running header's two ends as lines of their own.
    expect(worthRereading("Form 1120 (2025)\nSchedule C Dividends\nPage 2\n1 Dividends from")).toBe(false);
    expect(worthRereading("Form 1120 (2025) Page 4\nSchedule K Other Information")).toBe(false);
    // As a harsh scan reads the header: brackets lost, a digit read as "%".
    expect(worthRereading("Form 1120 202%)\nPage 2\n[EZXXIIXN Dividends, Inclusions")).toBe(false);
    expect(worthRereading("Form 1120 2025)\nPage 3\nIECTXIIEN Tax Computation and Payment")).toBe(false);
    // As phone photos read it: the year's first digits lost, a bracket read as a letter, "Page" as "Pan".
    expect(worthRereading("Form 1120 02%\nPage 2\nDividends,")).toBe(false);
    expect(worthRereading("Form 1120 R02%\nPage 4\nOther information (see instructions)")).toBe(false);
    expect(worthRereading("Form 1120 @02%)\nPan 5\nOther Information (continued)")).toBe(false);
  });

  it("keeps it on page 1, on Schedule L's page however OCR read its title, and on every other document", () => {
    expect(worthRereading("U.S. Corporation Income Tax Return\nForm 1120 (2025)\nSign Here")).toBe(true);
    expect(worthRereading("Form 1120 (2025) Page 6\nSchedule L Balance Sheets per Books")).toBe(true);
    // Words run together and look-alike letters, as harsh scans read the title.
    expect(worthRereading("Form 1120 (2025) Page 6\nBalanceSheets per Books")).toBe(true);
    expect(worthRereading("Form 1120 (2025) Page 6\nSchedu1e L\n1 Cash")).toBe(true);
    expect(worthRereading("Form 1120 (2025) Page 6\n15 Total assets 1,204,118")).toBe(true);
    // A page whose running header was not read, another form, a statement: every page is worth it.
    expect(worthRereading("Schedule J Tax Computation and Payment")).toBe(true);
    expect(worthRereading("Form 1120-S (2025) Page 2\nSchedule B Other Information")).toBe(true);
    expect(worthRereading("Form 1120-S 02%\nPage 2\nSchedule B Other Information")).toBe(true);
    expect(worthRereading("Form 1120 2025)\nPan 6\nBalance Sheets per Books")).toBe(true);
    expect(worthRereading("Statement Period: 03/01/2026 - 03/31/2026\nPage 2 of 3")).toBe(true);
  });
});

describe("a cached page reading", () => {
  const reading = { lines: [line("Form", "1120", "(2025)"), line("Page", "3")], signatures: [] };
  const skipsPageThree = (text: string) => !/Page 3/.test(text);

  it("reads its text as its lines' words, one line a row", () => {
    expect(pageText(reading.lines)).toBe("Form 1120 (2025)\nPage 3");
  });

  it("answers any request once its unsure lines were read again, or when the engine does not re-read", () => {
    expect(cachedAnswer({ reading, reread: "done" }, {})).toBe(reading);
    expect(cachedAnswer({ reading, reread: "off" }, { rereadPage: () => true })).toBe(reading);
  });

  it("without that second look, answers only a request that does not want one for the page", () => {
    expect(cachedAnswer({ reading, reread: "skipped" }, { rereadPage: skipsPageThree })).toBe(reading);
    expect(cachedAnswer({ reading, reread: "skipped" }, { rereadPage: () => true })).toBeUndefined();
    // A request that names no preference wants every page's.
    expect(cachedAnswer({ reading, reread: "skipped" }, {})).toBeUndefined();
  });

  it("of the top band only, answers only a request that does not want the page read whole", () => {
    const skimmed = { reading: { ...reading, skimmed: true as const }, reread: "skimmed" as const };
    expect(cachedAnswer(skimmed, { readWhole: skipsPageThree })).toBe(skimmed.reading);
    expect(cachedAnswer(skimmed, { readWhole: () => true })).toBeUndefined();
    // A request that names no preference wants every page whole.
    expect(cachedAnswer(skimmed, {})).toBeUndefined();
    expect(cachedAnswer(skimmed, { rereadPage: skipsPageThree })).toBeUndefined();
  });
});

describe("the image handed to tesseract", () => {
  it("is a binary PGM whose header fills the first 512 bytes, then the pixels as they are", () => {
    const pixels = new Uint8Array([0, 1, 18, 3, 255, 128]);
    const file = toPgm({ width: 3, height: 2, data: pixels });
    expect(file.length).toBe(512 + pixels.length);
    const header = file.subarray(0, 512).toString("ascii");
    expect(header).toMatch(/^P5\n#[ ]+\n3 2\n255\n$/);
    expect([...file.subarray(512)]).toEqual([...pixels]);
  });
});
