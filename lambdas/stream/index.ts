// The stream function: GET /v1/runs/{run_id}/stream as Server-Sent Events. API Gateway (REST, response
// transfer mode STREAM) invokes it with InvokeWithResponseStream and the REST proxy event; the response
// is HttpResponseStream metadata (status, headers) followed by the events as they are stored. Thin: the
// logic is lambdas/api/event-stream.ts, which the twin's gateway serves with the same code.
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { serveRunEventStream } from "../api/event-stream.ts";
import { tableServices } from "../runtime/base-services.ts";
import { createLogger } from "../runtime/logger.ts";
import { functionTracer, traceInvocation } from "../runtime/tracer.ts";

const SERVICE = "rewoo-stream";
const logger = createLogger(SERVICE);
const tracer = functionTracer(SERVICE);

export const handler = awslambda.streamifyResponse(
  async (event: APIGatewayProxyEvent, responseStream: awslambda.HttpResponseStream, context: Context) => {
    // Traced like the other entries (not counted on the run: a reader's stream is not the run's work).
    await traceInvocation(tracer, SERVICE, async () => {
      const runId = event.pathParameters?.run_id;
      const ended = await serveRunEventStream(
        event,
        tableServices().runs,
        (meta) => awslambda.HttpResponseStream.from(responseStream, { ...meta }),
        { remainingMs: () => context.getRemainingTimeInMillis() },
      );
      logger.info("event stream ended", { run_id: runId, ended });
    });
  },
);
