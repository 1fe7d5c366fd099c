// Shapes shared by the condition evaluators and the engine that dispatches to them.
import type { ExtractedDocument } from "./pdf-text.ts";
import type { Citation, SimpleDate } from "./text.ts";

export type VerdictStatus = "fulfilled" | "not_fulfilled" | "insufficient_evidence";

export interface LetterOfExplanation {
  document: string;
  page: number;
  /** YYYY-MM-DD, or null when the line's date could not be read. */
  date: string | null;
  amount: number;
  description: string;
  /** The transaction line, verbatim. */
  excerpt: string;
  reason: string;
}

export interface Finding {
  status: VerdictStatus;
  reason: string;
  citations: Citation[];
  letters_of_explanation?: LetterOfExplanation[];
  /** Values the engine read from the documents (EIN, tax year, periods…), for the solver and for audit. */
  observed?: Record<string, unknown>;
}

export interface Verdict extends Finding {
  condition_id: string;
  title: string;
  compartment: string;
}

export interface EvaluationContext {
  /** Documents with a text layer. */
  readable: ExtractedDocument[];
  /** Names of documents without a text layer (scanned images). */
  unreadable: string[];
  asOf: SimpleDate;
  expected: Record<string, unknown>;
}

export function insufficient(reason: string, observed?: Record<string, unknown>): Finding {
  return { status: "insufficient_evidence", reason, citations: [], ...(observed ? { observed } : {}) };
}

/** Appended to reasons when a conclusion might change with the documents that could not be read. */
export function unreadableNote(context: EvaluationContext): string {
  if (context.unreadable.length === 0) return "";
  return `; ${context.unreadable.join(", ")} ${context.unreadable.length === 1 ? "has" : "have"} no text layer (scanned image?) and could not be checked`;
}

export function listNames(names: string[]): string {
  return names.length === 0 ? "(none)" : names.join(", ");
}
