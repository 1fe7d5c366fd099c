// The model reviewer through the twin, with a scripted model standing in for a hosted one: each
// review is one "review" call counted in the run's usage; the model's answer can only lower the
// rules' review (a low score on a sound answer ends the run NEEDS_REVIEW, the answer kept and
// marked), an unusable answer leaves the rules' review with a minor issue, and a model cannot
// approve a plan the rules found critical.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { REVIEWER_SYSTEM_PROMPT } from "../../lambdas/agents/loan/review-prompts.ts";
import type { RunResult } from "../../lambdas/core/types.ts";
import type { ScriptedProvider } from "../../lambdas/llm/scripted.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

const SIGNED = "rm-conditions/1120-signed.pdf";
const UNSIGNED = "rm-conditions/1120-unsigned.pdf";

const steps = (read: string) => [
  {
    id: "E1",
    tool: "call_preconditions_api",
    args: { metadata: taxReturnRequest([]).metadata },
    description: "Predict the conditions",
  },
  { id: "E2", tool: "retrieve_s3_document", args: { s3_path: read }, description: "Read the return" },
  {
    id: "E3",
    tool: "call_conditions_ai_api",
    args: { conditions: "{{E1.conditions}}", documents: [SIGNED] },
    depends_on: ["E2"],
    description: "Judge the conditions",
  },
];

/** What the engines find in the signed return, every verdict cited: the rules score it 10. */
const SOUND_ANSWER: RunResult = {
  summary: "5 of 5 conditions fulfilled.",
  fulfilled_conditions: ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"].map(
    (id) => ({
      id,
      status: "fulfilled",
      reason: "Conditions AI found it",
      citations: [{ document: SIGNED, page: 1 }],
    }),
  ),
  unfulfilled_conditions: [],
  missing_information: [],
  recommendations: [],
};

const review = (criteria: [number, number, number, number], issues: unknown[] = []) =>
  JSON.stringify({
    criteria: {
      relevance: criteria[0],
      completeness: criteria[1],
      safety: criteria[2],
      quality: criteria[3],
    },
    issues,
  });

const HARSH_ISSUE = "The summary calls every condition met without naming the officer who signed";
const USAGE = {
  planner: { input_tokens: 1000, output_tokens: 100 },
  solver: { input_tokens: 2000, output_tokens: 200 },
  review: { input_tokens: 500, output_tokens: 50 },
};

let twin: Twin;
let model: ScriptedProvider;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), "rewoo-model-reviews-")), "responses.json");
  writeFileSync(
    file,
    JSON.stringify([
      {
        purpose: "planner",
        match: "SCENARIO foreign",
        text: JSON.stringify(steps(UNSIGNED)),
        usage: USAGE.planner,
      },
      { purpose: "planner", text: JSON.stringify(steps(SIGNED)), usage: USAGE.planner },
      { purpose: "solver", text: JSON.stringify(SOUND_ANSWER), usage: USAGE.solver },
      // Every plan: a model that sees nothing wrong (and would approve the foreign read).
      { purpose: "review", match: "Review this plan", text: review([9, 9, 10, 9]), usage: USAGE.review },
      {
        purpose: "review",
        match: "SCENARIO good",
        text: review(
          [9, 8, 10, 8],
          [{ criterion: "quality", severity: "minor", message: "Reasons are generic" }],
        ),
        usage: USAGE.review,
      },
      {
        purpose: "review",
        match: "SCENARIO harsh",
        text: `My review:\n${review([3, 4, 2, 3], [{ criterion: "safety", severity: "major", message: HARSH_ISSUE, ref: "TR_SIGNED" }])}`,
        usage: USAGE.review,
      },
      {
        purpose: "review",
        match: "SCENARIO unusable",
        text: "The answer looks fine to me.",
        usage: USAGE.review,
      },
    ]),
  );
  twin = await bootTwinWithSamples({
    REWOO_LLM_PROVIDER: "scripted",
    REWOO_SCRIPTED_RESPONSES: file,
    REWOO_PLANNER_MODEL: "planner-model",
    REWOO_REVIEWER_MODEL: "reviewer-model",
  });
  model = twin.services.llm.reviewer.provider as ScriptedProvider;
});

afterAll(async () => {
  await twin?.stop();
});

async function run(scenario: string) {
  const before = model.received.length;
  const { run_id } = await twin.startRun(
    taxReturnRequest([SIGNED], { instructions: `SCENARIO ${scenario}` }),
  );
  const record = await twin.waitForRun(run_id);
  const events = await twin.services.runs.listEvents(run_id);
  const reviews = model.received.slice(before).filter((prompt) => prompt.purpose === "review");
  return { record, events, reviews };
}

describe("the model reviewer", () => {
  it("reviews plan and answer with one call each, counted in the run's usage, the model's scores lowering the rules'", async () => {
    const { record, events, reviews } = await run("good");

    expect(record.error).toBeUndefined();
    expect(record.status).toBe("SUCCEEDED");
    expect(twin.services.llm.reviewer.model).toBe("reviewer-model");
    expect(reviews.map((prompt) => prompt.prompt.split("\n")[0]?.slice(0, 18))).toEqual([
      "Review this plan, ",
      "Review this answer",
    ]);
    expect(reviews.every((prompt) => prompt.system === REVIEWER_SYSTEM_PROMPT)).toBe(true);
    // The result review sees the engine's verdicts with their citations.
    expect(reviews[1]?.prompt).toMatch(
      /<evidence id="E3" tool="call_conditions_ai_api">TR_SIGNED fulfilled: /,
    );
    expect(reviews[1]?.prompt).toContain(`TR_SIGNED fulfilled: Conditions AI found it; cites ${SIGNED} p.1`);

    expect(record.plan_review).toEqual({
      approved: true,
      score: 9,
      criteria: { relevance: 9, completeness: 9, safety: 10, quality: 9 },
      issues: [],
    });
    expect(record.result_review).toEqual({
      approved: true,
      score: 9,
      criteria: { relevance: 9, completeness: 8, safety: 10, quality: 8 },
      issues: [{ criterion: "quality", severity: "minor", message: "Reasons are generic", source: "model" }],
    });
    expect(record.usage).toEqual({
      llm_calls: 4,
      input_tokens: USAGE.planner.input_tokens + USAGE.solver.input_tokens + 2 * USAGE.review.input_tokens,
      output_tokens:
        USAGE.planner.output_tokens + USAGE.solver.output_tokens + 2 * USAGE.review.output_tokens,
      // The models that answered: the planner's, the reviewer's (both reviews), the solver's.
      models: ["planner-model", "reviewer-model", "scripted"],
    });
    expect(events.filter((event) => event.stage === "review")).toMatchObject([
      { target: "plan", score: 9 },
      { target: "result", score: 9 },
    ]);
  });

  it("ends NEEDS_REVIEW when the model scores a sound answer below the threshold, the answer kept and marked", async () => {
    const { record, events } = await run("harsh");

    expect(record.status).toBe("NEEDS_REVIEW");
    expect(record.plan_review?.approved).toBe(true);
    expect(record.result_review).toEqual({
      approved: false,
      score: 3,
      criteria: { relevance: 3, completeness: 4, safety: 2, quality: 3 },
      issues: [
        { criterion: "safety", severity: "major", message: HARSH_ISSUE, ref: "TR_SIGNED", source: "model" },
      ],
    });
    expect(record.result?.summary).toBe(
      "Needs review: the answer scored 3/10 against its evidence. 5 of 5 conditions fulfilled.",
    );
    expect(record.result?.fulfilled_conditions).toHaveLength(5);
    expect(record.result?.recommendations).toContain(
      `Check before relying on this answer: ${HARSH_ISSUE} (safety, major)`,
    );
    expect(record.usage.llm_calls).toBe(4);
    expect(events.at(-1)).toMatchObject({ stage: "complete", status: "NEEDS_REVIEW" });
  });

  it("keeps the rules' review, with a minor issue, when the model's answer is unusable", async () => {
    const { record } = await run("unusable");

    expect(record.status).toBe("SUCCEEDED");
    expect(record.result_review).toMatchObject({ approved: true, score: 10, criteria: { quality: 9 } });
    expect(record.result_review?.issues).toEqual([
      {
        criterion: "quality",
        severity: "minor",
        message:
          'the model review was unusable, so the rule-based review stands: no JSON object with "criteria" and "issues" in the answer ("The answer looks fine to me.")',
      },
    ]);
    // The unusable answer was paid for all the same.
    expect(record.usage.llm_calls).toBe(4);
  });

  it("cannot approve a plan that reads a document the caller did not send", async () => {
    const { record, reviews } = await run("foreign");

    expect(record.status).toBe("NEEDS_REVIEW");
    expect(record.evidence).toEqual([]);
    expect(record.plan_review).toMatchObject({ approved: false, criteria: { safety: 1 } });
    // The model was told what the rules found, as a fact.
    expect(reviews[0]?.prompt).toContain(
      `- safety, critical: E2 reads ${UNSIGNED}, which is not one of the request's documents [E2]`,
    );
    // Planned twice (once more with the issues), each plan reviewed by the model; no solver.
    expect(reviews).toHaveLength(2);
    expect(record.usage.llm_calls).toBe(4);
    expect(record.result_review).toBeUndefined();
  });
});
