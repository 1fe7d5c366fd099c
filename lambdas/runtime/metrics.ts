// CloudWatch metrics in the Embedded Metric Format (EMF) with Powertools Metrics: a run's ending is
// one EMF line in the finalize function's log, from which CloudWatch makes the metrics; no
// PutMetricData call, no extra latency. Namespace ReWOO (POWERTOOLS_METRICS_NAMESPACE overrides it),
// dimensions service (the function), profile (the agent) and status (how the run ended).
//
// Published only in Lambda. The local twin, the CLI and the tests run the same handlers in a terminal
// whose output is the person's, not CloudWatch's: there the stored metrics are dropped at the flush,
// as the twin keeps the logger quiet (POWERTOOLS_LOG_LEVEL). POWERTOOLS_METRICS_DISABLED, when set,
// decides everywhere (Powertools' own switch; `false` publishes to stdout outside Lambda too).
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { RunCost } from "../core/cost.ts";
import type { TerminalStatus, Usage } from "../core/types.ts";
import { serviceNameFor } from "./logger.ts";

export const METRICS_NAMESPACE = "ReWOO";

let metrics: Metrics | undefined;

/** The function's Metrics, made on first use with the handler's service name (like its logger). */
export function functionMetrics(serviceName = "rewoo"): Metrics {
  metrics ??= new Metrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || METRICS_NAMESPACE,
    serviceName: serviceNameFor(serviceName),
  });
  return metrics;
}

export interface RunEnding {
  run_id: string;
  status: TerminalStatus;
  /** The agent profile (loan_evaluation, banking_assistant). */
  profile: string;
  /** Evidence items whose tool ended in error. */
  tool_errors: number;
  usage: Usage;
  cost: RunCost;
}

/** Stores the metrics of a run that ended; flushMetrics (once per invocation) writes them. */
export function recordRunEnd(target: Metrics, ending: RunEnding): void {
  target.addDimensions({ profile: ending.profile, status: ending.status });
  target.addMetric("RunsByStatus", MetricUnit.Count, 1);
  target.addMetric("ToolErrors", MetricUnit.Count, ending.tool_errors);
  target.addMetric("LlmInputTokens", MetricUnit.Count, ending.usage.input_tokens);
  target.addMetric("LlmOutputTokens", MetricUnit.Count, ending.usage.output_tokens);
  target.addMetric("RunCostUsd", MetricUnit.NoUnit, ending.cost.total);
  // A property of the EMF line, not a dimension: finds the run behind a data point without a metric per run.
  target.addMetadata("run_id", ending.run_id);
}

/** Whether EMF lines are written in this environment (see the top of this file). */
export function metricsPublished(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.POWERTOOLS_METRICS_DISABLED !== undefined) return true;
  const dev = ["1", "true", "yes", "on"].includes((env.POWERTOOLS_DEV ?? "").trim().toLowerCase());
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && !dev;
}

/**
 * Writes what the invocation stored, once, at its end. Nothing stored: nothing written (Powertools
 * would warn about an empty flush on every invocation that ended no run).
 */
export function flushMetrics(target: Metrics, env: NodeJS.ProcessEnv = process.env): void {
  if (!target.hasStoredMetrics()) return;
  if (metricsPublished(env)) {
    target.publishStoredMetrics();
    return;
  }
  target.clearMetrics();
  target.clearDimensions();
  target.clearMetadata();
}
