import { createLogger } from "../runtime/logger.ts";
import { baseServices } from "../runtime/services.ts";
import { forStateMachine } from "../runtime/transient.ts";
import {
  closeEndedExecution,
  type ExecutionStatusChange,
  isExecutionStatusChange,
  type StatusChangeOutcome,
} from "./execution-status.ts";
import { type FinalizeEvent, finalizeRun } from "./finalize-run.ts";

const logger = createLogger("rewoo-finalize");

/** Finalize and HandleFailure states of the workflow, and EventBridge's execution status changes. */
export const handler = async (
  event: FinalizeEvent | ExecutionStatusChange,
): Promise<{ status: string } | StatusChangeOutcome> => {
  if (isExecutionStatusChange(event)) {
    return closeEndedExecution(
      event,
      baseServices(),
      logger.createChild({ persistentKeys: { source: event.source } }),
    );
  }
  const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
  try {
    return await finalizeRun(event, baseServices(), log);
  } catch (error) {
    log.error("finalizing failed", error as Error);
    throw forStateMachine(error);
  }
};
