// WORKER (ReWOO step 2): runs one plan step without the LLM. Loads the evidence the step
// references, substitutes it into the arguments, validates them, calls the tool under its
// timeout and stores the evidence. Tool failures become error evidence (data); only
// infrastructure faults and an OCR job still running throw, for the state machine's Retry.
import type { Logger } from "@aws-lambda-powertools/logger";
import { abortableSleep } from "../core/abortable-sleep.ts";
import { transitionsOf } from "../core/billed-transitions.ts";
import { substitutePlaceholders } from "../core/placeholders.ts";
import type { Evidence, PlanStep } from "../core/types.ts";
import { type FaultKind, InjectedFaultError } from "../runtime/faults.ts";
import type { Invocation } from "../runtime/invocation.ts";
import type { Services } from "../runtime/services.ts";
import { withTimeBudget } from "../runtime/time-budget.ts";
import { TransientInfrastructureError } from "../runtime/transient.ts";

export interface WorkItem {
  run_id: string;
  step_id: string;
  level_index: number;
}

export interface WorkOutput {
  run_id: string;
  step_id: string;
  status: Evidence["status"];
  reused: boolean;
}

/**
 * DynamoDB round trips before the tool runs: one (the run's META and its evidence in one Query: the
 * idempotency check, the plan and the upstream evidence). The `started` event is written while the
 * tool runs, not before it.
 */
export async function runStep(
  item: WorkItem,
  services: Services,
  log: Logger,
  invocation?: Pick<Invocation, "soFar" | "markCounted">,
): Promise<WorkOutput> {
  const { runs, evidence: evidenceStore, publisher } = services;
  const { run_id: runId, step_id: stepId } = item;
  const { meta, evidence: runEvidence } = await runs.getMetaAndEvidence(runId);
  // Idempotency: a retried or duplicated invocation returns the stored result, tool not called.
  if (runEvidence.get(stepId)?.status === "ok") {
    log.info("evidence already stored; tool not called again");
    return { run_id: runId, step_id: stepId, status: "ok", reused: true };
  }
  const step = meta.plan?.steps.find((candidate) => candidate.id === stepId);
  if (!step) throw new Error(`run ${runId} has no step ${stepId} in its plan`);
  const fault = services.faults.draw(step.tool);
  if (fault === "throttle") {
    throw new TransientInfrastructureError(
      new InjectedFaultError("ProvisionedThroughputExceededException", "injected throttle (REWOO_FAULTS)"),
    );
  }

  const startedEvent = publisher.begin(runId, {
    stage: "worker",
    step: stepId,
    tool: step.tool,
    level: item.level_index,
    status: "started",
  });
  const started = startedEvent.published.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (fault === "crash") {
    await started;
    throw new InjectedFaultError(
      "Rewoo.InjectedCrash",
      `injected crash before ${step.tool} ran (REWOO_FAULTS)`,
    );
  }
  // Outside the tool's try: a storage fault is infrastructure and must throw for the Retry. Outputs
  // offloaded to S3 are fetched here (S3, not DynamoDB).
  const upstream = await evidenceStore.resolveAll(step.depends_on.flatMap((id) => runEvidence.get(id) ?? []));
  const startedAt = new Date();
  const outcome = await execute(step, runId, upstream, services, fault, meta.customer_id).catch(
    async (error: unknown) => {
      // The invocation fails for a retry (see isStepRetryable): its started event is stored first.
      await started;
      throw error;
    },
  );
  const finishedAt = new Date();
  const evidence: Evidence = {
    step_id: stepId,
    tool: step.tool,
    status: outcome.error === undefined ? "ok" : "error",
    ...(outcome.error === undefined ? { output: outcome.output } : { error: outcome.error }),
    upstream_errors: outcome.upstreamErrors,
    ...(outcome.args ? { args: outcome.args } : {}),
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_ms: finishedAt.getTime() - startedAt.getTime(),
  };
  const reported = { stage: "worker", step: stepId, tool: step.tool, level: item.level_index } as const;
  // Two round trips after the tool where there were four (evidence, the event's counter, the event,
  // the invocation's count on the run): the counter, with the tool's model usage and this
  // invocation's count, is updated while the evidence is written.
  const {
    value: { stored, written },
    counted,
  } = await publisher.publishAfter(
    runId,
    "worker",
    evidenceStore.put(runId, evidence),
    (put) =>
      put.status === "fulfilled"
        ? // A concurrent duplicate that stored first reports the same stored outcome.
          {
            ...reported,
            status: put.value.stored.status === "ok" ? "completed" : "failed",
            duration_ms: put.value.stored.duration_ms,
            ...(put.value.stored.error ? { error: put.value.stored.error } : {}),
          }
        : {
            ...reported,
            status: "failed",
            duration_ms: evidence.duration_ms,
            error: `evidence not stored: ${describeError(put.reason)}`,
          },
    {
      ...(outcome.llmUsage.llm_calls > 0 ? { usage: outcome.llmUsage } : {}),
      ...(invocation ? { invocation: () => invocation.soFar(transitionsOf("Work")) } : {}),
      // The completed event's seq follows the started event's; its item need not be written first.
      after: startedEvent.reserved,
    },
  );
  if (counted) invocation?.markCounted?.();
  // The tool's result is stored: a failed `started` write must not throw it away (a retry would
  // only find the evidence and return it). Awaited so that no write outlives the invocation.
  const startedError = await started;
  if (startedError) log.warn("started event not stored", { error: String(startedError) });
  if (!written) {
    // A concurrent duplicate finished first; its evidence stands.
    log.info("evidence written by a concurrent invocation; keeping it");
    return { run_id: runId, step_id: stepId, status: stored.status, reused: true };
  }
  if (stored.status === "error") log.warn("tool failed", { tool: step.tool, error: stored.error });
  else log.info("tool completed", { tool: step.tool, duration_ms: stored.duration_ms });
  return { run_id: runId, step_id: stepId, status: stored.status, reused: false };
}

interface Outcome {
  output?: unknown;
  error?: string;
  upstreamErrors: string[];
  args?: Record<string, unknown>;
  /** LLM calls the tool made (Conditions AI's model), added to the run's usage. */
  llmUsage: { llm_calls: number; input_tokens: number; output_tokens: number; models: string[] };
}

async function execute(
  step: PlanStep,
  runId: string,
  upstream: Map<string, Evidence>,
  services: Services,
  fault: FaultKind | undefined,
  customerId: string | undefined,
): Promise<Outcome> {
  const { tools, config } = services;
  let upstreamErrors: string[] = [];
  let args: Record<string, unknown> | undefined;
  const llmUsage = { llm_calls: 0, input_tokens: 0, output_tokens: 0, models: [] as string[] };
  try {
    const substituted = substitutePlaceholders(step.args, upstream);
    upstreamErrors = substituted.upstream_errors;
    args = substituted.args;

    const tool = tools.get(step.tool);
    const parsed = tool.args.safeParse(args);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.join(".") || "(args)"}: ${issue.message}`,
      );
      return {
        error: `invalid arguments for ${step.tool} after substitution: ${problems.join("; ")}`,
        upstreamErrors,
        args,
        llmUsage,
      };
    }

    const controller = new AbortController();
    const timeoutMs = config.toolTimeoutMs[step.tool] ?? tool.timeout_ms;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`${step.tool} timed out after ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      const latency = config.toolLatencyMs[step.tool] ?? config.toolLatencyMs["*"] ?? 0;
      const call = (async () => {
        if (latency > 0) await abortableSleep(latency, controller.signal);
        // Timed out before it began: the tool is never called late, after its step has been told.
        if (controller.signal.aborted) throw new ToolNotStartedError(step.tool, timeoutMs);
        if (fault === "error") throw new Error(`injected fault: ${step.tool} failed (REWOO_FAULTS)`);
        if (fault === "timeout") await new Promise(() => undefined); // the tool's timeout ends it
        // Work that can stop early and be retried (OCR) stops before the tool's timeout.
        const toolDeadline = Date.now() + timeoutMs;
        return withTimeBudget(
          () => toolDeadline - Date.now(),
          () =>
            tool.run(parsed.data, {
              run_id: runId,
              step_id: step.id,
              signal: controller.signal,
              planned_args: step.args,
              upstream,
              ...(customerId ? { customer_id: customerId } : {}),
              recordLlmUsage: (usage) => {
                llmUsage.llm_calls += 1;
                llmUsage.input_tokens += usage.input_tokens;
                llmUsage.output_tokens += usage.output_tokens;
                for (const model of usage.models ?? [])
                  if (!llmUsage.models.includes(model)) llmUsage.models.push(model);
              },
            }),
        );
      })();
      const output = tool.settles_on_abort
        ? await settledAfterTimeout(step.tool, call, timeout, controller.signal)
        : await Promise.race([call, timeout]);
      return { output: output ?? null, upstreamErrors, args, llmUsage };
    } finally {
      clearTimeout(timer);
    }
  } catch (error) {
    if (isStepRetryable(error)) throw error;
    return { error: describeError(error), upstreamErrors, ...(args ? { args } : {}), llmUsage };
  }
}

/**
 * How long the worker waits, after a timeout, for a tool that acts (moves money, opens an account)
 * to settle: the abort reached it, and it now says what really happened (done, or fenced off and not
 * done). The timeout alone cannot tell, so it never becomes the evidence of such a tool.
 */
export const SETTLE_AFTER_TIMEOUT_MS = 10_000;

async function settledAfterTimeout(
  toolName: string,
  call: Promise<unknown>,
  timeout: Promise<never>,
  timedOut: AbortSignal,
): Promise<unknown> {
  try {
    return await Promise.race([call, timeout]);
  } catch (error) {
    // The tool's own answer (a refusal, or "not made" after its fence) is the evidence.
    if (!timedOut.aborted || error !== timedOut.reason) throw error;
  }
  let timer: NodeJS.Timeout | undefined;
  const unsettled = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new TransientInfrastructureError(
            new Error(
              `${toolName} timed out and did not say within ${SETTLE_AFTER_TIMEOUT_MS} ms what it did`,
            ),
          ),
        ),
      SETTLE_AFTER_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([call, unsettled]);
  } finally {
    clearTimeout(timer);
  }
}

/** The tool's time ran out before it was called: it did nothing at all. */
export class ToolNotStartedError extends Error {
  override name = "NotStarted";
  constructor(tool: string, timeoutMs: number) {
    super(`${tool} timed out after ${timeoutMs} ms, before it started; it did nothing`);
  }
}

/** The name of OcrPendingError (lambdas/tools/ocr/engine.ts), which the Work state's Retry matches. */
export const OCR_PENDING_ERROR_NAME = "OcrPending";

/**
 * An OCR job still running (OcrPendingError, matched by name wherever it was thrown) is not the
 * tool's answer: the invocation fails under that name, the state machine's Retry runs the step again
 * later, and the retry finds the same job.
 */
export function isStepRetryable(error: unknown): error is Error {
  // A tool whose outcome is unknown (its store unreachable while it settled) is retried, never
  // recorded as failed: the retry finds what it did.
  return (
    error instanceof Error &&
    (error.name === OCR_PENDING_ERROR_NAME || error instanceof TransientInfrastructureError)
  );
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    return error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  }
  return String(error);
}
