// ReAct baseline (Yao et al. 2022) for the benchmark — a comparison architecture, not a product path.
// Thought → Action → Observation: one LLM call per step, each with the whole transcript so far, over
// the SAME tool registry (real implementations, real evidence) and the SAME LlmProvider interface as
// the ReWOO planner and solver. The prompt is the standard ReAct format (LangChain's
// `hwchase17/react`) with the loan rules the ReWOO prompts give their planner and solver, and the
// tools' own descriptions and args schemas, so both architectures know exactly the same things.
// ReAct's texts are its own: the ReWOO prompts were made shorter (args as types, a short answer
// form) after this baseline was measured, and the baseline must not get cheaper with them.
import { DEFAULT_INSTRUCTIONS } from "../lambdas/agents/loan/prompts.ts";
import { balancedJsonEnd } from "../lambdas/core/embedded-json.ts";
import { argsJsonSchema, EVIDENCE_CHAR_BUDGET, renderRequest, truncate } from "../lambdas/core/prompts.ts";
import type { EvaluationRequest, Evidence, ToolCatalog } from "../lambdas/core/types.ts";
import type { CompletionUsage, LlmProvider } from "../lambdas/llm/types.ts";
import type { ToolRegistry } from "../lambdas/tools/registry.ts";

export const REACT_SYSTEM_PROMPT =
  "You are a loan underwriting conditions agent. You work step by step: think, call one tool, read its observation, and repeat until you can give the final answer.";

// The answer rules and the full output shape the ReWOO solver was first given: the two architectures
// are asked for the same answer (ReAct's final answer is the whole result, written out).
const SOLVER_RULES = `- A condition is fulfilled only when the evidence shows it (a "fulfilled" verdict of call_conditions_ai_api or a document excerpt). Never mark a condition fulfilled without evidence; cite the document, page and excerpt.
- An unfulfilled condition has status "not_fulfilled" when the evidence shows it is not met, and "insufficient_evidence" when the evidence is missing or inconclusive.
- A step with status "failed" or "not_run" produced no evidence. Treat its output as missing, name every such step in missing_information (step id, tool, error), and do not guess what it would have returned.
- recommendations are concrete next actions for the loan officer: documents to obtain, issues to correct, steps to retry.
- summary is one or two sentences with counts. If the instructions ask a question (for example whether the documents are sufficient or what is missing), answer it directly.

Output ONLY a JSON object of this shape:
{"summary": "...", "fulfilled_conditions": [{"id": "...", "title": "...", "reason": "...", "citations": [{"document": "...", "page": 1, "excerpt": "..."}]}], "unfulfilled_conditions": [{"id": "...", "title": "...", "status": "not_fulfilled" | "insufficient_evidence", "reason": "...", "citations": [...]}], "missing_information": ["..."], "recommendations": ["..."]}
No prose, no markdown fences.`;

/** One entry per tool: name, description and the args as compact JSON Schema, in catalog order. */
export function describeToolsAsJsonSchema(tools: ToolCatalog): string {
  const entries: string[] = [];
  for (const [name, spec] of tools) {
    entries.push(
      `- ${name}: ${spec.description.trim()}\n  args: ${JSON.stringify(argsJsonSchema(spec.args))}`,
    );
  }
  return entries.join("\n");
}

export const REACT_PROMPT = `Answer the loan request below. You have access to the following tools (args as JSON Schema):

{tool_descriptions}

Rules for evaluating loan conditions:
1. Call call_preconditions_api first, with the request's metadata as "metadata": it predicts the conditions to evaluate.
2. Then call call_conditions_ai_api with "conditions": the conditions call_preconditions_api returned (each as {"id", "expected"}), and "documents": the request's document paths.
3. You MAY call retrieve_s3_document once per document of the request, to check that it is readable.
4. Call query_database ONLY when the instructions ask about history, previous evaluations or similar loans: "query" is "similar_loans" or "condition_history", "filters" carries loan_program and classification.
5. Use only the tools listed above, with args that match their schemas; one tool call per step.

Use the following format:

Thought: you should always think about what to do
Action: the tool to call, one of [{tool_names}]
Action Input: the tool's args as one JSON object
Observation: the result of the tool call
... (this Thought/Action/Action Input/Observation can repeat N times)
Thought: I now know the final answer
Final Answer: the answer described below

Rules for the Final Answer:
{answer_rules}

Begin!

Request:
{request}

{scratchpad}Thought:`;

export interface ReactStep {
  /** E1, E2, … in call order (the ids the final answer's evidence uses). */
  id: string;
  /** The model's text for this turn (after "Thought:"), as it appears in later prompts. */
  response: string;
  tool: string;
  args: Record<string, unknown>;
  evidence: Evidence;
  observation: string;
}

export interface ReactCall {
  input_tokens: number;
  output_tokens: number;
  source: CompletionUsage["source"];
  prompt_chars: number;
}

export interface ReactResult {
  final_answer?: string;
  /** Why the loop stopped without a final answer. */
  error?: string;
  steps: ReactStep[];
  calls: ReactCall[];
  llm_calls: number;
  input_tokens: number;
  output_tokens: number;
  /** Sum of tool durations (tools run one after another in ReAct). */
  tool_ms: number;
  wall_ms: number;
}

export type ParsedTurn =
  | { kind: "final"; answer: string }
  | { kind: "action"; tool: string; input: unknown; response: string }
  | { kind: "invalid"; reason: string; response: string };

/** The text of a model turn up to its Action Input's JSON (a model may go on to invent an Observation). */
export function parseReactTurn(text: string): ParsedTurn {
  const final = /Final Answer:\s*/.exec(text);
  const action = /Action:\s*([A-Za-z0-9_.-]+)/.exec(text);
  if (final && (!action || final.index < action.index)) {
    return { kind: "final", answer: text.slice(final.index + final[0].length).trim() };
  }
  if (!action?.[1]) return { kind: "invalid", reason: "no Action and no Final Answer", response: text };
  const inputAt = text.indexOf("Action Input:", action.index);
  if (inputAt < 0) return { kind: "invalid", reason: "Action without Action Input", response: text };
  const open = text.slice(inputAt).search(/[{[]/);
  const start = open < 0 ? -1 : inputAt + open;
  const end = start < 0 ? -1 : balancedJsonEnd(text, start);
  if (end < 0) return { kind: "invalid", reason: "Action Input is not a JSON object", response: text };
  try {
    return {
      kind: "action",
      tool: action[1],
      input: JSON.parse(text.slice(start, end + 1)),
      response: text.slice(0, end + 1),
    };
  } catch (error) {
    return { kind: "invalid", reason: `Action Input: ${(error as Error).message}`, response: text };
  }
}

/** An observation is rendered like a ReWOO evidence item: compact JSON, same per-step character budget. */
export function renderObservation(evidence: Evidence): string {
  if (evidence.status === "error")
    return `ERROR: ${truncate(evidence.error ?? "unknown error", EVIDENCE_CHAR_BUDGET)}`;
  const text =
    typeof evidence.output === "string" ? evidence.output : JSON.stringify(evidence.output ?? null);
  return truncate(text, EVIDENCE_CHAR_BUDGET);
}

export function renderReactPrompt(
  request: EvaluationRequest,
  tools: ToolCatalog,
  turns: ReadonlyArray<{ response: string; observation: string }>,
): { system: string; prompt: string } {
  const scratchpad = turns
    .map((turn) => `Thought:${turn.response}\nObservation: ${turn.observation}\n`)
    .join("");
  const values: Record<string, string> = {
    tool_descriptions: describeToolsAsJsonSchema(tools),
    tool_names: [...tools.keys()].join(", "),
    request: renderRequest(request, { defaultInstructions: DEFAULT_INSTRUCTIONS }),
    scratchpad,
    answer_rules: SOLVER_RULES,
  };
  // Single pass, known slots only (the solver rules contain JSON braces).
  const prompt = REACT_PROMPT.replace(/\{([a-z_]+)\}/g, (slot, name: string) =>
    Object.hasOwn(values, name) ? (values[name] as string) : slot,
  );
  return { system: REACT_SYSTEM_PROMPT, prompt };
}

export interface RunReactOptions {
  request: EvaluationRequest;
  tools: ToolRegistry;
  provider: LlmProvider;
  model?: string;
  /** Tool context run id: the document reader caches per run, as it does for a ReWOO run. */
  runId: string;
  /** Injected latency per tool, like REWOO_TOOL_LATENCY_MS for the ReWOO worker. */
  toolLatencyMs?: Record<string, number>;
  /** Stop after this many LLM calls without a final answer. */
  maxTurns: number;
}

export async function runReact(options: RunReactOptions): Promise<ReactResult> {
  const { request, tools, provider } = options;
  const catalog = tools.catalog();
  const started = performance.now();
  const result: ReactResult = {
    steps: [],
    calls: [],
    llm_calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    tool_ms: 0,
    wall_ms: 0,
  };
  const turns: Array<{ response: string; observation: string }> = [];
  for (let turn = 0; turn < options.maxTurns; turn++) {
    const { system, prompt } = renderReactPrompt(request, catalog, turns);
    const completion = await provider.complete({
      system,
      prompt,
      ...(options.model ? { model: options.model } : {}),
      // The LlmProvider interface knows planner, solver and tool calls; a ReAct turn is neither planner
      // nor solver (providers only use the purpose for the default temperature).
      context: { purpose: "tool" },
    });
    result.llm_calls += 1;
    result.input_tokens += completion.usage.input_tokens;
    result.output_tokens += completion.usage.output_tokens;
    result.calls.push({
      input_tokens: completion.usage.input_tokens,
      output_tokens: completion.usage.output_tokens,
      source: completion.usage.source,
      prompt_chars: system.length + prompt.length,
    });

    const parsed = parseReactTurn(completion.text);
    if (parsed.kind === "final") {
      result.final_answer = parsed.answer;
      break;
    }
    const id = `E${result.steps.length + 1}`;
    let evidence: Evidence;
    if (parsed.kind === "invalid") {
      evidence = errorEvidence(id, "(none)", `could not parse the turn: ${parsed.reason}`);
    } else {
      evidence = await callTool(id, parsed.tool, parsed.input, options);
      result.tool_ms += evidence.duration_ms;
    }
    const observation = renderObservation(evidence);
    const response = parsed.response;
    turns.push({ response, observation });
    result.steps.push({
      id,
      response,
      tool: evidence.tool,
      args: (evidence.args ?? {}) as Record<string, unknown>,
      evidence,
      observation,
    });
  }
  if (result.final_answer === undefined) {
    result.error = `no Final Answer after ${options.maxTurns} LLM calls`;
  }
  result.wall_ms = Math.round(performance.now() - started);
  return result;
}

/** Runs one tool the way the ReWOO worker does: validate args, injected latency, timeout, errors as data. */
export async function callTool(
  id: string,
  name: string,
  input: unknown,
  options: Pick<RunReactOptions, "tools" | "runId" | "toolLatencyMs">,
): Promise<Evidence> {
  const started = new Date();
  const args =
    input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const finish = (partial: Pick<Evidence, "status" | "output" | "error">): Evidence => {
    const finished = new Date();
    return {
      step_id: id,
      tool: name,
      ...partial,
      upstream_errors: [],
      args,
      started_at: started.toISOString(),
      finished_at: finished.toISOString(),
      duration_ms: finished.getTime() - started.getTime(),
    };
  };
  let tool: ReturnType<ToolRegistry["get"]>;
  try {
    tool = options.tools.get(name);
  } catch (error) {
    return finish({ status: "error", error: (error as Error).message });
  }
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(args)"}: ${issue.message}`,
    );
    return finish({ status: "error", error: `invalid arguments for ${name}: ${problems.join("; ")}` });
  }
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    const latency = options.toolLatencyMs?.[name] ?? options.toolLatencyMs?.["*"] ?? 0;
    const call = (async () => {
      if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
      return tool.run(parsed.data, {
        run_id: options.runId,
        step_id: id,
        signal: controller.signal,
        recordLlmUsage: () => undefined,
      });
    })();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`${name} timed out after ${tool.timeout_ms} ms`));
      }, tool.timeout_ms);
    });
    const output = await Promise.race([call, timeout]);
    return finish({ status: "ok", output: output ?? null });
  } catch (error) {
    return finish({ status: "error", error: error instanceof Error ? error.message : String(error) });
  } finally {
    clearTimeout(timer);
  }
}

function errorEvidence(id: string, tool: string, error: string): Evidence {
  const now = new Date().toISOString();
  return {
    step_id: id,
    tool,
    status: "error",
    error,
    upstream_errors: [],
    started_at: now,
    finished_at: now,
    duration_ms: 0,
  };
}
