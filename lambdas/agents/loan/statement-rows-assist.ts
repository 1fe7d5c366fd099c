// Grounded, model-assisted reading of a statement's transaction rows, for statements whose rows the
// table readers cannot locate (a layout they have never seen). The model lists the rows; each row
// counts only when its quote is on the page it names and holds the row's date and amount as
// printed. What the model leaves out cannot be seen, so rows read this way prove what they show
// (a fee, a deposit) but prove an absence only when they add up to the statement's printed total
// (statement-activity.ts).
import * as z from "zod";
import { lazily } from "../../core/lazy.ts";
import { truncate } from "../../core/prompts.ts";
import type { AssistedRow } from "./extraction.ts";
import type { FieldOutcome, FieldQuestion } from "./field-assist.ts";
import { contains, firstJsonObject, taggedPages, verbatimOnPage } from "./grounding.ts";
import { findAmounts, MAX_EXCERPT } from "./text.ts";

/** Rows one answer may list: a month of a busy account; more is cut, and the cut said. */
export const MAX_ASSISTED_ROWS = 250;

export function renderRowsPrompt(question: FieldQuestion): string {
  const { document } = question;
  const pages = taggedPages(document);
  return [
    `List every transaction row of the bank statement below (${document.page_count} page${document.page_count === 1 ? "" : "s"}): deposits, withdrawals, checks and fees, each once, in the order printed.`,
    `Answer with {"rows": [{"page": <its page number>, "quote": "<the row's text as printed on that page, copied exactly, at most ${MAX_EXCERPT} characters>", "date": "<the row's date as printed>", "description": "<what the row says>", "amount": "<the amount as printed>", "direction": "credit" | "debit"}]}, or {"rows": []} when the statement lists none.`,
    "Do not guess, reformat or total anything: a row whose quote is not on its page, or does not hold its date and amount, is discarded.",
    ...pages,
  ].join("\n");
}

const Row = /* @__PURE__ */ lazily(() =>
  z.object({
    page: z.number().int().positive(),
    quote: z.string(),
    date: z.string(),
    description: z.string().default(""),
    amount: z.union([z.string(), z.number()]),
    direction: z.enum(["credit", "debit"]),
  }),
);
const Answer = /* @__PURE__ */ lazily(() => z.object({ rows: z.array(z.unknown()) }));

/** Checks a model's rows against the document; only rows whose quote is verified are kept. */
export function verifyRowsAnswer(text: string, question: FieldQuestion): FieldOutcome {
  const { document, field } = question;
  const base = { document: document.document, field: field.name };
  const parsed = Answer().safeParse(firstJsonObject(text));
  if (!parsed.success) return { ...base, rejected: "the model's answer is not {rows: [...]}" };
  const rows: AssistedRow[] = [];
  const problems: string[] = [];
  parsed.data.rows.slice(0, MAX_ASSISTED_ROWS).forEach((candidate, index) => {
    const row = Row().safeParse(candidate);
    if (!row.success) {
      problems.push(`row ${index + 1} is not {page, quote, date, amount, direction}`);
      return;
    }
    const { page, quote, date, description, direction } = row.data;
    const pageText = document.pages[page - 1];
    const excerpt = pageText === undefined ? null : verbatimOnPage(quote, pageText);
    const amountText = String(row.data.amount).trim();
    const amount = findAmounts(amountText)[0];
    if (!excerpt) problems.push(`row ${index + 1}'s quote is not on page ${page}`);
    else if (!contains(excerpt, date))
      problems.push(`row ${index + 1}'s date "${truncate(date, 20)}" is not in its quote`);
    else if (!amount || !contains(excerpt, amountText))
      problems.push(`row ${index + 1}'s amount "${truncate(amountText, 20)}" is not in its quote`);
    else
      rows.push({
        page,
        excerpt,
        date: date.trim(),
        description: description.trim(),
        amount: amount.value,
        direction,
      });
  });
  if (parsed.data.rows.length > MAX_ASSISTED_ROWS)
    problems.push(`rows after the first ${MAX_ASSISTED_ROWS} were not read`);
  const first = rows[0];
  if (!first) {
    return {
      ...base,
      rejected: problems.length
        ? `no row verified (${problems.slice(0, 3).join("; ")})`
        : "the model listed no rows either",
    };
  }
  return {
    ...base,
    accepted: {
      document: document.document,
      field: field.name,
      value: `${rows.length} row${rows.length === 1 ? "" : "s"}${problems.length ? ` (${problems.length} discarded: ${problems.slice(0, 3).join("; ")})` : ""}`,
      page: first.page,
      excerpt: first.excerpt,
      rows,
    },
  };
}
