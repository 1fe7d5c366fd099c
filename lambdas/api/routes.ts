// The REST API's routing table and its one error mapping. API Gateway routes each resource to this
// function; the local gateway (and a greedy `/{proxy+}` resource) sends everything, so a request is
// matched by its resource when API Gateway names one of ours, else by its path.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { TokenSecretUnavailableError } from "../auth/secret.ts";
import { RunNotFoundError } from "../store/runs.ts";
import type { ApiContext } from "./context.ts";
import { errorResult, HttpError, json, requireJsonBody } from "./http.ts";
import { cancelRun, getRun, listRecentRuns, listRunEvents, resumeRunRoute } from "./runs.ts";
import { WorkflowNotConfiguredError } from "./sfn.ts";
import { startEvaluation } from "./start.ts";

type RouteHandler = (
  event: APIGatewayProxyEvent,
  params: Record<string, string>,
  ctx: ApiContext,
) => Promise<APIGatewayProxyResult>;

interface Route {
  resource: string;
  methods: Record<string, RouteHandler>;
}

const runId = (params: Record<string, string>) => params.run_id ?? "";

export const ROUTES: readonly Route[] = [
  {
    resource: "/v1/evaluate-conditions",
    methods: { POST: (event, _params, ctx) => startEvaluation(event, ctx, "rewoo") },
  },
  {
    resource: "/v1/evaluate-loan-conditions",
    methods: { POST: (event, _params, ctx) => startEvaluation(event, ctx, "legacy") },
  },
  { resource: "/v1/runs", methods: { GET: (event, _params, ctx) => listRecentRuns(event, ctx) } },
  { resource: "/v1/runs/{run_id}", methods: { GET: (_event, params, ctx) => getRun(runId(params), ctx) } },
  {
    resource: "/v1/runs/{run_id}/events",
    methods: { GET: (event, params, ctx) => listRunEvents(runId(params), event, ctx) },
  },
  {
    resource: "/v1/runs/{run_id}/cancel",
    methods: { POST: (_event, params, ctx) => cancelRun(runId(params), ctx) },
  },
  {
    resource: "/v1/runs/{run_id}/resume",
    methods: { POST: (_event, params, ctx) => resumeRunRoute(runId(params), ctx) },
  },
  {
    resource: "/health",
    methods: { GET: async (_event, _params, ctx) => json(200, { status: "ok", version: ctx.version }) },
  },
];

const compiled = ROUTES.map((route) => ({
  route,
  pattern: new RegExp(`^${route.resource.replace(/\{(\w+)\}/g, "(?<$1>[^/]+)")}/?$`),
}));

/** The route and its path parameters, or undefined for a path this API does not have. */
export function matchRoute(
  event: Pick<APIGatewayProxyEvent, "resource" | "path" | "pathParameters">,
): { route: Route; params: Record<string, string> } | undefined {
  const byResource = compiled.find(({ route }) => route.resource === event.resource);
  if (byResource) {
    const params = definedOnly(event.pathParameters);
    // A hand-built event may name the resource without its parameters: read them from the path.
    const fromPath = byResource.pattern.exec(event.path ?? "")?.groups;
    return { route: byResource.route, params: { ...decoded(fromPath), ...params } };
  }
  for (const { route, pattern } of compiled) {
    const match = pattern.exec(event.path ?? "");
    if (match) return { route, params: decoded(match.groups) };
  }
  return undefined;
}

export async function routeRequest(
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  try {
    const matched = matchRoute(event);
    if (!matched)
      throw new HttpError(404, "not_found", `no such resource: ${event.httpMethod} ${event.path}`);
    const method = event.httpMethod.toUpperCase();
    const handle = matched.route.methods[method];
    if (!handle) {
      const allowed = Object.keys(matched.route.methods).join(", ");
      throw new HttpError(
        405,
        "method_not_allowed",
        `${method} is not allowed on ${matched.route.resource}; use ${allowed}`,
        undefined,
        { Allow: allowed },
      );
    }
    if (method === "POST") requireJsonBody(event);
    return await handle(event, matched.params, ctx);
  } catch (error) {
    return toErrorResult(error, event, ctx);
  }
}

function toErrorResult(error: unknown, event: APIGatewayProxyEvent, ctx: ApiContext): APIGatewayProxyResult {
  if (error instanceof HttpError) {
    if (error.status >= 500) ctx.logger.error(error.message, { code: error.code });
    return errorResult(error);
  }
  if (error instanceof RunNotFoundError) {
    return errorResult(new HttpError(404, "run_not_found", error.message));
  }
  if (error instanceof WorkflowNotConfiguredError || error instanceof TokenSecretUnavailableError) {
    ctx.logger.error("API misconfigured", error);
    return errorResult(new HttpError(500, "server_misconfigured", error.message));
  }
  ctx.logger.error("request failed", error as Error);
  const requestId = event.requestContext?.requestId;
  // Internals (table names, stack traces) stay in the log; the id joins the answer to its log lines.
  return errorResult(
    new HttpError(
      500,
      "internal_error",
      `internal error${requestId ? ` (request id ${requestId})` : ""}; the request may be retried`,
    ),
  );
}

function definedOnly(params: Record<string, string | undefined> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params ?? {})) if (value !== undefined) out[key] = value;
  return out;
}

function decoded(groups: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(groups ?? {})) {
    try {
      out[key] = decodeURIComponent(value);
    } catch {
      out[key] = value; // not valid percent-encoding: the id check rejects it as it is
    }
  }
  return out;
}
