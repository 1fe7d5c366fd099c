// Plan templates (the plan cache): a plan becomes a template with no value of its request left in it, or
// is refused; a template fills in with another request's values exactly where the first one's were.
import { describe, expect, it } from "vitest";
import {
  fillTemplate,
  type PlanTemplate,
  readTemplate,
  requestShape,
  TemplateFillError,
  templateOf,
} from "../../../lambdas/core/plan-template.ts";
import type { EvaluationRequest, PlanStep } from "../../../lambdas/core/types.ts";

const VOCABULARY =
  "PreConditions service: predicts which underwriting conditions apply to the loan. Conditions AI evaluates conditions against the documents. Retrieves one document. Summarize the evidence. Plan for this loan request: evaluate all of its conditions, a tax return or a statement.";

function request(overrides: Partial<EvaluationRequest> = {}): EvaluationRequest {
  return {
    metadata: {
      loan_program: "Flex Supreme",
      classification: "1120 Corporate Tax Return",
      borrower_info: { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 },
      extracted_entities: { ein: "12-3456789", tax_year: 2024 },
    },
    instructions: "Evaluate all loan conditions for this tax return",
    s3_pdf_paths: ["borrowers/doe/1120-signed.pdf", "borrowers/doe/schedule-l.pdf"],
    ...overrides,
  };
}

/** The same shape as request(): another borrower, other documents. */
const other: EvaluationRequest = {
  metadata: {
    loan_program: "Flex Supreme",
    classification: "1120 Corporate Tax Return",
    borrower_info: { name: "Rafael Ortiz", business_name: "Ortiz Freight LLC", monthly_income: 12500 },
    extracted_entities: { ein: "98-7654321", tax_year: 2023 },
  },
  instructions: "Evaluate all loan conditions for this tax return",
  s3_pdf_paths: ["borrowers/ortiz/return.pdf", "borrowers/ortiz/balance-sheet.pdf"],
};

const step = (id: string, tool: string, args: Record<string, unknown>, more: Partial<PlanStep> = {}) => ({
  id,
  tool,
  args,
  depends_on: [],
  ...more,
});

function loanPlan(r: EvaluationRequest): PlanStep[] {
  const [first, second] = r.s3_pdf_paths as [string, string];
  return [
    step(
      "E1",
      "call_preconditions_api",
      { metadata: r.metadata },
      {
        description: `Predict the deficient conditions for ${r.metadata.loan_program} / ${r.metadata.classification}`,
      },
    ),
    step("E2", "retrieve_s3_document", { s3_path: first }, { description: `Check ${first} is readable` }),
    step(
      "E3",
      "call_conditions_ai_api",
      { conditions: "{{E1.conditions}}", documents: [first, second] },
      { depends_on: ["E1", "E2"], description: "Judge each predicted condition against the 2 documents" },
    ),
  ];
}

const shared = (r: EvaluationRequest) => [String(r.metadata.loan_program), String(r.metadata.classification)];

function template(steps: PlanStep[], r = request()): PlanTemplate {
  const outcome = templateOf({ steps, request: r, shared: shared(r), vocabulary: VOCABULARY });
  if ("refused" in outcome) throw new Error(`refused: ${outcome.refused.join("; ")}`);
  return outcome.template;
}

function refusal(steps: PlanStep[], r = request()): string[] {
  const outcome = templateOf({ steps, request: r, shared: shared(r), vocabulary: VOCABULARY });
  return "refused" in outcome ? outcome.refused : [];
}

describe("templateOf", () => {
  it("replaces the metadata and every document path, keeping none of the request's values", () => {
    const made = template(loanPlan(request()));
    const text = JSON.stringify(made);
    for (const value of ["Jane", "Doe", "Acme", "8000", "12-3456789", "2024", "borrowers", "1120-signed"]) {
      expect(text).not.toContain(value);
    }
    expect(made.steps[0]?.args).toEqual({ metadata: "{{request.metadata}}" });
    expect(made.steps[1]?.args).toEqual({ s3_path: "{{request.document#0}}" });
    expect(made.steps[1]?.description).toBe("Check {{request.document#0}} is readable");
    expect(made.steps[2]?.args).toEqual({
      conditions: "{{E1.conditions}}",
      documents: ["{{request.document#0}}", "{{request.document#1}}"],
    });
  });

  it("fills in with another request of the shape exactly as that request's own plan", () => {
    const filled = fillTemplate(template(loanPlan(request())), other);
    expect(filled).toEqual(loanPlan(other));
    expect(JSON.stringify(filled)).not.toMatch(/Jane|Doe|Acme|borrowers\/doe/);
  });

  it("templates a metadata value that is an argument of its own, and keeps its type", () => {
    const steps = [step("E1", "query_database", { query: "similar_loans", filters: { income: 8000 } })];
    const made = template(steps);
    expect(JSON.stringify(made)).not.toContain("8000");
    expect(fillTemplate(made, other)[0]?.args).toEqual({
      query: "similar_loans",
      filters: { income: 12500 },
    });
  });

  it("leaves placeholders whole when a metadata value is a word of one", () => {
    const r = request({ metadata: { ...request().metadata, note: "conditions" } });
    const steps = [
      step("E1", "call_preconditions_api", { metadata: r.metadata }),
      step(
        "E2",
        "llm",
        { prompt: "Summarize {{E1.conditions}} of the Flex Supreme loan" },
        { depends_on: ["E1"] },
      ),
    ];
    const made = template(steps, r);
    expect(made.steps[0]?.args).toEqual({ metadata: "{{request.metadata}}" });
    expect(made.steps[1]?.args.prompt).toMatch(
      /^Summarize \{\{E1\.conditions\}\} of the \{\{request\.metadata#\d+\}\} loan$/,
    );
  });

  it("keeps a plan's own small numbers and empty values as they are", () => {
    const r = request({ metadata: { ...request().metadata, owners: 5, liens: [] } });
    const steps = [
      step("E1", "query_database", { query: "similar_loans", filters: { limit: 5 }, extra: [] }),
    ];
    expect(template(steps, r).steps[0]?.args).toEqual({
      query: "similar_loans",
      filters: { limit: 5 },
      extra: [],
    });
  });

  describe("refuses a plan that would carry its request's data into another run", () => {
    it("a borrower's name, in part, in a description", () => {
      const steps = loanPlan(request());
      steps[0] = { ...(steps[0] as PlanStep), description: "Predict the conditions of Doe's corporation" };
      expect(refusal(steps)).toEqual([
        "step E1 description: holds text of the request's metadata, documents or instructions",
      ]);
    });

    it("a document's file name without its folder, in an llm prompt", () => {
      const steps = [
        ...loanPlan(request()),
        step(
          "E4",
          "llm",
          { prompt: "Summarize 1120-signed.pdf from {{E2.preview}}" },
          { depends_on: ["E2"] },
        ),
      ];
      expect(refusal(steps)).toEqual([
        "step E4 args: holds text of the request's metadata, documents or instructions",
      ]);
    });

    it("a figure the instructions gave, which no placeholder explains", () => {
      const r = request({ instructions: "Check the deposits exceed 41750 a month" });
      const steps = [step("E1", "llm", { prompt: "Do the deposits in {{E2}} exceed 41750?" })];
      expect(refusal(steps, r)).toEqual([
        "step E1 args: holds text of the request's metadata, documents or instructions",
      ]);
    });

    it("a metadata value rewritten (a partial EIN)", () => {
      const steps = [step("E1", "llm", { prompt: "Is the EIN ending 6789 on the return {{E2}}?" })];
      expect(refusal(steps)).not.toEqual([]);
      const name = [step("E1", "llm", { prompt: "Is the return {{E2}} signed by JANE?" })];
      expect(refusal(name)).not.toEqual([]);
    });

    it("the caller's result destination or session", () => {
      const r = request({ output_destination: "s3://results/ortega-trust/", session_id: "hx9921" });
      expect(refusal([step("E1", "llm", { prompt: "Write to the Ortega trust" })], r)).not.toEqual([]);
      expect(refusal([step("E1", "llm", { prompt: "Session hx9921" })], r)).not.toEqual([]);
      expect(refusal([step("E1", "llm", { prompt: "Session hx9921" })])).toEqual([]);
    });

    it("a value found at two places of the request (the template could not say which)", () => {
      const r = request({
        metadata: { ...request().metadata, co_borrower: "Acme Widgets Inc" },
      });
      const steps = [step("E1", "llm", { prompt: "Acme Widgets Inc" })];
      expect(refusal(steps, r)).toContain(
        "step E1 args: a value found at 2 places of the request (ambiguous)",
      );
    });

    it("request data used as an argument's name", () => {
      const steps = [step("E1", "call_preconditions_api", { metadata: { "Jane Q. Doe": true } })];
      expect(refusal(steps)).toEqual([
        "step E1 args (an argument's name): holds text of the request's metadata, documents or instructions",
      ]);
    });

    it("text that already looks like a request placeholder", () => {
      const steps = [step("E1", "llm", { prompt: "Summarize {{request.document#1}}" })];
      expect(refusal(steps)).toEqual(["the template does not fill back into the plan it was made from"]);
    });
  });

  it("keeps what the catalog's words and the shape's own values explain", () => {
    const steps = [
      step("E1", "llm", {
        prompt: "Summarize which conditions apply to a Flex Supreme loan, from {{E2.preview}}",
      }),
    ];
    expect(refusal(steps)).toEqual([]);
  });
});

describe("fillTemplate", () => {
  it("refuses a place the request does not have", () => {
    const made = template(loanPlan(request()));
    const one = { ...other, s3_pdf_paths: ["borrowers/ortiz/return.pdf"] };
    expect(() => fillTemplate(made, one)).toThrow(TemplateFillError);
    expect(() => fillTemplate(made, one)).toThrow("the request has no document #1");
  });
});

describe("readTemplate", () => {
  it("reads a stored template back and refuses a damaged one", () => {
    const made = template(loanPlan(request()));
    expect(readTemplate(JSON.parse(JSON.stringify(made)))).toEqual(made);
    expect(readTemplate({ ...made, version: 2 })).toBeUndefined();
    expect(
      readTemplate({ ...made, steps: [{ id: "E1", tool: "llm", args: "x", depends_on: [] }] }),
    ).toBeUndefined();
  });
});

describe("requestShape", () => {
  const scope = (documents: string[]) => ({
    questions: ["evaluate"],
    exclude_conditions: [],
    documents,
    interpretation: `Evaluating every condition against ${documents.join(" and ")}`,
    fallback: false,
  });

  it("is the same for another borrower's request of the same structure", () => {
    expect(requestShape(other, scope([other.s3_pdf_paths[1] as string]))).toEqual(
      requestShape(request(), scope([request().s3_pdf_paths[1] as string])),
    );
    expect(JSON.stringify(requestShape(request(), scope(request().s3_pdf_paths)))).not.toMatch(/Jane|doe/);
  });

  it("differs with the documents' count or kinds, the metadata's structure, or the scope's documents", () => {
    const base = requestShape(request(), undefined);
    expect(requestShape(request({ s3_pdf_paths: ["a.pdf"] }), undefined)).not.toEqual(base);
    expect(requestShape(request({ s3_pdf_paths: ["a.pdf", "b.png"] }), undefined)).not.toEqual(base);
    const fewer = { ...request().metadata, borrower_info: { name: "Jane Q. Doe" } };
    expect(requestShape(request({ metadata: fewer }), undefined)).not.toEqual(base);
    const paths = request().s3_pdf_paths;
    expect(requestShape(request(), scope([paths[0] as string]))).not.toEqual(
      requestShape(request(), scope([paths[1] as string])),
    );
  });
});
