// What a model's answer about a document is checked with: its JSON, and its quotes found verbatim on
// the page they name. Shared by the field and the transaction-row questions.
import { dataTag, truncate } from "../../core/prompts.ts";
import type { ExtractedDocument } from "./pdf-text.ts";
import { MAX_EXCERPT } from "./text.ts";

/** Characters of one document's text a question carries (pages in order, the rest cut). */
export const FIELD_DOCUMENT_CHAR_BUDGET = 12_000;

/** The document's pages in data tags, in order, within the budget (the rest cut). */
export function taggedPages(document: ExtractedDocument): string[] {
  let budget = FIELD_DOCUMENT_CHAR_BUDGET;
  return document.pages.map((text, index) => {
    const content = truncate(text, Math.max(0, budget));
    budget -= content.length;
    return dataTag("page", { n: String(index + 1) }, content);
  });
}

export function firstJsonObject(text: string): unknown {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

/**
 * The page's own text for a quote: the quote itself when it is on the page, else the page's
 * substring that matches it with any run of whitespace standing for any other (models reflow
 * columns). Null when it is not on the page or the match would be longer than an excerpt may be.
 */
export function verbatimOnPage(quote: string, page: string): string | null {
  const trimmed = quote.trim();
  if (trimmed === "" || trimmed.length > MAX_EXCERPT * 2) return null;
  if (page.includes(trimmed)) return trimmed.length <= MAX_EXCERPT ? trimmed : null;
  const words = trimmed.split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const match = new RegExp(words.join("\\s+")).exec(page);
  return match && match[0].length <= MAX_EXCERPT ? match[0] : null;
}

/** Whether the value is printed in the excerpt, ignoring case, spacing and punctuation. */
export function contains(excerpt: string, value: string): boolean {
  const key = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
  const wanted = key(value);
  return wanted !== "" && key(excerpt).includes(wanted);
}
