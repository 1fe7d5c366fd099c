// How sure OCR must be for a verdict to rest on what it read: each citation of a scanned page
// carries the confidence of the words it quotes, a decision resting on text read below the bar
// becomes insufficient_evidence naming what could not be read, and an undecided verdict on a
// poorly read scan says that a sharper scan, not a corrected document, is the remedy.
import { distance } from "fastest-levenshtein";
import type { CatalogCondition } from "./catalog.ts";
import type { DocumentReport } from "./conditions-engine.ts";
import type { ExtractionReport } from "./extraction.ts";
import { type ExtractedDocument, excerptConfidence } from "./pdf-text.ts";
import { type Citation, lettersOnly } from "./text.ts";
import type { Finding } from "./verdict.ts";

/**
 * Fields whose verdict rests on something being there, not on its exact text: a name in the
 * officer's signature box (often handwritten or italic, which OCR reads unsure) shows the box is
 * signed. Read at PRESENCE_MINIMUM or surer, such a value does not hold the verdict below the OCR
 * bar; the rest of the excerpt (the date beside it) still must clear it.
 */
const PRESENCE_FIELDS = new Set(["officer_signature"]);
/** Noise OCR reads in an empty box stays below this (0–100); a written name read unsure does not. */
export const PRESENCE_MINIMUM = 60;

/**
 * A citation of a page read by OCR says so, with how sure OCR was of it: of the values the
 * condition's fields were read from when the excerpt is a field's, else of the whole excerpt.
 */
function markOcr(
  citation: Citation,
  entry: CatalogCondition | undefined,
  documents: ReadonlyArray<ExtractedDocument>,
  reports: ReadonlyArray<DocumentReport>,
): { citation: Citation; field?: string } {
  const document = documents.find((candidate) => candidate.document === citation.document);
  if (!document?.page_sources) return { citation };
  const readings = (
    reports.find((report) => report.document === citation.document)?.extraction?.fields ?? []
  ).filter(
    (reading) =>
      reading.found &&
      reading.page === citation.page &&
      reading.excerpt !== undefined &&
      reading.value !== undefined &&
      (reading.excerpt.includes(citation.excerpt) || citation.excerpt.includes(reading.excerpt)),
  );
  const own = readings.filter((reading) => entry?.fields.includes(reading.field));
  const fields = (own.length > 0 ? own : readings).filter(
    (reading) =>
      !PRESENCE_FIELDS.has(reading.field) ||
      (excerptConfidence(document, citation.page, citation.excerpt, [reading.value ?? ""]) ?? 0) <
        PRESENCE_MINIMUM,
  );
  const confidence = excerptConfidence(
    document,
    citation.page,
    citation.excerpt,
    fields.map((reading) => reading.value ?? ""),
  );
  if (confidence === undefined) return { citation };
  const field = fields.map((reading) => reading.field).join(", ");
  return { citation: { ...citation, source: "ocr", confidence }, ...(field ? { field } : {}) };
}

/** "page 2 of x.pdf was read by OCR at 55% mean confidence, below the 80% required", per such page. */
function poorlyReadPages(
  documents: ReadonlyArray<ExtractedDocument>,
  minimum: number,
  only?: (document: string, page: number) => boolean,
  barOf: (document: string, page: number) => number = () => minimum,
): string[] {
  return documents.flatMap((document) =>
    (document.page_sources ?? []).flatMap((source, index) => {
      const bar = barOf(document.document, index + 1);
      return source.source === "ocr" &&
        source.confidence < bar &&
        (only?.(document.document, index + 1) ?? true)
        ? [
            `page ${index + 1} of ${document.document} was read by OCR at ${source.confidence}% mean confidence, below the ${bar}% required`,
          ]
        : [];
    }),
  );
}

/**
 * An undecided verdict on a document the OCR barely read says so: "no EIN found" on a scan read
 * at 55% is a reading problem, and the remedy is a sharper scan, not a corrected return.
 */
export function withPoorScans(
  finding: Finding,
  documents: ReadonlyArray<ExtractedDocument>,
  minimum: number,
): Finding {
  if (finding.status !== "insufficient_evidence") return finding;
  const named = documents.filter((document) => finding.reason.includes(document.document));
  // A decision already undone for a poor read names its pages itself.
  const pages = poorlyReadPages(named, minimum).filter((page) => !finding.reason.includes(page));
  if (pages.length === 0) return finding;
  return {
    ...finding,
    reason: `${finding.reason}; ${pages.join("; ")}`,
    missing: [...(finding.missing ?? []), ...pages],
    remedies: [
      ...(finding.remedies ?? []),
      ...named
        .filter((document) => pages.some((page) => page.includes(` of ${document.document} `)))
        .map(
          (document) =>
            `Re-upload a sharper scan of ${document.document}, or the text PDF: OCR could not read it with confidence`,
        ),
    ],
  };
}

export function withOcrConfidence(
  extraction: ExtractionReport | null,
  document: ExtractedDocument,
): ExtractionReport | null {
  if (!extraction || !document.page_sources) return extraction;
  return {
    ...extraction,
    fields: extraction.fields.map((reading) => {
      if (!reading.found || reading.page === undefined || reading.excerpt === undefined) return reading;
      const confidence = excerptConfidence(document, reading.page, reading.excerpt, [reading.value ?? ""]);
      return confidence === undefined ? reading : { ...reading, ocr_confidence: confidence };
    }),
  };
}

/** Conditions whose "fulfilled" is a conclusion from absence: it rests on every page of the documents. */
const CONCLUDED_FROM_ABSENCE = new Set(["BS_NO_NSF", "BS_LARGE_DEPOSITS"]);

/** The least OCR confidence (0–100) of the text a `not_fulfilled` cites, whatever the general bar. */
export const NOT_FULFILLED_OCR_MINIMUM = 90;
/**
 * A `fulfilled` citation read at least this sure (0–100) needs of its page only VERIFIED_OCR_MINIMUM:
 * its words, not the page's small print around them, are the evidence.
 */
export const SURE_CITATION_MINIMUM = NOT_FULFILLED_OCR_MINIMUM;

/**
 * A "fulfilled" that finds, character for character, a value the loan file already states (the
 * EIN, the business or borrower name) or a form's printed title is a verification, not a reading:
 * OCR noise does not turn other print into exactly the characters expected. Such a citation needs
 * only VERIFIED_OCR_MINIMUM, of its words and of its page. A near match ("Supp1y", "84-2917366")
 * is a reading and keeps the general bar; a `not_fulfilled` is never a verification.
 */
export const VERIFIED_OCR_MINIMUM = 50;
/** Fewer letters and digits than this (a year, a last four) are too easily misread into a match. */
const VERIFIED_MIN_CHARACTERS = 8;
/** Per condition, the `expected` entries and the printed titles a fulfilled citation may verify. */
const VERIFIED_BY: Readonly<Record<string, { expected?: string[]; titles?: string[] }>> = {
  TR_EIN_MATCH: { expected: ["ein"] },
  TR_NAME_MATCH: { expected: ["business_name"] },
  BS_NAME_MATCH: { expected: ["borrower_name"] },
  TR_COMPLETE: { titles: ["U.S. Corporation Income Tax Return", "Balance Sheets per Books"] },
};

function pageConfidence(documents: ReadonlyArray<ExtractedDocument>, citation: Citation): number {
  const source = documents.find((document) => document.document === citation.document)?.page_sources?.[
    citation.page - 1
  ];
  return source?.source === "ocr" ? source.confidence : 100;
}

/** The values a fulfilled citation of this condition may verify, as letters and digits. */
function verifyingValues(id: string, expected: Readonly<Record<string, unknown>>): string[] {
  const by = VERIFIED_BY[id];
  if (!by) return [];
  const stated = (by.expected ?? [])
    .map((key) => expected[key])
    .filter((value): value is string => typeof value === "string");
  return [...stated, ...(by.titles ?? [])]
    .map(lettersOnly)
    .filter((value) => value.length >= VERIFIED_MIN_CHARACTERS);
}

const NEAR_MISS = ": a misreading cannot be told from another value";

/** Letters a near copy of a stated value may differ by: one per eight, at least one. */
function allowedEdits(value: string): number {
  return Math.max(1, Math.floor(value.length / 8));
}

/** `a` is `b` with two neighbouring characters swapped. */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const differ = [...a].flatMap((char, index) => (char === b[index] ? [] : [index]));
  const [first, second] = differ;
  return (
    differ.length === 2 &&
    first !== undefined &&
    second === first + 1 &&
    a[first] === b[second] &&
    a[second] === b[first]
  );
}

/** Does `text` hold `value` with two neighbouring characters swapped? */
function containsSwapped(text: string, value: string): boolean {
  for (let start = 0; start + value.length <= text.length; start++) {
    if (swapped(text.slice(start, start + value.length), value)) return true;
  }
  return false;
}

/**
 * Does `text` hold a copy of `value` differing by a few letters (but not an exact one)? Two
 * neighbouring characters swapped (84-2917365 for 84-2917356) are a typing slip, not a misreading:
 * OCR reads each character where it stands.
 */
function nearlyContains(text: string, value: string): boolean {
  if (text.includes(value) || containsSwapped(text, value)) return false;
  const edits = allowedEdits(value);
  for (let length = value.length - edits; length <= value.length + edits; length++) {
    for (let start = 0; start + length <= text.length; start++) {
      if (distance(text.slice(start, start + length), value) <= edits) return true;
    }
  }
  return false;
}

/**
 * A decision read from OCR text stands only if OCR was sure enough: of every excerpt it cites, and
 * of every page of the documents it cites (a conclusion of absence, "no NSF fee", is only as good
 * as the reading of the whole statement). Otherwise it is insufficient evidence naming what could
 * not be read with confidence, for a person to read instead.
 */
export function enforceOcrConfidence(
  checked: Finding,
  id: string,
  entry: CatalogCondition | undefined,
  documents: ReadonlyArray<ExtractedDocument>,
  reports: ReadonlyArray<DocumentReport>,
  minimum: number,
  expected: Readonly<Record<string, unknown>> = {},
): Finding {
  const marked = checked.citations.map((citation) => markOcr(citation, entry, documents, reports));
  const finding = { ...checked, citations: marked.map(({ citation }) => citation) };
  if (finding.status === "insufficient_evidence") return finding;
  const doubts: string[] = [];
  // A "no" read off a scan sends the borrower after a document or a fix they may not need: the text
  // it rests on must be read surer than a "yes" (a digit misread at 80-90 % turns a period or an EIN).
  const bar = finding.status === "not_fulfilled" ? Math.max(minimum, NOT_FULFILLED_OCR_MINIMUM) : minimum;
  const stated = verifyingValues(id, expected);
  const values = finding.status === "fulfilled" ? stated : [];
  const verifies = (citation: Citation) =>
    values.some((value) => lettersOnly(citation.excerpt).includes(value));
  // A lender's bar below the verification's minimum lowers it too.
  const verifiedMinimum = Math.min(minimum, VERIFIED_OCR_MINIMUM);
  const verified = (citation: Citation) =>
    citation.confidence !== undefined && citation.confidence >= verifiedMinimum && verifies(citation);
  const pageOf = (citation: Citation) => `${citation.page}\n${citation.document}`;
  const fromAbsence = finding.status === "fulfilled" && CONCLUDED_FROM_ABSENCE.has(id);
  // A "yes" whose own words OCR read surely stands on them: the page's mean is pulled down by the
  // small print around them, which no verdict of this kind cites. A conclusion from absence rests
  // on every word of its pages.
  const sure = (citation: Citation) =>
    finding.status === "fulfilled" &&
    !fromAbsence &&
    citation.confidence !== undefined &&
    citation.confidence >= SURE_CITATION_MINIMUM;
  // An amount the page's own arithmetic confirms (the running balance moves by exactly it) is no
  // misreading, whatever OCR's confidence in its characters.
  const readAtAll = (citation: Citation) =>
    citation.confidence !== undefined && citation.confidence >= verifiedMinimum;
  const arithmetic = (citation: Citation) => citation.confirmed_by !== undefined && readAtAll(citation);
  // A conclusion from absence over a statement whose deposit rows sum to the total it prints rests
  // on that sum: every deposit was read, and read right, however unsure OCR was page by page.
  const reconciled = new Set(
    fromAbsence
      ? finding.citations
          .filter((citation) => citation.confirmed_by === "deposits_total" && arithmetic(citation))
          .map((citation) => citation.document)
      : [],
  );
  // Every amount of a reconciled statement is confirmed by its sum: its largest deposit, cited as
  // an example, however unsure OCR was of the row's words.
  const confirmed = (citation: Citation) => arithmetic(citation) || reconciled.has(citation.document);
  const standsOnItsOwn = (citation: Citation) => verified(citation) || sure(citation) || confirmed(citation);
  // A page needs only the verification's minimum when every citation on it verifies a stated value
  // or was read surely.
  const verifiedPages = new Set(
    finding.citations
      .filter(standsOnItsOwn)
      .map(pageOf)
      .filter((page) => finding.citations.every((other) => pageOf(other) !== page || standsOnItsOwn(other))),
  );
  // A "no" whose scanned text is within a letter or two of the stated value ("JOHNA SMITH JR" for
  // John A Smith Jr) cannot tell a misreading from another value, however sure OCR was.
  if (finding.status === "not_fulfilled") {
    for (const { citation, field } of marked) {
      if (citation.confidence === undefined) continue;
      const near = stated.find((value) => nearlyContains(lettersOnly(citation.excerpt), value));
      if (near === undefined) continue;
      doubts.push(
        `${field ?? "the text cited"} on page ${citation.page} of ${citation.document} was read by OCR within ${allowedEdits(near)} letter(s) of the expected value${NEAR_MISS}`,
      );
    }
  }
  // A "no" whose text holds the stated value with two neighbouring characters swapped rests on a
  // typing slip no misreading makes: the general bar is enough.
  const barOf = (citation: Citation) =>
    finding.status === "not_fulfilled" &&
    stated.some((value) => containsSwapped(lettersOnly(citation.excerpt), value))
      ? minimum
      : bar;
  for (const { citation, field } of marked) {
    const needed = barOf(citation);
    if (
      citation.confidence === undefined ||
      citation.confidence >= needed ||
      verified(citation) ||
      confirmed(citation)
    )
      continue;
    doubts.push(
      `${field ?? "the text cited"} on page ${citation.page} of ${citation.document} was read by OCR at ${citation.confidence}% confidence, below the ${needed}% required${needed > minimum ? " for a not_fulfilled" : ""}`,
    );
  }
  // A page read poorly undermines what rests on it: the pages cited, and every page of a document
  // a conclusion from absence ("no NSF fee", "no large deposit") covers. A well-read page 1 still
  // decides its EIN when page 3 of the scan is smudged.
  const cited = new Set(finding.citations.map((citation) => citation.document));
  const citedPages = new Set(finding.citations.map((citation) => `${citation.page}\n${citation.document}`));
  doubts.push(
    ...poorlyReadPages(
      documents.filter((document) => cited.has(document.document)),
      minimum,
      fromAbsence ? undefined : (document, page) => citedPages.has(`${page}\n${document}`),
      (document, page) =>
        verifiedPages.has(`${page}\n${document}`) || reconciled.has(document) ? verifiedMinimum : minimum,
    ),
  );
  if (doubts.length === 0) {
    const readAs = (citation: Citation) =>
      `page ${citation.page} of ${citation.document} (read by OCR at ${citation.confidence}%, the page at ${pageConfidence(documents, citation)}%)`;
    const below = finding.citations.filter(
      (citation) =>
        verified(citation) &&
        ((citation.confidence ?? 100) < bar || pageConfidence(documents, citation) < minimum),
    );
    const surely = finding.citations.filter(
      (citation) => !verified(citation) && sure(citation) && pageConfidence(documents, citation) < minimum,
    );
    const balanced = finding.citations.filter(
      (citation) =>
        citation.confirmed_by === "running_balance" &&
        !verified(citation) &&
        !sure(citation) &&
        confirmed(citation) &&
        ((citation.confidence ?? 100) < bar || pageConfidence(documents, citation) < minimum),
    );
    const summed = [...reconciled].filter((document) =>
      documents
        .find((candidate) => candidate.document === document)
        ?.page_sources?.some((source) => source.source === "ocr" && source.confidence < minimum),
    );
    const notes = [
      below.length > 0
        ? `verified on a scan read below the ${minimum}% bar: ${[...new Set(below.map(readAs))].join(", ")} prints the expected value character for character`
        : null,
      surely.length > 0
        ? `read surely on a scan read below the ${minimum}% bar: ${[...new Set(surely.map(readAs))].join(", ")}, the words cited at ${SURE_CITATION_MINIMUM}% or surer`
        : null,
      balanced.length > 0
        ? `confirmed by arithmetic on a scan read below the ${bar}% bar: on ${[...new Set(balanced.map(readAs))].join(", ")}, the running balances printed before and on the row differ by exactly its amount`
        : null,
      summed.length > 0
        ? `confirmed by arithmetic on a scan read below the ${minimum}% bar: the deposit rows read on ${summed.join(", ")} sum to the deposits total it prints, so none was missed or misread`
        : null,
    ].filter((note): note is string => note !== null);
    if (notes.length === 0) return finding;
    return { ...finding, reason: `${finding.reason}; ${notes.join("; ")}` };
  }
  const unique = [...new Set(doubts)];
  return {
    status: "insufficient_evidence",
    reason: `cannot decide ${id} from a scan${unique.some((doubt) => doubt.includes(NEAR_MISS)) ? "" : " read with low confidence"}: ${unique.join("; ")} (the reading was ${finding.status}: ${finding.reason})`,
    citations: finding.citations,
    ...(finding.observed ? { observed: finding.observed } : {}),
    missing: unique,
    remedies: [`Read ${id} on the scan by hand, or re-upload a sharper scan or the text PDF: ${unique[0]}`],
  };
}
