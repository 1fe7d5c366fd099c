// The tools of the loan-agent plan (docs/architecture.md, "Where this project comes from"), as ReWOO worker
// tools. The two lender services (PreConditions, Conditions AI) run as built-in reference engines over the
// documents' text, or, when their URLs
// are configured, as HTTP calls to the lender's own services (docs/lender-services.md). This module
// is what the tools do; what they are (names, args, questions, solver views) is
// lambdas/agents/loan/loan-tool-catalog.ts, which every function needs and which carries no engine.
import { type DocumentPolicy, resolveDocumentPath } from "../../core/documents.ts";
import { renderToolPrompt, TOOL_SYSTEM_PROMPT } from "../../core/prompts.ts";
import type { LlmProvider } from "../../llm/types.ts";
import { countedCompletion } from "../../llm/usage.ts";
import type { RunStore } from "../../store/runs.ts";
import type { DocumentReader } from "../../tools/document-reader.ts";
import type { LenderCalls } from "../../tools/lender-client.ts";
import type { ToolDefinition } from "../../tools/registry.ts";
import { evaluateConditions } from "./conditions-engine.ts";
import type { AssistedField } from "./extraction.ts";
import { withModelLocatedFields } from "./field-assist.ts";
import { describeLoanTools, type LoanToolRunners } from "./loan-tool-catalog.ts";
import type { ExtractedDocument } from "./pdf-text.ts";
import { filterConditions, predictConditions } from "./preconditions.ts";

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
  /** The least OCR confidence (0–100) a verdict may rest on (REWOO_OCR_MIN_CONFIDENCE). */
  ocrMinConfidence?: number;
}

const PREVIEW_CHARS = 2_000;

/** What each loan tool does, over `services` resolved when a tool runs. */
export function loanToolRunners(resolveServices: () => LoanToolServices): LoanToolRunners {
  return {
    async call_preconditions_api({ metadata, conditions, exclude }, context) {
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
    async call_conditions_ai_api({ conditions, documents }, context) {
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
        evaluateConditions(conditions, inputs, {
          asOf: services.now(),
          ...(services.ocrMinConfidence !== undefined ? { ocrMinConfidence: services.ocrMinConfidence } : {}),
          ...(assisted ? { assisted } : {}),
        });
      const first = judge();
      const { llm } = services;
      // The offline provider has no model to ask; a configured one may locate what the finders missed.
      if (llm.provider.name === "rule-based") return first;
      const readable = inputs.filter((input): input is ExtractedDocument => "pages" in input);
      return withModelLocatedFields(first, readable, judge, async (prompt, question) => {
        const completion = await countedCompletion(
          llm.provider,
          {
            ...prompt,
            ...(llm.model ? { model: llm.model } : {}),
            context: { purpose: "field", document: question.document.document, field: question.field.name },
            signal: context.signal,
          },
          async (usage) => context.recordLlmUsage(usage),
        );
        return completion.text;
      });
    },
    async retrieve_s3_document({ s3_path }, context) {
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
        ...(document.extracted.ocr ? { ocr: document.extracted.ocr } : {}),
        preview: text.slice(0, PREVIEW_CHARS),
      };
    },
    async query_database({ query, filters }) {
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
    async llm({ prompt }, context) {
      const { llm } = resolveServices();
      // The planned prompt is the instruction; what the worker substituted into it is evidence,
      // rendered as data. Without the planned args (a direct call) the prompt holds no evidence.
      const planned = context.planned_args?.prompt;
      const rendered =
        typeof planned === "string" && context.upstream
          ? renderToolPrompt(planned, context.upstream)
          : { system: TOOL_SYSTEM_PROMPT, prompt };
      const completion = await countedCompletion(
        llm.provider,
        {
          ...rendered,
          ...(llm.model ? { model: llm.model } : {}),
          context: { purpose: "tool" },
          signal: context.signal,
        },
        async (usage) => context.recordLlmUsage(usage),
      );
      return { text: completion.text, model: completion.model };
    },
  };
}

/**
 * The loan tools with what they do. `services` is resolved when a tool runs, not when it is
 * registered: the registry's schemas and descriptions are needed without AWS (plan validation in
 * the CLI, prompts in tests).
 */
export function createLoanTools(resolveServices: () => LoanToolServices): ToolDefinition[] {
  const runners = loanToolRunners(resolveServices);
  return describeLoanTools(
    () => runners,
    () => resolveServices().now(),
  );
}
