// One benchmark scenario through both architectures: a ReWOO run through the twin (its Step Functions
// history, bounds and payloads) and the ReAct loop over the same tools, with the scripted answers of
// both and the prompts' usage recounted.

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { HistoryEvent } from "../infra/local/step-functions.ts";
import type { Twin } from "../infra/local/twin.ts";
import { renderLoanPlannerPrompt, renderLoanSolverPrompt } from "../lambdas/agents/loan/prompts.ts";
import { profileModule } from "../lambdas/agents/registry.ts";
import { describeReading } from "../lambdas/core/review.ts";
import type { EvaluationRequest, Evidence, Plan, RunRecord, RunResult } from "../lambdas/core/types.ts";
import { ScriptedProvider } from "../lambdas/llm/scripted.ts";
import { tokenizerUsage } from "../lambdas/llm/tokenizer.ts";
import { formatJson } from "./json.ts";
import {
  analyzeHistory,
  type Bounds,
  type HistoryAnalysis,
  lambdaCost,
  modelledLlmMs,
  type OverheadBreakdown,
  overheadBreakdown,
  type PayloadProbe,
  planBounds,
  sfnCost,
} from "./measure.ts";
import { runReact } from "./react.ts";
import type { ArchitectureNumbers, ScenarioResult } from "./results.ts";
import { type Scenario, setLatencies, toolLatencies } from "./scenarios.ts";
import { buildReactScript, rewooScript } from "./scripted.ts";

export interface RewooRun {
  record: RunRecord;
  history: HistoryEvent[];
  analysis: HistoryAnalysis;
  bounds: Bounds;
  payload?: { bytes: number; state: string };
  client_ms: number;
}

export async function runRewoo(
  twin: Twin,
  request: EvaluationRequest,
  probe: PayloadProbe | undefined,
  maxConcurrency?: number,
): Promise<RewooRun> {
  const t0 = performance.now();
  const { run_id, executionArn } = await twin.startRun(request);
  const record = await twin.waitForRun(run_id);
  const client_ms = Math.round(performance.now() - t0);
  const history = twin.stepFunctions.history(executionArn);
  const analysis = analyzeHistory(history);
  const plan: Plan = record.plan ?? { steps: [], levels: [], repairs: [] };
  const bounds = planBounds(
    plan,
    record.evidence,
    analysis,
    maxConcurrency ?? (request.options?.parallel === false ? 1 : twin.services.config.workerConcurrency),
  );
  const payload = probe?.maxBytes(executionArn);
  return { record, history, analysis, bounds, client_ms, ...(payload ? { payload } : {}) };
}

export interface RunTiming {
  wall_ms: number;
  planner_ms: number;
  solver_ms: number;
  finalize_ms: number;
  bounds: Bounds;
  breakdown: OverheadBreakdown;
}

export function timing(run: RewooRun): RunTiming {
  const { analysis, bounds, record, history } = run;
  return {
    wall_ms: analysis.execution_ms,
    planner_ms: analysis.planner_ms,
    solver_ms: analysis.solver_ms,
    finalize_ms: analysis.finalize_ms,
    bounds,
    breakdown: overheadBreakdown(
      history,
      record.plan ?? { steps: [], levels: [], repairs: [] },
      record.evidence,
      analysis.execution_ms - bounds.lower_bound_ms,
    ),
  };
}

export function boundsOf(bounds: Bounds, wall: number) {
  return {
    lower_bound_ms: bounds.lower_bound_ms,
    lower_bound_capped_ms: bounds.lower_bound_capped_ms,
    critical_path_ms: bounds.critical_path_ms,
    sequential_tools_ms: bounds.sequential_tools_ms,
    overhead_ms: wall - bounds.lower_bound_ms,
  };
}

export function plannerMaxSteps(twin: Twin, request: EvaluationRequest): number {
  const cap = twin.services.config.maxSteps;
  return Math.min(request.options?.max_steps ?? cap, cap);
}

function orderedEvidence(record: RunRecord): Evidence[] {
  const byStep = new Map(record.evidence.map((e) => [e.step_id, e]));
  return (record.plan?.steps ?? []).flatMap((step) => byStep.get(step.id) ?? []);
}

/** Recounts the planner's and the solver's prompts as the handlers render them, against the recorded usage. */
function verifyUsage(twin: Twin, record: RunRecord, maxSteps: number) {
  const plan = record.plan as Plan;
  // The solver reads each tool's solver view of the evidence, as the solver handler renders it.
  const evidence = orderedEvidence(record).map((item) => twin.services.tools.forSolver(item));
  const script = rewooScript(record.request, twin.services.catalog, maxSteps, plan, evidence);
  const plannerPrompt = renderLoanPlannerPrompt({
    request: record.request,
    tools: twin.services.catalog,
    maxSteps,
    ...(plan.scope ? { scope: describeReading(profileModule(record.profile), plan.scope) } : {}),
  });
  const solverPrompt = renderLoanSolverPrompt({ request: record.request, plan, evidence });
  const planner = tokenizerUsage(plannerPrompt.system, plannerPrompt.prompt, script[0]?.text ?? "");
  const solver = tokenizerUsage(solverPrompt.system, solverPrompt.prompt, script[1]?.text ?? "");
  const ok =
    record.usage.llm_calls === 2 &&
    record.usage.input_tokens === planner.input_tokens + solver.input_tokens &&
    record.usage.output_tokens === planner.output_tokens + solver.output_tokens;
  return { ok, planner, solver };
}

/** Output tokens weighted 5× input tokens. */
export function weighted(n: { input_tokens: number; output_tokens: number }): number {
  return n.input_tokens + 5 * n.output_tokens;
}

export function totalsOf(usage: {
  input_tokens: number;
  output_tokens: number;
  llm_calls: number;
}): ArchitectureNumbers {
  return {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    total_tokens: usage.input_tokens + usage.output_tokens,
    llm_calls: usage.llm_calls,
  };
}

function verdictMap(result: Pick<RunResult, "fulfilled_conditions" | "unfulfilled_conditions"> | undefined) {
  const map = new Map<string, string>();
  for (const c of result?.fulfilled_conditions ?? []) map.set(c.id, "fulfilled");
  for (const c of result?.unfulfilled_conditions ?? []) map.set(c.id, String(c.status ?? "unfulfilled"));
  return map;
}

function sameVerdicts(rewoo: RunResult | undefined, reactAnswer: string | undefined): boolean {
  if (!rewoo || !reactAnswer) return false;
  try {
    const a = verdictMap(rewoo);
    const b = verdictMap(JSON.parse(reactAnswer) as RunResult);
    return a.size === b.size && [...a].every(([id, status]) => b.get(id) === status);
  } catch {
    return false;
  }
}

/**
 * One scenario, measured once: ReAct first (it writes no run records, so the ReWOO run's history
 * lookup sees the same store), then ReWOO through the twin; the scripted answers of both are written
 * to `scriptedDir`.
 */
export async function measureScenario(
  twin: Twin,
  scenario: Scenario,
  probe: PayloadProbe | undefined,
  memory: Record<string, number>,
  scriptedDir: string,
  log: (line: string) => void,
): Promise<{ result: ScenarioResult; record: RunRecord; first: RewooRun }> {
  const latencies = toolLatencies(scenario.name);
  setLatencies(twin, latencies);

  const maxSteps = plannerMaxSteps(twin, scenario.request);
  const script = await buildReactScript({
    request: scenario.request,
    tools: twin.services.tools,
    maxSteps,
    runId: `react-oracle-${scenario.name}`,
  });
  const react = await runReact({
    request: scenario.request,
    tools: twin.services.tools,
    provider: new ScriptedProvider(script.responses),
    runId: `react-${scenario.name}`,
    toolLatencyMs: latencies,
    maxTurns: script.turns.length + 2,
  });

  const first = await runRewoo(twin, scenario.request, probe);
  const { record, analysis, bounds, payload, history } = first;
  if (!record.plan) throw new Error(`${scenario.name}: the ReWOO run has no plan (${record.status})`);
  const verify = verifyUsage(twin, record, maxSteps);

  await writeFile(
    join(scriptedDir, `${scenario.name}.rewoo.json`),
    formatJson(
      rewooScript(scenario.request, twin.services.catalog, maxSteps, record.plan, orderedEvidence(record)),
    ),
  );
  await writeFile(join(scriptedDir, `${scenario.name}.react.json`), formatJson(script.responses));

  const rewooTotals = totalsOf(record.usage);
  const reactTotals = {
    input_tokens: react.input_tokens,
    output_tokens: react.output_tokens,
    total_tokens: react.input_tokens + react.output_tokens,
    llm_calls: react.llm_calls,
  };
  const rewooCalls = [
    { input_tokens: verify.planner.input_tokens, output_tokens: verify.planner.output_tokens },
    { input_tokens: verify.solver.input_tokens, output_tokens: verify.solver.output_tokens },
  ];
  const result: ScenarioResult = {
    name: scenario.name,
    description: scenario.description,
    documents: scenario.request.s3_pdf_paths.length,
    tool_calls: record.plan.steps.length,
    levels: bounds.levels,
    widest_level: bounds.widest_level,
    latencies_ms: latencies,
    rewoo: {
      ...rewooTotals,
      status: record.status,
      planner_input_tokens: verify.planner.input_tokens,
      planner_output_tokens: verify.planner.output_tokens,
      solver_input_tokens: verify.solver.input_tokens,
      solver_output_tokens: verify.solver.output_tokens,
      wall_ms: analysis.execution_ms,
      wall_ms_runs: [analysis.execution_ms],
      client_ms: first.client_ms,
      planner_ms: analysis.planner_ms,
      solver_ms: analysis.solver_ms,
      finalize_ms: analysis.finalize_ms,
      usage_verified: verify.ok,
      modelled_with_llm_ms: Math.round(analysis.execution_ms + modelledLlmMs(rewooCalls)),
    },
    react: {
      ...reactTotals,
      completed: react.final_answer !== undefined,
      wall_ms: react.wall_ms,
      tool_ms: react.tool_ms,
      largest_prompt_tokens: Math.max(0, ...react.calls.map((c) => c.input_tokens)),
      modelled_with_llm_ms: Math.round(react.wall_ms + modelledLlmMs(react.calls)),
      same_verdicts: sameVerdicts(record.result, react.final_answer),
    },
    token_ratio: round(reactTotals.total_tokens / rewooTotals.total_tokens, 2),
    cost_weighted_ratio: round(weighted(reactTotals) / weighted(rewooTotals), 2),
    overhead_breakdown: overheadBreakdown(
      history,
      record.plan,
      record.evidence,
      analysis.execution_ms - bounds.lower_bound_ms,
    ),
    ...boundsOf(bounds, analysis.execution_ms),
    transitions: analysis.transitions,
    lambda_invocations: analysis.lambda_invocations,
    cost_usd: sfnCost(analysis.transitions),
    lambda_cost_usd: lambdaCost(analysis, memory),
    max_payload_bytes: payload?.bytes ?? 0,
    max_payload_state: payload?.state ?? "n/a",
  };
  log(
    `  ReWOO ${rewooTotals.total_tokens} tok / ${rewooTotals.llm_calls} calls, ReAct ${reactTotals.total_tokens} tok / ${reactTotals.llm_calls} calls (×${result.token_ratio}); wall ${analysis.execution_ms} ms vs bound ${bounds.lower_bound_ms} ms`,
  );
  return { result, record, first };
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
