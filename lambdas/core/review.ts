// Deterministic reviewers of a plan and of a result (the offline reviewers; a model reviewer answers
// in the same shape). Each criterion (relevance, completeness, safety, quality) starts at 10 and loses
// points per issue found: a critical issue takes it to 1, a major one costs 4, a minor one 1. The
// score is the rounded mean of the criteria; a review is approved when the score reaches the
// threshold and no issue is critical. An agent adds its own rules (AgentProfileModule.reviewRules):
// they are scored with the engine's. Pure: the evidence comes in resolved (outputs read from S3).

import { noFindings } from "../contracts/run-result.ts";
import type { AgentProfileModule } from "./agent-profiles.ts";
import { type AnswerWords, noToolCalled } from "./interaction.ts";
import type { PlanReviewPromptInput, ResultReviewPromptInput } from "./model-review.ts";
import type { RenderedPrompt } from "./prompts.ts";
import type {
  AgentProfile,
  EvaluationRequest,
  Evidence,
  InstructionReading,
  IssueSeverity,
  Plan,
  PlanStep,
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

/** What an agent's rules add to the engine's review of a plan (AgentProfileModule.reviewRules). */
export interface PlanReviewRules {
  /** The steps the plan must contain; absent: none. */
  profile?: AgentProfile;
  /** Issues with one step, after the engine's check that its tool is the agent's. */
  stepIssues?: (step: PlanStep) => ReviewIssue[];
  /** Issues with the whole plan, after the required steps' check. */
  planIssues?: (plan: Plan) => ReviewIssue[];
}

export interface PlanReviewInput extends PlanReviewRules {
  /** The agent's prompt for a hosted reviewer model; absent: the rules judge alone. */
  reviewerPrompt?: (input: PlanReviewPromptInput) => RenderedPrompt;
  plan: Plan;
  request: EvaluationRequest;
  /** The tools the registry knows. */
  tools: ReadonlySet<string>;
  /** How the instructions were read, in the agent's words (for a model reviewer). */
  scope?: string;
  maxSteps?: number;
}

/** The review input of a plan: the agent's rules for it, the registry's tools, the reading's description. */
export function planReviewInput(
  agent: AgentProfileModule,
  plan: Plan,
  request: EvaluationRequest,
  tools: ToolCatalog,
  maxSteps: number,
): PlanReviewInput {
  return {
    ...agent.reviewRules?.plan?.(plan, request),
    plan,
    request,
    tools: new Set(tools.keys()),
    ...(plan.scope ? { scope: describeReading(agent, plan.scope) } : {}),
    ...(agent.reviewerPrompts ? { reviewerPrompt: agent.reviewerPrompts.plan } : {}),
    maxSteps,
  };
}

/** A reading of the instructions as prompts show it: in the agent's words, or its interpretation. */
export function describeReading(agent: AgentProfileModule, reading: InstructionReading): string {
  return agent.describeReading ? agent.describeReading(reading) : reading.interpretation;
}

export function reviewPlan(input: PlanReviewInput, threshold?: number): Review {
  const { plan, request, tools } = input;
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
    issues.push(...(input.stepIssues?.(step) ?? []));
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

  for (const required of input.profile?.required_steps ?? []) {
    if (!plan.steps.some((step) => step.tool === required.tool)) {
      issues.push({
        criterion: "completeness",
        severity: "major",
        message: `no ${required.tool} step: ${required.description}`,
      });
    }
  }
  issues.push(...(input.planIssues?.(plan) ?? []));

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
  /** How the instructions were read, in the agent's words (for a model reviewer). */
  scope?: string;
  /** The agent's prompt for a hosted reviewer model; absent: the rules judge alone. */
  reviewerPrompt?: (input: ResultReviewPromptInput) => RenderedPrompt;
  /** The agent's own issues with the result (AgentProfileModule.reviewRules), after the engine's. */
  resultIssues?: (result: RunResult, evidence: Evidence[]) => ReviewIssue[];
}

/** The review input of a result: the agent's rules for it, the reading's description. */
export function resultReviewInput(
  agent: AgentProfileModule,
  result: RunResult,
  evidence: Evidence[],
  plan: Pick<Plan, "scope">,
): ResultReviewInput {
  const rules = agent.reviewRules?.result;
  return {
    result,
    evidence,
    ...(plan.scope ? { scope: describeReading(agent, plan.scope) } : {}),
    ...(agent.reviewerPrompts ? { reviewerPrompt: agent.reviewerPrompts.result } : {}),
    ...(rules
      ? { resultIssues: (answer: RunResult, items: Evidence[]) => rules(answer, items, plan.scope) }
      : {}),
  };
}

export function reviewResult(input: ResultReviewInput, threshold?: number): Review {
  const { result, evidence } = input;
  const issues: ReviewIssue[] = [];
  if (!result.summary.trim())
    issues.push({ criterion: "quality", severity: "minor", message: "the summary is empty" });
  issues.push(...(input.resultIssues?.(result, evidence) ?? []));
  return scoreReview(issues, threshold);
}

/** Document paths a step's args name: `s3_path` and `documents[]`. */
export function documentPaths(args: Record<string, unknown>): string[] {
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
  words?: AnswerWords,
): RunResult {
  const findings = review.issues.map((issue) => `${issue.message} (${issue.criterion}, ${issue.severity})`);
  if (target === "plan" || !result) {
    return {
      summary: `Needs review: the agent's plan scored ${review.score}/10 in review, so ${noToolCalled(words)}.`,
      ...noFindings(),
      missing_information: findings,
      recommendations: [
        `Have ${words?.reviewer ?? "a person"} review this request, or correct it (documents, metadata, instructions) and start a new evaluation`,
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
