// PLAN REVIEW (between Plan and the levels): the plan is scored before any tool runs. A plan below
// the threshold goes back to the planner once with the reviewer's issues (within the replan
// budget); if the new plan still scores below, the run ends NEEDS_REVIEW without calling a tool.
import type { Logger } from "@aws-lambda-powertools/logger";
import type { Holdings } from "../agents/banking/preflight.ts";
import { profileModule, runQuestions } from "../agents/registry.ts";
import { approvalRequired, mayAsk, nextWait, type WaitDecision } from "../core/interaction.ts";
import { planReviewInput, scoreReview } from "../core/review.ts";
import { isTerminal, type Plan, type Review } from "../core/types.ts";
import { maxStepsFor, PlanValidationError } from "../core/validate.ts";
import { reviewPlanWithModel } from "../runtime/reviewer.ts";
import type { Services } from "../runtime/services.ts";
import type { MetaItem } from "../store/runs.ts";
import { rememberReviewedPlan } from "./plan-cache.ts";
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

/** The verdict a refused request reports: no plan was found wanting; the request cannot work. */
const refusedVerdict: Review = scoreReview([]);

/**
 * The request checked against what its customer holds (the profile's check), after every wait: an
 * answer may name an account that is not theirs either. A detail the holdings refute is asked again
 * (its question names the choices), one they settle is filled in, and a request that cannot work is
 * refused before anyone is asked to confirm it.
 */
async function checkedRun(
  meta: MetaItem,
  services: Services,
  log: Logger,
  holdings: HoldingsReader | undefined,
): Promise<MetaItem> {
  const profile = profileModule(meta.profile);
  if (!profile.check || !meta.customer_id || !meta.plan || meta.refusal) return meta;
  // Once decided, what was confirmed is what runs: nothing is rewritten after the customer's yes (the
  // transfer's own transaction still refuses what the balance no longer covers).
  if (meta.approval && meta.approval.status !== "pending") return meta;
  if (!holdings)
    throw new Error("this function cannot read customers' holdings: CORE_BANKING_TABLE is not set");
  const checked = profile.check(meta.request, await holdings(meta.customer_id), {
    tools: services.tools.catalog(profile.name),
    maxSteps: maxStepsFor(meta.request, services.config.maxSteps),
    scope: meta.plan.scope,
  });
  if (checked.refusal) {
    log.info("the request cannot be carried out; refused before confirmation", { refusal: checked.refusal });
    if (!(await services.runs.updateRun(meta.run_id, { refusal: checked.refusal }))) {
      throw new Error(`run ${meta.run_id} ended while it was being checked`);
    }
    return { ...meta, refusal: checked.refusal };
  }
  if (checked.request === meta.request) return meta;
  if (!checked.plan) {
    // Only what the customer will confirm is named (the account and payee as their holdings have them).
    if (!(await services.runs.updateRun(meta.run_id, { request: checked.request }))) {
      throw new Error(`run ${meta.run_id} ended while it was being checked`);
    }
    return { ...meta, request: checked.request };
  }
  // An answered question whose answer the holdings refute is asked again: the next wait asks anew.
  const askAgain =
    meta.clarification?.status === "answered" &&
    runQuestions({ request: checked.request, profile: meta.profile }, checked.plan, services.tools).length >
      0;
  const next = { ...meta, request: checked.request, plan: checked.plan };
  if (
    !(await services.runs.updateRun(meta.run_id, {
      request: checked.request,
      plan: checked.plan,
      ...(askAgain ? { clarification: null } : {}),
    }))
  ) {
    throw new Error(`run ${meta.run_id} ended while it was being checked`);
  }
  await services.publisher.publish(meta.run_id, { stage: "plan", plan: checked.plan });
  if (askAgain) delete next.clarification;
  return next;
}

/** What a customer holds (accounts, payees), read to check a request before it is confirmed. */
export type HoldingsReader = (customerId: string) => Promise<Holdings>;

export async function reviewPlanRun(
  runId: string,
  services: Services,
  log: Logger,
  holdings?: HoldingsReader,
): Promise<PlanReviewOutput> {
  const { runs, publisher, config, catalog } = services;
  const read = await runs.getMeta(runId);
  if (isTerminal(read.status)) throw new Error(`run ${runId} is already ${read.status}; not reviewing it`);
  if (!read.plan) throw new Error(`run ${runId} has no plan to review`);
  const meta = await checkedRun(read, services, log, holdings);
  const plan = meta.plan as Plan;
  if (meta.refusal) {
    // Nothing to confirm: the request cannot work. Finalize ends the run with the refusal.
    return { ...reviewedOutput(meta, plan, meta.plan_review ?? refusedVerdict, services), rejected: true };
  }
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
          planReviewInput(profile, candidate, meta.request, catalog, maxSteps),
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
  await rememberReviewedPlan(
    meta,
    { plan: final, approved: verdict.approved, replanned: final !== plan },
    services,
    log,
  );
  return reviewedOutput(meta, final, verdict, services);
}
