// The WebSocket API's one integration: API Gateway (or the twin's gateway) calls it for $connect,
// $disconnect, subscribe and $default, telling them apart by requestContext.routeKey. Pushing
// stored events is not done here but by the stream consumer (lambdas/ws/push.ts, with
// lambdas/live/delivery.ts); this handler only registers connections and starts a subscriber's replay.

import { liveDelivery, tableServices } from "../runtime/base-services.ts";
import { createLogger } from "../runtime/logger.ts";
import { type RouteResult, type WebSocketRouteDeps, webSocketOperationFor } from "./routes.ts";

/** The parts of API Gateway's WebSocket proxy event (payload v1) this handler reads. */
export interface WebSocketEvent {
  requestContext: {
    routeKey: string;
    connectionId: string;
    eventType?: "CONNECT" | "MESSAGE" | "DISCONNECT";
    domainName?: string;
    stage?: string;
    /** The $connect authorizer's context ({scope, run_id}) plus API Gateway's principalId; repeated on every message. */
    authorizer?: Record<string, unknown> | null;
  };
  body?: string | null;
  isBase64Encoded?: boolean;
}

const logger = createLogger("rewoo-websocket");

let deps: WebSocketRouteDeps | undefined;

function routeDeps(): WebSocketRouteDeps {
  if (deps) return deps;
  const svc = tableServices();
  const websocket = liveDelivery();
  if (!websocket) {
    throw new Error(
      "Invalid configuration: the WebSocket handler needs CONNECTIONS_TABLE and WEBSOCKET_ENDPOINT",
    );
  }
  deps = {
    connections: websocket.connections,
    delivery: websocket.delivery,
    runs: svc.runs,
    // dynalite updates its indexes with the item, so the twin needs no settling; DynamoDB's GSIs
    // lag by well under a second in practice.
    settleMs: svc.config.endpoints.dynamodb ? 0 : 1_000,
  };
  return deps;
}

export const handler = async (event: WebSocketEvent): Promise<RouteResult> => {
  const { routeKey, connectionId, authorizer } = event.requestContext;
  const body =
    event.body && event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
  const log = logger.createChild({ persistentKeys: { connection_id: connectionId, route: routeKey } });
  try {
    const operation = webSocketOperationFor(routeKey);
    return await operation({ connectionId, body: body ?? undefined, authorizer }, routeDeps());
  } catch (error) {
    log.error("websocket route failed", error as Error);
    return { statusCode: 500 };
  }
};
