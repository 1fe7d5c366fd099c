import { createLogger } from "../runtime/logger.ts";
import { services } from "../runtime/services.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { solveRun } from "./solve-run.ts";

const logger = createLogger("rewoo-solver");

export const handler = async (event: { run_id: string }): Promise<{ run_id: string }> => {
  const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
  try {
    await solveRun(event.run_id, services(), log);
    return { run_id: event.run_id };
  } catch (error) {
    log.error("solving failed", error as Error);
    throw forStateMachine(error);
  }
};
