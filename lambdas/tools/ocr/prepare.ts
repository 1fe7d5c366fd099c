// Preparing a scanned page before OCR: pure functions on 8-bit grey pixel buffers (one byte a pixel,
// rows top to bottom, 0 black, 255 white). A page turned on the glass is turned upright, a skewed one
// straightened, and a noisy or unevenly lit one cleaned and binarised, because tesseract reads
// straight, black-on-white text best. Each step can be switched off, so the benchmark can measure
// what each one is worth (bench/ocr.ts --prepare). A phone photo is first straightened from its
// perspective (perspective.ts) and its light evened out (lighting.ts).

import { evenLighting, lightingSpread, paperMap, UNEVEN_LIGHT } from "./lighting.ts";
import {
  correctPerspective,
  findPageOutline,
  findTextKeystone,
  type PageOutline,
  straightenPage,
} from "./perspective.ts";

export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type QuarterTurns = 0 | 1 | 2 | 3;

export interface PrepareOptions {
  /**
   * Undo a photo's perspective: find the sheet's outline against the background and warp it onto
   * the whole frame. `auto`: only when the outline is no rectangle (a flatbed scan has none, or a
   * rectangular one that deskewing handles). `true`: the page is known to be a photo: whenever an
   * outline is found, or else one implied by its text lines' and margins' converging directions
   * (the sheet filling the photo), which can misread a flatbed scan.
   */
  perspective?: boolean | "auto";
  /**
   * Divide the page by its paper's brightness (lighting.ts), for shadows and light fall-off.
   * `auto`: only where that brightness varies by more than UNEVEN_LIGHT across the page.
   */
  evenLight?: boolean | "auto";
  /** Detect a page lying sideways (90° or 270°) and turn it a quarter; 0° against 180° is the engine's. */
  orientation?: boolean;
  /** Estimate the skew (±maxSkewDegrees) and straighten the page. */
  deskew?: boolean;
  /**
   * 3×3 median filter: removes salt-and-pepper speckle. `auto`: only on a page with speckle
   * (isolated dark or light pixels above SPECKLE_SHARE), since on a clean page it only thins strokes.
   */
  median?: boolean | "auto";
  /**
   * Erase a form's rules and box edges (ink runs longer than about an inch): tesseract reads them
   * as strings of low-confidence "|" and "_" that drag a page's confidence down.
   */
  removeLines?: boolean;
  /** Sauvola binarisation (a threshold fitted to each neighbourhood: shadows and grey paper). */
  binarise?: boolean;
  /**
   * Resample by this factor after denoising (bilinear), e.g. 2 to read a page rendered at its
   * scan's 150 dpi at 300: the speckle is removed at the scan's own resolution, where it is a pixel.
   */
  upscale?: number;
  /** Largest skew looked for, in degrees. */
  maxSkewDegrees?: number;
}

export const DEFAULT_PREPARE: Readonly<Required<PrepareOptions>> = Object.freeze({
  // "auto": only a photographed page (a sheet's outline against a background, light uneven across
  // it) is changed; a flatbed scan reaches tesseract as it was.
  perspective: "auto",
  evenLight: "auto",
  orientation: true,
  deskew: true,
  median: "auto",
  removeLines: false,
  binarise: false,
  upscale: 1,
  maxSkewDegrees: 5,
});

export interface PreparedPage {
  image: GreyImage;
  /** Quarter turns clockwise applied (1 when the page lay sideways; 0 or 2 is for the reader to settle). */
  turns: QuarterTurns;
  /** The skew found (degrees, clockwise as the page lies) and undone. */
  skewDegrees: number;
  /** The photographed sheet's outline that was warped onto the frame, if any. */
  outline: PageOutline | null;
  /** Whether the light was evened out. */
  evenedLight: boolean;
  /**
   * The same page prepared without the speckle filter (computed on first call): a small value read
   * on its own keeps the thin strokes the filter takes from it, and its specks matter little there.
   */
  unfiltered: () => GreyImage;
}

export function preparePage(image: GreyImage, options: PrepareOptions = {}): PreparedPage {
  const settings = { ...DEFAULT_PREPARE, ...options };
  let current = image;
  let outline: PageOutline | null = null;
  // Before everything else: the background around a photographed sheet and its shadows mislead
  // the ink thresholds the orientation and skew estimates rely on.
  if (settings.perspective === "auto") {
    const corrected = correctPerspective(current);
    if (corrected) ({ image: current, outline } = corrected);
  } else if (settings.perspective) {
    outline = findPageOutline(current) ?? findTextKeystone(current);
    if (outline) current = straightenPage(current, outline);
  }
  let evenedLight = false;
  if (settings.evenLight) {
    const map = paperMap(current);
    if (settings.evenLight === true || lightingSpread(current, map) > UNEVEN_LIGHT) {
      current = evenLighting(current, map);
      evenedLight = true;
    }
  }
  let turns: QuarterTurns = 0;
  if (settings.orientation) {
    if (detectSideways(current).sideways) {
      turns = 1;
      current = rotateQuarter(current, 1);
    }
  }
  // Specks are told by their isolation: before any resampling, which smears them into grey blots.
  let speckled: GreyImage | null = null;
  if (settings.median === true || (settings.median === "auto" && speckleShare(current) > SPECKLE_SHARE)) {
    speckled = current;
    current = median3(current);
  }
  let skewDegrees = 0;
  if (settings.deskew) skewDegrees = estimateSkew(current, { maxDegrees: settings.maxSkewDegrees });
  const finish = (from: GreyImage) => {
    let page = from;
    // Below a tenth of a degree a line drifts by less than a pixel over a word: not worth resampling.
    if (Math.abs(skewDegrees) >= 0.1) page = rotateImage(page, -skewDegrees);
    if (settings.removeLines) page = eraseLines(page);
    if (settings.upscale !== 1) page = resize(page, settings.upscale);
    if (settings.binarise) page = sauvola(page);
    return page;
  };
  const prepared = finish(current);
  let withSpeckle: GreyImage | undefined;
  const unfiltered = speckled ? () => (withSpeckle ??= finish(speckled)) : () => prepared;
  return { image: prepared, unfiltered, turns, skewDegrees, outline, evenedLight };
}

// ---------------------------------------------------------------- geometry

/** Rotates clockwise by `degrees` about the centre, on a canvas of the same size; uncovered pixels are white. */
export function rotateImage(image: GreyImage, degrees: number, fill = 255): GreyImage {
  const { width, height, data } = image;
  const out = new Uint8Array(width * height);
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    const dy = y - cy;
    // Inverse map: the source of an output pixel is the output rotated back by -degrees.
    let sx = cos * -cx + sin * dy + cx;
    let sy = -sin * -cx + cos * dy + cy;
    let index = y * width;
    for (let x = 0; x < width; x++, index++, sx += cos, sy -= sin) {
      out[index] = sampleBilinear(data, width, height, sx, sy, fill);
    }
  }
  return { width, height, data: out };
}

function sampleBilinear(
  data: Uint8Array,
  width: number,
  height: number,
  x: number,
  y: number,
  fill: number,
): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 >= width - 1 || y0 >= height - 1) {
    if (x0 < -1 || y0 < -1 || x0 >= width || y0 >= height) return fill;
    const xi = Math.min(width - 1, Math.max(0, Math.round(x)));
    const yi = Math.min(height - 1, Math.max(0, Math.round(y)));
    return data[yi * width + xi] ?? fill;
  }
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * width + x0;
  const top = (data[i] as number) * (1 - fx) + (data[i + 1] as number) * fx;
  const bottom = (data[i + width] as number) * (1 - fx) + (data[i + width + 1] as number) * fx;
  return top * (1 - fy) + bottom * fy + 0.5;
}

/** Resampled by `factor` (bilinear), e.g. 2 doubles the width and the height. */
export function resize(image: GreyImage, factor: number): GreyImage {
  if (!(factor > 0 && factor <= 8)) throw new RangeError(`resize factor must be in (0, 8], got ${factor}`);
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  const out = new Uint8Array(width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  for (let y = 0; y < height; y++) {
    const srcY = (y + 0.5) * sy - 0.5;
    for (let x = 0; x < width; x++) {
      out[y * width + x] = sampleBilinear(
        image.data,
        image.width,
        image.height,
        (x + 0.5) * sx - 0.5,
        srcY,
        255,
      );
    }
  }
  return { width, height, data: out };
}

/** Turns clockwise by `turns` quarter turns (90° and 270° swap width and height). */
export function rotateQuarter(image: GreyImage, turns: QuarterTurns): GreyImage {
  const { width, height, data } = image;
  if (turns === 0) return { width, height, data: data.slice() };
  const swapped = turns % 2 === 1;
  const outWidth = swapped ? height : width;
  const outHeight = swapped ? width : height;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let ox: number;
      let oy: number;
      if (turns === 1) {
        ox = height - 1 - y;
        oy = x;
      } else if (turns === 2) {
        ox = width - 1 - x;
        oy = height - 1 - y;
      } else {
        ox = y;
        oy = width - 1 - x;
      }
      out[oy * outWidth + ox] = data[y * width + x] as number;
    }
  }
  return { width: outWidth, height: outHeight, data: out };
}

/** The 3×3 matrix (row-major) of the projective map taking each `from` corner to its `to` corner. */
export function homography(
  from: ReadonlyArray<readonly [number, number]>,
  to: ReadonlyArray<readonly [number, number]>,
): number[] {
  if (from.length !== 4 || to.length !== 4) throw new RangeError("a homography needs 4 point pairs");
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i] as readonly [number, number];
    const [u, v] = to[i] as readonly [number, number];
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gaussian elimination with partial pivoting on the 8×9 augmented system.
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) {
      if (Math.abs((rows[r] as number[])[col] as number) > Math.abs((rows[pivot] as number[])[col] as number))
        pivot = r;
    }
    [rows[col], rows[pivot]] = [rows[pivot] as number[], rows[col] as number[]];
    const head = rows[col] as number[];
    const p = head[col] as number;
    if (Math.abs(p) < 1e-12) throw new RangeError("the four points are degenerate (three on a line)");
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const row = rows[r] as number[];
      const factor = (row[col] as number) / p;
      for (let c = col; c < 9; c++) row[c] = (row[c] as number) - factor * (head[c] as number);
    }
  }
  const h = rows.map((row, i) => (row[8] as number) / (row[i] as number));
  return [...h, 1];
}

/**
 * The image seen through a projective map: output pixel (x, y) takes the source pixel at
 * `outputToSource` applied to (x, y). Outside the source: `fill`.
 */
export function warpPerspective(
  image: GreyImage,
  outputToSource: readonly number[],
  width: number,
  height: number,
  fill = 255,
): GreyImage {
  const [a, b, c, d, e, f, g, h] = outputToSource as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = g * x + h * y + 1;
      out[y * width + x] = sampleBilinear(
        image.data,
        image.width,
        image.height,
        (a * x + b * y + c) / w,
        (d * x + e * y + f) / w,
        fill,
      );
    }
  }
  return { width, height, data: out };
}

// ---------------------------------------------------------------- skew and orientation

/**
 * The mean grey of each `factor`×`factor` block of the image, handed to `visit` with the block's
 * index in the reduced image (`floor(width / factor)` blocks a row; the ragged edge is left out).
 */
export function forEachBlockMean(
  image: GreyImage,
  factor: number,
  visit: (index: number, mean: number) => void,
): void {
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let j = 0; j < factor; j++) {
        const row = (y * factor + j) * image.width + x * factor;
        for (let i = 0; i < factor; i++) sum += image.data[row + i] as number;
      }
      visit(y * width + x, sum / area);
    }
  }
}

/** Ink pixels of a reduced copy (about 1000 px on the long side): what skew and orientation look at. */
interface InkSample {
  xs: Float64Array;
  ys: Float64Array;
  width: number;
  height: number;
}

function inkSample(image: GreyImage, longSide = 1000, withoutRules = false): InkSample {
  const factor = Math.max(1, Math.round(Math.max(image.width, image.height) / longSide));
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const threshold = otsuThreshold(image);
  const ink = new Uint8Array(width * height);
  forEachBlockMean(image, factor, (index, mean) => {
    if (mean < threshold) ink[index] = 1;
  });
  if (withoutRules) removeRules(ink, width, height, Math.max(12, Math.round(longSide / 40)));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (ink[y * width + x]) {
        xs.push(x - width / 2);
        ys.push(y - height / 2);
      }
    }
  }
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys), width, height };
}

/**
 * Clears ink runs longer than `longest` pixels across or down: the rules and box edges of a form,
 * which would otherwise pass for the densest rows of the text beside them.
 */
function removeRules(ink: Uint8Array, width: number, height: number, longest: number): void {
  const rule = new Uint8Array(ink.length);
  for (let y = 0; y < height; y++) {
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const on = x < width && ink[y * width + x] === 1;
      if (on && start < 0) start = x;
      if (!on && start >= 0) {
        if (x - start > longest) for (let i = start; i < x; i++) rule[y * width + i] = 1;
        start = -1;
      }
    }
  }
  for (let x = 0; x < width; x++) {
    let start = -1;
    for (let y = 0; y <= height; y++) {
      const on = y < height && ink[y * width + x] === 1;
      if (on && start < 0) start = y;
      if (!on && start >= 0) {
        if (y - start > longest) for (let j = start; j < y; j++) rule[j * width + x] = 1;
        start = -1;
      }
    }
  }
  for (let i = 0; i < ink.length; i++) if (rule[i]) ink[i] = 0;
}

/** Otsu's global threshold over the whole image's histogram. */
export function otsuThreshold(image: GreyImage): number {
  const histogram = new Float64Array(256);
  for (const value of image.data) histogram[value] = (histogram[value] as number) + 1;
  const total = image.data.length;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * (histogram[v] as number);
  let sumBelow = 0;
  let countBelow = 0;
  let best = 128;
  let bestVariance = -1;
  for (let t = 0; t < 256; t++) {
    countBelow += histogram[t] as number;
    if (countBelow === 0) continue;
    const countAbove = total - countBelow;
    if (countAbove === 0) break;
    sumBelow += t * (histogram[t] as number);
    const meanBelow = sumBelow / countBelow;
    const meanAbove = (sumAll - sumBelow) / countAbove;
    const variance = countBelow * countAbove * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = t;
    }
  }
  return best + 1;
}

/**
 * How sharply the ink falls into rows when the page is turned back by `degrees`: the sum of the
 * squared row counts. Text lines parallel to the rows give tall, narrow peaks; a skew smears them.
 */
function profileScore(sample: InkSample, degrees: number, rows: Float64Array): number {
  const radians = (degrees * Math.PI) / 180;
  const sin = Math.sin(radians);
  const cos = Math.cos(radians);
  rows.fill(0);
  const offset = rows.length / 2;
  for (let i = 0; i < sample.xs.length; i++) {
    // The row of the ink once the clockwise skew is undone (turned back counterclockwise).
    const row = Math.round(-(sample.xs[i] as number) * sin + (sample.ys[i] as number) * cos + offset);
    if (row >= 0 && row < rows.length) rows[row] = (rows[row] as number) + 1;
  }
  let score = 0;
  for (const count of rows) score += count * count;
  return score;
}

/**
 * The page's skew in degrees, clockwise as it lies (a positive answer means the lines run down to
 * the right), found by the projection profile over ±maxDegrees: a coarse search, then a fine one.
 * 0 for a page with too little ink to tell.
 */
export function estimateSkew(image: GreyImage, options: { maxDegrees?: number } = {}): number {
  const maxDegrees = options.maxDegrees ?? 5;
  const sample = inkSample(image);
  if (sample.xs.length < 200) return 0;
  const rows = new Float64Array(Math.ceil(Math.hypot(sample.width, sample.height)) + 2);
  const search = (from: number, to: number, step: number) => {
    let best = 0;
    let bestScore = -1;
    for (let angle = from; angle <= to + 1e-9; angle += step) {
      const score = profileScore(sample, angle, rows);
      if (score > bestScore) {
        bestScore = score;
        best = angle;
      }
    }
    return best;
  };
  const coarse = search(-maxDegrees, maxDegrees, 0.25);
  const fine = search(coarse - 0.25, coarse + 0.25, 0.025);
  return Math.round(fine * 1000) / 1000;
}

export interface Sideways {
  /** The text lines run down the page: it lies turned a quarter (which way, the reading tells). */
  sideways: boolean;
  /**
   * The share of blank rows between the first and last inked row over the same share of blank
   * columns (each at its best angle within ±3°): above 1, the gaps between lines run across.
   */
  rowsOverColumns: number;
}

/**
 * Whether the page lies turned a quarter. Between the lines of text run blank rows, while almost no
 * column is blank over the whole height of a page (the gaps between words do not line up from one
 * line to the next), so the direction with more blank lines through the ink is the direction of the
 * text. Rules and box edges are removed first: a form's columns would otherwise pass for text.
 * Upright from upside down this cannot tell; the engine compares trial readings for that.
 */
export function detectSideways(image: GreyImage): Sideways {
  const sample = inkSample(image, 600, true);
  if (sample.xs.length < 200) return { sideways: false, rowsOverColumns: 1 };
  const rows = blankShare(sample.xs, sample.ys, sample.height);
  const columns = blankShare(sample.ys, sample.xs, sample.width);
  const rowsOverColumns = (rows + 0.01) / (columns + 0.01);
  return { sideways: rowsOverColumns < 1, rowsOverColumns };
}

/** The largest share of blank rows between the first and last inked row, over angles within ±3°. */
function blankShare(across: Float64Array, along: Float64Array, extent: number): number {
  const rows = new Float64Array(Math.ceil(extent * 1.5) + 2);
  const sample = { xs: across, ys: along, width: 0, height: 0 };
  let best = 0;
  for (let degrees = -3; degrees <= 3 + 1e-9; degrees += 0.25) {
    profileScore(sample, degrees, rows);
    let first = -1;
    let last = -1;
    let peak = 0;
    for (let i = 0; i < rows.length; i++) {
      const count = rows[i] as number;
      if (count > 0) {
        if (first < 0) first = i;
        last = i;
      }
      peak = Math.max(peak, count);
    }
    if (first < 0 || last <= first) continue;
    // A speck or two in a gap leaves it a gap.
    const blankAt = Math.max(1, peak * 0.01);
    let blank = 0;
    for (let i = first; i <= last; i++) if ((rows[i] as number) <= blankAt) blank++;
    best = Math.max(best, blank / (last - first + 1));
  }
  return best;
}

/** A horizontal band of the image (rows `top` to `top + height`), for a quick trial reading. */
export function crop(image: GreyImage, left: number, top: number, width: number, height: number): GreyImage {
  const x0 = Math.max(0, Math.min(image.width, Math.round(left)));
  const y0 = Math.max(0, Math.min(image.height, Math.round(top)));
  const w = Math.max(0, Math.min(image.width - x0, Math.round(width)));
  const h = Math.max(0, Math.min(image.height - y0, Math.round(height)));
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    out.set(image.data.subarray((y0 + y) * image.width + x0, (y0 + y) * image.width + x0 + w), y * w);
  return { width: w, height: h, data: out };
}

/** The band of `fraction` of the page's height with the most ink: where a trial reading learns most. */
export function inkiestBand(image: GreyImage, fraction: number): { top: number; height: number } {
  const height = Math.max(1, Math.round(image.height * fraction));
  const threshold = otsuThreshold(image);
  const rows = new Float64Array(image.height);
  for (let y = 0; y < image.height; y++) {
    let count = 0;
    for (let x = 0; x < image.width; x += 2)
      if ((image.data[y * image.width + x] as number) < threshold) count++;
    rows[y] = count;
  }
  let window = 0;
  for (let y = 0; y < height && y < image.height; y++) window += rows[y] as number;
  let best = window;
  let top = 0;
  for (let y = height; y < image.height; y++) {
    window += (rows[y] as number) - (rows[y - height] as number);
    if (window > best) {
      best = window;
      top = y - height + 1;
    }
  }
  return { top, height };
}

// ---------------------------------------------------------------- cleaning

/**
 * The page with its long ink runs (rules, box edges: longer than `longest` pixels, by default a
 * twelfth of the page's width) painted white, across and down. A run is measured on the ink mask
 * (Otsu's threshold) allowing one-pixel breaks, which blur and JPEG leave in a printed rule.
 */
export function eraseLines(
  image: GreyImage,
  longest: number | { across: number; down: number } = Math.round(image.width / 12),
): GreyImage {
  const { width, height, data } = image;
  const threshold = otsuThreshold(image);
  const erase = new Uint8Array(width * height);
  const { across, down } = typeof longest === "number" ? { across: longest, down: longest } : longest;
  const mark = (start: number, end: number, limit: number, at: (i: number) => number) => {
    if (end - start > limit) for (let i = start; i < end; i++) erase[at(i)] = 1;
  };
  for (let y = 0; y < height; y++) {
    let start = -1;
    let gap = 0;
    for (let x = 0; x <= width; x++) {
      const ink = x < width && (data[y * width + x] as number) < threshold;
      if (ink) {
        if (start < 0) start = x;
        gap = 0;
      } else if (start >= 0 && ++gap > 1) {
        mark(start, x - gap + 1, across, (i) => y * width + i);
        start = -1;
        gap = 0;
      }
    }
  }
  for (let x = 0; x < width; x++) {
    let start = -1;
    let gap = 0;
    for (let y = 0; y <= height; y++) {
      const ink = y < height && (data[y * width + x] as number) < threshold;
      if (ink) {
        if (start < 0) start = y;
        gap = 0;
      } else if (start >= 0 && ++gap > 1) {
        mark(start, y - gap + 1, down, (j) => j * width + x);
        start = -1;
        gap = 0;
      }
    }
  }
  const out = data.slice();
  for (let i = 0; i < out.length; i++) if (erase[i]) out[i] = 255;
  return { width, height, data: out };
}

/** Above this share of isolated pixels a page is speckled (a clean scan has next to none). */
export const SPECKLE_SHARE = 0.0005;

/**
 * The share of pixels that are specks: dark with all eight neighbours light, or light with all
 * eight dark. Sensor noise and JPEG ringing move pixels by a few grey levels, never that far.
 */
export function speckleShare(image: GreyImage): number {
  const { width, height, data } = image;
  if (width < 3 || height < 3) return 0;
  let specks = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const at = y * width + x;
      const value = data[at] as number;
      const dark = value < 96;
      if (!dark && value <= 160) continue;
      let isolated = true;
      for (let dy = -1; dy <= 1 && isolated; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          const neighbour = data[at + dy * width + dx] as number;
          if (dark ? neighbour <= 160 : neighbour >= 96) {
            isolated = false;
            break;
          }
        }
      }
      if (isolated) specks++;
    }
  }
  return specks / ((width - 2) * (height - 2));
}

/** 3×3 median: each pixel becomes the middle of its neighbourhood (edges repeat the border). */
export function median3(image: GreyImage): GreyImage {
  const { width, height, data } = image;
  const out = new Uint8Array(width * height);
  const window = new Uint8Array(9);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const mid = y * width;
    const down = Math.min(height - 1, y + 1) * width;
    for (let x = 0; x < width; x++) {
      const left = Math.max(0, x - 1);
      const right = Math.min(width - 1, x + 1);
      window[0] = data[up + left] as number;
      window[1] = data[up + x] as number;
      window[2] = data[up + right] as number;
      window[3] = data[mid + left] as number;
      window[4] = data[mid + x] as number;
      window[5] = data[mid + right] as number;
      window[6] = data[down + left] as number;
      window[7] = data[down + x] as number;
      window[8] = data[down + right] as number;
      out[mid + x] = middleOfNine(window);
    }
  }
  return { width, height, data: out };
}

function middleOfNine(v: Uint8Array): number {
  // Insertion sort of nine bytes: faster here than a general sort.
  for (let i = 1; i < 9; i++) {
    const value = v[i] as number;
    let j = i - 1;
    while (j >= 0 && (v[j] as number) > value) {
      v[j + 1] = v[j] as number;
      j--;
    }
    v[j + 1] = value;
  }
  return v[4] as number;
}

/**
 * Sauvola's binarisation: a pixel is ink when darker than mean·(1 + k·(sd/R − 1)) over its window,
 * so grey paper, a shadow or a lighting gradient moves the threshold with it. Output: 0 or 255.
 */
export function sauvola(image: GreyImage, options: { window?: number; k?: number } = {}): GreyImage {
  const { width, height, data } = image;
  const half = Math.max(1, Math.floor((options.window ?? 41) / 2));
  const k = options.k ?? 0.2;
  const stride = width + 1;
  const sums = new Float64Array(stride * (height + 1));
  const squares = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    let rowSquares = 0;
    for (let x = 0; x < width; x++) {
      const value = data[y * width + x] as number;
      rowSum += value;
      rowSquares += value * value;
      const at = (y + 1) * stride + x + 1;
      sums[at] = (sums[at - stride] as number) + rowSum;
      squares[at] = (squares[at - stride] as number) + rowSquares;
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(width, x + half + 1);
      const count = (y1 - y0) * (x1 - x0);
      const a = y0 * stride + x0;
      const b = y0 * stride + x1;
      const c = y1 * stride + x0;
      const d = y1 * stride + x1;
      const sum = (sums[d] as number) - (sums[b] as number) - (sums[c] as number) + (sums[a] as number);
      const sq =
        (squares[d] as number) - (squares[b] as number) - (squares[c] as number) + (squares[a] as number);
      const mean = sum / count;
      const deviation = Math.sqrt(Math.max(0, sq / count - mean * mean));
      const threshold = mean * (1 + k * (deviation / 128 - 1));
      out[y * width + x] = (data[y * width + x] as number) <= threshold ? 0 : 255;
    }
  }
  return { width, height, data: out };
}
