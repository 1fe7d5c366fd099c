// Reviewed runs through the twin: every run carries a plan review and a result review; a plan that
// fails review is asked for once more and, failing again, ends the run NEEDS_REVIEW before any
// tool runs; an answer the evidence contradicts ends NEEDS_REVIEW with the answer kept and marked.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

const SIGNED = "rm-conditions/1120-signed.pdf";
const UNSIGNED = "rm-conditions/1120-unsigned.pdf";

const steps = (document: string, read: string) => [
  {
    id: "E1",
    tool: "call_preconditions_api",
    args: { metadata: taxReturnRequest([]).metadata },
    description: "Predict",
  },
  { id: "E2", tool: "retrieve_s3_document", args: { s3_path: read }, description: "Read the return" },
  {
    id: "E3",
    tool: "call_conditions_ai_api",
    args: { conditions: "{{E1.conditions}}", documents: [document] },
    depends_on: ["E1", "E2"],
    description: "Judge",
  },
];

/** Claims the unsigned return is signed, with nothing to show for it. */
const OVERCONFIDENT_ANSWER = {
  summary: "All conditions fulfilled.",
  fulfilled_conditions: [{ id: "TR_SIGNED", status: "fulfilled", reason: "looks signed", citations: [] }],
  unfulfilled_conditions: [],
  missing_information: [],
  recommendations: [],
};

let twin: Twin;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "rewoo-reviews-"));
  const file = join(dir, "responses.json");
  writeFileSync(
    file,
    JSON.stringify([
      // Reads a return the caller did not send (another borrower's file in the same bucket).
      { purpose: "planner", match: "SCENARIO foreign", text: JSON.stringify(steps(SIGNED, UNSIGNED)) },
      {
        purpose: "planner",
        match: "SCENARIO overconfident",
        text: JSON.stringify(steps(UNSIGNED, UNSIGNED)),
      },
      { purpose: "solver", match: "SCENARIO overconfident", text: JSON.stringify(OVERCONFIDENT_ANSWER) },
      // A model reviewer with nothing to add: the rules' findings decide (model-reviews.test.ts drives it).
      {
        purpose: "review",
        text: JSON.stringify({
          criteria: { relevance: 10, completeness: 10, safety: 10, quality: 10 },
          issues: [],
        }),
      },
    ]),
  );
  twin = await bootTwinWithSamples({ REWOO_LLM_PROVIDER: "scripted", REWOO_SCRIPTED_RESPONSES: file });
});

afterAll(async () => {
  await twin?.stop();
});

async function run(documents: string[], scenario: string) {
  const { run_id } = await twin.startRun(
    taxReturnRequest(documents, { instructions: `SCENARIO ${scenario}` }),
  );
  const record = await twin.waitForRun(run_id);
  const events = await twin.services.runs.listEvents(run_id);
  return { record, events };
}

describe("reviewed runs", () => {
  it("ends NEEDS_REVIEW before any tool runs when the plan reads a document the caller did not send", async () => {
    const { record, events } = await run([SIGNED], "foreign");
    expect(record.error).toBeUndefined();
    expect(record.status).toBe("NEEDS_REVIEW");
    expect(record.evidence).toEqual([]);
    expect(record.plan_review).toMatchObject({ approved: false, criteria: { safety: 1 } });
    expect(record.plan_review?.issues.map((issue) => issue.message)).toContain(
      `E2 reads ${UNSIGNED}, which is not one of the request's documents`,
    );
    expect(record.result_review).toBeUndefined();
    // Asked once more with the issues (the scripted planner repeats itself): two planner calls and
    // the model's review of each plan, no solver.
    expect(record.usage.llm_calls).toBe(4);
    expect(events.map((event) => event.stage)).toEqual([
      "plan",
      "review",
      "replan",
      "plan",
      "review",
      "complete",
    ]);
    expect(events.at(-1)).toMatchObject({ stage: "complete", status: "NEEDS_REVIEW" });
    expect(record.result?.summary).toMatch(/^Needs review: the agent's plan scored \d+\/10/);
    expect(record.result?.fulfilled_conditions).toEqual([]);
    expect(record.result?.missing_information.join("\n")).toContain(`E2 reads ${UNSIGNED}`);
  });

  it("keeps and marks an answer the evidence contradicts, ending NEEDS_REVIEW", async () => {
    const { record, events } = await run([UNSIGNED], "overconfident");
    expect(record.status).toBe("NEEDS_REVIEW");
    expect(record.plan_review).toMatchObject({ approved: true, score: 10 });
    expect(record.result_review?.approved).toBe(false);
    const found = record.result_review?.issues.map((issue) => issue.message) ?? [];
    expect(found).toContain("TR_SIGNED is fulfilled without a citation");
    expect(found).toContain("TR_SIGNED is fulfilled in the result but not_fulfilled in the evidence");
    expect(
      found.some((message) => /applies to the loan but the result does not judge it/.test(message)),
    ).toBe(true);
    expect(record.result?.summary).toMatch(
      /^Needs review: the answer scored \d+\/10 against its evidence\. All conditions fulfilled\.$/,
    );
    expect(record.result?.fulfilled_conditions.map((c) => c.id)).toEqual(["TR_SIGNED"]);
    expect(record.result?.recommendations.join("\n")).toMatch(
      /Check before relying on this answer: TR_SIGNED is fulfilled/,
    );
    expect(
      events.filter((event) => event.stage === "review").map((event) => (event as { target: string }).target),
    ).toEqual(["plan", "result"]);
    expect(events.at(-1)).toMatchObject({ stage: "complete", status: "NEEDS_REVIEW" });
  });
});
