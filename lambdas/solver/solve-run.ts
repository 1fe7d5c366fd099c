// SOLVER (ReWOO step 3): one LLM call reads the request, the plan and all evidence (including
// what failed) and writes the result.
import type { Logger } from "@aws-lambda-powertools/logger";
import { profileModule } from "../agents/registry.ts";
import { chosenTemplate } from "../core/agent-profiles.ts";
import { renderSolverPrompt } from "../core/prompts.ts";
import type { Evidence } from "../core/types.ts";
import { countedCompletion } from "../llm/usage.ts";
import type { Services } from "../runtime/services.ts";

/**
 * Steps of an earlier plan (before a replan) that failed and that the current plan did not redo
 * successfully (the same tool, on the same document when the step names one): the answer must
 * still say what could not be done, e.g. a document whose retrieval failed and that the new plan
 * left out. A required step the new plan ran again (Conditions AI on the readable documents) is redone.
 */
async function failedBeforeReplan(
  runId: string,
  plan: { steps: Array<{ id: string }> },
  current: Evidence[],
  services: Services,
): Promise<Evidence[]> {
  const inPlan = new Set(plan.steps.map((step) => step.id));
  const documentOf = (item: Evidence) => item.args?.s3_path;
  const redone = (item: Evidence) =>
    current.some(
      (other) => other.status === "ok" && other.tool === item.tool && documentOf(other) === documentOf(item),
    );
  const all = (await services.runs.getRun(runId))?.evidence ?? [];
  return all.filter((item) => item.status === "error" && !inPlan.has(item.step_id) && !redone(item));
}

export async function solveRun(runId: string, services: Services, log: Logger): Promise<void> {
  const { runs, evidence: evidenceStore, publisher, llm, config } = services;
  const {
    request,
    plan,
    result: stored,
    status,
    replans,
    clarification,
    profile,
  } = await runs.getMeta(runId);
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

  const current = await evidenceStore.ofPlan(runId, plan);
  const agent = profileModule(profile);
  if (agent.answer) {
    // An agent that answers by its own rules (the banking responder states what the tools did).
    const result = agent.answer(request, plan, current);
    log.info("result written by the profile's rules", { profile });
    await runs.updateRun(runId, { result });
    await publisher.publish(runId, { stage: "solver", status: "completed", results: result });
    return;
  }
  const { solver } = agent;
  if (!solver) throw new Error(`agent ${agent.name} has neither an answer of its own nor a solver prompt`);
  const earlier = replans ? await failedBeforeReplan(runId, plan, current, services) : [];
  const evidence = [...current, ...earlier].map((item) => services.tools.forSolver(item));
  const { system, prompt } = renderSolverPrompt({
    request,
    plan,
    evidence,
    system: solver.system,
    template: chosenTemplate(solver, config.llm.solverPrompt),
    defaultInstructions: agent.defaultInstructions,
    ...(solver.evidenceBudgets ? { evidenceBudgets: solver.evidenceBudgets } : {}),
  });
  const completion = await countedCompletion(
    llm.solver.provider,
    {
      system,
      prompt,
      ...(llm.solver.model ? { model: llm.solver.model } : {}),
      context: { purpose: "solver", request, plan, evidence },
    },
    (usage) => runs.addUsage(runId, usage),
  );

  // The agent reads its answer: bare ids take what the evidence says of them, and what waited for
  // a question nobody answered says so.
  const { result, warnings } = solver.readAnswer(completion.text, { plan, evidence, clarification });
  for (const warning of warnings) log.warn("solver output repaired", { warning });
  log.info("solver completed", {
    model: completion.model,
    usage: completion.usage,
    // Models passed over for a fallback (throttled, unavailable), with why.
    ...(completion.fallbacks ? { fallbacks: completion.fallbacks } : {}),
  });

  await runs.updateRun(runId, { result });
  await publisher.publish(runId, { stage: "solver", status: "completed", results: result });
}
