// The route table itself: its invariants, path matching as API Gateway REST does it, WebSocket route
// selection, and that it (like every module the CDK app reads from lambdas/) stays data only.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  matchResourcePath,
  methodRoute,
  methodsOf,
  pathParametersFor,
  pathParametersOf,
  REST_METHODS,
  REST_RESOURCES,
  resourceMatcher,
  selectWebSocketRoute,
  WEBSOCKET_ACTIONS,
  WEBSOCKET_ROUTE_KEYS,
  WEBSOCKET_ROUTE_SELECTION_EXPRESSION,
  WEBSOCKET_ROUTES,
  webSocketRouteNamed,
} from "../../../lambdas/contracts/routes.ts";
import { WEBSOCKET_OPERATIONS, webSocketOperationFor } from "../../../lambdas/ws/routes.ts";

const root = new URL("../../../", import.meta.url).pathname;

describe("REST route table", () => {
  it("declares resources API Gateway can deploy: absolute, no trailing slash, whole-part parameters", () => {
    for (const resource of REST_RESOURCES) {
      expect(resource, resource).toMatch(/^(\/([A-Za-z0-9._-]+|\{\w+\}))+$/);
    }
  });

  it("lists every method once, with a summary, a body only where a body is sent, a reason where public", () => {
    const keys = REST_METHODS.map((route) => `${route.method} ${route.resource}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of REST_METHODS) {
      expect(route.summary.length, route.operation).toBeGreaterThan(0);
      if (route.body) expect(["POST", "PUT", "PATCH"], route.operation).toContain(route.method);
      if (route.auth === "none") expect(route.whyPublic.length, route.operation).toBeGreaterThan(20);
    }
  });

  it("keeps the API's contract: only the liveness probe is public, the two starts take an evaluation request", () => {
    expect(REST_METHODS.filter((r) => r.auth === "none").map((r) => `${r.method} ${r.resource}`)).toEqual([
      "GET /health",
    ]);
    expect(REST_METHODS.filter((r) => r.body === "evaluation_request").map((r) => r.resource)).toEqual([
      "/v1/evaluate-conditions",
      "/v1/evaluate-loan-conditions",
    ]);
  });

  it("answers the methods of a resource and each method's contract", () => {
    expect(methodsOf("/v1/runs/{run_id}/cancel")).toEqual(["POST"]);
    expect(methodRoute("/v1/runs", "GET")?.operation).toBe("listRuns");
    expect(methodRoute("/v1/runs", "POST")).toBeUndefined();
    expect(methodRoute("/health", "constructor")).toBeUndefined();
    expect(pathParametersOf("/v1/runs/{run_id}/events")).toEqual(["run_id"]);
    expect(pathParametersOf("/health")).toEqual([]);
  });
});

describe("docs/api.openapi.yaml", () => {
  /** `METHOD /path operationId` of every operation, and which of them say `security: []` (public). */
  function documented(): { operations: string[]; public: string[] } {
    const operations: string[] = [];
    const open: string[] = [];
    let inPaths = false;
    let path = "";
    let method = "";
    for (const line of readFileSync(join(root, "docs/api.openapi.yaml"), "utf8").split("\n")) {
      if (line === "paths:") inPaths = true;
      else if (inPaths && /^\S/.test(line)) break;
      path = /^ {2}(\/\S*):$/.exec(line)?.[1] ?? path;
      method = /^ {4}(get|post|put|patch|delete):$/.exec(line)?.[1]?.toUpperCase() ?? method;
      const operationId = /^ {6}operationId: (\w+)$/.exec(line)?.[1];
      if (inPaths && operationId) operations.push(`${method} ${path} ${operationId}`);
      if (inPaths && /^ {6}security: \[\]$/.test(line)) open.push(`${method} ${path}`);
    }
    return { operations, public: open };
  }

  it("documents exactly the table's methods, named by their operations, public where the table says", () => {
    const { operations, public: open } = documented();
    expect(operations.sort()).toEqual(
      REST_METHODS.map((route) => `${route.method} ${route.resource} ${route.operation}`).sort(),
    );
    expect(open).toEqual(
      REST_METHODS.filter((r) => r.auth === "none").map((r) => `${r.method} ${r.resource}`),
    );
  });
});

describe("matchResourcePath", () => {
  it("matches each resource of the table by its own path", () => {
    for (const resource of REST_RESOURCES) {
      const path = resource.replace(/\{(\w+)\}/g, "value-of-$1");
      expect(matchResourcePath(path)?.resource, path).toBe(resource);
    }
  });

  it("reads path parameters percent-decoded, keeping invalid encodings as sent", () => {
    expect(matchResourcePath("/v1/runs/run%2Dx/events")).toEqual({
      resource: "/v1/runs/{run_id}/events",
      pathParameters: { run_id: "run-x" },
    });
    expect(matchResourcePath("/v1/runs/run%zz")?.pathParameters).toEqual({ run_id: "run%zz" });
    expect(pathParametersFor("/v1/runs/{run_id}", "/v1/runs/run-1")).toEqual({ run_id: "run-1" });
    expect(pathParametersFor("/v1/runs/{run_id}", "/v1/runs/run-1/events")).toBeUndefined();
  });

  it("tolerates one trailing slash, as API Gateway REST does, and nothing else", () => {
    expect(matchResourcePath("/health/")?.resource).toBe("/health");
    expect(matchResourcePath("/v1/runs/")?.resource).toBe("/v1/runs");
    expect(matchResourcePath("/health//")).toBeUndefined();
    expect(matchResourcePath("/v1/runs//events")).toBeUndefined();
    expect(matchResourcePath("/v1/runs/a/b/c")).toBeUndefined();
    expect(matchResourcePath("/v2/runs")).toBeUndefined();
    expect(matchResourcePath("/healthz")).toBeUndefined();
    expect(matchResourcePath("")).toBeUndefined();
  });

  it("prefers a literal path part to a parameter, whatever the order of declaration", () => {
    const match = resourceMatcher(["/v1/runs/{run_id}", "/v1/runs/{run_id}/events", "/v1/runs/recent"]);
    expect(match("/v1/runs/recent")?.resource).toBe("/v1/runs/recent");
    expect(match("/v1/runs/run-1")).toEqual({
      resource: "/v1/runs/{run_id}",
      pathParameters: { run_id: "run-1" },
    });
    expect(match("/v1/runs/recent/events")?.resource).toBe("/v1/runs/{run_id}/events");
  });

  it("reads literal parts literally (a dot is a dot)", () => {
    const match = resourceMatcher(["/v1/spec.json"]);
    expect(match("/v1/spec.json")?.resource).toBe("/v1/spec.json");
    expect(match("/v1/specXjson")).toBeUndefined();
  });
});

describe("WebSocket route table", () => {
  it("has API Gateway's three routes, the subscribe action, and the token authorizer on $connect only", () => {
    expect([...WEBSOCKET_ROUTE_KEYS].sort()).toEqual(["$connect", "$default", "$disconnect", "subscribe"]);
    expect(WEBSOCKET_ACTIONS).toEqual(["subscribe"]);
    expect(WEBSOCKET_ROUTE_SELECTION_EXPRESSION).toBe("$request.body.action");
    for (const key of WEBSOCKET_ROUTE_KEYS) {
      expect(WEBSOCKET_ROUTES[key].auth, key).toBe(key === "$connect" ? "token" : "none");
    }
  });

  it("has exactly one route function per operation, and resolves every route key to its own", () => {
    const operations = WEBSOCKET_ROUTE_KEYS.map((key) => WEBSOCKET_ROUTES[key].operation);
    expect(new Set(operations).size).toBe(operations.length);
    expect(Object.keys(WEBSOCKET_OPERATIONS).sort()).toEqual([...operations].sort());
    for (const key of WEBSOCKET_ROUTE_KEYS) {
      expect(webSocketOperationFor(key), key).toBe(WEBSOCKET_OPERATIONS[WEBSOCKET_ROUTES[key].operation]);
    }
    // A route deployed before the code that serves it is answered as $default.
    expect(webSocketOperationFor("approve")).toBe(WEBSOCKET_OPERATIONS.fallback);
    expect(webSocketRouteNamed("toString")).toBeUndefined();
  });

  it.each([
    ['{"action":"subscribe","run_id":"run-1"}', "subscribe"],
    ['{"action":"unsubscribe"}', "$default"],
    ['{"action":"$connect"}', "$default"],
    ['{"action":"$disconnect"}', "$default"],
    ['{"action":["subscribe"]}', "$default"],
    ['{"Action":"subscribe"}', "$default"],
    ['["subscribe"]', "$default"],
    ["null", "$default"],
    ["subscribe", "$default"],
    ["", "$default"],
  ])("selects the route of %j: %s", (message, route) => {
    expect(selectWebSocketRoute(message)).toBe(route);
  });
});

describe("what the CDK app imports from lambdas/", () => {
  const importsOf = (file: string) =>
    [...readFileSync(join(root, file), "utf8").matchAll(/^\s*(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map(
      (match) => match[1] ?? "",
    );

  it("is data-only: lambdas/contracts (which imports nothing but types of lambdas/core) or the pure lambdas/core", () => {
    // The twin (infra/local) runs the handlers themselves; everything else under infra/ is the CDK app.
    const infraFiles = readdirSync(join(root, "infra"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.startsWith("local"))
      .map((file) => `infra/${file}`);
    const fromLambdas = infraFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.includes("lambdas/"))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(fromLambdas.length).toBeGreaterThan(0);
    // lambdas/core is pure by the project's rules; everything else there is handler code or SDK clients.
    for (const entry of fromLambdas)
      expect(entry).toMatch(/: (\.\.\/)+lambdas\/(contracts|core)\/[\w-]+\.ts$/);
    expect(fromLambdas.some((entry) => entry.includes("lambdas/contracts/routes.ts"))).toBe(true);
    for (const file of readdirSync(join(root, "lambdas/contracts"))) {
      // `import type` is erased at build time: the API's answer types (api-types.ts) pull nothing in.
      const text = readFileSync(join(root, "lambdas/contracts", file), "utf8");
      const typeOnly = [...text.matchAll(/^\s*import\s+type\s[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
      for (const specifier of typeOnly) expect(specifier, file).toMatch(/^\.\.\/core\/[\w-]+\.ts$/);
      expect(
        importsOf(`lambdas/contracts/${file}`).filter((specifier) => !typeOnly.includes(specifier)),
        file,
      ).toEqual([]);
    }
  });
});
