// Deterministic reviewers of a plan and of a result (the offline reviewers; a model reviewer answers
// in the same shape). Each criterion (relevance, completeness, safety, quality) starts at 10 and loses
// points per issue found: a critical issue takes it to 1, a major one costs 4, a minor one 1. The
// score is the rounded mean of the criteria; a review is approved when the score reaches the
// threshold and no issue is critical. Pure: the evidence comes in resolved (outputs read from S3).

import { judgesConditions, loanEvaluationProfileFor } from "../agents/loan/profiles.ts";
import type { InstructionScope } from "./instructions.ts";
import type {
  AgentProfile,
  EvaluationRequest,
  Evidence,
  IssueSeverity,
  Plan,
  Review,
  ReviewCriterion,
  ReviewIssue,
  RunResult,
  ToolCatalog,
} from "./types.ts";

export type { IssueSeverity, Review, ReviewCriterion, ReviewIssue } from "./types.ts";

export const REVIEW_CRITERIA = [
  "relevance",
  "completeness",
  "safety",
  "quality",
] as const satisfies readonly ReviewCriterion[];

/** Scores below it send a plan back to the planner, a result to a person. */
export const DEFAULT_REVIEW_THRESHOLD = 5;

const COST: Record<IssueSeverity, number> = { minor: 1, major: 4, critical: 9 };

/** Scores issues into a review against a threshold. */
export function scoreReview(issues: ReviewIssue[], threshold = DEFAULT_REVIEW_THRESHOLD): Review {
  const criteria = Object.fromEntries(
    REVIEW_CRITERIA.map((criterion) => {
      const lost = issues
        .filter((issue) => issue.criterion === criterion)
        .reduce((sum, issue) => sum + COST[issue.severity], 0);
      return [criterion, Math.max(1, 10 - lost)];
    }),
  ) as Record<ReviewCriterion, number>;
  return settleReview(criteria, issues, threshold);
}

/** The score (rounded mean of the criteria) and the approval (the threshold reached, no critical issue). */
export function settleReview(
  criteria: Record<ReviewCriterion, number>,
  issues: ReviewIssue[],
  threshold = DEFAULT_REVIEW_THRESHOLD,
): Review {
  const score = Math.round(REVIEW_CRITERIA.reduce((sum, c) => sum + criteria[c], 0) / REVIEW_CRITERIA.length);
  const critical = issues.some((issue) => issue.severity === "critical");
  return { approved: score >= threshold && !critical, score, criteria, issues };
}

// ---------------------------------------------------------------- plan

export interface PlanReviewInput {
  plan: Plan;
  request: EvaluationRequest;
  profile: AgentProfile;
  /** The tools the registry knows. */
  tools: ReadonlySet<string>;
  scope?: InstructionScope;
  maxSteps?: number;
}

/** The review input of a loan plan: the profile and scope it was planned for, the registry's tools. */
export function loanPlanReviewInput(
  plan: Plan,
  request: EvaluationRequest,
  tools: ToolCatalog,
  maxSteps: number,
): PlanReviewInput {
  return {
    plan,
    request,
    profile: loanEvaluationProfileFor(plan.scope),
    tools: new Set(tools.keys()),
    ...(plan.scope ? { scope: plan.scope } : {}),
    maxSteps,
  };
}

/** Lookups a plan may make only when the instructions ask for them. */
const ASKED_LOOKUPS: Record<string, ReadonlyArray<string>> = {
  query_database: ["history", "similar_loans"],
};

export function reviewPlan(input: PlanReviewInput, threshold?: number): Review {
  const { plan, request, profile, tools, scope } = input;
  const issues: ReviewIssue[] = [];
  const documents = new Set(request.s3_pdf_paths);

  for (const step of plan.steps) {
    if (!tools.has(step.tool)) {
      issues.push({
        criterion: "relevance",
        severity: "critical",
        message: `${step.id} calls ${step.tool}, which is not a tool of this agent`,
        ref: step.id,
      });
    }
    const asked = ASKED_LOOKUPS[step.tool];
    if (asked && scope && !asked.some((question) => scope.questions.includes(question as never))) {
      issues.push({
        criterion: "relevance",
        severity: "minor",
        message: `${step.id} ${step.tool} answers a question the instructions did not ask`,
        ref: step.id,
      });
    }
    for (const path of documentPaths(step.args)) {
      if (!documents.has(path)) {
        issues.push({
          criterion: "safety",
          severity: "critical",
          message: `${step.id} reads ${path}, which is not one of the request's documents`,
          ref: step.id,
        });
      }
    }
    if (!step.description?.trim()) {
      issues.push({
        criterion: "quality",
        severity: "minor",
        message: `${step.id} has no description`,
        ref: step.id,
      });
    }
  }

  for (const required of profile.required_steps) {
    if (!plan.steps.some((step) => step.tool === required.tool)) {
      issues.push({
        criterion: "completeness",
        severity: "major",
        message: `no ${required.tool} step: ${required.description}`,
      });
    }
  }
  if (judgesConditions(scope)) {
    const wanted = scope?.documents ?? request.s3_pdf_paths;
    const read = new Set(plan.steps.flatMap((step) => documentPaths(step.args)));
    for (const document of wanted) {
      if (!read.has(document)) {
        issues.push({
          criterion: "completeness",
          severity: "major",
          message: `no step reads ${document}`,
          ref: document,
        });
      }
    }
  }

  const seen = new Map<string, string>();
  for (const step of plan.steps) {
    const key = `${step.tool}\u0000${stableJson(step.args)}`;
    const first = seen.get(key);
    if (first) {
      issues.push({
        criterion: "quality",
        severity: "minor",
        message: `${step.id} repeats ${first} (same tool, same args)`,
        ref: step.id,
      });
    } else seen.set(key, step.id);
  }
  for (const repair of plan.repairs) {
    issues.push({ criterion: "completeness", severity: "minor", message: `repaired: ${repair.message}` });
  }
  if (input.maxSteps !== undefined && plan.steps.length > input.maxSteps) {
    issues.push({
      criterion: "quality",
      severity: "major",
      message: `${plan.steps.length} steps, more than the ${input.maxSteps} allowed`,
    });
  }
  return scoreReview(issues, threshold);
}

// ---------------------------------------------------------------- result

export interface ResultReviewInput {
  result: RunResult;
  /** The run's evidence with outputs resolved. */
  evidence: Evidence[];
  scope?: InstructionScope;
}

interface EngineVerdict {
  condition_id: string;
  status: string;
  citations: Array<{ document: string; page: number; excerpt: string }>;
}

export function reviewResult(input: ResultReviewInput, threshold?: number): Review {
  const { result, evidence, scope } = input;
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

  if (!result.summary.trim())
    issues.push({ criterion: "quality", severity: "minor", message: "the summary is empty" });

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
  return scoreReview(issues, threshold);
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

/** Document paths a step's args name: `s3_path` and `documents[]`. */
function documentPaths(args: Record<string, unknown>): string[] {
  const paths: string[] = [];
  if (typeof args.s3_path === "string") paths.push(args.s3_path);
  if (Array.isArray(args.documents))
    paths.push(...args.documents.filter((item): item is string => typeof item === "string"));
  return paths;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

// ---------------------------------------------------------------- fallback answer

/**
 * The answer of a run that ends NEEDS_REVIEW. A plan that failed review ran no tool: the answer
 * says so and lists what the reviewer found. A result that failed review is kept, marked, and the
 * reviewer's findings become what a person should check before relying on it.
 */
export function needsReviewAnswer(
  target: "plan" | "result",
  review: Review,
  result: RunResult | undefined,
): RunResult {
  const findings = review.issues.map((issue) => `${issue.message} (${issue.criterion}, ${issue.severity})`);
  if (target === "plan" || !result) {
    return {
      summary: `Needs review: the agent's plan scored ${review.score}/10 in review, so no tool was called and no condition was judged.`,
      fulfilled_conditions: [],
      unfulfilled_conditions: [],
      missing_information: findings,
      recommendations: [
        "Have an underwriter review this request, or correct it (documents, metadata, instructions) and start a new evaluation",
      ],
    };
  }
  return {
    ...result,
    summary: `Needs review: the answer scored ${review.score}/10 against its evidence. ${result.summary}`,
    recommendations: [
      ...result.recommendations,
      ...findings.map((finding) => `Check before relying on this answer: ${finding}`),
    ],
  };
}
