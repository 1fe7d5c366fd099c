// The second look at unsure lines: which lines are read again, what the crop is, how the words
// read in the crop are put back on the page, and when the second reading is kept. The reading
// itself is given (here a stand-in that answers from the crop's size); tesseract's own second
// reading of a real scan is measured in BENCHMARKS.md ("Scans by degradation").
import { describe, expect, it } from "vitest";
import type { OcrLine } from "../../../lambdas/tools/ocr/engine.ts";
import type { GreyImage } from "../../../lambdas/tools/ocr/prepare.ts";
import { REREAD_MAX_LINES, rereadUnsureLines } from "../../../lambdas/tools/ocr/reread.ts";

const SCALE = 2; // pixels a point
const PAGE: GreyImage = {
  width: 612 * SCALE,
  height: 792 * SCALE,
  data: new Uint8Array(612 * 792 * 4).fill(255),
};

const line = (y: number, ...words: Array<[string, number, number]>): OcrLine => ({
  words: words.map(([text, x, confidence]) => ({
    text,
    x,
    y,
    width: text.length * 6,
    height: 10,
    confidence,
  })),
});

describe("re-reading unsure lines", () => {
  it("reads again only lines with a word below 80, and puts the new words back where the line stands", async () => {
    const crops: Array<{ width: number; height: number; scale: number }> = [];
    const lines = [
      line(700, ["Harborview", 60, 95], ["Marine", 130, 92]),
      line(650, ["Margarct", 60, 49], ["A.", 120, 88], ["Lindqvist", 140, 71]),
    ];
    const result = await rereadUnsureLines(lines, PAGE, SCALE, async (crop, scale) => {
      crops.push({ width: crop.width, height: crop.height, scale });
      // The crop's own coordinates: the line starts a little in from the crop's left edge.
      return [line(4, ["Margaret", 6, 94], ["A.", 60, 93], ["Lindqvist", 80, 92])];
    });
    expect(result).toMatchObject({ reread: 1, replaced: 1 });
    expect(crops).toHaveLength(1);
    // Enlarged twice, read at twice the page's scale.
    expect(crops[0]?.scale).toBe(2 * SCALE);
    expect(result.lines[0]).toBe(lines[0]);
    const words = result.lines[1]?.words ?? [];
    expect(words.map((word) => word.text)).toEqual(["Margaret", "A.", "Lindqvist"]);
    // Crop origin: the line's left edge less 0.6 of its height, its bottom less 0.45 of it.
    expect(words[0]?.x).toBeCloseTo(60 - 6 + 6, 0);
    expect(words[0]?.y).toBeCloseTo(650 - 4.5 + 4, 0);
  });

  it("keeps the first reading unless the second is clearly surer and keeps the line's content", async () => {
    const lines = [line(650, ["84-2917365", 430, 70])];
    const notSurer = await rereadUnsureLines(lines, PAGE, SCALE, async () => [
      line(3, ["84-2917365", 5, 73]),
    ]);
    expect(notSurer.replaced).toBe(0);
    expect(notSurer.lines[0]).toBe(lines[0]);
    const lostContent = await rereadUnsureLines(lines, PAGE, SCALE, async () => [line(3, ["84", 5, 97])]);
    expect(lostContent.replaced).toBe(0);
    const nothing = await rereadUnsureLines(lines, PAGE, SCALE, async () => []);
    expect(nothing.lines[0]).toBe(lines[0]);
  });

  it("drops what the margin caught of a neighbouring line, and refuses a reading that adds text", async () => {
    const lines = [line(650, ["Payroll", 60, 62], ["2,310.44", 300, 70])];
    // Crop origin y = 650 - 4.5; a word at crop y 14 sits at 659.5, centred above the line's top (660).
    const caught = await rereadUnsureLines(lines, PAGE, SCALE, async () => [
      line(4, ["Payroll", 6, 95], ["2,310.44", 246, 96]),
      line(14, ["Rent", 6, 90]),
      line(4, ["~", 200, 12]),
    ]);
    expect(caught.replaced).toBe(1);
    expect(caught.lines[0]?.words.map((word) => word.text)).toEqual(["Payroll", "2,310.44"]);
    const added = await rereadUnsureLines(lines, PAGE, SCALE, async () => [
      line(4, ["Payroll", 6, 95], ["Harbor", 50, 95], ["Freight", 90, 95], ["2,310.44", 246, 96]),
    ]);
    expect(added.replaced).toBe(0);
  });

  it(`reads at most ${REREAD_MAX_LINES} lines a page, the least sure first, and skips slivers at the page's edge`, async () => {
    const many = Array.from({ length: REREAD_MAX_LINES + 4 }, (_, index) =>
      line(100 + index * 20, [`word${index}`, 100, 40 + index]),
    );
    const read: number[] = [];
    await rereadUnsureLines(many, PAGE, SCALE, async (crop) => {
      read.push(crop.height);
      return [];
    });
    expect(read).toHaveLength(REREAD_MAX_LINES);
    const edge = await rereadUnsureLines([line(797, ["ll", 300, 20])], PAGE, SCALE, async () => {
      throw new Error("a sliver must not be read");
    });
    // Unsure, so looked at, but its crop is a sliver: not read, kept as it was.
    expect(edge).toMatchObject({ reread: 1, replaced: 0 });
  });
});
