// Waits that run out (REWOO_WAIT_SECONDS=1 here): an unanswered question lets the run go on, and the
// conditions that needed the answer are insufficient_evidence saying no answer came; an approval
// that never comes ends the run REJECTED without calling a tool. A late answer is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import {
  bankRequestWithoutIncome,
  bootTwinWithSamples,
  post,
  taxReturnRequest,
  verdictOf,
} from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples({ REWOO_WAIT_SECONDS: "1" });
});

afterAll(async () => {
  await twin?.stop();
});

describe("a wait that times out", () => {
  it("goes on without the answer; the conditions that needed it say no answer came", async () => {
    const { run_id } = await twin.startRun(bankRequestWithoutIncome());
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.clarification).toMatchObject({ status: "timed_out" });
    expect(verdictOf(record, "BS_LARGE_DEPOSITS")).toBe("insufficient_evidence");
    const finding = record.result?.unfulfilled_conditions.find((item) => item.id === "BS_LARGE_DEPOSITS");
    expect(finding?.reason).toContain(
      `asked for borrower_info.monthly_income at ${record.clarification?.asked_at}; no answer came by ${record.clarification?.deadline}`,
    );
    expect(record.result?.missing_information.join("\n")).toContain(
      "no answer came to the question for borrower_info.monthly_income",
    );
    // The other conditions were judged as usual.
    expect(verdictOf(record, "BS_NO_NSF")).toBe("not_fulfilled");
    const stages = (await twin.services.runs.listEvents(run_id)).map((event) => event.stage);
    expect(stages.slice(0, 4)).toEqual(["plan", "review", "question", "answer"]);
    const late = await post(twin.urls.api, `/v1/runs/${run_id}/input`, {
      answers: { "borrower_info.monthly_income": 8000 },
    });
    expect(late.status).toBe(409);
  });

  it("ends REJECTED when no operator approves in time", async () => {
    const { run_id } = await twin.startRun(
      taxReturnRequest(["rm-conditions/1120-signed.pdf"], { options: { approval: "required" } }),
    );
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("REJECTED");
    expect(record.evidence).toEqual([]);
    expect(record.approval).toMatchObject({ status: "timed_out" });
    expect(record.result?.summary).toContain(`no operator approved the plan by ${record.approval?.deadline}`);
    const events = await twin.services.runs.listEvents(run_id);
    expect(events.at(-1)).toMatchObject({ stage: "complete", status: "REJECTED" });
  });
});
