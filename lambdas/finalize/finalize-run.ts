// The last state of every execution. Success: the run becomes SUCCEEDED, the result is written
// to output_destination, and it is indexed for the history tool. Failure: the run becomes FAILED
// with the error the state machine caught. Either way one `complete` event closes the stream, the
// run's estimated cost is stored with its terminal status, and its ending is counted in the metrics.
import type { Logger } from "@aws-lambda-powertools/logger";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import { profileModule } from "../agents/registry.ts";
import { transitionsOf } from "../core/billed-transitions.ts";
import { resultObjectLocation } from "../core/destinations.ts";
import { refusedAnswer, rejectedAnswer } from "../core/interaction.ts";
import { needsReviewAnswer } from "../core/review.ts";
import type { Evidence, RunCost, TerminalStatus } from "../core/types.ts";
import type { Invocation } from "../runtime/invocation.ts";
import { recordRunEnd } from "../runtime/metrics.ts";
import type { BaseServices } from "../runtime/services.ts";
import type { MetaItem } from "../store/runs.ts";
import { type CostConfig, costOfRun, runEnding } from "./run-cost.ts";

export type FinalizeEvent =
  | { run_id: string; mode: "success" }
  | { run_id: string; mode: "failure"; error?: { Error?: string; Cause?: string } };

/** The invocation finalizing (its usage so far is part of the cost) and where the run's ending is counted. */
export interface FinalizeOptions {
  invocation?: Invocation;
  metrics?: Metrics;
}

/** Stores the cost with the ending and, when this call ended the run, counts the ending in the metrics. */
export interface RunCloser {
  cost(): RunCost;
  ended(status: TerminalStatus, cost: RunCost): void;
}

export function runCloser(
  meta: MetaItem,
  evidence: Iterable<Pick<Evidence, "status">>,
  config: CostConfig,
  options: FinalizeOptions,
  transitions: number,
): RunCloser {
  return {
    cost: () => costOfRun(meta, config, options.invocation?.soFar(transitions)),
    ended: (status, cost) => {
      if (options.metrics) recordRunEnd(options.metrics, runEnding(meta, evidence, status, cost));
    },
  };
}

export async function finalizeRun(
  event: FinalizeEvent,
  services: BaseServices,
  log: Logger,
  options: FinalizeOptions = {},
): Promise<{ status: string }> {
  const { runs, blobs, publisher } = services;
  // META and the evidence in one Query: the cost reads the run's counters, the metrics its tool errors.
  const { meta, evidence } = await runs.getMetaAndEvidence(event.run_id);
  // This state and the one after it (Succeeded or Failed): the ASL's last two.
  const closer = runCloser(
    meta,
    evidence.values(),
    services.config,
    options,
    transitionsOf(event.mode === "success" ? "Finalize" : "HandleFailure", {}),
  );
  const end = async (status: TerminalStatus, patch: Parameters<typeof runs.updateRun>[1]) => {
    const cost = closer.cost();
    if (!(await runs.updateRun(event.run_id, { ...patch, status, cost }))) return false;
    closer.ended(status, cost);
    return true;
  };
  if (event.mode === "success") {
    if (meta.refusal) {
      // Refused before anything was confirmed or run: the refusal is the whole answer.
      const result = refusedAnswer(meta.refusal);
      if (await end("REJECTED", { result })) {
        await publisher.publish(event.run_id, { stage: "complete", status: "REJECTED", error: meta.refusal });
      }
      log.info("request refused before confirmation", { refusal: meta.refusal });
      return { status: "REJECTED" };
    }
    if (meta.approval?.status === "rejected" || meta.approval?.status === "timed_out") {
      const result = rejectedAnswer(meta.approval, profileModule(meta.profile).answerWords);
      if (await end("REJECTED", { result })) {
        await publisher.publish(event.run_id, {
          stage: "complete",
          status: "REJECTED",
          error: result.summary,
        });
      }
      log.warn("plan rejected", { approval: meta.approval.status, reason: meta.approval.reason });
      return { status: "REJECTED" };
    }
    const failedReview =
      meta.plan_review && !meta.plan_review.approved
        ? ({ target: "plan", review: meta.plan_review } as const)
        : meta.result_review && !meta.result_review.approved
          ? ({ target: "result", review: meta.result_review } as const)
          : undefined;
    if (failedReview) {
      // Not delivered to output_destination nor offered as history: a person has to look first.
      const result = needsReviewAnswer(
        failedReview.target,
        failedReview.review,
        meta.result,
        profileModule(meta.profile).answerWords,
      );
      if (await end("NEEDS_REVIEW", { result })) {
        await publisher.publish(event.run_id, {
          stage: "complete",
          status: "NEEDS_REVIEW",
          error: `the ${failedReview.target} scored ${failedReview.review.score}/10 in review`,
        });
      }
      log.warn("run needs review", { target: failedReview.target, score: failedReview.review.score });
      return { status: "NEEDS_REVIEW" };
    }
    const destination = meta.request.output_destination;
    if (destination && meta.result) {
      // Checked again right before writing (throws ResultDestinationError, which fails the run):
      // never a document, never outside the configured result locations.
      const target = resultObjectLocation(
        destination,
        event.run_id,
        services.resultPolicy,
        services.documentPolicy,
        meta.request.s3_pdf_paths,
      );
      // Never over another object: a result already there that is not this run's fails the run
      // (ResultExistsError); this run's own, from an earlier attempt, is kept as it is.
      const { uri, written } = await blobs.putJsonOnce(
        target,
        { run_id: event.run_id, request: meta.request, result: meta.result },
        event.run_id,
      );
      log.info(written ? "result written" : "result already written by this run", { destination: uri });
    }
    // A retried Finalize finds the run already SUCCEEDED and must not announce it twice.
    // The loan history index is by loan program and classification: a banking run has neither.
    const indexForHistory = meta.profile === undefined;
    if (await end("SUCCEEDED", { indexForHistory })) {
      await publisher.publish(event.run_id, { stage: "complete", status: "SUCCEEDED" });
    }
    return { status: "SUCCEEDED" };
  }

  const error = describeFailure(event.error);
  log.error("run failed", { error });
  if (await end("FAILED", { error })) {
    await publisher.publish(event.run_id, {
      stage: "complete",
      status: "FAILED",
      error: `${error.error}: ${error.cause}`,
    });
  }
  return { status: "FAILED" };
}

/**
 * In AWS, Cause is the Lambda error JSON (`{"errorType","errorMessage","trace"}`); the local
 * interpreter passes the message itself. Both become {error, cause: message}.
 */
function describeFailure(error: { Error?: string; Cause?: string } | undefined) {
  const name = error?.Error ?? "UnknownError";
  let cause = error?.Cause ?? "no cause reported";
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: unknown };
    if (typeof parsed.errorMessage === "string") cause = parsed.errorMessage;
  } catch {
    // not JSON: already the message
  }
  return { error: name, cause };
}
