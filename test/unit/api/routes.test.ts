// Routing, method checks, id and query validation, and the error shape: everything the REST handler
// decides before it touches the runs table (a fake context whose store must never be reached).
import { Logger } from "@aws-lambda-powertools/logger";
import { describe, expect, it } from "vitest";
import type { ApiContext } from "../../../lambdas/api/context.ts";
import { matchRoute, OPERATION_HANDLERS, routeRequest } from "../../../lambdas/api/routes.ts";
import { REST_METHODS } from "../../../lambdas/contracts/routes.ts";
import { RunNotFoundError } from "../../../lambdas/store/runs.ts";
import { apiEvent } from "./events.ts";

const untouchable = new Proxy(
  {},
  {
    get(_target, name) {
      throw new Error(`the store must not be used here (called ${String(name)})`);
    },
  },
);

function fakeContext(overrides: Partial<ApiContext> = {}): ApiContext {
  return {
    services: {
      config: {} as ApiContext["services"]["config"],
      clients: untouchable as ApiContext["services"]["clients"],
      runs: untouchable as ApiContext["services"]["runs"],
      sessions: untouchable as ApiContext["services"]["sessions"],
      batches: untouchable as ApiContext["services"]["batches"],
      blobs: untouchable as ApiContext["services"]["blobs"],
      publisher: untouchable as ApiContext["services"]["publisher"],
      documentPolicy: { documentsBucket: "docs", allowedPrefixes: ["docs"] },
      resultPolicy: { allowedDestinations: ["artifacts/results/"] },
      now: () => new Date("2026-01-01T00:00:00Z"),
      tools: untouchable as ApiContext["services"]["tools"],
      catalog: untouchable as ApiContext["services"]["catalog"],
    },
    workflow: untouchable as ApiContext["workflow"],
    tokenKeys: async () => ({ run: { current: "s".repeat(32) } }),
    verifyToken: async () => {
      throw new Error("no token is verified here");
    },
    logger: new Logger({ logLevel: "SILENT" }),
    version: "9.9.9",
    ...overrides,
  };
}

const bodyOf = (result: { body: string }) => JSON.parse(result.body);

describe("matchRoute", () => {
  it("uses API Gateway's resource and path parameters", () => {
    const matched = matchRoute({
      resource: "/v1/runs/{run_id}/events",
      path: "/v1/runs/run-1/events",
      pathParameters: { run_id: "run-1" },
    });
    expect(matched?.resource).toBe("/v1/runs/{run_id}/events");
    expect(matched?.params).toEqual({ run_id: "run-1" });
  });

  it("falls back to the path under a greedy proxy resource (and in the local gateway)", () => {
    const matched = matchRoute({
      resource: "/{proxy+}",
      path: "/v1/runs/run-abc_1/cancel",
      pathParameters: { proxy: "v1/runs/run-abc_1/cancel" },
    });
    expect(matched?.resource).toBe("/v1/runs/{run_id}/cancel");
    expect(matched?.params).toEqual({ run_id: "run-abc_1" });
    expect(matchRoute({ resource: "/{proxy+}", path: "/health/", pathParameters: null })?.resource).toBe(
      "/health",
    );
  });

  it("decodes percent-encoded path parameters", () => {
    expect(
      matchRoute({ resource: "/{proxy+}", path: "/v1/runs/run%2Dx", pathParameters: null })?.params,
    ).toEqual({ run_id: "run-x" });
  });

  it("matches nothing for unknown paths", () => {
    expect(matchRoute({ resource: "/{proxy+}", path: "/v2/runs", pathParameters: null })).toBeUndefined();
    expect(
      matchRoute({ resource: "/{proxy+}", path: "/v1/runs/a/b/c", pathParameters: null }),
    ).toBeUndefined();
  });
});

describe("the route table's operations", () => {
  it("has exactly one handler per buffered operation of the table; streamed ones are the stream function's", () => {
    const operations = REST_METHODS.map((route) => route.operation);
    expect(new Set(operations).size, "an operation named twice").toBe(operations.length);
    const buffered = REST_METHODS.filter((route) => route.transfer !== "stream").map(
      (route) => route.operation,
    );
    expect(Object.keys(OPERATION_HANDLERS).sort()).toEqual([...buffered].sort());
    for (const operation of buffered)
      expect(typeof OPERATION_HANDLERS[operation as keyof typeof OPERATION_HANDLERS], operation).toBe(
        "function",
      );
    expect(
      REST_METHODS.filter((route) => route.transfer === "stream").map((route) => route.operation),
    ).toEqual(["streamRunEvents"]);
  });

  it.each(
    REST_METHODS.filter((route) => route.transfer !== "stream").map(
      (route) => [route.method, route.resource, route.operation] as const,
    ),
  )("%s %s reaches %s, by its resource and by its path", async (method, resource, operation) => {
    const path = resource
      .replace("{run_id}", "run-1")
      .replace("{session_id}", "sess-1")
      .replace("{batch_id}", "batch-1");
    expect(matchRoute({ resource, path, pathParameters: null })?.resource).toBe(resource);
    expect(matchRoute({ resource: "/{proxy+}", path, pathParameters: null })).toEqual({
      resource,
      params: {
        ...(resource.includes("{run_id}") ? { run_id: "run-1" } : {}),
        ...(resource.includes("{session_id}") ? { session_id: "sess-1" } : {}),
        ...(resource.includes("{batch_id}") ? { batch_id: "batch-1" } : {}),
      },
    });
    // The store of this context throws when touched: routed means neither 404 nor 405, whatever the
    // handler then made of the empty request.
    const result = await routeRequest(apiEvent({ method, path }), fakeContext());
    expect(result.statusCode, operation).not.toBe(404);
    expect(result.statusCode, operation).not.toBe(405);
  });
});

describe("routeRequest", () => {
  it("answers GET /health with the version", async () => {
    const result = await routeRequest(apiEvent({ method: "GET", path: "/health" }), fakeContext());
    expect(result.statusCode).toBe(200);
    expect(result.headers?.["content-type"]).toBe("application/json");
    expect(bodyOf(result)).toEqual({ status: "ok", version: "9.9.9" });
  });

  it("answers 404 with the error shape for an unknown route", async () => {
    const result = await routeRequest(
      apiEvent({ method: "GET", path: "/v1/nothing", resource: "/{proxy+}" }),
      fakeContext(),
    );
    expect(result.statusCode).toBe(404);
    expect(result.headers?.["content-type"]).toBe("application/json");
    expect(bodyOf(result)).toEqual({
      error: { code: "not_found", message: "no such resource: GET /v1/nothing" },
    });
  });

  it.each([
    ["GET", "/v1/evaluate-conditions", "POST"],
    ["PUT", "/v1/evaluate-loan-conditions", "POST"],
    ["DELETE", "/v1/runs/run-1", "GET"],
    ["GET", "/v1/runs/run-1/cancel", "POST"],
    ["POST", "/v1/runs/run-1/events", "GET"],
    ["POST", "/health", "GET"],
  ])("answers 405 to %s %s, naming %s in Allow", async (method, path, allowed) => {
    const result = await routeRequest(apiEvent({ method, path }), fakeContext());
    expect(result.statusCode).toBe(405);
    expect(result.headers?.Allow).toBe(allowed);
    expect(bodyOf(result).error.code).toBe("method_not_allowed");
  });

  it.each([
    ["GET", "/v1/runs/not-a-run"],
    ["GET", "/v1/runs/run-"],
    ["GET", "/v1/runs/run-a.b/events"],
    ["POST", "/v1/runs/run-x%20y/cancel"],
    ["GET", `/v1/runs/run-${"x".repeat(101)}`],
  ])("answers 400 naming run_id for %s %s", async (method, path) => {
    const result = await routeRequest(apiEvent({ method, path }), fakeContext());
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result).error).toMatchObject({ code: "invalid_run_id", fields: [{ field: "run_id" }] });
  });

  it.each(["-1", "1.5", "abc", "", "1e3", "9007199254740993"])(
    "answers 400 naming after_seq for after_seq=%j",
    async (afterSeq) => {
      const result = await routeRequest(
        apiEvent({ method: "GET", path: "/v1/runs/run-1/events", query: { after_seq: afterSeq } }),
        fakeContext(),
      );
      expect(result.statusCode).toBe(400);
      expect(bodyOf(result).error.fields).toEqual([
        { field: "after_seq", message: expect.stringMatching(/integer/) },
      ]);
    },
  );

  it("maps a missing run to 404 run_not_found", async () => {
    const runs = {
      getRun: async () => undefined,
      getMeta: async (id: string) => {
        throw new RunNotFoundError(id);
      },
    };
    const ctx = fakeContext();
    ctx.services = { ...ctx.services, runs: runs as never };
    for (const [method, path] of [
      ["GET", "/v1/runs/run-missing"],
      ["GET", "/v1/runs/run-missing/events"],
      ["POST", "/v1/runs/run-missing/cancel"],
    ] as const) {
      const result = await routeRequest(apiEvent({ method, path }), ctx);
      expect(result.statusCode, `${method} ${path}`).toBe(404);
      expect(bodyOf(result).error.code).toBe("run_not_found");
    }
  });

  it("hides internal errors behind 500 with the request id", async () => {
    const runs = {
      getRun: async () => {
        throw new Error("ResourceNotFoundException: table rewoo-runs-prod does not exist");
      },
    };
    const ctx = fakeContext();
    ctx.services = { ...ctx.services, runs: runs as never };
    const result = await routeRequest(apiEvent({ method: "GET", path: "/v1/runs/run-1" }), ctx);
    expect(result.statusCode).toBe(500);
    expect(bodyOf(result).error).toEqual({
      code: "internal_error",
      message: "internal error (request id req-1); the request may be retried",
    });
  });
});
