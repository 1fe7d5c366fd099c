// Where the offline OCR's second look is spent. Each unsure line read again costs a small OCR call
// (lambdas/tools/ocr/reread.ts); on a Form 1120 the conditions read page 1 (name, EIN, year,
// signature) and Schedule L, while its other pages (Schedules C, J, K) are read only to be sure
// Schedule L is not on them, which their first reading settles. Every page is still read; only
// the second look at the unsure lines of such a page is skipped. Statements and every other
// document keep it on every page. Where a form's small values should be is read again on its own
// (loanProbes): the Sign Here block's values (the date typed in its box, which sparse reading of a
// whole scanned page passes over), a business's name whose first word a scan lost beside its box's
// edge, and the captions above that name and above an EIN.
import type { OcrLine, OcrProbe } from "../../tools/ocr/engine.ts";
import { isSignatureCaption } from "./officer-signature.ts";
import { scannedPhrase } from "./text.ts";

/**
 * A Form 1120 continuation page's running header, "Form 1120 (2025)  Page 3", as a scan's OCR reads
 * it: its brackets dropped or misread ("@", "R"), digits of the year read as "%" or lost ("02%"),
 * "Page" read as "Pan", and its two ends given as lines of their own by sparse-text reading.
 */
const FORM_1120_YEAR = /\bForm\s*1120(?![-\s]*[A-Z]\b)\s*\S?\s*[0-9OoSsIl%]{2,4}(?![0-9])/i;
const LATER_PAGE = /\b(?:Page|Pan)\s*[2-9]\b/i;

/**
 * Anything that may be part of Schedule L or of the signature block, read loosely (a scan's OCR
 * runs words together and reads look-alike letters): such a page keeps its second look.
 */
const NEEDED_CONTENT = new RegExp(
  [
    `${scannedPhrase("schedule")}\\s*${scannedPhrase("l")}\\b`,
    `${scannedPhrase("balance")}\\s*${scannedPhrase("sheet")}`,
    `${scannedPhrase("per")}\\s*${scannedPhrase("books")}`,
    `${scannedPhrase("total")}\\s*${scannedPhrase("assets")}`,
    `${scannedPhrase("total")}\\s*${scannedPhrase("liabilities")}`,
    `${scannedPhrase("retained")}\\s*${scannedPhrase("earnings")}`,
    `${scannedPhrase("beginning")}\\s*${scannedPhrase("of")}\\s*${scannedPhrase("tax")}\\s*${scannedPhrase("year")}`,
    `${scannedPhrase("end")}\\s*${scannedPhrase("of")}\\s*${scannedPhrase("tax")}\\s*${scannedPhrase("year")}`,
    "\\bsign",
    `${scannedPhrase("income")}\\s*${scannedPhrase("tax")}\\s*${scannedPhrase("return")}`,
  ].join("|"),
  "i",
);

/**
 * Whether a page, as first read by OCR, is worth more: its unsure lines a second look, and a page
 * of which only the top band was read a whole reading. Always, except on a page whose running
 * header names it a Form 1120 page after the first and that shows nothing of Schedule L, of a
 * signature or of page 1's title: Schedules C, J, K, M-1 and M-2 hold nothing the conditions read.
 */
export function worthRereading(text: string): boolean {
  if (!FORM_1120_YEAR.test(text) || !LATER_PAGE.test(text)) return true;
  return NEEDED_CONTENT.test(text);
}

const PAGE_ONE_TITLE = new RegExp(scannedPhrase("Corporation Income Tax Return"), "i");
const SCHEDULE_L = new RegExp(
  `${scannedPhrase("schedule")}\\s*${scannedPhrase("l")}\\b|${scannedPhrase("balance sheets per books")}`,
  "i",
);

/**
 * Whether pages (their text) show a Form 1120's page 1 and its Schedule L: with them read whole, a
 * return's other pages, skimmed by their header, hold nothing more the conditions read.
 */
export function showsWholeReturn(texts: ReadonlyArray<string>): boolean {
  return texts.some((text) => PAGE_ONE_TITLE.test(text)) && texts.some((text) => SCHEDULE_L.test(text));
}

/** How far above the caption's top the officer's values stand, in caption heights. */
const VALUES_ABOVE = 2.6;
/** The page's right margin, in points: the probe stops short of it. */
const RIGHT_MARGIN = 18;

/**
 * Where the officer's signature, date and title should be: the band just above each "Signature of
 * officer" caption the first reading found, from the caption's left to the page's right margin.
 */
export function signatureProbes(
  lines: ReadonlyArray<OcrLine>,
  size: { width: number; height: number },
): OcrProbe[] {
  const probes: OcrProbe[] = [];
  for (const line of lines) {
    const start = line.words.findIndex((_, index) =>
      isSignatureCaption(
        line.words
          .slice(index)
          .map((word) => word.text)
          .join(" "),
      ),
    );
    const first = line.words[start];
    if (!first) continue;
    const caption = line.words.slice(start, start + 3);
    const height = Math.max(...caption.map((word) => word.height));
    const top = Math.max(...caption.map((word) => word.y + word.height));
    probes.push({
      x: Math.max(0, first.x - 2 * height),
      right: size.width - RIGHT_MARGIN,
      y: top + 0.1 * height,
      top: Math.min(size.height, top + VALUES_ABOVE * height),
      textHeight: height,
    });
  }
  return probes;
}

/** The last word of a business's name: its kind of entity. */
const ENTITY_SUFFIX = /^(?:inc|corp|llc|l\.l\.c|ltd)\.?,?$/i;
/** How far left of what the first reading found of a name the rest of it may stand, in points. */
const NAME_REACH = 220;

/**
 * Where a business's whole name should be: the row of a name the first reading found ending in its
 * kind of entity ("Marine Supply, Inc."), from well left of it, where a scan may have lost its first
 * words beside a box edge ("Harborview"), to its end.
 */
export function businessNameProbes(
  lines: ReadonlyArray<OcrLine>,
  size: { width: number; height: number },
): OcrProbe[] {
  const probes: OcrProbe[] = [];
  for (const line of lines) {
    const suffix = line.words.findIndex((word) => ENTITY_SUFFIX.test(word.text));
    const last = line.words[suffix];
    if (!last || suffix === 0) continue;
    const name = line.words.slice(Math.max(0, suffix - 4), suffix + 1);
    const first = name[0] as OcrLine["words"][number];
    probes.push({
      x: Math.max(0, first.x - NAME_REACH),
      right: Math.min(size.width, last.x + last.width + 6),
      y: Math.max(0, last.y - 0.4 * last.height),
      top: Math.min(size.height, last.y + 1.4 * last.height),
      textHeight: last.height,
    });
    probes.push(captionAbove(first.x - NAME_REACH, last.x + last.width + 6, last, size));
  }
  return probes;
}

/** An EIN as printed, NN-NNNNNNN. */
const EIN_SHAPE = /^\d{2}-\d{7}$/;
/** How far right of a value its caption above may reach, in points. */
const CAPTION_REACH = 200;

/**
 * The row of small print just above a value (its caption: "Name", "B Employer identification
 * number"), from `left` to `right`: a scan loses small captions, and a value without its caption is
 * weaker evidence.
 */
function captionAbove(
  left: number,
  right: number,
  value: OcrLine["words"][number],
  size: { width: number; height: number },
): OcrProbe {
  return {
    x: Math.max(0, left),
    right: Math.min(size.width - RIGHT_MARGIN, right),
    y: Math.min(size.height, value.y + 1.05 * value.height),
    top: Math.min(size.height, value.y + 2.4 * value.height),
    textHeight: 0.7 * value.height,
  };
}

/** The caption rows above each EIN-shaped value of the page. */
export function einCaptionProbes(
  lines: ReadonlyArray<OcrLine>,
  size: { width: number; height: number },
): OcrProbe[] {
  return lines
    .flatMap((line) => line.words)
    .filter((word) => EIN_SHAPE.test(word.text))
    .map((word) => captionAbove(word.x - 6, word.x + CAPTION_REACH, word, size));
}

/** Every probe the loan reader asks of a page read by OCR. */
export function loanProbes(
  lines: ReadonlyArray<OcrLine>,
  size: { width: number; height: number },
): OcrProbe[] {
  return [
    ...signatureProbes(lines, size),
    ...businessNameProbes(lines, size),
    ...einCaptionProbes(lines, size),
  ];
}
