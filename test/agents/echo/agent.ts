// A test-only agent, the smallest one the engine runs: it says the caller's instructions back
// through its one tool. It is what docs/agents.md's recipe makes (one folder, one registration),
// registered only by the tests that run it (registerAgent), never by the engine. Pure.
import * as z from "zod";
import type { AgentRegistration } from "../../../lambdas/agents/registry.ts";
import type { AgentProfileModule, PlanningInput } from "../../../lambdas/core/agent-profiles.ts";
import { parsePlanText } from "../../../lambdas/core/parse.ts";
import { scoreReview } from "../../../lambdas/core/review.ts";
import type { Evidence, Plan, ReviewIssue, RunResult } from "../../../lambdas/core/types.ts";
import { normalizePlan } from "../../../lambdas/core/validate.ts";
import { defineTool } from "../../../lambdas/tools/registry.ts";

export const ECHO_PROFILE = "echo";
export const ECHO_TOOL = "echo_text";

/** The agent's one tool: the text back, with its length (what the answer is written from). */
export const echoTool = defineTool({
  name: ECHO_TOOL,
  description: "Says the given text back, with its length in characters",
  args: z.object({ text: z.string().min(1).describe("the text to say back") }),
  timeout_ms: 1_000,
  run: async ({ text }) => ({ echoed: text, length: text.length }),
});

/** Plans name the echo tool only, and at least once. */
function reviewEchoPlan(plan: Plan, _request: unknown, threshold: number | undefined) {
  const issues: ReviewIssue[] = plan.steps
    .filter((step) => step.tool !== ECHO_TOOL)
    .map((step) => ({
      criterion: "quality",
      severity: "critical",
      message: `${step.id} calls ${step.tool}, which is not the echo agent's tool`,
      ref: step.id,
    }));
  if (!plan.steps.some((step) => step.tool === ECHO_TOOL)) {
    issues.push({
      criterion: "relevance",
      severity: "critical",
      message: `the plan never calls ${ECHO_TOOL}`,
    });
  }
  return scoreReview(issues, threshold);
}

/** The answer: every echo the evidence holds, in plan order. */
function echoAnswer(evidence: Evidence[]): RunResult {
  const echoed = evidence
    .filter((item) => item.status === "ok" && item.tool === ECHO_TOOL)
    .map((item) => (item.output as { echoed: string }).echoed);
  return {
    summary: echoed.length ? `Echoed: ${echoed.join(" | ")}` : "Nothing was echoed.",
    fulfilled_conditions: [],
    unfulfilled_conditions: [],
    missing_information: echoed.length ? [] : ["no echo step succeeded"],
    recommendations: [],
  };
}

export const echoAgent: AgentProfileModule = {
  name: ECHO_PROFILE,
  planFromText: (text: string, input: PlanningInput) =>
    normalizePlan(parsePlanText(text), {
      tools: input.tools,
      maxSteps: input.maxSteps,
      request: input.request,
    }),
  requiredTools: () => new Set([ECHO_TOOL]),
  reviewPlan: reviewEchoPlan,
  questions: () => [],
  answered: (request, plan) => ({ request, plan }),
  answer: (_request, _plan, evidence) => echoAnswer(evidence),
  reviewResult: (result, _evidence, threshold) =>
    scoreReview(
      result.summary.startsWith("Echoed: ")
        ? []
        : [{ criterion: "completeness", severity: "major", message: "the answer echoes nothing" }],
      threshold,
    ),
};

/** What a test passes to registerAgent. */
export const echoRegistration: AgentRegistration = { profile: echoAgent, tools: [echoTool] };
