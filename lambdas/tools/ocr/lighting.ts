// Evening out the light on a photographed page: a phone's shadow and the fall-off towards a far
// corner leave one part of the sheet a mid grey while another is white, and a global threshold
// (what tesseract applies) then either drowns the dark part in ink or loses the pale strokes of the
// bright one. Each pixel is divided by the paper's brightness around it, so the paper comes out
// white everywhere and the ink keeps its contrast. Pure functions on 8-bit grey buffers.

import type { GreyImage } from "./prepare.ts";

/**
 * Above this spread of the paper's brightness (lightingSpread) the light is uneven enough to even
 * out. Flatbed scans of the sample files measure under 0.1 (a form's shaded boxes included), the
 * phone profile's gradient and shadow 0.3 and more.
 */
export const UNEVEN_LIGHT = 0.2;

/** The paper's brightness, estimated block by block: a coarse map to be interpolated. */
export interface PaperMap {
  block: number;
  columns: number;
  rows: number;
  /** Brightness (0-255) of each block, rows top to bottom. */
  values: Float64Array;
}

/**
 * The paper's brightness around each part of the page: in each block (about a fiftieth of the long
 * side) the 90th percentile of the grey levels, which is paper unless the block is almost all ink;
 * then the median of each block's neighbourhood (a filled box or a bold title takes the paper's
 * level around it), then their mean, so the map has no steps.
 */
export function paperMap(image: GreyImage): PaperMap {
  const { width, height, data } = image;
  const block = Math.max(12, Math.round(Math.max(width, height) / 50));
  const columns = Math.ceil(width / block);
  const rows = Math.ceil(height / block);
  const raw = new Float64Array(columns * rows);
  const histogram = new Uint32Array(256);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < columns; bx++) {
      histogram.fill(0);
      const x1 = Math.min(width, (bx + 1) * block);
      const y1 = Math.min(height, (by + 1) * block);
      let count = 0;
      for (let y = by * block; y < y1; y++) {
        for (let x = bx * block; x < x1; x++) {
          const value = data[y * width + x] as number;
          histogram[value] = (histogram[value] as number) + 1;
          count++;
        }
      }
      let above = 0;
      let level = 255;
      for (; level > 0; level--) {
        above += histogram[level] as number;
        if (above >= count * 0.1) break;
      }
      raw[by * columns + bx] = level;
    }
  }
  const neighbourhood = (source: Float64Array, combine: (values: number[]) => number) => {
    const out = new Float64Array(source.length);
    for (let by = 0; by < rows; by++) {
      for (let bx = 0; bx < columns; bx++) {
        const values: number[] = [];
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const x = bx + dx;
            const y = by + dy;
            if (x >= 0 && y >= 0 && x < columns && y < rows) values.push(source[y * columns + x] as number);
          }
        }
        out[by * columns + bx] = combine(values);
      }
    }
    return out;
  };
  const widened = neighbourhood(raw, (values) => values.sort((a, b) => a - b)[values.length >> 1] as number);
  const values = neighbourhood(widened, (values) => values.reduce((a, b) => a + b, 0) / values.length);
  return { block, columns, rows, values };
}

/**
 * How unevenly the page is lit: 1 − (10th percentile / 90th percentile) of the paper's brightness
 * over the blocks of the page, 0 for even light. The percentiles leave out the few blocks of a
 * form's shaded boxes.
 */
export function lightingSpread(image: GreyImage, map: PaperMap = paperMap(image)): number {
  const sorted = Float64Array.from(map.values).sort();
  if (sorted.length === 0) return 0;
  const low = sorted[Math.floor(sorted.length * 0.1)] as number;
  const high = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] as number;
  if (high <= 0) return 0;
  return Math.round((1 - low / high) * 1000) / 1000;
}

/**
 * The page divided by its paper's brightness (bilinear between block centres), scaled so that the
 * paper is white: a shadow or a gradient is gone, the ink keeps its darkness relative to the paper
 * around it.
 */
export function evenLighting(image: GreyImage, map: PaperMap = paperMap(image)): GreyImage {
  const { width, height, data } = image;
  const { block, columns, rows, values } = map;
  const out = new Uint8Array(width * height);
  const paperAt = (bx: number, by: number) =>
    Math.max(1, values[Math.min(rows - 1, by) * columns + Math.min(columns - 1, bx)] as number);
  for (let y = 0; y < height; y++) {
    // Block centres sit at (index + 0.5)·block.
    const fy = Math.max(0, Math.min(rows - 1, (y + 0.5) / block - 0.5));
    const by = Math.floor(fy);
    const ty = fy - by;
    for (let x = 0; x < width; x++) {
      const fx = Math.max(0, Math.min(columns - 1, (x + 0.5) / block - 0.5));
      const bx = Math.floor(fx);
      const tx = fx - bx;
      const paper =
        (paperAt(bx, by) * (1 - tx) + paperAt(bx + 1, by) * tx) * (1 - ty) +
        (paperAt(bx, by + 1) * (1 - tx) + paperAt(bx + 1, by + 1) * tx) * ty;
      out[y * width + x] = Math.min(255, Math.round(((data[y * width + x] as number) * 255) / paper));
    }
  }
  return { width, height, data: out };
}
