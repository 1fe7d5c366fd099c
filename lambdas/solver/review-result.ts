// RESULT REVIEW (between Solve and Finalize): the answer is checked against the evidence it rests
// on (every predicted condition judged, verdicts as the evidence has them, citations from the
// evidence, a recommendation per unfulfilled condition). Below the threshold the run ends
// NEEDS_REVIEW: Finalize keeps the answer and says why a person must look at it.
import type { Logger } from "@aws-lambda-powertools/logger";
import { profileModule } from "../agents/registry.ts";
import { resultReviewInput } from "../core/review.ts";
import { isTerminal } from "../core/types.ts";
import { reviewResultWithModel } from "../runtime/reviewer.ts";
import type { Services } from "../runtime/services.ts";

export async function reviewResultRun(
  runId: string,
  services: Services,
  log: Logger,
): Promise<{ run_id: string; needs_review: boolean }> {
  const { runs, evidence: evidenceStore, publisher, config } = services;
  // META and the evidence in one Query.
  const { meta, evidence: stored } = await runs.getMetaAndEvidence(runId);
  if (isTerminal(meta.status)) throw new Error(`run ${runId} is already ${meta.status}; not reviewing it`);
  if (meta.result_review) return { run_id: runId, needs_review: !meta.result_review.approved };
  const { plan, result } = meta;
  if (!plan || !result) throw new Error(`run ${runId} has no result to review`);
  const evidence = [
    ...(await evidenceStore.resolveAll(plan.steps.flatMap((step) => stored.get(step.id) ?? []))).values(),
  ];
  const agent = profileModule(meta.profile);
  const verdict = agent.reviewResult
    ? agent.reviewResult(result, evidence, config.reviewThreshold)
    : await reviewResultWithModel(
        { request: meta.request, ...resultReviewInput(agent, result, evidence, plan) },
        config.reviewThreshold,
        { runId, services, log },
      );
  // The review is stored with its event's seq (a run whose stream is closed, ended meanwhile, keeps none).
  await publisher.publish(
    runId,
    { stage: "review", target: "result", ...verdict },
    { result_review: verdict },
  );
  log.info("result reviewed", { score: verdict.score, approved: verdict.approved });
  return { run_id: runId, needs_review: !verdict.approved };
}
