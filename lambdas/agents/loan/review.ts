// The loan agent's rules for the engine's reviewers (lambdas/core/review.ts): the steps its plan
// must contain for what the instructions asked, lookups only when asked for, every document in
// scope read; and a result checked against the PreConditions and Conditions AI evidence it rests
// on. Pure.
import {
  documentPaths,
  type PlanReviewInput,
  type PlanReviewRules,
  type ResultReviewInput,
  reviewPlan,
  reviewResult,
} from "../../core/review.ts";
import type { EvaluationRequest, Evidence, Plan, Review, ReviewIssue, RunResult } from "../../core/types.ts";
import type { InstructionScope } from "./instructions/interpret.ts";
import { judgesConditions, loanEvaluationProfileFor } from "./profiles.ts";

/** Lookups a plan may make only when the instructions ask for them. */
const ASKED_LOOKUPS: Record<string, ReadonlyArray<string>> = {
  query_database: ["history", "similar_loans"],
};

/** The loan rules for a plan made within `scope`: its required steps, and what the scope asks of it. */
export function loanPlanReviewRules(
  request: EvaluationRequest,
  scope: InstructionScope | undefined,
): PlanReviewRules {
  return {
    profile: loanEvaluationProfileFor(scope),
    stepIssues: (step) => {
      const asked = ASKED_LOOKUPS[step.tool];
      if (asked && scope && !asked.some((question) => scope.questions.includes(question as never))) {
        return [
          {
            criterion: "relevance",
            severity: "minor",
            message: `${step.id} ${step.tool} answers a question the instructions did not ask`,
            ref: step.id,
          },
        ];
      }
      return [];
    },
    planIssues: (plan: Plan) => {
      if (!judgesConditions(scope)) return [];
      const wanted = scope?.documents ?? request.s3_pdf_paths;
      const read = new Set(plan.steps.flatMap((step) => documentPaths(step.args)));
      return wanted
        .filter((document) => !read.has(document))
        .map((document) => ({
          criterion: "completeness" as const,
          severity: "major" as const,
          message: `no step reads ${document}`,
          ref: document,
        }));
    },
  };
}

/** The engine's plan review with the loan rules for `scope`: what the plan reviewer's rules find in a loan plan. */
export function reviewLoanPlan(
  input: Omit<PlanReviewInput, keyof PlanReviewRules | "scope"> & { scope?: InstructionScope },
  threshold?: number,
): Review {
  const { scope, ...rest } = input;
  return reviewPlan({ ...rest, ...loanPlanReviewRules(input.request, scope) }, threshold);
}

/** The engine's result review with the loan rules for `scope`: what the result reviewer's rules find in a loan answer. */
export function reviewLoanResult(
  input: Omit<ResultReviewInput, "resultIssues" | "scope"> & { scope?: InstructionScope },
  threshold?: number,
): Review {
  const { scope, ...rest } = input;
  return reviewResult(
    { ...rest, resultIssues: (result, evidence) => loanResultIssues(result, evidence, scope) },
    threshold,
  );
}

interface EngineVerdict {
  condition_id: string;
  status: string;
  citations: Array<{ document: string; page: number; excerpt: string }>;
}

/**
 * The loan rules' issues with a result, after the engine's: every predicted condition judged (or
 * listed, when only which apply was asked), none the instructions excluded, verdicts and citations
 * as the evidence has them, a recommendation per unfulfilled condition.
 */
export function loanResultIssues(
  result: RunResult,
  evidence: Evidence[],
  scope: InstructionScope | undefined,
): ReviewIssue[] {
  const issues: ReviewIssue[] = [];
  const predicted = predictedConditions(evidence);
  const verdicts = engineVerdicts(evidence);
  const judged = [
    ...result.fulfilled_conditions.map((finding) => ({ ...finding, status: finding.status ?? "fulfilled" })),
    ...result.unfulfilled_conditions.map((finding) => ({
      ...finding,
      status: finding.status ?? "not_fulfilled",
    })),
  ];
  const judgedIds = new Set(judged.map((finding) => finding.id));

  if (judgesConditions(scope)) {
    for (const id of predicted) {
      if (!judgedIds.has(id)) {
        issues.push({
          criterion: "completeness",
          severity: "major",
          message: `${id} applies to the loan but the result does not judge it`,
          ref: id,
        });
      }
    }
  } else {
    const listed = new Set((result.applicable_conditions ?? []).map((finding) => finding.id));
    for (const id of predicted) {
      if (!listed.has(id)) {
        issues.push({
          criterion: "completeness",
          severity: "major",
          message: `${id} applies to the loan but is not listed`,
          ref: id,
        });
      }
    }
  }

  for (const finding of judged) {
    if (scope?.exclude_conditions.includes(finding.id)) {
      issues.push({
        criterion: "relevance",
        severity: "major",
        message: `${finding.id} is judged although the instructions excluded it`,
        ref: finding.id,
      });
    }
    const engine = verdicts.get(finding.id);
    const citations = finding.citations ?? [];
    if (finding.status === "fulfilled" && citations.length === 0) {
      // Backed by a cited engine verdict, the answer only fails to show it; otherwise nothing backs it.
      const backed = engine?.status === "fulfilled" && engine.citations.length > 0;
      issues.push({
        criterion: backed ? "quality" : "safety",
        severity: backed ? "major" : "critical",
        message: `${finding.id} is fulfilled without a citation`,
        ref: finding.id,
      });
    }
    if (finding.status !== "insufficient_evidence" && !engine) {
      issues.push({
        criterion: "safety",
        severity: finding.status === "fulfilled" ? "critical" : "major",
        message: `${finding.id} is ${finding.status} but no evidence judged it`,
        ref: finding.id,
      });
    }
    if (engine && engine.status !== finding.status) {
      issues.push({
        criterion: "safety",
        severity: finding.status === "fulfilled" ? "critical" : "major",
        message: `${finding.id} is ${finding.status} in the result but ${engine.status} in the evidence`,
        ref: finding.id,
      });
    }
    for (const citation of citations) {
      const known = engine?.citations.some(
        (cited) =>
          cited.document === citation.document &&
          (citation.page === undefined || cited.page === citation.page) &&
          (!citation.excerpt ||
            cited.excerpt.includes(citation.excerpt) ||
            citation.excerpt.includes(cited.excerpt)),
      );
      if (!known) {
        issues.push({
          criterion: "quality",
          severity: "major",
          message: `${finding.id} cites ${citation.document}${citation.page ? ` page ${citation.page}` : ""}, which the evidence does not cite`,
          ref: finding.id,
        });
      }
    }
    if (finding.status !== "fulfilled" && !recommends(result.recommendations, finding)) {
      issues.push({
        criterion: "completeness",
        severity: "minor",
        message: `no recommendation for ${finding.id}`,
        ref: finding.id,
      });
    }
  }
  return issues;
}

/** The condition ids PreConditions predicted (its evidence's `conditions[].id`). */
function predictedConditions(evidence: Evidence[]): string[] {
  const ids = new Set<string>();
  for (const item of evidence) {
    if (item.tool !== "call_preconditions_api" || item.status !== "ok") continue;
    const conditions = (item.output as { conditions?: unknown } | undefined)?.conditions;
    if (!Array.isArray(conditions)) continue;
    for (const condition of conditions) {
      const id = (condition as { id?: unknown })?.id;
      if (typeof id === "string") ids.add(id.toUpperCase());
    }
  }
  return [...ids];
}

/** Conditions AI's verdicts by condition id, the latest evidence winning (after a replan). */
function engineVerdicts(evidence: Evidence[]): Map<string, EngineVerdict> {
  const verdicts = new Map<string, EngineVerdict>();
  for (const item of evidence) {
    if (item.tool !== "call_conditions_ai_api" || item.status !== "ok") continue;
    const list = (item.output as { verdicts?: unknown } | undefined)?.verdicts;
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const verdict = raw as Partial<EngineVerdict>;
      if (typeof verdict.condition_id !== "string" || typeof verdict.status !== "string") continue;
      verdicts.set(verdict.condition_id.toUpperCase(), {
        condition_id: verdict.condition_id,
        status: verdict.status,
        citations: Array.isArray(verdict.citations) ? verdict.citations : [],
      });
    }
  }
  return verdicts;
}

function recommends(recommendations: string[], finding: { id: string; title?: string }): boolean {
  const remedies = (finding as { remedies?: unknown }).remedies;
  if (Array.isArray(remedies) && remedies.length > 0) return true;
  const needles = [finding.id, finding.title].filter((text): text is string => Boolean(text?.trim()));
  return recommendations.some((line) =>
    needles.some((needle) => line.toLowerCase().includes(needle.toLowerCase())),
  );
}
