// GET /v1/runs/{run_id}/stream through the whole local twin: the REST API sends the route (transfer
// "stream" in the route table) to the stream function, whose response is streamed as API Gateway's
// response streaming does, so a client reads a run's progress events as Server-Sent Events while the
// run is still going. Read like a client would: fetch, the body a chunk at a time, no auth beyond what
// the twin's other REST calls use (none: IAM is not emulated on loopback).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { isTerminal } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, post, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
});

afterAll(async () => {
  await twin?.stop();
});

interface SseMessage {
  id: number;
  event: string;
  data: { seq: number; stage: string; status?: string };
}

/** An SSE response read incrementally: `next()` is the following message, undefined once the body ends. */
function sseReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let ended = false;
  return {
    get ended() {
      return ended;
    },
    async next(): Promise<SseMessage | undefined> {
      for (;;) {
        const boundary = buffer.indexOf("\n\n");
        if (boundary >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const fields = new Map<string, string>();
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue; // heartbeat comment
            const colon = line.indexOf(":");
            if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          // A block of comments or only `retry:` is no message.
          if (!fields.has("data")) continue;
          return {
            id: Number(fields.get("id")),
            event: fields.get("event") ?? "message",
            data: JSON.parse(fields.get("data") ?? "null"),
          };
        }
        const { value, done } = await reader.read();
        if (done) {
          ended = true;
          // Nothing but comments and `retry:` after the last message: no message cut in half.
          const rest = buffer.split("\n").filter((line) => line && !/^(:|retry:)/.test(line));
          expect(rest).toEqual([]);
          return undefined;
        }
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

const streamUrl = (runId: string) => `${twin.urls.api}/v1/runs/${runId}/stream`;

describe("GET /v1/runs/{run_id}/stream through the twin", () => {
  let runId: string;
  const seen: SseMessage[] = [];

  it("streams a run's events as they are stored, ids increasing, until complete", async () => {
    // An approval-gated run: it waits after its plan, so events provably arrive while it is live.
    ({ run_id: runId } = await twin.startRun(
      taxReturnRequest(["rm-conditions/1120-signed.pdf"], { options: { approval: "required" } }),
    ));
    const response = await fetch(streamUrl(runId), { headers: { accept: "text/event-stream" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-amzn-requestid")).toEqual(expect.any(String));
    const stream = sseReader(response);

    // Up to the approval request: the run waits for a decision, so it has not ended.
    for (;;) {
      const message = await stream.next();
      if (!message) throw new Error(`the stream ended before the approval request: ${JSON.stringify(seen)}`);
      seen.push(message);
      if (message.event === "approval" && message.data.status === "pending") break;
    }
    expect(isTerminal((await twin.services.runs.getMeta(runId)).status)).toBe(false);
    expect(seen.map((message) => message.event)).toEqual(["plan", "review", "approval"]);

    const approved = await post(twin.urls.api, `/v1/runs/${runId}/approval`, { decision: "approve" });
    expect(approved.status).toBe(202);
    for (;;) {
      const message = await stream.next();
      if (!message) break;
      seen.push(message);
    }
    expect(stream.ended).toBe(true);
    const last = seen.at(-1);
    expect(last).toMatchObject({ event: "complete", data: { stage: "complete", status: "SUCCEEDED" } });
    expect(seen.filter((message) => message.event === "complete")).toHaveLength(1);
    expect(seen.map((message) => message.event)).toEqual(expect.arrayContaining(["worker", "solver"]));
    for (const [index, message] of seen.entries()) {
      expect(message.data.seq).toBe(message.id);
      expect(message.event).toBe(message.data.stage);
      if (index > 0) expect(message.id).toBeGreaterThan((seen[index - 1] as SseMessage).id);
    }
    // Exactly the stored events, none lost between the stored ones and the live ones.
    const stored = await twin.services.runs.listEvents(runId);
    expect(seen.map((message) => message.id)).toEqual(stored.map((event) => event.seq));
  });

  it("resumes after Last-Event-ID with only the events after it", async () => {
    const after = (seen[2] as SseMessage).id;
    const response = await fetch(streamUrl(runId), { headers: { "Last-Event-ID": String(after) } });
    expect(response.status).toBe(200);
    const stream = sseReader(response);
    const resumed: SseMessage[] = [];
    for (let message = await stream.next(); message; message = await stream.next()) resumed.push(message);
    expect(resumed.map((message) => message.id)).toEqual(
      seen.filter((message) => message.id > after).map((message) => message.id),
    );
    expect(resumed.at(-1)?.event).toBe("complete");
  });

  it("answers 204 to a client that already has the finished run's complete event", async () => {
    const lastSeq = (seen.at(-1) as SseMessage).id;
    const response = await fetch(streamUrl(runId), { headers: { "Last-Event-ID": String(lastSeq) } });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
  });

  it("answers 404 JSON for a run that does not exist, and 400 for a bad Last-Event-ID", async () => {
    const missing = await fetch(streamUrl("run-20260101120000-deadbeef"));
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await missing.json()).toMatchObject({ error: { code: "run_not_found" } });

    const bad = await fetch(streamUrl(runId), { headers: { "Last-Event-ID": "soon" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "invalid_last_event_id" } });
  });
});
