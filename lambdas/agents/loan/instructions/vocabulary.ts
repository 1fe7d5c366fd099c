// The interpreter's vocabulary: the words and phrases it knows and what each means, the catalog's
// keywords for its conditions, the requests it recognises but cannot carry out here (a credit
// score), the words that carry no request of their own, and the typo correction over all of them.
import { DOCUMENT_NOUNS, type DocumentReference, MONTHS, ORDINAL_WORDS, wordList } from "./documents.ts";

export interface ScopeCondition {
  id: string;
  title: string;
  compartment: string;
  keywords: readonly string[];
  /** The classifications it applies to: named for a condition the request's documents cannot have. */
  classifications?: readonly string[];
}

export type Lookup = "history" | "similar_loans";

export type Meaning =
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
  | { kind: "neutral" }
  /** Recognised, but out of the agent's reach here: a credit score, a condition of other documents. */
  | { kind: "unavailable"; why: string };

type Entry = readonly [phrases: readonly string[], meanings: readonly Meaning[]];

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

/**
 * Requests an officer makes that no condition and no document of these loans can answer. Known, so
 * the reading says why they are not carried out instead of passing over them.
 */
const OUT_OF_REACH: ReadonlyArray<{ phrases: string; why: string }> = [
  {
    phrases:
      "credit score, credit scores, fico, fico score, credit report, credit reports, credit history, credit rating, credit check, credit bureau",
    why: "no credit report among the documents and no condition about it",
  },
  {
    phrases: "debt to income, dti, debt service coverage, dscr, debt service, leverage ratio",
    why: "no condition computes it",
  },
  {
    phrases: "appraisal, appraised value, property value, collateral, loan to value, ltv",
    why: "no appraisal among the documents and no condition about it",
  },
  {
    phrases: "employment, employer verification, verification of employment, voe",
    why: "no condition verifies employment",
  },
  {
    phrases:
      "identity, kyc, know your customer, id verification, photo id, drivers license, driver license, passport, ssn, social security number",
    why: "no identity document among the documents and no condition about it",
  },
  {
    phrases: "ofac, sanctions, sanctions list, watchlist, watch list",
    why: "no condition screens sanctions lists",
  },
  {
    phrases: "lien, liens, ucc, judgments, bankruptcy, bankruptcies, litigation, lawsuits",
    why: "no public-records search and no condition about it",
  },
  { phrases: "insurance, insurance certificate", why: "no condition about insurance" },
  {
    phrases:
      "profit, profits, profitable, profitability, net income, revenue, revenues, cash flow, net worth",
    why: "no condition computes it from the documents",
  },
];

/** The interpreter's own vocabulary. A catalog keyword that is also listed here wins over it. */
const BASE_ENTRIES: readonly Entry[] = [
  [
    wordList(
      "check, checks, checking, checked, explain, flag, evaluate, evaluates, evaluating, evaluated, evaluation, evaluations, verify, verifies, verifying, verified, verification, review, reviewing, reviewed, judge, judging, judged, judgement, judgment, assess, assessing, assessed, assessment, confirm, confirming, validate, validating, validation, examine, examining, inspect, inspecting, audit, ensure, make sure, look at, see if, see whether",
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
    [
      ...combine(
        ["all", "all the", "every", "each", "both"],
        ["documents", "document", "files", "file", "pdfs"],
      ),
      // What the judging is for, not another thing to judge.
      ...combine(["", "for"], ["income verification", "underwriting"]),
    ],
    [{ kind: "neutral" }],
  ],
  ...OUT_OF_REACH.map(({ phrases, why }): Entry => [wordList(phrases), [{ kind: "unavailable", why }]]),
];

/** "not" after these describes a state ("is not signed", "whether or not"), it does not negate the request. */
export const NOT_DESCRIBES_AFTER = new Set(
  wordList("is, are, was, were, be, been, being, am, if, or, whether, why"),
);

/** Prepositions that make a document reference say where to judge ("on the March statement"). */
export const LOCATIVES = new Set(["on", "in", "from", "within", "for", "of"]);
export const DETERMINERS = new Set(["the", "a", "an", "this", "that", "these", "those", "each", "every"]);

/** Words a negation may cover without making it about something unknown ("don't evaluate the conditions"). */
export const FILLER_WORDS = new Set([
  ",",
  ...wordList(
    "a, an, the, any, anything, condition, conditions, them, it, all, of, these, those, this, that, please, even, yet, now, for, me, us, at, on, in, to, be, bother, really, and, or, with, loan, file, i, we, you, do, does, should, must, will, would, can",
  ),
]);

/**
 * Words that carry no request of their own when the interpreter does not know them: function words,
 * courtesies, and the loan file's own nouns ("the return", "our borrower"). Any other unknown word is
 * part of a request it did not understand, and the reading says so.
 */
export const CONTEXT_WORDS = new Set([
  ...FILLER_WORDS,
  ...NOT_DESCRIBES_AFTER,
  ...DETERMINERS,
  ...LOCATIVES,
  ...wordList(
    "has, have, had, there, here, our, my, your, his, her, their, its, they, he, she, him, who, whom, whose, which, what, when, where, how, than, so, as, by, about, above, below, over, under, into, onto, up, out, off, per, via, between, against, after, before, during, since, until, through, too, very, some, more, most, less, least, many, much, few, both, either, neither, nor, not, no, yes, ok, okay, hi, hello, hey, dear, thanks, thank, thx, kindly, pls, plz, let, lets, know, want, wanted, need, needs, needed, like, sure, right, correct, proper, properly, valid, actually, quickly, asap, good, fine, go, going, see, look, help, able, could, might, may, shall, one, ones, someone, something, nothing, same, other, another, such, own, way, again, still, already, well, today, regards, best, note, match, matches, matching, matched, equal, equals, agree, agrees, fix, fixed, fixes, resolve, resolved, closing, close, done, action, actions, record, records, cover, covers, covering, covered, summary, summarize, summarise, overview, one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve",
  ),
  ...wordList(
    "tax, taxes, return, returns, statement, statements, bank, banks, borrower, borrowers, borrowing, applicant, applicants, client, clients, customer, customers, business, businesses, corporation, corporations, loans, files, document, documents, doc, docs, pdf, pdfs, form, forms, 1120, application, applications, package, underwriter, account, accounts, request, instructions, program, programs, scan, scanned, copy, copies",
  ),
]);

/** Words that make a number a threshold ("above 700", "over 5000"): named with it when it is not carried out. */
export const COMPARATORS = new Set(
  wordList("above, below, over, under, than, least, most, exceeds, exceed, exceeding, greater, less, more"),
);

/** A word the interpreter did not recognise that still asks for something: it must be answered for. */
export function carriesRequest(word: string): boolean {
  return word !== "," && !CONTEXT_WORDS.has(word) && !/^docref\d+$/.test(word);
}

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

export class Vocabulary {
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

export interface Lexicon {
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

/**
 * The lexicon over the conditions that can apply to the request's documents. `elsewhere` are the
 * catalog's other conditions: their ids and keywords are recognised as out of reach here ("the
 * signature" of a bank-statement loan), never as something to judge.
 */
export function buildLexicon(
  conditions: readonly ScopeCondition[],
  elsewhere: readonly ScopeCondition[] = [],
): Lexicon {
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
  const otherDocuments = new Map<string, ScopeCondition[]>();
  for (const condition of elsewhere) {
    const compartment = words(condition.compartment).join(" ");
    const phrases = [
      condition.id,
      condition.id.replace(/_/g, " "),
      ...condition.keywords,
      compartment,
      compartment.endsWith("s") ? compartment.slice(0, -1) : `${compartment}s`,
    ];
    for (const phrase of phrases) {
      const key = words(phrase).join(" ");
      if (key && !entries.has(key)) otherDocuments.set(key, [...(otherDocuments.get(key) ?? []), condition]);
    }
  }
  for (const [phrase, owners] of otherDocuments) {
    const classifications = [...new Set(owners.flatMap((owner) => owner.classifications ?? []))];
    const ids = owners.map((owner) => owner.id).join(" and ");
    const why = `${ids} ${owners.length === 1 ? "is a condition" : "are conditions"} of ${classifications.length ? classifications.join(" and ") : "other documents"}, not of this loan's documents`;
    entries.set(phrase, [{ kind: "unavailable", why }]);
  }

  const vocabulary = new Vocabulary();
  for (const phrase of entries.keys()) for (const word of phrase.split(" ")) vocabulary.add(word);
  for (const word of [...ORDINAL_WORDS.keys(), ...DOCUMENT_NOUNS.keys(), ...MONTHS.keys()])
    vocabulary.add(word);
  const longest = Math.max(...[...entries.keys()].map((phrase) => phrase.split(" ").length));
  return { entries, longest, vocabulary };
}
