// A planner whose plan cannot run (scripted responses stand in for a model) ends the run FAILED
// with the validation message, through the state machine's failure path.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

const cyclicPlan = [
  {
    id: "E1",
    tool: "call_preconditions_api",
    args: { metadata: { classification: "x" } },
    depends_on: ["E2"],
  },
  {
    id: "E2",
    tool: "call_conditions_ai_api",
    args: { conditions: "{{E1.conditions}}", documents: ["rm-conditions/1120-signed.pdf"] },
  },
];
const unknownToolPlan = [
  { id: "E1", tool: "call_preconditions_api", args: { metadata: {} } },
  { id: "E2", tool: "fax_document", args: { to: "underwriting" } },
  {
    id: "E3",
    tool: "call_conditions_ai_api",
    args: { conditions: "{{E1.conditions}}", documents: ["rm-conditions/1120-signed.pdf"] },
  },
];

let twin: Twin;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "rewoo-scripted-"));
  const file = join(dir, "responses.json");
  writeFileSync(
    file,
    JSON.stringify([
      {
        purpose: "planner",
        match: "SCENARIO cyclic",
        text: `Here is the plan:\n${JSON.stringify(cyclicPlan)}`,
      },
      { purpose: "planner", match: "SCENARIO unknown-tool", text: JSON.stringify(unknownToolPlan) },
      { purpose: "planner", match: "SCENARIO prose", text: "I cannot help with that." },
    ]),
  );
  twin = await bootTwinWithSamples({ REWOO_LLM_PROVIDER: "scripted", REWOO_SCRIPTED_RESPONSES: file });
});

afterAll(async () => {
  await twin?.stop();
});

async function failedRun(scenario: string) {
  const { run_id } = await twin.startRun(
    taxReturnRequest(["rm-conditions/1120-signed.pdf"], { instructions: `SCENARIO ${scenario}` }),
  );
  const run = await twin.waitForRun(run_id);
  const events = await twin.services.runs.listEvents(run_id);
  return { run, events };
}

describe("plans that cannot run", () => {
  it("ends a cyclic plan FAILED with the cycle named", async () => {
    const { run, events } = await failedRun("cyclic");
    expect(run.status).toBe("FAILED");
    expect(run.error?.error).toBe("PlanValidationError");
    expect(run.error?.cause).toMatch(/cycle: E1 -> E2 -> E1/);
    expect(run.evidence).toEqual([]);
    // The planner was asked once more with the validation error (the scripted one repeats itself).
    expect(events.map((e) => e.stage)).toEqual(["replan", "complete"]);
    expect(events[0]).toMatchObject({ stage: "replan", attempt: 1, seq: 1 });
    expect(JSON.stringify(events[0])).toMatch(/cycle: E1 -> E2 -> E1/);
    expect(events[1]).toMatchObject({ stage: "complete", status: "FAILED", seq: 2 });
    expect(run.usage.llm_calls).toBe(2);
  });

  it("ends an unknown-tool plan FAILED listing the known tools", async () => {
    const { run } = await failedRun("unknown-tool");
    expect(run.status).toBe("FAILED");
    expect(run.error?.cause).toMatch(/fax_document/);
    expect(run.error?.cause).toMatch(/call_preconditions_api/);
    expect(run.error?.cause).toMatch(/retrieve_s3_document/);
    // The first answer and the one asked again with the validation error.
    expect(run.usage.llm_calls).toBe(2);
  });

  it("ends a run FAILED when the planner answers without a plan", async () => {
    const { run } = await failedRun("prose");
    expect(run.status).toBe("FAILED");
    expect(run.error?.error).toBe("PlanParseError");
    expect(run.error?.cause).toMatch(/no plan steps found/);
  });
});
