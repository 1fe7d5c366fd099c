import { createLogger } from "../runtime/logger.ts";
import { services } from "../runtime/services.ts";
import { type FinalizeEvent, finalizeRun } from "./finalize-run.ts";

const logger = createLogger("rewoo-finalize");

export const handler = async (event: FinalizeEvent): Promise<{ status: string }> => {
  const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
  return finalizeRun(event, services(), log);
};
