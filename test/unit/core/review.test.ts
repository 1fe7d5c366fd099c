// The offline reviewers: a sound plan and a sound result pass with 10; each kind of flaw a reviewer
// exists to catch lowers its criterion, and the dangerous ones (an unknown tool, a document the
// caller did not send, a verdict without evidence) refuse approval whatever the score.
import { describe, expect, it } from "vitest";
import { reviewLoanPlan, reviewLoanResult } from "../../../lambdas/agents/loan/review.ts";
import { scoreReview } from "../../../lambdas/core/review.ts";
import type { EvaluationRequest, Evidence, Plan, RunResult } from "../../../lambdas/core/types.ts";

const DOC = "rm/1120-unsigned.pdf";
const REQUEST: EvaluationRequest = {
  metadata: { loan_program: "Flex Supreme", classification: "1120 Corporate Tax Return" },
  s3_pdf_paths: [DOC],
};
const TOOLS = new Set([
  "call_preconditions_api",
  "retrieve_s3_document",
  "call_conditions_ai_api",
  "query_database",
]);

const PLAN: Plan = {
  steps: [
    {
      id: "E1",
      tool: "call_preconditions_api",
      args: { metadata: REQUEST.metadata },
      depends_on: [],
      description: "Predict",
    },
    { id: "E2", tool: "retrieve_s3_document", args: { s3_path: DOC }, depends_on: [], description: "Read" },
    {
      id: "E3",
      tool: "call_conditions_ai_api",
      args: { conditions: "{{E1.conditions}}", documents: [DOC] },
      depends_on: ["E1", "E2"],
      description: "Judge",
    },
  ],
  levels: [["E1", "E2"], ["E3"]],
  repairs: [],
};

const SIGNED_EXCERPT = "Signature of officer  Date  Title";
const EIN_EXCERPT = "Acme Widgets, Inc.  12-3456789";

function evidence(step_id: string, tool: string, output: unknown): Evidence {
  const at = "2026-11-23T12:00:00.000Z";
  return {
    step_id,
    tool,
    status: "ok",
    output,
    upstream_errors: [],
    started_at: at,
    finished_at: at,
    duration_ms: 1,
  };
}

const EVIDENCE: Evidence[] = [
  evidence("E1", "call_preconditions_api", { conditions: [{ id: "TR_SIGNED" }, { id: "TR_EIN_MATCH" }] }),
  evidence("E2", "retrieve_s3_document", { path: DOC, page_count: 3 }),
  evidence("E3", "call_conditions_ai_api", {
    verdicts: [
      {
        condition_id: "TR_SIGNED",
        status: "not_fulfilled",
        citations: [{ document: DOC, page: 1, excerpt: SIGNED_EXCERPT }],
      },
      {
        condition_id: "TR_EIN_MATCH",
        status: "fulfilled",
        citations: [{ document: DOC, page: 1, excerpt: EIN_EXCERPT }],
      },
    ],
  }),
];

const RESULT: RunResult = {
  summary: "1 of 2 conditions fulfilled.",
  fulfilled_conditions: [
    {
      id: "TR_EIN_MATCH",
      status: "fulfilled",
      citations: [{ document: DOC, page: 1, excerpt: EIN_EXCERPT }],
    },
  ],
  unfulfilled_conditions: [
    {
      id: "TR_SIGNED",
      status: "not_fulfilled",
      title: "Tax return signed and dated by an officer",
      citations: [{ document: DOC, page: 1, excerpt: SIGNED_EXCERPT }],
    },
  ],
  missing_information: [],
  recommendations: ["TR_SIGNED: Have an officer sign and date the Sign Here block"],
};

const clone = <T>(value: T): T => structuredClone(value);

describe("scoreReview", () => {
  it("scores each criterion from 10 down by its issues, the score as their rounded mean", () => {
    expect(scoreReview([])).toEqual({
      approved: true,
      score: 10,
      criteria: { relevance: 10, completeness: 10, safety: 10, quality: 10 },
      issues: [],
    });
    const review = scoreReview([
      { criterion: "completeness", severity: "major", message: "a" },
      { criterion: "completeness", severity: "major", message: "b" },
      { criterion: "quality", severity: "minor", message: "c" },
    ]);
    expect(review.criteria).toEqual({ relevance: 10, completeness: 2, safety: 10, quality: 9 });
    expect(review.score).toBe(8);
    expect(review.approved).toBe(true);
    // Below the threshold, or any critical issue, is not approved.
    expect(scoreReview([{ criterion: "safety", severity: "critical", message: "x" }]).approved).toBe(false);
    expect(scoreReview([], 11).approved).toBe(false);
  });
});

describe("reviewPlan", () => {
  const review = (plan: Plan, request = REQUEST) => reviewLoanPlan({ plan, request, tools: TOOLS });

  it("approves a sound plan with 10", () => {
    expect(review(PLAN)).toMatchObject({ approved: true, score: 10, issues: [] });
  });

  it("catches an unknown tool, a document the caller did not send, a missing step and a skipped document", () => {
    const unknown = clone(PLAN);
    unknown.steps.push({ id: "E4", tool: "wire_money", args: {}, depends_on: [], description: "x" });
    expect(review(unknown)).toMatchObject({ approved: false, criteria: { relevance: 1 } });

    const foreign = clone(PLAN);
    foreign.steps[1] = {
      ...PLAN.steps[1],
      id: "E2",
      args: { s3_path: "rm/someone-else.pdf" },
    } as Plan["steps"][number];
    const leaked = review(foreign);
    expect(leaked.approved).toBe(false);
    expect(leaked.issues.map((issue) => issue.message)).toContain(
      "E2 reads rm/someone-else.pdf, which is not one of the request's documents",
    );

    const incomplete = clone(PLAN);
    incomplete.steps = incomplete.steps.filter((step) => step.tool !== "call_conditions_ai_api");
    const missing = review(incomplete, { ...REQUEST, s3_pdf_paths: [DOC, "rm/schedule-l.pdf"] });
    expect(missing.criteria.completeness).toBeLessThan(5);
    expect(missing.issues.map((issue) => issue.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^no call_conditions_ai_api step/),
        "no step reads rm/schedule-l.pdf",
      ]),
    );
  });

  it("notes repeated steps, steps without a description and lookups nobody asked for", () => {
    const sloppy = clone(PLAN);
    sloppy.steps.push({ id: "E4", tool: "retrieve_s3_document", args: { s3_path: DOC }, depends_on: [] });
    sloppy.steps.push({
      id: "E5",
      tool: "query_database",
      args: { query: "similar_loans" },
      depends_on: [],
      description: "x",
    });
    const result = reviewLoanPlan({
      plan: sloppy,
      request: REQUEST,
      tools: TOOLS,
      scope: { questions: ["evaluate"], exclude_conditions: [], interpretation: "", fallback: false },
    });
    expect(result.approved).toBe(true);
    expect(result.issues.map((issue) => issue.message)).toEqual([
      "E4 has no description",
      "E5 query_database answers a question the instructions did not ask",
      "E4 repeats E2 (same tool, same args)",
    ]);
    expect(result.score).toBeLessThan(10);
  });
});

describe("reviewResult", () => {
  const review = (result: RunResult, items = EVIDENCE) => reviewLoanResult({ result, evidence: items });

  it("approves a result that judges every predicted condition from the evidence with 10", () => {
    expect(review(RESULT)).toMatchObject({ approved: true, score: 10, issues: [] });
  });

  it("refuses a verdict the evidence contradicts, a fulfilled one without a citation or without evidence", () => {
    const flipped = clone(RESULT);
    const signed = flipped.unfulfilled_conditions.pop();
    if (!signed) throw new Error("fixture");
    flipped.fulfilled_conditions.push({ ...signed, status: "fulfilled" });
    expect(review(flipped)).toMatchObject({ approved: false, criteria: { safety: 1 } });
    expect(review(flipped).issues.map((i) => i.message)).toContain(
      "TR_SIGNED is fulfilled in the result but not_fulfilled in the evidence",
    );

    // Without a citation: a flaw when the evidence has a cited verdict behind it, unbacked otherwise.
    const uncited = clone(RESULT);
    (uncited.fulfilled_conditions[0] as { citations: unknown[] }).citations = [];
    expect(review(uncited).issues).toEqual([
      {
        criterion: "quality",
        severity: "major",
        message: "TR_EIN_MATCH is fulfilled without a citation",
        ref: "TR_EIN_MATCH",
      },
    ]);
    expect(review(uncited).approved).toBe(true);
    const unbacked = review(uncited, EVIDENCE.slice(0, 2));
    expect(unbacked.approved).toBe(false);
    expect(unbacked.issues.filter((i) => i.severity === "critical").map((i) => i.message)).toEqual([
      "TR_EIN_MATCH is fulfilled without a citation",
      "TR_EIN_MATCH is fulfilled but no evidence judged it",
    ]);

    const withoutEvidence = review(RESULT, EVIDENCE.slice(0, 2));
    expect(withoutEvidence.approved).toBe(false);
    expect(withoutEvidence.issues.map((i) => i.message)).toContain(
      "TR_EIN_MATCH is fulfilled but no evidence judged it",
    );
  });

  it("catches a predicted condition left out, an invented citation and a missing recommendation", () => {
    const partial = clone(RESULT);
    partial.fulfilled_conditions = [];
    partial.recommendations = [];
    const unsigned = partial.unfulfilled_conditions[0];
    if (!unsigned) throw new Error("fixture");
    unsigned.citations = [{ document: DOC, page: 2, excerpt: "Officer signature on file" }];
    const flawed = review(partial);
    expect(flawed.issues.map((i) => i.message)).toEqual([
      "TR_EIN_MATCH applies to the loan but the result does not judge it",
      "TR_SIGNED cites rm/1120-unsigned.pdf page 2, which the evidence does not cite",
      "no recommendation for TR_SIGNED",
    ]);
    expect(flawed.criteria.completeness).toBe(5);
    expect(flawed.criteria.quality).toBe(6);
  });

  it("checks the listed conditions when the instructions asked only which apply", () => {
    const scope = {
      questions: ["applicable" as const],
      exclude_conditions: [],
      interpretation: "",
      fallback: false,
    };
    const listing: RunResult = {
      ...RESULT,
      fulfilled_conditions: [],
      unfulfilled_conditions: [],
      applicable_conditions: [{ id: "TR_SIGNED" }],
    };
    const review = reviewLoanResult({ result: listing, evidence: EVIDENCE.slice(0, 1), scope });
    expect(review.issues.map((i) => i.message)).toEqual([
      "TR_EIN_MATCH applies to the loan but is not listed",
    ]);
  });
});
