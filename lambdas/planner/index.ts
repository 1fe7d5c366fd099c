import { createLogger } from "../runtime/logger.ts";
import { services } from "../runtime/services.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { type PlanOutput, planRun } from "./plan-run.ts";

const logger = createLogger("rewoo-planner");

export const handler = async (event: { run_id: string }): Promise<PlanOutput> => {
  const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
  try {
    return await planRun(event.run_id, services(), log);
  } catch (error) {
    log.error("planning failed", error as Error);
    throw forStateMachine(error);
  }
};
