import { describe, expect, it } from "vitest";
import type { Evidence } from "../../../lambdas/core/types.ts";
import { createLoanTools } from "../../../lambdas/tools/loan-tools.ts";
import { ToolRegistry } from "../../../lambdas/tools/registry.ts";

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
  it("keeps a retrieved document's facts but only the start of its preview", () => {
    const retrieved = evidence("retrieve_s3_document", {
      path: "a.pdf",
      page_count: 3,
      preview: "x".repeat(2_000),
    });
    const view = registry.forSolver(retrieved).output as {
      path: string;
      page_count: number;
      preview: string;
    };
    expect(view).toMatchObject({ path: "a.pdf", page_count: 3 });
    expect(view.preview).toHaveLength(200);
    expect((retrieved.output as { preview: string }).preview).toHaveLength(2_000);
  });

  it("keeps Conditions AI's verdicts and document statuses, of the extraction report only what was not found", () => {
    const judged = evidence("call_conditions_ai_api", {
      verdicts: [{ condition_id: "TR_EIN_MATCH", status: "insufficient_evidence" }],
      documents: [
        {
          document: "a.pdf",
          status: "read",
          page_count: 3,
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
          unlocated: [{ field: "ein", note: "no EIN label on page 1" }],
        },
        { document: "b.pdf", status: "missing", reason: "b.pdf does not exist" },
      ],
    });
  });

  it("passes other tools' outputs and failed evidence through unchanged", () => {
    const verdicts = evidence("call_preconditions_api", { conditions: [{ id: "TR_SIGNED" }] });
    expect(registry.forSolver(verdicts)).toBe(verdicts);
    const failed = {
      ...evidence("retrieve_s3_document", undefined),
      status: "error" as const,
      error: "gone",
    };
    expect(registry.forSolver(failed)).toBe(failed);
  });
});
