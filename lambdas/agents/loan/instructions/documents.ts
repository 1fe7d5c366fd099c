// Documents the instructions point at: "the second file", "the March statement", "2025-03", a path
// or file name of the request, resolved against the request's documents in request order.
import type { Meaning } from "./vocabulary.ts";

/** Word lists read better as one line of text than one word per line. */
export function wordList(text: string): string[] {
  return text.split(", ");
}

export interface DocumentReference {
  /** The words that referred to it, for the interpretation when nothing matches. */
  text: string;
  ordinal?: number | "last";
  /** An ordinal counts among documents of this kind when there are any ("the first statement"). */
  kind?: "statement" | "return";
  month?: number;
  year?: number;
  /** Documents named by their path or file name in the instructions. */
  indices?: readonly number[];
}

export const ORDINAL_WORDS = new Map<string, number | "last">([
  ...wordList("first, second, third, fourth, fifth, sixth, seventh, eighth, ninth, tenth").map(
    (word, index) => [word, index + 1] as const,
  ),
  ...wordList("last, final, latest").map((word) => [word, "last"] as const),
]);

export const DOCUMENT_NOUNS = new Map<string, DocumentReference["kind"]>([
  ...wordList("file, files, document, documents, doc, docs, pdf, pdfs, upload, one").map(
    (word) => [word, undefined] as const,
  ),
  ...wordList("statement, statements").map((word) => [word, "statement"] as const),
  ...wordList("return, returns").map((word) => [word, "return"] as const),
]);

/** Words allowed between an ordinal and its noun ("the first bank statement"). */
const DOCUMENT_QUALIFIERS = new Set(["bank", "tax", "monthly", "uploaded", "checking", "1120", "pdf"]);

/** Month names and their three-letter abbreviations ("mar"), plus "sept". */
export const MONTHS = new Map<string, number>([
  ...wordList(
    "january, february, march, april, may, june, july, august, september, october, november, december",
  ).flatMap((name, index) => [[name, index + 1] as const, [name.slice(0, 3), index + 1] as const]),
  ["sept", 9],
]);

const DOCUMENT_KIND_PATTERNS: Record<NonNullable<DocumentReference["kind"]>, RegExp> = {
  statement: /statement|stmt|bank/,
  return: /1120|return|tax/,
};

export const DOCUMENT_PLACEHOLDER = /^docref(\d+)$/;

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function ordinalOf(token: string | undefined): number | "last" | undefined {
  if (token === undefined) return undefined;
  const numbered = /^(\d{1,3})(?:st|nd|rd|th)$/.exec(token);
  if (numbered) return Number(numbered[1]);
  return ORDINAL_WORDS.get(token);
}

const YEAR = /^(?:19|20)\d\d$/;
const YEAR_MONTH = /^((?:19|20)\d\d)-(0[1-9]|1[0-2])(?:-\d\d)?$/;

/** The months (and years) a file name is about: "statement-2025-03-nsf.pdf", "march_2025.pdf", "stmt-202503.pdf". */
function periodsOfFileName(path: string): Array<{ month?: number; year?: number }> {
  const tokens = baseName(path)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const hasYear = tokens.some((token) => YEAR.test(token));
  const periods: Array<{ month?: number; year?: number }> = [];
  tokens.forEach((token, index) => {
    const next = tokens[index + 1] ?? "";
    const previous = tokens[index - 1] ?? "";
    const compact = /^((?:19|20)\d\d)(0[1-9]|1[0-2])$/.exec(token);
    if (MONTHS.has(token)) {
      const year = YEAR.test(next) ? Number(next) : YEAR.test(previous) ? Number(previous) : undefined;
      periods.push({ month: MONTHS.get(token), ...(year ? { year } : {}) });
    } else if (compact) {
      periods.push({ year: Number(compact[1]), month: Number(compact[2]) });
    } else if (YEAR.test(token) && /^(0?[1-9]|1[0-2])$/.test(next)) {
      periods.push({ year: Number(token), month: Number(next) });
    } else if (/^(0?[1-9]|1[0-2])$/.test(token) && YEAR.test(next)) {
      periods.push({ year: Number(next), month: Number(token) });
    } else if (YEAR.test(token)) {
      periods.push({ year: Number(token) });
    } else if (!hasYear && /^(0[1-9]|1[0-2])$/.test(token)) {
      periods.push({ month: Number(token) });
    }
  });
  return periods;
}

/** Indices of the documents a reference points at, in request order; empty when none. */
export function resolveReference(reference: DocumentReference, documents: readonly string[]): number[] {
  if (reference.indices) return [...reference.indices];
  const all = documents.map((_, index) => index);
  if (reference.ordinal !== undefined) {
    const pattern = reference.kind ? DOCUMENT_KIND_PATTERNS[reference.kind] : undefined;
    const ofKind = pattern
      ? all.filter((index) => pattern.test(baseName(documents[index] ?? "").toLowerCase()))
      : [];
    const candidates = ofKind.length ? ofKind : all;
    const position = reference.ordinal === "last" ? candidates.length - 1 : reference.ordinal - 1;
    const chosen = candidates[position];
    return chosen === undefined ? [] : [chosen];
  }
  return all.filter((index) =>
    periodsOfFileName(documents[index] ?? "").some(
      (period) =>
        (reference.month === undefined || period.month === reference.month) &&
        (reference.year === undefined || period.year === undefined || period.year === reference.year) &&
        (reference.month !== undefined || period.year !== undefined),
    ),
  );
}

/**
 * A document reference starting at tokens[start]: "the second file", "the 2nd and 3rd statements",
 * "document 2", "the March statement", "2025-03", a path or file name from the request.
 */
export function documentReferenceAt(
  tokens: readonly string[],
  start: number,
): { length: number; meanings: Meaning[] } | undefined {
  const token = tokens[start] ?? "";

  // Ordinals, possibly coordinated, then qualifiers, then a document noun.
  const ordinals: Array<number | "last"> = [];
  let cursor = start;
  for (;;) {
    const ordinal =
      tokens[cursor] === "most" && tokens[cursor + 1] === "recent" ? "last" : ordinalOf(tokens[cursor]);
    if (ordinal === undefined) break;
    ordinals.push(ordinal);
    cursor += tokens[cursor] === "most" ? 2 : 1;
    while (
      ["and", "or", ",", "the"].includes(tokens[cursor] ?? "") &&
      ordinalOf(tokens[cursor + 1]) !== undefined
    )
      cursor++;
    if (["and", "or", ","].includes(tokens[cursor] ?? "") && tokens[cursor + 1] === "the") cursor += 1;
  }
  if (ordinals.length) {
    while (DOCUMENT_QUALIFIERS.has(tokens[cursor] ?? "")) cursor++;
    const noun = tokens[cursor] ?? "";
    if (DOCUMENT_NOUNS.has(noun)) {
      const kind = DOCUMENT_NOUNS.get(noun);
      const text = tokens.slice(start, cursor + 1).join(" ");
      return {
        length: cursor + 1 - start,
        meanings: ordinals.map((ordinal) => ({
          kind: "document",
          reference: { text, ordinal, ...(kind ? { kind } : {}) },
        })),
      };
    }
    return undefined;
  }

  // "document 2", "file number 3", "statement no 1"
  if (DOCUMENT_NOUNS.has(token) && token !== "one") {
    let next = start + 1;
    if (tokens[next] === "number" || tokens[next] === "no") next++;
    const number = tokens[next] ?? "";
    if (/^\d{1,3}$/.test(number) && Number(number) > 0) {
      const kind = DOCUMENT_NOUNS.get(token);
      return {
        length: next + 1 - start,
        meanings: [
          {
            kind: "document",
            reference: {
              text: tokens.slice(start, next + 1).join(" "),
              ordinal: Number(number),
              ...(kind ? { kind } : {}),
            },
          },
        ],
      };
    }
  }

  // Periods: "march", "march 2025", "2025-03", "2025", each with an optional document noun.
  let period: { month?: number; year?: number } | undefined;
  let end = start + 1;
  const yearMonth = YEAR_MONTH.exec(token);
  if (yearMonth) period = { year: Number(yearMonth[1]), month: Number(yearMonth[2]) };
  else if (MONTHS.has(token)) {
    const next = tokens[end] ?? "";
    // "may" is a month only where a month can stand: "the May statement", "May 2025".
    const standsAsMonth =
      token !== "may" ||
      ["the", "in", "for", "from"].includes(tokens[start - 1] ?? "") ||
      YEAR.test(next) ||
      DOCUMENT_NOUNS.has(next);
    if (standsAsMonth) {
      period = { month: MONTHS.get(token) };
      if (YEAR.test(next)) {
        period.year = Number(next);
        end++;
      }
    }
  } else if (YEAR.test(token)) period = { year: Number(token) };
  if (!period) return undefined;
  const noun = tokens[end] ?? "";
  if (DOCUMENT_NOUNS.has(noun) && noun !== "one") end++;
  return {
    length: end - start,
    meanings: [{ kind: "document", reference: { text: tokens.slice(start, end).join(" "), ...period } }],
  };
}

function escapeForRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Paths and file names of the request's documents, written in the instructions, become placeholders
 * before punctuation is stripped. A bare name without an extension counts only when it cannot be an
 * ordinary word ("statement-2025-03", not "signed").
 */
export function replaceDocumentNames(
  text: string,
  documents: readonly string[],
): { text: string; named: number[][] } {
  const names = new Map<string, number[]>();
  documents.forEach((path, index) => {
    const name = baseName(path).toLowerCase();
    const stem = name.replace(/\.[a-z0-9]+$/, "");
    for (const candidate of [path.toLowerCase(), name, stem]) {
      if (candidate.length < 4 || (candidate === stem && !/[0-9_.-]/.test(stem))) continue;
      names.set(candidate, [...new Set([...(names.get(candidate) ?? []), index])]);
    }
  });
  const named: number[][] = [];
  let result = text;
  for (const [name, indices] of [...names].sort(([a], [b]) => b.length - a.length)) {
    const pattern = new RegExp(`(?<![a-z0-9/_.-])${escapeForRegex(name)}(?![a-z0-9_-])`, "g");
    result = result.replace(pattern, () => {
      named.push(indices);
      return ` docref${named.length - 1} `;
    });
  }
  return { text: result, named };
}
