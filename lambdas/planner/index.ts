import { createLogger } from "../runtime/logger.ts";
import { services } from "../runtime/services.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { type PlanOutput, planRun, replanRun } from "./plan-run.ts";

const logger = createLogger("rewoo-planner");

/** The Plan state sends `{run_id}`; the Replan state (after the levels ran) adds `action: "replan"`. */
export const handler = async (event: { run_id: string; action?: "plan" | "replan" }): Promise<PlanOutput> => {
  const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
  try {
    return event.action === "replan"
      ? await replanRun(event.run_id, services(), log)
      : await planRun(event.run_id, services(), log);
  } catch (error) {
    log.error(event.action === "replan" ? "replanning failed" : "planning failed", error as Error);
    throw forStateMachine(error);
  }
};
