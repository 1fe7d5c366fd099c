// One Powertools logger per function; handlers append run_id (and step_id) as persistent keys
// for the duration of an invocation so every line can be joined to a run.
// Every line goes through RedactingLogFormatter: loan files, lender responses and LLM output carry
// borrowers' personal data, and a log line must not (lambdas/core/sensitive-data.ts says what is
// removed). A formatter sees each record before serialization, including persistent keys, child
// loggers' keys and Error objects, so no call site can forget it.
import { Console } from "node:console";
import { LogFormatter, Logger, LogItem } from "@aws-lambda-powertools/logger";
import type {
  ConstructorOptions,
  LogAttributes,
  UnformattedAttributes,
} from "@aws-lambda-powertools/logger/types";
import { redactForLog, scrubSensitiveText } from "../core/redaction.ts";

/** Powertools' standard record (same keys, so log queries keep working) with its content redacted. */
export class RedactingLogFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const context = attributes.lambdaContext;
    const base: LogAttributes = {
      level: attributes.logLevel,
      message: typeof attributes.message === "string" ? scrubSensitiveText(attributes.message) : undefined,
      timestamp: this.formatTimestamp(attributes.timestamp),
      service: attributes.serviceName,
      cold_start: context?.coldStart,
      function_arn: context?.invokedFunctionArn,
      function_memory_size: context?.memoryLimitInMB,
      function_name: context?.functionName,
      function_request_id: context?.awsRequestId,
      sampling_rate: attributes.sampleRateValue,
      xray_trace_id: attributes.xRayTraceId,
      tenant_id: context?.tenantId,
    };
    return new LogItem({ attributes: base }).addAttributes(this.redact(additional) as LogAttributes);
  }

  /** Also used by Powertools' serializer for any Error that reaches it. */
  override formatError(error: Error): LogAttributes {
    return this.redact(error) as LogAttributes;
  }

  private redact(value: unknown): unknown {
    return redactForLog(value, { errorLocation: (stack) => this.getCodeLocation(stack) });
  }
}

/**
 * The function's service name: POWERTOOLS_SERVICE_NAME where the deployment sets it (every function in
 * AWS), else the handler's own. Logs, traces (lambdas/runtime/tracer.ts) and metrics
 * (lambdas/runtime/metrics.ts) take it from here, so the three label a function alike.
 */
export function serviceNameFor(fallback: string): string {
  return process.env.POWERTOOLS_SERVICE_NAME || fallback;
}

/** Where Lambda takes a function's logs from: its stdout and stderr, as Powertools writes them. */
const lambdaOutput = new Console({ stdout: process.stdout, stderr: process.stderr });
let output: Console = lambdaOutput;

/**
 * The console every logger of this process prints through, resolved at each line, so that the local
 * twin, which hosts the functions inside a command whose own output is for a person, can send their
 * lines to a file instead (setLogOutput). In Lambda nothing sets it: stdout and stderr as Powertools has them.
 */
const routedConsole = {
  log: (...data: unknown[]) => output.log(...data),
  info: (...data: unknown[]) => output.info(...data),
  warn: (...data: unknown[]) => output.warn(...data),
  error: (...data: unknown[]) => output.error(...data),
  debug: (...data: unknown[]) => output.debug(...data),
  trace: (...data: unknown[]) => output.log(...data),
};

/** Sends every logger's lines of this process to `stream` (undefined: back to stdout and stderr). */
export function setLogOutput(stream: NodeJS.WritableStream | undefined): void {
  output = stream ? new Console({ stdout: stream, stderr: stream }) : lambdaOutput;
}

/** Powertools' Logger printing through routedConsole; its children (createChild) too. */
class RoutedLogger extends Logger {
  constructor(options?: ConstructorOptions) {
    super(options);
    // Powertools keeps its console private, made once per logger from process.stdout and stderr.
    (this as unknown as { console: typeof routedConsole }).console = routedConsole;
  }

  protected override createLogger(options?: ConstructorOptions): Logger {
    return new RoutedLogger(options);
  }
}

export function createLogger(serviceName: string): Logger {
  return new RoutedLogger({
    serviceName: serviceNameFor(serviceName),
    logFormatter: new RedactingLogFormatter(),
  });
}
