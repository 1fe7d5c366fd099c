// The officer's signature on a return: the "Sign Here" block under the perjury declaration, its
// signer, date and title read from the text around the "Signature of officer" caption, and a
// signature drawn or pasted as an image into the officer's box seen in the document model. The
// paid preparer's box, below it, never counts.

import { pointBox, type SignatureSource, signaturesIn } from "../../documents/blocks.ts";
import { lineId } from "../../documents/page-model.ts";
import type { FieldSource } from "./extraction.ts";
import type { Cell } from "./pdf-text.ts";
import { describePages, type ReturnPages, SIGNATURE_CAPTION, searchOrder } from "./tax-return-fields.ts";
import {
  type Citation,
  cite,
  findDates,
  type PageText,
  parseDate,
  type SimpleDate,
  scannedPhrase,
  segments,
  startsWithScanned,
} from "./text.ts";

const SIGNATURE_CAPTION_START = new RegExp(`^${scannedPhrase("signature of officer")}\\b`, "i");
/** The caption as a photo may read it: its first word lost, the rest a cell of its own. */
const CAPTION_WITHOUT_FIRST_WORD = /^of\s*officer$/i;
/** The officer's caption, printed or as a degraded scan reads it. */
export function isSignatureCaption(text: string): boolean {
  return (
    SIGNATURE_CAPTION_START.test(text) ||
    startsWithScanned(text, "signature of officer") ||
    CAPTION_WITHOUT_FIRST_WORD.test(text.trim())
  );
}
/** The declaration every Sign Here block prints; a cover letter's "Signature of officer" has none. */
const SIGN_HERE = new RegExp(
  `${scannedPhrase("penalties of perjury")}|\\bsign\\s*here\\b|^\\s*sign(?:\\s{2,}|\\s*$)`,
  "im",
);
/**
 * The margin label's second word opening the line of the officer's values ("Here  Margaret A.
 * Lindqvist  03/12/2026"), which a photo keeps where it loses "Sign" and the declaration.
 */
const HERE_LABEL = /^\s*here\b/i;
/** Printed text of the signature area that is never the signer, the date or the title. */
const SIGN_BLOCK_PRINT =
  /perjury|declare|examined|accompanying|belief|knowledge|declaration|may the irs|discuss|preparer|see instructions|self-employed|ptin|firm'?s|print\/type|paperwork|reduction act|cat\.?\s*no|signature on file|electronic return|form\s+\d{4}|^(?:yes|no|sign|here|sign here|paid|use only|title|date|signature(?: of officer)?)$/i;
/** Where the block ends: the declaration above it, the paid preparer's block below it. */
const BLOCK_BOUNDARY =
  /perjury|knowledge\s+and\s+belief|^paid\b|^preparer\b|print\/type|preparer'?s\s+(?:name|signature)|firm'?s\s+name|use\s+only|paperwork/i;
const OFFICER_TITLE =
  /^(?:(?:vice[\s-]+|executive\s+|assistant\s+|asst\.?\s+)?(?:president|treasurer|secretary)|pres\.?|vp|ceo|cfo|coo|director|owner|officer|authorized\s+(?:officer|signer)|chairman|chair|member|(?:general\s+)?manager|managing\s+member|partner|principal|chief\s+\w+(?:\s+\w+)?\s+officer)(?:\s*(?:&|and|,|\/)\s*\w+)*$/i;

/** Dates as signers write them: those of `findDates`, and 03-10-2025 or 3.10.25. */
const DASHED_DATE = /(?<![\d\-.])(\d{1,2})[-.](\d{1,2})[-.](\d{4}|\d{2})(?![\d\-.])/g;

function datesIn(text: string): Array<{ text: string; start: number; end: number }> {
  const dates = findDates(text).map(({ text: printed, start, end }) => ({ text: printed, start, end }));
  DASHED_DATE.lastIndex = 0;
  for (let match = DASHED_DATE.exec(text); match; match = DASHED_DATE.exec(text)) {
    const start = match.index;
    if (dates.some((date) => start < date.end && start + match[0].length > date.start)) continue;
    if (parseDate(`${match[1]}/${match[2]}/${match[3]}`)) {
      dates.push({ text: match[0], start, end: start + match[0].length });
    }
  }
  return dates.sort((p, q) => p.start - q.start);
}

export interface SignatureBlock {
  page: PageText;
  /** The line of the "Signature of officer" caption. */
  captionLine: number;
  /** The lines the signer, date and title were read from, nearest the caption first. */
  valueLines: number[];
  signer: string | null;
  /** The date as printed. */
  date: string | null;
  title: string | null;
  source: Exclude<FieldSource, "model">;
  /**
   * A signature seen in the officer's box rather than read as text: a drawing or an image in the
   * PDF, ink on a scan, or Textract's SIGNATURE block. Null when none was seen there (on a text
   * PDF, not looked for when a name is typed in the box).
   */
  drawn: { source: SignatureSource } | null;
  /**
   * The box was read by OCR and nothing looked for handwriting on it: a blank reading says nothing
   * about a signature written by hand, which no text reader sees.
   */
  handwritingUnread: boolean;
}

interface SignatureValues {
  signer: string | null;
  date: string | null;
  title: string | null;
}

const NO_VALUES: SignatureValues = { signer: null, date: null, title: null };

function cleanSignatureValue(value: string): string {
  return value
    .replace(/_{2,}/g, " ")
    .replace(/^\s*\/s\/\s*/i, "")
    .trim();
}

function looksLikeName(value: string): boolean {
  const words = value.split(/\s+/).filter((word) => word !== "");
  return (
    /[A-Za-z]{2,}/.test(value) &&
    /[A-Z]/.test(value) &&
    words.length <= 6 &&
    !SIGN_BLOCK_PRINT.test(value) &&
    datesIn(value).length === 0 &&
    !/\d{3,}/.test(value)
  );
}

function printed(text: string): boolean {
  return SIGN_BLOCK_PRINT.test(text.trim());
}

/** Signer, date and title from the values of one line by their content (signature left, date, then title). */
function valuesByContent(texts: string[]): SignatureValues {
  const values: SignatureValues = { ...NO_VALUES };
  for (const raw of texts) {
    const value = cleanSignatureValue(raw);
    if (value === "" || printed(value)) continue;
    const date = datesIn(value)[0];
    if (!values.date && date) {
      values.date = date.text;
      const before = cleanSignatureValue(value.slice(0, date.start));
      const after = value.slice(date.end).trim();
      if (!values.signer && looksLikeName(before)) values.signer = before;
      if (after && looksLikeName(after)) values.title = after;
      continue;
    }
    if (!looksLikeName(value)) continue;
    // The signature is left of the date; a name-like value right of it is the officer's title.
    if (values.date || OFFICER_TITLE.test(value)) values.title = values.title ?? value;
    else if (!values.signer) values.signer = value;
    else values.title = values.title ?? value;
  }
  return values;
}

interface Columns {
  signature: Cell;
  date: Cell | null;
  title: Cell | null;
  /** Every caption of the caption line: a value under "May the IRS discuss…" belongs to none of ours. */
  all: Cell[];
}

function captionColumns(page: PageText, line: number): Columns | null {
  const cells = page.cells?.[line];
  const signature = cells?.find((cell) => isSignatureCaption(cell.text));
  if (!cells || !signature) return null;
  return {
    signature,
    date: cells.find((cell) => /^date(?:\s+signed)?$/i.test(cell.text.trim())) ?? null,
    title: cells.find((cell) => /^title(?:\s+of\s+officer)?$/i.test(cell.text.trim())) ?? null,
    all: cells,
  };
}

/** Values of one line read by column: the caption a value sits under says what it is. */
function valuesByColumn(cells: Cell[], columns: Columns): SignatureValues {
  const values: SignatureValues = { ...NO_VALUES };
  for (const cell of cells) {
    const text = cleanSignatureValue(cell.text);
    if (text === "" || printed(text)) continue;
    const under = columns.all.filter((caption) => caption.x <= cell.x + 12).at(-1) ?? columns.signature;
    if (under === columns.date) {
      values.date = values.date ?? datesIn(text)[0]?.text ?? null;
    } else if (under === columns.title) {
      if (looksLikeName(text)) values.title = values.title ?? text;
    } else if (under === columns.signature) {
      const read = valuesByContent([text]);
      values.signer = values.signer ?? read.signer;
      values.date = values.date ?? read.date;
      values.title = values.title ?? read.title;
    }
  }
  return values;
}

function readValues(page: PageText, line: number, columns: Columns | null): SignatureValues {
  const cells = page.cells?.[line];
  if (columns && cells) return valuesByColumn(cells, columns);
  return valuesByContent(segments(page.lines[line] ?? "").map((part) => part.text));
}

function merge(into: SignatureValues, values: SignatureValues): void {
  into.signer = into.signer ?? values.signer;
  into.date = into.date ?? values.date;
  into.title = into.title ?? values.title;
}

function empty(values: SignatureValues): boolean {
  return !values.signer && !values.date && !values.title;
}

/** The values rows of a block above (-1) or below (+1) its captions, up to the block's boundary. */
function valuesToward(
  page: PageText,
  captionLine: number,
  direction: -1 | 1,
  columns: Columns | null,
): { values: SignatureValues; lines: number[] } {
  const values: SignatureValues = { ...NO_VALUES };
  const lines: number[] = [];
  for (let step = 1; step <= 2; step++) {
    const index = captionLine + direction * step;
    const line = page.lines[index];
    if (line === undefined || segments(line).some((part) => BLOCK_BOUNDARY.test(part.text))) break;
    if (SIGNATURE_CAPTION.test(line)) break;
    const read = readValues(page, index, columns);
    if (empty(read)) {
      // A row of captions only ("May the IRS discuss this return") sits between values and captions.
      if (segments(line).every((part) => printed(part.text))) continue;
      break;
    }
    merge(values, read);
    lines.push(index);
  }
  return { values, lines };
}

/** "Signature of officer: /s/ Robert Tanner   Date: 03/10/2025   Title: President" on one line. */
function inlineLabels(line: string): SignatureValues {
  const signer = /signature\s+of\s+officer\s*[:-]\s*(.*?)(?=\s{2,}|\s+date\b|$)/i.exec(line)?.[1];
  let dated: string | null = null;
  for (const label of line.matchAll(/\bdate(?:d|\s+signed)?\s*[:-]?\s*/gi)) {
    const first = datesIn(line.slice(label.index + label[0].length))[0];
    if (first?.start === 0) {
      dated = first.text;
      break;
    }
  }
  const title = /\btitle\s*[:-]\s*(.*?)(?=\s{2,}|$)/i.exec(line)?.[1];
  const cleanSigner = signer ? cleanSignatureValue(signer) : "";
  const cleanTitle = title ? cleanSignatureValue(title) : "";
  return {
    signer: looksLikeName(cleanSigner) ? cleanSigner : null,
    date: dated,
    title: cleanTitle !== "" && looksLikeName(cleanTitle) ? cleanTitle : null,
  };
}

/**
 * Label/value rows: "Signature of officer  /s/ Robert J. Tanner", then "Date  2025-09-12" and
 * "Title  Chief Executive Officer" on lines of their own.
 */
function labelRows(page: PageText, captionLine: number): { values: SignatureValues; lines: number[] } | null {
  const caption = segments(page.lines[captionLine] ?? "");
  const position = caption.findIndex((part) => isSignatureCaption(part.text));
  if (caption.slice(position + 1).some((part) => /^date(?:\s+signed)?$/i.test(part.text))) return null;
  const rows: Array<{ label: "date" | "title"; line: number; rest: string[] }> = [];
  for (let index = captionLine + 1; index <= Math.min(page.lines.length - 1, captionLine + 3); index++) {
    const [first, ...rest] = segments(page.lines[index] ?? "");
    const label = /^date(?:\s+signed)?:?$/i.test(first?.text ?? "")
      ? "date"
      : /^title:?$/i.test(first?.text ?? "")
        ? "title"
        : null;
    if (!label) break;
    rows.push({ label, line: index, rest: rest.map((part) => part.text) });
  }
  const besideCaption = caption
    .slice(position + 1)
    .map((part) => cleanSignatureValue(part.text))
    .filter((text) => text !== "" && !printed(text));
  if (rows.length === 0) return null;
  const values: SignatureValues = { ...NO_VALUES };
  const lines: number[] = [];
  const signer = besideCaption.find(looksLikeName);
  if (signer) {
    values.signer = signer;
    lines.push(captionLine);
  }
  for (const row of rows) {
    const texts = row.rest.map(cleanSignatureValue).filter((text) => text !== "" && !printed(text));
    if (row.label === "date")
      values.date = values.date ?? texts.flatMap((text) => datesIn(text))[0]?.text ?? null;
    else values.title = values.title ?? texts.find(looksLikeName) ?? null;
    if (texts.length > 0) lines.push(row.line);
  }
  return { values, lines };
}

function readBlock(page: PageText, captionLine: number): SignatureBlock {
  const block = (
    values: SignatureValues,
    lines: number[],
    source: SignatureBlock["source"],
  ): SignatureBlock => ({
    page,
    captionLine,
    valueLines: lines,
    ...values,
    source,
    // On a scan the box is looked at even when a name was read in it: a handwritten or italic name
    // reads unsure, but the ink shows the box is signed.
    drawn: values.signer && !page.ocr ? null : drawnSignature(page, captionLine),
    handwritingUnread: Boolean(page.ocr) && !page.model?.signaturesLooked,
  });
  const inline = inlineLabels(page.lines[captionLine] ?? "");
  if (inline.signer || inline.date) return block(inline, [captionLine], "label");
  const rows = labelRows(page, captionLine);
  if (rows) return block(rows.values, rows.lines, "label");
  // Printed forms put the values on the row above the captions; table layouts below them.
  const columns = captionColumns(page, captionLine);
  const above = valuesToward(page, captionLine, -1, columns);
  const below = valuesToward(page, captionLine, 1, columns);
  const score = (values: SignatureValues) => (values.signer ? 1 : 0) + (values.date ? 1 : 0);
  const chosen = score(below.values) > score(above.values) ? below : above;
  const picked = empty(chosen.values) && !empty(below.values) ? below : chosen;
  return block(picked.values, picked.lines, columns ? "table" : "position");
}

/** How far above its caption a hand signature reaches (points): it may cross the declaration's last line. */
const SIGNATURE_REACH_POINTS = 36;
/** Without a "Date" caption, the officer's box ends this far right of its caption's start (points). */
const SIGNATURE_BOX_WIDTH_POINTS = 220;

/**
 * A signature in the officer's box, from the document model: the box runs from the caption's left
 * edge to the "Date" caption, and from the caption up to where a signature written on the line above
 * it reaches. The paid preparer's box sits below the caption and is outside.
 */
function drawnSignature(page: PageText, captionLine: number): { source: SignatureSource } | null {
  const model = page.model;
  const caption = model?.blocks.find((block) => block.Id === lineId(page.page, captionLine));
  if (!model || !caption) return null;
  const line = pointBox(caption.Geometry.BoundingBox, model);
  const columns = captionColumns(page, captionLine);
  const left = columns ? columns.signature.x : line.x;
  const right = columns?.date ? columns.date.x - 2 : left + SIGNATURE_BOX_WIDTH_POINTS;
  const region = { x: left - 12, right, y: line.y, top: line.top + SIGNATURE_REACH_POINTS };
  const seen = signaturesIn(model, region)[0];
  return seen ? { source: seen.source } : null;
}

/** Is this "Signature of officer" the caption of a Sign Here block (its declaration just above)? */
function inSignHereBlock(page: PageText, line: number): boolean {
  const from = Math.max(0, line - 8);
  if (SIGN_HERE.test(page.lines.slice(from, line + 1).join("\n"))) return true;
  return HERE_LABEL.test(page.lines[line - 1] ?? "");
}

/** The Sign Here blocks of the return: on page 1 when there is one, else wherever they are. */
export function findSignatureBlocks(view: ReturnPages): SignatureBlock[] {
  const read = (pages: PageText[]) =>
    pages.flatMap((page) =>
      page.lines.flatMap((line, index) =>
        segments(line).some((part) => isSignatureCaption(part.text)) && inSignHereBlock(page, index)
          ? [readBlock(page, index)]
          : [],
      ),
    );
  const onPageOne = read(view.pageOne);
  return onPageOne.length > 0
    ? onPageOne
    : read(searchOrder(view).filter((page) => !view.pageOne.includes(page)));
}

export function signatureNotFound(view: ReturnPages): string {
  const pages = view.pageOne.length > 0 ? view.pageOne : searchOrder(view);
  return `could not locate the officer's signature in ${describePages(pages)}: no "Sign Here" block with a "Signature of officer" caption under the perjury declaration`;
}

/** Lines cited for a block: from its values to its caption. */
export function blockCitation(block: SignatureBlock): Citation {
  const lines = [block.captionLine, ...block.valueLines];
  return cite(block.page, Math.min(...lines), Math.max(...lines), {
    line: block.valueLines[0] ?? block.captionLine,
    start: 0,
    end: 0,
  });
}

export function signatureDate(block: SignatureBlock): SimpleDate | null {
  if (!block.date) return null;
  return parseDate(block.date) ?? parseDate(block.date.replace(/[-.]/g, "/"));
}
