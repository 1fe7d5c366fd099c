// What a document is, read from its content: a Form 1120, 1120-S, 1065 or 1040, a bank statement, a
// credit-card statement, or something else. A file's name and the request's classification say
// what it should be; only its pages say what it is, and a condition is judged only on documents
// of its own kind (a Form 1120-S prints "Schedule L" too, but it is not a complete Form 1120).
import {
  type DocumentIdentification,
  describeKind,
  type IdentifiedKind,
  TAX_FORM_TITLES,
} from "./document-kinds.ts";
import type { ExtractedDocument } from "./pdf-text.ts";
import { readStatement } from "./statement-fields.ts";
import { type Citation, cite, documentPages, type PageText, scannedPhrase } from "./text.ts";

interface TaxForm {
  kind: keyof typeof TAX_FORM_TITLES;
  /** The title as printed, or as a scan's OCR text layer breaks it. */
  titlePattern: RegExp;
  /** The form number where the page names this form ("Form 1120-S", "1120S"), not a sibling form. */
  numberPattern: RegExp;
}

function titled(kind: keyof typeof TAX_FORM_TITLES): RegExp {
  const rest = TAX_FORM_TITLES[kind].title.replace(/^U\.S\.\s+/, "");
  return new RegExp(`U\\.?\\s?S\\.?\\s+${scannedPhrase(rest)}`, "i");
}

/**
 * The forms, most specific first: on a tie "Form 1120-S" wins over "Form 1120". A number is only
 * this form's when no suffix makes it another ("Form 1120-S", "Form 1120-X", "Form 1040-SR").
 */
const TAX_FORMS: readonly TaxForm[] = [
  {
    kind: "form_1120s",
    titlePattern: titled("form_1120s"),
    numberPattern: /\bForm\s*1120\s?-?\s?S\b|(?<![\w,.-])1120\s?-\s?S(?![\w-])|\b1120S\b/gi,
  },
  {
    kind: "form_1065",
    titlePattern: titled("form_1065"),
    numberPattern: /\bForm\s*1065(?![\w-])/gi,
  },
  {
    kind: "form_1040",
    titlePattern: titled("form_1040"),
    numberPattern: /\bForm\s*1040(?![\w-])/gi,
  },
  {
    kind: "form_1120",
    titlePattern: titled("form_1120"),
    numberPattern: /\bForm\s*1120(?![\w-])(?!\s[Ss]\b)/gi,
  },
];

// ---------------------------------------------------------------- tax forms

interface FormMatch {
  form: TaxForm;
  /** 2 for its title, 1 for each mention of its number. */
  score: number;
  /** The title's match when the page prints it, else the first mention of the number. */
  evidence: { index: number; length: number };
}

/** The tax form a page's text names, wherever on the page it is printed; null when none. */
function formOfPage(page: PageText): FormMatch | null {
  let best: FormMatch | null = null;
  for (const form of TAX_FORMS) {
    const title = form.titlePattern.exec(page.text);
    const numbers = [...page.text.matchAll(form.numberPattern)];
    const score = (title ? 2 : 0) + numbers.length;
    const first = title ?? numbers[0];
    if (!first || score === 0) continue;
    // Strictly greater: on a tie the earlier (more specific) form stays.
    if (!best || score > best.score) {
      best = { form, score, evidence: { index: first.index ?? 0, length: first[0].length } };
    }
  }
  return best;
}

function lineOfOffset(page: PageText, offset: number): { line: number; start: number } {
  let consumed = 0;
  for (let line = 0; line < page.lines.length; line++) {
    const length = (page.lines[line] ?? "").length + 1;
    if (offset < consumed + length) return { line, start: offset - consumed };
    consumed += length;
  }
  return { line: Math.max(0, page.lines.length - 1), start: 0 };
}

/** The lines a match spans, cited so the excerpt stays verbatim and within the size limit. */
function citeMatch(page: PageText, index: number, length: number): Citation {
  const from = lineOfOffset(page, index);
  const to = lineOfOffset(page, index + Math.max(0, length - 1));
  const end = from.line === to.line ? from.start + length : (page.lines[from.line] ?? "").length;
  return cite(page, from.line, to.line, { line: from.line, start: from.start, end });
}

function identified(kind: IdentifiedKind, citation: Citation): DocumentIdentification {
  return { kind, description: describeKind(kind), page: citation.page, excerpt: citation.excerpt };
}

// ---------------------------------------------------------------- statements

/** Each printed only on a credit-card statement's summary; two of them identify one. */
const CARD_MARKERS = [/credit\s+(?:limit|line)\b/i, /minimum\s+payment\s+due/i, /payment\s+due\s+date/i];
/** A deposit account on the same page makes it a bank statement that lists a card or a credit line. */
const DEPOSIT_ACCOUNT = /\b(?:checking|savings|share\s+draft|money\s+market)\b/i;
const BALANCE_LINE =
  /(?:beginning|opening|previous|starting|ending|closing|new)\s+balance|balance\s+(?:forward|brought)/i;

function creditCardEvidence(pages: readonly PageText[]): Citation | null {
  for (const page of pages.slice(0, 2)) {
    const markers = CARD_MARKERS.filter((marker) => marker.test(page.text));
    if (markers.length < 2 || DEPOSIT_ACCOUNT.test(page.text)) continue;
    const first = markers
      .map((marker) => marker.exec(page.text))
      .filter((match): match is RegExpExecArray => match !== null)
      .sort((a, b) => a.index - b.index)[0];
    if (first) return citeMatch(page, first.index, first[0].length);
  }
  return null;
}

/** A statement period, an account number, and transactions or balance lines. */
function bankStatementEvidence(document: ExtractedDocument, pages: readonly PageText[]): Citation | null {
  const statement = readStatement(document);
  const period = statement?.periods[0];
  if (!statement || !period || statement.accounts.length === 0) return null;
  const balances = pages.some((page) => BALANCE_LINE.test(page.text));
  if (statement.transactions.length === 0 && !balances) return null;
  return period.excerpt !== undefined
    ? { document: period.page.document, page: period.page.page, excerpt: period.excerpt }
    : cite(period.page, period.line);
}

// ---------------------------------------------------------------- the document

/**
 * What one readable document is. Page 1 decides a tax form by the form's title or number wherever
 * it is printed (flattened PDFs put values after the footer, and titles anywhere); then a
 * credit-card statement, a bank statement, and a return whose form pages follow other pages.
 */
export function identifyDocument(document: ExtractedDocument): DocumentIdentification {
  const pages = documentPages(document).filter((page) => page.text.trim() !== "");
  const first = pages[0];
  const onFirst = first ? formOfPage(first) : null;
  if (first && onFirst) {
    return identified(onFirst.form.kind, citeMatch(first, onFirst.evidence.index, onFirst.evidence.length));
  }
  const card = creditCardEvidence(pages);
  if (card) return identified("credit_card_statement", card);
  const statement = bankStatementEvidence(document, pages);
  if (statement) return identified("bank_statement", statement);
  for (const page of pages.slice(1)) {
    const match = formOfPage(page);
    if (match)
      return identified(match.form.kind, citeMatch(page, match.evidence.index, match.evidence.length));
  }
  return {
    kind: "other",
    description: describeKind("other"),
    note: `no tax form's title or number (Form 1120, 1120-S, 1065, 1040), no credit-card summary (credit limit, minimum payment due, payment due date) and no statement period with an account number and transactions or balances in ${document.document}`,
  };
}
