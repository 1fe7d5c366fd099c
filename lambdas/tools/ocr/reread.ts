// A second look where OCR was unsure: each line with a word read below the bar is cropped from the
// page image, enlarged, and read again as a single line; the second reading replaces the first when
// it is clearly surer and keeps the line's content. Small boxed fields of a scanned form (a name, an
// EIN, a typed signature) are read far better on their own, at a larger size, than within the page.
import type { OcrLine, OcrWord } from "./engine.ts";
import { crop, type GreyImage, resize } from "./prepare.ts";

/** Lines with a word read below this (0–100) are read again. */
export const REREAD_BELOW = 80;
/** At most this many lines a page (the least sure first): each costs a small OCR call. */
export const REREAD_MAX_LINES = 16;
/** How much larger the crop is read than the page was. */
const ENLARGE = 2;
/** How much surer (mean, 0–100) the second reading must be to replace the first. */
const SURER_BY = 5;
/** Words read below this (0–100) in the second reading are noise, as in the first. */
const NOISE = 30;

/** Reads a crop as one line: words in points of the crop (origin bottom left) at `scale` pixels a point. */
export type ReadLine = (image: GreyImage, scale: number) => Promise<OcrLine[]>;

/** A word with a letter or a digit in it: not a box edge read as "|" or a dash. */
export const meaningful = (word: OcrWord) => /[\p{L}\p{N}]/u.test(word.text);

function meanConfidence(words: ReadonlyArray<OcrWord>): number {
  let sum = 0;
  let characters = 0;
  for (const word of words.filter(meaningful)) {
    sum += word.confidence * word.text.length;
    characters += word.text.length;
  }
  return characters ? sum / characters : 0;
}

const content = (words: ReadonlyArray<OcrWord>) =>
  words
    .map((word) => word.text)
    .join("")
    .replace(/[^\p{L}\p{N}]/gu, "").length;

/**
 * `lines` with their unsure lines read again from `image` (the page the lines were read from, at
 * `scale` pixels a point). Returns the lines in the same order, and how many were replaced.
 */
export async function rereadUnsureLines(
  lines: ReadonlyArray<OcrLine>,
  image: GreyImage,
  scale: number,
  readLine: ReadLine,
): Promise<{ lines: OcrLine[]; reread: number; replaced: number }> {
  const unsure = lines
    .map((line, index) => ({
      index,
      least: Math.min(...line.words.filter(meaningful).map((w) => w.confidence)),
    }))
    .filter((line) => Number.isFinite(line.least) && line.least < REREAD_BELOW)
    .sort((a, b) => a.least - b.least)
    .slice(0, REREAD_MAX_LINES);
  const result = [...lines];
  let replaced = 0;
  const pageHeight = image.height / scale;
  await Promise.all(
    unsure.map(async ({ index }) => {
      const line = lines[index];
      if (!line) return;
      const height = Math.max(...line.words.map((word) => word.height));
      const padX = 0.6 * height;
      const padY = 0.45 * height;
      const x0 = Math.max(0, Math.min(...line.words.map((word) => word.x)) - padX);
      const x1 = Math.min(
        image.width / scale,
        Math.max(...line.words.map((word) => word.x + word.width)) + padX,
      );
      const y0 = Math.max(0, Math.min(...line.words.map((word) => word.y)) - padY);
      const y1 = Math.min(pageHeight, Math.max(...line.words.map((word) => word.y + word.height)) + padY);
      const left = Math.floor(x0 * scale);
      const top = Math.floor((pageHeight - y1) * scale);
      const width = Math.ceil((x1 - x0) * scale);
      const cropHeight = Math.ceil((y1 - y0) * scale);
      const cropped = crop(image, left, top, width, cropHeight);
      // tesseract reads nothing narrower than a few pixels (a rule's sliver at the page's edge).
      if (cropped.width < 8 || cropped.height < 8) return;
      const piece = resize(cropped, ENLARGE);
      // Back on the page: the crop's origin is its bottom left corner.
      const originX = left / scale;
      const originY = pageHeight - (top + cropHeight) / scale;
      const lineBottom = Math.min(...line.words.map((word) => word.y));
      const lineTop = Math.max(...line.words.map((word) => word.y + word.height));
      // The margin may catch a neighbouring line's edge: only words centred on this line, read
      // above the noise, are this line's.
      const again = (await readLine(piece, scale * ENLARGE))
        .flatMap((read) => read.words)
        .map((word) => ({ ...word, x: word.x + originX, y: word.y + originY }))
        .filter((word) => {
          const centre = word.y + word.height / 2;
          return word.confidence >= NOISE && centre >= lineBottom && centre <= lineTop;
        });
      if (again.length === 0) return;
      if (meanConfidence(again) < meanConfidence(line.words) + SURER_BY) return;
      // The same line read better: about as much text as before, not less, and nothing added.
      const before = content(line.words);
      if (content(again) < 0.6 * before || content(again) > 1.25 * before + 2) return;
      result[index] = { words: again };
      replaced++;
    }),
  );
  return { lines: result, reread: unsure.length, replaced };
}
