// Reference PreConditions engine: which catalog conditions apply to a loan file, and what the
// Conditions AI engine must check for each. Like the lender's service, its output is
// self-contained: `expected` carries every metadata value the evaluation needs, because the
// Conditions AI engine only receives conditions and documents.
import {
  type CatalogCondition,
  type ConditionPriority,
  findCondition,
  knownClassifications,
  loadCatalog,
  resolveClassification,
} from "./catalog.ts";
import {
  dayNumber,
  formatMoney,
  fromJsDate,
  isoDate,
  parseIsoOrUsDate,
  parseMoney,
  type SimpleDate,
} from "./text.ts";

export interface PredictedCondition {
  id: string;
  title: string;
  compartment: string;
  priority: ConditionPriority;
  /** Why the condition is predicted deficient, or what must be verified in the documents. */
  reason: string;
  /** False when metadata lacks a value the check needs: the evaluation can only be insufficient_evidence. */
  verifiable: boolean;
  /** When not verifiable: the metadata field (dotted path) that is missing or unusable. */
  missing_input?: string;
  expected: Record<string, unknown>;
}

/**
 * The metadata fields a condition's check may need from the caller, with the question to ask when
 * one is missing or unusable (the run's clarification) and what a valid answer looks like.
 */
export const METADATA_INPUTS = {
  "borrower_info.monthly_income": {
    question: "What is the borrower's gross monthly income?",
    expected: 'a positive amount in US dollars, e.g. 8000 or "$8,000.00"',
  },
  "borrower_info.name": {
    question: "What is the borrower's full name, as printed on their statements?",
    expected: 'a non-empty name, e.g. "Jane Q. Doe"',
  },
  "borrower_info.business_name": {
    question: "What is the legal name of the borrower's business (the corporation on the tax return)?",
    expected: 'a non-empty name, e.g. "Acme Widgets Inc."',
  },
  "extracted_entities.ein": {
    question: "What is the business's Employer Identification Number (EIN)?",
    expected: 'nine digits in the NN-NNNNNNN form, e.g. "12-3456789"',
  },
} as const;

export type MetadataInput = keyof typeof METADATA_INPUTS;

/** A missing input and the conditions waiting for it (the shape of a run's InputQuestion). */
export interface MissingInput {
  field: string;
  question: string;
  why: string;
  expected: string;
  conditions: string[];
}

/**
 * What the caller would have to supply so that every condition the filter keeps can be verified:
 * one entry per missing metadata field, naming the conditions that need it.
 */
export function missingInputs(
  metadata: Record<string, unknown>,
  filter: ConditionFilter = {},
  options: PreconditionsOptions = {},
): MissingInput[] {
  const predicted = predictConditions(metadata, options);
  const { conditions } = filterConditions(predicted.conditions, filter, predicted);
  const byField = new Map<string, MissingInput>();
  for (const condition of conditions) {
    const field = condition.missing_input as MetadataInput | undefined;
    if (condition.verifiable || !field) continue;
    const entry = byField.get(field) ?? {
      field,
      question: METADATA_INPUTS[field].question,
      why: "",
      expected: METADATA_INPUTS[field].expected,
      conditions: [],
    };
    entry.conditions.push(condition.id);
    entry.why = entry.why ? `${entry.why}; ${condition.reason}` : condition.reason;
    byField.set(field, entry);
  }
  return [...byField.values()];
}

export interface PreconditionsResult {
  loan_program: string | null;
  classification: string;
  as_of_date: string;
  conditions: PredictedCondition[];
}

/** A condition that applies to the loan but was left out because the caller's filter said so. */
export interface FilteredCondition {
  id: string;
  title: string;
  reason: string;
}

export interface ConditionFilter {
  /** Judge only these condition ids (upper case, as in the catalog). */
  conditions?: ReadonlyArray<string>;
  /** Leave these condition ids out; wins over `conditions`. */
  exclude?: ReadonlyArray<string>;
}

export interface FilteredPreconditions<T extends { id: string; title: string }> {
  conditions: T[];
  /** The applicable conditions the filter removed, in their original order. */
  filtered_out: FilteredCondition[];
  /** Ids asked for in `conditions` that do not apply to this loan (present only when there are some). */
  not_applicable?: FilteredCondition[];
}

export interface PreconditionsOptions {
  /** "Today" when metadata has no as_of_date. */
  asOf?: Date;
}

export function predictConditions(
  metadata: Record<string, unknown>,
  options: PreconditionsOptions = {},
): PreconditionsResult {
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new Error("metadata must be an object with loan_program and classification");
  }
  const known = knownClassifications();
  const rawClassification = metadata.classification;
  if (typeof rawClassification !== "string" || rawClassification.trim() === "") {
    throw new Error(
      `metadata.classification is missing: expected one of ${known.map((name) => `"${name}"`).join(", ")}`,
    );
  }
  const classification = resolveClassification(rawClassification);
  if (!classification) {
    throw new Error(
      `unknown classification "${rawClassification}": known classifications are ${known.map((name) => `"${name}"`).join(", ")}`,
    );
  }
  const loanProgram =
    typeof metadata.loan_program === "string" && metadata.loan_program.trim() !== ""
      ? metadata.loan_program.trim()
      : null;
  const asOf = resolveAsOf(metadata.as_of_date, options.asOf);
  const facts = readFacts(metadata);

  const conditions = loadCatalog()
    .conditions.filter((condition) => condition.classifications.includes(classification))
    .filter((condition) => appliesToProgram(condition, loanProgram))
    .map((condition) => predict(condition, facts, asOf));

  return { loan_program: loanProgram, classification, as_of_date: isoDate(asOf), conditions };
}

function appliesToProgram(condition: CatalogCondition, program: string | null): boolean {
  if (condition.loan_programs.includes("*")) return true;
  if (program === null) return false;
  const wanted = program.toLowerCase();
  return condition.loan_programs.some((name) => name.toLowerCase() === wanted);
}

function resolveAsOf(value: unknown, fallback: Date | undefined): SimpleDate {
  if (value === undefined || value === null || value === "") return fromJsDate(fallback ?? new Date());
  const parsed = parseIsoOrUsDate(value);
  if (!parsed) throw new Error(`metadata.as_of_date "${String(value)}" is not a date: expected YYYY-MM-DD`);
  return parsed;
}

interface Facts {
  borrowerName?: string;
  businessName?: string;
  ein?: string;
  einRaw?: string;
  taxYear?: number;
  taxYearRaw?: string;
  monthlyIncome?: number;
  monthlyIncomeRaw?: string;
  accountLast4?: string;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function text(...values: unknown[]): string | undefined {
  for (const value of values) {
    if (typeof value === "string" && value.trim() !== "") return value.trim();
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

function readFacts(metadata: Record<string, unknown>): Facts {
  const borrower = record(metadata.borrower_info);
  const entities = record(metadata.extracted_entities);
  const facts: Facts = {};

  const joined = [text(borrower.first_name), text(borrower.last_name)].filter(Boolean).join(" ");
  const borrowerName = text(borrower.name, borrower.full_name, metadata.borrower_name, joined);
  if (borrowerName) facts.borrowerName = borrowerName;
  const businessName = text(
    borrower.business_name,
    entities.business_name,
    entities.corporation_name,
    entities.company_name,
  );
  if (businessName) facts.businessName = businessName;

  const einRaw = text(entities.ein, borrower.ein, metadata.ein);
  if (einRaw) {
    facts.einRaw = einRaw;
    const digits = einRaw.replace(/\D/g, "");
    if (digits.length === 9 && /^\d{2}-?\d{7}$/.test(einRaw.replace(/\s/g, ""))) {
      facts.ein = `${digits.slice(0, 2)}-${digits.slice(2)}`;
    }
  }

  const taxYearRaw = text(entities.tax_year, metadata.tax_year);
  if (taxYearRaw) {
    facts.taxYearRaw = taxYearRaw;
    if (/^\d{4}$/.test(taxYearRaw)) facts.taxYear = Number(taxYearRaw);
  }

  const incomeRaw = borrower.monthly_income ?? metadata.monthly_income;
  if (incomeRaw !== undefined && incomeRaw !== null && incomeRaw !== "") {
    facts.monthlyIncomeRaw = String(incomeRaw);
    const income = parseMoney(incomeRaw);
    if (income !== null && income > 0) facts.monthlyIncome = income;
  }

  const account = text(entities.account_last4, entities.account_number, borrower.account_number);
  const last4 = account?.replace(/\D/g, "").slice(-4);
  if (last4 && last4.length === 4) facts.accountLast4 = last4;
  return facts;
}

function predict(condition: CatalogCondition, facts: Facts, asOf: SimpleDate): PredictedCondition {
  const base = {
    id: condition.id,
    title: condition.title,
    compartment: condition.compartment,
    priority: condition.priority,
  };
  const number = (key: string, fallback: number): number => {
    const value = condition.parameters[key];
    return typeof value === "number" ? value : fallback;
  };
  const missing = (
    field: MetadataInput,
    label: string,
  ): Pick<PredictedCondition, "reason" | "verifiable" | "missing_input"> => ({
    reason: `no ${label} in metadata (${field}): cannot verify ${condition.id}`,
    verifiable: false,
    missing_input: field,
  });
  const asOfText = isoDate(asOf);

  switch (condition.id) {
    case "TR_SIGNED":
      return {
        ...base,
        reason:
          "returns are often submitted unsigned: verify the Sign Here block carries the officer's signature and a date",
        verifiable: true,
        expected: {},
      };
    case "TR_TAX_YEAR": {
      const recent = number("recent_years", 2);
      const accepted = Array.from({ length: recent }, (_, index) => asOf.y - 1 - index);
      if (facts.taxYear !== undefined) {
        return {
          ...base,
          reason: `verify the return is for tax year ${facts.taxYear} (extracted_entities.tax_year)`,
          verifiable: true,
          expected: { tax_year: facts.taxYear, as_of_date: asOfText, accepted_tax_years: accepted },
        };
      }
      const note = facts.taxYearRaw
        ? `metadata tax_year "${facts.taxYearRaw}" is not a year`
        : "no tax_year in metadata";
      return {
        ...base,
        reason: `${note}: the return must be for ${accepted.join(" or ")}, the ${recent} most recent completed tax years before ${asOfText}`,
        verifiable: true,
        expected: { as_of_date: asOfText, accepted_tax_years: accepted },
      };
    }
    case "TR_EIN_MATCH":
      if (facts.ein) {
        return {
          ...base,
          reason: `verify the EIN on the return equals ${facts.ein}`,
          verifiable: true,
          expected: { ein: facts.ein },
        };
      }
      if (facts.einRaw) {
        return {
          ...base,
          reason: `metadata EIN "${facts.einRaw}" is not in the NN-NNNNNNN form: cannot verify TR_EIN_MATCH`,
          verifiable: false,
          missing_input: "extracted_entities.ein",
          expected: {},
        };
      }
      return { ...base, ...missing("extracted_entities.ein", "EIN"), expected: {} };
    case "TR_NAME_MATCH":
      return facts.businessName
        ? {
            ...base,
            reason: `verify the corporation name on the return matches "${facts.businessName}"`,
            verifiable: true,
            expected: { business_name: facts.businessName },
          }
        : { ...base, ...missing("borrower_info.business_name", "business name"), expected: {} };
    case "TR_COMPLETE":
      return {
        ...base,
        reason: "verify the documents include page 1 of Form 1120 and Schedule L (Balance Sheets per Books)",
        verifiable: true,
        expected: { required_parts: ["Form 1120 page 1", "Schedule L"] },
      };
    case "BS_TWO_MONTHS": {
      const months = number("min_consecutive_months", 2);
      const maxDays = number("max_days_since_period_end", 60);
      const earliestEnd = new Date((dayNumber(asOf) - maxDays) * 86_400_000).toISOString().slice(0, 10);
      return {
        ...base,
        reason: `verify the statements cover ${months} consecutive monthly periods, the latest ending on or after ${earliestEnd} (${maxDays} days before ${asOfText})`,
        verifiable: true,
        expected: {
          as_of_date: asOfText,
          min_consecutive_months: months,
          max_days_since_period_end: maxDays,
        },
      };
    }
    case "BS_NAME_MATCH":
      return facts.borrowerName
        ? {
            ...base,
            reason: `verify every statement's account holder is "${facts.borrowerName}"`,
            verifiable: true,
            expected: { borrower_name: facts.borrowerName },
          }
        : { ...base, ...missing("borrower_info.name", "borrower name"), expected: {} };
    case "BS_SAME_ACCOUNT":
      return {
        ...base,
        reason: facts.accountLast4
          ? `verify every statement is for the account ending in ${facts.accountLast4}`
          : "verify every statement shows the same account number (last four digits)",
        verifiable: true,
        expected: facts.accountLast4 ? { account_last4: facts.accountLast4 } : {},
      };
    case "BS_NO_NSF":
      return {
        ...base,
        reason: "verify no NSF, overdraft or returned-item fee appears in any statement",
        verifiable: true,
        expected: {},
      };
    case "BS_LARGE_DEPOSITS": {
      const ratio = number("income_ratio", 0.5);
      if (facts.monthlyIncome === undefined) {
        const result = facts.monthlyIncomeRaw
          ? {
              reason: `metadata monthly_income "${facts.monthlyIncomeRaw}" is not a positive amount: cannot verify BS_LARGE_DEPOSITS`,
              verifiable: false,
              missing_input: "borrower_info.monthly_income",
            }
          : missing("borrower_info.monthly_income", "monthly_income");
        return { ...base, ...result, expected: { income_ratio: ratio } };
      }
      const threshold = Math.round(facts.monthlyIncome * ratio * 100) / 100;
      return {
        ...base,
        reason: `verify no deposit exceeds ${formatMoney(threshold)} (${Math.round(ratio * 100)}% of monthly income ${formatMoney(facts.monthlyIncome)}); larger deposits need a letter of explanation`,
        verifiable: true,
        expected: { monthly_income: facts.monthlyIncome, income_ratio: ratio, threshold },
      };
    }
    default:
      return {
        ...base,
        reason: `verify: ${condition.fulfilled_by}`,
        verifiable: true,
        expected: {},
      };
  }
}

/**
 * Keeps the conditions a caller asked for. Works on any PreConditions answer (the reference
 * engine's or a lender's), matching ids case-insensitively; the answer's own order is kept.
 */
export function filterConditions<T extends { id: string; title: string }>(
  conditions: ReadonlyArray<T>,
  filter: ConditionFilter,
  scope: { classification: string; loan_program: string | null },
): FilteredPreconditions<T> {
  const normalize = (id: string) => id.trim().toUpperCase();
  const wanted = filter.conditions ? new Set(filter.conditions.map(normalize)) : undefined;
  const excluded = new Set((filter.exclude ?? []).map(normalize));
  const kept: T[] = [];
  const filteredOut: FilteredCondition[] = [];
  for (const condition of conditions) {
    const id = normalize(condition.id);
    if (excluded.has(id)) {
      filteredOut.push({ id: condition.id, title: condition.title, reason: "excluded by the instructions" });
    } else if (wanted && !wanted.has(id)) {
      filteredOut.push({ id: condition.id, title: condition.title, reason: "not asked for" });
    } else kept.push(condition);
  }
  const present = new Set(conditions.map((condition) => normalize(condition.id)));
  const where = `${scope.classification}${scope.loan_program ? ` / ${scope.loan_program}` : ""}`;
  const notApplicable = [...(wanted ?? [])]
    .filter((id) => !present.has(id) && !excluded.has(id))
    .map((id) => ({
      id,
      title: findCondition(id)?.title ?? id,
      reason: `asked for, but it does not apply to ${where}`,
    }));
  return {
    conditions: kept,
    filtered_out: filteredOut,
    ...(notApplicable.length > 0 ? { not_applicable: notApplicable } : {}),
  };
}
