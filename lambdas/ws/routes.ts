// The WebSocket API's route functions ($connect, $disconnect, subscribe, $default) over the connection
// store and live delivery, one per operation of lambdas/contracts/routes.ts; lambdas/ws/index.ts adapts
// API Gateway's events to them.
import * as z from "zod";
import { WEBSOCKET_ROUTES, type WebSocketOperationName, webSocketRouteNamed } from "../contracts/routes.ts";
import { lazily } from "../core/lazy.ts";
import type { LiveDelivery } from "../live/delivery.ts";
import type { ConnectionRecord, ConnectionStore } from "../store/connections.ts";
import { RunNotFoundError, type RunStore } from "../store/runs.ts";

/**
 * What the $connect authorizer (lambdas/ws/authorizer.ts) put into the request context (API Gateway
 * adds its own keys, principalId and integrationLatency, beside them), and a subscribe message: the
 * schemas are built at the first event that needs one (lambdas/core/lazy.ts), not at import.
 */
const routeSchemas = /* @__PURE__ */ lazily(() => ({
  authorizerContext: z.discriminatedUnion("scope", [
    z.object({ scope: z.literal("run"), run_id: z.string().min(1) }),
    z.object({ scope: z.literal("operator") }),
  ]),
  subscribeMessage: z.object({
    action: z.literal("subscribe").optional(),
    run_id: z.string().min(1, "run_id must name a run").max(256),
    after_seq: z.int().min(0, "after_seq must be 0 or more").default(0),
  }),
}));
export type AuthorizerContext = z.infer<ReturnType<typeof routeSchemas>["authorizerContext"]>;

export const SUPPORTED_ACTIONS =
  'supported actions: subscribe — {"action":"subscribe","run_id":"<run id>","after_seq":0}';

export interface RouteResult {
  statusCode: number;
}

export interface WebSocketRouteDeps {
  connections: ConnectionStore;
  delivery: LiveDelivery;
  runs: Pick<RunStore, "getMeta">;
  /**
   * After the first drain, wait this long and drain once more: the `by_run` GSI is eventually
   * consistent, so a publisher may not see a just-made subscription for a moment, and an event it
   * wrote then would otherwise wait for the next one (forever, if it was the last).
   */
  settleMs?: number;
}

export async function connect(
  connectionId: string,
  authorizer: unknown,
  deps: Pick<WebSocketRouteDeps, "connections">,
): Promise<RouteResult> {
  const context = routeSchemas().authorizerContext.safeParse(authorizer);
  // Without the authorizer's verdict nobody vouched for this client: refuse the handshake.
  if (!context.success) return { statusCode: 403 };
  await deps.connections.put(registration(connectionId, context.data));
  return { statusCode: 200 };
}

export async function disconnect(
  connectionId: string,
  deps: Pick<WebSocketRouteDeps, "connections">,
): Promise<RouteResult> {
  await deps.connections.delete(connectionId);
  return { statusCode: 200 };
}

/**
 * Subscribes the connection to a run and replays what it has not seen. Problems are answered on
 * the connection as `{type:"error", message}` and the connection stays open, so a dashboard can
 * correct itself. A run token may only watch its run; that is checked before the run's existence
 * so a token holder learns nothing about other runs.
 */
export async function subscribe(
  connectionId: string,
  body: string | undefined,
  authorizer: unknown,
  deps: WebSocketRouteDeps,
): Promise<RouteResult> {
  const refuse = async (message: string) => {
    await deps.delivery.sendError(connectionId, message);
    return { statusCode: 400 };
  };
  let json: unknown;
  try {
    json = JSON.parse(body ?? "");
  } catch {
    return refuse(`the message is not JSON; ${SUPPORTED_ACTIONS}`);
  }
  const parsed = routeSchemas().subscribeMessage.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "message"}: ${issue.message}`,
    );
    return refuse(`invalid subscribe message: ${problems.join("; ")}`);
  }
  const { run_id: runId, after_seq: afterSeq } = parsed.data;

  const connection = await registeredConnection(connectionId, authorizer, deps.connections);
  if (!connection)
    return refuse("this connection is not registered (it expired or its $connect failed): reconnect");
  if (connection.scope === "run" && connection.allowed_run_id !== runId) {
    return refuse(`this token may only watch run "${connection.allowed_run_id}", not "${runId}"`);
  }
  try {
    await deps.runs.getMeta(runId);
  } catch (error) {
    if (error instanceof RunNotFoundError) return refuse(`run "${runId}" does not exist`);
    throw error;
  }

  // Cursor first, then drain: the drain sends the stored events after after_seq, and every event
  // written from now on is drained by the stream consumer too (see lambdas/live/delivery.ts for why nothing doubles).
  const subscription = await deps.connections.subscribe(connectionId, runId, afterSeq);
  if (!subscription) return { statusCode: 410 };
  await deps.delivery.drain(connectionId, subscription);
  if (deps.settleMs) {
    await new Promise((resolve) => setTimeout(resolve, deps.settleMs));
    await deps.delivery.drain(connectionId);
  }
  return { statusCode: 200 };
}

/** Anything that is not a known action ($default route). */
export async function unsupported(
  connectionId: string,
  body: string | undefined,
  deps: Pick<WebSocketRouteDeps, "delivery">,
): Promise<RouteResult> {
  let action: unknown;
  try {
    action = (JSON.parse(body ?? "") as { action?: unknown })?.action;
  } catch {
    action = undefined;
  }
  const what = action === undefined ? "message without a known action" : `action ${JSON.stringify(action)}`;
  await deps.delivery.sendError(connectionId, `unsupported ${what}; ${SUPPORTED_ACTIONS}`);
  return { statusCode: 400 };
}

function registration(connectionId: string, context: AuthorizerContext) {
  return context.scope === "run"
    ? { connection_id: connectionId, scope: "run" as const, allowed_run_id: context.run_id }
    : { connection_id: connectionId, scope: "operator" as const };
}

/**
 * The stored connection, or — when the item is gone although the socket is open (TTL reached on
 * a connection API Gateway kept, or a lost $connect write) — re-registered from the authorizer
 * context that API Gateway repeats on every message of the connection.
 */
async function registeredConnection(
  connectionId: string,
  authorizer: unknown,
  connections: ConnectionStore,
): Promise<ConnectionRecord | undefined> {
  const stored = await connections.get(connectionId);
  if (stored) return stored;
  const context = routeSchemas().authorizerContext.safeParse(authorizer);
  if (!context.success) return undefined;
  return connections.put(registration(connectionId, context.data));
}

/** What a route function may read of API Gateway's event. */
export interface WebSocketRouteInput {
  connectionId: string;
  body: string | undefined;
  /** The $connect authorizer's context, repeated by API Gateway on every message of the connection. */
  authorizer: unknown;
}

export type WebSocketOperation = (
  input: WebSocketRouteInput,
  deps: WebSocketRouteDeps,
) => Promise<RouteResult>;

/** One function per operation of the WebSocket routes: the compiler refuses a missing or an unknown one. */
export const WEBSOCKET_OPERATIONS: { readonly [Operation in WebSocketOperationName]: WebSocketOperation } = {
  connect: ({ connectionId, authorizer }, deps) => connect(connectionId, authorizer, deps),
  disconnect: ({ connectionId }, deps) => disconnect(connectionId, deps),
  fallback: ({ connectionId, body }, deps) => unsupported(connectionId, body, deps),
  subscribe: ({ connectionId, body, authorizer }, deps) => subscribe(connectionId, body, authorizer, deps),
};

/** The function for API Gateway's route key; a key this code does not know is answered as $default. */
export function webSocketOperationFor(routeKey: string): WebSocketOperation {
  return WEBSOCKET_OPERATIONS[WEBSOCKET_ROUTES[webSocketRouteNamed(routeKey) ?? "$default"].operation];
}
