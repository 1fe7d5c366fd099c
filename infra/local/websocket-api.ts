// API Gateway WebSocket API, as the twin emulates it: the REQUEST authorizer on $connect (its policy
// evaluated as API Gateway evaluates it), the $connect / $disconnect routes and the message routes selected
// by `$request.body.action` (lambdas/contracts/routes.ts), each a Lambda proxy integration receiving API
// Gateway's event. The open connections live here; the @connections management API (connections-api.ts)
// posts to them and closes them.
import { randomBytes, randomUUID } from "node:crypto";
import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from "aws-lambda";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import { selectWebSocketRoute } from "../../lambdas/contracts/routes.ts";
import {
  clfTime,
  describeError,
  eventHeaders,
  LOCAL_ACCOUNT_ID,
  LOCAL_API_ID,
  queryParameters,
  rejectUpgrade,
  type SurfaceContext,
} from "./http-common.ts";

export type WebSocketHandler = (event: WebSocketEvent) => Promise<unknown>;
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

/** What API Gateway passes to a WebSocket route's Lambda proxy integration. */
export interface WebSocketEvent {
  requestContext: WebSocketRequestContext;
  /** $connect and $disconnect carry the handshake's headers; messages do not. */
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  queryStringParameters?: Record<string, string>;
  multiValueQueryStringParameters?: Record<string, string[]>;
  body?: string;
  isBase64Encoded: boolean;
}

export interface WebSocketRequestContext {
  routeKey: string;
  eventType: "CONNECT" | "MESSAGE" | "DISCONNECT";
  connectionId: string;
  domainName: string;
  stage: string;
  apiId: string;
  requestId: string;
  extendedRequestId: string;
  messageId?: string;
  messageDirection: "IN";
  requestTime: string;
  requestTimeEpoch: number;
  connectedAt: number;
  identity: { sourceIp: string; userAgent?: string };
  /** The REQUEST authorizer's `context`, flattened with `principalId` (on every route, as in AWS). */
  authorizer?: Record<string, string | number | boolean>;
  disconnectStatusCode?: number;
  disconnectReason?: string;
}

/** WebSocket message payload quota (both directions; frames are 32 KB there, messages 128 KB). */
export const MAX_WEBSOCKET_MESSAGE_BYTES = 128 * 1024;
export const WEBSOCKET_PATH = "/ws";

const CLOSE_GRACE_MS = 1_000;

/** An open connection, as @connections describes it. */
export interface Connection {
  id: string;
  socket: WebSocket;
  connectedAt: Date;
  lastActiveAt: Date;
  sourceIp: string;
  userAgent?: string;
  domainName: string;
  authorizer: Record<string, string | number | boolean>;
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
  closed: Promise<void>;
}

export function newConnectionId(): string {
  // API Gateway's ids look like `L0SM9cOFvHcCIhw=`: 16 base64 characters, so `+`, `/` and `=` occur and every
  // client of @connections has to URL-encode them — as it must in AWS.
  return randomBytes(11).toString("base64");
}

export class WebSocketApi {
  private readonly wss = new WebSocketServer({
    noServer: true,
    // Above API Gateway's message quota ws closes the connection with 1009 (Message Too Big), as API Gateway does.
    maxPayload: MAX_WEBSOCKET_MESSAGE_BYTES,
  });
  private readonly connections = new Map<string, Connection>();
  private closing = false;

  constructor(
    private readonly context: SurfaceContext,
    private readonly handlers: { ws: WebSocketHandler; authorizer: AuthorizerHandler },
  ) {}

  /** Ids of the open connections. */
  connectionIds(): string[] {
    return [...this.connections.keys()];
  }

  connection(id: string): Connection | undefined {
    return this.connections.get(id);
  }

  /** Sends to the client; false when it is gone (or the send failed), which @connections answers with 410. */
  send(connection: Connection, data: string | Buffer): Promise<boolean> {
    return new Promise((resolveSend) => {
      if (connection.socket.readyState !== connection.socket.OPEN) return resolveSend(false);
      connection.socket.send(data, { binary: typeof data !== "string" }, (error) => resolveSend(!error));
    });
  }

  /** DeleteConnection: gone at once for @connections; closing the socket runs $disconnect, as in AWS. */
  disconnectClient(connection: Connection): void {
    this.connections.delete(connection.id);
    connection.socket.close(1000, "Connection deleted");
  }

  /** A handshake on the API's path: authorizer, then $connect; the connection opens only if both allow it. */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string, query: string) {
    if (this.closing) return rejectUpgrade(socket, 503, "The local twin is stopping");
    const { stage, region, port, log } = this.context;
    const connectionId = newConnectionId();
    const connectedAt = new Date();
    const { headers, multiValueHeaders } = eventHeaders(req, port);
    const { single, multi } = queryParameters(query);
    const domainName = req.headers.host ?? `127.0.0.1:${port}`;
    const userAgent = req.headers["user-agent"];
    const base = {
      connectionId,
      connectedAt: connectedAt.getTime(),
      domainName,
      stage,
      apiId: LOCAL_API_ID,
      identity: { sourceIp: req.socket.remoteAddress ?? "127.0.0.1", ...(userAgent ? { userAgent } : {}) },
    };

    // REQUEST authorizer on $connect. Its "Unauthorized" error is API Gateway's 401, a Deny policy its 403.
    const authorizerEvent = {
      type: "REQUEST",
      methodArn: `arn:aws:execute-api:${region}:${LOCAL_ACCOUNT_ID}:${LOCAL_API_ID}/${stage}/$connect`,
      resource: "$connect",
      path,
      httpMethod: "GET",
      headers,
      multiValueHeaders,
      queryStringParameters: single,
      multiValueQueryStringParameters: multi,
      pathParameters: null,
      stageVariables: null,
      requestContext: { ...requestContext("$connect", "CONNECT", base), protocol: "websocket" },
    } as unknown as APIGatewayRequestAuthorizerEvent;
    const startedAt = Date.now();
    let authorizer: Record<string, string | number | boolean>;
    try {
      const result = await this.handlers.authorizer(authorizerEvent);
      const decision = evaluateAuthorizerResult(result, authorizerEvent.methodArn);
      if (decision.effect === "invalid") {
        log(`gateway: authorizer returned an invalid result: ${decision.problem}`);
        return rejectUpgrade(socket, 500, "Internal server error");
      }
      if (decision.effect === "deny") return rejectUpgrade(socket, 403, "Forbidden");
      authorizer = {
        ...decision.context,
        principalId: result.principalId,
        integrationLatency: Date.now() - startedAt,
      };
    } catch (error) {
      if (error instanceof Error && error.message === "Unauthorized") {
        return rejectUpgrade(socket, 401, "Unauthorized");
      }
      log(`gateway: authorizer failed: ${describeError(error)}`);
      return rejectUpgrade(socket, 500, "Internal server error");
    }

    // $connect: the connection exists only once the route answered 2xx (posting to it before is a 410).
    const connectEvent: WebSocketEvent = {
      requestContext: { ...requestContext("$connect", "CONNECT", base), authorizer },
      headers,
      multiValueHeaders,
      ...(single ? { queryStringParameters: single } : {}),
      ...(multi ? { multiValueQueryStringParameters: multi } : {}),
      isBase64Encoded: false,
    };
    let status: number;
    try {
      status = statusOf(await this.handlers.ws(connectEvent));
    } catch (error) {
      log(`gateway: $connect handler failed: ${describeError(error)}`);
      return rejectUpgrade(socket, 500, "Internal server error");
    }
    if (status < 200 || status > 299) return rejectUpgrade(socket, status, STATUS_CODES[status] ?? "Refused");

    const connection: Connection = {
      id: connectionId,
      socket: undefined as unknown as WebSocket,
      connectedAt,
      lastActiveAt: connectedAt,
      sourceIp: base.identity.sourceIp,
      ...(base.identity.userAgent ? { userAgent: base.identity.userAgent } : {}),
      domainName,
      authorizer,
      headers,
      multiValueHeaders,
      closed: Promise.resolve(),
    };
    if (socket.destroyed || this.closing) {
      // The client left (or the twin is stopping) while $connect ran: API Gateway still runs $disconnect, so
      // whatever $connect stored gets cleaned up.
      rejectUpgrade(socket, 503, "The local twin is stopping");
      await this.disconnect(connection, 1006, "Connection closed during $connect");
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.register(connection, ws));
  }

  private register(connection: Connection, ws: WebSocket): void {
    connection.socket = ws;
    this.connections.set(connection.id, connection);
    let markClosed!: () => void;
    connection.closed = new Promise((resolveClosed) => {
      markClosed = resolveClosed;
    });
    ws.on("message", (data, isBinary) => {
      connection.lastActiveAt = new Date();
      this.context.track(this.dispatchMessage(connection, data, isBinary));
    });
    // ws reports protocol violations (e.g. a message above maxPayload) here, then closes with the right code.
    ws.on("error", () => undefined);
    ws.on("close", (code, reason) => {
      // Gone first: from now on @connections answers 410, as API Gateway does once a client is disconnected.
      this.connections.delete(connection.id);
      this.context.track(this.disconnect(connection, code, reason.toString("utf8")).finally(markClosed));
    });
  }

  private async dispatchMessage(connection: Connection, data: RawData, isBinary: boolean): Promise<void> {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    const text = isBinary ? undefined : bytes.toString("utf8");
    const routeKey = text === undefined ? "$default" : selectWebSocketRoute(text);
    const now = new Date();
    const requestId = randomUUID();
    const event: WebSocketEvent = {
      requestContext: {
        ...requestContext(routeKey, "MESSAGE", this.connectionBase(connection)),
        requestId,
        messageId: randomBytes(12).toString("base64"),
        requestTime: clfTime(now),
        requestTimeEpoch: now.getTime(),
        authorizer: connection.authorizer,
      },
      body: text ?? bytes.toString("base64"),
      isBase64Encoded: text === undefined,
    };
    // Each message is its own invocation, concurrently with the others of the connection, as in AWS; the
    // route's return value is discarded (no route response is configured): handlers reply via @connections.
    try {
      await this.handlers.ws(event);
    } catch (error) {
      this.context.log(`gateway: ${routeKey} handler failed: ${describeError(error)}`);
      // What API Gateway sends a client whose message's integration failed.
      await this.send(
        connection,
        JSON.stringify({ message: "Internal server error", connectionId: connection.id, requestId }),
      );
    }
  }

  private async disconnect(connection: Connection, code: number, reason: string): Promise<void> {
    const now = new Date();
    const event: WebSocketEvent = {
      requestContext: {
        ...requestContext("$disconnect", "DISCONNECT", this.connectionBase(connection)),
        requestTime: clfTime(now),
        requestTimeEpoch: now.getTime(),
        authorizer: connection.authorizer,
        disconnectStatusCode: code,
        disconnectReason: reason,
      },
      headers: connection.headers,
      multiValueHeaders: connection.multiValueHeaders,
      isBase64Encoded: false,
    };
    try {
      await this.handlers.ws(event);
    } catch (error) {
      // $disconnect is best effort in AWS too: nobody is left to tell.
      this.context.log(`gateway: $disconnect handler failed: ${describeError(error)}`);
    }
  }

  /** The request-context fields that stay the same for every event of one connection. */
  private connectionBase(connection: Connection) {
    return {
      connectionId: connection.id,
      connectedAt: connection.connectedAt.getTime(),
      domainName: connection.domainName,
      stage: this.context.stage,
      apiId: LOCAL_API_ID,
      identity: {
        sourceIp: connection.sourceIp,
        ...(connection.userAgent ? { userAgent: connection.userAgent } : {}),
      },
    };
  }

  /** Refuses new handshakes, closes every client (their $disconnect runs) and waits for them to close. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const connections = [...this.connections.values()];
    for (const connection of connections) connection.socket.close(1001, "The local twin is stopping");
    // Clients normally answer the close frame at once; a silent one is cut after a grace period.
    const cut = setTimeout(() => {
      for (const connection of connections) connection.socket.terminate();
    }, CLOSE_GRACE_MS);
    await Promise.all(connections.map((connection) => connection.closed));
    clearTimeout(cut);
  }

  /** Releases the ws server once the HTTP server no longer hands it sockets. */
  dispose(): void {
    this.wss.close();
  }
}

function requestContext(
  routeKey: string,
  eventType: WebSocketRequestContext["eventType"],
  base: Pick<
    WebSocketRequestContext,
    "connectionId" | "connectedAt" | "domainName" | "stage" | "apiId" | "identity"
  >,
): WebSocketRequestContext {
  const now = new Date();
  const requestId = randomUUID();
  return {
    ...base,
    routeKey,
    eventType,
    requestId,
    extendedRequestId: requestId,
    messageDirection: "IN",
    requestTime: clfTime(now),
    requestTimeEpoch: now.getTime(),
  };
}

function statusOf(result: unknown): number {
  // A $connect integration that returns nothing (or no statusCode) counts as success, as with API Gateway.
  if (
    result &&
    typeof result === "object" &&
    typeof (result as { statusCode?: unknown }).statusCode === "number"
  ) {
    return (result as { statusCode: number }).statusCode;
  }
  return 200;
}

export type AuthorizerDecision =
  | { effect: "allow"; context: Record<string, string | number | boolean> }
  | { effect: "deny" }
  | { effect: "invalid"; problem: string };

/** IAM policy evaluation as API Gateway does it for a Lambda authorizer: an explicit Deny wins, no Allow is a Deny. */
export function evaluateAuthorizerResult(result: unknown, methodArn: string): AuthorizerDecision {
  if (!result || typeof result !== "object") return { effect: "invalid", problem: "not an object" };
  const { principalId, policyDocument, context } = result as Partial<APIGatewayAuthorizerResult>;
  if (typeof principalId !== "string") return { effect: "invalid", problem: "principalId must be a string" };
  const statements = (policyDocument as { Statement?: unknown } | undefined)?.Statement;
  if (!statements) return { effect: "invalid", problem: "policyDocument.Statement is missing" };
  const flattened: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(context ?? {})) {
    // API Gateway rejects authorizer contexts with object or array values (500 AuthorizerConfigurationException).
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      return {
        effect: "invalid",
        problem: `context.${key} is ${Array.isArray(value) ? "an array" : typeof value}; only strings, numbers and booleans are allowed`,
      };
    }
    flattened[key] = value;
  }
  let allowed = false;
  for (const statement of Array.isArray(statements) ? statements : [statements]) {
    const { Effect, Action, Resource } = statement as {
      Effect?: string;
      Action?: unknown;
      Resource?: unknown;
    };
    const actions = (Array.isArray(Action) ? Action : [Action]).filter(
      (item): item is string => typeof item === "string",
    );
    const resources = (Array.isArray(Resource) ? Resource : [Resource]).filter(
      (item): item is string => typeof item === "string",
    );
    if (!actions.some((action) => wildcardMatch(action, "execute-api:Invoke"))) continue;
    if (!resources.some((resource) => wildcardMatch(resource, methodArn))) continue;
    if (Effect === "Deny") return { effect: "deny" };
    if (Effect === "Allow") allowed = true;
  }
  return allowed ? { effect: "allow", context: flattened } : { effect: "deny" };
}

function wildcardMatch(pattern: string, value: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );
  return regex.test(value);
}
