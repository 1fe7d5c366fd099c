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
      // Every other pixel each way: a quarter of the work, the same percentile within a level or two.
      for (let y = by * block; y < y1; y += 2) {
        for (let x = bx * block; x < x1; x += 2) {
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
  // Block centres sit at (index + 0.5)·block; each column's neighbours and weight are the same on every row.
  const left = new Int32Array(width);
  const weight = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.max(0, Math.min(columns - 1, (x + 0.5) / block - 0.5));
    left[x] = Math.min(columns - 2, Math.floor(fx));
    weight[x] = fx - (left[x] as number);
  }
  const rowOfBlocks = new Float64Array(Math.max(2, columns));
  for (let y = 0; y < height; y++) {
    const fy = Math.max(0, Math.min(rows - 1, (y + 0.5) / block - 0.5));
    const above = Math.min(Math.max(0, rows - 2), Math.floor(fy));
    const below = Math.min(rows - 1, above + 1);
    const ty = fy - above;
    for (let bx = 0; bx < columns; bx++) {
      const paper =
        (values[above * columns + bx] as number) * (1 - ty) + (values[below * columns + bx] as number) * ty;
      rowOfBlocks[bx] = 255 / Math.max(1, paper);
    }
    if (columns === 1) rowOfBlocks[1] = rowOfBlocks[0] as number;
    const offset = y * width;
    for (let x = 0; x < width; x++) {
      const bx = Math.max(0, left[x] as number);
      const tx = weight[x] as number;
      const gain = (rowOfBlocks[bx] as number) * (1 - tx) + (rowOfBlocks[bx + 1] as number) * tx;
      out[offset + x] = Math.min(255, Math.round((data[offset + x] as number) * gain));
    }
  }
  return { width, height, data: out };
}
