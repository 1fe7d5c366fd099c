import type { Context } from "aws-lambda";
import { instrumentHandler, type MemoryContext } from "../runtime/invocation.ts";
import { createLogger } from "../runtime/logger.ts";
import { linkToolRuntime, services } from "../runtime/services.ts";
import { withTimeBudget } from "../runtime/time-budget.ts";
import { workerToolRuntime } from "../runtime/tool-runtime.ts";
import { functionTracer } from "../runtime/tracer.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { isStepRetryable, runStep, type WorkItem, type WorkOutput } from "./run-step.ts";

const SERVICE = "rewoo-worker";
const logger = createLogger(SERVICE);
const tracer = functionTracer(SERVICE);
// The one function that runs tools: only its bundle carries document reading and the lender clients.
linkToolRuntime(workerToolRuntime);

/** The Lambda context's clock and memory; the local twin invokes without a context. */
type InvocationClock = Pick<Context, "getRemainingTimeInMillis"> & MemoryContext;

export const handler = instrumentHandler(
  {
    name: SERVICE,
    tracer,
    memoryMb: 2048,
    meter: (event: WorkItem) => ({ runId: event.run_id, task: "Work" }),
    runs: () => services().runs,
    logger,
  },
  async (event, context: InvocationClock | undefined, invocation): Promise<WorkOutput> => {
    const log = logger.createChild({ persistentKeys: { run_id: event.run_id, step_id: event.step_id } });
    const run = () => runStep(event, services(), log, invocation);
    try {
      return await (context ? withTimeBudget(() => context.getRemainingTimeInMillis(), run) : run());
    } catch (error) {
      if (isStepRetryable(error)) {
        // Thrown as it is, under its own name: the Work state's Retry for it waits, not the transient one.
        log.info("step not finished; the state machine retries it", { reason: error.message });
        throw error;
      }
      log.error("worker failed", error as Error);
      throw forStateMachine(error);
    }
  },
);
