import { instrumentHandler } from "../runtime/invocation.ts";
import { createLogger } from "../runtime/logger.ts";
import { services } from "../runtime/services.ts";
import { functionTracer } from "../runtime/tracer.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { reviewResultRun } from "./review-result.ts";
import { solveRun } from "./solve-run.ts";

const SERVICE = "rewoo-solver";
const logger = createLogger(SERVICE);
const tracer = functionTracer(SERVICE);

/** The Solve state sends `{run_id}`; ReviewResult adds `action: "review"`. */
export type SolverEvent = { run_id: string; action?: "solve" | "review" };

export const handler = instrumentHandler(
  {
    name: SERVICE,
    tracer,
    memoryMb: 1024,
    meter: (event: SolverEvent) => ({
      runId: event.run_id,
      task: event.action === "review" ? "ReviewResult" : "Solve",
    }),
    runs: () => services().runs,
    logger,
  },
  async (event): Promise<{ run_id: string; needs_review?: boolean }> => {
    const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
    try {
      if (event.action === "review") return await reviewResultRun(event.run_id, services(), log);
      await solveRun(event.run_id, services(), log);
      return { run_id: event.run_id };
    } catch (error) {
      log.error(event.action === "review" ? "reviewing the result failed" : "solving failed", error as Error);
      throw forStateMachine(error);
    }
  },
);
