// Handwriting on a scanned page: ink that no word of the OCR explains. A text reader sees printed
// words; a signature written by hand is strokes, which it skips or reads as noise. Here the page's
// grey raster is thresholded, the words the OCR read are masked out, and what is left is grouped
// into connected marks. Rules, box edges and specks are dropped by shape; a mark taller and wider
// than printed glyphs, made of strokes rather than a filled blob, is ink a person put there. The
// marks are returned in PDF points; whoever reads a box (the officer's signature) decides which
// count, so ink elsewhere on the page (a stamp, a scribbled note) never signs anything.

import { clusterBoxes } from "./blocks.ts";

/** A grey raster: one byte a pixel (0 black – 255 white), rows top to bottom. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** Where the image lies on the page: pixels per PDF point and the page's height in points. */
export interface Placement {
  scale: number;
  pageHeight: number;
}

/** A box in PDF points from the page's bottom left. */
export interface InkBox {
  x: number;
  y: number;
  right: number;
  top: number;
}

export interface InkMark extends InkBox {
  /** 0–100: how much the mark looks like pen strokes rather than print or noise. */
  confidence: number;
}

/** Darker than this (0–255) is ink. Scanners put paper at 220–255 and print at 0–90. */
const INK_THRESHOLD = 140;
/** Printed glyphs of forms are at most this tall (points); handwriting is taller. */
const PRINTED_GLYPH_POINTS = 9;
/** A straight run of ink longer than this (points) is a rule or a box edge, not a pen stroke. */
const RULE_RUN_POINTS = 24;
/** Marks of one signature lie this close (points). */
const SIGNATURE_GAP_POINTS = 8;

/**
 * Ink marks on the page not covered by any of `words` (PDF points from the bottom left, as the OCR
 * engines place them), that look like handwriting.
 */
export function handwrittenMarks(
  image: GreyImage,
  placement: Placement,
  words: ReadonlyArray<InkBox>,
): InkMark[] {
  const { width, height, data: pixels } = image;
  const { scale, pageHeight } = placement;
  const ink = new Uint8Array(width * height);
  for (let index = 0; index < ink.length; index++)
    ink[index] = (pixels[index] ?? 255) < INK_THRESHOLD ? 1 : 0;
  // Printed words the OCR read are not handwriting: erase them (with a pixel of margin).
  for (const word of words) {
    const x0 = Math.max(0, Math.floor(word.x * scale) - 1);
    const x1 = Math.min(width - 1, Math.ceil(word.right * scale) + 1);
    const y0 = Math.max(0, Math.floor((pageHeight - word.top) * scale) - 1);
    const y1 = Math.min(height - 1, Math.ceil((pageHeight - word.y) * scale) + 1);
    for (let y = y0; y <= y1; y++) ink.fill(0, y * width + x0, y * width + x1 + 1);
  }
  // Form rules and box edges are long straight runs; a signature crossing its line keeps its strokes.
  eraseLongRuns(ink, width, height, Math.round(RULE_RUN_POINTS * scale));
  const components = connectedComponents(ink, width, height);
  const glyph = PRINTED_GLYPH_POINTS * scale;
  const kept = components.filter((component) => {
    const w = component.right - component.x + 1;
    const h = component.bottom - component.y + 1;
    if (w < 3 && h < 3) return false; // specks
    if (h <= Math.max(3, scale * 1.5) || w <= Math.max(3, scale * 1.5)) return false; // rules
    if (w / h > 25 || h / w > 25) return false; // long thin lines
    const density = component.count / (w * h);
    if (density > 0.45) return false; // filled blobs: bars, logos, redactions
    if (component.edgeShare > 0.8 && w > glyph && h > glyph) return false; // box outlines
    return true;
  });
  // A signature is at least one stroke bigger than any printed glyph; smaller marks join it.
  const strokes = kept.filter(
    (component) => component.right - component.x + 1 > glyph && component.bottom - component.y + 1 > glyph,
  );
  if (strokes.length === 0) return [];
  // Marks within a signature's gap of each other are one signature; a group needs a stroke in it.
  // clusterBoxes wants y ≤ top: in pixel rows that is the top row and the bottom row.
  const boxes = kept.map((component) => ({
    ...component,
    top: component.bottom,
    stroke: strokes.includes(component),
  }));
  const merged = clusterBoxes(boxes, SIGNATURE_GAP_POINTS * scale).filter((members) =>
    members.some((member) => member.stroke),
  );
  return merged.map((members) => {
    const box = {
      x: Math.min(...members.map((member) => member.x)),
      y: Math.min(...members.map((member) => member.y)),
      right: Math.max(...members.map((member) => member.right)),
      bottom: Math.max(...members.map((member) => member.bottom)),
    };
    const tallest = Math.max(...members.map((member) => member.bottom - member.y + 1));
    const confidence = Math.round(Math.min(99, 60 + (20 * tallest) / glyph));
    return {
      x: box.x / scale,
      right: (box.right + 1) / scale,
      top: pageHeight - box.y / scale,
      y: pageHeight - (box.bottom + 1) / scale,
      confidence,
    };
  });
}

/** Clears every horizontal and vertical run of ink at least `limit` pixels long. */
function eraseLongRuns(ink: Uint8Array, width: number, height: number, limit: number): void {
  const erase: number[] = [];
  for (let y = 0; y < height; y++) {
    let run = 0;
    for (let x = 0; x <= width; x++) {
      if (x < width && ink[y * width + x] === 1) run++;
      else {
        if (run >= limit) for (let k = x - run; k < x; k++) erase.push(y * width + k);
        run = 0;
      }
    }
  }
  for (let x = 0; x < width; x++) {
    let run = 0;
    for (let y = 0; y <= height; y++) {
      if (y < height && ink[y * width + x] === 1) run++;
      else {
        if (run >= limit) for (let k = y - run; k < y; k++) erase.push(k * width + x);
        run = 0;
      }
    }
  }
  for (const index of erase) ink[index] = 0;
}

interface Component {
  x: number;
  y: number;
  right: number;
  bottom: number;
  count: number;
  /** Share of the pixels within two pixels of the bounding box's edge (a box outline is all edge). */
  edgeShare: number;
}

/** 8-connected components of the set pixels, with their boxes and how much of them is edge. */
function connectedComponents(ink: Uint8Array, width: number, height: number): Component[] {
  const labels = new Int32Array(width * height).fill(-1);
  const components: Component[] = [];
  const stack: number[] = [];
  const members: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (ink[start] !== 1 || (labels[start] ?? -1) >= 0) continue;
    const label = components.length;
    labels[start] = label;
    stack.push(start);
    members.length = 0;
    let x0 = width;
    let y0 = height;
    let x1 = 0;
    let y1 = 0;
    while (stack.length > 0) {
      const index = stack.pop() as number;
      members.push(index);
      const x = index % width;
      const y = (index - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width || (dx === 0 && dy === 0)) continue;
          const next = ny * width + nx;
          if (ink[next] === 1 && (labels[next] ?? -1) < 0) {
            labels[next] = label;
            stack.push(next);
          }
        }
      }
    }
    let edge = 0;
    for (const index of members) {
      const x = index % width;
      const y = (index - x) / width;
      if (x - x0 <= 2 || x1 - x <= 2 || y - y0 <= 2 || y1 - y <= 2) edge++;
    }
    components.push({
      x: x0,
      y: y0,
      right: x1,
      bottom: y1,
      count: members.length,
      edgeShare: edge / members.length,
    });
  }
  return components;
}
