// What every handler entry does around its work: trace the invocation (lambdas/runtime/tracer.ts),
// count it on the run it works for, and flush the metrics it stored (lambdas/runtime/metrics.ts).
//
// The count is what a run's cost is estimated from (lambdas/core/cost.ts): one Lambda request, its
// duration × memory, and the Step Functions transitions its Task state accounts for
// (lambdas/core/billed-transitions.ts), added to the run record atomically when the invocation ends,
// whether it succeeded or threw (a failed attempt is billed too).
import type { Logger } from "@aws-lambda-powertools/logger";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import { transitionsOf, type WorkflowTask } from "../core/billed-transitions.ts";
import type { RunStore } from "../store/runs.ts";
import { flushMetrics } from "./metrics.ts";
import { type FunctionTracer, traceInvocation } from "./tracer.ts";

export interface InvocationUsage {
  requests: number;
  /** Memory (MB) × duration (ms). */
  mb_ms: number;
  transitions: number;
}

export interface Invocation {
  /**
   * This invocation's own usage up to now, with the transitions its state accounts for: what the cost
   * of a run that ends in this invocation includes (its count on the run comes only after).
   */
  soFar(transitions: number): InvocationUsage;
  /**
   * The handler has counted this invocation on its run itself (in a write it made anyway), so the
   * count is not added again, one round trip after the work, when the invocation ends.
   */
  markCounted?(): void;
}

/** The run an invocation works for and the workflow state it serves (none: a request, no transitions). */
export interface MeteredRun {
  runId: string;
  task?: WorkflowTask;
}

/** The parts of the Lambda context read here; the twin invokes without one. */
export interface MemoryContext {
  memoryLimitInMB?: string | number;
}

export interface HandlerInstrumentation<E> {
  /** The handler's name in its trace subsegment. */
  name: string;
  tracer: FunctionTracer;
  /** Flushed once at the end of every invocation. */
  metrics?: Metrics;
  /**
   * Memory (MB) when neither the Lambda context nor AWS_LAMBDA_FUNCTION_MEMORY_SIZE says: the
   * function's setting in infra/constructs/workflow.ts, so the twin measures what AWS would bill.
   */
  memoryMb: number;
  /** Which run, if any, this invocation is counted on. */
  meter?: (event: E) => MeteredRun | undefined;
  /** The run store the counts go to (read when the first count is made). */
  runs?: () => Pick<RunStore, "addInvocation">;
  logger: Logger;
  clock?: () => number;
}

export function instrumentHandler<E, C extends MemoryContext | undefined, R>(
  spec: HandlerInstrumentation<E>,
  handler: (event: E, context: C | undefined, invocation: Invocation) => Promise<R>,
): (event: E, context?: C) => Promise<R> {
  const clock = spec.clock ?? Date.now;
  return async (event: E, context?: C): Promise<R> => {
    const started = clock();
    const memoryMb = memoryOf(context, spec.memoryMb);
    let counted = false;
    const invocation: Invocation = {
      soFar: (transitions) => ({ requests: 1, mb_ms: (clock() - started) * memoryMb, transitions }),
      markCounted: () => {
        counted = true;
      },
    };
    let output: R | undefined;
    try {
      output = await traceInvocation(spec.tracer, spec.name, () => handler(event, context, invocation));
      return output;
    } finally {
      if (!counted) await countOnRun(spec, event, invocation, output);
      if (spec.metrics) flushMetrics(spec.metrics);
    }
  };
}

async function countOnRun<E>(
  spec: HandlerInstrumentation<E>,
  event: E,
  invocation: Invocation,
  output: unknown,
): Promise<void> {
  let metered: MeteredRun | undefined;
  try {
    metered = spec.meter?.(event);
    if (!metered || !spec.runs) return;
    const transitions = metered.task ? transitionsOf(metered.task, output) : 0;
    await spec.runs().addInvocation(metered.runId, invocation.soFar(transitions));
  } catch (error) {
    // A lost count makes one estimate low; failing the invocation for it would redo the work.
    spec.logger.warn("could not count the invocation on its run", {
      run_id: metered?.runId,
      error: (error as Error).message,
    });
  }
}

function memoryOf(context: MemoryContext | undefined, fallback: number): number {
  for (const value of [context?.memoryLimitInMB, process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE]) {
    const mb = Number(value);
    if (value !== undefined && value !== "" && Number.isFinite(mb) && mb > 0) return mb;
  }
  return fallback;
}
