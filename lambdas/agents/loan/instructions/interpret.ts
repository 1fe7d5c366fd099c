// Reads a loan officer's free-text instructions into a scope: what was asked, which conditions to
// judge or leave out, which of the request's documents to judge against, and what it could not
// carry out. Deterministic and rule based, so the offline provider answers "only the signature"
// differently from "what applies?", and an LLM planner gets the same reading as a hint. Pure: the
// caller passes the catalog's conditions.
//
// Every part of an instruction is either carried out or named in the interpretation: words it does
// not know as not understood, requests it knows and cannot carry out here (a credit score, the
// signature of a return on a bank-statement loan) as not possible, with the conditions it can judge
// instead. Instructions that ask only for what is out of reach judge nothing they did not ask for.
//
// The reading itself is in this folder's other modules: its vocabulary, the document references,
// the three reading stages, and the wording of the interpretation. The scope is the loan agent's
// InstructionReading: the engine stores it with the plan and hands it back unread.
import type { InstructionReading } from "../../../core/types.ts";
import { baseName, resolveReference } from "./documents.ts";
import {
  asksForVerdicts,
  asksWhichApply,
  normalise,
  type Reading,
  readClause,
  scanClause,
  type UnhandledPart,
} from "./reading.ts";
import { buildLexicon, type ScopeCondition } from "./vocabulary.ts";
import {
  fallbackInterpretation,
  interpretationOf,
  joinWords,
  MAX_INTERPRETATION_CHARS,
  type Outcome,
} from "./wording.ts";

export type { UnhandledPart } from "./reading.ts";
export type { ScopeCondition } from "./vocabulary.ts";
export { MAX_INTERPRETATION_CHARS };

export const QUESTIONS = [
  "evaluate",
  "applicable",
  "sufficiency",
  "history",
  "similar_loans",
  "large_deposits",
] as const;
export type Question = (typeof QUESTIONS)[number];

export interface InstructionScope extends InstructionReading {
  /** What was asked. "evaluate" judges conditions; "applicable" only lists the conditions that apply (no judging). */
  questions: Question[];
  /** Condition ids to judge, in catalog order; undefined = every condition that applies. */
  include_conditions?: string[];
  /** Condition ids not to judge ("skip the EIN check", "except deposits"). */
  exclude_conditions: string[];
  /** The request's documents to judge against, as given (request order); undefined = all of them. */
  documents?: string[];
  /**
   * The parts of the instructions that were not carried out (not understood, or not possible
   * here), in the order written; absent when every part was. The interpretation names each.
   */
  unhandled?: UnhandledPart[];
  /**
   * True when nothing the instructions asked for is within reach (only a credit score, only
   * something not understood): nothing is judged, and the applicable conditions are listed.
   */
  nothing_in_reach?: boolean;
  /** One plain sentence saying how the instructions were read (shown to the loan officer in the result). */
  interpretation: string;
  /** True when the instructions were empty, unknown or contradictory, so everything is evaluated. */
  fallback: boolean;
}

/**
 * A loan plan's reading as the loan agent wrote it: the engine keeps a plan's reading unread
 * (Plan.scope), and every loan plan's reading is an InstructionScope (lambdas/planner/scope.ts).
 */
export function loanScope(reading: InstructionReading | undefined): InstructionScope | undefined {
  return reading as InstructionScope | undefined;
}

const EMPTY_INTERPRETATION = "No instructions: every applicable condition is evaluated.";

function withUnhandled(unhandled: readonly UnhandledPart[]): Pick<InstructionScope, "unhandled"> {
  return unhandled.length ? { unhandled: [...unhandled] } : {};
}

/**
 * Whether the reading found something to do: conditions to judge or leave out, everything, a
 * question. Documents say where, not what ("the last one for insufficient funds"), and "no history"
 * only says what not to do.
 */
function askedForSomething(reading: Reading): boolean {
  return (
    reading.included.size > 0 ||
    reading.excluded.size > 0 ||
    reading.everything ||
    reading.sufficiency ||
    reading.largeDeposits ||
    reading.notEvaluate ||
    reading.lookups.size > 0 ||
    reading.clauses.some((clause) => clause.listConditions || clause.applies)
  );
}

export function interpretInstructions(input: {
  instructions: string | undefined;
  documents: readonly string[];
  /** The conditions that can apply to the request's documents. */
  conditions: readonly ScopeCondition[];
  /**
   * The catalog's other conditions (of other classifications): named, they are recognised as not
   * possible for these documents ("the signature" of a bank-statement loan) rather than not understood.
   */
  elsewhere?: readonly ScopeCondition[];
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

  const lexicon = buildLexicon(conditions, input.elsewhere);
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
    unhandled: [],
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

  const judgeable = conditions.map((condition) => condition.id);
  const { unhandled } = reading;
  const fallBack = (sentence: string) =>
    fallbackScope(fallbackInterpretation(sentence, unhandled, judgeable), unhandled);
  const contradiction = (reason: string) =>
    fallBack(
      `The instructions contradict each other (${reason}), so every applicable condition is evaluated.`,
    );

  // Asked only for what is out of reach ("the credit score"), or only for something it did not
  // understand: nothing it was not asked for is judged; the applicable conditions are listed.
  const outOfReach = unhandled.some((part) => part.reason === "not_possible");
  if (!askedForSomething(reading) && (outOfReach || (reading.only && unhandled.length > 0))) {
    const outcome: Outcome = {
      applicableOnly: true,
      judgesNothing: true,
      exclude: [],
      totalDocuments: documents.length,
      unresolved: [],
      extras: [],
      unhandled,
      judgeable,
    };
    return {
      questions: ["applicable"],
      exclude_conditions: [],
      unhandled: [...unhandled],
      nothing_in_reach: true,
      interpretation: interpretationOf(outcome, conditions),
      fallback: false,
    };
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
    return fallBack(
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
    judgesNothing: false,
    ...(include ? { include } : {}),
    exclude,
    ...(scopedDocuments ? { documents: scopedDocuments } : {}),
    totalDocuments: documents.length,
    unresolved,
    extras: questions.slice(1),
    unhandled,
    judgeable,
  };
  return {
    questions,
    ...(include ? { include_conditions: include } : {}),
    exclude_conditions: exclude,
    ...(scopedDocuments ? { documents: scopedDocuments } : {}),
    ...withUnhandled(unhandled),
    interpretation: interpretationOf(outcome, conditions),
    fallback: false,
  };
}

function fallbackScope(interpretation: string, unhandled: readonly UnhandledPart[] = []): InstructionScope {
  return {
    questions: ["evaluate"],
    exclude_conditions: [],
    ...withUnhandled(unhandled),
    interpretation,
    fallback: true,
  };
}

/** A compact text form of the scope for LLM planner prompts (they may ignore it). */
export function describeScope(scope: InstructionScope): string {
  const list = (items: readonly string[] | undefined, none: string) =>
    items?.length ? items.join(", ") : none;
  const unhandled = (scope.unhandled ?? []).map((part) =>
    part.reason === "not_possible"
      ? `"${part.text}" (not possible here: ${part.why})`
      : `"${part.text}" (not understood)`,
  );
  return [
    `questions: ${scope.questions.join(", ")}`,
    `judge only: ${list(scope.include_conditions, "every applicable condition")}`,
    `do not judge: ${list(scope.exclude_conditions, "none")}`,
    `documents: ${list(scope.documents, "all")}`,
    ...(unhandled.length ? [`not carried out: ${unhandled.join("; ")}`] : []),
    `fallback: ${scope.fallback ? "yes (instructions empty, not understood or contradictory)" : "no"}`,
    `reading: ${scope.interpretation}`,
  ].join("\n");
}
