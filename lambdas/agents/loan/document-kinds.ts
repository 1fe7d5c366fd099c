// The kinds of document the engine tells apart, and how each is named to a loan officer. Kept apart
// from the identification itself (identify-document.ts) so the catalog, which every function
// loads, does not carry the finders.

export const DOCUMENT_KINDS = [
  "form_1120",
  "form_1120s",
  "form_1065",
  "form_1040",
  "bank_statement",
  "credit_card_statement",
  "other",
] as const;
export type IdentifiedKind = (typeof DOCUMENT_KINDS)[number];

/** What a document was identified as, and the text that identified it. */
export interface DocumentIdentification {
  kind: IdentifiedKind;
  /** "a Form 1120-S (U.S. Income Tax Return for an S Corporation)", "a bank statement". */
  description: string;
  /** The page (1-based) whose text identified it; absent for `other`. */
  page?: number;
  /** Verbatim text of that page that identified it; absent for `other`. */
  excerpt?: string;
  /** For `other`: what was looked for. */
  note?: string;
}

/** The IRS forms among the kinds: their number and the title printed on page 1. */
export const TAX_FORM_TITLES: Readonly<
  Record<Extract<IdentifiedKind, `form_${string}`>, { form: string; title: string }>
> = {
  form_1120s: { form: "Form 1120-S", title: "U.S. Income Tax Return for an S Corporation" },
  form_1065: { form: "Form 1065", title: "U.S. Return of Partnership Income" },
  form_1040: { form: "Form 1040", title: "U.S. Individual Income Tax Return" },
  form_1120: { form: "Form 1120", title: "U.S. Corporation Income Tax Return" },
};

/** "a Form 1120-S (U.S. Income Tax Return for an S Corporation)", "a bank statement". */
export function describeKind(kind: IdentifiedKind): string {
  if (kind === "bank_statement") return "a bank statement";
  if (kind === "credit_card_statement") return "a credit-card statement";
  if (kind === "other") return "a document of none of the kinds the engine knows";
  const { form, title } = TAX_FORM_TITLES[kind];
  return `a ${form} (${title})`;
}

/** "a Form 1120", "a bank statement": the short name, for "…, not a Form 1120". */
export function nameKind(kind: IdentifiedKind): string {
  return kind in TAX_FORM_TITLES
    ? `a ${TAX_FORM_TITLES[kind as keyof typeof TAX_FORM_TITLES].form}`
    : describeKind(kind);
}
