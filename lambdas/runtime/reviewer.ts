// The reviews the ReviewPlan and ReviewResult states record: the rules' review, and with a hosted
// model (bedrock, openai; scripted in tests) and an agent that has reviewer prompts, one more call
// to the reviewer model whose answer can only lower it (lambdas/core/model-review.ts). The offline rule-based provider has no judgement to
// add, so it is not called: no LLM call, no usage. A model answer that cannot be used leaves the
// rules' review with a minor issue saying so; a failing call (throttling, an unreachable endpoint)
// fails the state like the planner's and the solver's do, so the workflow retries it.
import type { Logger } from "@aws-lambda-powertools/logger";
import { mergeReviews, parseModelReview, withUnusableModelReview } from "../core/model-review.ts";
import { type PlanReviewInput, type ResultReviewInput, reviewPlan, reviewResult } from "../core/review.ts";
import type { EvaluationRequest, Review } from "../core/types.ts";
import { isCutOff } from "../llm/types.ts";
import { countedCompletion } from "../llm/usage.ts";
import type { Services } from "./services.ts";

export interface ReviewerRun {
  runId: string;
  services: Pick<Services, "llm" | "runs">;
  log: Logger;
  /**
   * False for a plan no model wrote (legacy runs' fixed plan): the rules judge it alone, as a
   * model's opinion of the code's own plan is not worth a call.
   */
  askModel?: boolean;
}

export async function reviewPlanWithModel(
  input: PlanReviewInput,
  threshold: number | undefined,
  run: ReviewerRun,
): Promise<Review> {
  const rules = reviewPlan(input, threshold);
  const { reviewerPrompt } = input;
  if (run.askModel === false || !reviewerPrompt) return rules;
  return withModel("plan", rules, threshold, run, () =>
    reviewerPrompt({
      request: input.request,
      plan: input.plan,
      tools: input.tools,
      ...(input.scope ? { scope: input.scope } : {}),
      rules,
    }),
  );
}

export async function reviewResultWithModel(
  input: ResultReviewInput & { request: EvaluationRequest },
  threshold: number | undefined,
  run: ReviewerRun,
): Promise<Review> {
  const rules = reviewResult(input, threshold);
  const { reviewerPrompt } = input;
  if (run.askModel === false || !reviewerPrompt) return rules;
  return withModel("result", rules, threshold, run, () =>
    reviewerPrompt({
      request: input.request,
      result: input.result,
      evidence: input.evidence,
      ...(input.scope ? { scope: input.scope } : {}),
      rules,
    }),
  );
}

async function withModel(
  target: "plan" | "result",
  rules: Review,
  threshold: number | undefined,
  { runId, services, log }: ReviewerRun,
  render: () => { system: string; prompt: string },
): Promise<Review> {
  const { provider, model } = services.llm.reviewer;
  if (provider.name === "rule-based") return rules;
  const { system, prompt } = render();
  // Paid for whether or not the answer is usable (a guardrail's intervention included).
  const completion = await countedCompletion(
    provider,
    { system, prompt, ...(model ? { model } : {}), context: { purpose: "review", target, rules } },
    (usage) => services.runs.addUsage(runId, usage),
  );
  const parsed = parseModelReview(completion.text);
  if (!parsed.ok) {
    const cutOff = isCutOff(completion.stop_reason);
    const problems = cutOff
      ? [`the answer was cut off (${completion.stop_reason})`, ...parsed.problems]
      : parsed.problems;
    log.warn("model review unusable; the rule-based review stands", {
      target,
      model: completion.model,
      problems,
    });
    return withUnusableModelReview(rules, problems, threshold);
  }
  const merged = mergeReviews(rules, parsed.review, threshold);
  log.info("model review merged", {
    target,
    model: completion.model,
    usage: completion.usage,
    model_criteria: parsed.review.criteria,
    model_issues: parsed.review.issues.length,
    score: merged.score,
  });
  return merged;
}
