// The plan cache with a model's plans (the scripted provider, REWOO_PLAN_CACHE=on): a plan that writes
// part of a borrower's name into a step's prompt is never stored, so the next borrower's run asks the
// planner; a plan without request data left once templated is stored, and the third borrower's run
// makes no planner call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import type { ScriptedProvider } from "../../lambdas/llm/scripted.ts";
import { bootTwinWithScriptedModel, taxReturnRequest } from "./twin-fixture.ts";

const DOCUMENT = "rm-conditions/1120-signed.pdf";

function borrowerRequest(name: string, business: string, income: number) {
  const request = taxReturnRequest([DOCUMENT], { options: { clarification: "never" } });
  request.metadata.borrower_info = { name, business_name: business, monthly_income: income };
  return request;
}

const jane = borrowerRequest("Jane Q. Doe", "Acme Widgets Inc", 8000);
const rafael = borrowerRequest("Rafael Ortiz", "Ortiz Freight LLC", 12500);
const mei = borrowerRequest("Mei Chen", "Chen Bakery Co", 9100);

/** A model's plan for `request`: its metadata and document written out, as a model writes them. */
function modelPlan(request: ReturnType<typeof borrowerRequest>, prompt: string): string {
  return JSON.stringify([
    {
      id: "E1",
      tool: "call_preconditions_api",
      args: { metadata: request.metadata },
      description: "Predict the conditions that apply to this loan",
    },
    { id: "E2", tool: "llm", args: { prompt }, depends_on: ["E1"] },
    {
      id: "E3",
      tool: "call_conditions_ai_api",
      args: { conditions: "{{E1.conditions}}", documents: request.s3_pdf_paths },
      depends_on: ["E1"],
      description: "Evaluate the conditions against the documents",
    },
  ]);
}

let twin: Twin;
let model: ScriptedProvider;

beforeAll(async () => {
  twin = await bootTwinWithScriptedModel(
    [
      {
        purpose: "planner",
        match: "Jane Q. Doe",
        // The name as the model shortened it: no placeholder explains "Doe".
        text: modelPlan(jane, "Summarize for Ms. Doe what {{E1.conditions}} asks of her"),
      },
      {
        purpose: "planner",
        match: "Rafael Ortiz",
        text: modelPlan(rafael, "Summarize what {{E1.conditions}} asks of the borrower"),
      },
      // Asked for any other borrower: a run of a cached shape must never get here.
      { purpose: "planner", text: modelPlan(mei, "Summarize what {{E1.conditions}} asks of the borrower") },
      { purpose: "tool", text: "The conditions ask for a signed return." },
    ],
    { REWOO_PLAN_CACHE: "on" },
  );
  model = twin.services.llm.planner.provider as ScriptedProvider;
}, 120_000);

afterAll(async () => {
  await twin?.stop();
});

const plannerCalls = () => model.received.filter((prompt) => prompt.purpose === "planner").length;
const run = async (request: object): Promise<RunRecord> =>
  twin.waitForRun((await twin.startRun(request)).run_id) as Promise<RunRecord>;

describe("the plan cache with a model's plans", () => {
  it("never stores a plan that keeps part of its borrower's name, stores one that keeps nothing, and reuses it", async () => {
    const first = await run(jane);
    expect(first.plan_source).toBe("planner");
    expect(first.plan?.steps.find((step) => step.id === "E2")?.args.prompt).toContain("Ms. Doe");
    expect(plannerCalls()).toBe(1);

    // Jane's plan was refused: Rafael's run, of the same shape, asks the planner.
    const second = await run(rafael);
    expect(second.plan_source).toBe("planner");
    expect(plannerCalls()).toBe(2);

    const third = await run(mei);
    expect(third.plan_source).toBe("cache");
    expect(plannerCalls()).toBe(2);
    expect(third.usage.llm_calls).toBe(second.usage.llm_calls - 1);
    const plan = JSON.stringify(third.plan);
    expect(plan).toContain("Mei Chen");
    expect(plan).toContain("Chen Bakery Co");
    for (const value of ["Jane", "Rafael", "Ortiz", "12500"]) expect(plan).not.toContain(value);
    expect(third.plan?.steps.map((step) => step.tool)).toEqual(second.plan?.steps.map((step) => step.tool));
  });
});
