// Clarification through the twin: a bank-statement request without the borrower's monthly income
// pauses in AWAITING_INPUT (the execution waits on a task token), asks through a `question` event,
// refuses answers that are not answers, and, once answered, runs on from where it stopped with the
// answer merged into the request and the plan: BS_LARGE_DEPOSITS is decided, every tool runs once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { ProgressEvent, RunRecord } from "../../lambdas/core/types.ts";
import { handler as plannerHandler } from "../../lambdas/planner/index.ts";
import {
  bankRequestWithoutIncome,
  bootTwinWithSamples,
  post,
  untilEvent,
  untilStatus,
  verdictOf,
} from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
});

afterAll(async () => {
  await twin?.stop();
});

describe("a run that lacks an input asks for it and waits", () => {
  it("asks for the monthly income, takes the answer and decides BS_LARGE_DEPOSITS, calling every tool once", async () => {
    const { run_id } = await twin.startRun(bankRequestWithoutIncome());
    await untilStatus(twin, run_id, "AWAITING_INPUT");
    await untilEvent(twin, run_id, "question");

    // Nothing but the planner ran; the question says what is missing, why, and for which condition.
    const waiting = (await (await fetch(new URL(`/v1/runs/${run_id}`, twin.urls.api))).json()) as RunRecord;
    expect(waiting.status).toBe("AWAITING_INPUT");
    expect(waiting.evidence).toEqual([]);
    expect(waiting.clarification).toMatchObject({
      status: "asked",
      questions: [
        {
          field: "borrower_info.monthly_income",
          question: "What is the borrower's gross monthly income?",
          conditions: ["BS_LARGE_DEPOSITS"],
        },
      ],
    });
    expect(waiting.clarification?.questions[0]?.why).toContain("cannot verify BS_LARGE_DEPOSITS");
    // The task token stays inside the service.
    const token = (await twin.services.runs.getMeta(run_id)).task_token as string;
    expect(token.length).toBeGreaterThan(20);
    expect(JSON.stringify(waiting)).not.toContain(token);
    const asked = await twin.services.runs.listEvents(run_id);
    expect(JSON.stringify(asked)).not.toContain(token);
    expect(asked.map((event) => event.stage)).toEqual(["plan", "review", "question"]);
    expect(asked.at(-1)).toMatchObject({
      stage: "question",
      questions: [{ field: "borrower_info.monthly_income" }],
      deadline: waiting.clarification?.deadline,
    });

    // Answers that are not answers: named, and the run keeps waiting.
    const notAnAmount = await post(twin.urls.api, `/v1/runs/${run_id}/input`, {
      answers: { "borrower_info.monthly_income": "about eight grand" },
    });
    expect(notAnAmount.status).toBe(400);
    expect(notAnAmount.body.error.fields).toEqual([
      {
        field: "answers.borrower_info.monthly_income",
        message: expect.stringContaining(
          'expected a positive amount in US dollars, e.g. 8000 or "$8,000.00"',
        ),
      },
    ]);
    const notAsked = await post(twin.urls.api, `/v1/runs/${run_id}/input`, {
      answers: { classification: "1120 Corporate Tax Return" },
    });
    expect(notAsked.status).toBe(400);
    expect(notAsked.body.error.fields[0].field).toBe("answers.classification");
    const approvalInstead = await post(twin.urls.api, `/v1/runs/${run_id}/approval`, { decision: "approve" });
    expect(approvalInstead.status).toBe(409);
    expect((await twin.services.runs.getMeta(run_id)).status).toBe("AWAITING_INPUT");

    const answered = await post(twin.urls.api, `/v1/runs/${run_id}/input`, {
      answers: { "borrower_info.monthly_income": "$8,000.00" },
    });
    expect(answered.status).toBe(202);
    expect(answered.body).toMatchObject({ run_id, status: "RUNNING", clarification: { status: "answered" } });
    const again = await post(twin.urls.api, `/v1/runs/${run_id}/input`, {
      answers: { "borrower_info.monthly_income": 9000 },
    });
    expect(again.status).toBe(409);

    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.request.metadata).toMatchObject({
      borrower_info: { name: "Jane Q. Doe", monthly_income: "$8,000.00" },
    });
    const preconditions = record.plan?.steps.find((step) => step.tool === "call_preconditions_api");
    expect(preconditions?.args).toMatchObject({
      metadata: { borrower_info: { monthly_income: "$8,000.00" } },
    });
    // Decided from the documents now that the threshold is known.
    expect(verdictOf(record, "BS_LARGE_DEPOSITS")).toMatch(/^(fulfilled|not_fulfilled)$/);
    expect(record.plan_review?.score).toBeGreaterThanOrEqual(5);
    expect(record.result_review?.score).toBeGreaterThanOrEqual(5);

    // Every step ran once: one started event per step, evidence for each.
    const events: ProgressEvent[] = await twin.services.runs.listEvents(run_id);
    const started = events.filter((event) => event.stage === "worker" && event.status === "started");
    expect(started.map((event) => (event as { step: string }).step).sort()).toEqual(
      (record.plan?.steps ?? []).map((step) => step.id).sort(),
    );
    expect(events.filter((event) => event.stage === "plan")).toHaveLength(1);
    expect(events.find((event) => event.stage === "answer")).toMatchObject({
      status: "answered",
      fields: ["borrower_info.monthly_income"],
    });
    expect(events.at(-1)).toMatchObject({ stage: "complete", status: "SUCCEEDED" });

    // A timeout that loses the race to the answer (WaitTimedOut retried late) changes nothing.
    expect(await plannerHandler({ run_id, action: "wait_timeout" })).toEqual({ timed_out: null });
    const after = (await twin.services.runs.getRun(run_id)) as RunRecord;
    expect(after.clarification).toEqual(record.clarification);
    expect(after.status).toBe("SUCCEEDED");
    expect(await twin.services.runs.listEvents(run_id)).toHaveLength(events.length);
  });

  it("does not ask when the request says never: the condition is insufficient_evidence, as before", async () => {
    const { run_id } = await twin.startRun(bankRequestWithoutIncome({ options: { clarification: "never" } }));
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.clarification).toBeUndefined();
    expect(verdictOf(record, "BS_LARGE_DEPOSITS")).toBe("insufficient_evidence");
  });

  it("rejects answers for a run that is not waiting, and unknown runs", async () => {
    const { run_id } = await twin.startRun(bankRequestWithoutIncome({ options: { clarification: "never" } }));
    await twin.waitForRun(run_id);
    const late = await post(twin.urls.api, `/v1/runs/${run_id}/input`, {
      answers: { "borrower_info.monthly_income": 9000 },
    });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toContain("is SUCCEEDED; it is not waiting for input");
    const unknown = await post(twin.urls.api, "/v1/runs/run-nope/input", { answers: {} });
    expect(unknown.status).toBe(404);
  });
});
