// CORS on the twin as the Service stack deploys it: a page on another local port (a dev server, a
// static host) preflights and calls the REST API; the gateway answers preflights for the origins of
// REWOO_ALLOWED_ORIGINS (the twin's default: any local port), the API function marks its answers,
// errors included, and an origin that is not allowed gets nothing a browser would let it read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { CORS_ALLOWED_HEADERS } from "../../lambdas/contracts/cors.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

const PAGE = "http://127.0.0.1:5173";
const ELSEWHERE = "https://evil.example";

let twin: Twin;
beforeAll(async () => {
  twin = await bootTwinWithSamples();
}, 120_000);
afterAll(async () => {
  await twin?.stop();
});

const call = (path: string, init: RequestInit & { origin?: string }) =>
  fetch(new URL(path, twin.urls.api), {
    ...init,
    headers: { ...(init.origin ? { origin: init.origin } : {}), ...(init.headers as Record<string, string>) },
  });

describe("the twin's REST API from another origin", () => {
  it("answers a preflight with the resource's methods, the allowed headers and the page's origin", async () => {
    const response = await call("/v1/evaluate-conditions", {
      method: "OPTIONS",
      origin: PAGE,
      headers: {
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,idempotency-key",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(response.headers.get("access-control-allow-methods")?.split(",")).toEqual(["POST", "OPTIONS"]);
    expect(response.headers.get("access-control-allow-headers")?.split(",")).toEqual([
      ...CORS_ALLOWED_HEADERS,
    ]);
    expect(response.headers.get("vary")).toBe("Origin");
    expect(await response.text()).toBe("");
  });

  it("does not allow an origin outside the setting, in the preflight or the answer", async () => {
    const preflight = await call("/v1/runs", { method: "OPTIONS", origin: ELSEWHERE });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const list = await call("/v1/runs", { method: "GET", origin: ELSEWHERE });
    expect(list.status).toBe(200);
    expect(list.headers.get("access-control-allow-origin")).toBeNull();
    expect(list.headers.get("vary")).toBe("Origin");
  });

  it("marks the API function's answers, a run started and a refused request alike", async () => {
    const started = await call("/v1/evaluate-conditions", {
      method: "POST",
      origin: PAGE,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(taxReturnRequest(["rm-conditions/1120-signed.pdf"])),
    });
    expect(started.status).toBe(202);
    expect(started.headers.get("access-control-allow-origin")).toBe(PAGE);
    const { run_id } = (await started.json()) as { run_id: string };
    await twin.waitForRun(run_id);

    const refused = await call("/v1/evaluate-conditions", {
      method: "POST",
      origin: PAGE,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metadata: {}, s3_pdf_paths: [] }),
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("access-control-allow-origin")).toBe(PAGE);
    const body = (await refused.json()) as { error: { fields?: Array<{ field: string }> } };
    expect(body.error.fields?.length).toBeGreaterThan(0);
  });

  it("echoes the origin on the gateway's own refusal of a resource the API lacks", async () => {
    for (const method of ["OPTIONS", "GET"]) {
      const response = await call("/v1/nothing-here", { method, origin: PAGE });
      expect(response.status, method).toBe(403);
      expect(response.headers.get("access-control-allow-origin"), method).toBe(PAGE);
    }
  });
});
