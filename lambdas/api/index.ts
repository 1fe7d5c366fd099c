// The REST API's one Lambda function (API Gateway REST, proxy integration). Thin: build the context
// once per cold start, route, answer. The logic lives in the modules next to this one.
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import packageJson from "../../package.json" with { type: "json" };
import { loadTokenKeys, verifyWithKeys } from "../auth/secret.ts";
import { originPatternProblem } from "../contracts/cors.ts";
import { ENV } from "../contracts/environment.ts";
import { instrumentHandler } from "../runtime/invocation.ts";
import { createLogger } from "../runtime/logger.ts";
import { catalogServices } from "../runtime/services.ts";
import { functionTracer } from "../runtime/tracer.ts";
import type { ApiContext } from "./context.ts";
import { withCors } from "./http.ts";
import { routeRequest } from "./routes.ts";
import { createWorkflow } from "./sfn.ts";

const SERVICE = "rewoo-api";
const logger = createLogger(SERVICE);
const tracer = functionTracer(SERVICE);
let context: ApiContext | undefined;

// Built on first use, not at import: the local twin sets the configuration before the first request.
function apiContext(): ApiContext {
  if (!context) {
    const svc = catalogServices();
    const secrets = tracer.captureAWSv3Client(new SecretsManagerClient({ region: svc.config.region }));
    context = {
      services: svc,
      workflow: createWorkflow(svc.config),
      tokenKeys: (audiences) => loadTokenKeys(svc.config, audiences, secrets),
      verifyToken: (token, accept) =>
        verifyWithKeys(svc.config, token, { accept, client: secrets, now: svc.now() }),
      logger,
      version: packageJson.version,
    };
  }
  return context;
}

// Traced, not counted on a run: the API serves its callers (starts, reads, answers), and a run's cost
// is its workflow's (lambdas/core/cost.ts).
export const handler = instrumentHandler(
  { name: SERVICE, tracer, memoryMb: 1024, logger },
  async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    let ctx: ApiContext;
    try {
      ctx = apiContext();
    } catch (error) {
      // Invalid configuration: every request would fail the same way; say so instead of a bare 502.
      logger.error("cold start failed", error as Error);
      const answer = {
        statusCode: 500,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ error: { code: "server_misconfigured", message: (error as Error).message } }),
      };
      return withCors(answer, event, validOriginsOf(process.env[ENV.REWOO_ALLOWED_ORIGINS]));
    }
    // Every answer, errors included, carries the CORS headers: the dashboard runs on another origin.
    return withCors(await routeRequest(event, ctx), event, ctx.services.config.api.allowedOrigins);
  },
);

/**
 * The well-formed origins of the setting, when the configuration as a whole failed to parse: the page
 * can then at least read the server_misconfigured answer.
 */
function validOriginsOf(setting: string | undefined): string[] {
  const patterns = (setting ?? "").split(",").map((part) => part.trim());
  return patterns.filter((pattern) => pattern && !originPatternProblem(pattern));
}
