// Types of documents.js for the CLI, which prints the same words about documents the dashboard shows.

export interface DocumentOcr {
  engine: string | null;
  /** The pages read by OCR, sorted, 1-based. */
  pages: number[];
  seconds: number | null;
  /** Mean word confidence, 0–100. */
  confidence: number | null;
  /** Why the OCR engine could not read the document, when it failed. */
  error: string | null;
}

/** The fields of a document report this module reads; anything else is carried through untouched. */
export interface DocumentReportLike {
  document: string;
  status?: unknown;
  reason?: unknown;
  page_count?: unknown;
  extraction?: { kind?: unknown; fields?: unknown } | null;
  ocr?: unknown;
  [key: string]: unknown;
}

export function kindLabel(kind: unknown): string;
export function ocrConfidence(value: unknown): number | null;
export function citationOcr(citation: unknown): { confidence: number | null; confirmed?: string } | null;
export function fieldOcrConfidence(field: unknown): number | null;
export function ocrTag(confidence: number | null): string;
export function ocrTagTitle(page: unknown, confidence: number | null): string;
export function pageRanges(pages: unknown): string;
export function documentOcr(report: unknown): DocumentOcr | null;
export function ocrSummary(report: unknown): string | null;
export function documentReports(output: unknown): DocumentReportLike[];
