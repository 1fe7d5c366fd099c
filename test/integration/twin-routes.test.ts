// The route table through the whole local twin: every REST method of lambdas/contracts/routes.ts reaches
// the real API handler by its resource, anything else gets API Gateway's own answer, and WebSocket messages
// reach the real route function their action selects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { Twin } from "../../infra/local/twin.ts";
import { REST_METHODS } from "../../lambdas/contracts/routes.ts";
import { bootTwinWithSamples } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
});

afterAll(async () => {
  await twin?.stop();
});

/** A request each method's handler can answer without a run: an empty body for POSTs, no such run. */
async function call(method: string, resource: string) {
  const path = resource.replace("{run_id}", "run-absent");
  const response = await fetch(`${twin.urls.api}${path}`, {
    method,
    ...(method === "POST" ? { headers: { "content-type": "application/json" }, body: "{}" } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("REST routes of the table, through the twin", () => {
  it.each(REST_METHODS.map((route) => [route.method, route.resource] as const))(
    "%s %s reaches the API handler",
    async (method, resource) => {
      const { status, body } = await call(method, resource);
      // Not the gateway's refusal, not the handler's own "no such route": the handler's operation answered.
      expect(status).not.toBe(403);
      expect(body.message).toBeUndefined();
      expect((body.error as { code?: string } | undefined)?.code ?? "").not.toMatch(
        /^(not_found|method_not_allowed)$/,
      );
    },
  );

  it("lists recent runs on GET /v1/runs", async () => {
    const response = await fetch(`${twin.urls.api}/v1/runs?limit=5`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ runs: expect.any(Array) });
  });

  it("answers a path or a method the API does not have as API Gateway does", async () => {
    for (const [method, path] of [
      ["GET", "/v1/run"],
      ["DELETE", "/v1/runs/run-absent"],
    ] as const) {
      const response = await fetch(`${twin.urls.api}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(await response.json()).toEqual({ message: "Missing Authentication Token" });
    }
  });
});

describe("WebSocket routes of the table, through the twin", () => {
  it("sends subscribe to the subscribe function and anything else to the fallback", async () => {
    const socket = new WebSocket(`${twin.urls.websocket}?token=${encodeURIComponent(twin.operatorToken)}`);
    const messages: Array<{ type?: string; message?: string }> = [];
    const next = () =>
      new Promise<{ type?: string; message?: string }>((resolve) => {
        socket.once("message", (data) => resolve(JSON.parse(data.toString())));
      });
    try {
      await new Promise((resolve, reject) => {
        socket.once("open", resolve);
        socket.once("error", reject);
      });
      let reply = next();
      socket.send(JSON.stringify({ action: "subscribe", run_id: "run-absent" }));
      messages.push(await reply);
      reply = next();
      socket.send(JSON.stringify({ action: "dance" }));
      messages.push(await reply);
    } finally {
      socket.close();
    }
    expect(messages).toEqual([
      { type: "error", message: 'run "run-absent" does not exist' },
      {
        type: "error",
        message: expect.stringMatching(/^unsupported action "dance"; supported actions: subscribe/),
      },
    ]);
  });
});
