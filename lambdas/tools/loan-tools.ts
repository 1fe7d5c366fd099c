// The tools of the original loan-agent plan, as ReWOO worker tools. The two lender services (PreConditions,
// Conditions AI) run as built-in reference engines over the documents' text, or, when their URLs
// are configured, as HTTP calls to the lender's own services (docs/lender-services.md).
import * as z from "zod";
import { type DocumentPolicy, resolveDocumentPath } from "../core/documents.ts";
import { renderToolPrompt, TOOL_SYSTEM_PROMPT } from "../core/prompts.ts";
import type { LlmProvider } from "../llm/types.ts";
import type { RunStore } from "../store/runs.ts";
import type { DocumentReader } from "./document-reader.ts";
import type { LenderCalls } from "./lender-client.ts";
import { findCondition, loadCatalog } from "./loan/catalog.ts";
import { type ConditionsResult, evaluateConditions } from "./loan/conditions-engine.ts";
import type { AssistedField } from "./loan/extraction.ts";
import { withModelLocatedFields } from "./loan/field-assist.ts";
import type { ExtractedDocument } from "./loan/pdf-text.ts";
import { filterConditions, missingInputs, predictConditions } from "./loan/preconditions.ts";
import { defineTool, type ToolDefinition } from "./registry.ts";

export interface LoanToolServices {
  documents: DocumentReader;
  runs: RunStore;
  llm: { provider: LlmProvider; model?: string };
  now: () => Date;
  /**
   * Where documents may be read from. The reader enforces it when it downloads; HTTP mode needs it
   * too, because there the lender's service downloads and the path is only resolved here.
   */
  documentPolicy?: DocumentPolicy;
  /** Set per service whose URL is configured; the reference engines answer otherwise. */
  lender?: LenderCalls;
}

const PREVIEW_CHARS = 2_000;
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

/**
 * `services` is resolved when a tool runs, not when it is registered: the registry's schemas and
 * descriptions are needed without AWS (plan validation in the CLI, prompts in tests).
 */
export function createLoanTools(resolveServices: () => LoanToolServices): ToolDefinition[] {
  return [
    defineTool({
      name: "call_preconditions_api",
      description:
        "PreConditions service: predicts which underwriting conditions apply to the loan (program + document classification) and may be deficient, with compartment, priority and the reason. Call it first with the request's metadata. When the instructions ask for some conditions only, pass their ids in `conditions` (or the ones to leave out in `exclude`); the output's `conditions` then holds only those, and `filtered_out` lists the applicable ones left out and why.",
      args: z.object({
        metadata: z
          .record(z.string(), z.unknown())
          .describe(
            "loan metadata: loan_program, classification, borrower_info, extracted_entities, as_of_date",
          ),
        conditions: z
          .array(CatalogConditionId)
          .min(1)
          .optional()
          .describe(
            "judge only these condition ids (e.g. TR_SIGNED); omit to judge every applicable condition",
          ),
        exclude: z
          .array(CatalogConditionId)
          .optional()
          .describe("condition ids to leave out (e.g. BS_LARGE_DEPOSITS); wins over conditions"),
      }),
      // Room for the HTTP client's retries (10 s per attempt by default) when the lender's service is used.
      timeout_ms: 60_000,
      run: async ({ metadata, conditions, exclude }, context) => {
        const services = resolveServices();
        const http = services.lender?.preconditions;
        const predicted = http
          ? await http(metadata, context.signal)
          : predictConditions(metadata, { asOf: services.now() });
        return {
          ...predicted,
          ...filterConditions(
            predicted.conditions,
            { ...(conditions ? { conditions } : {}), ...(exclude ? { exclude } : {}) },
            predicted,
          ),
        };
      },
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
          { asOf: resolveServices().now() },
        ),
    }),
    defineTool({
      name: "call_conditions_ai_api",
      description:
        "Conditions AI service: evaluates conditions against the documents' text; one verdict per condition (fulfilled | not_fulfilled | insufficient_evidence) with reason, page citations, compartment and priority; a verdict that is not fulfilled also carries `remedies` (what the loan officer should obtain) and, when known, `missing` (exactly what is missing: a month, a letter for one deposit, a blank date). A document that is missing, refused, corrupt or scanned without text does not stop the others: `documents` reports each one's status, and only the verdicts that needed it become insufficient_evidence naming it.",
      args: z.object({
        conditions: z
          .array(ConditionRef)
          .min(1)
          .describe("the conditions to evaluate: usually {{E1.conditions}} from call_preconditions_api"),
        documents: z.array(z.string().min(1)).min(1).describe("document paths (s3://bucket/key or keys)"),
      }),
      timeout_ms: 120_000,
      run: async ({ conditions, documents }, context) => {
        const services = resolveServices();
        const http = services.lender?.conditionsAi;
        if (http) {
          const policy = services.documentPolicy;
          if (!policy) {
            throw new Error("call_conditions_ai_api over HTTP needs the document policy to check paths");
          }
          // Every path is checked before the request: the lender's service reads whatever URI it is sent.
          const refs = documents.map((path) => {
            const { bucket, key } = resolveDocumentPath(path, policy);
            return { path, uri: `s3://${bucket}/${key}` };
          });
          return http(conditions, refs, context.signal);
        }
        // Each document on its own: a bad one is data for the verdicts that need it. Only
        // infrastructure faults (throttling, S3 5xx) reject, so the workflow retries the step.
        const outcomes = await Promise.all(
          documents.map((path) => services.documents.readOrExplain(context.run_id, path)),
        );
        const inputs = outcomes.map((outcome) =>
          outcome.status === "read"
            ? // Cited and reported by the path as requested, even when the cache holds another spelling.
              { ...outcome.document.extracted, document: outcome.path }
            : outcome,
        );
        const judge = (assisted?: AssistedField[]) =>
          evaluateConditions(conditions, inputs, { asOf: services.now(), ...(assisted ? { assisted } : {}) });
        const first = judge();
        const { llm } = services;
        // The offline provider has no model to ask; a configured one may locate what the finders missed.
        if (llm.provider.name === "rule-based") return first;
        const readable = inputs.filter((input): input is ExtractedDocument => "pages" in input);
        return withModelLocatedFields(first, readable, judge, async (prompt, question) => {
          const completion = await llm.provider.complete({
            ...prompt,
            ...(llm.model ? { model: llm.model } : {}),
            context: { purpose: "field", document: question.document.document, field: question.field.name },
            signal: context.signal,
          });
          context.recordLlmUsage(completion.usage);
          return completion.text;
        });
      },
      // The extraction report is for auditors and the dashboard; the verdicts cite what was found,
      // so the solver (and its token bill) needs only the fields that could not be located. A
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
          documents: documents.map(({ extraction, ...report }) => {
            const unlocated = (extraction?.fields ?? [])
              .filter((field) => !field.found)
              .map((field) => ({ field: field.field, ...(field.note ? { note: field.note } : {}) }));
            return unlocated.length ? { ...report, unlocated } : report;
          }),
        };
      },
    }),
    defineTool({
      name: "retrieve_s3_document",
      description:
        "Retrieves one document from S3: size, content type, page count and a preview of its text. Use it for every document of the request.",
      args: z.object({
        s3_path: z.string().min(1).describe("s3://bucket/key or a key in the documents bucket"),
      }),
      timeout_ms: 60_000,
      run: async ({ s3_path }, context) => {
        const document = await resolveServices().documents.read(context.run_id, s3_path);
        const text = document.extracted.pages.join("\n");
        return {
          path: s3_path,
          uri: document.uri,
          size: document.size,
          last_modified: document.last_modified ?? null,
          content_type: document.content_type ?? null,
          page_count: document.extracted.page_count,
          has_text_layer: document.extracted.has_text_layer,
          preview: text.slice(0, PREVIEW_CHARS),
        };
      },
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
      args: z.object({
        query: z.enum(["similar_loans", "condition_history"]),
        filters: z
          .object({
            loan_program: z.string().optional(),
            classification: z.string().optional(),
            limit: z.number().int().min(1).max(100).optional(),
          })
          .optional(),
      }),
      timeout_ms: 30_000,
      run: async ({ query, filters }) => {
        const runs = await resolveServices().runs.listRunsByProfile(
          filters?.loan_program,
          filters?.classification,
          filters?.limit ?? 20,
        );
        const scope = `${filters?.loan_program ?? "any program"} / ${filters?.classification ?? "any classification"}`;
        if (runs.length === 0) {
          return {
            query,
            filters: filters ?? {},
            results: [],
            message: `No finished evaluations found for ${scope}.`,
          };
        }
        if (query === "similar_loans") {
          return {
            query,
            filters: filters ?? {},
            results: runs.map((run) => ({
              run_id: run.run_id,
              created_at: run.created_at,
              fulfilled: run.result?.fulfilled_conditions.map((c) => c.id) ?? [],
              unfulfilled: run.result?.unfulfilled_conditions.map((c) => c.id) ?? [],
            })),
            message: `${runs.length} similar evaluation(s) for ${scope}, most recent first.`,
          };
        }
        const counts = new Map<string, { evaluated: number; not_fulfilled: number }>();
        for (const run of runs) {
          for (const [list, failed] of [
            [run.result?.fulfilled_conditions ?? [], false],
            [run.result?.unfulfilled_conditions ?? [], true],
          ] as const) {
            for (const condition of list) {
              const entry = counts.get(condition.id) ?? { evaluated: 0, not_fulfilled: 0 };
              entry.evaluated += 1;
              if (failed) entry.not_fulfilled += 1;
              counts.set(condition.id, entry);
            }
          }
        }
        return {
          query,
          filters: filters ?? {},
          results: [...counts.entries()]
            .map(([condition_id, entry]) => ({
              condition_id,
              ...entry,
              not_fulfilled_rate: Number((entry.not_fulfilled / entry.evaluated).toFixed(3)),
            }))
            .sort((a, b) => b.not_fulfilled_rate - a.not_fulfilled_rate),
          message: `Condition outcomes over ${runs.length} finished evaluation(s) for ${scope}.`,
        };
      },
    }),
    defineTool({
      name: "llm",
      description:
        "A language model for a free-form sub-question over earlier evidence (e.g. 'Summarize {{E2.preview}}'). Costs one LLM call; prefer the loan tools.",
      args: z.object({ prompt: z.string().min(1) }),
      timeout_ms: 120_000,
      run: async ({ prompt }, context) => {
        const { llm } = resolveServices();
        // The planned prompt is the instruction; what the worker substituted into it is evidence,
        // rendered as data. Without the planned args (a direct call) the prompt holds no evidence.
        const planned = context.planned_args?.prompt;
        const rendered =
          typeof planned === "string" && context.upstream
            ? renderToolPrompt(planned, context.upstream)
            : { system: TOOL_SYSTEM_PROMPT, prompt };
        const completion = await llm.provider.complete({
          ...rendered,
          ...(llm.model ? { model: llm.model } : {}),
          context: { purpose: "tool" },
          signal: context.signal,
        });
        context.recordLlmUsage(completion.usage);
        return { text: completion.text, model: completion.model };
      },
    }),
  ];
}
