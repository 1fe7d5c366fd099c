// Fields read again where the reader expects them: how a probe's band is cut into value boxes (at
// a box's edge and at the white between values, under the text above them, without the rule under
// them), which boxes are read again, and when the second reading stands. The band is a Sign Here
// block drawn here; the reading is a stand-in that answers by the box read, so what is asserted is
// the geometry and the choice. tesseract's reading of real scans is measured in BENCHMARKS.md
// ("Scans by degradation").
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import {
  businessNameProbes,
  einCaptionProbes,
  signatureProbes,
} from "../../../lambdas/agents/loan/ocr-focus.ts";
import type { OcrLine, OcrProbe } from "../../../lambdas/tools/ocr/engine.ts";
import { crop, type GreyImage } from "../../../lambdas/tools/ocr/prepare.ts";
import { boxesOf, readProbes } from "../../../lambdas/tools/ocr/probe.ts";
import { greyOf } from "./synthetic-page.ts";

const SCALE = 2; // pixels a point
const WIDTH = 600;
const HEIGHT = 140;

/** A white WIDTH × HEIGHT point page at SCALE, drawn on in black by `draw`. */
function drawn(draw: (ctx: SKRSContext2D) => void): GreyImage {
  const canvas = createCanvas(WIDTH * SCALE, HEIGHT * SCALE);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = "#000000";
  draw(ctx);
  return greyOf(ctx.getImageData(0, 0, canvas.width, canvas.height));
}

/**
 * A Sign Here block, 600 × 140 points at 2 pixels a point: the declaration's last line, then the
 * signer, a box edge and the date, and the title on one row above a rule, and the captions under it.
 */
function signHere(): GreyImage {
  return drawn((ctx) => {
    ctx.font = "14px sans-serif";
    ctx.fillText(
      "complete. Declaration of preparer is based on all information of which preparer has any",
      40,
      40,
    );
    ctx.font = "italic 24px serif";
    ctx.fillText("Margaret A. Lindqvist", 60, 84);
    ctx.font = "22px sans-serif";
    ctx.fillText("03/12/2026", 530, 84);
    ctx.fillText("President", 700, 84);
    ctx.fillRect(516, 60, 3, 40); // the date box's left edge, down to the rule
    ctx.fillRect(40, 96, 1000, 3); // the signature line
    ctx.font = "16px sans-serif";
    ctx.fillText("Signature of officer", 60, 118);
    ctx.fillText("Date", 530, 118);
    ctx.fillText("Title", 700, 118);
  });
}

const word = (text: string, x: number, y: number, confidence: number, width = text.length * 5) => ({
  text,
  x,
  y,
  width,
  height: 8,
  confidence,
});

/** The band above the captions: their top is 118 − 12 pixels down, i.e. 87 points up. */
const PROBE: OcrProbe = { x: 10, right: 590, y: 88, top: 110, textHeight: 8 };

describe("the boxes of a probe's band", () => {
  it("parts the values at the box edge and the white between them, under the line above and over the rule", () => {
    const image = signHere();
    const band = crop(image, PROBE.x * SCALE, (HEIGHT - PROBE.top) * SCALE, 580 * SCALE, 22 * SCALE);
    const boxes = boxesOf(band, 8 * SCALE).map((box) => ({
      // Back in page pixels, to compare with where the values were drawn.
      left: box.left + PROBE.x * SCALE,
      right: box.right + PROBE.x * SCALE,
      top: box.top + (HEIGHT - PROBE.top) * SCALE,
      bottom: box.bottom + (HEIGHT - PROBE.top) * SCALE,
    }));
    expect(boxes).toHaveLength(3);
    const [signer, date, title] = boxes;
    // The signer: its own box, clear of the box edge at 516.
    expect(signer?.left).toBeLessThanOrEqual(60);
    expect(signer?.right).toBeLessThan(516);
    // The date: right of the edge, up to the title.
    expect(date?.left).toBeGreaterThan(518);
    expect(date?.left).toBeLessThanOrEqual(530);
    expect(date?.right).toBeLessThan(700);
    expect(title?.left).toBeGreaterThan(date?.right ?? Number.POSITIVE_INFINITY);
    // Each box holds its row only: not the declaration (baseline 40) nor the rule (96).
    for (const box of boxes) {
      expect(box.top).toBeGreaterThan(42);
      expect(box.bottom).toBeLessThan(97);
    }
  });
});

describe("reading a probe's boxes again", () => {
  const image = signHere();

  it("reads the boxes the first reading left empty or unsure and puts their words on the page", async () => {
    const crops: Array<{ width: number; height: number; scale: number }> = [];
    // The first reading: the signer read surely, the date misread, the title not at all.
    const lines: OcrLine[] = [{ words: [word("Margaret", 32, 98, 95, 50), word("A.", 85, 98, 93, 10)] }];
    lines[0]?.words.push(word("Lindqvist", 98, 98, 91, 45));
    lines.push({ words: [word("loanazoze", 266, 98, 12, 40)] });
    const result = await readProbes(lines, [PROBE], image, SCALE, async (piece, scale) => {
      crops.push({ width: piece.width, height: piece.height, scale });
      const text = crops.length === 1 ? "03/12/2026" : "President";
      return [{ words: [word(text, 4, 3, 93)] }];
    });
    // The signer's box was read surely the first time: two boxes read, three times enlarged.
    expect(result.boxes).toBe(2);
    expect(crops.map((piece) => piece.scale)).toEqual([3 * SCALE, 3 * SCALE]);
    expect(result.replaced).toBe(2);
    const words = result.lines.flatMap((line) => line.words);
    expect(words.map((entry) => entry.text).sort()).toEqual(
      ["03/12/2026", "A.", "Lindqvist", "Margaret", "President"].sort(),
    );
    // The misreading is gone; the date stands right of the box edge (258 points), on the row.
    const date = words.find((entry) => entry.text === "03/12/2026");
    expect(date?.x).toBeGreaterThan(259);
    expect(date?.x).toBeLessThan(270);
    expect(date?.y).toBeGreaterThan(88);
    expect(date?.y).toBeLessThan(100);
  });

  it("keeps the first reading where the second is no surer, and reads nothing without probes", async () => {
    const lines: OcrLine[] = [
      {
        words: [
          word("Margaret", 32, 98, 95, 50),
          word("A.", 85, 98, 93, 10),
          word("Lindqvist", 98, 98, 91, 45),
        ],
      },
      { words: [word("03/12/2026", 266, 98, 70, 40), word("President", 350, 98, 90, 45)] },
    ];
    const notSurer = await readProbes(lines, [PROBE], image, SCALE, async () => [
      { words: [word("03/12/2028", 4, 3, 60)] },
    ]);
    expect(notSurer).toMatchObject({ boxes: 1, replaced: 0 });
    expect(notSurer.lines.flatMap((line) => line.words).map((entry) => entry.text)).toContain("03/12/2026");
    let calls = 0;
    const none = await readProbes(lines, [], image, SCALE, async () => {
      calls++;
      return [];
    });
    expect(calls).toBe(0);
    expect(none.lines).toEqual(lines);
  });
});

describe("a name whose first word a scan lost", () => {
  /** The name's row of a Form 1120 page 1: a box edge, then the name in its box. */
  function nameRow(): GreyImage {
    return drawn((ctx) => {
      ctx.font = "14px sans-serif";
      ctx.fillText("(attach Form 851)", 40, 84);
      ctx.fillRect(236, 40, 3, 70); // the name box's left edge
      ctx.font = "20px sans-serif";
      ctx.fillText("Harborview Marine Supply, Inc.", 250, 84);
    });
  }

  it("is looked for left of what was read, and read again although every word read was sure", async () => {
    // The first reading: "Harborview" lost beside the box edge, the rest read surely.
    const lines: OcrLine[] = [
      {
        words: [
          word("(attach", 20, 96, 90, 30),
          word("Form", 52, 96, 92, 18),
          word("851)", 72, 96, 91, 14),
          word("Marine", 180, 96, 94, 32),
          word("Supply,", 215, 96, 92, 36),
          word("Inc.", 255, 96, 90, 18),
        ],
      },
    ];
    const probes = businessNameProbes(lines, { width: WIDTH, height: HEIGHT });
    // The name's row, and the row of its caption above it ("Name", which scans lose).
    expect(probes).toHaveLength(2);
    expect(probes[0]?.x).toBeLessThan(125);
    expect(probes[1]?.y).toBeGreaterThan(104);
    const crops: number[] = [];
    const result = await readProbes(lines, probes, nameRow(), SCALE, async (piece) => {
      crops.push(piece.width);
      // tesseract's single-line reading: its first word's box reaches over the words after it.
      return [
        {
          words: [
            word("Harborview", 4, 3, 93, 140),
            word("Marne", 60, 3, 91, 32),
            word("Supply,", 95, 3, 90, 36),
            word("Inc.", 135, 3, 88, 18),
          ],
        },
      ];
    });
    // Only the name's box was read: the caption's box was read surely from end to end.
    expect(crops).toHaveLength(1);
    const row = result.lines.find((line) => line.words.some((entry) => entry.text === "Harborview"));
    // Word by word in order, the surer reading: "Marine" stays, "Harborview" is added before it.
    expect(row?.words.map((entry) => entry.text)).toEqual(["Harborview", "Marine", "Supply,", "Inc."]);
    const [first, second] = row?.words ?? [];
    expect((first?.x ?? 0) + (first?.width ?? 0)).toBeLessThan(second?.x ?? 0);
    expect(
      businessNameProbes([{ words: [word("Personal", 20, 96, 90), word("company", 80, 96, 90)] }], {
        width: WIDTH,
        height: HEIGHT,
      }),
    ).toEqual([]);
  });
});

describe("the caption above an EIN", () => {
  it("is looked for in the row just above each EIN-shaped value, reaching right", () => {
    const probes = einCaptionProbes(
      [{ words: [word("84-2917365", 330, 700, 90, 45), word("12345", 100, 700, 90, 20)] }],
      { width: 612, height: 792 },
    );
    expect(probes).toHaveLength(1);
    expect(probes[0]).toMatchObject({ x: 324, right: 530 });
    expect(probes[0]?.y).toBeGreaterThan(708);
    expect(probes[0]?.top).toBeLessThan(720);
  });
});

describe("where the officer's values are looked for", () => {
  it("is the band just above each Signature of officer caption, as a scan reads it, to the right margin", () => {
    const caption: OcrLine = {
      words: [word("Here", 20, 90, 90), word("Sgratureof", 60, 90, 40, 45), word("officer", 108, 90, 88, 30)],
    };
    const probes = signatureProbes(
      [{ words: [word("Compensation", 60, 600, 95), word("of", 130, 600, 95)] }, caption],
      {
        width: 612,
        height: 792,
      },
    );
    expect(probes).toHaveLength(1);
    const [probe] = probes;
    // The caption's top is at 98; the values stand within about two and a half caption heights above it.
    expect(probe?.y).toBeGreaterThan(98);
    expect(probe?.top).toBeGreaterThan(110);
    expect(probe?.top).toBeLessThan(125);
    expect(probe?.x).toBeLessThan(60);
    expect(probe?.right).toBe(612 - 18);
    expect(probe?.textHeight).toBe(8);
    expect(
      signatureProbes(
        [
          {
            words: [
              word("Compensation", 60, 600, 95),
              word("of", 130, 600, 95),
              word("officers", 150, 600, 95),
            ],
          },
        ],
        { width: 612, height: 792 },
      ),
    ).toEqual([]);
  });
});
