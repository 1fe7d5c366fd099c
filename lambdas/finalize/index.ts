import { baseServices } from "../runtime/base-services.ts";
import { instrumentHandler } from "../runtime/invocation.ts";
import { createLogger } from "../runtime/logger.ts";
import { functionMetrics } from "../runtime/metrics.ts";
import { functionTracer } from "../runtime/tracer.ts";
import { forStateMachine } from "../runtime/transient.ts";
import {
  closeEndedExecution,
  type ExecutionStatusChange,
  isExecutionStatusChange,
  runIdOf,
  type StatusChangeOutcome,
} from "./execution-status.ts";
import { type FinalizeEvent, finalizeRun } from "./finalize-run.ts";

const SERVICE = "rewoo-finalize";
const logger = createLogger(SERVICE);
const tracer = functionTracer(SERVICE);
const metrics = functionMetrics(SERVICE);

/** Finalize and HandleFailure states of the workflow, and EventBridge's execution status changes. */
export const handler = instrumentHandler(
  {
    name: SERVICE,
    tracer,
    metrics,
    memoryMb: 512,
    meter: (event: FinalizeEvent | ExecutionStatusChange) =>
      isExecutionStatusChange(event)
        ? { runId: runIdOf(event.detail) }
        : { runId: event.run_id, task: event.mode === "success" ? "Finalize" : "HandleFailure" },
    runs: () => baseServices().runs,
    logger,
  },
  async (event, _context, invocation): Promise<{ status: string } | StatusChangeOutcome> => {
    if (isExecutionStatusChange(event)) {
      return closeEndedExecution(
        event,
        baseServices(),
        logger.createChild({ persistentKeys: { source: event.source } }),
        { invocation, metrics },
      );
    }
    const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
    try {
      return await finalizeRun(event, baseServices(), log, { invocation, metrics });
    } catch (error) {
      log.error("finalizing failed", error as Error);
      throw forStateMachine(error);
    }
  },
);
