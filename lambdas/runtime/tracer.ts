// X-Ray tracing with Powertools Tracer: one Tracer per function, named like its logger. The SDK
// clients (lambdas/runtime/clients.ts) are captured so every DynamoDB, S3 and API Gateway call is a
// subsegment, and each handler invocation gets a `## <handler>` subsegment with the cold-start and
// service annotations (traceInvocation; what Powertools' middy middleware does, without middy).
//
// Off outside Lambda: Powertools enables itself only where AWS_EXECUTION_ENV is set (not in the local
// twin, the CLI or tests), and POWERTOOLS_TRACE_ENABLED=false turns it off in Lambda too. Disabled, it
// leaves clients untouched and prints nothing.
import { Tracer } from "@aws-lambda-powertools/tracer";
import { scrubSensitiveText } from "../core/redaction.ts";
import { serviceNameFor } from "./logger.ts";

let tracer: Tracer | undefined;

/**
 * The function's Tracer, made on first use. Each handler entry asks first, with its own name, at
 * import; the clients, built later, get the same one. (In the twin every handler shares a process and
 * the first name wins, but tracing is off there.)
 */
export function functionTracer(serviceName = "rewoo"): Tracer {
  tracer ??= new Tracer({ serviceName: serviceNameFor(serviceName) });
  return tracer;
}

/**
 * Runs one invocation in a `## name` subsegment; errors are marked on it with their message scrubbed.
 * Responses are not recorded: they carry borrowers' data, and traces are not redacted like logs.
 */
export async function traceInvocation<T>(tracer: Tracer, name: string, run: () => Promise<T>): Promise<T> {
  if (!tracer.isTracingEnabled()) return run();
  const segment = tracer.getSegment();
  const subsegment = segment?.addNewSubsegment(`## ${name}`);
  if (subsegment) tracer.setSegment(subsegment);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  try {
    return await run();
  } catch (error) {
    tracer.addErrorAsMetadata(scrubbed(error));
    throw error;
  } finally {
    subsegment?.close();
    if (segment) tracer.setSegment(segment);
  }
}

/** The error as X-Ray records it (name, message, stack), without the personal data a message may quote. */
function scrubbed(error: unknown): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const copy = new Error(scrubSensitiveText(original.message));
  copy.name = original.name;
  copy.stack = scrubSensitiveText(original.stack ?? "");
  return copy;
}
