// How Conditions AI's reading of the documents is told to people: which documents it reported, and
// which pages, citations and fields were read by OCR (a scan or a phone photo) and how sure the
// engine was. Pure (no DOM): the dashboard draws these words and the CLI prints them, so a loan
// officer reads the same "OCR 62%" in both. It lives here because the dashboard is served as plain
// files and cannot import the CLI's TypeScript.
//
// Records come from an API that may be older or newer than this page: a field of an unexpected type
// counts as absent, so a citation from a text page is never marked, whatever else it carries.

const KIND_LABEL = { form_1120: "Form 1120", bank_statement: "bank statement" };

/** "Form 1120", "bank statement", or the kind as sent. */
export function kindLabel(kind) {
  return Object.hasOwn(KIND_LABEL, kind) ? KIND_LABEL[kind] : String(kind);
}

/** A 0–100 confidence as a whole number, or null when the value is not one. */
export function ocrConfidence(value) {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 100
    ? Math.round(value)
    : null;
}

/** What confirmed a cited amount beyond OCR's confidence, in words. */
const CONFIRMATIONS = {
  running_balance: "confirmed by the running balance",
  deposits_total: "confirmed by the deposits total",
};

/**
 * For a citation of a page read by OCR: `{confidence}` (null when the engine gave none) and, when the
 * page's arithmetic confirms the cited amount, `confirmed` in words; null for a citation of a text page.
 */
export function citationOcr(citation) {
  if (!citation || typeof citation !== "object" || citation.source !== "ocr") return null;
  const confirmed = Object.hasOwn(CONFIRMATIONS, citation.confirmed_by)
    ? CONFIRMATIONS[citation.confirmed_by]
    : null;
  return { confidence: ocrConfidence(citation.confidence), ...(confirmed ? { confirmed } : {}) };
}

/** For a field reading taken from an OCR page: its confidence (0–100); null otherwise. */
export function fieldOcrConfidence(field) {
  return field && typeof field === "object" ? ocrConfidence(field.ocr_confidence) : null;
}

/** The tag beside an OCR citation or field: "OCR 93%", or "OCR" when no confidence came with it. */
export function ocrTag(confidence) {
  return typeof confidence === "number" ? `OCR ${confidence}%` : "OCR";
}

/** What the tag means, for a tooltip: "Page 1 was read by OCR at 93% confidence". */
export function ocrTagTitle(page, confidence) {
  const where = Number.isInteger(page) && page > 0 ? `Page ${page}` : "This page";
  const how = typeof confidence === "number" ? ` at ${confidence}% confidence` : "";
  return `${where} was read by OCR (a scan or photo, no text layer)${how}`;
}

/** "1–3, 5" for [3, 1, 2, 5]: sorted, deduplicated, runs of consecutive pages joined. */
export function pageRanges(pages) {
  const sorted = [...new Set(pageList(pages))].sort((a, b) => a - b);
  const ranges = [];
  for (const page of sorted) {
    const last = ranges.at(-1);
    if (last && page === last[1] + 1) last[1] = page;
    else ranges.push([page, page]);
  }
  return ranges.map(([from, to]) => (from === to ? String(from) : `${from}–${to}`)).join(", ");
}

/**
 * A document report's `ocr`, its fields checked: `{engine, pages, skimmed, seconds, confidence,
 * error}` with null for what is missing or malformed (`skimmed`: the pages of which only the header
 * was read, [] when none); null when the report has no OCR reading at all.
 */
export function documentOcr(report) {
  const ocr = report?.ocr;
  if (!ocr || typeof ocr !== "object" || Array.isArray(ocr)) return null;
  return {
    engine: typeof ocr.engine === "string" && ocr.engine.trim() ? ocr.engine.trim() : null,
    pages: [...new Set(pageList(ocr.pages))].sort((a, b) => a - b),
    skimmed: [...new Set(pageList(ocr.skimmed))].sort((a, b) => a - b),
    seconds:
      typeof ocr.seconds === "number" && Number.isFinite(ocr.seconds) && ocr.seconds >= 0
        ? ocr.seconds
        : null,
    confidence: ocrConfidence(ocr.confidence),
    error: typeof ocr.error === "string" && ocr.error.trim() ? ocr.error.trim() : null,
  };
}

/**
 * "read by OCR (tesseract): pages 1–3, 2.4 s, mean confidence 91%" for a document report with an
 * OCR reading ("pages 1–6 (2–5 by their header only)" when pages no condition reads were skimmed;
 * what is unknown is left out; a failed reading ends "…: OCR failed: <why>"); null without one.
 */
export function ocrSummary(report) {
  const ocr = documentOcr(report);
  if (!ocr) return null;
  const parts = [];
  if (ocr.pages.length) {
    const skimmed = ocr.skimmed.length
      ? ` (${pageRanges(ocr.skimmed)} by ${ocr.skimmed.length === 1 ? "its header" : "their header"} only)`
      : "";
    parts.push(`${ocr.pages.length === 1 ? "page" : "pages"} ${pageRanges(ocr.pages)}${skimmed}`);
  }
  if (ocr.seconds !== null) parts.push(formatSeconds(ocr.seconds));
  if (ocr.confidence !== null) parts.push(`mean confidence ${ocr.confidence}%`);
  if (ocr.error) parts.push(`OCR failed: ${ocr.error}`);
  const head = `read by OCR${ocr.engine ? ` (${ocr.engine})` : ""}`;
  return parts.length ? `${head}: ${parts.join(", ")}` : head;
}

/**
 * The document reports of a tool's output (Conditions AI's `documents`), only entries that name a
 * document; [] for any other output.
 */
export function documentReports(output) {
  return Array.isArray(output?.documents)
    ? output.documents.filter(
        (d) => d && typeof d === "object" && !Array.isArray(d) && typeof d.document === "string",
      )
    : [];
}

/** "2.4 s" (one decimal below a minute, as a person reads a stopwatch), "1 min 5 s" above. */
function formatSeconds(seconds) {
  const tenths = Math.round(seconds * 10) / 10;
  if (tenths < 60) return `${tenths.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

function pageList(pages) {
  return Array.isArray(pages) ? pages.filter((page) => Number.isInteger(page) && page > 0) : [];
}
