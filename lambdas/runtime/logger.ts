// One Powertools logger per function; handlers append run_id (and step_id) as persistent keys
// for the duration of an invocation so every line can be joined to a run.
import { Logger } from "@aws-lambda-powertools/logger";

export function createLogger(serviceName: string): Logger {
  return new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? serviceName });
}
