// The interpretation: one plain sentence saying how the instructions were read, within
// MAX_INTERPRETATION_CHARS, dropping titles and file names before it drops meaning. What was not
// carried out is named in it, with the conditions that can be judged instead.

import { baseName } from "./documents.ts";
import type { Question } from "./interpret.ts";
import type { UnhandledPart } from "./reading.ts";
import type { ScopeCondition } from "./vocabulary.ts";

/** The interpretation is shown beside the verdicts; longer than this it stops being a glance. */
export const MAX_INTERPRETATION_CHARS = 300;

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

export function joinWords(items: readonly string[]): string {
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

export interface Outcome {
  applicableOnly: boolean;
  /** Nothing asked for is within reach: nothing is judged, the applicable conditions are listed. */
  judgesNothing: boolean;
  include?: string[];
  exclude: string[];
  documents?: string[];
  totalDocuments: number;
  unresolved: string[];
  extras: Question[];
  /** What was not carried out. */
  unhandled: readonly UnhandledPart[];
  /** The conditions that can be judged here (ids): named when something was not carried out. */
  judgeable: readonly string[];
}

const EXTRA_WORDS: Partial<Record<Question, string>> = {
  sufficiency: "checking whether the documents are sufficient",
  history: "looking up the condition history",
  similar_loans: "looking up similar loans",
  large_deposits: "listing the large deposits",
};

function quoted(text: string): string {
  return `"${text.length > 40 ? `${text.slice(0, 40).trimEnd()}…` : text}"`;
}

/**
 * `"credit score is above 700" is not possible here (no credit report …); "zebra" was not
 * understood; the conditions that can be judged here are TR_SIGNED, …`: empty when all was done.
 */
function unhandledClause(
  unhandled: readonly UnhandledPart[],
  judgeable: readonly string[],
  wording: Wording,
): string {
  if (unhandled.length === 0) return "";
  const parts = unhandled.map((part) =>
    part.reason === "not_possible"
      ? `${quoted(part.text)} is not possible here (${part.why})`
      : `${quoted(part.text)} was not understood`,
  );
  const instead = judgeable.length
    ? `; the conditions that can be judged here are ${conditionList(judgeable, new Map(), wording)}`
    : "; no condition can be judged here";
  return `${parts.join("; ")}${instead}`;
}

function sentence(outcome: Outcome, titles: Map<string, string>, wording: Wording): string {
  const { include, exclude, documents } = outcome;
  const unhandled = unhandledClause(outcome.unhandled, outcome.judgeable, wording);
  if (outcome.judgesNothing) return `Judging nothing: ${unhandled}, listed without verdicts.`;
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
    const names = joinWords(outcome.unresolved.map((text) => `"${text.slice(0, 40)}"`));
    main += ` (no document matches ${names}${documents ? "" : ", so every document is used"})`;
  }
  const extras = outcome.extras.map((question) => EXTRA_WORDS[question]).filter((text) => text !== undefined);
  if (extras.length === 1) main += `, and ${extras[0]}`;
  else if (extras.length > 1) main += `, ${joinWords(extras)}`;
  return `${main}${unhandled ? `; ${unhandled}` : ""}.`;
}

/** The first wording that fits, or the last one cut to the limit. */
function fitted(write: (wording: Wording) => string): string {
  let text = "";
  for (const wording of WORDINGS) {
    text = write(wording);
    if (text.length <= MAX_INTERPRETATION_CHARS) return text;
  }
  return `${text.slice(0, MAX_INTERPRETATION_CHARS - 2).trimEnd()}….`;
}

export function interpretationOf(outcome: Outcome, conditions: readonly ScopeCondition[]): string {
  const titles = new Map(conditions.map((condition) => [condition.id, condition.title]));
  return fitted((wording) => sentence(outcome, titles, wording));
}

/**
 * A reading that fell back (instructions contradictory, or naming only conditions that do not
 * apply) still names what it did not carry out: `The instructions contradict each other (…), so
 * every applicable condition is evaluated; "credit score" is not possible here (…).`
 */
export function fallbackInterpretation(
  sentence: string,
  unhandled: readonly UnhandledPart[],
  judgeable: readonly string[],
): string {
  return fitted((wording) => {
    const clause = unhandledClause(unhandled, judgeable, wording);
    return clause ? `${sentence.replace(/\.$/, "")}; ${clause}.` : sentence;
  });
}
