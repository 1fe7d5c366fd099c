import { createLogger } from "../runtime/logger.ts";
import { services } from "../runtime/services.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { runStep, type WorkItem, type WorkOutput } from "./run-step.ts";

const logger = createLogger("rewoo-worker");

export const handler = async (event: WorkItem): Promise<WorkOutput> => {
  const log = logger.createChild({ persistentKeys: { run_id: event.run_id, step_id: event.step_id } });
  try {
    return await runStep(event, services(), log);
  } catch (error) {
    log.error("worker failed", error as Error);
    throw forStateMachine(error);
  }
};
