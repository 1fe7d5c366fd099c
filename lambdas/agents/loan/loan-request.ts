// What a loan request's metadata must hold, checked against the condition catalog before a run exists:
// a classification the catalog knows, a loan program, and well-formed values (real calendar dates,
// positive finite amounts, four-digit years, EINs) wherever the engines read them. The catalog is
// passed in (lambdas/agents/loan/request-catalog.ts builds it from the one the engines use), so this
// module stays pure and the API, batch lines, the twin and the CLI check with the same words.
import { isPlainObject } from "../../core/describe.ts";
import type { RequestProblem } from "../../core/request.ts";

/** How a metadata value is read: `text` is any name or note (the engines trim it). */
export type MetadataValueKind = "amount" | "date" | "year" | "ein" | "text";

export interface MetadataFieldRule {
  /** Dotted path under `metadata`, as the catalog names it (`borrower_info.monthly_income`). */
  field: string;
  kind: MetadataValueKind;
  /** What a valid value looks like, in the catalog's words (the New evaluation form shows the same). */
  expected: string;
  /** Other paths the engines read the same value from when the catalog's path is absent. */
  alsoAt?: readonly string[];
}

export interface LoanRequestCatalog {
  /** The classifications' names, as a refusal lists them. */
  classifications: readonly string[];
  /** The catalog's name for a classification given by name or alias; undefined when it names none. */
  resolveClassification(value: string): string | undefined;
  fields: readonly MetadataFieldRule[];
}

/** Said when the loan program is missing; the New evaluation form says the same. */
export const LOAN_PROGRAM_REQUIRED = "required: the loan program, e.g. Flex Supreme";

/** `"A", "B"`: the classifications as a refusal lists them. */
export function listClassifications(catalog: Pick<LoanRequestCatalog, "classifications">): string {
  return catalog.classifications.map((name) => JSON.stringify(name)).join(", ");
}

/** The problem with a classification, or undefined when the catalog knows it (by name or alias). */
export function classificationProblem(value: unknown, catalog: LoanRequestCatalog): string | undefined {
  const known = listClassifications(catalog);
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
    return `required: one of ${known}`;
  }
  if (typeof value !== "string") return `expected one of ${known}`;
  if (catalog.resolveClassification(value) !== undefined) return undefined;
  return `unknown classification ${JSON.stringify(value)}: expected one of ${known} (GET /v1/catalog lists them with their aliases)`;
}

/** A money amount as the engines read it: a number, or digits with `$`, `,` and spaces allowed. */
export function amountOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const cleaned = value.replace(/[$,\s]/g, "");
  return /^\d+(?:\.\d+)?$/.test(cleaned) ? Number(cleaned) : undefined;
}

/** YYYY-MM-DD naming a day that exists (no 2025-02-30, no month 13). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const VALID: Record<MetadataValueKind, (value: unknown) => boolean> = {
  amount: (value) => (amountOf(value) ?? 0) > 0,
  date: (value) => typeof value === "string" && isCalendarDate(value),
  year: (value) =>
    (typeof value === "string" || (typeof value === "number" && Number.isInteger(value))) &&
    /^\d{4}$/.test(String(value).trim()),
  ein: (value) =>
    (typeof value === "string" || (typeof value === "number" && Number.isInteger(value))) &&
    /^\d{2}-?\d{7}$/.test(String(value).replace(/\s/g, "")),
  text: () => true,
};

/** The problem with one value of a field of `kind`, or undefined when it is valid. */
export function metadataValueProblem(rule: MetadataFieldRule, value: unknown): string | undefined {
  return VALID[rule.kind](value) ? undefined : `expected ${rule.expected}`;
}

/**
 * Every problem with a loan request's metadata, each named by its path (`metadata.classification`,
 * `metadata.borrower_info.monthly_income`). Absent optional values (missing or null) are not
 * problems: the run asks for what a condition needs, or uses its default.
 */
export function loanMetadataProblems(
  metadata: Record<string, unknown>,
  catalog: LoanRequestCatalog,
): RequestProblem[] {
  const problems: RequestProblem[] = [];
  const classification = classificationProblem(metadata.classification, catalog);
  if (classification) problems.push({ field: "metadata.classification", message: classification });
  const program = metadata.loan_program;
  if (program === undefined || program === null || (typeof program === "string" && program.trim() === "")) {
    problems.push({ field: "metadata.loan_program", message: LOAN_PROGRAM_REQUIRED });
  } else if (typeof program !== "string") {
    problems.push({
      field: "metadata.loan_program",
      message: "expected the loan program's name as a string, e.g. Flex Supreme",
    });
  }
  const reported = new Set<string>();
  for (const rule of catalog.fields) {
    for (const path of [rule.field, ...(rule.alsoAt ?? [])]) {
      const found = valueAt(metadata, path);
      if ("notAnObject" in found) {
        const field = `metadata.${found.notAnObject}`;
        if (!reported.has(field)) problems.push({ field, message: "expected an object" });
        reported.add(field);
        continue;
      }
      if (found.value === undefined || found.value === null) continue;
      const problem = metadataValueProblem(rule, found.value);
      if (problem) problems.push({ field: `metadata.${path}`, message: problem });
    }
  }
  return problems;
}

/** The value at a dotted path, or the first step on the way that holds something other than an object. */
function valueAt(root: Record<string, unknown>, path: string): { value: unknown } | { notAnObject: string } {
  const parts = path.split(".");
  let node: Record<string, unknown> = root;
  for (let index = 0; index < parts.length - 1; index++) {
    const next = node[parts[index] as string];
    if (next === undefined || next === null) return { value: undefined };
    if (!isPlainObject(next)) return { notAnObject: parts.slice(0, index + 1).join(".") };
    node = next;
  }
  return { value: node[parts.at(-1) as string] };
}
