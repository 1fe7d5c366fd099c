// Synthetic pages for the page-preparation tests: a letter-size page at 100 dpi drawn with a real
// font (a title and 40 lines of words in a seeded order), whose skew, turn, perspective and lighting
// the tests then set, so what the preparation finds is checked against how the page was made.
import { createCanvas } from "@napi-rs/canvas";
import { seededRandom } from "../../../lambdas/core/seeded-random.ts";
import type { GreyImage } from "../../../lambdas/tools/ocr/prepare.ts";

export interface TextPageOptions {
  seed: number;
  /** The title and where it starts. */
  title: readonly [string, number];
  /** The words the lines are drawn from. */
  words: readonly string[];
  /** A right-aligned column of figures, as on a statement. */
  amounts?: boolean;
  /** A ruled box near the foot of the page. */
  box?: boolean;
}

export function textPage(options: TextPageOptions): GreyImage {
  const width = 850;
  const height = 1100;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#000000";
  ctx.font = "bold 28px sans-serif";
  ctx.fillText(options.title[0], options.title[1], 80);
  ctx.font = "16px sans-serif";
  const random = seededRandom(options.seed);
  const { words } = options;
  for (let line = 0; line < 40; line++) {
    const chosen = Array.from({ length: 6 }, () => words[Math.floor(random() * words.length)]);
    ctx.fillText(`${line + 1}  ${chosen.join(" ")} ${Math.floor(random() * 90000)}`, 80, 140 + line * 23);
    if (options.amounts) {
      ctx.textAlign = "right";
      ctx.fillText((random() * 9000).toFixed(2), 780, 140 + line * 23);
      ctx.textAlign = "left";
    }
  }
  if (options.box) {
    ctx.lineWidth = 2;
    ctx.strokeRect(60, 1070 - 60, 730, 50);
  }
  return greyOf(ctx.getImageData(0, 0, width, height));
}

/** The red channel of an RGBA canvas image, as grey. */
export function greyOf(pixels: { width: number; height: number; data: Uint8ClampedArray }): GreyImage {
  const data = new Uint8Array(pixels.width * pixels.height);
  for (let i = 0; i < data.length; i++) data[i] = pixels.data[i * 4] as number;
  return { width: pixels.width, height: pixels.height, data };
}
