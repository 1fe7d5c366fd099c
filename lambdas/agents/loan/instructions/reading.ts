// Reading the instructions, in three stages each small enough to check by eye:
// 1. normalise: lower case, contractions expanded, dates written one way, clauses split at sentence
//    punctuation, words within one edit of the known vocabulary corrected ("sigature" → "signature");
// 2. scan: each clause becomes a sequence of recognised phrases (longest phrase wins, so "account
//    holder" is the holder check and not "account"), document references and unrecognised words;
// 3. resolve: negation ("skip", "except", "do not") covers what follows it up to the next verb,
//    "but", "then" or the end of the clause; what it covers is excluded, the rest is asked for.
// Whatever the reading cannot carry out (words it does not know, requests out of its reach) is
// kept as an unhandled part, so the interpretation can name it instead of passing over it.
import {
  DOCUMENT_PLACEHOLDER,
  type DocumentReference,
  documentReferenceAt,
  replaceDocumentNames,
} from "./documents.ts";
import {
  COMPARATORS,
  carriesRequest,
  DETERMINERS,
  FILLER_WORDS,
  type Lexicon,
  LOCATIVES,
  type Lookup,
  type Meaning,
  NOT_DESCRIBES_AFTER,
  type Vocabulary,
} from "./vocabulary.ts";

const CONJUNCTIONS = new Set(["and", "or", "nor"]);

/** The condition whose findings "list the large deposits" asks for. */
const LARGE_DEPOSITS_CONDITION = "BS_LARGE_DEPOSITS";

/** A part of the instructions that was not carried out, and why. */
export interface UnhandledPart {
  /** The instructions' words, as read (lower case, punctuation dropped). */
  text: string;
  /**
   * `not_possible`: a request the agent knows and cannot carry out here (a credit score, a
   * condition of other documents); `not_understood`: words it could not read as a request.
   */
  reason: "not_possible" | "not_understood";
  /** For `not_possible`: what stands in the way. */
  why?: string;
}

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

export interface Normalised {
  clauses: string[][];
  /** Placeholder index → the documents a name or path in the instructions pointed at. */
  namedDocuments: number[][];
}

export function normalise(
  instructions: string,
  documents: readonly string[],
  vocabulary: Vocabulary,
): Normalised {
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
    // "5,000" is one number, not a list.
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
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

export interface Item {
  text: string;
  /** Empty for a word the interpreter does not know. */
  meanings: Meaning[];
}

export function scanClause(
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

export interface ClauseFacts {
  evaluateVerb: boolean;
  listConditions: boolean;
  applies: boolean;
  verdict: boolean;
  conditionsNamed: boolean;
  everything: boolean;
  lookups: boolean;
}

export interface Reading {
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
  /** What was not carried out, in the order written. */
  unhandled: UnhandledPart[];
}

/** Words of one clause not carried out: a run of unknown words, or a request out of reach with its qualifiers. */
interface Span {
  words: string[];
  /** Known words between unknown ones ("credit score is above 700"): kept only if more follow. */
  pending: string[];
  why?: string;
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

export function readClause(items: readonly Item[], reading: Reading): void {
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
  let span: Span | undefined;
  /** Known words since the last item that was not one: a threshold's comparator leads its number. */
  let leading: string[] = [];
  const closeNegation = () => {
    // A bare "do not evaluate (the conditions)" asks for the applicable conditions without verdicts.
    if (negation?.evaluateVerb && !negation.named && !negation.unknownWords) reading.notEvaluate = true;
    negation = undefined;
  };
  const closeSpan = () => {
    if (span?.words.length) {
      const text = span.words.join(" ");
      reading.unhandled.push(
        span.why ? { text, reason: "not_possible", why: span.why } : { text, reason: "not_understood" },
      );
    }
    span = undefined;
  };

  items.forEach((item, index) => {
    if (item.meanings.length === 0) {
      if (item.text === ",") closeSpan();
      else if (carriesRequest(item.text)) {
        // "the credit score and the zebra": a conjunction starts another part.
        if (span?.pending.some((word) => CONJUNCTIONS.has(word))) closeSpan();
        if (!span) {
          const from = leading.findLastIndex((word) => !COMPARATORS.has(word)) + 1;
          span = { words: leading.slice(from), pending: [] };
        }
        span.words.push(...span.pending, item.text);
        span.pending = [];
      } else span?.pending.push(item.text);
      leading = carriesRequest(item.text) || item.text === "," ? [] : [...leading, item.text];
      // "don't evaluate, are they met?": the comma ends a negated verb that has nothing after it.
      if (item.text === "," && negation?.verbSeen && !negation.sawContent) closeNegation();
      else if (negation && !FILLER_WORDS.has(item.text)) {
        negation.unknownWords = true;
        negation.sawContent = true;
      }
      return;
    }
    reading.recognised = true;
    leading = [];
    const unavailable = item.meanings.find((meaning) => meaning.kind === "unavailable");
    if (unavailable && !negation) {
      // "credit score", or words it did not know that lead up to it, or another phrase out of reach
      // for the same reason ("consecutive months"): one part.
      if (span?.pending.some((word) => CONJUNCTIONS.has(word))) closeSpan();
      if (span && (!span.why || span.why === unavailable.why)) span.words.push(...span.pending, item.text);
      else {
        closeSpan();
        span = { words: [item.text], pending: [] };
      }
      span.pending = [];
      span.why = unavailable.why;
    } else closeSpan();
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
        case "unavailable":
          // Asked not to, it is not done: nothing to say. Asked for, the span above names it.
          if (negation) negation.sawContent = negation.named = true;
          break;
      }
    }
  });
  closeSpan();
  closeNegation();
  reading.clauses.push(facts);
}

/** A clause that asks which conditions apply without asking for verdicts. */
export function asksWhichApply(clause: ClauseFacts): boolean {
  return !clause.verdict && (clause.listConditions || (clause.applies && !clause.evaluateVerb));
}

/** A clause that asks for verdicts: "are they met", or an evaluating verb about conditions (not "check the history"). */
export function asksForVerdicts(clause: ClauseFacts): boolean {
  if (clause.verdict) return true;
  if (!clause.evaluateVerb || asksWhichApply(clause)) return false;
  return clause.conditionsNamed || clause.everything || !clause.lookups;
}
