// The last state of every execution. Success: the run becomes SUCCEEDED, the result is written
// to output_destination, and it is indexed for the history tool. Failure: the run becomes FAILED
// with the error the state machine caught. Either way one `complete` event closes the stream.
import type { Logger } from "@aws-lambda-powertools/logger";
import { resultObjectLocation } from "../core/destinations.ts";
import { rejectedAnswer } from "../core/interaction.ts";
import { needsReviewAnswer } from "../core/review.ts";
import type { BaseServices } from "../runtime/services.ts";

export type FinalizeEvent =
  | { run_id: string; mode: "success" }
  | { run_id: string; mode: "failure"; error?: { Error?: string; Cause?: string } };

export async function finalizeRun(
  event: FinalizeEvent,
  services: BaseServices,
  log: Logger,
): Promise<{ status: string }> {
  const { runs, blobs, publisher } = services;
  if (event.mode === "success") {
    const meta = await runs.getMeta(event.run_id);
    if (meta.approval?.status === "rejected" || meta.approval?.status === "timed_out") {
      const result = rejectedAnswer(meta.approval);
      if (await runs.updateRun(event.run_id, { status: "REJECTED", result })) {
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
      const result = needsReviewAnswer(failedReview.target, failedReview.review, meta.result);
      if (await runs.updateRun(event.run_id, { status: "NEEDS_REVIEW", result })) {
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
      const uri = await blobs.putJson(target, {
        run_id: event.run_id,
        request: meta.request,
        result: meta.result,
      });
      log.info("result written", { destination: uri });
    }
    // A retried Finalize finds the run already SUCCEEDED and must not announce it twice.
    // The loan history index is by loan program and classification: a banking run has neither.
    const indexForHistory = meta.profile === undefined;
    if (await runs.updateRun(event.run_id, { status: "SUCCEEDED", indexForHistory })) {
      await publisher.publish(event.run_id, { stage: "complete", status: "SUCCEEDED" });
    }
    return { status: "SUCCEEDED" };
  }

  const error = describeFailure(event.error);
  log.error("run failed", { error });
  if (await runs.updateRun(event.run_id, { status: "FAILED", error })) {
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
