// Undoing a phone photo's perspective: a sheet photographed at an angle is a quadrilateral, its far
// edge shorter than its near one, lying on whatever was under it. Its four edges are found where the
// background meets the paper, and the quadrilateral is warped back onto the whole frame, so that
// text lines run straight and parallel again and deskewing can finish the job. Pure functions on
// 8-bit grey buffers (prepare.ts's GreyImage).

import {
  crop,
  estimateSkew,
  forEachBlockMean,
  type GreyImage,
  homography,
  otsuThreshold,
  rotateQuarter,
  warpPerspective,
} from "./prepare.ts";

export type Point = readonly [number, number];

export interface PageOutline {
  /** The sheet's corners in pixels of the image: top left, top right, bottom right, bottom left. */
  corners: readonly [Point, Point, Point, Point];
  /** How many of the four edges were seen against a background (the others are the frame's edges). */
  edgesFound: number;
  /** The largest departure of a corner's angle from 90°, in degrees: 0 for a rectangle. */
  cornerSkewDegrees: number;
  /** The largest difference of opposite sides' lengths, as a share of the longer. */
  sideMismatch: number;
}

/**
 * Below both, an outline is a rectangle (a sheet on a dark scanner lid, perhaps turned): nothing for
 * a perspective warp to do that deskewing would not do without resampling the page twice.
 */
export const RECTANGLE_TOLERANCE = Object.freeze({ cornerSkewDegrees: 0.6, sideMismatch: 0.006 });

/** The background must be at most this fraction of the paper's brightness beside it. */
const BACKGROUND_RATIO = 0.62;
/** An edge lies in this outer share of the frame; deeper, the "background" is part of the page. */
const MAX_EDGE_DEPTH = 0.3;
/** A side counts as found when this share of its scan lines meet its fitted line. */
const MIN_EDGE_SUPPORT = 0.35;
/** Pixels along the straightened frame replaced by the paper inside them: where paper and background blur together. */
const EDGE_RING = 2;
/** Long side of the reduced copy the edges are looked for in. */
const SEARCH_LONG_SIDE = 800;

type Side = "top" | "right" | "bottom" | "left";

/** A line as `across = slope·along + offset` (along: y for the left and right sides, x for the others). */
interface EdgeLine {
  slope: number;
  offset: number;
}

/**
 * The sheet's outline in a photo: each edge where the dark background along the frame gives way
 * to the paper, fitted as a straight line through the crossing points of the scan lines. Null when
 * fewer than two edges show against a background, so a flatbed scan (white lid around the page, or
 * no border at all) has no outline.
 */
export function findPageOutline(image: GreyImage): PageOutline | null {
  const factor = Math.max(1, Math.round(Math.max(image.width, image.height) / SEARCH_LONG_SIDE));
  const small = reduce(image, factor);
  const found = new Map<Side, EdgeLine>();
  for (const side of ["top", "right", "bottom", "left"] as const) {
    const line = fitEdge(
      edgePoints(small, side),
      side === "left" || side === "right" ? small.height : small.width,
    );
    if (line) found.set(side, line);
  }
  if (found.size < 2) return null;
  // In full-resolution pixels; a side that runs off the frame is the frame's own edge.
  const scaled = (side: Side): EdgeLine => {
    const line = found.get(side);
    // The crossing lies half a pixel inside the last background pixel; the edge is that pixel's far side.
    if (line) return { slope: line.slope, offset: (line.offset + 0.5) * factor };
    const far = side === "right" ? image.width : side === "bottom" ? image.height : 0;
    return { slope: 0, offset: far };
  };
  const top = scaled("top");
  const right = scaled("right");
  const bottom = scaled("bottom");
  const left = scaled("left");
  const corners = [
    intersect(top, left),
    intersect(top, right),
    intersect(bottom, right),
    intersect(bottom, left),
  ] as const;
  if (!plausibleQuadrilateral(corners, image)) return null;
  return { corners, edgesFound: found.size, ...rectangleDeparture(corners) };
}

/** Whether an outline is no rectangle: a perspective for `straightenPage` to undo. */
export function isKeystoned(outline: PageOutline): boolean {
  return (
    outline.cornerSkewDegrees > RECTANGLE_TOLERANCE.cornerSkewDegrees ||
    outline.sideMismatch > RECTANGLE_TOLERANCE.sideMismatch
  );
}

/**
 * The sheet inside `outline` warped onto the whole frame (same width and height), so that the
 * words keep their place on the page as the reader reports it; what lay outside the sheet is gone.
 */
export function straightenPage(image: GreyImage, outline: PageOutline): GreyImage {
  const { width, height } = image;
  const frame: Point[] = [
    [0, 0],
    [width, 0],
    [width, height],
    [0, height],
  ];
  const straight = warpPerspective(image, homography(frame, outline.corners), width, height, 255);
  // Along the frame lies the sheet's border blurred into the background: a grey rule that
  // tesseract would take for ink. It is the page's margin: it takes the paper just inside it (not
  // white, which would pass for the paper's brightness in a shadow).
  const { data } = straight;
  const ring = Math.min(EDGE_RING, Math.floor((width - 1) / 2), Math.floor((height - 1) / 2));
  for (let y = ring; y < height - ring; y++) {
    const row = y * width;
    data.fill(data[row + ring] as number, row, row + ring);
    data.fill(data[row + width - 1 - ring] as number, row + width - ring, row + width);
  }
  for (let y = 0; y < ring; y++) {
    data.copyWithin(y * width, ring * width, (ring + 1) * width);
    data.copyWithin((height - 1 - y) * width, (height - 1 - ring) * width, (height - ring) * width);
  }
  return straight;
}

/**
 * A photographed page's perspective undone: the straightened page and the outline it came from, or
 * null when no outline is found or it is a rectangle (a flatbed scan is left as it is).
 */
export function correctPerspective(image: GreyImage): { image: GreyImage; outline: PageOutline } | null {
  const outline = findPageOutline(image);
  if (!outline || !isKeystoned(outline)) return null;
  return { image: straightenPage(image, outline), outline };
}

// ---------------------------------------------------------------- converging text lines

/** Bands whose text directions disagree by less than this (degrees) are parallel: no keystone. */
const CONVERGENCE_DEGREES = 1;
/**
 * After the trial warp the bands must agree within this (or within 15 % of their first
 * disagreement), and better than before by CONVERGENCE_DEGREES.
 */
const CONVERGED_DEGREES = 0.5;
/** A band with less ink than this share of its pixels says nothing reliable about its direction. */
const BAND_INK_SHARE = 0.01;

interface BandDirections {
  /** The text lines' skew (degrees, clockwise) in the top and bottom thirds of the page. */
  top: number;
  bottom: number;
  /** The skew of the columns (margins, rules, aligned figures) in the left and right thirds. */
  left: number;
  right: number;
}

/**
 * A sheet that fills the photo (no background to see its edges against) still shows its
 * perspective in its text: the lines of the top and bottom of the page run at different angles, or
 * the left and right margins do. The outline implied by those four directions, when they disagree
 * by a degree or more and a trial warp makes them agree; null otherwise (a flatbed scan's bands
 * agree, whatever its skew). Every band must hold ink: a blank one reads as 0° whatever the page.
 * Not for pages that may be flatbed scans: a third of a form with few aligned columns can read a
 * degree or more off (one page of 90 of the sample scans did, and passed the trial warp), so only
 * a caller that knows the page is a photo should ask (prepare.ts's `perspective: true`).
 */
export function findTextKeystone(image: GreyImage): PageOutline | null {
  const { width, height } = image;
  if (width < 60 || height < 60) return null;
  const bands = [
    crop(image, 0, 0, width, height / 3),
    crop(image, 0, (2 * height) / 3, width, height / 3),
    crop(image, 0, 0, width / 3, height),
    crop(image, (2 * width) / 3, 0, width / 3, height),
  ];
  const threshold = otsuThreshold(image);
  for (const band of bands) {
    let ink = 0;
    for (let i = 0; i < band.data.length; i += 3) if ((band.data[i] as number) < threshold) ink++;
    if (ink * 3 < band.data.length * BAND_INK_SHARE) return null;
  }
  const before = bandDirections(image);
  if (disagreement(before) < CONVERGENCE_DEGREES) return null;
  const { rectangle, corners } = impliedOutline(image, before);
  const toSource = homography(rectangle, corners);
  // The whole frame's corners under the same map: the outline straightenPage warps onto the frame.
  const frameCorners = (
    [
      [0, 0],
      [width, 0],
      [width, height],
      [0, height],
    ] as const
  ).map(([x, y]) => applyHomography(toSource, x, y)) as [Point, Point, Point, Point];
  if (!plausibleQuadrilateral(frameCorners, image)) return null;
  const after = bandDirections(warpPerspective(image, toSource, width, height, 255));
  const remaining = disagreement(after);
  // One warp from band averages leaves a strong keystone a little of its convergence.
  const allowed = Math.max(CONVERGED_DEGREES, 0.15 * disagreement(before));
  if (remaining > allowed || disagreement(before) - remaining < CONVERGENCE_DEGREES) return null;
  return { corners: frameCorners, edgesFound: 0, ...rectangleDeparture(frameCorners) };
}

function bandDirections(image: GreyImage): BandDirections {
  const { width, height } = image;
  return {
    top: estimateSkew(crop(image, 0, 0, width, height / 3)),
    bottom: estimateSkew(crop(image, 0, (2 * height) / 3, width, height / 3)),
    // Turned a quarter clockwise, a band's columns are rows the skew estimate can measure.
    left: estimateSkew(rotateQuarter(crop(image, 0, 0, width / 3, height), 1)),
    right: estimateSkew(rotateQuarter(crop(image, (2 * width) / 3, 0, width / 3, height), 1)),
  };
}

function disagreement(directions: BandDirections): number {
  return Math.max(Math.abs(directions.top - directions.bottom), Math.abs(directions.left - directions.right));
}

/**
 * The quadrilateral whose sides run through the middles of the four bands in their measured
 * directions, and the rectangle (a sixth of the page in from each side) they should run along.
 */
function impliedOutline(
  image: GreyImage,
  directions: BandDirections,
): { rectangle: Point[]; corners: [Point, Point, Point, Point] } {
  const { width, height } = image;
  const slope = (degrees: number) => Math.tan((degrees * Math.PI) / 180);
  // Across: y = a·x + b through (width/2, y0). Down: x = c·y + d through (x0, height/2); a column
  // turned clockwise by the quarter turn reads with the opposite sign.
  const across = (y0: number, degrees: number): EdgeLine => ({
    slope: slope(degrees),
    offset: y0 - (slope(degrees) * width) / 2,
  });
  const down = (x0: number, degrees: number): EdgeLine => ({
    slope: -slope(degrees),
    offset: x0 + (slope(degrees) * height) / 2,
  });
  const top = across(height / 6, directions.top);
  const bottom = across((5 * height) / 6, directions.bottom);
  const left = down(width / 6, directions.left);
  const right = down((5 * width) / 6, directions.right);
  return {
    rectangle: [
      [width / 6, height / 6],
      [(5 * width) / 6, height / 6],
      [(5 * width) / 6, (5 * height) / 6],
      [width / 6, (5 * height) / 6],
    ],
    corners: [intersect(top, left), intersect(top, right), intersect(bottom, right), intersect(bottom, left)],
  };
}

function applyHomography(matrix: readonly number[], x: number, y: number): Point {
  const [a, b, c, d, e, f, g, h] = matrix as [number, number, number, number, number, number, number, number];
  const w = g * x + h * y + 1;
  return [(a * x + b * y + c) / w, (d * x + e * y + f) / w];
}

// ---------------------------------------------------------------- edges

/** Block means: text averages into grey, while the paper's edge stays a step. */
function reduce(image: GreyImage, factor: number): GreyImage {
  if (factor === 1) return image;
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const data = new Uint8Array(width * height);
  forEachBlockMean(image, factor, (index, mean) => {
    data[index] = Math.round(mean);
  });
  return { width, height, data };
}

/**
 * Where each scan line across `side` leaves the background: walking in from the frame, the first
 * pixel that is (and stays, for a few pixels) much brighter than the frame's own pixel, in
 * sub-pixel position (where the value crosses half-way). `along` is the scan line's position along
 * the side, `across` the edge's distance along the scan line in image coordinates.
 */
function edgePoints(image: GreyImage, side: Side): Array<{ along: number; across: number }> {
  const { width, height, data } = image;
  const vertical = side === "left" || side === "right";
  const lines = vertical ? height : width;
  const depth = Math.floor((vertical ? width : height) * MAX_EDGE_DEPTH);
  const at = (line: number, step: number): number => {
    if (side === "left") return data[line * width + step] as number;
    if (side === "right") return data[line * width + (width - 1 - step)] as number;
    if (side === "top") return data[step * width + line] as number;
    return data[(height - 1 - step) * width + line] as number;
  };
  const points: Array<{ along: number; across: number }> = [];
  const settle = 3;
  for (let line = 0; line < lines; line++) {
    const outside = (at(line, 0) + at(line, 1)) / 2;
    // Not even white paper would stand out against it: this scan line starts on the page.
    if (255 * BACKGROUND_RATIO <= outside + 8) continue;
    for (let step = 1; step < depth - settle; step++) {
      const value = at(line, step);
      if (value * BACKGROUND_RATIO <= outside + 8) continue;
      // Brighter for a few pixels running: paper, not a speck or a reflection on the table.
      let paper = true;
      for (let k = 1; k <= settle && paper; k++) paper = at(line, step + k) * BACKGROUND_RATIO > outside + 8;
      if (!paper) continue;
      const bright = at(line, step + settle);
      const half = (outside + bright) / 2;
      let crossing = step;
      for (let s = step; s >= 1; s--) {
        const before = at(line, s - 1);
        const after = at(line, s);
        if (before <= half && after >= half) {
          crossing = s - 1 + (after === before ? 0.5 : (half - before) / (after - before));
          break;
        }
      }
      // A scan line that starts on the paper (no background before it) says nothing of the edge.
      if (step >= 2) {
        const across =
          side === "left" || side === "top" ? crossing : (vertical ? width : height) - 1 - crossing;
        points.push({ along: line, across });
      }
      break;
    }
  }
  return points;
}

/**
 * A straight edge through the points: least squares, then again without the points far from the
 * line (scan lines that ran past a corner, or into a dark fold). Null when too few scan lines agree.
 */
function fitEdge(points: Array<{ along: number; across: number }>, lines: number): EdgeLine | null {
  if (points.length < lines * MIN_EDGE_SUPPORT) return null;
  let kept = points;
  let line: EdgeLine | null = null;
  for (let round = 0; round < 4; round++) {
    line = leastSquares(kept);
    if (!line) return null;
    const fitted = line;
    const residuals = kept.map((p) => Math.abs(p.across - (fitted.slope * p.along + fitted.offset)));
    const sorted = [...residuals].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    const limit = Math.max(1, 3 * median);
    kept = kept.filter((_, i) => (residuals[i] as number) <= limit);
  }
  if (!line || kept.length < lines * MIN_EDGE_SUPPORT) return null;
  const fitted = line;
  const spread = Math.sqrt(
    kept.reduce((sum, p) => sum + (p.across - (fitted.slope * p.along + fitted.offset)) ** 2, 0) /
      kept.length,
  );
  // A page's edge is straight to within a pixel or so at this size; a ragged one is not an edge.
  return spread <= 1.5 ? fitted : null;
}

function leastSquares(points: Array<{ along: number; across: number }>): EdgeLine | null {
  const n = points.length;
  if (n < 2) return null;
  let sa = 0;
  let sc = 0;
  let saa = 0;
  let sac = 0;
  for (const { along, across } of points) {
    sa += along;
    sc += across;
    saa += along * along;
    sac += along * across;
  }
  const denominator = n * saa - sa * sa;
  if (Math.abs(denominator) < 1e-9) return null;
  const slope = (n * sac - sa * sc) / denominator;
  return { slope, offset: (sc - slope * sa) / n };
}

/** Where a horizontal-ish edge (y = a·x + b) meets a vertical-ish one (x = c·y + d). */
function intersect(across: EdgeLine, down: EdgeLine): Point {
  const { slope: a, offset: b } = across;
  const { slope: c, offset: d } = down;
  const y = (a * d + b) / (1 - a * c);
  return [c * y + d, y];
}

/** Convex, inside the frame give or take a tenth, and covering at least half of it. */
function plausibleQuadrilateral(corners: readonly Point[], image: GreyImage): boolean {
  const marginX = image.width * 0.1;
  const marginY = image.height * 0.1;
  for (const [x, y] of corners) {
    if (!(x >= -marginX && x <= image.width + marginX && y >= -marginY && y <= image.height + marginY))
      return false;
  }
  let area = 0;
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [x0, y0] = corners[i] as Point;
    const [x1, y1] = corners[(i + 1) % 4] as Point;
    const [x2, y2] = corners[(i + 2) % 4] as Point;
    const turn = Math.sign((x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1));
    if (sign === 0) sign = turn;
    else if (turn !== sign) return false;
    area += x0 * y1 - x1 * y0;
  }
  return Math.abs(area) / 2 >= 0.5 * image.width * image.height;
}

function rectangleDeparture(corners: readonly Point[]): { cornerSkewDegrees: number; sideMismatch: number } {
  let cornerSkewDegrees = 0;
  const lengths: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [px, py] = corners[(i + 3) % 4] as Point;
    const [x, y] = corners[i] as Point;
    const [nx, ny] = corners[(i + 1) % 4] as Point;
    const ax = px - x;
    const ay = py - y;
    const bx = nx - x;
    const by = ny - y;
    const angle =
      (Math.acos((ax * bx + ay * by) / (Math.hypot(ax, ay) * Math.hypot(bx, by))) * 180) / Math.PI;
    cornerSkewDegrees = Math.max(cornerSkewDegrees, Math.abs(angle - 90));
    lengths.push(Math.hypot(bx, by));
  }
  const [top, right, bottom, left] = lengths as [number, number, number, number];
  const sideMismatch = Math.max(
    Math.abs(top - bottom) / Math.max(top, bottom),
    Math.abs(left - right) / Math.max(left, right),
  );
  return {
    cornerSkewDegrees: Math.round(cornerSkewDegrees * 100) / 100,
    sideMismatch: Math.round(sideMismatch * 10000) / 10000,
  };
}
