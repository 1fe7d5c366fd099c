// What the field finders located in one document, and what they could not: the extraction report
// Conditions AI returns per document (`documents[].extraction`), so an "insufficient evidence"
// verdict can say which field was not found and an auditor can see where each value came from.

/** How a field was located. `model`: an LLM named it with a quote verified to be on the page. */
export type FieldSource = "label" | "table" | "position" | "model";

export interface FieldReading {
  /** A stable name: `ein`, `corporation_name`, `tax_year`, `officer_signature`, `statement_period`… */
  field: string;
  found: boolean;
  /** The value as read, normalised (EIN `12-3456789`, ISO dates, a name as printed). */
  value?: string;
  /** 1-based page of the excerpt. */
  page?: number;
  /** Verbatim text of that page the value was read from. */
  excerpt?: string;
  /** 0–1: 1 for a value beside its printed label, less for positional or model-assisted reads. */
  confidence?: number;
  source?: FieldSource;
  /** Read from a page without a text layer: how sure OCR was of the excerpt (0–100). */
  ocr_confidence?: number;
  /** For a field not found: what was looked for and where ("no 'Employer identification number' label on page 1"). */
  note?: string;
}

export type DocumentKind = "form_1120" | "bank_statement" | "other";

export interface ExtractionReport {
  kind: DocumentKind;
  fields: FieldReading[];
}

/**
 * A field value located by a model for a field the finders could not locate, its quote verified to
 * be on the page. The evaluators use it only where their own reading found nothing.
 */
export interface AssistedField {
  document: string;
  field: string;
  value: string;
  page: number;
  /** The model's quote: a verbatim substring of the page's text. */
  excerpt: string;
  /** For `transactions`: each row the model listed whose quote was verified on its page. */
  rows?: AssistedRow[];
}

/** A statement's transaction row located by a model: its quote holds its date and amount. */
export interface AssistedRow {
  page: number;
  /** The row as printed, a verbatim substring of the page's text. */
  excerpt: string;
  date: string;
  description: string;
  amount: number;
  direction: "credit" | "debit";
}

export function found(
  field: string,
  value: string,
  at: { page: number; excerpt: string },
  source: FieldSource,
  confidence: number,
): FieldReading {
  return { field, found: true, value, page: at.page, excerpt: at.excerpt, source, confidence };
}

export function notFound(field: string, note: string): FieldReading {
  return { field, found: false, note };
}
