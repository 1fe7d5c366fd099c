// The offline OCR engine reads only the pages it is asked for, answers a page it has read before
// from its cache (by the page image's content), turns a page scanned upside down or sideways
// upright before reading it, and refuses a page the document does not have. Real tesseract.js on
// small image-only pages made here.
import { createCanvas } from "@napi-rs/canvas";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { worthRereading } from "../../../lambdas/agents/loan/ocr-focus.ts";
import { extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { OcrDocumentError, type OcrRequest } from "../../../lambdas/tools/ocr/engine.ts";
import { createTesseractEngine } from "../../../lambdas/tools/ocr/tesseract.ts";

const PAGE_LINES = [
  ["Form 1120 U.S. Corporation Income Tax Return", "Employer identification number 84-2917365"],
  ["Harborview Marine Supply, Inc.", "1187 Fore Street, Portland, Maine"],
  ["Statement period March 2026", "Opening balance 12,480.55"],
];

/** A 5 × 2.5 inch image-only page at 200 dpi with its lines, turned by `quarterTurns` on the glass. */
async function scannedPage(lines: string[], quarterTurns: 0 | 1 | 2): Promise<Uint8Array> {
  const width = 1000;
  const height = 500;
  const text = createCanvas(width, height);
  const ctx = text.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#000000";
  ctx.font = "36px sans-serif";
  lines.forEach((line, index) => {
    ctx.fillText(line, 40, 120 + index * 80);
  });
  const sideways = quarterTurns === 1;
  const page = createCanvas(sideways ? height : width, sideways ? width : height);
  const out = page.getContext("2d");
  out.translate(page.width / 2, page.height / 2);
  out.rotate((quarterTurns * Math.PI) / 2);
  out.drawImage(text, -width / 2, -height / 2);
  return page.encode("png");
}

async function scannedDocument(turns: Array<0 | 1 | 2>): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const [index, lines] of PAGE_LINES.entries()) {
    const quarterTurns = turns[index] ?? 0;
    const png = await pdf.embedPng(await scannedPage(lines, quarterTurns));
    const [width, height] = quarterTurns === 1 ? [180, 360] : [360, 180];
    pdf.addPage([width, height]).drawImage(png, { x: 0, y: 0, width, height });
  }
  return pdf.save();
}

function request(bytes: Uint8Array, pages: number[]): OcrRequest {
  return {
    document: "scan.pdf",
    bytes,
    location: { bucket: "", key: "scan.pdf" },
    pages,
    pageSizes: PAGE_LINES.map(() => ({ width: 360, height: 180 })),
    requestToken: "scan.pdf",
  };
}

/** A Form 1120's pages as a scan of 200 dpi: each with a header (its top band) and a line of body. */
const RETURN_PAGES = {
  one: {
    header: ["Form 1120 U.S. Corporation Income Tax Return", "For calendar year 2025"],
    body: "Employer identification number 84-2917365",
  },
  two: {
    header: ["Form 1120 (2025) Page 2", "Schedule C Dividends"],
    body: "Dividends from domestic corporations 4,120",
  },
  three: { header: ["Form 1120 (2025) Page 3", "Schedule J Tax Computation"], body: "Income tax 31,311" },
  four: {
    header: ["Form 1120 (2025) Page 4", "Schedule K Other Information"],
    body: "Business activity code 423910",
  },
  five: {
    header: ["Form 1120 (2025) Page 5", "Schedule K Continued"],
    body: "Enter the available NOL carryover",
  },
  six: {
    header: ["Form 1120 (2025) Page 6", "Schedule L Balance Sheets per Books"],
    body: "Total assets 1,375,550",
  },
};

async function scannedReturn(
  pages: Array<{ header: string[]; body: string }>,
  upsideDown = false,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const { header, body } of pages) {
    const canvas = createCanvas(1000, 500);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, 1000, 500);
    ctx.fillStyle = "#000000";
    ctx.font = "30px sans-serif";
    for (const [index, line] of header.entries()) ctx.fillText(line, 40, 60 + index * 45);
    ctx.fillText(body, 40, 420);
    const sheet = createCanvas(1000, 500);
    const turned = sheet.getContext("2d");
    if (upsideDown) {
      turned.translate(1000, 500);
      turned.rotate(Math.PI);
    }
    turned.drawImage(canvas, 0, 0);
    const png = await pdf.embedPng(await sheet.encode("png"));
    pdf.addPage([360, 180]).drawImage(png, { x: 0, y: 0, width: 360, height: 180 });
  }
  return pdf.save();
}

const textOf = (lines: Array<{ words: Array<{ text: string }> }>) =>
  lines.map((line) => line.words.map((word) => word.text).join(" ")).join("\n");

describe("tesseract engine", () => {
  it("reads only the requested pages, and answers a page read before from its cache", async () => {
    const engine = createTesseractEngine({ workers: 1, idleMs: 0 });
    const bytes = await scannedDocument([0, 0, 0]);
    const first = await engine.recognize(request(bytes, [2]));
    expect(first.pages.map((page) => page.page)).toEqual([2]);
    expect(textOf(first.pages[0]?.lines ?? [])).toContain("Harborview Marine");
    expect(engine.stats).toMatchObject({ pagesRead: 1, cacheHits: 0 });
    // Rendered at the scan's own 200 dpi, the words still land in PDF points on the 360 × 180 page.
    const words = first.pages[0]?.lines.flatMap((line) => line.words) ?? [];
    expect(words.length).toBeGreaterThan(3);
    for (const word of words) {
      expect(word.x).toBeGreaterThanOrEqual(0);
      expect(word.x + word.width).toBeLessThanOrEqual(360);
      expect(word.y).toBeGreaterThan(0);
      expect(word.y).toBeLessThan(180);
    }
    // The first line sits 120 px of 500 from the top: about 137 points above the bottom.
    const harborview = words.find((word) => word.text.startsWith("Harborview"));
    expect(harborview?.y).toBeGreaterThan(120);
    expect(harborview?.y).toBeLessThan(150);

    const again = await engine.recognize(request(bytes, [2]));
    expect(engine.stats).toMatchObject({ pagesRead: 1, cacheHits: 1 });
    expect(again.pages).toEqual(first.pages);

    // Through the document reader: only page 3 of the three blank pages is asked for.
    const extracted = await extractPdfText(bytes, "scan.pdf", { ocr: engine, ocrPages: [3] });
    expect(extracted.ocr?.pages).toEqual([3]);
    expect(extracted.page_sources?.map((source) => source.source)).toEqual(["none", "none", "ocr"]);
    expect(extracted.pages[2]).toContain("Opening balance");
    expect(engine.stats.pagesRead).toBe(2);
  }, 120_000);

  it("gives a page's unsure lines a second look only where the request wants one, and caches accordingly", async () => {
    const engine = createTesseractEngine({ workers: 1, idleMs: 0 });
    const bytes = await scannedDocument([0, 0, 0]);
    const asked: string[] = [];
    const notPageTwo = (text: string) => {
      asked.push(text);
      return !text.includes("Harborview");
    };
    const plain = await engine.recognize({ ...request(bytes, [1, 2]), rereadPage: notPageTwo });
    expect(asked).toHaveLength(2);
    expect(asked.find((text) => text.includes("Harborview"))).toContain("Marine Supply");
    expect(engine.stats).toMatchObject({ pagesRead: 2, pagesNotReread: 1 });
    expect(textOf(plain.pages[1]?.lines ?? [])).toContain("Harborview Marine");

    // The same wish is answered from the cache; a request wanting every page's reads page 2 again.
    await engine.recognize({ ...request(bytes, [2]), rereadPage: notPageTwo });
    expect(engine.stats).toMatchObject({ pagesRead: 2, cacheHits: 1 });
    await engine.recognize(request(bytes, [2]));
    expect(engine.stats).toMatchObject({ pagesRead: 3, cacheHits: 1, pagesNotReread: 1 });
  }, 120_000);

  it("reads a page the request does not want whole by its top band only, and caches accordingly", async () => {
    const engine = createTesseractEngine({ workers: 1, idleMs: 0 });
    const bytes = await scannedReturn([RETURN_PAGES.one, RETURN_PAGES.two, RETURN_PAGES.six]);
    const headers: string[] = [];
    const readWhole = (top: string) => {
      headers.push(top);
      return worthRereading(top);
    };
    const { pages } = await engine.recognize({ ...request(bytes, [1, 2, 3]), readWhole });
    expect(headers).toHaveLength(3);
    expect(pages.map((page) => page.skimmed ?? false)).toEqual([false, true, false]);
    // Page 2's header is read, its body is not; pages 1 and 6 are read whole.
    expect(textOf(pages[1]?.lines ?? [])).toMatch(/Page 2/);
    expect(textOf(pages[1]?.lines ?? [])).not.toContain("domestic");
    expect(textOf(pages[0]?.lines ?? [])).toContain("84-2917365");
    expect(textOf(pages[2]?.lines ?? [])).toContain("1,375,550");
    expect(engine.stats).toMatchObject({ pagesRead: 2, pagesSkimmed: 1 });
    // The skimmed reading answers the same wish; a request wanting the page whole reads it whole.
    await engine.recognize({ ...request(bytes, [2]), readWhole });
    expect(engine.stats).toMatchObject({ pagesRead: 2, pagesSkimmed: 1, cacheHits: 1 });
    const whole = await engine.recognize(request(bytes, [2]));
    expect(whole.pages[0]?.skimmed).toBeUndefined();
    expect(textOf(whole.pages[0]?.lines ?? [])).toContain("domestic");
    expect(engine.stats).toMatchObject({ pagesRead: 3, pagesSkimmed: 1 });
  }, 120_000);

  it("turns a page upside down before judging its header, and skims it once upright", async () => {
    const engine = createTesseractEngine({ workers: 1, idleMs: 0 });
    const bytes = await scannedReturn([RETURN_PAGES.one, RETURN_PAGES.two], true);
    const { pages } = await engine.recognize({ ...request(bytes, [1, 2]), readWhole: worthRereading });
    expect(pages.map((page) => page.skimmed ?? false)).toEqual([false, true]);
    expect(textOf(pages[0]?.lines ?? [])).toContain("84-2917365");
    expect(textOf(pages[1]?.lines ?? [])).toMatch(/Page 2/);
    expect(engine.stats).toMatchObject({ pagesRead: 1, pagesSkimmed: 1 });
  }, 120_000);

  it("the document reader skims a return's pages no condition reads, and reads them whole when page 1 or Schedule L is not elsewhere", async () => {
    const engine = createTesseractEngine({ workers: 1, idleMs: 0 });
    const { one, two, three, four, five, six } = RETURN_PAGES;
    const skimmedOf = (document: { page_sources?: Array<{ source: string; skimmed?: true }> }) =>
      document.page_sources?.map((source) => source.skimmed === true);
    const complete = await extractPdfText(await scannedReturn([one, two, three, four, six]), "return.pdf", {
      ocr: engine,
    });
    expect(skimmedOf(complete)).toEqual([false, true, true, true, false]);
    expect(complete.ocr?.skimmed).toEqual([2, 3, 4]);
    expect(complete.pages[1]).not.toContain("domestic");
    expect(complete.pages[4]).toContain("1,375,550");
    // Without Schedule L on a page read whole, a skimmed page may hold it: they are read whole.
    const partial = await extractPdfText(await scannedReturn([one, two, three, four, five]), "partial.pdf", {
      ocr: engine,
    });
    expect(skimmedOf(partial)).toEqual([false, false, false, false, false]);
    expect(partial.ocr?.skimmed).toBeUndefined();
    expect(partial.pages[1]).toContain("domestic");
    // A short document is read whole (the bands would cost more than they save), unless asked.
    const short = await scannedReturn([one, two, six]);
    expect(skimmedOf(await extractPdfText(short, "short.pdf", { ocr: engine }))).toEqual([
      false,
      false,
      false,
    ]);
    // (A fresh engine: the whole readings cached above would answer, and rightly.)
    const asked = await extractPdfText(short, "short.pdf", {
      ocr: createTesseractEngine({ workers: 1, idleMs: 0 }),
      readWhole: worthRereading,
    });
    expect(skimmedOf(asked)).toEqual([false, true, false]);
    // Skimming can be switched off.
    const unskimmed = await extractPdfText(await scannedReturn([one, two, three, four, six]), "all.pdf", {
      ocr: createTesseractEngine({ workers: 1, idleMs: 0 }),
      readWhole: null,
    });
    expect(skimmedOf(unskimmed)).toEqual([false, false, false, false, false]);
    expect(unskimmed.pages[1]).toContain("domestic");
  }, 180_000);

  it("turns pages scanned upside down and sideways upright before reading them", async () => {
    const engine = createTesseractEngine({ workers: 1, idleMs: 0, cachePages: 0 });
    const bytes = await scannedDocument([2, 1, 0]);
    const { pages } = await engine.recognize(request(bytes, [1, 2]));
    expect(textOf(pages[0]?.lines ?? [])).toContain("84-2917365");
    expect(textOf(pages[1]?.lines ?? [])).toContain("Harborview Marine");
  }, 120_000);

  it("refuses a page the document does not have, naming it", async () => {
    const engine = createTesseractEngine({ workers: 1, idleMs: 0 });
    const bytes = await scannedDocument([0, 0, 0]);
    await expect(engine.recognize(request(bytes, [4]))).rejects.toThrow(OcrDocumentError);
    await expect(engine.recognize(request(bytes, [4]))).rejects.toThrow(/has 3 pages; page 4/);
    expect(() => createTesseractEngine({ dpi: 20 })).toThrow(/dpi must be 72-600/);
    expect(() => createTesseractEngine({ pageSegmentation: 14 })).toThrow(/pageSegmentation/);
  });
});
