// The local twin's gateway: ONE loopback HTTP server standing in for everything the handlers and their
// clients talk to in AWS, so the very same handler modules and SDK clients work unchanged:
//   - API Gateway REST (Lambda proxy integration, v1 events) for the resources of lambdas/contracts/routes.ts;
//   - API Gateway WebSocket (`/ws`): REQUEST authorizer on $connect, $connect / $disconnect / message routes
//     selected by `$request.body.action`;
//   - the WebSocket management API (`/{stage}/@connections/{id}`) used by @aws-sdk/client-apigatewaymanagementapi;
//   - the Step Functions JSON API subset (`POST /sfn`: StartExecution, DescribeExecution, StopExecution, ListExecutions, SendTask*) used by
//     @aws-sdk/client-sfn, backed by LocalStepFunctions;
//   - the dashboard's static files.
// Nothing here authenticates callers: IAM authorization of the REST API and SigV4 on the management and Step
// Functions APIs are not emulated, which is why the server only ever binds to loopback (and checks the Host
// header, so a web page cannot reach it through DNS rebinding).
import { randomBytes, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, extname, join, resolve, sep } from "node:path";
import type { Duplex } from "node:stream";
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
} from "aws-lambda";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import {
  matchResourcePath,
  methodRoute,
  REST_RESOURCES,
  selectWebSocketRoute,
} from "../../lambdas/contracts/routes.ts";
import { type ExecutionDescription, type LocalStepFunctions, StepFunctionsError } from "./step-functions.ts";

export type ApiHandler = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;
export type WebSocketHandler = (event: WebSocketEvent) => Promise<unknown>;
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

export interface GatewayHandlers {
  api: ApiHandler;
  ws: WebSocketHandler;
  authorizer: AuthorizerHandler;
}

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

/** The part of LocalStepFunctions the Step Functions JSON API needs. */
export type StepFunctionsBackend = Pick<
  LocalStepFunctions,
  | "stateMachineArn"
  | "startExecution"
  | "describeExecution"
  | "listExecutions"
  | "stopExecution"
  | "sendTaskSuccess"
  | "sendTaskFailure"
  | "sendTaskHeartbeat"
>;

export interface GatewayOptions {
  /** An already listening server from listenLoopback() (the twin binds first to learn its port). */
  server?: Server;
  /** Without `server`: port to bind (default 3000; 0 picks a free one). */
  port?: number;
  host?: string;
  handlers: GatewayHandlers;
  /** Serves `POST /sfn` when given: one state machine, or several (each request goes to the one it names). */
  stepFunctions?: StepFunctionsBackend | readonly StepFunctionsBackend[];
  /** Stage of both APIs (default "local"): the management endpoint is `http://host:port/<stage>`. */
  stage?: string;
  region?: string;
  /** Folder of the dashboard's static files; `/` serves its index.html. */
  dashboardDir?: string;
  /** URL path → file, for the few library files the dashboard loads from node_modules. */
  vendorFiles?: Record<string, string>;
  /** Where handler failures are reported (default stderr): API Gateway logs them, the client sees only a 5xx. */
  log?: (line: string) => void;
}

export interface Gateway {
  server: Server;
  port: number;
  host: string;
  stage: string;
  urls: {
    /** Base URL of the REST API (no stage in the path, like a custom domain). */
    api: string;
    /** What WebSocket clients connect to. */
    websocket: string;
    /** WEBSOCKET_ENDPOINT for ApiGatewayManagementApiClient. */
    management: string;
    /** SFN_ENDPOINT for SFNClient. */
    stepFunctions: string;
    dashboard: string;
  };
  /** Ids of the open WebSocket connections. */
  connectionIds(): string[];
  /** Disconnects every client (running $disconnect), waits (bounded) for running handler calls, stops listening. */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 3000;
export const DEFAULT_STAGE = "local";
export const LOCAL_API_ID = "local";
const LOCAL_ACCOUNT_ID = "000000000000";

/**
 * First path parts of the REST API's resources (lambdas/contracts/routes.ts): requests under them are the
 * REST API's, everything else is the dashboard's. The deployed API has no greedy `/{proxy+}` resource, so a
 * path or method it does not have gets API Gateway's answer, not the handler.
 */
const REST_PATH_ROOTS = new Set(REST_RESOURCES.map((resource) => resource.split("/")[1]));
export const WEBSOCKET_PATH = "/ws";
export const STEP_FUNCTIONS_PATH = "/sfn";

// API Gateway quotas the emulation enforces, so oversized traffic fails here the way it fails in AWS.
/** REST API request payload. */
export const MAX_REST_BODY_BYTES = 10 * 1024 * 1024;
/** WebSocket message payload (both directions; frames are 32 KB there, messages 128 KB). */
export const MAX_WEBSOCKET_MESSAGE_BYTES = 128 * 1024;
/** Step Functions API requests are small JSON documents (the execution input quota is 256 KB). */
const MAX_SFN_BODY_BYTES = 1024 * 1024;

const CLOSE_GRACE_MS = 1_000;
const DRAIN_TIMEOUT_MS = 5_000;

const require = createRequire(import.meta.url);

/** The dashboard draws the plan with dagre, served from node_modules rather than a CDN (the twin is offline). */
export function defaultVendorFiles(): Record<string, string> {
  let dist: string;
  try {
    dist = join(dirname(require.resolve("@dagrejs/dagre/package.json")), "dist");
  } catch {
    return {};
  }
  return {
    "/vendor/dagre.js": join(dist, "dagre.min.js"),
    "/vendor/dagre.min.js.map": join(dist, "dagre.min.js.map"),
    "/vendor/dagre.esm.js": join(dist, "dagre.esm.js"),
    "/vendor/dagre.esm.js.map": join(dist, "dagre.esm.js.map"),
  };
}

export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

const STARTING = Symbol("rewoo.gateway.starting");
type StartingServer = Server & {
  [STARTING]?: { request: (req: IncomingMessage, res: ServerResponse) => void; upgrade: UpgradeListener };
};
type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Binds the gateway's server before the gateway exists: the twin needs the port to configure the handlers
 * (WEBSOCKET_ENDPOINT, SFN_ENDPOINT, ...) before it may import them. Until startGateway() attaches, requests
 * get 503, so a dashboard reconnecting to a restarting twin retries instead of hanging.
 */
export async function listenLoopback(port = DEFAULT_PORT, host = "127.0.0.1"): Promise<Server> {
  if (!isLoopbackHost(host)) {
    throw new Error(
      `The local gateway binds to loopback only (got host "${host}"): it emulates API Gateway without IAM authorization, so anyone who can reach it can start runs`,
    );
  }
  const server: StartingServer = createServer();
  const starting = {
    request: (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ message: "The local twin is starting" }));
    },
    upgrade: ((_req, socket) => rejectUpgrade(socket, 503, "The local twin is starting")) as UpgradeListener,
  };
  server.on("request", starting.request);
  server.on("upgrade", starting.upgrade);
  server[STARTING] = starting;
  await new Promise<void>((resolveListen, rejectListen) => {
    const onError = (error: NodeJS.ErrnoException) => {
      rejectListen(
        error.code === "EADDRINUSE"
          ? new Error(
              `Port ${port} on ${host} is already in use (another \`rewoo dev\`?): stop it or choose another port with --port`,
            )
          : error,
      );
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolveListen();
    });
  });
  return server;
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const host = options.host ?? "127.0.0.1";
  const server = options.server ?? (await listenLoopback(options.port ?? DEFAULT_PORT, host));
  const address = server.address() as AddressInfo | null;
  if (!address || !isLoopbackHost(address.address)) {
    throw new Error("The local gateway needs a server listening on loopback (see listenLoopback)");
  }
  const gateway = new LocalGateway(server, address, options);
  return gateway.attach();
}

interface Connection {
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

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorType?: string,
  ) {
    super(message);
  }
}

class LocalGateway {
  private readonly stage: string;
  private readonly region: string;
  private readonly vendorFiles: Record<string, string>;
  private readonly log: (line: string) => void;
  private readonly wss = new WebSocketServer({
    noServer: true,
    // Above API Gateway's message quota ws closes the connection with 1009 (Message Too Big), as API Gateway does.
    maxPayload: MAX_WEBSOCKET_MESSAGE_BYTES,
  });
  private readonly connections = new Map<string, Connection>();
  private readonly pending = new Set<Promise<unknown>>();
  private closing = false;
  private readonly origin: string;

  constructor(
    private readonly server: Server,
    private readonly address: AddressInfo,
    private readonly options: GatewayOptions,
  ) {
    this.stage = options.stage ?? DEFAULT_STAGE;
    this.region = options.region ?? process.env.AWS_REGION ?? "us-east-1";
    this.vendorFiles = options.vendorFiles ?? defaultVendorFiles();
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    const hostname = address.family === "IPv6" ? `[${address.address}]` : address.address;
    this.origin = `http://${hostname}:${address.port}`;
  }

  attach(): Gateway {
    const server = this.server as StartingServer;
    const starting = server[STARTING];
    if (starting) {
      server.off("request", starting.request);
      server.off("upgrade", starting.upgrade);
      delete server[STARTING];
    }
    server.on("request", (req, res) => {
      this.track(this.handleRequest(req, res));
    });
    server.on("upgrade", (req, socket, head) => {
      this.track(this.handleUpgrade(req, socket, head));
    });
    const origin = this.origin;
    return {
      server,
      port: this.address.port,
      host: this.address.address,
      stage: this.stage,
      urls: {
        api: origin,
        websocket: `${origin.replace(/^http/, "ws")}${WEBSOCKET_PATH}`,
        management: `${origin}/${this.stage}`,
        stepFunctions: `${origin}${STEP_FUNCTIONS_PATH}`,
        dashboard: `${origin}/`,
      },
      connectionIds: () => [...this.connections.keys()],
      close: () => this.close(),
    };
  }

  // ---------------------------------------------------------------- HTTP dispatch

  private async handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (!this.hostAllowed(req)) {
        throw new HttpError(403, "Forbidden: the local gateway only answers requests addressed to loopback");
      }
      const { path, query } = splitUrl(req.url ?? "/");
      const method = req.method ?? "GET";
      if (path === STEP_FUNCTIONS_PATH || path === `${STEP_FUNCTIONS_PATH}/`) {
        // SFNClient with endpoint http://host:port/sfn posts to `/sfn/` (the SDK appends the operation's "/").
        await this.handleStepFunctions(req, res);
        return;
      }
      const management = /^\/([^/]+)\/@connections\/([^/]*)$/.exec(path);
      if (management) {
        await this.handleManagement(req, res, management[1] ?? "", management[2] ?? "");
        return;
      }
      if (REST_PATH_ROOTS.has(path.split("/")[1])) {
        await this.handleRest(req, res, method, path, query);
        return;
      }
      await this.serveStatic(req, res, method, path);
    } catch (error) {
      if (error instanceof HttpError) {
        sendJson(res, error.status, { message: error.message }, error.errorType);
        return;
      }
      this.log(`gateway: ${req.method} ${req.url} failed: ${describeError(error)}`);
      sendJson(res, 500, { message: "Internal server error" });
    }
  }

  private hostAllowed(req: IncomingMessage): boolean {
    const host = req.headers.host;
    if (!host) return true;
    const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : (host.split(":")[0] ?? "");
    return isLoopbackHost(name);
  }

  // ---------------------------------------------------------------- REST API (Lambda proxy integration)

  private async handleRest(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    path: string,
    query: string,
  ): Promise<void> {
    const matched = matchResourcePath(path);
    if (!matched || !methodRoute(matched.resource, method)) {
      // What API Gateway REST answers for a resource or a method the API does not have (whatever the caller's
      // credentials): its MISSING_AUTHENTICATION_TOKEN gateway response.
      throw new HttpError(403, "Missing Authentication Token", "MissingAuthenticationTokenException");
    }
    const body = await readBody(req, MAX_REST_BODY_BYTES);
    if (body === undefined) {
      throw new HttpError(413, `Request payload exceeds API Gateway's ${MAX_REST_BODY_BYTES}-byte limit`);
    }
    const { resource } = matched;
    const pathParameters = Object.keys(matched.pathParameters).length ? matched.pathParameters : null;
    const { headers, multiValueHeaders } = eventHeaders(req, this.address.port);
    const { single, multi } = queryParameters(query);
    const now = new Date();
    const requestId = randomUUID();
    const event: APIGatewayProxyEvent = {
      resource,
      path,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: single,
      multiValueQueryStringParameters: multi,
      pathParameters,
      stageVariables: null,
      ...encodeBody(body, req.headers["content-type"]),
      requestContext: {
        accountId: LOCAL_ACCOUNT_ID,
        apiId: LOCAL_API_ID,
        authorizer: null,
        protocol: `HTTP/${req.httpVersion}`,
        httpMethod: method,
        // IAM authorization is not emulated (loopback only): the identity is the socket's, never a caller's.
        identity: identity(req),
        path: `/${this.stage}${path}`,
        stage: this.stage,
        requestId,
        extendedRequestId: requestId,
        requestTime: clfTime(now),
        requestTimeEpoch: now.getTime(),
        resourceId: "local",
        resourcePath: resource,
        domainName: req.headers.host ?? `127.0.0.1:${this.address.port}`,
      },
    };
    let result: unknown;
    try {
      result = await this.options.handlers.api(event);
    } catch (error) {
      // Like API Gateway: a failed integration is a 502 for the client and a log line for the operator.
      this.log(`gateway: API handler failed on ${method} ${path}: ${describeError(error)}`);
      sendJson(res, 502, { message: "Internal server error" }, undefined, requestId);
      return;
    }
    const problem = writeProxyResult(res, result, requestId);
    if (problem) {
      this.log(`gateway: malformed Lambda proxy response to ${method} ${path}: ${problem}`);
      sendJson(res, 502, { message: "Internal server error" }, undefined, requestId);
    }
  }

  // ---------------------------------------------------------------- WebSocket API

  private async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // A client may vanish during the authorizer call; its socket error must not crash the twin.
    socket.on("error", () => undefined);
    const { path, query } = splitUrl(req.url ?? "/");
    if (!this.hostAllowed(req)) return rejectUpgrade(socket, 403, "Forbidden");
    if (path !== WEBSOCKET_PATH && path !== `${WEBSOCKET_PATH}/`)
      return rejectUpgrade(socket, 404, "Not Found");
    if (this.closing) return rejectUpgrade(socket, 503, "The local twin is stopping");

    const connectionId = newConnectionId();
    const connectedAt = new Date();
    const { headers, multiValueHeaders } = eventHeaders(req, this.address.port);
    const { single, multi } = queryParameters(query);
    const domainName = req.headers.host ?? `127.0.0.1:${this.address.port}`;
    const base = {
      connectionId,
      connectedAt: connectedAt.getTime(),
      domainName,
      stage: this.stage,
      apiId: LOCAL_API_ID,
      identity: websocketIdentity(req),
    };

    // REQUEST authorizer on $connect. Its "Unauthorized" error is API Gateway's 401, a Deny policy its 403.
    const authorizerEvent = {
      type: "REQUEST",
      methodArn: `arn:aws:execute-api:${this.region}:${LOCAL_ACCOUNT_ID}:${LOCAL_API_ID}/${this.stage}/$connect`,
      resource: "$connect",
      path,
      httpMethod: "GET",
      headers,
      multiValueHeaders,
      queryStringParameters: single,
      multiValueQueryStringParameters: multi,
      pathParameters: null,
      stageVariables: null,
      requestContext: { ...this.requestContext("$connect", "CONNECT", base), protocol: "websocket" },
    } as unknown as APIGatewayRequestAuthorizerEvent;
    const startedAt = Date.now();
    let authorizer: Record<string, string | number | boolean>;
    try {
      const result = await this.options.handlers.authorizer(authorizerEvent);
      const decision = evaluateAuthorizerResult(result, authorizerEvent.methodArn);
      if (decision.effect === "invalid") {
        this.log(`gateway: authorizer returned an invalid result: ${decision.problem}`);
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
      this.log(`gateway: authorizer failed: ${describeError(error)}`);
      return rejectUpgrade(socket, 500, "Internal server error");
    }

    // $connect: the connection exists only once the route answered 2xx (posting to it before is a 410).
    const connectEvent: WebSocketEvent = {
      requestContext: { ...this.requestContext("$connect", "CONNECT", base), authorizer },
      headers,
      multiValueHeaders,
      ...(single ? { queryStringParameters: single } : {}),
      ...(multi ? { multiValueQueryStringParameters: multi } : {}),
      isBase64Encoded: false,
    };
    let status: number;
    try {
      status = statusOf(await this.options.handlers.ws(connectEvent));
    } catch (error) {
      this.log(`gateway: $connect handler failed: ${describeError(error)}`);
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
      this.track(this.dispatchMessage(connection, data, isBinary));
    });
    // ws reports protocol violations (e.g. a message above maxPayload) here, then closes with the right code.
    ws.on("error", () => undefined);
    ws.on("close", (code, reason) => {
      // Gone first: from now on @connections answers 410, as API Gateway does once a client is disconnected.
      this.connections.delete(connection.id);
      this.track(this.disconnect(connection, code, reason.toString("utf8")).finally(markClosed));
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
        ...this.requestContext(routeKey, "MESSAGE", this.connectionBase(connection)),
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
      await this.options.handlers.ws(event);
    } catch (error) {
      this.log(`gateway: ${routeKey} handler failed: ${describeError(error)}`);
      // What API Gateway sends a client whose message's integration failed.
      this.sendToClient(
        connection,
        JSON.stringify({ message: "Internal server error", connectionId: connection.id, requestId }),
      );
    }
  }

  private async disconnect(connection: Connection, code: number, reason: string): Promise<void> {
    const now = new Date();
    const event: WebSocketEvent = {
      requestContext: {
        ...this.requestContext("$disconnect", "DISCONNECT", this.connectionBase(connection)),
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
      await this.options.handlers.ws(event);
    } catch (error) {
      // $disconnect is best effort in AWS too: nobody is left to tell.
      this.log(`gateway: $disconnect handler failed: ${describeError(error)}`);
    }
  }

  /** The request-context fields that stay the same for every event of one connection. */
  private connectionBase(connection: Connection) {
    return {
      connectionId: connection.id,
      connectedAt: connection.connectedAt.getTime(),
      domainName: connection.domainName,
      stage: this.stage,
      apiId: LOCAL_API_ID,
      identity: {
        sourceIp: connection.sourceIp,
        ...(connection.userAgent ? { userAgent: connection.userAgent } : {}),
      },
    };
  }

  private requestContext(
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

  private sendToClient(connection: Connection, data: string | Buffer): Promise<boolean> {
    return new Promise((resolveSend) => {
      if (connection.socket.readyState !== connection.socket.OPEN) return resolveSend(false);
      connection.socket.send(data, { binary: typeof data !== "string" }, (error) => resolveSend(!error));
    });
  }

  // ---------------------------------------------------------------- @connections management API

  private async handleManagement(
    req: IncomingMessage,
    res: ServerResponse,
    stage: string,
    encodedId: string,
  ): Promise<void> {
    if (stage !== this.stage) throw new HttpError(403, "Forbidden", "ForbiddenException");
    let connectionId: string;
    try {
      // The SDK URL-encodes the id; API Gateway's ids contain `=`, `+` and `/`.
      connectionId = decodeURIComponent(encodedId);
    } catch {
      throw new HttpError(400, `Invalid connection id ${encodedId}`, "BadRequestException");
    }
    const gone = () => sendJson(res, 410, { message: "Gone" }, "GoneException");
    const connection = this.connections.get(connectionId);
    switch (req.method) {
      case "POST": {
        const body = await readBody(req, MAX_WEBSOCKET_MESSAGE_BYTES);
        if (body === undefined) {
          throw new HttpError(
            413,
            `Message exceeds API Gateway's ${MAX_WEBSOCKET_MESSAGE_BYTES}-byte WebSocket message limit`,
            "PayloadTooLargeException",
          );
        }
        if (!connection) return gone();
        const text = decodeUtf8(body);
        // Browsers get text frames for UTF-8 data (every JSON event); anything else goes out as binary.
        if (!(await this.sendToClient(connection, text ?? body))) return gone();
        res.writeHead(200, { "content-type": "application/json" }).end();
        return;
      }
      case "GET": {
        if (!connection) return gone();
        // The wire names are the model's jsonName traits (camelCase); the SDK maps them to ConnectedAt etc.
        sendJson(res, 200, {
          connectedAt: connection.connectedAt.toISOString(),
          identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent ?? "" },
          lastActiveAt: connection.lastActiveAt.toISOString(),
        });
        return;
      }
      case "DELETE": {
        if (!connection) return gone();
        // Closing runs $disconnect through the socket's close event, as DeleteConnection does in AWS.
        this.connections.delete(connectionId);
        connection.socket.close(1000, "Connection deleted");
        res.writeHead(204).end();
        return;
      }
      default:
        throw new HttpError(
          405,
          `Method ${req.method} not allowed on @connections`,
          "MethodNotAllowedException",
        );
    }
  }

  // ---------------------------------------------------------------- Step Functions JSON API (awsJson1_0)

  private async handleStepFunctions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/x-amz-json-1.0", "x-amzn-requestid": requestId });
      res.end(JSON.stringify(payload));
    };
    // The SDK raises the exception class named by `__type` (ExecutionDoesNotExist, ...) for 4xx answers.
    const fail = (type: string, message: string, status = 400) => reply(status, { __type: type, message });
    const machines = [this.options.stepFunctions ?? []].flat();
    if (req.method !== "POST")
      return fail("UnknownOperationException", "The Step Functions API takes POST", 404);
    if (machines.length === 0)
      return fail("UnknownOperationException", "No Step Functions emulation is attached to this gateway");
    const body = await readBody(req, MAX_SFN_BODY_BYTES);
    if (body === undefined) return fail("ValidationException", "Request too large", 413);
    const target = String(req.headers["x-amz-target"] ?? "");
    const operation = /^AWSStepFunctions\.(\w+)$/.exec(target)?.[1];
    let input: Record<string, unknown>;
    try {
      const parsed = JSON.parse(body.length ? body.toString("utf8") : "{}") as unknown;
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      input = parsed as Record<string, unknown>;
    } catch {
      return fail("SerializationException", "The request body is not a JSON object");
    }
    const requireString = (field: string): string => {
      const value = input[field];
      if (typeof value !== "string" || value === "") {
        throw named(
          "ValidationException",
          `1 validation error detected: Value at '${field}' failed to satisfy constraint: Member must not be null`,
        );
      }
      return value;
    };
    const optionalString = (field: string): string | undefined =>
      typeof input[field] === "string" ? (input[field] as string) : undefined;
    try {
      switch (operation) {
        case "StartExecution": {
          const stateMachineArn = requireString("stateMachineArn");
          if (!stateMachineArn.startsWith("arn:"))
            throw named("InvalidArn", `Invalid Arn: '${stateMachineArn}'`);
          const sfn = machineNamed(machines, stateMachineArn);
          const rawInput = optionalString("input") ?? "{}";
          let executionInput: unknown;
          try {
            executionInput = JSON.parse(rawInput);
          } catch {
            throw named("InvalidExecutionInput", "Invalid State Machine Execution Input: not valid JSON");
          }
          const name = optionalString("name");
          const started = sfn.startExecution({
            ...(name !== undefined ? { name } : {}),
            input: executionInput,
          });
          return reply(200, {
            executionArn: started.executionArn,
            startDate: epochSeconds(started.startDate),
          });
        }
        case "DescribeExecution": {
          const executionArn = requireString("executionArn");
          if (!executionArn.startsWith("arn:")) throw named("InvalidArn", `Invalid Arn: '${executionArn}'`);
          return reply(
            200,
            describeForApi(machineOfExecution(machines, executionArn).describeExecution(executionArn)),
          );
        }
        case "StopExecution": {
          const executionArn = requireString("executionArn");
          if (!executionArn.startsWith("arn:")) throw named("InvalidArn", `Invalid Arn: '${executionArn}'`);
          const error = optionalString("error");
          const cause = optionalString("cause");
          const stopped = machineOfExecution(machines, executionArn).stopExecution(executionArn, {
            ...(error !== undefined ? { error } : {}),
            ...(cause !== undefined ? { cause } : {}),
          });
          return reply(200, { stopDate: epochSeconds(stopped.stopDate) });
        }
        case "ListExecutions": {
          const stateMachineArn = requireString("stateMachineArn");
          const statusFilter = optionalString("statusFilter");
          const executions = machineNamed(machines, stateMachineArn)
            .listExecutions()
            .filter((execution) => statusFilter === undefined || execution.status === statusFilter)
            .sort((a, b) => b.startDate.getTime() - a.startDate.getTime())
            .map((execution) => ({
              executionArn: execution.executionArn,
              stateMachineArn: execution.stateMachineArn,
              name: execution.name,
              status: execution.status,
              startDate: epochSeconds(execution.startDate),
              ...(execution.stopDate ? { stopDate: epochSeconds(execution.stopDate) } : {}),
            }));
          return reply(200, { executions });
        }
        case "SendTaskSuccess": {
          const token = requireString("taskToken");
          const output = requireString("output");
          withTokenOwner(machines, (sfn) => sfn.sendTaskSuccess(token, output));
          return reply(200, {});
        }
        case "SendTaskFailure": {
          const error = optionalString("error");
          const cause = optionalString("cause");
          const token = requireString("taskToken");
          withTokenOwner(machines, (sfn) =>
            sfn.sendTaskFailure(token, {
              ...(error !== undefined ? { error } : {}),
              ...(cause !== undefined ? { cause } : {}),
            }),
          );
          return reply(200, {});
        }
        case "SendTaskHeartbeat": {
          const token = requireString("taskToken");
          withTokenOwner(machines, (sfn) => sfn.sendTaskHeartbeat(token));
          return reply(200, {});
        }
        default:
          return fail(
            "UnknownOperationException",
            `The local Step Functions API implements StartExecution, DescribeExecution, StopExecution, ListExecutions, SendTaskSuccess, SendTaskFailure and SendTaskHeartbeat, not ${target || "(no X-Amz-Target)"}`,
          );
      }
    } catch (error) {
      // LocalStepFunctions names its errors after the API's error codes (StepFunctionsError).
      if (error instanceof StepFunctionsError) return fail(error.name, error.message);
      this.log(`gateway: Step Functions ${operation} failed: ${describeError(error)}`);
      return fail("InternalFailure", "Internal failure of the local Step Functions emulation", 500);
    }
  }

  // ---------------------------------------------------------------- static dashboard

  private async serveStatic(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    path: string,
  ): Promise<void> {
    if (method !== "GET" && method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      throw new HttpError(405, "Method Not Allowed");
    }
    const vendor = this.vendorFiles[path];
    if (vendor !== undefined) return this.sendFile(req, res, vendor);
    const root = this.options.dashboardDir;
    if (!root) throw new HttpError(404, "Not Found");
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      throw new HttpError(400, "Bad Request");
    }
    const segments = decoded.split(/[/\\]/).filter(Boolean);
    // `..` (also percent-encoded), dotfiles and NULs never name a dashboard file.
    if (decoded.includes("\0") || segments.some((segment) => segment.startsWith("."))) {
      throw new HttpError(403, "Forbidden");
    }
    const rootDir = resolve(root);
    const file = resolve(
      rootDir,
      ...segments,
      ...(decoded.endsWith("/") || segments.length === 0 ? ["index.html"] : []),
    );
    if (!file.startsWith(rootDir + sep)) throw new HttpError(403, "Forbidden");
    let real: string;
    let realRoot: string;
    try {
      [real, realRoot] = await Promise.all([realpath(file), realpath(rootDir)]);
    } catch {
      throw new HttpError(404, "Not Found");
    }
    // A symlink inside the dashboard folder must not lead out of it.
    if (!real.startsWith(realRoot + sep)) throw new HttpError(403, "Forbidden");
    return this.sendFile(req, res, real);
  }

  private async sendFile(req: IncomingMessage, res: ServerResponse, file: string): Promise<void> {
    let size: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error("not a file");
      size = info.size;
    } catch {
      throw new HttpError(404, "Not Found");
    }
    res.writeHead(200, {
      "content-type": CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "content-length": size,
      // A development server: the dashboard must pick up edits on reload.
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    await new Promise<void>((resolveSent) => {
      const stream = createReadStream(file);
      stream.on("error", () => {
        res.destroy();
        resolveSent();
      });
      res.on("close", () => resolveSent());
      stream.pipe(res);
    });
  }

  // ---------------------------------------------------------------- lifecycle

  private track(promise: Promise<unknown>): void {
    const tracked = promise.catch((error: unknown) => this.log(`gateway: ${describeError(error)}`));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  private async close(): Promise<void> {
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
    const closed = new Promise<void>((resolveClosed) => this.server.close(() => resolveClosed()));
    this.server.closeIdleConnections();
    await withTimeout(Promise.all([...this.pending]), DRAIN_TIMEOUT_MS);
    this.server.closeAllConnections();
    this.wss.close();
    await closed;
  }
}

// -------------------------------------------------------------------- helpers

function named(name: string, message: string): StepFunctionsError {
  return new StepFunctionsError(name, message);
}

function machineNamed(
  machines: readonly StepFunctionsBackend[],
  stateMachineArn: string,
): StepFunctionsBackend {
  const machine = machines.find((candidate) => candidate.stateMachineArn === stateMachineArn);
  if (!machine) throw named("StateMachineDoesNotExist", `State Machine Does Not Exist: '${stateMachineArn}'`);
  return machine;
}

/** `…:execution:<machine name>:<execution name>` belongs to the machine `…:stateMachine:<machine name>`. */
function machineOfExecution(
  machines: readonly StepFunctionsBackend[],
  executionArn: string,
): StepFunctionsBackend {
  const machine = machines.find((candidate) =>
    executionArn.startsWith(`${candidate.stateMachineArn.replace(":stateMachine:", ":execution:")}:`),
  );
  if (!machine) throw named("ExecutionDoesNotExist", `Execution Does Not Exist: '${executionArn}'`);
  return machine;
}

/** A task token is one machine's: the others answer InvalidToken. */
function withTokenOwner(
  machines: readonly StepFunctionsBackend[],
  send: (machine: StepFunctionsBackend) => void,
): void {
  for (const [index, machine] of machines.entries()) {
    try {
      send(machine);
      return;
    } catch (error) {
      const last = index === machines.length - 1;
      if (last || !(error instanceof StepFunctionsError) || error.name !== "InvalidToken") throw error;
    }
  }
}

function describeForApi(execution: ExecutionDescription): Record<string, unknown> {
  const inputJson = JSON.stringify(execution.input ?? {});
  const out: Record<string, unknown> = {
    executionArn: execution.executionArn,
    stateMachineArn: execution.stateMachineArn,
    name: execution.name,
    status: execution.status,
    startDate: epochSeconds(execution.startDate),
    input: inputJson,
    inputDetails: { included: true },
  };
  if (execution.stopDate) out.stopDate = epochSeconds(execution.stopDate);
  if (execution.status === "SUCCEEDED") {
    out.output = JSON.stringify(execution.output ?? null);
    out.outputDetails = { included: true };
  }
  if (execution.error !== undefined) out.error = execution.error;
  if (execution.cause !== undefined) out.cause = execution.cause;
  return out;
}

/** awsJson1_0 timestamps are epoch seconds (fractions allowed). */
function epochSeconds(date: Date): number {
  return date.getTime() / 1000;
}

export function newConnectionId(): string {
  // API Gateway's ids look like `L0SM9cOFvHcCIhw=`: 16 base64 characters, so `+`, `/` and `=` occur and every
  // client of @connections has to URL-encode them — as it must in AWS.
  return randomBytes(11).toString("base64");
}

function splitUrl(url: string): { path: string; query: string } {
  // Not `new URL()`: it would read `//host/...` as an authority and normalize `..`, hiding what was asked.
  const index = url.indexOf("?");
  return index === -1 ? { path: url, query: "" } : { path: url.slice(0, index), query: url.slice(index + 1) };
}

function queryParameters(query: string): {
  single: Record<string, string> | null;
  multi: Record<string, string[]> | null;
} {
  if (!query) return { single: null, multi: null };
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    // Like the REST API's v1 events: `queryStringParameters` keeps the last value, the multi form all of them.
    single[key] = value;
    multi[key] = [...(multi[key] ?? []), value];
  }
  return Object.keys(single).length ? { single, multi } : { single: null, multi: null };
}

function eventHeaders(
  req: IncomingMessage,
  port: number,
): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  // rawHeaders keep the client's spelling, as API Gateway does: a handler that only looks up lower-case names
  // fails here as it would in AWS.
  for (let index = 0; index + 1 < req.rawHeaders.length; index += 2) {
    const name = req.rawHeaders[index] as string;
    const value = req.rawHeaders[index + 1] as string;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  const forwarded: Record<string, string> = {
    "X-Forwarded-For": req.socket.remoteAddress ?? "127.0.0.1",
    "X-Forwarded-Port": String(port),
    "X-Forwarded-Proto": "http",
  };
  for (const [name, value] of Object.entries(forwarded)) {
    headers[name] = value;
    multiValueHeaders[name] = [value];
  }
  return { headers, multiValueHeaders };
}

function websocketIdentity(req: IncomingMessage): { sourceIp: string; userAgent?: string } {
  const userAgent = req.headers["user-agent"];
  return { sourceIp: req.socket.remoteAddress ?? "127.0.0.1", ...(userAgent ? { userAgent } : {}) };
}

function identity(req: IncomingMessage): APIGatewayProxyEvent["requestContext"]["identity"] {
  const userAgent = req.headers["user-agent"];
  return {
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    sourceIp: req.socket.remoteAddress ?? "127.0.0.1",
    user: null,
    userAgent: userAgent ?? null,
    userArn: null,
  };
}

const TEXT_TYPES =
  /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|x-www-form-urlencoded))/i;

function encodeBody(
  body: Buffer,
  contentType: string | undefined,
): { body: string | null; isBase64Encoded: boolean } {
  if (body.length === 0) return { body: null, isBase64Encoded: false };
  // API Gateway hands text to the Lambda as is and binary media types base64-encoded.
  const text = !contentType || TEXT_TYPES.test(contentType) ? decodeUtf8(body) : undefined;
  return text === undefined
    ? { body: body.toString("base64"), isBase64Encoded: true }
    : { body: text, isBase64Encoded: false };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Reads the whole body; undefined when it exceeds `limit` (the rest is drained so the client sees the answer). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolveBody, rejectBody) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    let tooLarge = declared > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolveBody(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on("error", rejectBody);
  });
}

/** Writes a Lambda proxy result; returns what is wrong with it instead when API Gateway would answer 502. */
function writeProxyResult(res: ServerResponse, result: unknown, requestId: string): string | undefined {
  if (!result || typeof result !== "object")
    return `expected an object with statusCode, got ${typeof result}`;
  const { statusCode, headers, multiValueHeaders, body, isBase64Encoded } = result as Record<string, unknown>;
  if (
    typeof statusCode !== "number" ||
    !Number.isInteger(statusCode) ||
    statusCode < 100 ||
    statusCode > 599
  ) {
    return `statusCode must be an HTTP status, got ${JSON.stringify(statusCode)}`;
  }
  if (body !== undefined && body !== null && typeof body !== "string") {
    return `body must be a string (JSON.stringify it), got ${typeof body}`;
  }
  const merged = new Map<string, { name: string; values: string[] }>();
  const add = (source: unknown, multi: boolean) => {
    if (source === undefined || source === null) return;
    if (typeof source !== "object") throw new Error("headers must be an object");
    for (const [name, value] of Object.entries(source)) {
      const values = multi ? (Array.isArray(value) ? value : [value]) : [value];
      const key = name.toLowerCase();
      // API Gateway: a header in both maps keeps only its multiValueHeaders values.
      if (!multi && merged.has(key)) continue;
      merged.set(key, { name, values: values.map((item) => String(item)) });
    }
  };
  try {
    add(multiValueHeaders, true);
    add(headers, false);
    const payload =
      typeof body === "string"
        ? isBase64Encoded
          ? Buffer.from(body, "base64")
          : Buffer.from(body, "utf8")
        : undefined;
    res.statusCode = statusCode;
    for (const { name, values } of merged.values())
      res.setHeader(name, values.length === 1 ? (values[0] as string) : values);
    if (!res.hasHeader("x-amzn-requestid")) res.setHeader("x-amzn-RequestId", requestId);
    res.end(payload);
  } catch (error) {
    // e.g. a header value with a newline, which Node (and API Gateway) refuse.
    if (!res.headersSent) {
      for (const name of res.getHeaderNames()) res.removeHeader(name);
    }
    return (error as Error).message;
  }
  return undefined;
}

function sendJson(
  res: ServerResponse,
  status: number,
  payload: unknown,
  errorType?: string,
  requestId: string = randomUUID(),
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    "content-type": "application/json",
    "x-amzn-RequestId": requestId,
    // The SDKs read the error class from this header (restJson1): GoneException, PayloadTooLargeException, ...
    ...(errorType ? { "x-amzn-errortype": errorType } : {}),
  });
  res.end(JSON.stringify(payload));
}

function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
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

type AuthorizerDecision =
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

/** Common Log Format time, as in `requestContext.requestTime` (`21/Nov/2026:22:03:01 +0000`). */
function clfTime(date: Date): string {
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

async function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise<void>((resolveTimeout) => {
      timer = setTimeout(resolveTimeout, ms);
    }),
  ]);
  clearTimeout(timer);
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".pdf": "application/pdf",
};
