// X-Ray tracing with Powertools Tracer: one Tracer per function, named like its logger. The SDK
// clients (lambdas/runtime/clients.ts) are captured so every DynamoDB, S3 and API Gateway call is a
// subsegment, and each handler invocation gets a `## <handler>` subsegment with the cold-start and
// service annotations (traceInvocation; what Powertools' middy middleware does, without middy).
//
// Loaded only where it traces. Powertools enables itself only in Lambda (AWS_EXECUTION_ENV set, not
// SAM local or Amplify's mock) unless POWERTOOLS_TRACE_ENABLED=false; elsewhere (the local twin, the
// CLI, tests) and in a function deployed without tracing, the Tracer and the X-Ray SDK under it would
// only cost their import on every cold start (BENCHMARKS.md, bundle sizes), so they are not imported
// at all and a disabled tracer leaves clients as they are and prints nothing.
import type { Tracer } from "@aws-lambda-powertools/tracer";
import { scrubSensitiveText } from "../core/redaction.ts";
import { serviceNameFor } from "./logger.ts";

/** What the functions use of Powertools' Tracer (the disabled one below has the same shape). */
export type FunctionTracer = Pick<
  Tracer,
  | "captureAWSv3Client"
  | "isTracingEnabled"
  | "getSegment"
  | "setSegment"
  | "annotateColdStart"
  | "addServiceNameAnnotation"
  | "addErrorAsMetadata"
>;

/** Whether Powertools would trace in this environment (its own rule, read before importing it). */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.POWERTOOLS_TRACE_ENABLED?.toLowerCase() === "false") return false;
  const executionEnv = env.AWS_EXECUTION_ENV ?? "";
  return executionEnv !== "" && executionEnv !== "AWS_Lambda_amplify-mock" && !env.AWS_SAM_LOCAL;
}

// Top-level await: the import happens during the function's init, where Lambda expects it.
const PowertoolsTracer = tracingWanted() ? (await import("@aws-lambda-powertools/tracer")).Tracer : undefined;

const DISABLED: FunctionTracer = {
  captureAWSv3Client: (client) => client,
  isTracingEnabled: () => false,
  getSegment: () => undefined,
  setSegment: () => undefined,
  annotateColdStart: () => undefined,
  addServiceNameAnnotation: () => undefined,
  addErrorAsMetadata: () => undefined,
};

let tracer: FunctionTracer | undefined;

/**
 * The function's Tracer, made on first use. Each handler entry asks first, with its own name, at
 * import; the clients, built later, get the same one. (In the twin every handler shares a process and
 * tracing is off there.)
 */
export function functionTracer(serviceName = "rewoo"): FunctionTracer {
  tracer ??= PowertoolsTracer ? new PowertoolsTracer({ serviceName: serviceNameFor(serviceName) }) : DISABLED;
  return tracer;
}

/**
 * Runs one invocation in a `## name` subsegment; errors are marked on it with their message scrubbed.
 * Responses are not recorded: they carry borrowers' data, and traces are not redacted like logs.
 */
export async function traceInvocation<T>(
  tracer: FunctionTracer,
  name: string,
  run: () => Promise<T>,
): Promise<T> {
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
