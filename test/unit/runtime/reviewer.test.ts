// The reviews the ReviewPlan and ReviewResult states record: with the offline rule-based provider
// the rules' review as it is and no model call; with a model one "review" call on the reviewer's
// model, paid for in the run's usage, whose answer can only lower the review, and whose unusable
// answer leaves the rules' review with a minor issue.
import { Logger } from "@aws-lambda-powertools/logger";
import { describe, expect, it, vi } from "vitest";
import { loanPlanReviewRules, loanResultIssues } from "../../../lambdas/agents/loan/review.ts";
import {
  renderPlanReviewPrompt,
  renderResultReviewPrompt,
} from "../../../lambdas/agents/loan/review-prompts.ts";
import { reviewPlan, reviewResult } from "../../../lambdas/core/review.ts";
import type { EvaluationRequest, Evidence, Plan, RunResult, Usage } from "../../../lambdas/core/types.ts";
import { createLlmProviders } from "../../../lambdas/llm/index.ts";
import { RuleBasedProvider } from "../../../lambdas/llm/rule-based.ts";
import { ScriptedProvider, type ScriptedResponse } from "../../../lambdas/llm/scripted.ts";
import type { LlmProvider } from "../../../lambdas/llm/types.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import { reviewPlanWithModel, reviewResultWithModel } from "../../../lambdas/runtime/reviewer.ts";
import type { Services } from "../../../lambdas/runtime/services.ts";

const DOC = "rm/1120-signed.pdf";
const REQUEST: EvaluationRequest = {
  metadata: { loan_program: "Flex Supreme", classification: "1120 Corporate Tax Return" },
  instructions: "Evaluate all loan conditions",
  s3_pdf_paths: [DOC],
};
const PLAN: Plan = {
  steps: [
    {
      id: "E1",
      tool: "call_preconditions_api",
      args: { metadata: REQUEST.metadata },
      depends_on: [],
      description: "Predict",
    },
    {
      id: "E2",
      tool: "call_conditions_ai_api",
      args: { conditions: "{{E1.conditions}}", documents: [DOC] },
      depends_on: ["E1"],
      description: "Judge",
    },
  ],
  levels: [["E1"], ["E2"]],
  repairs: [],
};
const PLAN_INPUT = {
  plan: PLAN,
  request: REQUEST,
  ...loanPlanReviewRules(REQUEST, undefined),
  reviewerPrompt: renderPlanReviewPrompt,
  tools: new Set(["call_preconditions_api", "call_conditions_ai_api"]),
};

const at = "2026-11-23T12:00:00.000Z";
const EVIDENCE: Evidence[] = [
  {
    step_id: "E1",
    tool: "call_preconditions_api",
    status: "ok",
    output: { conditions: [{ id: "TR_SIGNED" }] },
    upstream_errors: [],
    started_at: at,
    finished_at: at,
    duration_ms: 1,
  },
  {
    step_id: "E2",
    tool: "call_conditions_ai_api",
    status: "ok",
    output: {
      verdicts: [
        {
          condition_id: "TR_SIGNED",
          status: "fulfilled",
          citations: [{ document: DOC, page: 1, excerpt: "J Doe" }],
        },
      ],
    },
    upstream_errors: [],
    started_at: at,
    finished_at: at,
    duration_ms: 1,
  },
];
const RESULT: RunResult = {
  summary: "1 of 1 condition fulfilled.",
  fulfilled_conditions: [{ id: "TR_SIGNED", citations: [{ document: DOC, page: 1, excerpt: "J Doe" }] }],
  unfulfilled_conditions: [],
  missing_information: [],
  recommendations: [],
};

const review = (criteria: Record<string, number>, issues: unknown[] = []) =>
  JSON.stringify({ criteria, issues });
const ALL = (score: number) => ({ relevance: score, completeness: score, safety: score, quality: score });

function harness(provider: LlmProvider, model = "reviewer-model") {
  const usage: Usage[] = [];
  const log = new Logger({ logLevel: "SILENT" });
  const warn = vi.spyOn(log, "warn");
  const services = {
    llm: { reviewer: { provider, model } },
    runs: {
      addUsage: async (_runId: string, increment: Usage) => {
        usage.push({
          llm_calls: increment.llm_calls,
          input_tokens: increment.input_tokens,
          output_tokens: increment.output_tokens,
        });
      },
    },
  } as unknown as Pick<Services, "llm" | "runs">;
  return { usage, warn, run: { runId: "run-1", services, log } };
}

const scripted = (responses: ScriptedResponse[]) => new ScriptedProvider(responses);

describe("reviewPlanWithModel", () => {
  it("returns the rules' review and calls nothing with the rule-based provider", async () => {
    const provider = new RuleBasedProvider();
    const complete = vi.spyOn(provider, "complete");
    const { usage, run } = harness(provider);

    const verdict = await reviewPlanWithModel(PLAN_INPUT, 5, run);

    expect(verdict).toEqual(reviewPlan(PLAN_INPUT, 5));
    expect(complete).not.toHaveBeenCalled();
    expect(usage).toEqual([]);
  });

  it("makes one review call on the reviewer's model, counts it, and merges the model's answer", async () => {
    const provider = scripted([
      {
        purpose: "review",
        text: review({ ...ALL(9), completeness: 4 }, [
          {
            criterion: "completeness",
            severity: "major",
            message: "no retrieval step for the return",
            ref: "E2",
          },
        ]),
        usage: { input_tokens: 900, output_tokens: 60 },
      },
    ]);
    const complete = vi.spyOn(provider, "complete");
    const { usage, run } = harness(provider);

    const verdict = await reviewPlanWithModel(PLAN_INPUT, 5, run);

    expect(complete).toHaveBeenCalledTimes(1);
    const request = complete.mock.calls[0]?.[0];
    expect(request?.model).toBe("reviewer-model");
    expect(request?.context).toEqual({ purpose: "review", target: "plan", rules: reviewPlan(PLAN_INPUT, 5) });
    expect(request?.prompt).toMatch(/^Review this plan/);
    expect(usage).toEqual([{ llm_calls: 1, input_tokens: 900, output_tokens: 60 }]);
    expect(verdict).toEqual({
      approved: true,
      score: 8,
      criteria: { relevance: 9, completeness: 4, safety: 9, quality: 9 },
      issues: [
        {
          criterion: "completeness",
          severity: "major",
          message: "no retrieval step for the return",
          ref: "E2",
          source: "model",
        },
      ],
    });
  });

  it("falls back to the rules' review with a minor issue when the answer is unusable, still counting the call", async () => {
    const { usage, warn, run } = harness(
      scripted([{ purpose: "review", text: review({ ...ALL(8), safety: 11 }) }]),
    );

    const verdict = await reviewPlanWithModel(PLAN_INPUT, 5, run);

    expect(verdict).toMatchObject({ approved: true, score: 10, criteria: { quality: 9, safety: 10 } });
    expect(verdict.issues).toEqual([
      {
        criterion: "quality",
        severity: "minor",
        message:
          "the model review was unusable, so the rule-based review stands: criteria.safety: expected an integer from 1 to 10, got 11",
      },
    ]);
    expect(usage).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(
      "model review unusable; the rule-based review stands",
      expect.objectContaining({
        target: "plan",
        problems: ["criteria.safety: expected an integer from 1 to 10, got 11"],
      }),
    );
  });

  it.each(["max_tokens", "length", "model_context_window_exceeded"])(
    "says the answer was cut off when the model stopped with %s",
    async (stopReason) => {
      const cutOff: LlmProvider = {
        name: "bedrock",
        complete: async () => ({
          text: '{"criteria": {"relevance": 9, "completeness"',
          model: "m",
          usage: { input_tokens: 10, output_tokens: 4096, source: "provider" },
          stop_reason: stopReason,
        }),
      };
      const verdict = await reviewPlanWithModel(PLAN_INPUT, 5, harness(cutOff).run);
      expect(verdict.issues[0]?.message).toContain(
        `stands: the answer was cut off (${stopReason}); no JSON object`,
      );
    },
  );

  it("lets the rules alone judge a plan no model wrote", async () => {
    const provider = scripted([{ purpose: "review", text: review(ALL(1)) }]);
    const complete = vi.spyOn(provider, "complete");
    const { usage, run } = harness(provider);

    expect(await reviewPlanWithModel(PLAN_INPUT, 5, { ...run, askModel: false })).toEqual(
      reviewPlan(PLAN_INPUT, 5),
    );
    expect(complete).not.toHaveBeenCalled();
    expect(usage).toEqual([]);
  });

  it("lets a failing model call fail the review, so the workflow retries it", async () => {
    const { usage, run } = harness(scripted([{ purpose: "planner", text: "[]" }]));
    await expect(reviewPlanWithModel(PLAN_INPUT, 5, run)).rejects.toThrow(/no response for a review prompt/);
    expect(usage).toEqual([]);
  });
});

describe("reviewResultWithModel", () => {
  const input = {
    request: REQUEST,
    result: RESULT,
    evidence: EVIDENCE,
    resultIssues: (result: RunResult, evidence: Evidence[]) => loanResultIssues(result, evidence, undefined),
    reviewerPrompt: renderResultReviewPrompt,
  };

  it("sends the answer and its evidence, and ends unapproved when the model scores it below the threshold", async () => {
    const provider = scripted([{ purpose: "review", text: review({ ...ALL(3), relevance: 6 }) }]);
    const complete = vi.spyOn(provider, "complete");
    const { usage, run } = harness(provider);

    const verdict = await reviewResultWithModel(input, 5, run);

    expect(reviewResult(input, 5)).toMatchObject({ approved: true, score: 10 });
    expect(verdict).toMatchObject({ approved: false, score: 4, criteria: { relevance: 6, safety: 3 } });
    const request = complete.mock.calls[0]?.[0];
    expect(request?.context).toMatchObject({ purpose: "review", target: "result" });
    expect(request?.prompt).toContain(`TR_SIGNED fulfilled; cites ${DOC} p.1 "J Doe"`);
    expect(usage).toHaveLength(1);
  });
});

describe("the reviewer binding", () => {
  it("takes the planner's model unless REWOO_REVIEWER_MODEL names another", () => {
    const planner = createLlmProviders({
      provider: "openai",
      openaiBaseUrl: "http://127.0.0.1:1/v1",
      plannerModel: "big",
    });
    // Each role gets its own provider instance (its own temperature and token limit), of the same kind.
    expect(planner.reviewer.model).toBe("big");
    expect(planner.reviewer.provider.name).toBe(planner.planner.provider.name);
    expect(planner.reviewer.provider.constructor).toBe(planner.planner.provider.constructor);
    const own = createLlmProviders({
      provider: "openai",
      openaiBaseUrl: "http://127.0.0.1:1/v1",
      plannerModel: "big",
      reviewerModel: "judge",
    });
    expect(own.reviewer.model).toBe("judge");
  });

  it("reads REWOO_REVIEWER_MODEL, falling back to REWOO_PLANNER_MODEL", () => {
    const env = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };
    expect(parseConfig({ ...env, REWOO_PLANNER_MODEL: "big" }).llm.reviewerModel).toBe("big");
    expect(
      parseConfig({ ...env, REWOO_PLANNER_MODEL: "big", REWOO_REVIEWER_MODEL: "judge" }).llm.reviewerModel,
    ).toBe("judge");
    expect(parseConfig(env).llm.reviewerModel).toBeUndefined();
  });

  it("has the rule-based provider answer a review it is asked for with the rules' own scores", async () => {
    const rules = reviewPlan(PLAN_INPUT, 5);
    const completion = await new RuleBasedProvider().complete({
      system: "",
      prompt: "Review this plan",
      context: { purpose: "review", target: "plan", rules },
    });
    expect(JSON.parse(completion.text)).toEqual({ criteria: rules.criteria, issues: [] });
  });
});
