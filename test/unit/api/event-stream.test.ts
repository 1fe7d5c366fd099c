import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  type ResponseMeta,
  type RunEventSource,
  serveRunEventStream,
  sseMessage,
} from "../../../lambdas/api/event-stream.ts";
import type { ProgressEvent, ProgressEventBody, RunStatus } from "../../../lambdas/core/types.ts";
import { RunNotFoundError } from "../../../lambdas/store/runs.ts";

const RUN = "run-20261124-stream1";

/** A run whose events and status a test script changes between polls. */
class ScriptedRun implements RunEventSource {
  status: RunStatus = "RUNNING";
  events: ProgressEvent[] = [];
  reads = 0;
  add(seq: number, body: ProgressEventBody): void {
    this.events.push({
      ...body,
      run_id: RUN,
      seq,
      timestamp: `2026-11-24T10:00:${String(seq).padStart(2, "0")}Z`,
    });
  }
  async getMeta(runId: string) {
    if (runId !== RUN) throw new RunNotFoundError(runId);
    return { status: this.status };
  }
  async listEvents(_runId: string, afterSeq = 0) {
    this.reads += 1;
    return this.events.filter((event) => event.seq > afterSeq);
  }
}

/** A response the test reads back: the metadata it was opened with and every chunk written. */
function response() {
  let meta: ResponseMeta | undefined;
  let text = "";
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return {
    open: (m: ResponseMeta) => {
      meta = m;
      return sink;
    },
    sink,
    meta: () => meta,
    text: () => text,
    messages: () =>
      text
        .split("\n\n")
        .filter((block) => block.startsWith("id: "))
        .map((block) => {
          const fields = Object.fromEntries(
            block.split("\n").map((line) => line.split(/: (.*)/s).slice(0, 2)),
          );
          return {
            id: Number(fields.id),
            event: fields.event,
            data: JSON.parse(fields.data) as ProgressEvent,
          };
        }),
  };
}

const request = (headers: Record<string, string> = {}, query: Record<string, string> | null = null) => ({
  pathParameters: { run_id: RUN },
  headers,
  queryStringParameters: query,
});

const plan = { stage: "plan", plan: { steps: [] } } as unknown as ProgressEventBody;
const worker = (step: string): ProgressEventBody => ({
  stage: "worker",
  step,
  tool: "get_bank_statement",
  level: 0,
  status: "completed",
});
const complete = { stage: "complete", status: "SUCCEEDED" } as ProgressEventBody;

describe("GET /v1/runs/{run_id}/stream", () => {
  it("sends the stored events, then each live one as it is stored, and ends with complete", async () => {
    const run = new ScriptedRun();
    run.add(1, plan);
    const res = response();
    // Each poll's pause is where the run moves on: a step, then the solver's end.
    const script = [
      () => run.add(2, worker("E1")),
      () => run.add(3, worker("E2")),
      () => {
        run.add(4, complete);
        run.status = "SUCCEEDED";
      },
    ];
    const ended = await serveRunEventStream(request(), run, res.open, {
      pollMs: 1,
      sleep: async () => script.shift()?.(),
    });

    expect(ended).toBe("complete");
    expect(res.meta()).toEqual({
      statusCode: 200,
      headers: expect.objectContaining({ "content-type": "text/event-stream; charset=utf-8" }),
    });
    expect(res.text().startsWith("retry: 1000\n\n")).toBe(true);
    expect(res.messages().map((m) => [m.id, m.event])).toEqual([
      [1, "plan"],
      [2, "worker"],
      [3, "worker"],
      [4, "complete"],
    ]);
    expect(res.messages()[1]?.data).toMatchObject({
      run_id: RUN,
      seq: 2,
      step: "E1",
      tool: "get_bank_statement",
      status: "completed",
    });
    expect(res.sink.writableEnded).toBe(true);
  });

  it("resumes after Last-Event-ID (header or last_event_id) and answers 204 once complete was received", async () => {
    const run = new ScriptedRun();
    run.add(1, plan);
    run.add(2, worker("E1"));
    run.add(3, complete);
    run.status = "SUCCEEDED";

    const resumed = response();
    expect(
      await serveRunEventStream(request({ "Last-Event-ID": "1" }), run, resumed.open, { pollMs: 1 }),
    ).toBe("complete");
    expect(resumed.messages().map((m) => m.id)).toEqual([2, 3]);

    const byQuery = response();
    await serveRunEventStream(request({}, { last_event_id: "2" }), run, byQuery.open, { pollMs: 1 });
    expect(byQuery.messages().map((m) => m.id)).toEqual([3]);

    const done = response();
    expect(await serveRunEventStream(request({ "last-event-id": "3" }), run, done.open)).toBe(204);
    expect(done.meta()?.statusCode).toBe(204);
    expect(done.text()).toBe("");
  });

  it("never skips an event stored late: seq 3 waits until seq 2 is there", async () => {
    const run = new ScriptedRun();
    run.add(1, plan);
    run.add(3, worker("E2")); // E2's event landed before E1's, as concurrent steps can
    const res = response();
    const seenAtEachPoll: number[][] = [];
    const script = [
      () => run.add(2, worker("E1")),
      () => {
        run.add(4, complete);
        run.status = "SUCCEEDED";
      },
    ];
    await serveRunEventStream(request(), run, res.open, {
      pollMs: 1,
      sleep: async () => {
        seenAtEachPoll.push(res.messages().map((m) => m.id));
        script.shift()?.();
      },
    });
    expect(seenAtEachPoll[0]).toEqual([1]);
    expect(res.messages().map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it("ends before the invocation's time runs out, telling the client to reconnect with Last-Event-ID", async () => {
    const run = new ScriptedRun();
    run.add(1, plan);
    let remaining = 60_000;
    const res = response();
    const ended = await serveRunEventStream(request(), run, res.open, {
      pollMs: 1_000,
      remainingMs: () => remaining,
      sleep: async () => {
        remaining -= 30_000;
      },
    });
    expect(ended).toBe("time_limit");
    expect(res.messages().map((m) => m.id)).toEqual([1]);
    expect(res.text()).toContain("reconnect with Last-Event-ID");
    expect(res.sink.writableEnded).toBe(true);
  });

  it("keeps an idle connection open with comments and stops reading when the client leaves", async () => {
    const run = new ScriptedRun();
    const res = response();
    let polls = 0;
    const ended = await serveRunEventStream(request(), run, res.open, {
      pollMs: 1,
      heartbeatMs: 0,
      sleep: async () => {
        polls += 1;
        if (polls === 3) res.sink.destroy();
      },
    });
    expect(ended).toBe("client_gone");
    expect(res.text().match(/: keep-alive\n\n/g)?.length).toBe(3);
    expect(run.reads).toBe(3);
  });

  it("answers the API's JSON errors: 404 for an unknown run, 400 naming a bad run id or Last-Event-ID", async () => {
    const run = new ScriptedRun();
    const missing = response();
    expect(
      await serveRunEventStream(
        { ...request(), pathParameters: { run_id: "run-20261124-nothere" } },
        run,
        missing.open,
      ),
    ).toBe(404);
    expect(JSON.parse(missing.text())).toMatchObject({ error: { code: "run_not_found" } });

    const badId = response();
    await serveRunEventStream({ ...request(), pathParameters: { run_id: "../etc" } }, run, badId.open);
    expect(badId.meta()?.statusCode).toBe(400);
    expect(JSON.parse(badId.text()).error.fields[0].field).toBe("run_id");

    const badResume = response();
    await serveRunEventStream(request({ "Last-Event-ID": "seven" }), run, badResume.open);
    expect(badResume.meta()?.statusCode).toBe(400);
    expect(JSON.parse(badResume.text()).error.fields).toEqual([
      {
        field: "Last-Event-ID",
        message: "expected the seq of the last event received (a non-negative integer)",
      },
    ]);
  });

  it("writes one message per event: id, event and one line of data", () => {
    const message = sseMessage({
      ...worker("E1"),
      run_id: RUN,
      seq: 7,
      timestamp: "2026-11-24T10:00:00Z",
    } as ProgressEvent);
    expect(message).toBe(
      `id: 7\nevent: worker\ndata: {"stage":"worker","step":"E1","tool":"get_bank_statement","level":0,"status":"completed","run_id":"${RUN}","seq":7,"timestamp":"2026-11-24T10:00:00Z"}\n\n`,
    );
  });
});
