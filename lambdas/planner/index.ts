import { createLogger } from "../runtime/logger.ts";
import { services } from "../runtime/services.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { type PlanOutput, planRun, replanRun } from "./plan-run.ts";
import { reviewPlanRun } from "./review-plan.ts";

const logger = createLogger("rewoo-planner");

/**
 * The Plan state sends `{run_id}`; ReviewPlan adds `action: "review"`, the Replan state (after the
 * levels ran) `action: "replan"`.
 */
export const handler = async (event: {
  run_id: string;
  action?: "plan" | "review" | "replan";
}): Promise<PlanOutput> => {
  const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
  try {
    if (event.action === "review") return await reviewPlanRun(event.run_id, services(), log);
    return event.action === "replan"
      ? await replanRun(event.run_id, services(), log)
      : await planRun(event.run_id, services(), log);
  } catch (error) {
    log.error(`${event.action ?? "plan"} failed`, error as Error);
    throw forStateMachine(error);
  }
};
