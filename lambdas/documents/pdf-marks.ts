// What a PDF page draws besides text: images and pen-like vector strokes, with where they sit.
// A return signed in a viewer carries the officer's signature as a drawing (vector paths) or a
// picture (an image XObject) in the Sign Here box; no text layer holds it. The page's operator list
// (pdf.js) is walked with its graphics state (save/restore, transforms, form XObjects), so each mark
// is placed on the page in PDF points whatever matrices the producer nested it in.
//
// Printed forms are full of paths too: rules, boxes, check boxes, shading. Those are straight
// segments; a pen stroke is curved or made of many short segments. Marks are kept with their shape
// so the reader of a box decides what counts, and the model's SIGNATURE blocks come from here.

/** A mark on the page, in PDF points from the bottom left. */
export interface InkMark {
  kind: "image" | "strokes";
  x: number;
  y: number;
  right: number;
  top: number;
  /** Strokes only: Bézier segments in the path (pens draw curves; rules and boxes do not). */
  curves: number;
  /** Strokes only: every segment, curved or straight. */
  segments: number;
}

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  // Apply n, then m (PDF's `cm` pre-multiplies the current matrix).
  return [
    n[0] * m[0] + n[1] * m[2],
    n[0] * m[1] + n[1] * m[3],
    n[2] * m[0] + n[3] * m[2],
    n[2] * m[1] + n[3] * m[3],
    n[4] * m[0] + n[5] * m[2] + m[4],
    n[4] * m[1] + n[5] * m[3] + m[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function boxOf(m: Matrix, x0: number, y0: number, x1: number, y1: number) {
  const corners = [apply(m, x0, y0), apply(m, x1, y0), apply(m, x0, y1), apply(m, x1, y1)];
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  return { x: Math.min(...xs), y: Math.min(...ys), right: Math.max(...xs), top: Math.max(...ys) };
}

/** pdf.js's path opcodes inside a constructPath's data (its `DrawOPS`). */
const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

/** Segments and curves of one path's data, or null when the data is not in the expected shape. */
function pathShape(data: unknown): { segments: number; curves: number } | null {
  if (!data || typeof (data as ArrayLike<number>).length !== "number") return null;
  const ops = data as ArrayLike<number>;
  let segments = 0;
  let curves = 0;
  for (let i = 0; i < ops.length; ) {
    const op = ops[i];
    if (op === DRAW.moveTo || op === DRAW.lineTo) {
      if (op === DRAW.lineTo) segments++;
      i += 3;
    } else if (op === DRAW.curveTo) {
      segments++;
      curves++;
      i += 7;
    } else if (op === DRAW.quadraticCurveTo) {
      segments++;
      curves++;
      i += 5;
    } else if (op === DRAW.closePath) {
      i += 1;
    } else return null;
  }
  return { segments, curves };
}

/** The subset of pdf.js's `OPS` table the walk needs (numbers differ between pdf.js versions). */
export interface OperatorCodes {
  save: number;
  restore: number;
  transform: number;
  constructPath: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  paintImageXObject: number;
  paintInlineImageXObject: number;
  paintImageMaskXObject: number;
  paintImageXObjectRepeat?: number;
}

/** Marks smaller than this (points, both sides) are specks, dots and bullets. */
const MIN_MARK_POINTS = 1.5;

/**
 * Images and stroked paths of one page's operator list, placed on the page. Straight-only paths are
 * kept too (with `curves: 0`) so a reader can tell a pen's polyline from a rule by its segments.
 */
export function inkMarks(
  operatorList: { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> },
  ops: OperatorCodes,
): InkMark[] {
  const marks: InkMark[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = IDENTITY;
  const images = new Set(
    [
      ops.paintImageXObject,
      ops.paintInlineImageXObject,
      ops.paintImageMaskXObject,
      ops.paintImageXObjectRepeat,
    ].filter((code): code is number => code !== undefined),
  );
  for (let index = 0; index < operatorList.fnArray.length; index++) {
    const fn = operatorList.fnArray[index];
    const args = operatorList.argsArray[index] as unknown[] | null;
    if (fn === ops.save) stack.push(ctm);
    else if (fn === ops.restore) ctm = stack.pop() ?? IDENTITY;
    else if (fn === ops.transform && Array.isArray(args) && args.length >= 6) {
      ctm = multiply(ctm, args.slice(0, 6).map(Number) as Matrix);
    } else if (fn === ops.paintFormXObjectBegin) {
      stack.push(ctm);
      const matrix = Array.isArray(args) ? (args[0] as ArrayLike<number> | null) : null;
      if (matrix && matrix.length >= 6) ctm = multiply(ctm, Array.from(matrix).slice(0, 6) as Matrix);
    } else if (fn === ops.paintFormXObjectEnd) ctm = stack.pop() ?? IDENTITY;
    else if (fn !== undefined && images.has(fn)) {
      const box = boxOf(ctm, 0, 0, 1, 1);
      if (box.right - box.x >= MIN_MARK_POINTS && box.top - box.y >= MIN_MARK_POINTS) {
        marks.push({ kind: "image", ...box, curves: 0, segments: 0 });
      }
    } else if (fn === ops.constructPath && Array.isArray(args)) {
      const [, data, minMax] = args as [unknown, unknown[] | undefined, ArrayLike<number> | undefined];
      const shape = pathShape(Array.isArray(data) ? data[0] : data);
      if (!shape || !minMax || minMax.length < 4 || shape.segments === 0) continue;
      const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = Array.from(minMax);
      if (!Number.isFinite(x0) || !Number.isFinite(x1) || x1 < x0) continue;
      const box = boxOf(ctm, x0, y0, x1, y1);
      if (box.right - box.x < MIN_MARK_POINTS && box.top - box.y < MIN_MARK_POINTS) continue;
      marks.push({ kind: "strokes", ...box, ...shape });
    }
  }
  return marks;
}

/**
 * Does this mark look like a pen's: an image, or strokes with curves or many short segments. A
 * rule (one or a few straight segments), a box or a check box is not.
 */
export function penLike(mark: InkMark): boolean {
  if (mark.kind === "image") return true;
  if (mark.curves >= 2) return true;
  const width = mark.right - mark.x;
  const height = mark.top - mark.y;
  // A scribble drawn as a polyline: many segments within a small area, with height to it.
  return mark.segments >= 8 && height >= 3 && width / Math.max(1, mark.segments) < 12;
}
