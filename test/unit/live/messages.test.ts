import { describe, expect, it } from "vitest";
import type { ProgressEvent } from "../../../lambdas/core/types.ts";
import { errorMessage, eventMessage, MAX_MESSAGE_BYTES } from "../../../lambdas/live/messages.ts";

const base = { run_id: "run/1", timestamp: "2026-01-01T00:00:00.000Z" };

describe("WebSocket messages", () => {
  it("sends an event that fits as its own JSON", () => {
    const event: ProgressEvent = {
      ...base,
      seq: 3,
      stage: "worker",
      step: "E1",
      tool: "call_preconditions_api",
      level: 0,
      status: "completed",
      duration_ms: 12,
    };
    expect(JSON.parse(eventMessage(event))).toEqual(event);
  });

  it("replaces a solver event above 128 KB by a pointer to the run resource", () => {
    const event = {
      ...base,
      seq: 9,
      stage: "solver",
      status: "completed",
      results: { summary: "x".repeat(200_000) },
    } as unknown as ProgressEvent;
    const message = eventMessage(event);
    expect(Buffer.byteLength(message)).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(JSON.parse(message)).toEqual({
      run_id: "run/1",
      seq: 9,
      timestamp: base.timestamp,
      stage: "solver",
      status: "completed",
      truncated: true,
      resource: "/v1/runs/run%2F1",
    });
  });

  it("keeps step, tool and level of a worker event whose error is huge", () => {
    const event: ProgressEvent = {
      ...base,
      seq: 4,
      stage: "worker",
      step: "E2",
      tool: "call_conditions_ai_api",
      level: 1,
      status: "failed",
      error: "e".repeat(MAX_MESSAGE_BYTES),
    };
    expect(JSON.parse(eventMessage(event))).toMatchObject({
      seq: 4,
      stage: "worker",
      step: "E2",
      tool: "call_conditions_ai_api",
      level: 1,
      status: "failed",
      truncated: true,
    });
  });

  it("counts UTF-8 bytes, not characters", () => {
    // 50 000 three-byte characters: 150 KB on the wire although .length is 50 000.
    const event = {
      ...base,
      seq: 1,
      stage: "plan",
      plan: { steps: [], levels: [], note: "€".repeat(50_000) },
    } as unknown as ProgressEvent;
    expect(JSON.stringify(event).length).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(JSON.parse(eventMessage(event))).toMatchObject({ stage: "plan", truncated: true });
  });

  it("shapes error answers as {type: error, message}", () => {
    expect(JSON.parse(errorMessage("nope"))).toEqual({ type: "error", message: "nope" });
  });
});
