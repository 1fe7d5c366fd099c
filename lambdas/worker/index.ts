import { createLogger } from "../runtime/logger.ts";
import { linkToolRuntime, services } from "../runtime/services.ts";
import { workerToolRuntime } from "../runtime/tool-runtime.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { runStep, type WorkItem, type WorkOutput } from "./run-step.ts";

const logger = createLogger("rewoo-worker");
// The one function that runs tools: only its bundle carries document reading and the lender clients.
linkToolRuntime(workerToolRuntime);

export const handler = async (event: WorkItem): Promise<WorkOutput> => {
  const log = logger.createChild({ persistentKeys: { run_id: event.run_id, step_id: event.step_id } });
  try {
    return await runStep(event, services(), log);
  } catch (error) {
    log.error("worker failed", error as Error);
    throw forStateMachine(error);
  }
};
