// The condition catalog as a new-evaluation form needs it (GET /v1/catalog): each classification with
// its conditions and exactly the metadata fields those conditions read. The fields are not listed by
// hand: the PreConditions engine is asked, per classification, what it would miss in a request that
// gives only the classification, so the form asks what the engine will look for and nothing else.
import type { CatalogView } from "../../contracts/api-types.ts";
import { type ConditionCatalog, type ConditionPriority, loadCatalog } from "./catalog.ts";
import { missingInputs, predictConditions } from "./preconditions.ts";

type CatalogInput = CatalogView["classifications"][number]["inputs"][number];

/**
 * Metadata the engine uses when given but does without (it then checks against a default), so
 * missingInputs never names it: the form offers it when a condition's expectation carries it.
 * Keyed by the name the engine puts in a condition's `expected`.
 */
const OPTIONAL_INPUTS: Record<string, Omit<CatalogInput, "conditions">> = {
  tax_year: {
    field: "extracted_entities.tax_year",
    question: "Which tax year should the return be for? (Left empty: one of the two most recent years.)",
    expected: "a four-digit year, e.g. 2024",
  },
  as_of_date: {
    field: "as_of_date",
    question: "On which date is the loan evaluated? Recency rules count back from it. (Left empty: today.)",
    expected: "a date, YYYY-MM-DD, e.g. 2025-04-15",
  },
};

/** Values that make the engine put each optional input into the expectations of the conditions using it. */
const PROBE = { as_of_date: "2025-04-15", extracted_entities: { tax_year: 2024 } };

const PRIORITY_WORDS: Record<string, string> = { "1": "high", "2": "medium", "3": "low" };

/** "high" | "medium" | "low": the catalog also allows 1–3, which a form shows as the same words. */
export function priorityWord(priority: ConditionPriority): string {
  return PRIORITY_WORDS[String(priority)] ?? String(priority);
}

/** Loan programs the catalog names (its `*` means every program and is not one). */
function loanPrograms(catalog: ConditionCatalog): string[] {
  const names = catalog.conditions.flatMap((condition) => condition.loan_programs);
  return [...new Set(names.filter((name) => name !== "*"))].sort((a, b) => a.localeCompare(b));
}

/**
 * The fields the conditions of `classification` read, in the engine's order: those it would ask for
 * (missing from a request with only the classification, for any program the catalog names), then
 * the optional ones a condition's expectation carries.
 */
function inputsOf(classification: string, programs: string[]): CatalogInput[] {
  const byField = new Map<string, CatalogInput>();
  const add = (input: CatalogInput) => {
    const known = byField.get(input.field);
    if (!known) byField.set(input.field, { ...input, conditions: [...input.conditions] });
    else for (const id of input.conditions) if (!known.conditions.includes(id)) known.conditions.push(id);
  };
  // A program-specific condition applies only when the request names that program: ask for each.
  for (const program of [undefined, ...programs]) {
    const metadata = { classification, ...(program ? { loan_program: program } : {}) };
    for (const { field, question, expected, conditions } of missingInputs(metadata)) {
      add({ field, question, expected, conditions });
    }
    const probed = predictConditions({ ...metadata, ...PROBE });
    for (const [key, input] of Object.entries(OPTIONAL_INPUTS)) {
      const using = probed.conditions.filter((condition) => Object.hasOwn(condition.expected, key));
      if (using.length > 0) add({ ...input, conditions: using.map((condition) => condition.id) });
    }
  }
  return [...byField.values()];
}

/**
 * The view of the loaded catalog (the one the engines use, so the fields match what they read). Pure:
 * the handler computes it once per cold start.
 */
export function buildCatalogView(): CatalogView {
  const catalog = loadCatalog();
  const programs = loanPrograms(catalog);
  return {
    version: catalog.version,
    loan_programs: programs,
    classifications: catalog.classifications.map((entry) => ({
      name: entry.name,
      description: entry.description,
      aliases: [...entry.aliases],
      conditions: catalog.conditions
        .filter((condition) => condition.classifications.includes(entry.name))
        .map((condition) => ({
          id: condition.id,
          title: condition.title,
          compartment: condition.compartment,
          priority: priorityWord(condition.priority),
        })),
      inputs: inputsOf(entry.name, programs),
    })),
  };
}
