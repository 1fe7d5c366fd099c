// Key–value pairs and tables found on laid-out lines, by position: what Textract's FORMS and
// TABLES features answer in AWS, found offline from the same lines the finders read. Generic: it
// knows labels and columns, not what a loan document is.
//
// - A key is a short label ending in a colon, with its value after it in the same column, in the
//   next column of its line, or under it; or a row of labels over a single row of values, column by
//   column ("Account Number   Statement Period" over "1234-5678   March 1 - March 31, 2025").
// - A table is a header row of three or more labels over two or more rows whose columns each fall
//   under one of the header's columns.
import type { PointBox } from "./blocks.ts";

/** A laid-out line as far as this needs it: its box and its columns. */
interface LaidLine {
  box: PointBox;
  cells: ReadonlyArray<{ text: string; x: number; right: number; confidence?: number }>;
}

/** Some text of a page and where it stands (points from the bottom left). */
export interface LaidSpan {
  text: string;
  box: PointBox;
  /** 0–100, when an engine said how sure it was. */
  confidence?: number;
}

export interface LaidField {
  key: LaidSpan;
  /** Null: a label with nothing printed for it. */
  value: LaidSpan | null;
}

export interface LaidTable {
  /** 1-based rows (the header is row 1) and columns. */
  cells: Array<{ row: number; column: number; span: LaidSpan }>;
}

const LABEL_WORDS_MAX = 6;
/** A label: letters (with #, ., / and the like), no amount, a few words. */
const LABEL = /^(?=.*[A-Za-z]{2})[A-Za-z][A-Za-z0-9#&'()./\- ]*$/;
const INLINE_PAIR = /^([A-Za-z][^:]{0,60}?):\s+(\S.*)$/;
const KEY_ONLY = /^([A-Za-z][^:]{0,60}):$/;
/** How far under a key its value may stand, in line heights. */
const BELOW_LINES = 2.2;
/** A value under its key starts within this many points of the key's left edge (or overlaps it). */
const UNDER_SLACK = 6;

function isLabel(text: string): boolean {
  return LABEL.test(text) && text.split(/\s+/).length <= LABEL_WORDS_MAX && !/\d[\d,]*\.\d{2}/.test(text);
}

/** The part of a cell from character `from` to `to`, its box apportioned by characters. */
function part(cell: LaidLine["cells"][number], line: LaidLine, from: number, to: number): LaidSpan {
  const perChar = (cell.right - cell.x) / Math.max(1, cell.text.length);
  return {
    text: cell.text.slice(from, to).trim(),
    box: { x: cell.x + from * perChar, right: cell.x + to * perChar, y: line.box.y, top: line.box.top },
    ...(cell.confidence !== undefined ? { confidence: cell.confidence } : {}),
  };
}

function whole(cell: LaidLine["cells"][number], line: LaidLine): LaidSpan {
  return part(cell, line, 0, cell.text.length);
}

const centre = (box: { x: number; right: number }) => (box.x + box.right) / 2;

/** The line under `index` (within a couple of line heights), if any. */
function lineBelow(lines: ReadonlyArray<LaidLine>, index: number): LaidLine | null {
  const line = lines[index];
  const next = lines[index + 1];
  if (!line || !next) return null;
  const height = Math.max(1, line.box.top - line.box.y);
  return line.box.y - next.box.top <= BELOW_LINES * height ? next : null;
}

export function keyValuePairs(
  lines: ReadonlyArray<LaidLine>,
  tables: ReadonlyArray<LaidTable> = [],
): LaidField[] {
  const fields: LaidField[] = [];
  const inTable = tableLines(lines, tables);
  lines.forEach((line, index) => {
    if (inTable.has(index)) return;
    line.cells.forEach((cell, cellIndex) => {
      const inline = INLINE_PAIR.exec(cell.text);
      if (inline?.[1] && isLabel(inline[1])) {
        const valueStart = cell.text.length - (inline[2]?.length ?? 0);
        fields.push({
          key: part(cell, line, 0, inline[1].length + 1),
          value: part(cell, line, valueStart, cell.text.length),
        });
        return;
      }
      const keyOnly = KEY_ONLY.exec(cell.text);
      if (!keyOnly?.[1] || !isLabel(keyOnly[1])) return;
      const key = whole(cell, line);
      const beside = line.cells[cellIndex + 1];
      if (beside && !KEY_ONLY.test(beside.text) && !INLINE_PAIR.test(beside.text)) {
        fields.push({ key, value: whole(beside, line) });
        return;
      }
      const below = lineBelow(lines, index);
      const under = below?.cells.find(
        (candidate) =>
          Math.abs(candidate.x - cell.x) <= UNDER_SLACK ||
          (candidate.x < cell.right && candidate.right > cell.x),
      );
      fields.push({
        key,
        value: below && under && !KEY_ONLY.test(under.text) ? whole(under, below) : null,
      });
    });
    fields.push(...labelsOverValues(lines, index, inTable));
  });
  return fields;
}

/** A row of labels over one row of values, paired column by column. */
function labelsOverValues(lines: ReadonlyArray<LaidLine>, index: number, inTable: Set<number>): LaidField[] {
  const line = lines[index];
  if (!line || line.cells.length < 2 || !line.cells.every((cell) => isLabel(cell.text))) return [];
  if (line.cells.some((cell) => cell.text.endsWith(":"))) return [];
  const below = lineBelow(lines, index);
  if (!below || inTable.has(index + 1) || below.cells.length !== line.cells.length) return [];
  if (!below.cells.some((cell) => /\d/.test(cell.text))) return [];
  const paired = line.cells.map((cell, column) => {
    const value = below.cells[column];
    return value && value.x < cell.right + UNDER_SLACK && value.right > cell.x - UNDER_SLACK ? value : null;
  });
  if (paired.some((value) => value === null)) return [];
  return line.cells.map((cell, column) => ({
    key: whole(cell, line),
    value: whole(paired[column] as LaidLine["cells"][number], below),
  }));
}

function tableLines(lines: ReadonlyArray<LaidLine>, tables: ReadonlyArray<LaidTable>): Set<number> {
  const taken = new Set<number>();
  for (const table of tables)
    for (const cell of table.cells)
      lines.forEach((line, index) => {
        if (line.box.y <= cell.span.box.y + 0.5 && line.box.top >= cell.span.box.top - 0.5) taken.add(index);
      });
  return taken;
}

/** The column bands of a header row: each from halfway to its neighbour on either side. */
function bands(header: LaidLine): Array<{ from: number; to: number }> {
  return header.cells.map((cell, index) => {
    const previous = header.cells[index - 1];
    const next = header.cells[index + 1];
    return {
      from: previous ? (previous.right + cell.x) / 2 : Number.NEGATIVE_INFINITY,
      to: next ? (cell.right + next.x) / 2 : Number.POSITIVE_INFINITY,
    };
  });
}

function columnOf(columns: ReadonlyArray<{ from: number; to: number }>, x: number): number {
  return columns.findIndex((band) => x >= band.from && x < band.to);
}

export function tablesOf(lines: ReadonlyArray<LaidLine>): LaidTable[] {
  const tables: LaidTable[] = [];
  let index = 0;
  while (index < lines.length) {
    const header = lines[index];
    if (!header || header.cells.length < 3 || !header.cells.every((cell) => isLabel(cell.text))) {
      index++;
      continue;
    }
    const columns = bands(header);
    const rows: LaidLine[] = [];
    for (let next = index + 1; next < lines.length; next++) {
      const line = lines[next];
      if (!line) break;
      const previous = rows[rows.length - 1] ?? header;
      const height = Math.max(1, previous.box.top - previous.box.y);
      if (previous.box.y - line.box.top > BELOW_LINES * height) break;
      const used = line.cells.map((cell) => columnOf(columns, centre(cell)));
      const fits = used.every((column) => column >= 0) && new Set(used).size === used.length;
      // A row holds at least two columns; a wrapped description (one cell) continues the table.
      if (!fits || (line.cells.length < 2 && rows.length === 0)) break;
      rows.push(line);
    }
    if (rows.filter((row) => row.cells.length >= 2).length < 2) {
      index++;
      continue;
    }
    const cells: LaidTable["cells"] = [];
    [header, ...rows].forEach((line, row) => {
      for (const cell of line.cells)
        cells.push({ row: row + 1, column: columnOf(columns, centre(cell)) + 1, span: whole(cell, line) });
    });
    tables.push({ cells });
    index += rows.length + 1;
  }
  return tables;
}
