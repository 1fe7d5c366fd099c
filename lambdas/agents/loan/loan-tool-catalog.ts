// The loan tools as the planner, the solver and the API know them: name, description, args schema,
// timeout, what a step still needs from the caller (questions) and the part of its output the solver
// reads (solver_view). What a tool does when it runs (lambdas/agents/loan/loan-tools.ts: the reference
// engines, document reading, the lender's clients) comes in as `runners`, resolved only when a tool
// runs: the worker links them, so the other functions' bundles carry none of the engines.
import * as z from "zod";
import { defineTool, type ToolContext, type ToolDefinition } from "../../tools/registry.ts";
import { findCondition, loadCatalog } from "./catalog.ts";
import type { ConditionsResult } from "./conditions-engine.ts";
import { missingInputs } from "./preconditions.ts";

const SOLVER_PREVIEW_CHARS = 200;

/** A catalog condition id, any case; an unknown one is refused naming the ids the catalog knows. */
const CatalogConditionId = z
  .string()
  .trim()
  .min(1)
  .superRefine((id, context) => {
    if (findCondition(id)) return;
    const known = loadCatalog().conditions.map((condition) => condition.id);
    context.addIssue({
      code: "custom",
      message: `unknown condition id ${JSON.stringify(id)}: expected one of ${known.join(", ")}`,
    });
  })
  .transform((id) => id.toUpperCase());

const ConditionRef = z.union([
  z.string().min(1),
  z.looseObject({ id: z.string().min(1), expected: z.record(z.string(), z.unknown()).optional() }),
]);

/** call_preconditions_api's args. */
export const PreconditionsArgs = z.object({
  metadata: z
    .record(z.string(), z.unknown())
    .describe("loan metadata: loan_program, classification, borrower_info, extracted_entities, as_of_date"),
  conditions: z
    .array(CatalogConditionId)
    .min(1)
    .optional()
    .describe("judge only these condition ids (e.g. TR_SIGNED); omit to judge every applicable condition"),
  exclude: z
    .array(CatalogConditionId)
    .optional()
    .describe("condition ids to leave out (e.g. BS_LARGE_DEPOSITS); wins over conditions"),
});

/** call_conditions_ai_api's args. */
export const ConditionsAiArgs = z.object({
  conditions: z
    .array(ConditionRef)
    .min(1)
    .describe("the conditions to evaluate: usually {{E1.conditions}} from call_preconditions_api"),
  documents: z.array(z.string().min(1)).min(1).describe("document paths (s3://bucket/key or keys)"),
});

/** retrieve_s3_document's args. */
export const RetrieveDocumentArgs = z.object({
  s3_path: z.string().min(1).describe("s3://bucket/key or a key in the documents bucket"),
});

/** query_database's args. */
export const QueryDatabaseArgs = z.object({
  query: z.enum(["similar_loans", "condition_history"]),
  filters: z
    .object({
      loan_program: z.string().optional(),
      classification: z.string().optional(),
      limit: z.number().int().min(1).max(100).optional(),
    })
    .optional(),
});

/** llm's args. */
export const LlmToolArgs = z.object({ prompt: z.string().min(1) });

/** What each loan tool does when it runs, by tool name (lambdas/agents/loan/loan-tools.ts loanToolRunners). */
export interface LoanToolRunners {
  call_preconditions_api(args: z.infer<typeof PreconditionsArgs>, context: ToolContext): Promise<unknown>;
  call_conditions_ai_api(args: z.infer<typeof ConditionsAiArgs>, context: ToolContext): Promise<unknown>;
  retrieve_s3_document(args: z.infer<typeof RetrieveDocumentArgs>, context: ToolContext): Promise<unknown>;
  query_database(args: z.infer<typeof QueryDatabaseArgs>, context: ToolContext): Promise<unknown>;
  llm(args: z.infer<typeof LlmToolArgs>, context: ToolContext): Promise<unknown>;
}

/**
 * The loan tools' definitions. `runners` is called when a tool runs, never before, so the registry
 * describes, validates and asks without them; `now` dates the questions (a statement's recency).
 */
export function describeLoanTools(runners: () => LoanToolRunners, now: () => Date): ToolDefinition[] {
  return [
    defineTool({
      name: "call_preconditions_api",
      description:
        "PreConditions service: predicts which underwriting conditions apply to the loan (program + document classification) and may be deficient, with compartment, priority and the reason. Call it first with the request's metadata. When the instructions ask for some conditions only, pass their ids in `conditions` (or the ones to leave out in `exclude`); the output's `conditions` then holds only those, and `filtered_out` lists the applicable ones left out and why.",
      args: PreconditionsArgs,
      // Room for the HTTP client's retries (10 s per attempt by default) when the lender's service is used.
      timeout_ms: 60_000,
      run: async (args, context) => runners().call_preconditions_api(args, context),
      // The solver needs which conditions were predicted and why. `expected` is Conditions AI's input
      // (its verdicts say what was expected), and `verifiable` tells something only when false.
      solver_view: (output) => {
        const { conditions, filtered_out, ...rest } = output as {
          conditions?: unknown;
          filtered_out?: unknown;
        };
        if (!Array.isArray(conditions)) return output;
        return {
          ...rest,
          conditions: conditions.map((condition) => {
            if (!condition || typeof condition !== "object") return condition;
            const { expected: _expected, verifiable, ...kept } = condition as Record<string, unknown>;
            return verifiable === true ? kept : { ...kept, verifiable };
          }),
          ...(Array.isArray(filtered_out) && filtered_out.length === 0 ? {} : { filtered_out }),
        };
      },
      // Asked of the reference catalog even when a lender's service predicts: the questions are about
      // the loan's metadata, which both read the same way.
      questions: ({ metadata, conditions, exclude }) =>
        missingInputs(
          metadata,
          { ...(conditions ? { conditions } : {}), ...(exclude ? { exclude } : {}) },
          { asOf: now() },
        ),
    }),
    defineTool({
      name: "call_conditions_ai_api",
      description:
        "Conditions AI service: evaluates conditions against the documents' text; one verdict per condition (fulfilled | not_fulfilled | insufficient_evidence) with reason, page citations, compartment and priority; a verdict that is not fulfilled also carries `remedies` (what the loan officer should obtain) and, when known, `missing` (exactly what is missing: a month, a letter for one deposit, a blank date). A document that is missing, refused, corrupt or scanned without text does not stop the others: `documents` reports each one's status, and only the verdicts that needed it become insufficient_evidence naming it.",
      args: ConditionsAiArgs,
      timeout_ms: 120_000,
      run: async (args, context) => runners().call_conditions_ai_api(args, context),
      // The extraction report is for auditors and the dashboard; the verdicts cite what was found,
      // so the solver (and its token bill) needs only the fields that could not be located, and of
      // a document's identification only its kind (`kind_note` says when it is the wrong one). A
      // verdict's `observed` values are the ones its reason states in words.
      solver_view: (output) => {
        const { verdicts, documents, ...rest } = output as ConditionsResult;
        const judged = Array.isArray(verdicts)
          ? {
              verdicts: verdicts.map((verdict) => {
                if (!verdict || typeof verdict !== "object") return verdict;
                const { observed: _observed, ...kept } = verdict as unknown as Record<string, unknown>;
                return kept;
              }),
            }
          : {};
        if (!Array.isArray(documents)) return { ...rest, ...judged };
        return {
          ...judged,
          ...rest,
          documents: documents.map(({ extraction, identification, ...report }) => {
            const unlocated = (extraction?.fields ?? [])
              .filter((field) => !field.found)
              .map((field) => ({ field: field.field, ...(field.note ? { note: field.note } : {}) }));
            const kind = identification ? { kind: identification.kind } : {};
            return unlocated.length ? { ...report, ...kind, unlocated } : { ...report, ...kind };
          }),
        };
      },
    }),
    defineTool({
      name: "retrieve_s3_document",
      description:
        "Retrieves one document from S3: size, content type, page count and a preview of its text. Use it for every document of the request.",
      args: RetrieveDocumentArgs,
      timeout_ms: 60_000,
      run: async (args, context) => runners().retrieve_s3_document(args, context),
      // The Conditions AI step reads the documents themselves and cites them; the solver needs to
      // know each document was readable and what it is, not its first 2,000 characters again, nor
      // where and when it was stored.
      solver_view: (output) => {
        const {
          preview,
          uri: _uri,
          size: _size,
          last_modified: _modified,
          ...rest
        } = output as {
          preview?: string;
          uri?: unknown;
          size?: unknown;
          last_modified?: unknown;
        };
        return { ...rest, preview: preview?.slice(0, SOLVER_PREVIEW_CHARS) };
      },
    }),
    defineTool({
      name: "query_database",
      description:
        "Historical evaluations: 'similar_loans' lists recent finished runs with the same loan program and classification and their verdicts; 'condition_history' counts how often each condition was not fulfilled.",
      args: QueryDatabaseArgs,
      timeout_ms: 30_000,
      run: async (args, context) => runners().query_database(args, context),
    }),
    defineTool({
      name: "llm",
      description:
        "A language model for a free-form sub-question over earlier evidence (e.g. 'Summarize {{E2.preview}}'). Costs one LLM call; prefer the loan tools.",
      args: LlmToolArgs,
      timeout_ms: 120_000,
      run: async (args, context) => runners().llm(args, context),
    }),
  ];
}
