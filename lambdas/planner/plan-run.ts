// PLANNER (ReWOO step 1): one LLM call turns the request into a plan; the plan is parsed and
// validated before anything runs, then stored. Returns only ids for the state machine.
// Legacy runs (the original loan-agent plan's POST /v1/evaluate-loan-conditions) skip the LLM: their plan is the
// fixed PreConditions → Conditions AI pair that the loan profile requires anyway.
import type { Logger } from "@aws-lambda-powertools/logger";
import { parsePlanText } from "../core/parse.ts";
import { loanEvaluationProfile } from "../core/profiles.ts";
import { renderPlannerPrompt } from "../core/prompts.ts";
import { type EvaluationRequest, isTerminal, type Plan } from "../core/types.ts";
import { normalizePlan } from "../core/validate.ts";
import type { Services } from "../runtime/services.ts";

export interface PlanOutput {
  levels: string[][];
  max_concurrency: number;
  step_count: number;
}

export const LEGACY_PLAN_NOTE =
  "legacy mode (POST /v1/evaluate-loan-conditions): fixed plan PreConditions → Conditions AI, no planner LLM call";

export async function planRun(runId: string, services: Services, log: Logger): Promise<PlanOutput> {
  const { runs, publisher, config } = services;
  const { request, status, plan: stored, mode = "rewoo" } = await runs.getMeta(runId);
  if (isTerminal(status)) {
    // Cancelled (or failed to start) before the planner ran: neither pay for an LLM call nor announce a plan.
    throw new Error(`run ${runId} is already ${status}; not planning it`);
  }
  if (stored) {
    // A retried Plan task or a resumed run: the plan was made, paid for and announced already.
    log.info("plan already stored; planner not called again");
    return planOutput(stored, request, config);
  }

  const plan =
    mode === "legacy" ? fixedPlan(request, services) : await writtenPlan(runId, request, services, log);

  if (!(await runs.updateRun(runId, { status: "RUNNING", plan }))) {
    // Cancelled while the planner was thinking: the plan would only confuse the finished run's event stream.
    const { status: now } = await runs.getMeta(runId);
    throw new Error(`run ${runId} became ${now} while it was being planned; plan discarded`);
  }
  await publisher.publish(runId, { stage: "plan", plan });
  return planOutput(plan, request, config);
}

function planOutput(plan: Plan, request: EvaluationRequest, config: Services["config"]): PlanOutput {
  return {
    levels: plan.levels,
    max_concurrency: request.options?.parallel === false ? 1 : config.workerConcurrency,
    step_count: plan.steps.length,
  };
}

/** ReWOO: the planner LLM writes the plan; validation repairs what it can and rejects the rest. */
async function writtenPlan(
  runId: string,
  request: EvaluationRequest,
  services: Services,
  log: Logger,
): Promise<Plan> {
  const { runs, llm, catalog, config } = services;
  const maxSteps = Math.min(request.options?.max_steps ?? config.maxSteps, config.maxSteps);
  const { system, prompt } = renderPlannerPrompt({
    request,
    tools: catalog,
    maxSteps,
    ...(config.llm.plannerPrompt ? { template: config.llm.plannerPrompt } : {}),
  });
  const completion = await llm.planner.provider.complete({
    system,
    prompt,
    ...(llm.planner.model ? { model: llm.planner.model } : {}),
    context: { purpose: "planner", request, tools: catalog, maxSteps },
  });
  // The call is paid for whether or not its plan is usable.
  await runs.addUsage(runId, { llm_calls: 1, ...completion.usage });
  log.info("planner completed", { model: completion.model, usage: completion.usage });

  const plan = normalizePlan(parsePlanText(completion.text), {
    tools: catalog,
    maxSteps,
    profile: loanEvaluationProfile,
    request,
  });
  for (const repair of plan.repairs) log.warn("plan repaired", { repair });
  return plan;
}

/**
 * Legacy: an empty plan that the loan profile completes with exactly its required steps, so the
 * fixed orchestration and the ReWOO one can never disagree on what those steps are. max_steps is
 * not applied: it caps what a planner writes, and the original loan-agent plan's two-step flow never had such a cap.
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
