// Fields read again where the reader expects them. Sparse-text reading of a whole scanned page
// passes over small boxed values (the date typed in a Sign Here box, beside a box edge and above a
// rule); read on their own, tight, enlarged and without the box's edges, they read clearly. The
// reader names a band of the page (OcrProbe); the band is cut into its boxes at the box edges and
// the white between values, and each box the first reading left empty, unsure or only partly
// explained is read again. The two readings of a box merge word by word, the surer standing.
import type { OcrLine, OcrProbe, OcrWord } from "./engine.ts";
import { crop, eraseLines, type GreyImage, otsuThreshold, resize } from "./prepare.ts";
import { meaningful, type ReadLine } from "./reread.ts";

/** How much larger a box is read than the page was. */
const ENLARGE = 3;
/** A box the first reading covered with words at least this sure (0–100) is not read again. */
const SURE = 80;
/** Sure words spanning less than this share of a box's width leave some of its ink unread. */
const EXPLAINED_SHARE = 0.75;
/** Words read below this (0–100) in a box are noise. */
const NOISE = 40;
/** At most this many boxes a page are read (each costs a small OCR call). */
const MAX_BOXES = 8;
/** A column inked over this share of the band's height is a box edge, not text. */
const EDGE_SHARE = 0.6;
/** White at least this many text heights wide separates two values. */
const VALUE_GAP = 1;
/** Margin kept around a value's ink, in text heights. */
const PAD = 0.35;

/** A box in PDF points from the page's bottom left. */
interface PointBox {
  x: number;
  right: number;
  y: number;
  top: number;
}

/** A box in pixels of the band it was cut from, from its top left. */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Ink counts of an area of the band: its columns' (`across` false) or its rows' (`across` true). */
function inkCounts(band: GreyImage, threshold: number, area: Box, across: boolean): number[] {
  const counts: number[] = [];
  const [outer, inner] = across
    ? [
        [area.top, area.bottom],
        [area.left, area.right],
      ]
    : [
        [area.left, area.right],
        [area.top, area.bottom],
      ];
  for (let i = outer[0] as number; i < (outer[1] as number); i++) {
    let count = 0;
    for (let j = inner[0] as number; j < (inner[1] as number); j++) {
      const [x, y] = across ? [j, i] : [i, j];
      if ((band.data[y * band.width + x] as number) < threshold) count++;
    }
    counts.push(count);
  }
  return counts;
}

const whole = (band: GreyImage): Box => ({ left: 0, right: band.width, top: 0, bottom: band.height });

/**
 * The lowest row of text in an area of a band (its rows, with a margin): the values stand just above
 * their captions, and the band may reach up into the text above them. Null when no row stands apart.
 */
export function lowestRow(
  band: GreyImage,
  area: Box,
  textHeight: number,
): { top: number; bottom: number } | null {
  const threshold = otsuThreshold(band);
  const least = Math.max(2, Math.round(0.01 * (area.right - area.left)));
  const inked = inkCounts(band, threshold, area, true).map((count) => count >= least);
  // From the bottom up, the first run of inked rows (one-row breaks allowed) as tall as text; the
  // shorter ones below it are what is left of an erased rule.
  let end = inked.length;
  let start = end;
  for (;;) {
    while (end > 0 && !inked[end - 1]) end--;
    start = end;
    while (start > 0 && (inked[start - 1] || inked[start - 2])) start--;
    if (end === 0 || end - start >= 0.5 * textHeight) break;
    end = start;
  }
  if (end - start < 0.5 * textHeight || end - start > 1.8 * textHeight) return null;
  const pad = Math.round(PAD * textHeight);
  return { top: area.top + Math.max(0, start - pad), bottom: area.top + Math.min(inked.length, end + pad) };
}

/**
 * The value boxes of a band (pixels of `band`): the band is parted at box edges, each part narrowed
 * to its lowest row of text, that row split at white wider than `gap`, and each value narrowed to
 * the rows its ink covers.
 */
export function boxesOf(band: GreyImage, gap: number): Box[] {
  const threshold = otsuThreshold(band);
  // A column inked over EDGE_SHARE of the band's height is a box's edge.
  const edges = inkCounts(band, threshold, whole(band), false).map(
    (count) => count >= EDGE_SHARE * band.height,
  );
  const parts: Box[] = [];
  for (let x = 0, start = -1; x <= band.width; x++) {
    const edge = x === band.width || edges[x];
    if (!edge && start < 0) start = x;
    if (edge && start >= 0) {
      parts.push({ left: start, right: x, top: 0, bottom: band.height });
      start = -1;
    }
  }
  const boxes: Box[] = [];
  const pad = Math.round(PAD * gap);
  for (const part of parts) {
    // A part without a row of its own (text above running into it) is no value's box.
    const row = lowestRow(band, part, gap);
    if (!row) continue;
    const area = { ...part, ...row };
    const columns = inkCounts(band, threshold, area, false);
    for (let x = 0, start = -1, white = 0; x <= columns.length; x++) {
      if (x < columns.length && (columns[x] as number) >= 2) {
        if (start < 0) start = x;
        white = 0;
        continue;
      }
      if (start < 0 || (x < columns.length && ++white < gap)) continue;
      const from = area.left + start;
      const to = area.left + x - white;
      start = -1;
      white = 0;
      if (to - from < 0.8 * gap) continue;
      const rows = inkCounts(band, threshold, { ...area, left: from, right: to }, true);
      const peak = Math.max(...rows);
      const first = rows.findIndex((count) => count >= 0.08 * peak);
      const last = rows.length - 1 - [...rows].reverse().findIndex((count) => count >= 0.08 * peak);
      boxes.push({
        left: Math.max(part.left, from - pad),
        right: Math.min(part.right, to + pad),
        top: Math.max(area.top, area.top + first - pad),
        bottom: Math.min(area.bottom, area.top + last + 1 + pad),
      });
    }
  }
  return boxes;
}

/**
 * `lines` with the boxes of each probe read again from `image` (the page the lines were read from,
 * at `scale` pixels a point, without the speckle filter a box's thin strokes do not survive). A
 * box read surer than before, or sure in itself, puts its words on the page where they are surer
 * than the first reading's, and the box's words make one line.
 */
export async function readProbes(
  lines: ReadonlyArray<OcrLine>,
  probes: ReadonlyArray<OcrProbe>,
  image: GreyImage,
  scale: number,
  readLine: ReadLine,
): Promise<{ lines: OcrLine[]; boxes: number; replaced: number }> {
  const pageHeight = image.height / scale;
  const words = lines.flatMap((line) => line.words);
  const boxes: Array<{ box: Box; band: GreyImage; origin: { left: number; top: number } }> = [];
  for (const probe of probes) {
    const left = Math.max(0, Math.floor(probe.x * scale));
    const top = Math.max(0, Math.floor((pageHeight - probe.top) * scale));
    const width = Math.ceil((probe.right - probe.x) * scale);
    const height = Math.ceil((probe.top - probe.y) * scale);
    const textHeight = Math.max(4, probe.textHeight * scale);
    const cut = crop(image, left, top, width, height);
    if (cut.width < 8 || cut.height < 8) continue;
    // Rules under and between the values go; a box's edge is found from the columns.
    const band = eraseLines(cut, {
      across: Math.round(4 * textHeight),
      down: Math.round(0.7 * cut.height),
    });
    const origin = { left, top };
    for (const box of boxesOf(band, Math.round(VALUE_GAP * textHeight))) boxes.push({ box, band, origin });
  }
  const inPoints = (box: Box, origin: { left: number; top: number }): PointBox => ({
    x: (origin.left + box.left) / scale,
    right: (origin.left + box.right) / scale,
    top: pageHeight - (origin.top + box.top) / scale,
    y: pageHeight - (origin.top + box.bottom) / scale,
  });
  const inside = (word: OcrWord, area: PointBox) => {
    const cx = word.x + word.width / 2;
    const cy = word.y + word.height / 2;
    return cx >= area.x && cx <= area.right && cy >= area.y && cy <= area.top;
  };
  // Boxes the first reading read surely, from end to end, stay as they are; a box with ink no sure
  // word explains (a name whose first word was lost beside a box edge) is read again. Two probes
  // may cut the same box: it is read once.
  const wanted = boxes
    .map((entry) => ({ ...entry, area: inPoints(entry.box, entry.origin) }))
    .filter(({ area }, index, all) => all.findIndex((other) => sameBox(other.area, area)) === index)
    .map((entry) => ({
      ...entry,
      covered: words.filter((word) => meaningful(word) && inside(word, entry.area)),
    }))
    .filter(({ area, covered }) => {
      if (covered.length === 0 || covered.some((word) => word.confidence < SURE)) return true;
      const explained = covered.reduce((sum, word) => sum + word.width, 0);
      return explained < EXPLAINED_SHARE * (area.right - area.x);
    })
    .slice(0, MAX_BOXES);
  const replacing = await Promise.all(
    wanted.map(async ({ box, band, area, covered }) => {
      const piece = resize(
        crop(band, box.left, box.top, box.right - box.left, box.bottom - box.top),
        ENLARGE,
      );
      const read = separated(
        (await readLine(piece, scale * ENLARGE))
          .flatMap((line) => line.words)
          .filter((word) => word.confidence >= NOISE && meaningful(word))
          .map((word) => ({ ...word, x: word.x + area.x, y: word.y + area.y })),
      );
      // A reading surer than the first, or sure in itself: word by word, the surer stands (below).
      if (read.length === 0 || (mean(read) <= mean(covered) && mean(read) < SURE)) return null;
      return { area, read };
    }),
  );
  let result = lines.map((line) => ({ words: [...line.words] }));
  let replaced = 0;
  for (const entry of replacing) {
    if (!entry) continue;
    // Word by word, the surer of two readings of the same place stands: in order when both read as
    // many words, else by where they stand.
    const inBox = result.flatMap((line) => line.words).filter((word) => inside(word, entry.area));
    // What is no letter or digit there (a box edge read as "|") goes with the first reading.
    const before = inBox.filter(meaningful).sort((a, b) => a.x - b.x);
    const paired = before.length === entry.read.length;
    const kept = before.filter((word, index) =>
      paired
        ? word.confidence >= (entry.read[index] as OcrWord).confidence
        : entry.read.every((again) => !overlap(word, again) || word.confidence >= again.confidence),
    );
    const added = entry.read.filter((again, index) =>
      paired ? !kept.includes(before[index] as OcrWord) : kept.every((word) => !overlap(word, again)),
    );
    if (added.length === 0) continue;
    // The box's words, from either reading, make one line on the box reading's baseline.
    const [baseline] = added;
    const row = separated(
      [...kept, ...added].map((word) => ({
        ...word,
        y: baseline?.y ?? word.y,
        height: baseline?.height ?? word.height,
      })),
    );
    result = result
      .map((line) => ({ words: line.words.filter((word) => !inBox.includes(word)) }))
      .filter((line) => line.words.length > 0);
    result.push({ words: row });
    replaced++;
  }
  return { lines: result, boxes: wanted.length, replaced };
}

/**
 * The words of one reading left to right, each ending before the next begins: a single-line
 * reading may give its first word a box reaching over the words after it.
 */
function separated(words: OcrWord[]): OcrWord[] {
  const sorted = [...words].sort((a, b) => a.x - b.x);
  return sorted.map((word, index) => {
    const next = sorted[index + 1];
    const end = next ? next.x - 0.25 * word.height : Number.POSITIVE_INFINITY;
    return word.x + word.width > end ? { ...word, width: Math.max(1, end - word.x) } : word;
  });
}

/** Two boxes covering more than half of the smaller one. */
function sameBox(a: PointBox, b: PointBox): boolean {
  const width = Math.min(a.right, b.right) - Math.max(a.x, b.x);
  const height = Math.min(a.top, b.top) - Math.max(a.y, b.y);
  if (width <= 0 || height <= 0) return false;
  const smaller = Math.min((a.right - a.x) * (a.top - a.y), (b.right - b.x) * (b.top - b.y));
  return width * height > 0.5 * smaller;
}

/** Two words side by side over more than half the narrower one's width. */
function overlap(a: OcrWord, b: OcrWord): boolean {
  const shared = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  return shared > 0.5 * Math.min(a.width, b.width);
}

function mean(words: ReadonlyArray<OcrWord>): number {
  return words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
}
