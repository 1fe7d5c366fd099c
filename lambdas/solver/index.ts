import { createLogger } from "../runtime/logger.ts";
import { services } from "../runtime/services.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { reviewResultRun } from "./review-result.ts";
import { solveRun } from "./solve-run.ts";

const logger = createLogger("rewoo-solver");

/** The Solve state sends `{run_id}`; ReviewResult adds `action: "review"`. */
export const handler = async (event: {
  run_id: string;
  action?: "solve" | "review";
}): Promise<{ run_id: string; needs_review?: boolean }> => {
  const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
  try {
    if (event.action === "review") return await reviewResultRun(event.run_id, services(), log);
    await solveRun(event.run_id, services(), log);
    return { run_id: event.run_id };
  } catch (error) {
    log.error(event.action === "review" ? "reviewing the result failed" : "solving failed", error as Error);
    throw forStateMachine(error);
  }
};
