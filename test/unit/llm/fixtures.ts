// Shared arrange-helpers for the LLM-layer tests: a tool catalog shaped like the real loan tools,
// a seed-000 tax-return request, and evidence/plan builders.
import { z } from "zod";
import type {
  EvaluationRequest,
  Evidence,
  Plan,
  PlanStep,
  ToolCatalog,
  ToolSpec,
} from "../../../lambdas/core/types.ts";

const specs: ToolSpec[] = [
  {
    name: "call_preconditions_api",
    description: "Predicts the deficient conditions for the loan from its metadata.",
    args: z.object({ metadata: z.record(z.string(), z.unknown()) }),
  },
  {
    name: "call_conditions_ai_api",
    description: "Evaluates conditions against documents; one verdict per condition.",
    args: z.object({
      conditions: z.union([z.array(z.looseObject({ id: z.string() })), z.array(z.string()), z.string()]),
      documents: z.array(z.string()),
    }),
  },
  {
    name: "retrieve_s3_document",
    description: "Retrieves one document from S3 with a text preview.",
    args: z.object({ s3_path: z.string() }),
  },
  {
    name: "query_database",
    description: "Historical evaluations of similar loans or of conditions.",
    args: z.object({
      query: z.enum(["similar_loans", "condition_history"]),
      filters: z
        .object({ loan_program: z.string().optional(), classification: z.string().optional() })
        .optional(),
    }),
  },
  {
    name: "llm",
    description: "A language model for a free-form sub-question.",
    args: z.object({ prompt: z.string() }),
  },
];

export function loanTools(names: string[] = specs.map((spec) => spec.name)): ToolCatalog {
  return new Map(specs.filter((spec) => names.includes(spec.name)).map((spec) => [spec.name, spec]));
}

export const TAX_METADATA = {
  loan_program: "Flex Supreme",
  classification: "1120 Corporate Tax Return",
  borrower_info: { entity_name: "Acme Holdings LLC", ein: "12-3456789" },
};

export function taxReturnRequest(overrides: Partial<EvaluationRequest> = {}): EvaluationRequest {
  return {
    metadata: TAX_METADATA,
    instructions: "Evaluate all loan conditions for this tax return",
    s3_pdf_paths: ["rm-conditions/doc1.pdf", "rm-conditions/doc2.pdf"],
    ...overrides,
  };
}

export function planOf(
  steps: Array<Omit<PlanStep, "depends_on"> & { depends_on?: string[] }>,
  levels: string[][],
): Plan {
  return { steps: steps.map((step) => ({ depends_on: [], ...step })), levels, repairs: [] };
}

const T0 = "2026-01-01T00:00:00.000Z";

export function ok(step_id: string, tool: string, output: unknown, args?: Record<string, unknown>): Evidence {
  return {
    step_id,
    tool,
    status: "ok",
    output,
    upstream_errors: [],
    args,
    started_at: T0,
    finished_at: T0,
    duration_ms: 5,
  };
}

export function failed(
  step_id: string,
  tool: string,
  error: string,
  args?: Record<string, unknown>,
): Evidence {
  return {
    step_id,
    tool,
    status: "error",
    error,
    upstream_errors: [],
    args,
    started_at: T0,
    finished_at: T0,
    duration_ms: 5,
  };
}
