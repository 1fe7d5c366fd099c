import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeBankingTools } from "../../../lambdas/agents/banking/banking-tools.ts";
import { createLoanTools } from "../../../lambdas/agents/loan/loan-tools.ts";
import type { Evidence } from "../../../lambdas/core/types.ts";
import { defineTool, ToolRegistry } from "../../../lambdas/tools/registry.ts";

const registry = new ToolRegistry(
  createLoanTools(() => {
    throw new Error("not executed in this test");
  }),
);

const evidence = (tool: string, output: unknown): Evidence => ({
  step_id: "E2",
  tool,
  status: "ok",
  output,
  upstream_errors: [],
  started_at: "2025-01-01T00:00:00.000Z",
  finished_at: "2025-01-01T00:00:00.010Z",
  duration_ms: 10,
});

describe("what the solver reads of the evidence", () => {
  it("keeps what a retrieved document is, not where and when it was stored, and only the start of its preview", () => {
    const retrieved = evidence("retrieve_s3_document", {
      path: "a.pdf",
      uri: "s3://documents/a.pdf",
      size: 12_714,
      last_modified: "2025-01-01T00:00:00.000Z",
      content_type: "application/pdf",
      page_count: 3,
      has_text_layer: true,
      preview: "x".repeat(2_000),
    });
    expect(registry.forSolver(retrieved).output).toEqual({
      path: "a.pdf",
      content_type: "application/pdf",
      page_count: 3,
      has_text_layer: true,
      preview: "x".repeat(200),
    });
    expect((retrieved.output as { preview: string }).preview).toHaveLength(2_000);
  });

  it("keeps PreConditions' predictions and why, not the values Conditions AI was given", () => {
    const predicted = evidence("call_preconditions_api", {
      loan_program: "Flex Supreme",
      classification: "Bank Statements",
      conditions: [
        {
          id: "BS_NAME_MATCH",
          title: "Account holder is the borrower",
          reason: 'verify every statement\'s account holder is "Jane Q. Doe"',
          verifiable: true,
          expected: { borrower_name: "Jane Q. Doe" },
        },
        {
          id: "BS_LARGE_DEPOSITS",
          reason: "monthly income unknown",
          verifiable: false,
          missing_input: "borrower_info.monthly_income",
          expected: {},
        },
      ],
      filtered_out: [],
    });
    expect(registry.forSolver(predicted).output).toEqual({
      loan_program: "Flex Supreme",
      classification: "Bank Statements",
      conditions: [
        {
          id: "BS_NAME_MATCH",
          title: "Account holder is the borrower",
          reason: 'verify every statement\'s account holder is "Jane Q. Doe"',
        },
        {
          id: "BS_LARGE_DEPOSITS",
          reason: "monthly income unknown",
          missing_input: "borrower_info.monthly_income",
          verifiable: false,
        },
      ],
    });
    const narrowed = evidence("call_preconditions_api", {
      conditions: [],
      filtered_out: [{ id: "BS_NO_NSF", reason: "not asked for" }],
    });
    expect(registry.forSolver(narrowed).output).toEqual(narrowed.output);
  });

  it("keeps Conditions AI's verdicts (not the values their reasons state) and document statuses, of the extraction report only what was not found and of the identification only the kind", () => {
    const judged = evidence("call_conditions_ai_api", {
      verdicts: [{ condition_id: "TR_EIN_MATCH", status: "insufficient_evidence", observed: { ein: null } }],
      documents: [
        {
          document: "a.pdf",
          status: "read",
          page_count: 3,
          identification: {
            kind: "form_1120",
            description: "a Form 1120 (U.S. Corporation Income Tax Return)",
            page: 1,
            excerpt: "Form 1120  U.S. Corporation Income Tax Return",
          },
          extraction: {
            kind: "form_1120",
            fields: [
              {
                field: "corporation_name",
                found: true,
                value: "Acme",
                page: 1,
                excerpt: "Acme",
                confidence: 1,
              },
              { field: "ein", found: false, note: "no EIN label on page 1" },
            ],
          },
        },
        { document: "b.pdf", status: "missing", reason: "b.pdf does not exist" },
      ],
    });
    expect(registry.forSolver(judged).output).toEqual({
      verdicts: [{ condition_id: "TR_EIN_MATCH", status: "insufficient_evidence" }],
      documents: [
        {
          document: "a.pdf",
          status: "read",
          page_count: 3,
          kind: "form_1120",
          unlocated: [{ field: "ein", note: "no EIN label on page 1" }],
        },
        { document: "b.pdf", status: "missing", reason: "b.pdf does not exist" },
      ],
    });
  });

  it("passes other tools' outputs and failed evidence through unchanged", () => {
    const history = evidence("query_database", { query: "similar_loans", results: [] });
    expect(registry.forSolver(history)).toBe(history);
    const unexpected = evidence("call_preconditions_api", { predicted: "TR_SIGNED" });
    expect(registry.forSolver(unexpected).output).toEqual({ predicted: "TR_SIGNED" });
    const failed = {
      ...evidence("retrieve_s3_document", undefined),
      status: "error" as const,
      error: "gone",
    };
    expect(registry.forSolver(failed)).toBe(failed);
  });
});

describe("tool names in any case", () => {
  const withBanking = new ToolRegistry(
    createLoanTools(() => {
      throw new Error("not executed in this test");
    }),
    {
      banking_assistant: describeBankingTools(() => {
        throw new Error("not executed in this test");
      }),
    },
  );

  it("finds the registered tool for `LLM`, `Llm` and `GET_BALANCE`", () => {
    expect(withBanking.get("LLM").name).toBe("llm");
    expect(withBanking.get("Llm").name).toBe("llm");
    expect(withBanking.get("GET_BALANCE").name).toBe("get_balance");
    expect(withBanking.get("retrieve_s3_document").name).toBe("retrieve_s3_document");
  });

  it("still refuses a name no tool has", () => {
    expect(() => withBanking.get("LLM2")).toThrow(/^unknown tool "LLM2"; known tools: /);
  });

  it("applies a tool's solver view to evidence that names it in another case", () => {
    const retrieved = evidence("Retrieve_S3_Document", { path: "a.pdf", uri: "s3://d/a.pdf", preview: "x" });
    expect(withBanking.forSolver(retrieved).output).not.toHaveProperty("uri");
  });

  it("refuses to register two tools whose names differ only in case", () => {
    const named = (name: string) =>
      defineTool({
        name,
        description: name,
        args: z.object({}),
        timeout_ms: 1_000,
        run: async () => null,
      });
    expect(() => new ToolRegistry([named("lookup"), named("Lookup")])).toThrow(
      'tool "Lookup" differs from the registered "lookup" only in case; plans name tools without regard to case',
    );
  });
});
