// PLANNER (ReWOO step 1): one LLM call turns the request into a plan; the plan is parsed and
// validated before anything runs, then stored. Returns only ids for the state machine. With the plan
// cache on, a request of a shape planned before takes that plan instead, with no call (plan-cache.ts).
// Legacy runs (POST /v1/evaluate-loan-conditions, the legacy endpoint: docs/architecture.md, "Where this
// project comes from") skip the LLM: their plan is the fixed PreConditions → Conditions AI pair that the
// loan profile requires anyway.
import type { Logger } from "@aws-lambda-powertools/logger";
import { loanEvaluationProfile } from "../agents/loan/profiles.ts";
import { profileModule } from "../agents/registry.ts";
import { chosenTemplate } from "../core/agent-profiles.ts";
import { renderPlannerPrompt } from "../core/prompts.ts";
import { reconcilePlan } from "../core/replan.ts";
import { describeReading } from "../core/review.ts";
import {
  type EvaluationRequest,
  type InstructionReading,
  isTerminal,
  type Plan,
  type ProfileName,
} from "../core/types.ts";
import { maxStepsFor, normalizePlan, PlanValidationError } from "../core/validate.ts";
import type { ReplanContext } from "../llm/types.ts";
import { countedCompletion } from "../llm/usage.ts";
import type { Services } from "../runtime/services.ts";
import { cachedPlan } from "./plan-cache.ts";
import { plannerScope } from "./scope.ts";

export interface PlanOutput {
  levels: string[][];
  max_concurrency: number;
  step_count: number;
  /** Replan only: true when the levels are a new plan's (or unfinished steps of the current one) to run. */
  replanned?: boolean;
  /** Replan only: the new plan acts, so it goes through the plan review (and its approval) before it runs. */
  review_again?: boolean;
}

export const LEGACY_PLAN_NOTE =
  "legacy mode (POST /v1/evaluate-loan-conditions): fixed plan PreConditions → Conditions AI, no planner LLM call";

export async function planRun(runId: string, services: Services, log: Logger): Promise<PlanOutput> {
  const { runs, publisher, config } = services;
  const { request, status, plan: stored, mode = "rewoo", profile } = await runs.getMeta(runId);
  if (isTerminal(status)) {
    // Cancelled (or failed to start) before the planner ran: neither pay for an LLM call nor announce a plan.
    throw new Error(`run ${runId} is already ${status}; not planning it`);
  }
  if (stored) {
    // A retried Plan task or a resumed run: the plan was made, paid for and announced already.
    log.info("plan already stored; planner not called again");
    return planOutput(stored, request, config);
  }

  const cached =
    mode === "legacy"
      ? undefined
      : await cachedPlan({ run_id: runId, request, mode, profile }, services, log);
  const { plan, request: read } =
    mode === "legacy"
      ? { plan: fixedPlan(request, services), request }
      : cached
        ? { plan: cached, request }
        : await writtenPlan(runId, request, profile, services, log);

  // The planner's reading of the message (a hosted banking planner) becomes the run's request.
  const reread = read === request ? {} : { request: read };
  const source = mode === "legacy" ? {} : { plan_source: cached ? ("cache" as const) : ("planner" as const) };
  if (!(await runs.updateRun(runId, { status: "RUNNING", plan, ...source, ...reread }))) {
    // Cancelled while the planner was thinking: the plan would only confuse the finished run's event stream.
    const { status: now } = await runs.getMeta(runId);
    throw new Error(`run ${runId} became ${now} while it was being planned; plan discarded`);
  }
  await publisher.publish(runId, { stage: "plan", plan });
  return planOutput(plan, read, config);
}

export function planOutput(plan: Plan, request: EvaluationRequest, config: Services["config"]): PlanOutput {
  return {
    levels: plan.levels,
    max_concurrency: request.options?.parallel === false ? 1 : config.workerConcurrency,
    step_count: plan.steps.length,
  };
}

/**
 * ReWOO: the planner LLM writes the plan; validation repairs what it can and rejects the rest. A
 * plan that fails validation goes back to the planner with its issues, within the replan budget.
 */
async function writtenPlan(
  runId: string,
  request: EvaluationRequest,
  profile: ProfileName | undefined,
  services: Services,
  log: Logger,
): Promise<PlannedRequest> {
  const scope = plannerScope(request, profile);
  let replan: ReplanContext | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await askPlanner(runId, request, scope, replan, services, log, profile);
    } catch (error) {
      if (!(error instanceof PlanValidationError) || attempt >= services.config.maxReplans) throw error;
      const failures = error.issues.map((issue) => `the plan was invalid: ${issue}`);
      log.warn("plan invalid; planning again", { issues: error.issues });
      await services.runs.countReplan(runId);
      await services.publisher.publish(runId, {
        stage: "replan",
        attempt: attempt + 1,
        reason: `the plan was invalid: ${error.issues.join("; ")}`,
        failed_steps: [],
      });
      replan = { previous: { steps: [], levels: [], repairs: [] }, evidence: [], failures };
    }
  }
}

export { plannerScope } from "./scope.ts";

export interface PlannedRequest {
  plan: Plan;
  /** The request as the planner read it (the same object when it read nothing new). */
  request: EvaluationRequest;
}

/** One planner call: the prompt (with the scope and, when planning again, what went wrong), parsed and validated. */
export async function askPlanner(
  runId: string,
  request: EvaluationRequest,
  scope: InstructionReading | undefined,
  replan: ReplanContext | undefined,
  services: Services,
  log: Logger,
  profileName?: ProfileName,
): Promise<PlannedRequest> {
  const { runs, llm, tools, config } = services;
  const profile = profileModule(profileName);
  const catalog = tools.catalog(profile.name);
  const maxSteps = maxStepsFor(request, config.maxSteps);
  const finished = (replan?.evidence ?? [])
    .filter((item) => item.status === "ok")
    .map((item) => item.step_id);
  const { system, prompt } = renderPlannerPrompt({
    request,
    tools: catalog,
    maxSteps,
    ...(scope ? { scope: describeReading(profile, scope) } : {}),
    ...(replan ? { replan: { previous: replan.previous, failures: replan.failures, finished } } : {}),
    ...(profile.plannerPrompt
      ? {
          system: profile.plannerPrompt.system,
          template: chosenTemplate(profile.plannerPrompt, config.llm.plannerPrompt),
        }
      : {}),
    ...(profile.defaultInstructions ? { defaultInstructions: profile.defaultInstructions } : {}),
  });
  // The call is paid for whether or not its plan is usable (a guardrail's intervention included).
  const completion = await countedCompletion(
    llm.planner.provider,
    {
      system,
      prompt,
      ...(llm.planner.model ? { model: llm.planner.model } : {}),
      context: {
        purpose: "planner",
        request,
        tools: catalog,
        maxSteps,
        ...(scope ? { scope } : {}),
        ...(replan ? { replan } : {}),
        ...(profileName ? { profile: profileName } : {}),
      },
    },
    (usage) => runs.addUsage(runId, usage),
  );
  log.info("planner completed", {
    model: completion.model,
    usage: completion.usage,
    // Models passed over for a fallback (throttled, unavailable), with why.
    ...(completion.fallbacks ? { fallbacks: completion.fallbacks } : {}),
  });

  const read = profile.readRequest?.(completion.text, request);
  if (read?.problems.length)
    log.warn("the planner's reading of the request was unusable", { problems: read.problems });
  const planned = read?.request ?? request;
  const plan = profile.planFromText(completion.text, { tools: catalog, maxSteps, request: planned, scope });
  for (const repair of plan.repairs) log.warn("plan repaired", { repair });
  return { plan, request: planned };
}

/**
 * After the levels ran: when a step the profile requires ended in error and the replan budget
 * allows, the planner plans again with what failed; the new plan reuses finished evidence (same
 * tool, same args: the worker does not call the tool again). Returns `replanned: false` to go on
 * to Solve. A retried or resumed Replan that finds steps of the current plan without evidence
 * runs them (the new plan was stored, its levels had not run).
 */
export async function replanRun(runId: string, services: Services, log: Logger): Promise<PlanOutput> {
  const { runs, evidence: evidenceStore, publisher, config } = services;
  const meta = await runs.getMeta(runId);
  if (isTerminal(meta.status)) throw new Error(`run ${runId} is already ${meta.status}; not replanning it`);
  const plan = meta.plan;
  if (!plan) throw new Error(`run ${runId} has no plan to check`);
  const evidence = await evidenceStore.ofPlan(runId, plan);
  const byStep = new Map(evidence.map((item) => [item.step_id, item]));
  const output = planOutput(plan, meta.request, config);
  if (plan.steps.some((step) => !byStep.has(step.id))) return { ...output, replanned: true };

  const replans = meta.replans ?? 0;
  const profile = profileModule(meta.profile);
  // A step that was never called because an input failed (upstream errors) did not act.
  const acted = evidence.filter(
    (item) =>
      profile.actingTools?.has(item.tool) && (item.status === "ok" || item.upstream_errors.length === 0),
  );
  if (acted.length > 0) {
    // What an acting step did (or was fenced off from doing) is told as it is; a new plan could act twice.
    log.warn("a step that acts has run; not planning again", {
      steps: acted.map((item) => `${item.step_id} ${item.tool} ${item.status}`),
    });
    return { ...output, replanned: false };
  }
  const required = profile.requiredTools(plan, meta.request);
  const failedRequired = plan.steps.filter(
    (step) => required.has(step.tool) && byStep.get(step.id)?.status === "error",
  );
  if (failedRequired.length === 0 || replans >= config.maxReplans || meta.mode === "legacy") {
    return { ...output, replanned: false };
  }

  const failures = evidence
    .filter((item) => item.status === "error")
    .map((item) => `${item.step_id} ${item.tool} failed: ${item.error ?? "unknown error"}`);
  const reason = failedRequired
    .map((step) => `${step.id} ${step.tool} failed: ${byStep.get(step.id)?.error ?? "unknown error"}`)
    .join("; ");
  log.warn("a required step failed; planning again", { failures });
  const { plan: written } = await askPlanner(
    runId,
    meta.request,
    plan.scope ?? plannerScope(meta.request, meta.profile),
    { previous: plan, evidence, failures },
    services,
    log,
    meta.profile,
  );
  const finished = new Set(evidence.filter((item) => item.status === "ok").map((item) => item.step_id));
  const { plan: next, reused } = reconcilePlan(plan, finished, written);
  // A new plan that would act is reviewed, and confirmed by whoever confirmed the old one, again.
  const reviewAgain = next.steps.some((step) => profile.actingTools?.has(step.tool));
  if (!(await runs.replacePlan(runId, next, replans, { reviewAgain }))) {
    // Another invocation replanned first (a duplicate delivery), or the run ended meanwhile.
    const now = await runs.getMeta(runId);
    if (isTerminal(now.status))
      throw new Error(`run ${runId} became ${now.status} while it was being replanned`);
    return { ...planOutput(now.plan ?? plan, now.request, config), replanned: true };
  }
  log.info("replanned", { reused, steps: next.steps.length });
  await publisher.publish(runId, {
    stage: "replan",
    attempt: replans + 1,
    reason,
    failed_steps: failedRequired.map((step) => step.id),
  });
  await publisher.publish(runId, { stage: "plan", plan: next });
  return {
    ...planOutput(next, meta.request, config),
    replanned: true,
    ...(reviewAgain ? { review_again: true } : {}),
  };
}

/**
 * Legacy: an empty plan that the loan profile completes with exactly its required steps, so the
 * fixed orchestration and the ReWOO one can never disagree on what those steps are. max_steps is
 * not applied: it caps what a planner writes, and the legacy endpoint's two-step flow never had such a cap.
 */
function fixedPlan(request: EvaluationRequest, services: Services): Plan {
  const plan = normalizePlan([], { tools: services.catalog, profile: loanEvaluationProfile, request });
  // The profile reports each step as "inserted because the planner wrote none"; here there was no planner.
  return {
    ...plan,
    repairs: [
      {
        kind: "inserted_required_step",
        message: LEGACY_PLAN_NOTE,
        step_ids: plan.steps.map((step) => step.id),
      },
    ],
  };
}
