// Handwriting on a scanned page: ink no OCR word explains, shaped like pen strokes. A page is drawn
// the way a scanner sees it (grey pixels at 150 dpi): printed words, a signature line, a box, a
// speck, and a hand signature crossing its line; only the signature is a mark.
import { createCanvas } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { type GreyImage, handwrittenMarks, type InkBox } from "../../../lambdas/documents/ink.ts";

const DPI = 150;
const SCALE = DPI / 72;
const PAGE = { width: 612, height: 792 };

/** Draws on a page in PDF points (origin bottom left) and returns the grey raster and the printed words. */
function page(draw: (context: import("@napi-rs/canvas").SKRSContext2D) => void): GreyImage {
  const canvas = createCanvas(Math.round(PAGE.width * SCALE), Math.round(PAGE.height * SCALE));
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.setTransform(SCALE, 0, 0, -SCALE, 0, canvas.height);
  context.fillStyle = "#000";
  context.strokeStyle = "#000";
  draw(context);
  const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const data = new Uint8Array(canvas.width * canvas.height);
  for (let index = 0; index < data.length; index++) data[index] = rgba[index * 4] ?? 255;
  return { width: canvas.width, height: canvas.height, data };
}

/** Printed text drawn upright at (x, y) in points; returns the word's box as an OCR engine would give it. */
function printed(
  context: import("@napi-rs/canvas").SKRSContext2D,
  text: string,
  x: number,
  y: number,
): InkBox {
  context.save();
  context.translate(x, y);
  context.scale(1, -1);
  context.font = "8px sans-serif";
  context.fillText(text, 0, 0);
  const width = context.measureText(text).width;
  context.restore();
  return { x, y: y - 2, right: x + width, top: y + 7 };
}

function form(signature: "hand" | "none") {
  const words: InkBox[] = [];
  const image = page((context) => {
    words.push(
      printed(context, "Under penalties of perjury, I declare that I have examined this return", 72, 168),
    );
    words.push(printed(context, "Signature of officer", 74, 126));
    words.push(printed(context, "Date", 290, 126));
    // The signature line and a box around the Sign Here block.
    context.lineWidth = 0.6;
    context.beginPath();
    context.moveTo(72, 134);
    context.lineTo(560, 134);
    context.stroke();
    context.strokeRect(40, 110, 530, 70);
    // A speck of scanner dust.
    context.fillRect(400, 150, 0.8, 0.8);
    if (signature === "hand") {
      context.lineWidth = 1.4;
      context.beginPath();
      context.moveTo(100, 132);
      context.bezierCurveTo(112, 160, 124, 120, 140, 148);
      context.bezierCurveTo(150, 162, 166, 126, 190, 140);
      context.stroke();
    }
  });
  return { image, words };
}

describe("handwritten marks on a scan", () => {
  it("finds a hand signature crossing its line, and nothing else on the page", () => {
    const { image, words } = form("hand");
    const marks = handwrittenMarks(image, { scale: SCALE, pageHeight: PAGE.height }, words);
    expect(marks).toHaveLength(1);
    const [mark] = marks;
    expect(mark?.x).toBeGreaterThan(95);
    expect(mark?.right).toBeLessThan(196);
    expect(mark?.y).toBeGreaterThan(125);
    expect(mark?.top).toBeLessThan(166);
  });

  it("sees no handwriting on the same form left blank: print, rules, the box and specks are not ink", () => {
    const { image, words } = form("none");
    expect(handwrittenMarks(image, { scale: SCALE, pageHeight: PAGE.height }, words)).toEqual([]);
  });
});
