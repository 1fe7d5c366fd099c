// A plan in the ReWOO paper's own spelling (`#E1 = LLM[...]`) runs through the twin: validation maps
// the name to the registered `llm` tool, the stored plan and the evidence carry that name, and the
// worker runs the tool (the scripted model answers its `tool` prompt).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { ScriptedProvider } from "../../lambdas/llm/scripted.ts";
import { bootTwinWithScriptedModel, taxReturnRequest } from "./twin-fixture.ts";

const DOCUMENT = "rm-conditions/1120-signed.pdf";
const TOOL_ANSWER = "Flex Supreme: a program for business borrowers.";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithScriptedModel([
    {
      purpose: "planner",
      text: "Plan: Describe the loan program. #E1 = LLM[Describe the loan program Flex Supreme]",
    },
    { purpose: "tool", text: TOOL_ANSWER },
  ]);
});

afterAll(async () => {
  await twin?.stop();
});

describe("a plan naming the llm tool `LLM`, scripted model", () => {
  it("stores the registered name and runs the llm tool", async () => {
    const model = twin.services.llm.tool.provider as ScriptedProvider;
    const { run_id } = await twin.startRun(taxReturnRequest([DOCUMENT]));
    const run = await twin.waitForRun(run_id);
    expect(run.status, JSON.stringify(run.error)).toBe("SUCCEEDED");

    const llmStep = run.plan?.steps.find((step) => step.id === "E1");
    expect(llmStep).toMatchObject({
      tool: "llm",
      args: { prompt: "Describe the loan program Flex Supreme" },
    });
    expect(run.plan?.steps.map((step) => step.tool)).not.toContain("LLM");
    const evidence = run.evidence.find((item) => item.step_id === "E1");
    expect(evidence).toMatchObject({ tool: "llm", status: "ok", output: { text: TOOL_ANSWER } });
    expect(model.received.filter((prompt) => prompt.purpose === "tool")).toHaveLength(1);
  });
});
