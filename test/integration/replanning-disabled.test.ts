// REWOO_MAX_REPLANS=0: a failed required step is answered as it was before replanning existed — no
// second planner call, the solver names what failed.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples({ REWOO_MAX_REPLANS: "0" });
});

afterAll(async () => {
  await twin?.stop();
});

it("answers with the failure and does not plan again", async () => {
  twin.services.faults.configure("call_conditions_ai_api=1:error:1");
  const { run_id } = await twin.startRun(taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
  const record = await twin.waitForRun(run_id);
  expect(record.status).toBe("SUCCEEDED");
  expect(record.replans).toBeUndefined();
  expect(record.usage.llm_calls).toBe(2);
  const events = await twin.services.runs.listEvents(run_id);
  expect(events.filter((event) => event.stage === "plan")).toHaveLength(1);
  expect(record.result?.summary).toMatch(/Not evaluated: call_conditions_ai_api \(E3\) failed/);
  expect(record.result?.unfulfilled_conditions.map((finding) => finding.status)).toEqual(
    Array(5).fill("insufficient_evidence"),
  );
});
