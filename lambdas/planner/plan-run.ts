// PLANNER (ReWOO step 1): one LLM call turns the request into a plan; the plan is parsed and
// validated before anything runs, then stored. Returns only ids for the state machine.
import type { Logger } from "@aws-lambda-powertools/logger";
import { parsePlanText } from "../core/parse.ts";
import { loanEvaluationProfile } from "../core/profiles.ts";
import { renderPlannerPrompt } from "../core/prompts.ts";
import { normalizePlan } from "../core/validate.ts";
import type { Services } from "../runtime/services.ts";

export interface PlanOutput {
  levels: string[][];
  max_concurrency: number;
  step_count: number;
}

export async function planRun(runId: string, services: Services, log: Logger): Promise<PlanOutput> {
  const { runs, publisher, llm, catalog, config } = services;
  const { request } = await runs.getMeta(runId);
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

  await runs.updateRun(runId, { status: "RUNNING", plan });
  await publisher.publish(runId, { stage: "plan", plan });
  return {
    levels: plan.levels,
    max_concurrency: request.options?.parallel === false ? 1 : config.workerConcurrency,
    step_count: plan.steps.length,
  };
}
