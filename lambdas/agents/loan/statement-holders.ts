import type { Located } from "./statement-fields.ts";
import { cellBelow, type PageText, segments } from "./text.ts";

/** A value printed beside its label, at `offset` of the page's line `line`. */
export function besideLabel<T>(value: T, page: PageText, line: number, offset: number): Located<T> {
  return { value, page, line, offset, source: "label", confidence: 1 };
}

// ---------------------------------------------------------------- holders

const HOLDER_LABEL =
  /^(?:primary\s+|joint\s+|secondary\s+|co-?)?(?:account\s+(?:holder|owner)s?(?:\s*\(s\))?|owners?(?:\s*\(s\))?|account\s+name|name\s+on\s+(?:the\s+)?account|customer\s+name|owner\s+name|member\s+name|account\s+title|prepared\s+for)\s*[:-]?\s*(.*)$/i;
const NOT_A_NAME =
  /\d|account|statement|period|balance|page|bank|credit\s+union|\bfcu\b|\bn\.?a\.?\b|trust|fdic|ncua|customer|service|member|information|summary|checking|savings/i;
const STREET_LINE =
  /^(?:\d+[A-Z]?\s+[A-Za-z0-9].*|P\.?\s?O\.?\s+BOX\s+\d+.*|(?:RR|HC)\s+\d+\s+BOX\s+\d+.*|[A-Z]{1,2}-\d+[A-Z]?,?\s+[A-Za-z].*|(?:flat|unit|apt|suite)\s+(?:no\.?\s*)?\d+.*)$/i;
const CITY_LINE = /^[A-Za-z][A-Za-z .'-]*,?\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?$/;
/** The city line as a scan may read it, the state run into the city: "SPOKANEWA 99203-4410". */
const CITY_STATE_RUN_TOGETHER = /^[A-Z][A-Z .'-]{3,}[A-Z]{2}\s+\d{5}(?:-\d{4})?$/;
/**
 * The last line of an address outside the US: a town and its postcode (Auckland 1011, BONDI JUNCTION
 * NSW 2022, MUMBAI 400053, Harrogate HG2 8QT, Montreal QC H2J 2L8, Nenagh E45 XK27).
 */
const POSTCODE_LINE =
  /^(?:[A-Za-z][A-Za-z .,'-]*\s+(?:\d{4}|\d{6})|(?:[A-Za-z][A-Za-z .,'-]*\s+)?(?:[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|[A-Z]\d[A-Z]\s?\d[A-Z]\d|[A-Z]\d{2}\s?[A-Z0-9]{4}))$/;
const addressEnd = (text: string) =>
  CITY_LINE.test(text) || CITY_STATE_RUN_TOGETHER.test(text.trim()) || POSTCODE_LINE.test(text.trim());

/** A printed person or business name: letters, a few words, none of a bank's or a heading's words. */
export function looksLikeName(value: string): boolean {
  const words = value.trim().split(/\s+/);
  return (
    /^[A-Za-z][A-Za-z.,'&\- ]*$/.test(value.trim()) &&
    words.length >= 2 &&
    words.length <= 10 &&
    !NOT_A_NAME.test(value)
  );
}

export function readHolders(pages: PageText[]): Array<Located<string>> {
  const holders: Array<Located<string>> = [];
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      const parts = segments(line);
      parts.forEach((part, partIndex) => {
        const label = HOLDER_LABEL.exec(part.text);
        if (!label) return;
        const inline = (label[1] ?? "").trim();
        if (inline !== "") {
          if (/[A-Za-z]{2,}/.test(inline)) {
            holders.push(besideLabel(inline, page, index, part.start));
          }
          return;
        }
        const next = parts[partIndex + 1];
        if (next && looksLikeName(next.text)) {
          holders.push(besideLabel(next.text, page, index, next.start));
          return;
        }
        // The label heads a column: the name is printed under it.
        const below = valueBelow(page, index, part.start);
        if (below && /[A-Za-z]{2,}/.test(below.text) && !NOT_A_NAME.test(below.text)) {
          holders.push({
            value: below.text,
            page,
            line: below.line,
            offset: below.start,
            source: "table",
            confidence: 0.9,
          });
        }
      });
    });
  }
  return holders;
}

/** The text printed under the column that starts at `offset` of a line: by position, else by column order. */
export function valueBelow(
  page: PageText,
  line: number,
  offset: number,
): { text: string; line: number; start: number } | null {
  const heading = page.cells?.[line]?.find((cell) => cell.start === offset);
  if (heading) {
    const found = cellBelow(page, line, heading, 2);
    return found ? { text: found.cell.text, line: found.line, start: found.cell.start } : null;
  }
  const index = segments(page.lines[line] ?? "").findIndex((part) => part.start === offset);
  const below = segments(page.lines[line + 1] ?? "")[Math.max(0, index)];
  return below ? { text: below.text, line: line + 1, start: below.start } : null;
}

/**
 * The names above the mailing address on page 1: a street line, then a "CITY ST 12345" line, in
 * the same column, under one to three name lines (joint owners are often printed one a line).
 */
/** A line inside an address block: a second street line or a suburb, short and without amounts. */
function looksLikeAddressPart(text: string): boolean {
  return (
    STREET_LINE.test(text) || (/^[A-Za-z][A-Za-z .,'-]{1,40}$/.test(text.trim()) && !NOT_A_NAME.test(text))
  );
}

export function readAddressNames(pages: PageText[]): Array<Located<string>> {
  const page = pages[0];
  if (!page) return [];
  const limit = Math.min(page.lines.length - 1, 40);
  for (let index = 1; index < limit; index++) {
    for (const street of columnsOf(page, index)) {
      if (!STREET_LINE.test(street.text)) continue;
      // A line of the column beside the address may sit between its baselines (as above the street).
      const nextInColumn = (after: number) => {
        let line = after + 1;
        while (line < after + 3 && emptyInColumn(page, line, street, index)) line += 1;
        return line;
      };
      let cityLine = nextInColumn(index);
      let city = sameColumn(page, cityLine, street);
      // A second street line (apartment, suite) or a suburb may come before the city.
      for (
        let extra = 0;
        extra < 2 && city && !addressEnd(city.text) && looksLikeAddressPart(city.text);
        extra++
      ) {
        cityLine = nextInColumn(cityLine);
        city = sameColumn(page, cityLine, street);
      }
      if (!city || !addressEnd(city.text)) continue;
      const names: Array<Located<string>> = [];
      for (let above = index - 1, read = 0; above >= 0 && read < 3; above--) {
        // A line of the column beside the address (customer service numbers printed between
        // the address block's baselines) leaves the address column empty: look past it.
        if (emptyInColumn(page, above, street, index)) continue;
        read += 1;
        const name = sameColumn(page, above, street);
        if (!name || !looksLikeName(name.text)) break;
        names.unshift({
          // Joint owners print one per line, the first ending "OR" / "AND" / "&" before the next.
          value: name.text.replace(/\s+(?:and|or|&)$/i, ""),
          page,
          line: above,
          offset: name.start,
          source: "position",
          confidence: 0.7,
        });
      }
      if (names.length > 0) return names;
    }
  }
  return [];
}

interface Column {
  text: string;
  start: number;
  x?: number;
}

function columnsOf(page: PageText, line: number): Column[] {
  const cells = page.cells?.[line];
  if (cells && cells.length > 0)
    return cells.map((cell) => ({ text: cell.text, start: cell.start, x: cell.x }));
  return segments(page.lines[line] ?? "").map((part) => ({ text: part.text, start: part.start }));
}

/**
 * Whether nothing of `line` is printed over the column of `anchor` (a cell of line `anchorLine`).
 * Known only with positions; without them every line counts as occupied.
 */
function emptyInColumn(page: PageText, line: number, anchor: Column, anchorLine: number): boolean {
  const cells = page.cells?.[line];
  const extent = page.cells?.[anchorLine]?.find((cell) => cell.start === anchor.start);
  if (!cells || !extent) return false;
  return !cells.some((cell) => cell.x < extent.right && cell.right > extent.x);
}

/** The column of `line` that starts where `anchor` starts (same x within 2 points, or the same offset). */
function sameColumn(page: PageText, line: number, anchor: Column): Column | null {
  if (line < 0 || line >= page.lines.length) return null;
  return (
    columnsOf(page, line).find((column) =>
      column.x !== undefined && anchor.x !== undefined
        ? Math.abs(column.x - anchor.x) <= 2
        : Math.abs(column.start - anchor.start) <= 1,
    ) ?? null
  );
}

/** Whether `name` is printed on a line of the document other than `except` (a running page header). */
export function printedElsewhere(pages: PageText[], name: string, except: Located<string>): boolean {
  const wanted = name.replace(/\s+/g, " ").trim().toLowerCase();
  if (wanted === "") return false;
  return pages.some((page) =>
    page.lines.some(
      (line, index) =>
        !(page === except.page && index === except.line) &&
        line.replace(/\s+/g, " ").toLowerCase().includes(wanted),
    ),
  );
}
