// Words placed on a page (a PDF's text items, or the words an OCR engine read) laid out as lines of
// text: rows by baseline, columns where the gap between words is wider than a space, and each
// column's extent on the page. Every reader of a page (the text layer, OCR, the Textract emulator)
// lays out lines this one way, so the same finders read any of them.

/** One column of a line: its text, where it starts in the line, and its extent on the page (points). */
export interface Cell {
  text: string;
  /** Offset of the text in its line. */
  start: number;
  /** Left and right edges on the page, in PDF points. */
  x: number;
  right: number;
  /**
   * On a page read by OCR: how sure it was of the cell (0–100), its words' confidences weighed by
   * their letters and digits. A lone short word read unsure ("A.", "Inc") does not sink a name read
   * surely; a one-word value (an EIN, a date, an amount) keeps its own confidence.
   */
  confidence?: number;
}

export interface PositionedText {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
  /** OCR words only: the engine's confidence (0–100). */
  confidence?: number;
  /** OCR words only: the line the engine read the word in (its words share one baseline). */
  line?: number;
  /** A box's edge stood just before this word: it starts a column whatever the gap. */
  columnBreak?: boolean;
}

/** A gap wider than this many font sizes separates columns rather than words. */
const COLUMN_GAP_EM = 1.2;
/** Items this close (in font sizes) are pieces of one word (fonts that place glyphs one by one). */
const JOIN_GAP_EM = 0.12;

/** A laid-out line: its text, its columns, and its box on the page (points from the bottom left). */
export interface LaidLine {
  text: string;
  cells: Cell[];
  box: LineBox;
}

export interface LineBox {
  x: number;
  y: number;
  right: number;
  top: number;
}

export function layoutLines(items: PositionedText[]): LaidLine[] {
  const sorted = [...items].sort((p, q) => q.y - p.y || p.x - q.x);
  const rows: Array<{ y: number; size: number; items: PositionedText[] }> = [];
  const extents = ocrLineExtents(items);
  for (const item of sorted) {
    const row = rows[rows.length - 1];
    const tolerance = Math.max(1, 0.45 * Math.min(item.size, row?.size ?? item.size));
    if (row && Math.abs(row.y - item.y) <= tolerance && !crossesOcrLines(item, row.items, extents)) {
      row.items.push(item);
      row.size = Math.max(row.size, item.size);
    } else {
      rows.push({ y: item.y, size: item.size, items: [item] });
    }
  }
  const lines: LaidLine[] = [];
  for (const row of rows) {
    const ordered = row.items.sort((p, q) => p.x - q.x);
    let line = "";
    let previous: PositionedText | undefined;
    const cells: Array<{
      start: number;
      x: number;
      right: number;
      confidence?: number;
      weighed?: { sum: number; characters: number };
    }> = [];
    for (const item of ordered) {
      // Simulated bold (the same string drawn twice, slightly offset) would read twice.
      if (previous && previous.str === item.str && Math.abs(previous.x - item.x) < 1) continue;
      let newCell = previous === undefined;
      if (previous) {
        const gap = item.x - (previous.x + previous.width);
        const em = Math.max(previous.size, item.size);
        if (gap >= COLUMN_GAP_EM * em || item.columnBreak) {
          line = `${line.trimEnd()}  `;
          newCell = true;
        } else if (gap > JOIN_GAP_EM * em && !line.endsWith(" ") && !item.str.startsWith(" ")) line += " ";
      }
      const text = line === "" ? item.str.trimStart() : item.str;
      if (newCell) cells.push({ start: line.length, x: item.x, right: item.x + item.width });
      const cell = cells[cells.length - 1];
      if (cell) {
        cell.right = Math.max(cell.right, item.x + item.width);
        // A form's box rules read as glyphs ("|", "[", "_") carry no content: their low
        // confidence must not make the value beside them look unread.
        const characters = item.str.replace(/[^\p{L}\p{N}]/gu, "").length;
        if (item.confidence !== undefined && characters > 0) {
          const weighed = cell.weighed ?? { sum: 0, characters: 0 };
          weighed.sum += item.confidence * characters;
          weighed.characters += characters;
          cell.weighed = weighed;
          cell.confidence = weighed.sum / weighed.characters;
        }
      }
      line += text;
      previous = item;
    }
    const trimmed = line.trimEnd();
    if (trimmed === "") continue;
    // Baseline to cap height: descenders below a baseline are a fifth of the size.
    const box = {
      x: Math.min(...row.items.map((item) => item.x)),
      right: Math.max(...row.items.map((item) => item.x + item.width)),
      y: Math.min(...row.items.map((item) => item.y - 0.2 * item.size)),
      top: Math.max(...row.items.map((item) => item.y + 0.8 * item.size)),
    };
    lines.push({ text: trimmed, cells: cellsOf(trimmed, cells), box });
  }
  return lines;
}

/** Where each OCR line starts and ends on the page, by its index. */
function ocrLineExtents(items: PositionedText[]): Map<number, { x: number; right: number }> {
  const extents = new Map<number, { x: number; right: number }>();
  for (const item of items) {
    if (item.line === undefined) continue;
    const extent = extents.get(item.line) ?? { x: item.x, right: item.x + item.width };
    extent.x = Math.min(extent.x, item.x);
    extent.right = Math.max(extent.right, item.x + item.width);
    extents.set(item.line, extent);
  }
  return extents;
}

/**
 * OCR read these words as separate lines that overlap across the page (a small caption under a
 * large title, at almost the same height): one row would interleave their words. Lines side by
 * side (the columns of a form's row) still share a row.
 */
function crossesOcrLines(
  item: PositionedText,
  row: ReadonlyArray<PositionedText>,
  extents: ReadonlyMap<number, { x: number; right: number }>,
): boolean {
  const own = item.line === undefined ? undefined : extents.get(item.line);
  if (!own) return false;
  return row.some((other) => {
    if (other.line === undefined || other.line === item.line) return false;
    const theirs = extents.get(other.line);
    return theirs !== undefined && own.x < theirs.right && theirs.x < own.right;
  });
}

/**
 * The columns of a laid-out line as `segments` splits it, each with the extent of the items it
 * came from. Two spaces inside one item's text split a column there too; both parts keep the
 * item's extent, which is as precise as the PDF allows.
 */
function cellsOf(
  line: string,
  spans: Array<{ start: number; x: number; right: number; confidence?: number }>,
): Cell[] {
  const result: Cell[] = [];
  const pattern = /\S+(?: \S+)*/g;
  for (let match = pattern.exec(line); match; match = pattern.exec(line)) {
    const start = match.index;
    const span = spans.findLast((candidate) => candidate.start <= start) ?? spans[0];
    if (!span) continue;
    result.push({
      text: match[0],
      start,
      x: span.x,
      right: span.right,
      ...(span.confidence !== undefined ? { confidence: Math.round(span.confidence) } : {}),
    });
  }
  return result;
}
