// The engine without an agent's words: what lambdas/core does for an agent that gives it no prompts,
// no review rules and no answer words, and how the agent's hooks reach the reviewers. Core names no
// agent, so nothing here may speak of one.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { AgentProfileModule } from "../../../lambdas/core/agent-profiles.ts";
import { rejectedAnswer } from "../../../lambdas/core/interaction.ts";
import {
  GENERIC_PLANNER_PROMPT,
  GENERIC_PLANNER_SYSTEM_PROMPT,
  renderPlannerPrompt,
} from "../../../lambdas/core/prompts.ts";
import {
  needsReviewAnswer,
  planReviewInput,
  resultReviewInput,
  reviewPlan,
  reviewResult,
  scoreReview,
} from "../../../lambdas/core/review.ts";
import type { EvaluationRequest, Plan, RunResult, ToolCatalog } from "../../../lambdas/core/types.ts";

const AGENT_WORDS = /loan|banking|condition|tax.?return|statement|transfer|underwriter/i;

const TOOLS: ToolCatalog = new Map([
  [
    "say",
    { name: "say", description: "Says a text", args: z.object({ text: z.string().describe("what to say") }) },
  ],
]);
const REQUEST: EvaluationRequest = { metadata: { who: "me" }, s3_pdf_paths: ["docs/a.pdf"] };
const PLAN: Plan = {
  steps: [
    { id: "E1", tool: "say", args: { text: "hi" }, depends_on: [], description: "Say hi" },
    { id: "E2", tool: "shout", args: { s3_path: "docs/b.pdf" }, depends_on: [] },
  ],
  levels: [["E1", "E2"]],
  repairs: [],
  scope: { interpretation: "Say hi." },
};
const RESULT: RunResult = {
  summary: "",
  fulfilled_conditions: [],
  unfulfilled_conditions: [],
  missing_information: [],
  recommendations: [],
};

const bare: AgentProfileModule = {
  name: "bare",
  planFromText: () => PLAN,
  requiredTools: () => new Set(),
  answered: (request, plan) => ({ request, plan }),
};

describe("an agent that gives the engine no words of its own", () => {
  it("plans from the generic planner prompt, with no instruction named for a request without one", () => {
    const { system, prompt } = renderPlannerPrompt({ request: REQUEST, tools: TOOLS, maxSteps: 3 });
    expect(system).toBe(GENERIC_PLANNER_SYSTEM_PROMPT);
    expect(prompt).toContain("Instructions: (none given)\n<metadata>");
    expect(prompt).toContain("say: Says a text");
    expect(prompt).toContain("at most 3 steps");
    expect(`${system}\n${GENERIC_PLANNER_PROMPT}`).not.toMatch(AGENT_WORDS);
  });

  it("says only that no tool was called when its plan is rejected or fails review", () => {
    const rejected = rejectedAnswer({
      status: "rejected",
      requested_at: "2026-11-28T10:00:00.000Z",
      deadline: "2026-11-29T10:00:00.000Z",
      reason: "wrong account",
    });
    expect(rejected.summary).toBe(
      "Rejected: an operator rejected the plan: wrong account, so no tool was called.",
    );
    expect(rejected.fulfilled_conditions).toEqual([]);
    expect(rejected.unfulfilled_conditions).toEqual([]);

    const review = scoreReview([
      { criterion: "safety", severity: "critical", message: "E2 reads docs/b.pdf" },
    ]);
    const needsReview = needsReviewAnswer("plan", review, undefined);
    expect(needsReview.summary).toBe(
      `Needs review: the agent's plan scored ${review.score}/10 in review, so no tool was called.`,
    );
    expect(needsReview.recommendations).toEqual([
      "Have a person review this request, or correct it (documents, metadata, instructions) and start a new evaluation",
    ]);
    expect(`${rejected.summary} ${needsReview.summary} ${needsReview.recommendations}`).not.toMatch(
      AGENT_WORDS,
    );
  });

  it("is reviewed by the engine's rules alone, with no model prompt and the reading's interpretation", () => {
    const input = planReviewInput(bare, PLAN, REQUEST, TOOLS, 3);
    expect(input.reviewerPrompt).toBeUndefined();
    expect(input.scope).toBe("Say hi.");
    expect(reviewPlan(input).issues.map((issue) => issue.message)).toEqual([
      "E2 calls shout, which is not a tool of this agent",
      "E2 reads docs/b.pdf, which is not one of the request's documents",
      "E2 has no description",
    ]);
    const result = resultReviewInput(bare, RESULT, [], PLAN);
    expect(result.reviewerPrompt).toBeUndefined();
    expect(reviewResult(result).issues.map((issue) => issue.message)).toEqual(["the summary is empty"]);
  });
});

describe("an agent's review hooks", () => {
  const seen: string[] = [];
  const agent: AgentProfileModule = {
    ...bare,
    describeReading: (reading) => `read as: ${reading.interpretation}`,
    reviewRules: {
      plan: (plan, request) => ({
        profile: {
          name: "bare",
          required_steps: [{ tool: "wave", description: "Wave first", build_args: () => ({}) }],
        },
        stepIssues: (step) =>
          step.tool === "say"
            ? [{ criterion: "relevance", severity: "minor", message: `${step.id} says` }]
            : [],
        planIssues: () => [
          {
            criterion: "completeness",
            severity: "major",
            message: `${plan.steps.length} steps for ${request.s3_pdf_paths.length} document`,
          },
        ],
      }),
      result: (_result, evidence, reading) => {
        seen.push(`${reading?.interpretation} ${evidence.length}`);
        return [{ criterion: "quality", severity: "minor", message: "too short" }];
      },
    },
    reviewerPrompts: {
      plan: (input) => ({ system: "plan reviewer", prompt: `${input.scope}` }),
      result: (input) => ({ system: "result reviewer", prompt: `${input.scope}` }),
    },
  };

  it("adds the agent's issues where they belong among the engine's, and its prompts and reading", () => {
    const input = planReviewInput(agent, PLAN, REQUEST, TOOLS, 3);
    expect(reviewPlan(input).issues.map((issue) => issue.message)).toEqual([
      "E1 says",
      "E2 calls shout, which is not a tool of this agent",
      "E2 reads docs/b.pdf, which is not one of the request's documents",
      "E2 has no description",
      "no wave step: Wave first",
      "2 steps for 1 document",
    ]);
    expect(
      input.reviewerPrompt?.({
        request: REQUEST,
        plan: PLAN,
        tools: [],
        scope: input.scope,
        rules: reviewPlan(input),
      }),
    ).toEqual({ system: "plan reviewer", prompt: "read as: Say hi." });

    const result = resultReviewInput(agent, RESULT, [], PLAN);
    expect(reviewResult(result).issues.map((issue) => issue.message)).toEqual([
      "the summary is empty",
      "too short",
    ]);
    expect(seen).toEqual(["Say hi. 0"]);
    expect(result.scope).toBe("read as: Say hi.");
  });
});
