// The condition catalog is data (catalog.json) so underwriting can change conditions without
// touching the engines; it is validated once, on first use (a test reads it, so a bad edit fails
// the build; a cold start does not pay for the check before it needs the catalog).
import * as z from "zod";
import { lazily } from "../../core/lazy.ts";
import rawCatalog from "./catalog.json" with { type: "json" };
import { DOCUMENT_KINDS, type IdentifiedKind } from "./document-kinds.ts";

/** The catalog's schema (built on first use: zod schemas cost a cold start far more than constants). */
function buildCatalogSchema() {
  const priority = () =>
    z.union([z.enum(["high", "medium", "low"]), z.literal(1), z.literal(2), z.literal(3)]);

  const ConditionEntry = z.strictObject({
    id: z.string().regex(/^[A-Z][A-Z0-9_]*$/, "condition ids are UPPER_SNAKE_CASE"),
    title: z.string().min(1),
    compartment: z.string().min(1),
    priority: priority(),
    classifications: z.array(z.string().min(1)).min(1),
    loan_programs: z.array(z.string().min(1)).min(1),
    fulfilled_by: z.string().min(1),
    /** The document fields its check reads (names from `fields[]`): what the extraction report is about. */
    fields: z.array(z.string().min(1)).default([]),
    parameters: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).default({}),
    /** Words and phrases an instruction may use for this condition ("signature", "NSF"), lower case. */
    keywords: z
      .array(
        z
          .string()
          .min(1)
          .regex(/^[^A-Z]+$/, "keywords are lower case"),
      )
      .default([]),
    /** What a loan officer should obtain, per verdict; engine findings (a month, a deposit) make it specific. */
    remedy: z.strictObject({ not_fulfilled: z.string().min(1), insufficient_evidence: z.string().min(1) }),
  });

  /** A field the engines locate in a document; the extraction report names each found or not. */
  const FieldEntry = z.strictObject({
    name: z.string().regex(/^[a-z][a-z0-9_]*$/, "field names are lower_snake_case"),
    document: z.enum(["form_1120", "bank_statement"]),
    /** What the field is, precise enough for a person, or a model, to find it on a page. */
    description: z.string().min(1),
    /**
     * Whether a configured LLM may locate it when the engines cannot (its quote verified on the page).
     * Off for judgements a quote cannot prove, such as whether a signature box is filled.
     */
    model_may_locate: z.boolean(),
  });

  const ClassificationEntry = z.strictObject({
    name: z.string().min(1),
    aliases: z.array(z.string().min(1)).default([]),
    description: z.string().default(""),
    /** The kind of document its conditions are judged on: a document of another kind judges none of them. */
    document_kind: z.enum(DOCUMENT_KINDS).exclude(["other"]),
  });

  return z
    .strictObject({
      version: z.string().min(1),
      classifications: z.array(ClassificationEntry).min(1),
      fields: z.array(FieldEntry).default([]),
      conditions: z.array(ConditionEntry).min(1),
    })
    .superRefine((catalog, context) => {
      const known = new Set(catalog.classifications.map((entry) => entry.name));
      const fields = new Set(catalog.fields.map((field) => field.name));
      const seen = new Set<string>();
      catalog.conditions.forEach((condition, index) => {
        for (const field of condition.fields) {
          if (!fields.has(field)) {
            context.addIssue({
              code: "custom",
              path: ["conditions", index, "fields"],
              message: `${condition.id} names field "${field}", which is not in fields[]`,
            });
          }
        }
        if (seen.has(condition.id)) {
          context.addIssue({
            code: "custom",
            path: ["conditions", index, "id"],
            message: `duplicate id ${condition.id}`,
          });
        }
        seen.add(condition.id);
        for (const classification of condition.classifications) {
          if (!known.has(classification)) {
            context.addIssue({
              code: "custom",
              path: ["conditions", index, "classifications"],
              message: `${condition.id} names classification "${classification}", which is not in classifications[]`,
            });
          }
        }
      });
    });
}

const catalogSchema = /* @__PURE__ */ lazily(buildCatalogSchema);

export type ConditionCatalog = z.infer<ReturnType<typeof buildCatalogSchema>>;
export type CatalogCondition = ConditionCatalog["conditions"][number];
export type ConditionPriority = CatalogCondition["priority"];
export type CatalogField = ConditionCatalog["fields"][number];

export function parseCatalog(data: unknown): ConditionCatalog {
  const parsed = catalogSchema().safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
    throw new Error(`lambdas/agents/loan/catalog.json is invalid: ${problems.join("; ")}`);
  }
  return parsed.data;
}

const checkedCatalog = /* @__PURE__ */ lazily(() => Object.freeze(parseCatalog(rawCatalog)));

export function loadCatalog(): ConditionCatalog {
  return checkedCatalog();
}

export function knownClassifications(): string[] {
  return loadCatalog().classifications.map((entry) => entry.name);
}

export function findCondition(id: string): CatalogCondition | undefined {
  const wanted = id.trim().toUpperCase();
  return loadCatalog().conditions.find((condition) => condition.id === wanted);
}

export function findField(name: string): CatalogField | undefined {
  return loadCatalog().fields.find((field) => field.name === name);
}

/**
 * The kinds of document a condition may be judged on (those of its classifications); undefined for
 * a condition the catalog does not know, which is judged on whatever was sent.
 */
export function documentKindsOf(id: string): IdentifiedKind[] | undefined {
  const condition = findCondition(id);
  if (!condition) return undefined;
  return loadCatalog()
    .classifications.filter((entry) => condition.classifications.includes(entry.name))
    .map((entry) => entry.document_kind);
}

function normalizeClassification(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** The catalog's name for a classification given by name or alias, ignoring case and punctuation. */
export function resolveClassification(value: string): string | undefined {
  const wanted = normalizeClassification(value);
  if (wanted === "") return undefined;
  for (const entry of loadCatalog().classifications) {
    if ([entry.name, ...entry.aliases].some((name) => normalizeClassification(name) === wanted))
      return entry.name;
  }
  return undefined;
}
