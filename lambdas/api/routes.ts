// The REST API's router and its one error mapping. The routes are lambdas/contracts/routes.ts; this
// maps each operation there to its handler. API Gateway names the resource it matched; under a greedy
// `/{proxy+}` resource (or a hand-built event) a request is matched by its path instead.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { TokenSecretUnavailableError } from "../auth/secret.ts";
import {
  type BufferedOperationName,
  matchResourcePath,
  methodRoute,
  methodsOf,
  pathParametersFor,
  type RestResource,
  restResourceNamed,
} from "../contracts/routes.ts";
import { RunNotFoundError } from "../store/runs.ts";
import { createBatch, getBatch, getBatchResults } from "./batches.ts";
import { getCatalog } from "./catalog.ts";
import { chat } from "./chat.ts";
import type { ApiContext } from "./context.ts";
import { createDocumentUpload, getRunDocuments } from "./documents.ts";
import { errorResult, HttpError, json, requireJsonBody } from "./http.ts";
import { cancelRun, getRun, listRecentRuns, listRunEvents, resumeRunRoute } from "./runs.ts";
import { cancelSession, getSession, resetSession } from "./sessions.ts";
import { WorkflowNotConfiguredError } from "./sfn.ts";
import { startEvaluation } from "./start.ts";
import { answerRun, decideApproval } from "./waits.ts";

export type OperationHandler = (
  event: APIGatewayProxyEvent,
  params: Record<string, string>,
  ctx: ApiContext,
) => Promise<APIGatewayProxyResult>;

const runId = (params: Record<string, string>) => params.run_id ?? "";

/**
 * One handler per buffered operation of the route table: the compiler refuses a missing or an unknown
 * one. Streamed operations (transfer "stream") are the stream function's (lambdas/stream/index.ts).
 */
export const OPERATION_HANDLERS: { readonly [Operation in BufferedOperationName]: OperationHandler } = {
  evaluateConditions: (event, _params, ctx) => startEvaluation(event, ctx, "rewoo"),
  evaluateLoanConditions: (event, _params, ctx) => startEvaluation(event, ctx, "legacy"),
  listRuns: (event, _params, ctx) => listRecentRuns(event, ctx),
  getRun: (_event, params, ctx) => getRun(runId(params), ctx),
  listRunEvents: (event, params, ctx) => listRunEvents(runId(params), event, ctx),
  cancelRun: (_event, params, ctx) => cancelRun(runId(params), ctx),
  resumeRun: (_event, params, ctx) => resumeRunRoute(runId(params), ctx),
  answerRun: (event, params, ctx) => answerRun(runId(params), event, ctx),
  decideApproval: (event, params, ctx) => decideApproval(runId(params), event, ctx),
  getSession: (event, params, ctx) => getSession(params.session_id ?? "", event, ctx),
  cancelSession: (event, params, ctx) => cancelSession(params.session_id ?? "", event, ctx),
  resetSession: (event, params, ctx) => resetSession(params.session_id ?? "", event, ctx),
  chat: (event, _params, ctx) => chat(event, ctx),
  createBatch: (event, _params, ctx) => createBatch(event, ctx),
  getBatch: (event, params, ctx) => getBatch(params.batch_id ?? "", event, ctx),
  getBatchResults: (_event, params, ctx) => getBatchResults(params.batch_id ?? "", ctx),
  createDocumentUpload: (event, _params, ctx) => createDocumentUpload(event, ctx),
  getRunDocuments: (_event, params, ctx) => getRunDocuments(runId(params), ctx),
  getCatalog: () => getCatalog(),
  health: async (_event, _params, ctx) => json(200, { status: "ok", version: ctx.version }),
};

/** The resource and its path parameters, or undefined for a path this API does not have. */
export function matchRoute(
  event: Pick<APIGatewayProxyEvent, "resource" | "path" | "pathParameters">,
): { resource: RestResource; params: Record<string, string> } | undefined {
  const named = restResourceNamed(event.resource);
  if (named) {
    // A hand-built event may name the resource without its parameters: read them from the path.
    const fromPath = pathParametersFor(named, event.path ?? "");
    return { resource: named, params: { ...fromPath, ...definedOnly(event.pathParameters) } };
  }
  const byPath = matchResourcePath(event.path ?? "");
  return byPath && { resource: byPath.resource, params: byPath.pathParameters };
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
    const route = methodRoute(matched.resource, method);
    if (!route) {
      const allowed = methodsOf(matched.resource).join(", ");
      throw new HttpError(
        405,
        "method_not_allowed",
        `${method} is not allowed on ${matched.resource}; use ${allowed}`,
        undefined,
        { Allow: allowed },
      );
    }
    if (method === "POST") requireJsonBody(event);
    if (route.transfer === "stream") {
      // API Gateway sends these to the stream function; a request here was routed by hand.
      throw new HttpError(404, "not_found", `${method} ${matched.resource} is served by the stream function`);
    }
    return await OPERATION_HANDLERS[route.operation as BufferedOperationName](event, matched.params, ctx);
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
