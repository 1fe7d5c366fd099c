// Reading helpers shared by the condition engines: lines and columns of extracted pages,
// dates, amounts, name comparison and verbatim citations.

import { distance } from "fastest-levenshtein";
import type { PageModel } from "../../documents/blocks.ts";
import type { Cell, ExtractedDocument } from "./pdf-text.ts";

export interface Citation {
  document: string;
  /** 1-based. */
  page: number;
  /** A verbatim substring of that page's text, at most MAX_EXCERPT characters. */
  excerpt: string;
  /** Set when the page's text was read by OCR (no text layer): the page is an image. */
  source?: "ocr";
  /** With `source: "ocr"`: how sure OCR was of the excerpt (0–100, its least certain column, or of the value it holds). */
  confidence?: number;
  /**
   * Arithmetic on the page confirms what the excerpt shows, whatever OCR's confidence:
   * `running_balance`, the balances printed on the row before and on this row differ by exactly its
   * amount; `deposits_total`, the statement's deposit rows read sum exactly to this printed total,
   * so every deposit was read and read right.
   */
  confirmed_by?: "running_balance" | "deposits_total";
}

export const MAX_EXCERPT = 200;

export interface PageText {
  document: string;
  /** 1-based. */
  page: number;
  text: string;
  lines: string[];
  /** The columns of each line with their extent on the page (`lines[i]` ↔ `cells[i]`), when known. */
  cells?: Cell[][];
  /** The page in the document model (its LINE blocks are `lines`, in order), when it was built. */
  model?: PageModel;
  /** Read by OCR (the text of a scan), not from the PDF's text layer. */
  ocr?: boolean;
}

export function documentPages(document: ExtractedDocument): PageText[] {
  return document.pages.map((text, index) => {
    const lines = text.split("\n");
    const cells = document.cells?.[index];
    const model = document.model?.pages[index];
    const modelLines = model?.blocks.filter((block) => block.BlockType === "LINE").length;
    return {
      document: document.document,
      page: index + 1,
      text,
      lines,
      ...(cells && cells.length === lines.length ? { cells } : {}),
      ...(model && modelLines === lines.length ? { model } : {}),
      ...(document.page_sources?.[index]?.source === "ocr" ? { ocr: true } : {}),
    };
  });
}

/** The positioned column of a line that contains `offset`, or null when positions are unknown. */
export function cellAt(page: PageText, line: number, offset: number): Cell | null {
  return (
    page.cells?.[line]?.find((cell) => offset >= cell.start && offset < cell.start + cell.text.length) ?? null
  );
}

/**
 * What is printed under a column heading, as a table row under its header: the first column of the
 * next `within` lines that overlaps the heading horizontally. Null without positions or a match.
 */
export function cellBelow(
  page: PageText,
  line: number,
  heading: Cell,
  within = 3,
): { line: number; cell: Cell } | null {
  for (let next = line + 1; next <= line + within && next < page.lines.length; next++) {
    const match = page.cells?.[next]?.find(
      (cell) => cell.x < heading.right - 0.5 && cell.right > heading.x + 0.5,
    );
    if (match) return { line: next, cell: match };
  }
  return null;
}

export interface Segment {
  text: string;
  /** Offset of the segment in its line. */
  start: number;
}

/** Columns of a line: runs of text separated by two or more spaces. */
export function segments(line: string): Segment[] {
  const result: Segment[] = [];
  const pattern = /\S+(?: \S+)*/g;
  for (let match = pattern.exec(line); match; match = pattern.exec(line)) {
    result.push({ text: match[0], start: match.index });
  }
  return result;
}

/**
 * Cites lines `from..to` of a page. Falls back to the focus line, then to a window of the focus
 * line around `focus`, so the excerpt stays a verbatim substring within the size limit.
 */
export function cite(
  page: PageText,
  from: number,
  to = from,
  focus?: { line: number; start: number; end: number },
): Citation {
  const first = Math.max(0, Math.min(from, to));
  const last = Math.min(page.lines.length - 1, Math.max(from, to));
  const block = page.lines.slice(first, last + 1).join("\n");
  const excerpt = (() => {
    if (block.length <= MAX_EXCERPT && block.trim() !== "") return block.trim();
    const lineIndex = focus?.line ?? first;
    const line = page.lines[lineIndex] ?? "";
    if (line.trim().length <= MAX_EXCERPT) return line.trim();
    const start = focus && focus.line === lineIndex ? focus.start : 0;
    const end = focus && focus.line === lineIndex ? focus.end : 0;
    const middle = Math.floor((start + end) / 2);
    const windowStart = Math.max(0, Math.min(line.length - MAX_EXCERPT, middle - MAX_EXCERPT / 2));
    return line.slice(windowStart, windowStart + MAX_EXCERPT).trim();
  })();
  return { document: page.document, page: page.page, excerpt };
}

/** Cites the column (2+ space separated run) of a line that contains `offset`: tighter than the whole line. */
export function citeSegment(page: PageText, line: number, offset: number): Citation {
  const text = page.lines[line] ?? "";
  const segment = segments(text).find(
    (part) => offset >= part.start && offset < part.start + part.text.length,
  );
  if (!segment || segment.text.length > MAX_EXCERPT)
    return cite(page, line, line, { line, start: offset, end: offset });
  return { document: page.document, page: page.page, excerpt: segment.text };
}

export function firstTextLine(page: PageText): number {
  const index = page.lines.findIndex((line) => line.trim() !== "");
  return Math.max(0, index);
}

// ---------------------------------------------------------------- dates

export interface SimpleDate {
  y: number;
  m: number;
  d: number;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

const MONTH_NAME =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
/**
 * A date with its year: 01/31/2025, 1/31/25, 01-31-2025, 2025-01-31, January 31, 2025, Jan. 31 2025,
 * 31 January 2025, 31-Jan-25, 31.01.2025 (numeric ones read in the document's date order).
 */
export const DATE_SOURCE = `(?:(?<![\\d/])\\d{1,2}/\\d{1,2}/(?:\\d{4}|\\d{2})(?![\\d/])|(?<![\\d-])\\d{1,2}-\\d{1,2}-(?:\\d{4}|\\d{2})(?![\\d-])|(?<!\\d)\\d{4}-\\d{2}-\\d{2}(?!\\d)|(?<![a-z])${MONTH_NAME}\\.?\\s*\\d{1,2}(?:st|nd|rd|th)?[,.]?\\s+\\d{4}(?!\\d)|(?<!\\d)\\d{1,2}\\s+${MONTH_NAME}\\.?,?\\s+\\d{4}(?!\\d)|(?<![\\w-])\\d{1,2}-${MONTH_NAME}-(?:\\d{4}|\\d{2})(?![\\w-])|(?<![\\d.])\\d{1,2}\\.\\d{1,2}\\.\\d{4}(?![\\d.]))`;
/** A date without its year, as transaction lines print it: 01/31, Jan 31. */
const SHORT_DATE_SOURCE = `(?:(?<![\\d/])\\d{1,2}/\\d{1,2}(?![\\d/])|(?<![a-z])${MONTH_NAME}\\.?\\s+\\d{1,2}(?!\\d)|(?<![\\d/])\\d{1,2}\\s+${MONTH_NAME}\\b\\.?)`;
/** Between two dates of a range; a scan may run "to" into the date before it ("12/15/2025to"). */
const RANGE_SEPARATOR = "\\s*(?:-|–|—|(?:\\b|(?<=\\d))(?:to\\b\\s*:?|through\\b|thru\\b|until\\b))\\s*";

/**
 * The regex source of a printed phrase as OCR may read it: each word may be broken by one stray
 * space ("Sign ature of offi cer", "Sche dule L"), words are apart by any whitespace or none (small
 * print read with its spaces lost: "CorporationIncome Tax Return", "ScheduleL BalanceSheets"), and
 * the letters OCR confuses with look-alikes accept them (o/0, l/1/I, i/1/l, s/5, rn/m: "Retumed",
 * "0fficer"). Scanned returns carry such text; the words a finder reads must survive them.
 */
export function scannedPhrase(phrase: string): string {
  return phrase
    .trim()
    .split(/\s+/)
    .map((word) => {
      const pieces: string[] = [];
      for (let index = 0; index < word.length; index++) {
        const char = word[index] ?? "";
        if (char.toLowerCase() === "r" && word[index + 1]?.toLowerCase() === "n") {
          pieces.push("(?:r ?n|m)");
          index++;
          continue;
        }
        pieces.push(LOOK_ALIKES[char.toLowerCase()] ?? char.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"));
      }
      return pieces.join(" ?");
    })
    .join("\\s*");
}

/**
 * `value` with an initial a scan ran into a name split off: a word that is one of `names`' words
 * (three letters or more) and one more letter ("JOHNA SMITH JR" for John A Smith Jr, against "John
 * Smith Jr.") becomes that word and the letter.
 */
export function splitRunTogetherInitials(value: string, names: string): string {
  const known = names.toLowerCase().match(/[a-z]+/g) ?? [];
  return value
    .split(/\s+/)
    .map((word) => {
      const name = known.find(
        (candidate) =>
          candidate.length >= 3 &&
          word.length === candidate.length + 1 &&
          word.toLowerCase().startsWith(candidate),
      );
      return name && /[a-z]$/i.test(word) ? `${word.slice(0, name.length)} ${word.slice(name.length)}` : word;
    })
    .join(" ");
}

/** Letters and digits only, lower case: how printed wording is compared when spacing and punctuation blur. */
export function lettersOnly(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * Does the text begin with a printed phrase as a degraded scan reads it? Letters and digits are
 * compared, allowing one edit per eight letters of the phrase ("Sgratureof officer" for "Signature
 * of officer": a dropped "i", "n" read as "r", the words run together). For long captions only:
 * a short word has no room for an edit.
 */
export function startsWithScanned(text: string, phrase: string): boolean {
  const wanted = lettersOnly(phrase);
  const read = lettersOnly(text);
  const edits = Math.floor(wanted.length / 8);
  for (let length = wanted.length - edits; length <= wanted.length + edits; length++) {
    if (length <= read.length && distance(read.slice(0, length), wanted) <= edits) return true;
  }
  return false;
}

/** Characters OCR reads for a letter of a printed label (matched case-insensitively). */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  o: "[o0]",
  l: "[l1I|]",
  i: "[i1l|!]",
  s: "[s5]",
  m: "(?:m|rn)",
};

/**
 * How a document writes numeric dates: month first (US: 03/14/2026) or day first (UK, Australia,
 * New Zealand, most of the world: 14/03/2026). Names of months read the same either way.
 */
export type DateOrder = "mdy" | "dmy";

export function parseDate(text: string, defaultYear?: number, order: DateOrder = "mdy"): SimpleDate | null {
  const value = text.trim().toLowerCase().replace(/\s+/g, " ");
  const numeric = (year: number | undefined, first: number, second: number) =>
    order === "dmy" ? validDate(year, second, first) : validDate(year, first, second);
  let match = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?$/.exec(value);
  if (match) {
    const year = match[3] === undefined ? defaultYear : expandYear(Number(match[3]));
    return numeric(year, Number(match[1]), Number(match[2]));
  }
  match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match) return validDate(Number(match[1]), Number(match[2]), Number(match[3]));
  match = /^(\d{1,2})-(\d{1,2})-(\d{2}|\d{4})$/.exec(value);
  if (match) return numeric(expandYear(Number(match[3])), Number(match[1]), Number(match[2]));
  match = /^(\d{1,2})-([a-z]+)-(\d{2}|\d{4})$/.exec(value);
  if (match)
    return validDate(expandYear(Number(match[3])), MONTHS[(match[2] ?? "").slice(0, 3)], Number(match[1]));
  match = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value);
  if (match) return numeric(Number(match[3]), Number(match[1]), Number(match[2]));
  match = /^(\d{1,2}) ([a-z]+)\.?$/.exec(value);
  if (match) return validDate(defaultYear, MONTHS[(match[2] ?? "").slice(0, 3)], Number(match[1]));
  // "March 1. 2026", "March1, 2026": a scan reads the comma as a period, or loses the space.
  match = /^([a-z]+)\.? ?(\d{1,2})(?:st|nd|rd|th)?(?:[,.]? (\d{4}))?$/.exec(value);
  if (match) {
    const year = match[3] === undefined ? defaultYear : Number(match[3]);
    return validDate(year, MONTHS[(match[1] ?? "").slice(0, 3)], Number(match[2]));
  }
  match = /^(\d{1,2}) ([a-z]+)\.?,? (\d{4})$/.exec(value);
  if (match) return validDate(Number(match[3]), MONTHS[(match[2] ?? "").slice(0, 3)], Number(match[1]));
  return null;
}

function expandYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

function validDate(y: number | undefined, m: number | undefined, d: number): SimpleDate | null {
  if (y === undefined || m === undefined || !Number.isInteger(y) || m < 1 || m > 12 || d < 1) return null;
  if (d > new Date(Date.UTC(y, m, 0)).getUTCDate()) return null;
  return { y, m, d };
}

export interface FoundDate {
  date: SimpleDate;
  start: number;
  end: number;
  text: string;
}

export function findDates(text: string, order: DateOrder = "mdy"): FoundDate[] {
  const result: FoundDate[] = [];
  const pattern = new RegExp(DATE_SOURCE, "gi");
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const date = parseDate(match[0], undefined, order);
    if (date) result.push({ date, start: match.index, end: match.index + match[0].length, text: match[0] });
  }
  return result;
}

export interface FoundRange {
  start: SimpleDate;
  end: SimpleDate;
  index: number;
  length: number;
}

/** "01/01/2025 - 01/31/2025", "January 1, 2025 through January 31, 2025", "Jan 1 - Jan 31, 2025". */
export function findDateRanges(text: string, order: DateOrder = "mdy"): FoundRange[] {
  const result: FoundRange[] = [];
  const full = new RegExp(`(${DATE_SOURCE})${RANGE_SEPARATOR}(${DATE_SOURCE})`, "gi");
  for (let match = full.exec(text); match; match = full.exec(text)) {
    const start = parseDate(match[1] ?? "", undefined, order);
    const end = parseDate(match[2] ?? "", undefined, order);
    if (start && end && dayNumber(end) > dayNumber(start)) {
      result.push({ start, end, index: match.index, length: match[0].length });
    }
  }
  if (result.length > 0) return result;
  // The start date often omits the year the end date carries.
  const short = new RegExp(`(${SHORT_DATE_SOURCE})${RANGE_SEPARATOR}(${DATE_SOURCE})`, "gi");
  for (let match = short.exec(text); match; match = short.exec(text)) {
    const end = parseDate(match[2] ?? "", undefined, order);
    if (!end) continue;
    let start = parseDate(match[1] ?? "", end.y, order);
    if (start && dayNumber(start) >= dayNumber(end)) start = parseDate(match[1] ?? "", end.y - 1, order);
    if (start && dayNumber(end) > dayNumber(start)) {
      result.push({ start, end, index: match.index, length: match[0].length });
    }
  }
  if (result.length > 0) return result;
  // Brokerages print a month's days once: "December 1-31, 2025".
  const days = new RegExp(
    `(?<![a-z])(${MONTH_NAME})\\.?\\s+(\\d{1,2})\\s*[-–—]\\s*(\\d{1,2}),?\\s+(\\d{4})(?!\\d)`,
    "gi",
  );
  for (let match = days.exec(text); match; match = days.exec(text)) {
    const month = MONTHS[(match[1] ?? "").slice(0, 3).toLowerCase()];
    const year = Number(match[4]);
    const start = validDate(year, month, Number(match[2]));
    const end = validDate(year, month, Number(match[3]));
    if (start && end && dayNumber(end) > dayNumber(start)) {
      result.push({ start, end, index: match.index, length: match[0].length });
    }
  }
  return result;
}

/** The date a transaction line starts with, if any; the year comes from the statement period. */
export function leadingDate(line: string): { text: string; length: number } | null {
  const match = new RegExp(`^\\s*(${DATE_SOURCE}|${SHORT_DATE_SOURCE})(?![\\w/])`, "i").exec(line);
  return match?.[1] ? { text: match[1], length: match[0].length } : null;
}

/**
 * The date a transaction line read by OCR starts with when the scan misread its slash: "03:09",
 * "03.24", "0313", "03105" or "01724" (the slash read as a 1 or a 7). Month first, as "MM/DD";
 * only a valid month and day, and the caller keeps only a date inside the statement's period.
 */
export function scannedLeadingDate(line: string): { text: string; length: number } | null {
  const match = /^\s*(\d{2})(?:[:.,;]|[17lI|](?=\d{2}\s))?(\d{2})(?=\s)/.exec(line);
  if (!match) return null;
  const [month, day] = [Number(match[1]), Number(match[2])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return { text: `${match[1]}/${match[2]}`, length: match[0].length };
}

/**
 * A transaction line's date, its year taken from the statement periods when the line omits it:
 * "01/03" in a Dec 15 - Jan 14 statement is in January of the later year, "12/18" in the earlier.
 */
export function dateInPeriods(
  text: string,
  periods: ReadonlyArray<{ start: SimpleDate; end: SimpleDate }>,
  order: DateOrder = "mdy",
): SimpleDate | null {
  const withYear = parseDate(text, undefined, order);
  if (withYear) return withYear;
  const years = [...new Set(periods.flatMap((period) => [period.start.y, period.end.y]))];
  for (const year of years) {
    const date = parseDate(text, year, order);
    if (!date) continue;
    const day = dayNumber(date);
    if (periods.some((period) => day >= dayNumber(period.start) - 7 && day <= dayNumber(period.end) + 7))
      return date;
  }
  return years.length > 0 ? parseDate(text, years[years.length - 1], order) : null;
}

/** Hints that a document is from a country that writes the day first: its currency or bank codes. */
const DAY_FIRST_HINTS =
  /£|\bGBP\b|\bAUD\b|\bNZD\b|A\$|NZ\$|\bsort\s+code\b|\bBSB\b|\bABN\b|\bIBAN\b|\bGST\b|\bVAT\b/i;
const NUMERIC_DATE = /(?<![\d/.-])(\d{1,2})[/-](\d{1,2})(?:[/-](\d{4}|\d{2}))?(?![\d/.-])/g;

/**
 * Which way a document writes numeric dates, from the dates themselves: a first number above 12
 * (31/03/2026) is a day, a second one above 12 (03/31/2026) is. When every date reads both ways
 * (01/03/2026), the currency and the bank codes decide (pounds, a sort code or a BSB: day first);
 * otherwise month first, as US documents write them.
 */
export function dateOrderOf(text: string): DateOrder {
  let dayFirst = 0;
  let monthFirst = 0;
  NUMERIC_DATE.lastIndex = 0;
  for (let match = NUMERIC_DATE.exec(text); match; match = NUMERIC_DATE.exec(text)) {
    const first = Number(match[1]);
    const second = Number(match[2]);
    if (first > 12 && first <= 31 && second >= 1 && second <= 12) dayFirst++;
    else if (second > 12 && second <= 31 && first >= 1 && first <= 12) monthFirst++;
  }
  if (dayFirst !== monthFirst) return dayFirst > monthFirst ? "dmy" : "mdy";
  return DAY_FIRST_HINTS.test(text) ? "dmy" : "mdy";
}

export function dayNumber(date: SimpleDate): number {
  return Date.UTC(date.y, date.m - 1, date.d) / 86_400_000;
}

/** The date `days` days after `date` (before it when negative). */
export function dateAfter(date: SimpleDate, days: number): SimpleDate {
  const moved = new Date((dayNumber(date) + days) * 86_400_000);
  return { y: moved.getUTCFullYear(), m: moved.getUTCMonth() + 1, d: moved.getUTCDate() };
}

export function isoDate(date: SimpleDate): string {
  return `${date.y}-${String(date.m).padStart(2, "0")}-${String(date.d).padStart(2, "0")}`;
}

export function fromJsDate(date: Date): SimpleDate {
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
}

/** Parses an ISO date (YYYY-MM-DD or a full ISO timestamp) or a US date; null when it is not a date. */
export function parseIsoOrUsDate(value: unknown): SimpleDate | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : fromJsDate(value);
  if (typeof value !== "string") return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(value.trim());
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  return parseDate(value);
}

// ---------------------------------------------------------------- amounts

export interface FoundAmount {
  value: number;
  /** "-" when printed negative (leading minus, parentheses, trailing minus or DR); "+" when printed with + or CR. */
  sign: "-" | "+" | "";
  start: number;
  end: number;
  text: string;
}

// Thousands may be grouped with periods where OCR read the commas as such ("7.010.73"): two
// periods can only be that; a scan may read a space after a comma ("16, 543.65"). Indian statements group lakhs and crores by two digits above the
// thousands ("1,12,400.00", "2,04,880.75").
const AMOUNT_PATTERN =
  /(?<![\w/.,])([-+]\s?)?(\()?(\$\s?)?(-)?(\d{1,3}(?:,\s?\d{3})+|\d{1,2}(?:,\d{2})+,\d{3}|\d{1,3}(?:\.\d{3})+(?=\.\d{2})|\d+)\.(\d{2})(\))?(?:\s?(CR|DR)\b|(-)(?![\d\w]))?(?![\w/]|[.,]\d)/gi;

/** Money amounts with cents: 1,850.00, $5,230.18, -35.00, (35.00), 120.00 CR. */
export function findAmounts(text: string): FoundAmount[] {
  const result: FoundAmount[] = [];
  AMOUNT_PATTERN.lastIndex = 0;
  for (let match = AMOUNT_PATTERN.exec(text); match; match = AMOUNT_PATTERN.exec(text)) {
    const value = Number(`${(match[5] ?? "").replace(/[,.\s]/g, "")}.${match[6]}`);
    const negative =
      match[1]?.trim() === "-" ||
      match[4] === "-" ||
      (match[2] === "(" && match[7] === ")") ||
      match[8]?.toUpperCase() === "DR" ||
      match[9] === "-";
    const positive = match[1]?.trim() === "+" || match[8]?.toUpperCase() === "CR";
    result.push({
      value,
      sign: negative ? "-" : positive ? "+" : "",
      start: match.index,
      end: match.index + match[0].length,
      text: match[0],
    });
  }
  return result;
}

export function formatMoney(value: number): string {
  return `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Accepts 8000, "8000", "$8,000.00". */
export function parseMoney(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  const cleaned = value.replace(/[$,\s]/g, "");
  if (!/^-?\d+(?:\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

// ---------------------------------------------------------------- names

/**
 * The designators that end a business name: how each is shown, the kind of entity it makes, and its
 * spelling (longest first). Designators of one kind name the same entity type: Inc., Corp., Co. and
 * Ltd (however spelled) all make a corporation; an LLC, a partnership (LP, LLP) or a professional
 * entity (PC, PLLC) is another legal entity ("Acme Widgets LLC" is not "Acme Widgets, Inc.").
 */
const DESIGNATORS: ReadonlyArray<{ shown: string; kind: string; words: string[] }> = [
  { shown: "PLLC", kind: "PLLC", words: ["professional", "limited", "liability", "company"] },
  { shown: "LLC", kind: "LLC", words: ["limited", "liability", "company"] },
  { shown: "LLP", kind: "LLP", words: ["limited", "liability", "partnership"] },
  { shown: "LP", kind: "LP", words: ["limited", "partnership"] },
  { shown: "PC", kind: "PC", words: ["professional", "corporation"] },
  { shown: "Inc.", kind: "corporation", words: ["incorporated"] },
  { shown: "Inc.", kind: "corporation", words: ["inc"] },
  { shown: "Corp.", kind: "corporation", words: ["corporation"] },
  { shown: "Corp.", kind: "corporation", words: ["corp"] },
  { shown: "Co.", kind: "corporation", words: ["company"] },
  { shown: "Co.", kind: "corporation", words: ["co"] },
  { shown: "Ltd", kind: "corporation", words: ["limited"] },
  { shown: "Ltd", kind: "corporation", words: ["ltd"] },
  { shown: "LLC", kind: "LLC", words: ["llc"] },
  { shown: "LLP", kind: "LLP", words: ["llp"] },
  { shown: "LP", kind: "LP", words: ["lp"] },
  { shown: "PLLC", kind: "PLLC", words: ["pllc"] },
  { shown: "PC", kind: "PC", words: ["pc"] },
  { shown: "PLC", kind: "PLC", words: ["plc"] },
];

export interface BusinessNameParts {
  /** The name's words, without case, punctuation, a leading "The" and the designators ending it. */
  base: string;
  /** The kind of entity its last designator makes ("corporation", "LLC"…), when it ends in one. */
  entityKind?: string;
  /** That designator as shown in a reason ("Inc.", "LLC"). */
  designator?: string;
}

/** A business name as compared ("Acme Widgets Co., Inc." is "acmewidgets", a corporation). */
export function businessNameParts(name: string): BusinessNameParts {
  const tokens = name
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[.'’`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter((token) => token !== "");
  let last: (typeof DESIGNATORS)[number] | undefined;
  for (;;) {
    const found = DESIGNATORS.find(
      ({ words }) =>
        tokens.length > words.length &&
        words.every((word, i) => tokens[tokens.length - words.length + i] === word),
    );
    if (!found) break;
    tokens.splice(tokens.length - found.words.length);
    last ??= found;
  }
  if (tokens.length > 1 && tokens[0] === "the") tokens.shift();
  return { base: tokens.join(""), ...(last ? { entityKind: last.kind, designator: last.shown } : {}) };
}

/** "Acme Widgets, Inc." and "ACME WIDGETS INCORPORATED" both normalize to "acmewidgets". */
export function normalizeBusinessName(name: string): string {
  return businessNameParts(name).base;
}

/**
 * The same business: the same name (case, punctuation, "The" and the designator's spelling ignored)
 * and the same kind of entity, or a designator on one side only.
 */
export function businessNamesMatch(a: string, b: string): boolean {
  const [left, right] = [businessNameParts(a), businessNameParts(b)];
  if (left.base === "" || left.base !== right.base) return false;
  return !left.entityKind || !right.entityKind || left.entityKind === right.entityKind;
}

/** When two names differ only in the kind of entity they name: their designators, `a`'s and `b`'s. */
export function entityTypeDifference(a: string, b: string): [string, string] | undefined {
  const [left, right] = [businessNameParts(a), businessNameParts(b)];
  if (left.base === "" || left.base !== right.base || !left.designator || !right.designator) return undefined;
  return left.entityKind === right.entityKind ? undefined : [left.designator, right.designator];
}

const PERSON_SUFFIXES = new Set(["jr", "sr", "ii", "iii", "iv", "v"]);
const PERSON_TITLES = new Set(["mr", "mrs", "ms", "miss", "dr", "mx"]);

function allPersonTokens(name: string): string[] {
  let value = name.toLowerCase().replace(/[.'’`-]/g, "");
  // "DOE, JANE Q" lists the last name first.
  const comma = value.split(",").map((part) => part.trim());
  if (comma.length === 2 && comma[1] && !PERSON_SUFFIXES.has(comma[1]) && comma[0]) {
    value = `${comma[1]} ${comma[0]}`;
  }
  return value
    .replace(/[^a-z]+/g, " ")
    .trim()
    .split(" ")
    .filter((token) => token !== "" && !PERSON_TITLES.has(token));
}

function personTokens(name: string): string[] {
  return allPersonTokens(name).filter((token) => !PERSON_SUFFIXES.has(token));
}

/**
 * The generational suffix ending a name (Jr, Sr, II…), if any. Only the last word counts: a "V"
 * inside a name is a middle initial.
 */
export function generation(name: string): string | null {
  const tokens = allPersonTokens(name);
  const last = tokens[tokens.length - 1];
  return tokens.length > 2 && last !== undefined && PERSON_SUFFIXES.has(last) ? last : null;
}

/**
 * How two person names compare: `match` (same first and last name; middle names/initials ignored
 * unless both are spelled out and differ; the same generational suffix or none), `generation_one_side`
 * (the same name, a generational suffix on one side only: maybe the same person, maybe father and
 * son), or `different` (another name, or two suffixes: Jr and Sr are two people).
 */
export function comparePersonNames(a: string, b: string): "match" | "generation_one_side" | "different" {
  const left = personTokens(a);
  const right = personTokens(b);
  if (left.length < 2 || right.length < 2) return "different";
  if (left[0] !== right[0] || left[left.length - 1] !== right[right.length - 1]) return "different";
  const leftMiddle = left.slice(1, -1).filter((token) => token.length > 1);
  const rightMiddle = right.slice(1, -1).filter((token) => token.length > 1);
  if (leftMiddle.length > 0 && rightMiddle.length > 0 && leftMiddle.join(" ") !== rightMiddle.join(" ")) {
    return "different";
  }
  const [leftGeneration, rightGeneration] = [generation(a), generation(b)];
  if (leftGeneration === rightGeneration) return "match";
  return leftGeneration && rightGeneration ? "different" : "generation_one_side";
}

export function personNamesMatch(a: string, b: string): boolean {
  return comparePersonNames(a, b) === "match";
}

/** Joint accounts print "JANE Q DOE AND JOHN DOE" or "Jane Q. Doe / John Doe". */
export function splitJointNames(value: string): string[] {
  return value
    .split(/\s+(?:and|or|&)\s+|\s*[/;]\s*/i)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

export function quote(value: string): string {
  return `"${value}"`;
}
