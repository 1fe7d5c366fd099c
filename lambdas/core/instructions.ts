// Reads a loan officer's free-text instructions into a scope: what was asked, which conditions to
// judge or leave out, which of the request's documents to judge against. Deterministic and rule
// based, so the offline provider answers "only the signature" differently from "what applies?", and
// an LLM planner gets the same reading as a hint. Pure: the caller passes the catalog's conditions.
//
// The reading has three stages, each small enough to check by eye:
// 1. normalise: lower case, contractions expanded, dates written one way, clauses split at sentence
//    punctuation, words within one edit of the known vocabulary corrected ("sigature" → "signature");
// 2. scan: each clause becomes a sequence of recognised phrases (longest phrase wins, so "account
//    holder" is the holder check and not "account"), document references and unrecognised words;
// 3. resolve: negation ("skip", "except", "do not") covers what follows it up to the next verb,
//    "but", "then" or the end of the clause; what it covers is excluded, the rest is asked for.

export const QUESTIONS = [
  "evaluate",
  "applicable",
  "sufficiency",
  "history",
  "similar_loans",
  "large_deposits",
] as const;
export type Question = (typeof QUESTIONS)[number];

export interface ScopeCondition {
  id: string;
  title: string;
  compartment: string;
  keywords: readonly string[];
}

export interface InstructionScope {
  /** What was asked. "evaluate" judges conditions; "applicable" only lists the conditions that apply (no judging). */
  questions: Question[];
  /** Condition ids to judge, in catalog order; undefined = every condition that applies. */
  include_conditions?: string[];
  /** Condition ids not to judge ("skip the EIN check", "except deposits"). */
  exclude_conditions: string[];
  /** The request's documents to judge against, as given (request order); undefined = all of them. */
  documents?: string[];
  /** One plain sentence saying how the instructions were read (shown to the loan officer in the result). */
  interpretation: string;
  /** True when the instructions were empty, unknown or contradictory, so everything is evaluated. */
  fallback: boolean;
}

/** The interpretation is shown beside the verdicts; longer than this it stops being a glance. */
export const MAX_INTERPRETATION_CHARS = 300;

/** The condition whose findings "list the large deposits" asks for. */
const LARGE_DEPOSITS_CONDITION = "BS_LARGE_DEPOSITS";

const EMPTY_INTERPRETATION = "No instructions: every applicable condition is evaluated.";

// ---------------------------------------------------------------------------------------------
// Vocabulary

type Lookup = "history" | "similar_loans";

type Meaning =
  | { kind: "condition"; ids: readonly string[]; specific: boolean }
  | { kind: "everything" }
  | { kind: "sufficiency" }
  | { kind: "lookup"; question: Lookup }
  | { kind: "verb"; verb: "evaluate" | "list" | "other" }
  /** "which", "what": what follows is asked to be listed. */
  | { kind: "wh" }
  /** "which conditions", "list the conditions", "what do I need". */
  | { kind: "list_conditions" }
  /** "apply", "applicable", "relevant". */
  | { kind: "applies" }
  /** "met", "fulfilled", "pass": the officer wants verdicts. */
  | { kind: "verdict" }
  | { kind: "only" }
  | { kind: "negation" }
  /** Ends a negation: "but", "then", "also". */
  | { kind: "boundary" }
  | { kind: "no_evaluation" }
  | { kind: "document"; reference: DocumentReference }
  /** Recognised, changes nothing ("all documents"). */
  | { kind: "neutral" };

type Entry = readonly [phrases: readonly string[], meanings: readonly Meaning[]];

/** Word lists read better as one line of text than one word per line. */
function wordList(text: string): string[] {
  return text.split(", ");
}

const verb = (kind: "evaluate" | "list" | "other"): Meaning => ({ kind: "verb", verb: kind });

/** Every combination of the parts, space-joined ("" drops a part): phrases without a regex. */
function combine(...parts: readonly (readonly string[])[]): string[] {
  return parts.reduce<string[]>(
    (phrases, options) =>
      phrases.flatMap((phrase) => options.map((option) => [phrase, option].filter(Boolean).join(" "))),
    [""],
  );
}

const LIST_INTRODUCTIONS = wordList(
  "which, what, what are, which are, list, show, show me, display, enumerate, tell me, give me",
);
const CONDITION_DETERMINERS = [
  "",
  ...wordList("the, all, all the, all of the, applicable, the applicable, all applicable, loan, the loan"),
];
const SUFFICIENCY_SUBJECTS = wordList(
  "it, this, they, everything, file, files, package, documents, docs, statements, application, loan",
);
const HISTORY_QUALIFIERS = ["previous", "prior", "past", "earlier", "former", "older"];
const HISTORY_SUBJECTS = wordList(
  "loan, loans, evaluation, evaluations, run, runs, decision, decisions, condition, conditions, file, files, application, applications, underwriting, result, results, review, reviews, verdicts",
);

/** The interpreter's own vocabulary. A catalog keyword that is also listed here wins over it. */
const BASE_ENTRIES: readonly Entry[] = [
  [
    wordList(
      "check, checks, checking, checked, evaluate, evaluates, evaluating, evaluated, evaluation, evaluations, verify, verifies, verifying, verified, verification, review, reviewing, reviewed, judge, judging, judged, judgement, judgment, assess, assessing, assessed, assessment, confirm, confirming, validate, validating, validation, examine, examining, inspect, inspecting, audit, ensure, make sure, look at, see if, see whether",
    ),
    [verb("evaluate")],
  ],
  [
    ["list", "listing", "show", "display", "enumerate", "itemize", "itemise", "tell", "give", "report"],
    [verb("list")],
  ],
  [["include", "consider", "look up", "find", "pull", "fetch", "compare", "get", "run"], [verb("other")]],
  [["which", "what", "how many"], [{ kind: "wh" }]],
  [
    [
      ...combine(LIST_INTRODUCTIONS, CONDITION_DETERMINERS, ["conditions", "condition", "requirements"]),
      ...wordList(
        "what do i need, what do we need, what does this loan need, what is needed, what is required, which ones apply, what applies",
      ),
    ],
    [{ kind: "list_conditions" }],
  ],
  [["apply", "applies", "apply to", "applicable", "relevant"], [{ kind: "applies" }]],
  [
    wordList(
      "met, meet, meets, unmet, fulfilled, fulfil, fulfill, unfulfilled, satisfied, satisfy, pass, passes, passed, fail, fails, failed, failing, outstanding, cleared",
    ),
    [{ kind: "verdict" }],
  ],
  [
    [
      ...wordList(
        "sufficient, sufficiency, insufficient, enough, adequate, missing, complete, still need, still needed, anything else needed",
      ),
      ...combine(SUFFICIENCY_SUBJECTS, ["complete", "is complete", "are complete"]),
    ],
    [{ kind: "sufficiency" }],
  ],
  [
    [
      ...wordList("history, histories, historical, historically, historic, track record"),
      ...combine(HISTORY_QUALIFIERS, HISTORY_SUBJECTS),
    ],
    [{ kind: "lookup", question: "history" }],
  ],
  // "no overdrafts" names a condition, so "no" negates only the lookups.
  [
    combine(["no"], ["history", "historical evaluations", "prior loans", "previous loans", "past loans"]),
    [{ kind: "negation" }, { kind: "lookup", question: "history" }],
  ],
  [
    combine(["no"], ["similar loans", "comparable loans"]),
    [{ kind: "negation" }, { kind: "lookup", question: "similar_loans" }],
  ],
  [
    ["similar", "comparable", "like this one", "other loans"],
    [{ kind: "lookup", question: "similar_loans" }],
  ],
  [
    [
      ...wordList(
        "everything, everything else, all of them, all of it, every condition, each condition, every check, whole file, entire file, full review, full evaluation",
      ),
      ...combine(["all"], ["", "the", "of the"], ["conditions", "checks", "applicable conditions"]),
    ],
    [{ kind: "everything" }],
  ],
  [
    ["everything but", "all but", "everything except", "all except"],
    [{ kind: "everything" }, { kind: "negation" }],
  ],
  [["only", "just", "solely", "exclusively", "nothing but", "nothing else"], [{ kind: "only" }]],
  [
    wordList(
      "except, except for, excepting, exclude, excluding, excluded, skip, skipping, skipped, ignore, ignoring, omit, omitting, without, never, leave out, other than, apart from, aside from, rather than, instead of, not including, but not, minus, no need to, no need for",
    ),
    [{ kind: "negation" }],
  ],
  [["but", "then", "also", "however", "plus", "and also", "and then"], [{ kind: "boundary" }]],
  [
    combine(["no"], ["evaluation", "evaluations", "judging", "judgement", "judgment", "verdict", "verdicts"]),
    [{ kind: "no_evaluation" }],
  ],
  [
    combine(["all", "all the", "every", "each", "both"], ["documents", "document", "files", "file", "pdfs"]),
    [{ kind: "neutral" }],
  ],
];

/** "not" after these describes a state ("is not signed", "whether or not"), it does not negate the request. */
const NOT_DESCRIBES_AFTER = new Set(
  wordList("is, are, was, were, be, been, being, am, if, or, whether, why"),
);

/** Prepositions that make a document reference say where to judge ("on the March statement"). */
const LOCATIVES = new Set(["on", "in", "from", "within", "for", "of"]);
const DETERMINERS = new Set(["the", "a", "an", "this", "that", "these", "those", "each", "every"]);

/** Words a negation may cover without making it about something unknown ("don't evaluate the conditions"). */
const FILLER_WORDS = new Set([
  ",",
  ...wordList(
    "a, an, the, any, anything, condition, conditions, them, it, all, of, these, those, this, that, please, even, yet, now, for, me, us, at, on, in, to, be, bother, really, and, or, with, loan, file, i, we, you, do, does, should, must, will, would, can",
  ),
]);

/** Title words too common in a loan file to name one condition ("the tax return", "the statements"). */
const TITLE_STOP_WORDS = new Set(
  wordList(
    "the, and, for, are, is, an, by, of, or, to, from, with, per, all, any, one, two, tax, return, returns, statement, statements, account, accounts, borrower, borrowing, business, corporation, company, loan, document, documents, file, files, expected, match, matches, monthly",
  ),
);

/**
 * Ordinary words one edit away from a known word ("dates" / "dated", "month" / "months"): they are
 * words in their own right, never typos to correct.
 */
const ORDINARY_WORDS = new Set(
  wordList(
    "about, above, after, again, before, being, below, between, could, dates, month, named, other, please, should, still, thank, thanks, their, there, these, those, three, today, until, where, which, while, whose, would, years, loans, sheet, items, reply",
  ),
);

// ---------------------------------------------------------------------------------------------
// Documents

interface DocumentReference {
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

const ORDINAL_WORDS = new Map<string, number | "last">([
  ...wordList("first, second, third, fourth, fifth, sixth, seventh, eighth, ninth, tenth").map(
    (word, index) => [word, index + 1] as const,
  ),
  ...wordList("last, final, latest").map((word) => [word, "last"] as const),
]);

const DOCUMENT_NOUNS = new Map<string, DocumentReference["kind"]>([
  ...wordList("file, files, document, documents, doc, docs, pdf, pdfs, upload, one").map(
    (word) => [word, undefined] as const,
  ),
  ...wordList("statement, statements").map((word) => [word, "statement"] as const),
  ...wordList("return, returns").map((word) => [word, "return"] as const),
]);

/** Words allowed between an ordinal and its noun ("the first bank statement"). */
const DOCUMENT_QUALIFIERS = new Set(["bank", "tax", "monthly", "uploaded", "checking", "1120", "pdf"]);

/** Month names and their three-letter abbreviations ("mar"), plus "sept". */
const MONTHS = new Map<string, number>([
  ...wordList(
    "january, february, march, april, may, june, july, august, september, october, november, december",
  ).flatMap((name, index) => [[name, index + 1] as const, [name.slice(0, 3), index + 1] as const]),
  ["sept", 9],
]);

const DOCUMENT_KIND_PATTERNS: Record<NonNullable<DocumentReference["kind"]>, RegExp> = {
  statement: /statement|stmt|bank/,
  return: /1120|return|tax/,
};

const DOCUMENT_PLACEHOLDER = /^docref(\d+)$/;

function baseName(path: string): string {
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
function resolveReference(reference: DocumentReference, documents: readonly string[]): number[] {
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
function documentReferenceAt(
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

// ---------------------------------------------------------------------------------------------
// Stage 1: normalise

const CONTRACTIONS = new Map<string, string>([
  ["dont", "do not"],
  ["doesnt", "does not"],
  ["didnt", "did not"],
  ["isnt", "is not"],
  ["arent", "are not"],
  ["wasnt", "was not"],
  ["werent", "were not"],
  ["wont", "will not"],
  ["cant", "can not"],
  ["cannot", "can not"],
  ["shouldnt", "should not"],
  ["mustnt", "must not"],
  ["whats", "what is"],
  ["thats", "that is"],
  ["theres", "there is"],
]);

interface Normalised {
  clauses: string[][];
  /** Placeholder index → the documents a name or path in the instructions pointed at. */
  namedDocuments: number[][];
}

function escapeForRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Paths and file names of the request's documents, written in the instructions, become placeholders
 * before punctuation is stripped. A bare name without an extension counts only when it cannot be an
 * ordinary word ("statement-2025-03", not "signed").
 */
function replaceDocumentNames(
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

function normalise(instructions: string, documents: readonly string[], vocabulary: Vocabulary): Normalised {
  let text = instructions.toLowerCase().replace(/[\u2018\u2019\u0060\u00b4]/g, "'");
  const replaced = replaceDocumentNames(text, documents);
  text = replaced.text
    .replace(/\bwon't\b/g, "will not")
    .replace(/\bcan't\b/g, "can not")
    .replace(/n't\b/g, " not")
    .replace(/\b(what|that|there|it|here|who)'s\b/g, "$1 is")
    .replace(/'s\b/g, "")
    .replace(/'/g, "")
    .replace(
      /\b((?:19|20)\d\d)[-/.](\d{1,2})(?!\d)/g,
      (_, year: string, month: string) => `${year}-${month.padStart(2, "0")}`,
    )
    .replace(
      /\b(\d{1,2})[-/.]((?:19|20)\d\d)\b/g,
      (_, month: string, year: string) => `${year}-${month.padStart(2, "0")}`,
    )
    .replace(/[.;:!?\n\r]+/g, " | ")
    .replace(/,/g, " , ")
    .replace(/(?<!\d)-|-(?!\d)/g, " ")
    .replace(/[^a-z0-9_,|\- ]+/g, " ");
  const clauses = text
    .split("|")
    .map((clause) =>
      clause
        .split(/\s+/)
        .filter(Boolean)
        .flatMap((word) => (CONTRACTIONS.get(word) ?? word).split(" "))
        .map((word) => vocabulary.correct(word)),
    )
    .filter((clause) => clause.some((word) => word !== ","));
  return { clauses, namedDocuments: replaced.named };
}

/** At most one insertion, deletion, substitution or swap of neighbours (optimal string alignment ≤ 1). */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const differences: number[] = [];
    for (let i = 0; i < a.length && differences.length <= 2; i++) if (a[i] !== b[i]) differences.push(i);
    if (differences.length <= 1) return true;
    const [first, second] = differences as [number, number];
    return (
      differences.length === 2 && second === first + 1 && a[first] === b[second] && a[second] === b[first]
    );
  }
  const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < shorter.length && shorter[i] === longer[i]) i++;
  return shorter.slice(i) === longer.slice(i + 1);
}

/** Words of at least this length are corrected: shorter ones are too often one edit from another word. */
const MIN_CORRECTED_LENGTH = 5;

class Vocabulary {
  private readonly known = new Set<string>(ORDINARY_WORDS);
  private readonly targets: string[] = [];

  add(word: string): void {
    if (this.known.has(word)) return;
    this.known.add(word);
    if (/^[a-z]{4,}$/.test(word)) this.targets.push(word);
  }

  /** The first known word within one edit of an unknown word of five letters or more; otherwise the word. */
  correct(word: string): string {
    if (word.length < MIN_CORRECTED_LENGTH || !/^[a-z]+$/.test(word) || this.known.has(word)) return word;
    return this.targets.find((target) => withinOneEdit(word, target)) ?? word;
  }
}

// ---------------------------------------------------------------------------------------------
// Stage 2: scan

interface Lexicon {
  entries: Map<string, Meaning[]>;
  longest: number;
  vocabulary: Vocabulary;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter(Boolean);
}

function buildLexicon(conditions: readonly ScopeCondition[]): Lexicon {
  const entries = new Map<string, Meaning[]>();
  for (const [phrases, meanings] of BASE_ENTRIES)
    for (const phrase of phrases) entries.set(phrase, [...meanings]);

  // Catalog phrases: a phrase several conditions share names all of them ("name"); a catalog phrase
  // replaces the interpreter's meaning for the same words ("complete" is the return's completeness).
  const named = new Map<string, { ids: Set<string>; specific: boolean }>();
  const name = (phrase: string, id: string, specific: boolean) => {
    const key = words(phrase).join(" ");
    if (!key) return;
    const entry = named.get(key) ?? { ids: new Set<string>(), specific: true };
    entry.ids.add(id);
    entry.specific &&= specific;
    named.set(key, entry);
  };
  const titleWordOwners = new Map<string, Set<string>>();
  for (const condition of conditions) {
    for (const word of new Set(words(condition.title))) {
      titleWordOwners.set(word, (titleWordOwners.get(word) ?? new Set()).add(condition.id));
    }
  }
  for (const condition of conditions) {
    name(condition.id, condition.id, true);
    name(condition.id.replace(/_/g, " "), condition.id, true);
    for (const keyword of condition.keywords) name(keyword, condition.id, true);
    for (const word of new Set(words(condition.title))) {
      const distinctive =
        word.length >= 3 &&
        !TITLE_STOP_WORDS.has(word) &&
        !entries.has(word) &&
        titleWordOwners.get(word)?.size === 1;
      if (distinctive) name(word, condition.id, true);
    }
    const compartment = words(condition.compartment).join(" ");
    const other = compartment.endsWith("s") ? compartment.slice(0, -1) : `${compartment}s`;
    for (const phrase of [compartment, other]) name(phrase, condition.id, false);
  }
  for (const [phrase, { ids, specific }] of named) {
    entries.set(phrase, [{ kind: "condition", ids: [...ids], specific: specific && ids.size === 1 }]);
  }

  const vocabulary = new Vocabulary();
  for (const phrase of entries.keys()) for (const word of phrase.split(" ")) vocabulary.add(word);
  for (const word of [...ORDINAL_WORDS.keys(), ...DOCUMENT_NOUNS.keys(), ...MONTHS.keys()])
    vocabulary.add(word);
  const longest = Math.max(...[...entries.keys()].map((phrase) => phrase.split(" ").length));
  return { entries, longest, vocabulary };
}

interface Item {
  text: string;
  /** Empty for a word the interpreter does not know. */
  meanings: Meaning[];
}

function scanClause(
  tokens: readonly string[],
  lexicon: Lexicon,
  namedDocuments: readonly number[][],
): Item[] {
  const items: Item[] = [];
  let start = 0;
  while (start < tokens.length) {
    const token = tokens[start] ?? "";
    let length = 1;
    let meanings: Meaning[] = [];
    const placeholder = DOCUMENT_PLACEHOLDER.exec(token);
    const indices = placeholder ? namedDocuments[Number(placeholder[1])] : undefined;
    if (indices) {
      meanings = [{ kind: "document", reference: { text: "the named file", indices } }];
    } else {
      for (let size = Math.min(lexicon.longest, tokens.length - start); size > 0; size--) {
        const found = lexicon.entries.get(tokens.slice(start, start + size).join(" "));
        if (found) {
          length = size;
          meanings = found;
          break;
        }
      }
      const reference = documentReferenceAt(tokens, start);
      if (reference && reference.length >= length) ({ length, meanings } = reference);
      if (meanings.length === 0) meanings = contextualMeaning(tokens, start);
    }
    items.push({ text: tokens.slice(start, start + length).join(" "), meanings });
    start += length;
  }
  return items;
}

/** Words whose meaning depends on their neighbours. */
function contextualMeaning(tokens: readonly string[], index: number): Meaning[] {
  const token = tokens[index];
  const previous = tokens[index - 1] ?? "";
  const next = tokens[index + 1] ?? "";
  if (token === "not") {
    const describes =
      NOT_DESCRIBES_AFTER.has(previous) || ["met", "fulfilled", "satisfied", "signed"].includes(next);
    return describes ? [] : [{ kind: "negation" }];
  }
  // "check all" (nothing after it): every condition; "all deposits" quantifies what follows instead.
  if (token === "all" && tokens.slice(index + 1).every((word) => word === ","))
    return [{ kind: "everything" }];
  return [];
}

// ---------------------------------------------------------------------------------------------
// Stage 3: resolve

interface ClauseFacts {
  evaluateVerb: boolean;
  listConditions: boolean;
  applies: boolean;
  verdict: boolean;
  conditionsNamed: boolean;
  everything: boolean;
  lookups: boolean;
}

interface Reading {
  recognised: boolean;
  /** Condition id → whether it was named specifically (an id, a keyword of it alone) rather than as a group. */
  included: Map<string, boolean>;
  excluded: Map<string, boolean>;
  everything: boolean;
  only: boolean;
  notEvaluate: boolean;
  sufficiency: boolean;
  largeDeposits: boolean;
  lookups: Set<Lookup>;
  excludedLookups: Set<Lookup>;
  documentsIn: DocumentReference[];
  documentsOut: DocumentReference[];
  clauses: ClauseFacts[];
}

interface Negation {
  /** Something recognised (or unknown) came after the cue: a verb now starts a new request. */
  sawContent: boolean;
  /** The verb it negates ("do not check"); a second verb starts a new request unless joined by "or"/"and". */
  verbSeen: boolean;
  /** Covers "evaluate", "judge", "check"... */
  evaluateVerb: boolean;
  /** Covers a condition, a document or a question. */
  named: boolean;
  conditionNamed: boolean;
  /** Covers a word the interpreter does not know ("don't check the tax return"). */
  unknownWords: boolean;
}

function note(map: Map<string, boolean>, ids: readonly string[], specific: boolean): void {
  for (const id of ids) map.set(id, (map.get(id) ?? false) || specific);
}

function readClause(items: readonly Item[], reading: Reading): void {
  const facts: ClauseFacts = {
    evaluateVerb: false,
    listConditions: false,
    applies: false,
    verdict: false,
    conditionsNamed: false,
    everything: false,
    lookups: false,
  };
  let negation: Negation | undefined;
  let listIntroduced = false;
  const closeNegation = () => {
    // A bare "do not evaluate (the conditions)" asks for the applicable conditions without verdicts.
    if (negation?.evaluateVerb && !negation.named && !negation.unknownWords) reading.notEvaluate = true;
    negation = undefined;
  };

  items.forEach((item, index) => {
    if (item.meanings.length === 0) {
      // "don't evaluate, are they met?": the comma ends a negated verb that has nothing after it.
      if (item.text === "," && negation?.verbSeen && !negation.sawContent) closeNegation();
      else if (negation && !FILLER_WORDS.has(item.text)) {
        negation.unknownWords = true;
        negation.sawContent = true;
      }
      return;
    }
    reading.recognised = true;
    const previous = items[index - 1];
    for (const meaning of item.meanings) {
      switch (meaning.kind) {
        case "boundary":
          closeNegation();
          break;
        case "negation":
          closeNegation();
          negation = {
            sawContent: false,
            verbSeen: false,
            evaluateVerb: false,
            named: false,
            conditionNamed: false,
            unknownWords: false,
          };
          break;
        case "only":
          closeNegation();
          reading.only = true;
          break;
        case "verb": {
          // "the EIN check", "deposit review": a noun after what it is about, not a new request.
          const nounAfterName = previous?.meanings.some(
            (m) => m.kind === "condition" || m.kind === "document",
          );
          if (nounAfterName) break;
          const joined = negation?.verbSeen && ["and", "or", "nor"].includes(previous?.text ?? "");
          if (negation && !negation.sawContent && (!negation.verbSeen || joined)) {
            negation.verbSeen = true;
            if (meaning.verb === "evaluate") negation.evaluateVerb = true;
            break;
          }
          closeNegation();
          if (meaning.verb === "evaluate") facts.evaluateVerb = true;
          if (meaning.verb === "list") listIntroduced = true;
          break;
        }
        case "condition":
          if (negation) {
            negation.sawContent = negation.named = negation.conditionNamed = true;
            note(reading.excluded, meaning.ids, meaning.specific);
          } else {
            note(reading.included, meaning.ids, meaning.specific);
            facts.conditionsNamed = true;
            if (listIntroduced && meaning.ids.includes(LARGE_DEPOSITS_CONDITION))
              reading.largeDeposits = true;
          }
          break;
        case "document": {
          // "except the EIN on the March statement": where to judge, not a second thing to skip.
          const before = items.slice(0, index).findLast((earlier) => !DETERMINERS.has(earlier.text));
          const locative = negation?.conditionNamed && LOCATIVES.has(before?.text ?? "");
          if (negation && !locative) {
            negation.sawContent = negation.named = true;
            reading.documentsOut.push(meaning.reference);
          } else reading.documentsIn.push(meaning.reference);
          break;
        }
        case "lookup":
          if (negation) {
            negation.sawContent = negation.named = true;
            reading.excludedLookups.add(meaning.question);
          } else {
            reading.lookups.add(meaning.question);
            facts.lookups = true;
          }
          break;
        case "sufficiency":
          if (negation) negation.sawContent = negation.named = true;
          else reading.sufficiency = true;
          break;
        case "everything":
          if (negation) negation.sawContent = true;
          else reading.everything = facts.everything = true;
          break;
        case "wh":
          listIntroduced = true;
          break;
        case "list_conditions":
          listIntroduced = facts.listConditions = true;
          break;
        case "applies":
          facts.applies = true;
          break;
        case "verdict":
          facts.verdict = true;
          break;
        case "no_evaluation":
          reading.notEvaluate = true;
          break;
        case "neutral":
          if (negation) negation.sawContent = true;
          break;
      }
    }
  });
  closeNegation();
  reading.clauses.push(facts);
}

/** A clause that asks which conditions apply without asking for verdicts. */
function asksWhichApply(clause: ClauseFacts): boolean {
  return !clause.verdict && (clause.listConditions || (clause.applies && !clause.evaluateVerb));
}

/** A clause that asks for verdicts: "are they met", or an evaluating verb about conditions (not "check the history"). */
function asksForVerdicts(clause: ClauseFacts): boolean {
  if (clause.verdict) return true;
  if (!clause.evaluateVerb || asksWhichApply(clause)) return false;
  return clause.conditionsNamed || clause.everything || !clause.lookups;
}

// ---------------------------------------------------------------------------------------------
// The interpretation sentence

interface Wording {
  titles: boolean;
  fileNames: boolean;
  maxIds: number;
}

const WORDINGS: readonly Wording[] = [
  { titles: true, fileNames: true, maxIds: Number.POSITIVE_INFINITY },
  { titles: false, fileNames: true, maxIds: Number.POSITIVE_INFINITY },
  { titles: false, fileNames: false, maxIds: Number.POSITIVE_INFINITY },
  { titles: false, fileNames: false, maxIds: 3 },
];

function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function conditionList(ids: readonly string[], titles: Map<string, string>, wording: Wording): string {
  const shown = ids.slice(0, wording.maxIds);
  const named = shown.map((id) => (wording.titles && titles.has(id) ? `${id} (${titles.get(id)})` : id));
  const hidden = ids.length - shown.length;
  return joinWords(hidden > 0 ? [...named, `${hidden} more`] : named);
}

function documentList(chosen: readonly string[], total: number, wording: Wording): string {
  if (wording.fileNames && chosen.length <= 3) return joinWords(chosen.map(baseName));
  return `${chosen.length} of the ${total} documents`;
}

interface Outcome {
  applicableOnly: boolean;
  include?: string[];
  exclude: string[];
  documents?: string[];
  totalDocuments: number;
  unresolved: string[];
  extras: Question[];
}

const EXTRA_WORDS: Partial<Record<Question, string>> = {
  sufficiency: "checking whether the documents are sufficient",
  history: "looking up the condition history",
  similar_loans: "looking up similar loans",
  large_deposits: "listing the large deposits",
};

function sentence(outcome: Outcome, titles: Map<string, string>, wording: Wording): string {
  const { include, exclude, documents } = outcome;
  const on = documents ? documentList(documents, outcome.totalDocuments, wording) : undefined;
  let main: string;
  if (outcome.applicableOnly) {
    const target = include
      ? include.length === 1
        ? `whether ${conditionList(include, titles, wording)} applies`
        : `which of ${conditionList(include, titles, wording)} apply`
      : "the conditions that apply";
    const except = exclude.length && !include ? ` except ${conditionList(exclude, titles, wording)}` : "";
    main = `Listing ${target}${on ? ` to ${on}` : ""}${except}, without judging ${include?.length === 1 ? "it" : "them"}`;
  } else {
    const target = include
      ? `only ${conditionList(include, titles, wording)}`
      : exclude.length
        ? `every applicable condition except ${conditionList(exclude, titles, wording)}`
        : "every applicable condition";
    main = `Judging ${target}${on ? ` on ${on}` : ""}`;
  }
  if (outcome.unresolved.length) {
    const quoted = joinWords(outcome.unresolved.map((text) => `"${text.slice(0, 40)}"`));
    main += ` (no document matches ${quoted}${documents ? "" : ", so every document is used"})`;
  }
  const extras = outcome.extras.map((question) => EXTRA_WORDS[question]).filter((text) => text !== undefined);
  if (extras.length === 1) main += `, and ${extras[0]}`;
  else if (extras.length > 1) main += `, ${joinWords(extras)}`;
  return `${main}.`;
}

function interpretationOf(outcome: Outcome, conditions: readonly ScopeCondition[]): string {
  const titles = new Map(conditions.map((condition) => [condition.id, condition.title]));
  let text = "";
  for (const wording of WORDINGS) {
    text = sentence(outcome, titles, wording);
    if (text.length <= MAX_INTERPRETATION_CHARS) return text;
  }
  return `${text.slice(0, MAX_INTERPRETATION_CHARS - 2).trimEnd()}….`;
}

function fallbackScope(interpretation: string): InstructionScope {
  return { questions: ["evaluate"], exclude_conditions: [], interpretation, fallback: true };
}

function contradiction(reason: string): InstructionScope {
  return fallbackScope(
    `The instructions contradict each other (${reason}), so every applicable condition is evaluated.`,
  );
}

// ---------------------------------------------------------------------------------------------
// Entry points

export function interpretInstructions(input: {
  instructions: string | undefined;
  documents: readonly string[];
  conditions: readonly ScopeCondition[];
}): InstructionScope {
  const { documents, conditions } = input;
  const instructions = input.instructions ?? "";
  if (instructions.trim() === "") {
    return {
      questions: ["evaluate"],
      exclude_conditions: [],
      interpretation: EMPTY_INTERPRETATION,
      fallback: false,
    };
  }

  const lexicon = buildLexicon(conditions);
  const { clauses, namedDocuments } = normalise(instructions, documents, lexicon.vocabulary);
  const reading: Reading = {
    recognised: false,
    included: new Map(),
    excluded: new Map(),
    everything: false,
    only: false,
    notEvaluate: false,
    sufficiency: false,
    largeDeposits: false,
    lookups: new Set(),
    excludedLookups: new Set(),
    documentsIn: [],
    documentsOut: [],
    clauses: [],
  };
  for (const clause of clauses) readClause(scanClause(clause, lexicon, namedDocuments), reading);

  if (!reading.recognised) {
    const words = clauses
      .flat()
      .filter((word) => word !== ",")
      .join(" ");
    const shown = words.length > 60 ? `${words.slice(0, 60).trimEnd()}…` : words;
    return fallbackScope(
      `The instructions${shown ? ` ("${shown}")` : ""} were not understood, so every applicable condition is evaluated.`,
    );
  }

  // Conditions: named on both sides specifically is a contradiction; otherwise the more specific
  // side wins ("the compliance checks except the EIN", "the signature but no other compliance check").
  const inCatalogOrder = (ids: Iterable<string>) => {
    const wanted = new Set(ids);
    return conditions.map((condition) => condition.id).filter((id) => wanted.has(id));
  };
  const both = inCatalogOrder(
    [...reading.included]
      .filter(([id, specific]) => specific && reading.excluded.get(id) === true)
      .map(([id]) => id),
  );
  if (both.length) {
    return contradiction(
      `${joinWords(both)} ${both.length === 1 ? "is" : "are"} both asked for and excluded`,
    );
  }
  const exclude = inCatalogOrder(
    [...reading.excluded.keys()].filter((id) => reading.included.get(id) !== true),
  );
  const included = inCatalogOrder([...reading.included.keys()].filter((id) => !exclude.includes(id)));
  if (reading.included.size > 0 && included.length === 0 && !reading.everything) {
    return contradiction("every condition asked for was also excluded");
  }
  if (reading.only && reading.everything && reading.included.size > 0) {
    return contradiction(`they ask for only ${joinWords(included)} and also for everything`);
  }

  // Questions.
  const verdictsAsked =
    reading.sufficiency || reading.largeDeposits || reading.clauses.some((clause) => asksForVerdicts(clause));
  if (reading.notEvaluate && verdictsAsked) {
    return contradiction("they ask both not to judge the conditions and to judge them");
  }
  const lookups = [...reading.lookups].filter((lookup) => !reading.excludedLookups.has(lookup));
  const onlyLookups =
    reading.only &&
    lookups.length > 0 &&
    reading.included.size === 0 &&
    reading.documentsIn.length === 0 &&
    !reading.everything &&
    !verdictsAsked;
  const applicableOnly =
    reading.notEvaluate ||
    onlyLookups ||
    (!verdictsAsked && reading.clauses.some((clause) => asksWhichApply(clause)));

  if (
    reading.only &&
    !applicableOnly &&
    !reading.everything &&
    reading.included.size === 0 &&
    reading.documentsIn.length === 0 &&
    lookups.length === 0 &&
    !reading.sufficiency
  ) {
    return fallbackScope(
      "None of the named conditions apply to this loan's documents, so every applicable condition is evaluated.",
    );
  }

  // Documents, in request order.
  const chosen = new Set<number>();
  const left = new Set<number>();
  const unresolved: string[] = [];
  for (const [references, into] of [
    [reading.documentsIn, chosen],
    [reading.documentsOut, left],
  ] as const) {
    for (const reference of references) {
      const found = resolveReference(reference, documents);
      if (found.length === 0) unresolved.push(reference.text);
      for (const index of found) into.add(index);
    }
  }
  const bothDocuments = [...chosen].filter((index) => left.has(index));
  if (bothDocuments.length) {
    const names = joinWords(bothDocuments.map((index) => baseName(documents[index] ?? "")));
    return contradiction(`${names} ${bothDocuments.length === 1 ? "is" : "are"} both asked for and excluded`);
  }
  let scopedDocuments: string[] | undefined;
  if (chosen.size || left.size) {
    const base = chosen.size ? [...chosen] : documents.map((_, index) => index);
    const kept = base.filter((index) => !left.has(index)).sort((a, b) => a - b);
    if (kept.length === 0) return contradiction("every document was excluded");
    scopedDocuments = kept.map((index) => documents[index] ?? "");
  }

  const questions: Question[] = [applicableOnly ? "applicable" : "evaluate"];
  if (!applicableOnly && reading.sufficiency) questions.push("sufficiency");
  for (const question of QUESTIONS) {
    if ((question === "history" || question === "similar_loans") && lookups.includes(question))
      questions.push(question);
  }
  if (!applicableOnly && reading.largeDeposits) questions.push("large_deposits");

  const include = reading.everything && !reading.only ? undefined : included.length ? included : undefined;
  const outcome: Outcome = {
    applicableOnly,
    ...(include ? { include } : {}),
    exclude,
    ...(scopedDocuments ? { documents: scopedDocuments } : {}),
    totalDocuments: documents.length,
    unresolved,
    extras: questions.slice(1),
  };
  return {
    questions,
    ...(include ? { include_conditions: include } : {}),
    exclude_conditions: exclude,
    ...(scopedDocuments ? { documents: scopedDocuments } : {}),
    interpretation: interpretationOf(outcome, conditions),
    fallback: false,
  };
}

/** A compact text form of the scope for LLM planner prompts (they may ignore it). */
export function describeScope(scope: InstructionScope): string {
  const list = (items: readonly string[] | undefined, none: string) =>
    items?.length ? items.join(", ") : none;
  return [
    `questions: ${scope.questions.join(", ")}`,
    `judge only: ${list(scope.include_conditions, "every applicable condition")}`,
    `do not judge: ${list(scope.exclude_conditions, "none")}`,
    `documents: ${list(scope.documents, "all")}`,
    `fallback: ${scope.fallback ? "yes (instructions empty, not understood or contradictory)" : "no"}`,
    `reading: ${scope.interpretation}`,
  ].join("\n");
}
