import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  argsJsonSchema,
  DEFAULT_PLANNER_PROMPT,
  DEFAULT_SOLVER_PROMPT,
  describeTools,
  EVIDENCE_CHAR_BUDGET,
  renderEvidence,
  renderPlannerPrompt,
  renderSolverPrompt,
} from "../../../lambdas/core/prompts.ts";
import { failed, loanTools, ok, planOf, TAX_METADATA, taxReturnRequest } from "../llm/fixtures.ts";

const TOOL_ARGS: Record<string, string[]> = {
  call_preconditions_api: ["metadata"],
  call_conditions_ai_api: ["conditions", "documents"],
  retrieve_s3_document: ["s3_path"],
  query_database: ["query", "filters"],
  llm: ["prompt"],
};

describe("describeTools", () => {
  it("lists every tool with its description and the names of its args", () => {
    const text = describeTools(loanTools());

    for (const [name, args] of Object.entries(TOOL_ARGS)) {
      const line = text.split("\n").findIndex((l) => l.startsWith(`- ${name}: `));
      expect(line, name).toBeGreaterThanOrEqual(0);
      const argsLine = text.split("\n")[line + 1] ?? "";
      for (const arg of args) expect(argsLine, `${name}.${arg}`).toContain(`"${arg}"`);
    }
    expect(text).toContain("Predicts the deficient conditions for the loan from its metadata.");
  });

  it("renders args as compact JSON Schema without zod's bookkeeping", () => {
    expect(argsJsonSchema(loanTools().get("query_database")?.args ?? z.object({}))).toEqual({
      type: "object",
      properties: {
        query: { type: "string", enum: ["similar_loans", "condition_history"] },
        filters: {
          type: "object",
          properties: { loan_program: { type: "string" }, classification: { type: "string" } },
        },
      },
      required: ["query"],
    });
    expect(argsJsonSchema(z.object({ metadata: z.record(z.string(), z.unknown()) }))).toEqual({
      type: "object",
      properties: { metadata: { type: "object" } },
      required: ["metadata"],
    });
    expect(describeTools(loanTools())).not.toContain("$schema");
  });

  it("keeps going when a schema has no JSON Schema form", () => {
    const odd = z.object({ when: z.date(), check: z.custom<string>(() => true) });
    expect(() => argsJsonSchema(odd)).not.toThrow();
  });
});

describe("renderPlannerPrompt", () => {
  it("fills the default template with the tools, the request and the step limit", () => {
    const { system, prompt } = renderPlannerPrompt({
      request: taxReturnRequest(),
      tools: loanTools(),
      maxSteps: 7,
    });

    expect(system).toMatch(/planner of a loan underwriting conditions agent/);
    expect(prompt).toContain(describeTools(loanTools()));
    expect(prompt).toContain(`Metadata: ${JSON.stringify(TAX_METADATA)}`);
    expect(prompt).toContain("Instructions: Evaluate all loan conditions for this tax return");
    expect(prompt).toContain('Documents: ["rm-conditions/doc1.pdf","rm-conditions/doc2.pdf"]');
    expect(prompt).toContain("Use at most 7 steps.");
    expect(prompt).toMatch(/MUST call call_preconditions_api .* and then call_conditions_ai_api/);
    expect(prompt).toContain('"conditions": "{{E1.conditions}}"');
    expect(prompt).toContain("query_database ONLY when the instructions ask about history");
    expect(prompt.trimEnd().endsWith("Output ONLY the JSON array. No prose, no markdown fences.")).toBe(true);
    expect(prompt).not.toMatch(/\{(tool_descriptions|request|max_steps)\}/);
  });

  it("falls back to the default instructions", () => {
    const { prompt } = renderPlannerPrompt({
      request: taxReturnRequest({ instructions: undefined }),
      tools: loanTools(),
      maxSteps: 8,
    });
    expect(prompt).toContain("Instructions: Evaluate all loan conditions\n");
  });

  it("uses an override template, substituting each slot once", () => {
    const { prompt } = renderPlannerPrompt({
      request: taxReturnRequest({ instructions: "literally {max_steps}", s3_pdf_paths: ["a.pdf"] }),
      tools: loanTools(["llm"]),
      maxSteps: 3,
      template: "T:{tool_descriptions}|R:{request}|N:{max_steps}|{unknown}|{{E1}}",
    });

    expect(prompt).toBe(
      `T:${describeTools(loanTools(["llm"]))}|R:Metadata: ${JSON.stringify(TAX_METADATA)}\nInstructions: literally {max_steps}\nDocuments: ["a.pdf"]|N:3|{unknown}|{{E1}}`,
    );
  });

  it("exports templates with the documented slots", () => {
    for (const slot of ["{tool_descriptions}", "{request}", "{max_steps}"])
      expect(DEFAULT_PLANNER_PROMPT).toContain(slot);
    for (const slot of ["{request}", "{plan}", "{evidence}"]) expect(DEFAULT_SOLVER_PROMPT).toContain(slot);
  });
});

describe("renderSolverPrompt", () => {
  const plan = planOf(
    [
      {
        id: "E1",
        tool: "call_preconditions_api",
        args: { metadata: TAX_METADATA },
        description: "Predict conditions",
      },
      { id: "E2", tool: "retrieve_s3_document", args: { s3_path: "rm-conditions/x.pdf" } },
      {
        id: "E3",
        tool: "call_conditions_ai_api",
        args: { conditions: "{{E1.conditions}}", documents: ["x"] },
        depends_on: ["E1", "E2"],
      },
      { id: "E4", tool: "query_database", args: { query: "similar_loans" } },
    ],
    [["E1", "E2", "E4"], ["E3"]],
  );

  it("renders the plan, then the evidence in plan order with failures and missing steps named", () => {
    const evidence = [
      ok("E3", "call_conditions_ai_api", { verdicts: [{ condition_id: "TR_SIGNED", status: "fulfilled" }] }),
      ok("E1", "call_preconditions_api", { conditions: [{ id: "TR_SIGNED" }] }),
      failed("E2", "retrieve_s3_document", "NoSuchKey: The specified key does not exist."),
    ];

    const { system, prompt } = renderSolverPrompt({ request: taxReturnRequest(), plan, evidence });

    expect(system).toMatch(/solver of a loan underwriting conditions agent/);
    expect(prompt).toContain(
      [
        `E1 = call_preconditions_api(${JSON.stringify({ metadata: TAX_METADATA })}) — Predict conditions`,
        'E2 = retrieve_s3_document({"s3_path":"rm-conditions/x.pdf"})',
        'E3 = call_conditions_ai_api({"conditions":"{{E1.conditions}}","documents":["x"]}) after E1, E2',
        'E4 = query_database({"query":"similar_loans"})',
      ].join("\n"),
    );
    expect(prompt).toContain(
      [
        'E1 (call_preconditions_api) OK: {"conditions":[{"id":"TR_SIGNED"}]}',
        "E2 (retrieve_s3_document) FAILED: NoSuchKey: The specified key does not exist.",
        'E3 (call_conditions_ai_api) OK: {"verdicts":[{"condition_id":"TR_SIGNED","status":"fulfilled"}]}',
        "E4 (query_database) NOT RUN: no evidence was recorded",
      ].join("\n"),
    );
    expect(prompt).toContain("Never mark a condition fulfilled without evidence");
    expect(prompt).toContain("name every such step in missing_information");
    expect(prompt).toContain('"status": "not_fulfilled" | "insufficient_evidence"');
    expect(prompt).not.toMatch(/\{(request|plan|evidence)\}/);
  });

  it("bounds each step's evidence with a truncation marker", () => {
    const preview = "x".repeat(EVIDENCE_CHAR_BUDGET * 2);
    const text = renderEvidence(plan, [ok("E2", "retrieve_s3_document", { preview })]);
    const line = text.split("\n")[1] ?? "";

    const rendered = JSON.stringify({ preview });
    expect(line).toBe(
      `E2 (retrieve_s3_document) OK: ${rendered.slice(0, EVIDENCE_CHAR_BUDGET)}…[truncated ${rendered.length - EVIDENCE_CHAR_BUDGET} of ${rendered.length} chars]`,
    );
  });

  it("says where evidence too large to inline lives, and shows upstream errors", () => {
    const offloaded = {
      ...ok("E1", "call_preconditions_api", undefined),
      output_ref: "s3://artifacts/runs/r1/E1.json",
    };
    const upstream = {
      ...failed("E3", "call_conditions_ai_api", "placeholder {{E1.conditions}} unresolved"),
      upstream_errors: ["E1 failed"],
    };

    const text = renderEvidence(plan, [offloaded, upstream], 100);

    expect(text.split("\n")[0]).toBe(
      "E1 (call_preconditions_api) OK: output stored at s3://artifacts/runs/r1/E1.json and not inlined",
    );
    expect(text.split("\n")[2]).toBe(
      "E3 (call_conditions_ai_api) FAILED: placeholder {{E1.conditions}} unresolved [upstream: E1 failed]",
    );
  });
});
