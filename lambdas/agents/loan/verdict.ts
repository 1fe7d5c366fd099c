// Shapes shared by the condition evaluators and the engine that dispatches to them.
import type { ConditionPriority } from "./catalog.ts";
import type { DocumentIdentification } from "./document-kinds.ts";
import type { AssistedField } from "./extraction.ts";
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
  /**
   * What exactly is missing, when the evaluator knows it (a month, a letter for one deposit, a blank
   * date): each item a short sentence that stands on its own. Only on findings that are not fulfilled.
   */
  missing?: string[];
  /** Actions for a loan officer, as specific as the finding allows. Only on findings that are not fulfilled. */
  remedies?: string[];
}

export interface Verdict extends Finding {
  condition_id: string;
  title: string;
  compartment: string;
  /** The catalog's priority; absent only for a condition the catalog does not know and the input did not rank. */
  priority?: ConditionPriority;
}

/**
 * A document, or pages of one, the evaluators could not read. Conclusions of absence must not
 * ignore it, and a verdict that depended on it names it and says why.
 */
export interface UnreadablePart {
  /** The document as it was requested. */
  document: string;
  /** Set when only these pages (1-based) could not be read; the rest of the document was. */
  pages?: number[];
  /** Completes a sentence that starts with the document (or its pages): "does not exist". */
  problem: string;
  /** What to do about it, for a loan officer: "Re-upload bank-feb.pdf: it does not exist". */
  remedy: string;
}

/** A readable document whose content shows it is not the kind of document a condition is judged on. */
export interface MismatchedDocument {
  document: string;
  identification: DocumentIdentification;
}

export interface EvaluationContext {
  /** Documents with a text layer, of the kind the condition is judged on (or of no known kind). */
  readable: ExtractedDocument[];
  /**
   * Readable documents left out because their content shows another kind: a Form 1120-S for a
   * Form 1120 condition, a tax return for a bank-statement one. No verdict may rest on them.
   */
  mismatched?: MismatchedDocument[];
  /** Documents missing, refused, corrupt or without a text layer, and textless pages of readable ones. */
  unreadable: UnreadablePart[];
  asOf: SimpleDate;
  expected: Record<string, unknown>;
  /**
   * Values a model located for fields the finders could not, each quote verified to be on its page.
   * An evaluator uses one only where its own reading of that document found nothing.
   */
  assisted?: ReadonlyArray<AssistedField>;
}

export function insufficient(
  reason: string,
  observed?: Record<string, unknown>,
  specifics: Pick<Finding, "missing" | "remedies"> = {},
): Finding {
  return {
    status: "insufficient_evidence",
    reason,
    citations: [],
    ...(observed ? { observed } : {}),
    ...withSpecifics(specifics),
  };
}

/** The non-empty lists only, so a finding without specifics has no empty arrays. */
export function withSpecifics(
  specifics: Pick<Finding, "missing" | "remedies">,
): Pick<Finding, "missing" | "remedies"> {
  return {
    ...(specifics.missing && specifics.missing.length > 0 ? { missing: specifics.missing } : {}),
    ...(specifics.remedies && specifics.remedies.length > 0 ? { remedies: specifics.remedies } : {}),
  };
}

/** "bank-feb.pdf does not exist", "with-scan.pdf (page 2) has no text layer (scanned image?)". */
export function describeUnreadable(part: UnreadablePart): string {
  const pages = part.pages ? ` (page ${part.pages.join(", ")})` : "";
  return `${part.document}${pages} ${part.problem}`;
}

/** Appended to reasons when a conclusion might change with the documents that could not be read. */
export function unreadableNote(context: EvaluationContext): string {
  if (context.unreadable.length === 0) return "";
  const described = context.unreadable.map(describeUnreadable).join("; ");
  return `; ${described}, so ${context.unreadable.length === 1 ? "it" : "they"} could not be checked`;
}

/** "rm/x.pdf is a Form 1120-S (U.S. Income Tax Return for an S Corporation), not a Form 1120", per mismatched document. */
export function mismatchedKinds(context: EvaluationContext, expected: string): string[] {
  return (context.mismatched ?? []).map(
    ({ document, identification }) => `${document} is ${identification.description}, not ${expected}`,
  );
}

/** Appended to reasons when documents were left out for being of another kind. */
export function mismatchNote(context: EvaluationContext, expected: string): string {
  const described = mismatchedKinds(context, expected);
  return described.length ? `; ${described.join("; ")}` : "";
}

/** Citations of what identified each mismatched document (the form's title, the statement period). */
export function mismatchCitations(context: EvaluationContext): Citation[] {
  return (context.mismatched ?? []).flatMap(({ document, identification }) =>
    identification.page !== undefined && identification.excerpt !== undefined
      ? [{ document, page: identification.page, excerpt: identification.excerpt }]
      : [],
  );
}

export function listNames(names: string[]): string {
  return names.length === 0 ? "(none)" : names.join(", ");
}
