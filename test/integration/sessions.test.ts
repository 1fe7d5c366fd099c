// Sessions through the twin: a request starts a session (or joins the one it names); a follow-up
// inherits the session's metadata and documents unless it overrides them; a new request supersedes
// a run still waiting for its caller; cancel and reset; the transcript, as JSON and as JSON Lines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import {
  bankRequestWithoutIncome,
  bootTwinWithSamples,
  post,
  taxReturnRequest,
  untilStatus,
} from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
});

afterAll(async () => {
  await twin?.stop();
});

async function get(path: string) {
  const response = await fetch(new URL(path, twin.urls.api));
  const text = await response.text();
  return { status: response.status, type: response.headers.get("content-type"), text };
}

async function finished(runId: string): Promise<RunRecord> {
  return twin.waitForRun(runId);
}

describe("sessions", () => {
  it("gives a new session to a request without one; a follow-up inherits metadata and documents", async () => {
    const first = await post(
      twin.urls.api,
      "/v1/evaluate-conditions",
      taxReturnRequest(["rm-conditions/1120-signed.pdf"]),
    );
    expect(first.status).toBe(202);
    const sessionId = first.body.session_id as string;
    expect(sessionId).toMatch(/^sess-\d{14}-[0-9a-f]{8}$/);
    await finished(first.body.run_id);

    // "And check the unsigned return too": only what changes is sent.
    const followUp = await post(twin.urls.api, "/v1/evaluate-conditions", {
      session_id: sessionId,
      instructions: "Is the return signed?",
      s3_pdf_paths: ["rm-conditions/1120-unsigned.pdf"],
      metadata: { borrower_info: { name: "Jane Q. Doe" } },
    });
    expect(followUp.status).toBe(202);
    expect(followUp.body.session_id).toBe(sessionId);
    const second = await finished(followUp.body.run_id);
    expect(second.status).toBe("SUCCEEDED");
    // Inherited: the loan's metadata, merged under what the follow-up said.
    expect(second.request.metadata).toEqual(taxReturnRequest([]).metadata);
    expect(second.request.s3_pdf_paths).toEqual(["rm-conditions/1120-unsigned.pdf"]);
    expect(second.request.session_id).toBe(sessionId);
    expect(second.session_id).toBe(sessionId);
    // The first request named no session: its id is the run's, not part of the caller's request.
    const first1 = await finished(first.body.run_id);
    expect(first1.session_id).toBe(sessionId);
    expect(first1.request.session_id).toBeUndefined();

    const session = JSON.parse((await get(`/v1/sessions/${sessionId}`)).text);
    expect(session).toMatchObject({
      session_id: sessionId,
      state: "completed",
      active_run_id: followUp.body.run_id,
      context: { s3_pdf_paths: ["rm-conditions/1120-unsigned.pdf"] },
    });
    expect(session.runs.map((run: { run_id: string }) => run.run_id)).toEqual([
      first.body.run_id,
      followUp.body.run_id,
    ]);
    const types = session.transcript.map((entry: { type: string }) => entry.type);
    expect(types).toEqual(["request", "review", "review", "result", "request", "review", "review", "result"]);
    expect(session.transcript.map((entry: { seq: number }) => entry.seq)).toEqual(
      types.map((_: string, i: number) => i + 1),
    );
    expect(session.transcript.at(-1)).toMatchObject({
      type: "result",
      status: "SUCCEEDED",
      state: "completed",
    });

    const lines = await get(`/v1/sessions/${sessionId}?format=jsonl`);
    expect(lines.status).toBe(200);
    expect(lines.type).toBe("application/x-ndjson");
    const parsed = lines.text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(parsed).toEqual(session.transcript);
  });

  it("asks, and a follow-up that is a new request supersedes the waiting run; reset forgets the context", async () => {
    const asked = await post(twin.urls.api, "/v1/evaluate-conditions", {
      ...bankRequestWithoutIncome(),
      session_id: "loan-4711",
    });
    expect(asked.status).toBe(202);
    await untilStatus(twin, asked.body.run_id, "AWAITING_INPUT");
    const waiting = JSON.parse((await get("/v1/sessions/loan-4711")).text);
    expect(waiting.state).toBe("awaiting_clarification");
    expect(waiting.transcript.map((entry: { type: string }) => entry.type)).toEqual([
      "request",
      "review",
      "question",
    ]);

    // A new request in the session: the waiting run is cancelled, the new one inherits the documents.
    const instead = await post(twin.urls.api, "/v1/evaluate-conditions", {
      session_id: "loan-4711",
      metadata: { borrower_info: { monthly_income: 8000 } },
    });
    expect(instead.status).toBe(202);
    const superseded = await finished(asked.body.run_id);
    expect(superseded.status).toBe("CANCELLED");
    const done = await finished(instead.body.run_id);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.request.s3_pdf_paths).toEqual(bankRequestWithoutIncome().s3_pdf_paths);
    expect(done.request.metadata).toMatchObject({
      borrower_info: { name: "Jane Q. Doe", monthly_income: 8000 },
    });
    const transcript = JSON.parse((await get("/v1/sessions/loan-4711")).text).transcript as Array<{
      type: string;
      reason?: string;
    }>;
    expect(transcript.find((entry) => entry.type === "cancel")?.reason).toBe(
      "superseded by a new request in its session",
    );

    // Nothing is running: cancel has nothing to do. Reset forgets the context.
    expect((await post(twin.urls.api, "/v1/sessions/loan-4711/cancel", {})).status).toBe(409);
    const reset = await post(twin.urls.api, "/v1/sessions/loan-4711/reset", {});
    expect(reset.body).toMatchObject({ session_id: "loan-4711", state: "idle", context: null });
    const after = JSON.parse((await get("/v1/sessions/loan-4711")).text);
    expect(after.state).toBe("idle");
    expect(after.transcript.at(-1)).toMatchObject({ type: "reset", state: "idle" });
    const bare = await post(twin.urls.api, "/v1/evaluate-conditions", {
      session_id: "loan-4711",
      instructions: "again",
    });
    expect(bare.status).toBe(400);
    expect(bare.body.error.fields.map((field: { field: string }) => field.field)).toEqual(
      expect.arrayContaining(["metadata", "s3_pdf_paths"]),
    );
  });

  it("cancels the session's run in progress and names bad ids and formats", async () => {
    const started = await post(twin.urls.api, "/v1/evaluate-conditions", {
      ...taxReturnRequest(["rm-conditions/1120-signed.pdf"], { options: { approval: "required" } }),
      session_id: "loan-4712",
    });
    await untilStatus(twin, started.body.run_id, "AWAITING_APPROVAL");
    const cancelled = await post(twin.urls.api, "/v1/sessions/loan-4712/cancel", {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ cancelled_run_id: started.body.run_id, state: "idle" });
    expect((await finished(started.body.run_id)).status).toBe("CANCELLED");

    expect((await get("/v1/sessions/nope-404")).status).toBe(404);
    expect((await get("/v1/sessions/bad%20id")).status).toBe(400);
    expect((await get("/v1/sessions/loan-4712?format=xml")).status).toBe(400);
    const badId = await post(twin.urls.api, "/v1/evaluate-conditions", {
      ...taxReturnRequest(["rm-conditions/1120-signed.pdf"]),
      session_id: "../other",
    });
    expect(badId.status).toBe(400);
    expect(badId.body.error.fields[0].field).toBe("session_id");
  });
});
