// The routes of the REST API and the WebSocket API as data: the one place a route is declared. The API
// handler's router maps each operation to its handler, the CDK stack deploys resources, methods,
// authorization, request models and WebSocket routes from it, and the local twin's gateway matches
// requests with it. Data and pure helpers only: the CDK app imports this module, so it must never pull in
// handler code or SDK clients (and the modules that do must not be imported here).

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call a REST method. "iam": the caller authorization of the environment's stage (SigV4 by
 * default, an API key where `api.authorization` is `api-key`); "none": public, by the API contract.
 */
export type RestAuth = "iam" | "none";

/** A request body API Gateway validates before the handler runs; the stack deploys one model per contract. */
export type BodyContract = "evaluation_request";

/**
 * How the integration answers. "buffered" (the default): the API function, one JSON response.
 * "stream": the stream function, invoked with InvokeWithResponseStream (API Gateway's response
 * transfer mode STREAM), whose response is written as it is produced (Server-Sent Events).
 */
export type RestTransfer = "buffered" | "stream";

export type RestMethodContract = {
  /** The id the router maps to a handler (the operationId of docs/api.openapi.yaml). */
  readonly operation: string;
  readonly body?: BodyContract;
  readonly summary: string;
  readonly transfer?: RestTransfer;
} & (
  | { readonly auth: "iam" }
  // A public method says why it may be: the deployment records the reason beside the method.
  | { readonly auth: "none"; readonly whyPublic: string }
);

/**
 * Every REST resource with its methods. Adding a route: one entry here, one handler in
 * lambdas/api/routes.ts (the compiler asks for it), and its description in docs/api.openapi.yaml.
 */
export const REST_ROUTES = {
  "/v1/evaluate-conditions": {
    POST: {
      operation: "evaluateConditions",
      auth: "iam",
      body: "evaluation_request",
      summary: "Start a ReWOO evaluation of a loan file",
    },
  },
  "/v1/evaluate-loan-conditions": {
    POST: {
      operation: "evaluateLoanConditions",
      auth: "iam",
      body: "evaluation_request",
      summary: "Start a legacy evaluation (the original loan-agent plan's endpoint, fixed plan)",
    },
  },
  "/v1/runs": {
    GET: { operation: "listRuns", auth: "iam", summary: "Recent runs, newest first" },
  },
  "/v1/runs/{run_id}/documents": {
    GET: {
      operation: "getRunDocuments",
      auth: "iam",
      summary:
        "The run's documents, each with a short-lived presigned GET URL (for reading a cited page in a browser)",
    },
  },
  "/v1/runs/{run_id}": {
    GET: { operation: "getRun", auth: "iam", summary: "The run record" },
  },
  "/v1/runs/{run_id}/events": {
    GET: {
      operation: "listRunEvents",
      auth: "iam",
      summary: "The run's stored progress events, in seq order",
    },
  },
  "/v1/runs/{run_id}/stream": {
    GET: {
      operation: "streamRunEvents",
      auth: "iam",
      transfer: "stream",
      summary:
        "The run's progress events as Server-Sent Events: the stored ones, then live ones until complete (Last-Event-ID resumes)",
    },
  },
  "/v1/runs/{run_id}/cancel": {
    POST: { operation: "cancelRun", auth: "iam", summary: "Cancel a running run" },
  },
  "/v1/runs/{run_id}/resume": {
    POST: {
      operation: "resumeRun",
      auth: "iam",
      summary: "Resume a failed or interrupted run from where it stopped",
    },
  },
  "/v1/runs/{run_id}/input": {
    POST: {
      operation: "answerRun",
      auth: "iam",
      summary: "Answer the question of a run waiting in AWAITING_INPUT; the run continues",
    },
  },
  "/v1/runs/{run_id}/approval": {
    POST: {
      operation: "decideApproval",
      auth: "iam",
      summary: "Approve, edit or reject the plan of a run waiting in AWAITING_APPROVAL",
    },
  },
  "/v1/documents": {
    POST: {
      operation: "createDocumentUpload",
      auth: "iam",
      summary:
        "A presigned S3 PUT for one PDF under the documents bucket's upload prefix (content-addressed key chosen by the service); the key then goes in s3_pdf_paths",
    },
  },
  "/v1/catalog": {
    GET: {
      operation: "getCatalog",
      auth: "iam",
      summary:
        "The condition catalog as a form needs it: classifications, their conditions (compartment, priority) and the metadata fields those conditions read",
    },
  },
  "/v1/sessions/{session_id}": {
    GET: {
      operation: "getSession",
      auth: "iam",
      summary: "A session's state, runs and transcript (?format=jsonl: the transcript as JSON Lines)",
    },
  },
  "/v1/sessions/{session_id}/cancel": {
    POST: { operation: "cancelSession", auth: "iam", summary: "Cancel the session's run in progress" },
  },
  "/v1/sessions/{session_id}/reset": {
    POST: {
      operation: "resetSession",
      auth: "iam",
      summary: "Forget what follow-ups inherit and cancel a run in progress",
    },
  },
  "/v1/chat": {
    POST: {
      operation: "chat",
      auth: "iam",
      summary:
        "A message to the banking assistant from a signed-in customer (X-Customer-Token); the reply, the conversation's state and its review scores",
    },
  },
  "/v1/batches": {
    POST: {
      operation: "createBatch",
      auth: "iam",
      summary:
        "Evaluate a portfolio of loan files (a batch of evaluation requests) on the distributed engine",
    },
  },
  "/v1/batches/{batch_id}": {
    GET: { operation: "getBatch", auth: "iam", summary: "A batch's status and counts by line status" },
  },
  "/v1/batches/{batch_id}/results": {
    GET: {
      operation: "getBatchResults",
      auth: "iam",
      summary: "One result per manifest line, as JSON Lines",
    },
  },
  "/health": {
    GET: {
      operation: "health",
      auth: "none",
      whyPublic:
        "Liveness probe, public by the API contract (docs/api.openapi.yaml: security []): it answers " +
        "only {status, version}, reads no data and is throttled with the stage.",
      summary: "Liveness",
    },
  },
} as const satisfies Record<`/${string}`, Partial<Record<HttpMethod, RestMethodContract>>>;

type ValueOf<T> = T[keyof T];
type RestTable = typeof REST_ROUTES;

export type RestResource = keyof RestTable;
export type RestOperationName = ValueOf<{
  [R in RestResource]: Extract<ValueOf<RestTable[R]>, RestMethodContract>["operation"];
}>;

/** Operations the stream function serves (transfer "stream"); every other one is the API function's. */
type OperationOf<Contract> = Contract extends { operation: infer O } ? O : never;
export type StreamedOperationName = ValueOf<{
  [R in RestResource]: OperationOf<Extract<ValueOf<RestTable[R]>, { transfer: "stream" }>>;
}>;
export type BufferedOperationName = Exclude<RestOperationName, StreamedOperationName>;

export type RestMethodRoute = RestMethodContract & {
  readonly resource: RestResource;
  readonly method: HttpMethod;
  readonly operation: RestOperationName;
};

export const REST_RESOURCES = Object.keys(REST_ROUTES) as RestResource[];

/** Every method of every resource, in table order. */
export const REST_METHODS: readonly RestMethodRoute[] = REST_RESOURCES.flatMap((resource) =>
  Object.entries(REST_ROUTES[resource]).map(([method, contract]) => ({
    ...(contract as RestMethodContract & { operation: RestOperationName }),
    resource,
    method: method as HttpMethod,
  })),
);

/** The methods a resource has, e.g. for an Allow header. */
export function methodsOf(resource: RestResource): HttpMethod[] {
  return Object.keys(REST_ROUTES[resource]) as HttpMethod[];
}

/** The contract of `method` on `resource`, or undefined when the resource has no such method. */
export function methodRoute(resource: RestResource, method: string): RestMethodRoute | undefined {
  return REST_METHODS.find((route) => route.resource === resource && route.method === method);
}

/** The names of a resource's path parameters (`/v1/runs/{run_id}` → `["run_id"]`). */
export function pathParametersOf(resource: string): string[] {
  return [...resource.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? "");
}

export interface ResourceMatch<Resource extends string = RestResource> {
  resource: Resource;
  /** Percent-decoded, as API Gateway passes them to the integration. */
  pathParameters: Record<string, string>;
}

interface CompiledResource<Resource extends string> {
  resource: Resource;
  pattern: RegExp;
}

function compile<Resource extends string>(resource: Resource): CompiledResource<Resource> {
  // One trailing slash is tolerated, as API Gateway REST routes `/health/` to `/health`.
  const parts = resource.split("/").map((part) => {
    const parameter = /^\{(\w+)\}$/.exec(part)?.[1];
    return parameter ? `(?<${parameter}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  return { resource, pattern: new RegExp(`^${parts.join("/")}/?$`) };
}

/**
 * A matcher of request paths to resource templates. API Gateway prefers a literal path part to a
 * parameter where both match (`/v1/runs/recent` over `/v1/runs/{run_id}`) whatever the order of
 * declaration, so the templates are tried literal-first, part by part.
 */
export function resourceMatcher<Resource extends string>(
  resources: readonly Resource[],
): (path: string) => ResourceMatch<Resource> | undefined {
  const literalFirst = (resource: string) =>
    resource
      .split("/")
      .map((part) => (part.startsWith("{") ? "1" : "0"))
      .join("");
  const compiled = [...resources]
    .sort((a, b) => {
      const [left, right] = [literalFirst(a), literalFirst(b)];
      return left < right ? -1 : left > right ? 1 : 0;
    })
    .map((resource) => compile(resource));
  return (path) => {
    for (const { resource, pattern } of compiled) {
      const match = pattern.exec(path);
      if (match) return { resource, pathParameters: decoded(match.groups) };
    }
    return undefined;
  };
}

/** The table's resource a request path is for, with its path parameters; undefined when the API has none. */
export const matchResourcePath = resourceMatcher(REST_RESOURCES);

const COMPILED_TABLE = REST_RESOURCES.map((resource) => compile(resource));

/** The path parameters of `path` read as `resource`, or undefined when the path is not that resource's. */
export function pathParametersFor(resource: RestResource, path: string): Record<string, string> | undefined {
  const match = COMPILED_TABLE.find((compiled) => compiled.resource === resource)?.pattern.exec(path);
  return match ? decoded(match.groups) : undefined;
}

/** A resource of the table by its template (API Gateway's `event.resource`), or undefined. */
export function restResourceNamed(name: string | null | undefined): RestResource | undefined {
  return name != null && Object.hasOwn(REST_ROUTES, name) ? (name as RestResource) : undefined;
}

function decoded(groups: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(groups ?? {})) {
    try {
      out[key] = decodeURIComponent(value);
    } catch {
      out[key] = value; // not valid percent-encoding: the handler's id check rejects it as it is
    }
  }
  return out;
}

// ---------------------------------------------------------------- WebSocket API

/** The message field whose value selects the route (`{"action": "subscribe", …}`). */
export const WEBSOCKET_ROUTE_SELECTION_FIELD = "action";
export const WEBSOCKET_ROUTE_SELECTION_EXPRESSION = `$request.body.${WEBSOCKET_ROUTE_SELECTION_FIELD}`;

/**
 * "token": the $connect authorizer checks the subscribe/operator token (API Gateway authorizes
 * WebSocket connections at $connect only). "none": the route runs on an already authorized
 * connection, and its handler checks the connection's scope.
 */
export type WebSocketAuth = "token" | "none";

export interface WebSocketRouteContract {
  /** The id the WebSocket handler maps to a route function. */
  readonly operation: string;
  readonly auth: WebSocketAuth;
  readonly summary: string;
}

/** $connect, $disconnect, $default, and one entry per action (route key = the message's `action`). */
export const WEBSOCKET_ROUTES = {
  $connect: {
    operation: "connect",
    auth: "token",
    summary: "Registers the connection with the scope its token grants",
  },
  $disconnect: { operation: "disconnect", auth: "none", summary: "Forgets the connection" },
  $default: {
    operation: "fallback",
    auth: "none",
    summary: "Any message without a known action: answered with the supported actions",
  },
  subscribe: {
    operation: "subscribe",
    auth: "none",
    summary: "Subscribes the connection to a run and replays the events after after_seq",
  },
} as const satisfies Record<string, WebSocketRouteContract>;

export type WebSocketRouteKey = keyof typeof WEBSOCKET_ROUTES;
export type WebSocketOperationName = ValueOf<typeof WEBSOCKET_ROUTES>["operation"];

export const WEBSOCKET_ROUTE_KEYS = Object.keys(WEBSOCKET_ROUTES) as WebSocketRouteKey[];

/** The routes a message's action selects (every route key but API Gateway's `$` routes). */
export const WEBSOCKET_ACTIONS = WEBSOCKET_ROUTE_KEYS.filter((key) => !key.startsWith("$"));

/** A route key of the table, or undefined (API Gateway's `requestContext.routeKey`). */
export function webSocketRouteNamed(name: string | null | undefined): WebSocketRouteKey | undefined {
  return name != null && Object.hasOwn(WEBSOCKET_ROUTES, name) ? (name as WebSocketRouteKey) : undefined;
}

/**
 * API Gateway's route selection for a text message: the route named by its selection field when the
 * message is a JSON object naming an action route, else $default (not JSON, no such field, a value that
 * is no route key, or a `$` route, which a message cannot select).
 */
export function selectWebSocketRoute(message: string): WebSocketRouteKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return "$default";
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return "$default";
  const value = (parsed as Record<string, unknown>)[WEBSOCKET_ROUTE_SELECTION_FIELD];
  return typeof value === "string" && (WEBSOCKET_ACTIONS as string[]).includes(value)
    ? (value as WebSocketRouteKey)
    : "$default";
}
