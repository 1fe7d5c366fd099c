// PLAN REVIEW (between Plan and the levels): the plan is scored before any tool runs. A plan below
// the threshold goes back to the planner once with the reviewer's issues (within the replan
// budget); if the new plan still scores below, the run ends NEEDS_REVIEW without calling a tool.
import type { Logger } from "@aws-lambda-powertools/logger";
import { profileModule, runQuestions } from "../core/agent-profiles.ts";
import { approvalRequired, mayAsk, nextWait, type WaitDecision } from "../core/interaction.ts";
import { maxStepsFor } from "../core/profiles.ts";
import { loanPlanReviewInput } from "../core/review.ts";
import { isTerminal, type Plan, type Review } from "../core/types.ts";
import { PlanValidationError } from "../core/validate.ts";
import { reviewPlanWithModel } from "../runtime/reviewer.ts";
import type { Services } from "../runtime/services.ts";
import type { MetaItem } from "../store/runs.ts";
import { askPlanner, type PlanOutput, plannerScope, planOutput } from "./plan-run.ts";

export interface PlanReviewOutput extends PlanOutput, WaitDecision {
  /** True: the plan did not pass review; the run goes to Finalize, which ends it NEEDS_REVIEW. */
  needs_review: boolean;
}

/**
 * What follows the review: Finalize (needs review, rejected), a wait for the caller's answer or the
 * operator's approval, or the levels. The ReviewPlan state runs again after every wait, so this is
 * read from the run each time.
 */
export function reviewedOutput(
  meta: Pick<MetaItem, "request" | "clarification" | "approval" | "mode" | "profile">,
  plan: Plan,
  review: Review,
  services: Pick<Services, "config" | "tools" | "now">,
): PlanReviewOutput {
  const { config } = services;
  const legacy = meta.mode === "legacy";
  const wait = review.approved
    ? nextWait({
        request: meta.request,
        ...(meta.clarification ? { clarification: meta.clarification } : {}),
        ...(meta.approval ? { approval: meta.approval } : {}),
        // Legacy requests (the original API) never pause: their callers expect an answer, not a question.
        questions: legacy ? [] : runQuestions(meta, plan, services.tools),
        mayAsk: !legacy && mayAsk(meta.request, config.clarificationByDefault),
        approvalRequired: !legacy && approvalRequired(meta.request, config.approvalByDefault),
        waitSeconds: config.waitSeconds,
        now: services.now(),
      })
    : { wait_for: "none" as const, wait_seconds: 1, rejected: false };
  return { ...planOutput(plan, meta.request, config), needs_review: !review.approved, ...wait };
}

export async function reviewPlanRun(
  runId: string,
  services: Services,
  log: Logger,
): Promise<PlanReviewOutput> {
  const { runs, publisher, config, catalog } = services;
  const meta = await runs.getMeta(runId);
  if (isTerminal(meta.status)) throw new Error(`run ${runId} is already ${meta.status}; not reviewing it`);
  const plan = meta.plan;
  if (!plan) throw new Error(`run ${runId} has no plan to review`);
  if (meta.plan_review) {
    // A retried review: the verdict stands (and was announced).
    return reviewedOutput(meta, plan, meta.plan_review, services);
  }
  const maxSteps = maxStepsFor(meta.request, config.maxSteps);
  const profile = profileModule(meta.profile);
  const review = async (candidate: Plan): Promise<Review> =>
    profile.reviewPlan
      ? profile.reviewPlan(candidate, meta.request, config.reviewThreshold)
      : reviewPlanWithModel(
          loanPlanReviewInput(candidate, meta.request, catalog, maxSteps),
          config.reviewThreshold,
          { runId, services, log, askModel: meta.mode !== "legacy" },
        );

  let final = plan;
  let verdict = await review(plan);
  const replans = meta.replans ?? 0;
  if (!verdict.approved && meta.mode !== "legacy" && replans < config.maxReplans) {
    await publisher.publish(runId, { stage: "review", target: "plan", ...verdict });
    log.warn("plan below the review threshold; planning again", {
      score: verdict.score,
      issues: verdict.issues,
    });
    const failures = verdict.issues.map(
      (issue) => `plan review (${issue.criterion}, ${issue.severity}): ${issue.message}`,
    );
    try {
      const { plan: written } = await askPlanner(
        runId,
        meta.request,
        plan.scope ?? plannerScope(meta.request, meta.profile),
        { previous: plan, evidence: [], failures },
        services,
        log,
        meta.profile,
      );
      if (await runs.replacePlan(runId, written, replans)) {
        await publisher.publish(runId, {
          stage: "replan",
          attempt: replans + 1,
          reason: `the plan scored ${verdict.score}/10 in review: ${verdict.issues.map((issue) => issue.message).join("; ")}`,
          failed_steps: [],
        });
        await publisher.publish(runId, { stage: "plan", plan: written });
        final = written;
        verdict = await review(written);
      }
    } catch (error) {
      // A new plan that does not validate leaves the reviewed one, and its verdict, in place.
      if (!(error instanceof PlanValidationError)) throw error;
      log.warn("the plan asked again was invalid", { issues: error.issues });
    }
  }
  // The verdict is stored with its event's seq: one round trip.
  await publisher.publish(runId, { stage: "review", target: "plan", ...verdict }, { plan_review: verdict });
  log.info("plan reviewed", { score: verdict.score, approved: verdict.approved });
  return reviewedOutput(meta, final, verdict, services);
}
