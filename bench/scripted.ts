// What a competent model answers in each scenario, for both architectures, replayed by the
// ScriptedProvider (lambdas/llm/scripted.ts) while the PROMPTS are the real prompts each
// architecture builds with the real evidence inserted.
//
// ReWOO: the planner's answer is the plan the rule-based planner writes for the request
// (planFromRequest), the solver's answer is the rule-based solver's output over the real evidence
// (solveFromEvidence) — exactly what REWOO_LLM_PROVIDER=rule-based answers inside the twin.
// ReAct: the same tool calls, in plan order, one per turn (Thought / Action / Action Input), with the
// conditions copied from the PreConditions observation (ReAct has no placeholders: the model writes
// what it read), then the same final answer computed from the evidence the ReAct run observed.
import { loanScope } from "../lambdas/agents/loan/instructions/interpret.ts";
import { computeLevels } from "../lambdas/core/levels.ts";
import type { EvaluationRequest, Evidence, Plan, RawStep, ToolCatalog } from "../lambdas/core/types.ts";
import { planFromRequest, plannerText, solveFromEvidence, solverText } from "../lambdas/llm/rule-based.ts";
import type { ScriptedResponse } from "../lambdas/llm/scripted.ts";
import { scopeOf } from "../lambdas/planner/scope.ts";
import type { ToolRegistry } from "../lambdas/tools/registry.ts";
import { callTool } from "./react.ts";

export const rewooPlannerText = plannerText;
export const rewooSolverText = solverText;

export function rewooScript(
  request: EvaluationRequest,
  tools: ToolCatalog,
  maxSteps: number,
  plan: Plan,
  evidence: Evidence[],
): ScriptedResponse[] {
  return [
    { purpose: "planner", text: rewooPlannerText(request, tools, maxSteps, loanScope(plan.scope)) },
    { purpose: "solver", text: rewooSolverText(request, plan, evidence) },
  ];
}

// ------------------------------------------------------------------------------------------------
// ReAct

function thoughtFor(step: RawStep, request: EvaluationRequest, first: boolean): string {
  switch (step.tool) {
    case "call_preconditions_api":
      return "I need the conditions that apply to this loan before I can judge any document, so I ask the PreConditions service with the loan metadata.";
    case "retrieve_s3_document":
      return `${first ? "First" : "Next"} I check that ${String(step.args.s3_path)} is readable and see what it contains.`;
    case "call_conditions_ai_api":
      return `I have the predicted conditions${request.s3_pdf_paths.length > 0 ? " and the documents" : ""}. Now I ask Conditions AI to judge each condition against the ${request.s3_pdf_paths.length === 1 ? "document" : "documents"}.`;
    case "query_database":
      return `The instructions ask about ${step.args.query === "similar_loans" ? "similar loans" : "the condition history"}, so I look it up.`;
    default:
      return `I call ${step.tool}: ${step.description ?? ""}`.trim();
  }
}

/** The model's turn text, as it follows "Thought:" in the prompt. */
export function reactTurnText(thought: string, tool: string, args: Record<string, unknown>): string {
  return ` ${thought}\nAction: ${tool}\nAction Input: ${JSON.stringify(args)}`;
}

export function reactFinalText(answer: string): string {
  return ` I now know the final answer\nFinal Answer: ${answer}`;
}

/** The args a ReAct model writes for a plan step, given what it has observed (no placeholders). */
function concreteArgs(step: RawStep, observed: Map<string, Evidence>): Record<string, unknown> {
  if (step.tool !== "call_conditions_ai_api") return step.args;
  const ref = /^\{\{(E\d+)\.conditions\}\}$/.exec(String(step.args.conditions ?? ""));
  const source = ref?.[1] ? observed.get(ref[1]) : undefined;
  const output = source?.status === "ok" ? (source.output as { conditions?: unknown }) : undefined;
  const conditions = Array.isArray(output?.conditions)
    ? output.conditions.map((c) => {
        const condition = c as { id?: unknown; expected?: unknown };
        return { id: condition.id, expected: condition.expected ?? {} };
      })
    : [];
  return { ...step.args, conditions };
}

/** The final answer is the rule-based solver's whole result over what the ReAct run observed, written out. */
export function reactAnswer(request: EvaluationRequest, evidence: Evidence[]): string {
  const steps = evidence.map((item) => ({
    id: item.step_id,
    tool: item.tool,
    args: (item.args ?? {}) as Record<string, unknown>,
    depends_on: [],
  }));
  const plan: Plan = { steps, levels: computeLevels(steps), repairs: [] };
  return JSON.stringify(solveFromEvidence(request, plan, evidence), null, 2);
}

export interface ReactScript {
  /** In the order ScriptedProvider must try them: the latest turn first (see below). */
  responses: ScriptedResponse[];
  /** The turns in call order, for the record. */
  turns: string[];
}

/**
 * Builds the competent model's ReAct turns for a scenario. The turns depend on what the tools
 * return (the conditions to copy, the final answer), so the plan's tool calls are first executed
 * once without injected latency; the measured ReAct run then replays the turns and executes the same
 * calls again (the tools are deterministic for a fixed document set and history).
 *
 * ScriptedProvider answers with the first entry whose `match` is in the prompt. Turn k's entry
 * matches the text of turn k−1, which appears in the transcript only once turn k−1 has been
 * executed; entries are listed latest first, so the newest turn the transcript contains wins.
 */
export async function buildReactScript(options: {
  request: EvaluationRequest;
  tools: ToolRegistry;
  maxSteps: number;
  runId: string;
}): Promise<ReactScript> {
  const { request, tools } = options;
  // The same plan the ReWOO planner wrote, from the same reading of the instructions.
  const plan = planFromRequest(request, tools.catalog(), options.maxSteps, scopeOf(request));
  const observed = new Map<string, Evidence>();
  const evidence: Evidence[] = [];
  const turns: string[] = [];
  let retrievals = 0;
  for (const [index, step] of plan.entries()) {
    const id = `E${index + 1}`;
    const args = concreteArgs(step, observed);
    const thought = thoughtFor(step, request, step.tool === "retrieve_s3_document" && retrievals++ === 0);
    turns.push(reactTurnText(thought, step.tool, args));
    const result = await callTool(id, step.tool, args, { tools, runId: options.runId });
    observed.set(step.id, result);
    evidence.push(result);
  }
  turns.push(reactFinalText(reactAnswer(request, evidence)));

  const responses: ScriptedResponse[] = turns.map((text, index) =>
    index === 0 ? { text } : { match: turns[index - 1] as string, text },
  );
  return { responses: responses.reverse(), turns };
}
