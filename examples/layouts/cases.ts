// Labelled loan files in many layouts: the documents of one loan file, the metadata the loan system
// sends with them, and the verdict an underwriter reading them would give each condition. The truth
// comes from how the file was generated (who signed, which fee was charged), never from running the
// engine, so the matrix measures the engine rather than repeating it.
import type { SampleDocument } from "../samples.ts";

export type Label = "fulfilled" | "not_fulfilled" | "insufficient_evidence";

export interface LabelledCase {
  /** Layout name, e.g. "credit-union" or "1120-software-header-table". */
  layout: string;
  /** What this file is about: "NSF fee named 'returned item charge'". */
  description: string;
  documents: SampleDocument[];
  /** The request's metadata (loan_program, classification, as_of_date, borrower_info, extracted_entities). */
  metadata: Record<string, unknown>;
  /** The right verdict per condition id, for the conditions this case is about. */
  labels: Record<string, Label>;
}
