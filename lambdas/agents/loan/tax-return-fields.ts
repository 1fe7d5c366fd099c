// Field finders of Form 1120: where each field of a return is printed, read the way an underwriter
// reads a print they have never seen. A value counts beside its label ("Name  Acme Widgets Inc"),
// under its column heading (a header table, a wrapped "Employer identification" / "number"
// caption), or, with less confidence, by its position and shape. Both the TR_ evaluators and the
// extraction report read fields only through these functions, so a verdict and the report never
// disagree about what was found.
import type { FieldSource } from "./extraction.ts";
import type { Cell, ExtractedDocument } from "./pdf-text.ts";
import {
  type Citation,
  cellBelow,
  cite,
  DATE_SOURCE,
  documentPages,
  findDates,
  firstTextLine,
  type PageText,
  parseDate,
  type SimpleDate,
  scannedPhrase,
  segments,
} from "./text.ts";

/** A field read from a page: its value, the text it was read from, and how it was found. */
export interface Located<T = string> {
  value: T;
  page: PageText;
  /** The lines the value was read from (label and value), verbatim. */
  citation: Citation;
  source: FieldSource;
  /** 1 beside its label, 0.9 under its column heading, less for a read by position or shape. */
  confidence: number;
}

/** A field the finder could not locate: what it looked for, and where. */
export interface Missing {
  note: string;
}

export type Lookup<T = string> = Located<T> | Missing;

export function isLocated<T>(lookup: Lookup<T>): lookup is Located<T> {
  return "citation" in lookup;
}

const CONFIDENCE: Record<Exclude<FieldSource, "model">, number> = { label: 1, table: 0.9, position: 0.6 };

function located<T>(
  value: T,
  page: PageText,
  source: Exclude<FieldSource, "model">,
  from: number,
  to = from,
  focus = to,
): Located<T> {
  return {
    value,
    page,
    citation: cite(page, from, to, { line: focus, start: 0, end: 0 }),
    source,
    confidence: CONFIDENCE[source],
  };
}

// ---------------------------------------------------------------- the return's pages

export const TAX_RETURN_MARK =
  /\bForm\s*1120\b|Corporation\s+Income\s+Tax\s+Return|Schedule\s+L\b[\s\-–—:.|]*Balance\s+Sheets?/i;
// The words page 1 is recognized by, as printed or as a scan's OCR text layer breaks them.
const PAGE_ONE_TITLE = new RegExp(`U\\.?\\s?S\\.?\\s+${scannedPhrase("Corporation Income Tax Return")}`, "i");
const YEAR_LINE = new RegExp(
  `${scannedPhrase("For calendar year")}|${scannedPhrase("tax year beginning")}`,
  "i",
);
/** Lines only page 1 prints: the income, deduction, tax and payment lines. */
const PAGE_ONE_LINES = [
  "Gross receipts",
  "Cost of goods sold",
  "Total income",
  "Total deductions",
  "Taxable income",
  "Compensation of officers",
  "Total tax",
  "Total payments and credits",
  "Amount owed",
  "Overpayment",
].map((phrase) => new RegExp(`${scannedPhrase(phrase)}\\b`, "i"));

export interface ReturnPages {
  /** The files that are part of the return, in request order. */
  documents: string[];
  pages: PageText[];
  /** Pages that are page 1 of Form 1120, in document order. */
  pageOne: PageText[];
}

export function isTaxReturn(pages: ReadonlyArray<PageText>): boolean {
  return pages.some((page) => TAX_RETURN_MARK.test(page.text));
}

export function returnPages(documents: ReadonlyArray<ExtractedDocument>): ReturnPages {
  const pages: PageText[] = [];
  const names: string[] = [];
  for (const document of documents) {
    const all = documentPages(document);
    // A return split in two files may carry the Form 1120 markers in one file only, so a file
    // counts as part of the return when any of its pages does.
    if (isTaxReturn(all)) {
      pages.push(...all);
      names.push(document.document);
    }
  }
  return { documents: names, pages, pageOne: pages.filter(isPageOne) };
}

/**
 * Page 1 has the title and either its income lines or the identification, tax year and signature
 * together: a filing-instructions cover letter names the return, and even "Signature of officer",
 * but prints no income lines.
 */
export function isPageOne(page: PageText): boolean {
  if (titledAsAnotherForm(page)) return false;
  const titled =
    PAGE_ONE_TITLE.test(page.text) || (/\bForm\s*1120\b/i.test(page.text) && YEAR_LINE.test(page.text));
  if (!titled) return false;
  if (PAGE_ONE_LINES.filter((line) => line.test(page.text)).length >= 2) return true;
  const identified = page.lines.some((line) => einLabels(line).length > 0 || nameLabelAt(line) !== null);
  return identified && SIGNATURE_CAPTION.test(page.text) && YEAR_LINE.test(page.text);
}

/** A form number in a page's title that is not Form 1120's: "Form 8879-CORP", "Form 1125-A", "Form 4562". */
const OTHER_FORM_TITLE = /^Form\s+(?!1120)\d{3,4}(?:-[A-Z]+)?\b/i;

/**
 * Whether the page is the first page of another form filed with the return: its title, in the
 * page's first lines, names another form number. An e-file authorization (Form 8879-CORP) copies
 * page 1's totals ("Total income (Form 1120, line 11)") but is not page 1.
 */
function titledAsAnotherForm(page: PageText): boolean {
  const top = page.lines.filter((line) => line.trim() !== "").slice(0, 4);
  return top.some((line) => segments(line).some((part) => OTHER_FORM_TITLE.test(part.text)));
}

/**
 * The pages that are page 1, else those that print its title: a scan too poor for its income lines
 * and captions (a return printed two pages to a sheet) still shows which page holds the boxes.
 */
function pageOneOrTitled(view: ReturnPages): PageText[] {
  if (view.pageOne.length > 0) return view.pageOne;
  return view.pages.filter((page) => PAGE_ONE_TITLE.test(page.text) && !titledAsAnotherForm(page));
}

/** Page 1 first: the identification boxes and the signature live there. */
export function searchOrder(view: ReturnPages): PageText[] {
  return [...view.pageOne, ...view.pages.filter((page) => !view.pageOne.includes(page))];
}

/** "page 1 of a.pdf", "pages 1, 2, 3 of a.pdf and page 2 of b.pdf". */
export function describePages(pages: ReadonlyArray<PageText>): string {
  if (pages.length === 0) return "no page";
  const byDocument = new Map<string, number[]>();
  for (const page of pages)
    byDocument.set(page.document, [...(byDocument.get(page.document) ?? []), page.page]);
  return [...byDocument]
    .map(
      ([document, numbers]) =>
        `${numbers.length === 1 ? "page" : "pages"} ${numbers.join(", ")} of ${document}`,
    )
    .join(" and ");
}

function lineOfOffset(page: PageText, offset: number): number {
  let consumed = 0;
  for (let index = 0; index < page.lines.length; index++) {
    consumed += (page.lines[index] ?? "").length + 1;
    if (offset < consumed) return index;
  }
  return Math.max(0, page.lines.length - 1);
}

/** The positioned cells of the lines after `line` that sit in the column of `heading`, nearest first. */
function cellsUnder(
  page: PageText,
  line: number,
  heading: Cell,
  within = 3,
): Array<{ line: number; cell: Cell }> {
  const result: Array<{ line: number; cell: Cell }> = [];
  for (let next = line + 1; next <= line + within && next < page.lines.length; next++) {
    for (const cell of page.cells?.[next] ?? []) {
      if (cell.x < heading.right - 0.5 && cell.right > heading.x + 0.5) result.push({ line: next, cell });
    }
  }
  return result;
}

/**
 * Without positions (text extracted elsewhere): the segment of the next lines in the same place
 * among its line's columns as the heading among the heading line's, when both lines have as many.
 */
function alignedBelow(
  page: PageText,
  line: number,
  start: number,
  within = 2,
): Array<{ line: number; cell: Cell }> {
  const heading = segments(page.lines[line] ?? "");
  const position = heading.findIndex((part) => part.start === start);
  const result: Array<{ line: number; cell: Cell }> = [];
  for (let next = line + 1; next <= line + within && next < page.lines.length; next++) {
    const parts = segments(page.lines[next] ?? "");
    const part = parts.length === heading.length ? parts[position] : undefined;
    if (part) result.push({ line: next, cell: { text: part.text, start: part.start, x: 0, right: 0 } });
  }
  return result;
}

function cellOfSegment(page: PageText, line: number, start: number): Cell | null {
  return page.cells?.[line]?.find((cell) => cell.start === start) ?? null;
}

// ---------------------------------------------------------------- page 1 and Schedule L

export function findPageOne(view: ReturnPages): Lookup<string> {
  const page = view.pageOne[0];
  if (!page) {
    return {
      note: `could not locate Form 1120 page 1 in ${describePages(view.pages)}: no page with the title "U.S. Corporation Income Tax Return" and its income lines (gross receipts, taxable income) or its name, EIN, tax year and signature boxes`,
    };
  }
  const match = PAGE_ONE_TITLE.exec(page.text) ?? /\bForm\s*1120\b/i.exec(page.text);
  return located(
    "Form 1120 page 1",
    page,
    "label",
    match ? lineOfOffset(page, match.index) : firstTextLine(page),
  );
}

const SCHEDULE = scannedPhrase("Schedule");
const BALANCE_SHEETS = `${scannedPhrase("Balance Sheet")}s?`;
const SCHEDULE_L_HEADING = new RegExp(
  `^${SCHEDULE}\\s*L\\b(?:\\s*\\(Form\\s*1120\\))?[\\s\\-–—:.|]*${BALANCE_SHEETS}(?:\\s+per\\s+Books)?|^${BALANCE_SHEETS}\\s+per\\s+Books\\s*[\\s\\-–—:.|(]*${SCHEDULE}\\s*L\\b`,
  "i",
);
// A scan's OCR may run the title's words together ("BalanceSheets per Books") or lose its first
// word by the black "Schedule L" box ("Sheets per Books"): no other part of the return says it.
const SCHEDULE_L_TITLE_ONLY = new RegExp(
  `^(?:${scannedPhrase("Balance")}\\s*)?${scannedPhrase("Sheet")}s?\\s*per\\s*Books\\b`,
  "i",
);
/**
 * "Form 1120 (2025) Page 6": a page of Form 1120 itself, not of the 1120-S, -F or another of the
 * family; a scan may misread the year ("Form 1120 202%) Page6") and the page ("Pan6"), so "Pa…n"
 * on the line will do.
 */
const FORM_1120_RUNNING_HEADER =
  /^\s*Form\s*1120(?![-\s]*[A-Z]\b)\s*(?:\((?:19|20)\d{2}\)|[^\n]*\bPa[a-z]{0,2}\s*\d)/im;
/** Lines only a balance sheet prints (Schedule L's first asset line among them). */
const BALANCE_SHEET_LINE =
  /Total\s+assets|Total\s+liabilities|Retained\s+earnings|Beginning\s+of\s+tax\s+year|End\s+of\s+tax\s+year|Trade\s+notes\s+and\s+accounts|Loans\s+(?:to|from)\s+shareholders|Capital\s+stock/i;

/**
 * Schedule L is a heading followed by a balance sheet: a cover letter's "Forms included: …
 * Schedule L - Balance Sheets per Books" or Schedule K's "not required to complete Schedules L,
 * M-1, and M-2" is not the schedule.
 */
export function findScheduleL(view: ReturnPages): Lookup<string> {
  for (const titleOnly of [false, true]) {
    for (const page of view.pages) {
      // The official form prints "Schedule L" white on black, which a scan's OCR does not read:
      // its title alone counts on a page the running header names as a Form 1120 page.
      if (titleOnly && !FORM_1120_RUNNING_HEADER.test(page.text)) continue;
      const heading = titleOnly ? SCHEDULE_L_TITLE_ONLY : SCHEDULE_L_HEADING;
      for (let index = 0; index < page.lines.length; index++) {
        const line = page.lines[index] ?? "";
        if (!segments(line).some((part) => heading.test(line.slice(part.start)))) continue;
        const rest = page.lines.filter((_, other) => other !== index).join("\n");
        if (!BALANCE_SHEET_LINE.test(rest)) continue;
        // Cited with the running header above it (what makes the title Form 1120's).
        const header = titleOnly ? page.lines.findIndex((text) => FORM_1120_RUNNING_HEADER.test(text)) : -1;
        return header >= 0 && header < index
          ? located("Schedule L", page, "label", header, index, index)
          : located("Schedule L", page, "label", index);
      }
    }
  }
  return {
    note: `could not locate Schedule L in ${describePages(view.pages)}: no "Schedule L Balance Sheets per Books" heading over balance-sheet lines (total assets, liabilities, retained earnings)`,
  };
}

// ---------------------------------------------------------------- tax year

export interface TaxYear {
  /** The form's year: the calendar year, or the year a fiscal year begins (as the IRS counts it). */
  year: number;
  /** The last day of a fiscal year, when printed. */
  end: SimpleDate | null;
  /** The printed words the year was read from: "For calendar year", "tax year beginning"… */
  label: string;
}

const YEAR_PATTERNS: Array<{
  label: string;
  pattern: RegExp;
  source: Exclude<FieldSource, "model">;
  read: (match: RegExpExecArray) => { year: number; end: SimpleDate | null } | null;
}> = [
  {
    label: "For calendar year",
    pattern: new RegExp(
      `For\\s+calendar\\s+year\\s+(\\d{4})\\b(?:[^\\n]*?tax\\s+year\\s+beginning\\s*(${DATE_SOURCE})[\\s,]*(?:and\\s+)?ending\\s*(${DATE_SOURCE}))?`,
      "i",
    ),
    source: "label",
    read: (m) => ({ year: Number(m[1]), end: m[3] ? parseDate(m[3]) : null }),
  },
  {
    label: "tax year beginning",
    pattern: new RegExp(
      `tax\\s+year\\s+beginning\\s*(${DATE_SOURCE})(?:[\\s,]*(?:and\\s+)?ending\\s*(${DATE_SOURCE}))?`,
      "i",
    ),
    source: "label",
    read: (m) => {
      const begins = parseDate(m[1] ?? "");
      return begins ? { year: begins.y, end: m[2] ? parseDate(m[2]) : null } : null;
    },
  },
  {
    label: "tax year ended",
    pattern: new RegExp(`tax\\s+year\\s+end(?:ed|ing)\\s*:?\\s*(${DATE_SOURCE})`, "i"),
    source: "label",
    read: (m) => fromYearEnd(m[1] ?? ""),
  },
  {
    label: "Tax year",
    pattern: /\btax\s+year\s*:?\s*((?:19|20)\d{2})\b(?![-/])/i,
    source: "label",
    read: (m) => ({ year: Number(m[1]), end: null }),
  },
];

/** A year that ends on `text` began the day after the same date a year earlier: that is its tax year. */
function fromYearEnd(text: string): { year: number; end: SimpleDate } | null {
  const end = parseDate(text);
  if (!end) return null;
  const dayAfter = new Date(Date.UTC(end.y - 1, end.m - 1, end.d + 1));
  return { year: dayAfter.getUTCFullYear(), end };
}

function plausibleYear(year: number): boolean {
  return Number.isInteger(year) && year > 1900 && year < 2200;
}

/**
 * The return's tax year from its most authoritative statement: page 1's heading beats a footer. On
 * a scan, a calendar year printed in several places (the heading's line, the title's big year, the
 * "Form 1120 (2024)" header of every later page) is cited where OCR read it surest, the places
 * agreeing: the small heading line is often the worst read.
 */
export function findTaxYear(view: ReturnPages): Lookup<TaxYear> {
  const readings = taxYearReadings(view);
  const first = readings[0];
  if (!first) {
    return {
      note: `could not locate the tax year in ${describePages(searchOrder(view))}: no "For calendar year YYYY", "tax year beginning <date>", "Tax year ended <date>" or "Form 1120 (YYYY)"`,
    };
  }
  if (!first.page.ocr || first.value.end) return first;
  const agreeing = readings.filter(
    (reading) => reading.value.year === first.value.year && !reading.value.end,
  );
  return agreeing.reduce((best, reading) => (yearReadAt(reading) > yearReadAt(best) ? reading : best), first);
}

/** How sure OCR was of the year a reading cites (0–100): its surest column holding the year. */
function yearReadAt(reading: Located<TaxYear>): number {
  const year = String(reading.value.year);
  const lines = reading.citation.excerpt.split("\n");
  const confidences = reading.page.lines.flatMap((line, index) =>
    lines.some((cited) => line.includes(cited.trim()) || cited.includes(line.trim()))
      ? (reading.page.cells?.[index] ?? [])
          .filter((cell) => cell.text.includes(year) && cell.confidence !== undefined)
          .map((cell) => cell.confidence as number)
      : [],
  );
  return confidences.length > 0 ? Math.max(...confidences) : 0;
}

/** Every statement of the tax year the return makes, the most authoritative first. */
function taxYearReadings(view: ReturnPages): Array<Located<TaxYear>> {
  const order = searchOrder(view);
  const readings: Array<Located<TaxYear>> = [];
  for (const { label, pattern, source, read } of YEAR_PATTERNS) {
    for (const page of order) {
      const match = pattern.exec(page.text);
      const reading = match ? read(match) : null;
      if (match && reading && plausibleYear(reading.year)) {
        const line = lineOfOffset(page, match.index);
        readings.push(
          located(
            { ...reading, label },
            page,
            source,
            line,
            lineOfOffset(page, match.index + match[0].length - 1),
          ),
        );
        break;
      }
    }
  }
  // A header table: "Tax year ended" heading with the date in the row below.
  readings.push(...yearUnderHeading(order));
  // The form's own year: "Form 1120 (2024)" footers, a "2024 Form 1120" or "2024 U.S. Corporation…" title.
  for (const pattern of [
    /\bForm\s*1120\s*\((\d{4})\)/i,
    /\b((?:19|20)\d{2})\s+(?:Form\s*1120\b|U\.?\s?S\.?\s+Corporation\s+Income\s+Tax\s+Return)/i,
    /\bU\.?\s?S\.?\s+Corporation\s*Income\s+Tax\s+Return\s+((?:19|20)\d{2})\b/i,
  ]) {
    for (const page of order) {
      const match = pattern.exec(page.text);
      if (match && plausibleYear(Number(match[1]))) {
        readings.push(
          located(
            { year: Number(match[1]), end: null, label: "Form 1120 (year)" },
            page,
            "position",
            lineOfOffset(page, match.index),
          ),
        );
        break;
      }
    }
  }
  return readings;
}

function yearUnderHeading(order: PageText[]): Array<Located<TaxYear>> {
  for (const page of order) {
    for (let index = 0; index < page.lines.length; index++) {
      for (const part of segments(page.lines[index] ?? "")) {
        if (!/^tax\s+year\s+end(?:ed|ing)$/i.test(part.text)) continue;
        const heading = cellOfSegment(page, index, part.start);
        const below = heading ? cellsUnder(page, index, heading, 2) : alignedBelow(page, index, part.start);
        for (const { line, cell } of below) {
          const date = findDates(cell.text)[0];
          const reading = date ? fromYearEnd(date.text) : null;
          if (reading && plausibleYear(reading.year)) {
            return [located({ ...reading, label: "Tax year ended" }, page, "table", index, line)];
          }
        }
      }
    }
  }
  return [];
}

// ---------------------------------------------------------------- EIN

/**
 * How far right of its label a value beside it may start (points): three inches. A line of another
 * column (the other page of a sheet printed two-up, a form's line across the page) may share its row.
 */
const BESIDE_REACH = 216;

const EIN_LABEL =
  /employer\s+identification(?:\s+(?:number|no\.?))?|\bidentification\s+(?:number|no\.?)|employer\s+id\.?\s*(?:number|no\.?|#)|federal\s+(?:tax\s+)?id(?:entification)?\.?\s*(?:number|no\.?|#)?|\bF?EIN\b/gi;
/** NN-NNNNNNN, also printed with a dash of another width, a space or nothing between the groups. */
const EIN_VALUE = /(?<![\d\-–—])(\d{2})[-–—\s]?(\d{7})(?![\d\-–—])/;
/** The start and the end of the EIN's caption when a scan lost the word between them. */
const EMPLOYER_CAPTION_START = /^(?:[A-Z0-9]\s+)?employer$/i;
const NUMBER_CAPTION_END = /^(?:number|no\.?)$/i;
/** Identification numbers of someone else printed on the return: the preparer's firm, a parent. */
const OTHER_PARTY =
  /\bfirm(?:'?s)?\b|preparer|parent|subsidiar|shareholder|owner|partner|payer|transferor|foreign/i;
/** Printed captions of the identification boxes, never a value. */
const IDENTIFICATION_CAPTION = /^(?:number|no\.?|#|\(see instructions\))$/i;

function normalizeEin(text: string): string | null {
  const match = EIN_VALUE.exec(text);
  return match ? `${match[1]}-${match[2]}` : null;
}

/** The EIN labels of a line that name the corporation's own number, with where each ends. */
function einLabels(line: string): Array<{ segment: number; start: number; end: number }> {
  const result: Array<{ segment: number; start: number; end: number }> = [];
  const parts = segments(line);
  parts.forEach((part, segment) => {
    if (OTHER_PARTY.test(part.text)) return;
    // "B Employer identification number" as a scan reads it, the middle word lost: "B Employer"
    // and "number" two cells apart.
    if (EMPLOYER_CAPTION_START.test(part.text) && NUMBER_CAPTION_END.test(parts[segment + 1]?.text ?? "")) {
      result.push({ segment, start: part.start, end: part.start + part.text.length });
      return;
    }
    EIN_LABEL.lastIndex = 0;
    const match = EIN_LABEL.exec(part.text);
    if (match) {
      result.push({
        segment,
        start: part.start + match.index,
        end: part.start + match.index + match[0].length,
      });
    }
  });
  return result;
}

function einBesideOrUnder(
  page: PageText,
  index: number,
  label: { segment: number; start: number; end: number },
): Located | null {
  const line = page.lines[index] ?? "";
  const parts = segments(line);
  const own = parts[label.segment];
  // "EIN: 12-3456789" in the label's own column, or the next column of the line when it is near.
  const inline = own ? line.slice(label.end, own.start + own.text.length) : "";
  const next = parts[label.segment + 1];
  const ownCell = own ? cellOfSegment(page, index, own.start) : null;
  const nextCell = next ? cellOfSegment(page, index, next.start) : null;
  const near = !(ownCell && nextCell && nextCell.x - ownCell.right > BESIDE_REACH);
  for (const text of [inline, near ? (next?.text ?? "") : ""]) {
    const ein = normalizeEin(text);
    if (ein) return located(ein, page, "label", index);
  }
  // Under the caption: a header table, or a box whose caption wraps over two lines.
  const heading = own ? cellOfSegment(page, index, own.start) : null;
  if (heading) {
    for (const { line: below, cell } of cellsUnder(page, index, heading)) {
      if (IDENTIFICATION_CAPTION.test(cell.text.trim())) continue;
      const ein = normalizeEin(cell.text);
      if (ein && cell.text.replace(/[^\d]/g, "").length === 9)
        return located(ein, page, "table", index, below);
      if (/[a-z]{3,}/i.test(cell.text)) break;
    }
    return null;
  }
  // Without positions: the value in the label's column of the next lines, else any EIN there.
  for (let below = index + 1; below <= Math.min(page.lines.length - 1, index + 2); below++) {
    const next = segments(page.lines[below] ?? "");
    const aligned = next.length === parts.length ? next[label.segment] : undefined;
    const candidates = aligned ? [aligned] : next;
    for (const part of candidates) {
      const ein = normalizeEin(part.text);
      if (ein && part.text.replace(/[^\d]/g, "").length === 9 && !OTHER_PARTY.test(page.lines[below] ?? "")) {
        return located(ein, page, aligned ? "table" : "position", index, below);
      }
    }
  }
  return null;
}

/**
 * The paid preparer's block at the foot of a return's page: "Paid Preparer Use Only", "Print/type
 * preparer's name". Every number from there down is the preparer's or the firm's, even where a scan
 * lost the "Firm's EIN" caption that says so.
 */
const PREPARER_BLOCK =
  /paid\s+preparer|preparer['’]?s\s+name|print\s*\/\s*type\s+preparer|firm['’]?s\s+name/i;

/** The index of the first line of the page's paid-preparer block, or the page's length. */
function preparerBlockStart(page: PageText): number {
  const start = page.lines.findIndex((line) => PREPARER_BLOCK.test(line));
  return start < 0 ? page.lines.length : start;
}

/** The corporation's EIN: beside or under its label on page 1 first, else a hyphenated EIN on page 1. */
export function findEin(view: ReturnPages): Lookup<string> {
  const order = searchOrder(view);
  for (const page of order) {
    for (let index = 0; index < preparerBlockStart(page); index++) {
      for (const label of einLabels(page.lines[index] ?? "")) {
        const reading = einBesideOrUnder(page, index, label);
        if (reading) return reading;
      }
    }
  }
  // No label: a hyphenated NN-NNNNNNN standing on page 1 that is nobody else's.
  for (const page of pageOneOrTitled(view)) {
    for (let index = 0; index < preparerBlockStart(page); index++) {
      const line = page.lines[index] ?? "";
      if (OTHER_PARTY.test(line)) continue;
      for (const part of segments(line)) {
        const match = /(?<![\d\-–—])(\d{2})[-–—](\d{7})(?![\d\-–—])/.exec(part.text);
        if (match) return located(`${match[1]}-${match[2]}`, page, "position", index);
      }
    }
  }
  return {
    note: `could not locate the EIN in ${describePages(order)}: no "Employer identification number" (or "EIN") label with an NN-NNNNNNN value beside or under it, and no hyphenated EIN on page 1`,
  };
}

// ---------------------------------------------------------------- corporation name

/** The name's caption on its own; a scan may read its colon, or nothing, as a period ("Name."). */
const NAME_LABEL_ALONE =
  /^(?:[A-Z]\s+)?(?:name(?:\s+of\s+(?:corporation|taxpayer|company|business))?|(?:corporation|corporate|company|business|taxpayer|legal)(?:'s)?\s+name)(?:\s*\(see instructions\))?\s*[:.]?$/i;
const NAME_LABEL_INLINE =
  /^(?:[A-Z]\s+)?(?:(?:name(?:\s+of\s+(?:corporation|taxpayer|company|business))?|(?:corporation|corporate|company|business|taxpayer|legal)(?:'s)?\s+name)\s*:|name\s+of\s+corporation|corporation(?:'s)?\s+name)\s*(\S.*)$/i;
/** Printed captions near the name box that are never the corporation's name. */
const FORM_CAPTION =
  /^(?:[A-Z0-9]\s+)?employer$|employer\s+identification|identification\s+(?:number|no\b)|employer\s+id\b|\bEIN\b|number,\s*street|street\s+address|city\s+or\s+town|city,\s+state|date\s+incorporated|total\s+assets|tax\s+year|check\s+if|see\s+instructions|type\s+or\s+print|name\s+change|address\s+change|initial\s+return|final\s+return|consolidated\s+return|schedule\s+[a-z]|attach|form\s+\d|omb\s+no|business\s+activity|^name$|^(?:number|title|date)$|p\.?o\.?\s+box/i;
const DBA = /^(?:dba|d\/b\/a|doing\s+business\s+as)\b[\s:]*(.*)$/i;
const BUSINESS_SUFFIX = /\b(?:inc|incorporated|corp|corporation|co|company|llc|ltd|limited|pc|plc)\.?$/i;

export interface CorporationName {
  name: string;
  /** A "doing business as" line printed under the name. */
  dba: string | null;
}

function isNameValue(value: string): boolean {
  const trimmed = value.trim();
  // At least three letters: a scan's speck beside a caption reads as "ye" or "Il".
  if (!/[A-Za-z]{2,}/.test(trimmed) || trimmed.replace(/[^A-Za-z]/g, "").length < 3 || trimmed.length > 90)
    return false;
  if (FORM_CAPTION.test(trimmed) || DBA.test(trimmed)) return false;
  if (findDates(trimmed).length > 0) return false;
  if (/^\$?[\d,.\s]+$/.test(trimmed)) return false;
  // Form line numbers ("1a Gross receipts") and street addresses ("1250 Industrial Pkwy").
  if (/^\d{1,5}[a-z]?\s/i.test(trimmed)) return false;
  return !EIN_VALUE.test(trimmed);
}

/** The name label of a line: its segment, and a value printed inline after a colon. */
function nameLabelAt(line: string): { segment: number; inline: string | null } | null {
  const parts = segments(line);
  for (let segment = 0; segment < parts.length; segment++) {
    const text = parts[segment]?.text ?? "";
    if (NAME_LABEL_ALONE.test(text)) return { segment, inline: null };
    const inline = NAME_LABEL_INLINE.exec(text);
    if (inline) return { segment, inline: (inline[1] ?? "").trim() };
  }
  return null;
}

function dbaUnder(page: PageText, line: number): string | null {
  const next = segments(page.lines[line + 1] ?? "");
  for (const part of next) {
    const match = DBA.exec(part.text);
    if (match?.[1]) return match[1].trim();
  }
  return null;
}

/** Captions of the boxes printed under the name box in label/value layouts: never a name. */
const CONTACT_CAPTION = /address|phone|telephone|\bfax\b|e-?mail|\bcity\b|\bstate\b|\bzip\b|county|country/i;

/**
 * Whether the line of a "Name" heading is a header row ("Name  Identification number  Date
 * incorporated", the values on the next line) rather than a label with its value beside it: every
 * heading of the line has a value right under it, the one under "Name" reads as a name of several
 * words, and what stands beside the label does not end like a business name.
 */
function isHeaderRow(page: PageText, index: number, nameHeading: Cell, beside: string): boolean {
  const cells = page.cells?.[index];
  if (!cells || cells.length < 2 || BUSINESS_SUFFIX.test(beside.trim())) return false;
  if (!cells.every((cell) => cellBelow(page, index, cell, 1) !== null)) return false;
  const under = cellBelow(page, index, nameHeading, 1)?.cell.text.trim() ?? "";
  return (
    isNameValue(under) && under.split(/\s+/).length >= 2 && !/:$/.test(under) && !CONTACT_CAPTION.test(under)
  );
}

/** How far a wrapped name's second line may start from its first (points): the same box's margin. */
const WRAP_ALIGNMENT_POINTS = 4;

/**
 * A name too long for its box wraps onto the next line of the same box ("Saint Lawrence Valley
 * Agricultural Equipment" / "& Supply Corporation"): a value starting where the name starts, one or
 * two lines down (a value of the next column may print between them), that carries on the name (it
 * begins with "&", "and" or a lower-case word, or ends the name that had no business suffix with
 * one). Only positions tie the two lines together, so without them the name is the first line.
 */
function withContinuation(page: PageText, line: number, cell: Cell | null, name: string): string {
  if (!cell || !page.cells) return name;
  for (let below = line + 1; below <= Math.min(page.lines.length - 1, line + 2); below++) {
    const aligned = page.cells[below]?.find(
      (candidate) => Math.abs(candidate.x - cell.x) <= WRAP_ALIGNMENT_POINTS,
    );
    if (!aligned) continue;
    const text = aligned.text.trim();
    const carriesOn =
      /^(?:&|and\b|[a-z])/.test(text) || (!BUSINESS_SUFFIX.test(name) && BUSINESS_SUFFIX.test(text));
    if (carriesOn && isNameValue(text.replace(/^&\s*/, "")) && !CONTACT_CAPTION.test(text))
      return `${name} ${text}`;
    return name;
  }
  return name;
}

function nameBesideOrUnder(page: PageText, index: number): Located<CorporationName> | null {
  const label = nameLabelAt(page.lines[index] ?? "");
  if (!label) return null;
  const name = (value: string, line: number): CorporationName => {
    const parts = segments(page.lines[line] ?? "");
    const part = parts.find((candidate) => candidate.text === value.trim());
    const cell = part ? cellOfSegment(page, line, part.start) : null;
    return { name: withContinuation(page, line, cell, value.trim()), dba: dbaUnder(page, line) };
  };
  if (label.inline !== null) {
    return isNameValue(label.inline) ? located(name(label.inline, index), page, "label", index) : null;
  }
  const parts = segments(page.lines[index] ?? "");
  const next = parts[label.segment + 1];
  const own = parts[label.segment];
  const heading = own ? cellOfSegment(page, index, own.start) : null;
  // Beside the label means near it (BESIDE_REACH).
  const nextCell = next ? cellOfSegment(page, index, next.start) : null;
  const beside =
    next && !(heading && nextCell && nextCell.x - heading.right > BESIDE_REACH) ? next : undefined;
  if (beside && isNameValue(beside.text) && !(heading && isHeaderRow(page, index, heading, beside.text))) {
    return located(name(beside.text, index), page, "label", index);
  }
  if (heading) {
    for (const { line, cell } of cellsUnder(page, index, heading)) {
      if (isNameValue(cell.text)) return located(name(cell.text, line), page, "table", index, line);
    }
    return null;
  }
  for (let below = index + 1; below <= Math.min(page.lines.length - 1, index + 2); below++) {
    const next = segments(page.lines[below] ?? "");
    const aligned = next.length === parts.length ? next[label.segment] : undefined;
    const value =
      aligned && isNameValue(aligned.text) ? aligned : next.find((part) => isNameValue(part.text));
    if (value)
      return located(name(value.text, below), page, aligned === value ? "table" : "position", index, below);
  }
  return null;
}

/**
 * Every name read beside or under a "Name" label, page 1 first (Form 1125-A and continuation pages
 * repeat it). "Name of person to contact", "Firm's name" and "Name change" are not the label.
 */
export function findCorporationNames(view: ReturnPages): Array<Located<CorporationName>> {
  const pages = view.pageOne.length > 0 ? view.pageOne : searchOrder(view);
  const readings: Array<Located<CorporationName>> = [];
  for (const page of pages) {
    for (let index = 0; index < page.lines.length; index++) {
      const reading = nameBesideOrUnder(page, index);
      if (reading) readings.push(reading);
    }
  }
  return readings;
}

/** Without a label: the first value on page 1 that ends like a business name (Inc, Corp, LLC…). */
export function corporationNameByShape(view: ReturnPages): Located<CorporationName> | null {
  for (const page of view.pageOne) {
    for (let index = 0; index < page.lines.length; index++) {
      const line = page.lines[index] ?? "";
      if (OTHER_PARTY.test(line) || /prepared\s+(?:by|for)/i.test(line)) continue;
      const part = segments(line).find((p) => isNameValue(p.text) && BUSINESS_SUFFIX.test(p.text));
      if (part) return located({ name: part.text, dba: dbaUnder(page, index) }, page, "position", index);
    }
  }
  return null;
}

export function findCorporationName(view: ReturnPages): Lookup<CorporationName> {
  const reading = findCorporationNames(view)[0] ?? corporationNameByShape(view);
  if (reading) return reading;
  const pages = view.pageOne.length > 0 ? view.pageOne : searchOrder(view);
  return {
    note: `could not locate the corporation's name in ${describePages(pages)}: no "Name" (or "Name of corporation") label with a name beside or under it, and no business name (Inc, Corp, LLC…) standing on page 1`,
  };
}

/** The caption under the officer's signature line; the Sign Here block is read in officer-signature.ts. */
export const SIGNATURE_CAPTION = new RegExp(scannedPhrase("signature of officer"), "i");
