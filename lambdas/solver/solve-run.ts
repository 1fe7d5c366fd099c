// SOLVER (ReWOO step 3): one LLM call reads the request, the plan and all evidence (including
// what failed) and writes the result.
import type { Logger } from "@aws-lambda-powertools/logger";
import { renderSolverPrompt } from "../core/prompts.ts";
import { parseSolverOutput } from "../core/result.ts";
import type { Services } from "../runtime/services.ts";

export async function solveRun(runId: string, services: Services, log: Logger): Promise<void> {
  const { runs, evidence: evidenceStore, publisher, llm, config } = services;
  const { request, plan, result: stored, status } = await runs.getMeta(runId);
  if (!plan) throw new Error(`run ${runId} has no plan to solve`);
  if (stored) {
    // A retried Solve task or a resumed run: the answer was written (and paid for) already.
    log.info("result already stored; solver not called again");
    return;
  }

  // A retry of this task after a crash finds the run SOLVING: it was announced already.
  if (status !== "SOLVING") {
    await runs.updateRun(runId, { status: "SOLVING" });
    await publisher.publish(runId, { stage: "solver", status: "started" });
  }

  const byStep = await evidenceStore.load(
    runId,
    plan.steps.map((step) => step.id),
  );
  const evidence = plan.steps.flatMap((step) => {
    const item = byStep.get(step.id);
    return item ? [services.tools.forSolver(item)] : [];
  });
  const { system, prompt } = renderSolverPrompt({
    request,
    plan,
    evidence,
    ...(config.llm.solverPrompt ? { template: config.llm.solverPrompt } : {}),
  });
  const completion = await llm.solver.provider.complete({
    system,
    prompt,
    ...(llm.solver.model ? { model: llm.solver.model } : {}),
    context: { purpose: "solver", request, plan, evidence },
  });
  await runs.addUsage(runId, { llm_calls: 1, ...completion.usage });

  const { result, warnings } = parseSolverOutput(completion.text);
  for (const warning of warnings) log.warn("solver output repaired", { warning });
  log.info("solver completed", { model: completion.model, usage: completion.usage });

  await runs.updateRun(runId, { result });
  await publisher.publish(runId, { stage: "solver", status: "completed", results: result });
}
