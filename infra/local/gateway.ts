// The local twin's gateway: ONE loopback HTTP server standing in for everything the handlers and their
// clients talk to in AWS, so the very same handler modules and SDK clients work unchanged. It only listens
// and dispatches by path; each AWS surface is a module of its own:
//   - rest-api.ts: API Gateway REST (Lambda proxy integration, v1 events) for the resources of
//     lambdas/contracts/routes.ts; methods with `transfer: "stream"` go to the stream function, its
//     response streamed (Server-Sent Events);
//   - websocket-api.ts: API Gateway WebSocket (`/ws`): REQUEST authorizer on $connect, $connect /
//     $disconnect / message routes selected by `$request.body.action`;
//   - connections-api.ts: the WebSocket management API (`/{stage}/@connections/{id}`) used by
//     @aws-sdk/client-apigatewaymanagementapi;
//   - step-functions-api.ts: the Step Functions JSON API (`POST /sfn`) used by @aws-sdk/client-sfn and the
//     AWS CLI, backed by LocalStepFunctions;
//   - static-site.ts: the dashboard's static files (every other path).
// Nothing here authenticates callers: IAM authorization of the REST API and SigV4 on the management and Step
// Functions APIs are not emulated, which is why the server only ever binds to loopback (and checks the Host
// header, so a web page cannot reach it through DNS rebinding).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { ConnectionsApi, matchConnectionsPath } from "./connections-api.ts";
import {
  DEFAULT_STAGE,
  describeError,
  HttpError,
  hostAllowed,
  isLoopbackHost,
  rejectUpgrade,
  type SurfaceContext,
  sendJson,
  splitUrl,
  withTimeout,
} from "./http-common.ts";
import { type ApiHandler, isRestApiPath, RestApi, type StreamHandler } from "./rest-api.ts";
import { StaticSite } from "./static-site.ts";
import { STEP_FUNCTIONS_PATH, StepFunctionsApi, type StepFunctionsBackend } from "./step-functions-api.ts";
import {
  type AuthorizerHandler,
  WEBSOCKET_PATH,
  WebSocketApi,
  type WebSocketHandler,
} from "./websocket-api.ts";

// What importers of the gateway have always found here.
export { DEFAULT_STAGE, isLoopbackHost, LOCAL_API_ID } from "./http-common.ts";
export { type ApiHandler, MAX_REST_BODY_BYTES, type StreamHandler } from "./rest-api.ts";
export { defaultVendorFiles } from "./static-site.ts";
export { STEP_FUNCTIONS_PATH, type StepFunctionsBackend } from "./step-functions-api.ts";
export {
  type AuthorizerHandler,
  evaluateAuthorizerResult,
  MAX_WEBSOCKET_MESSAGE_BYTES,
  newConnectionId,
  WEBSOCKET_PATH,
  type WebSocketEvent,
  type WebSocketHandler,
  type WebSocketRequestContext,
} from "./websocket-api.ts";

export interface GatewayHandlers {
  api: ApiHandler;
  /** The stream function (streamed methods of the route table); without it they answer 502. */
  stream?: StreamHandler;
  ws: WebSocketHandler;
  authorizer: AuthorizerHandler;
}

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
    /** SFN_ENDPOINT for SFNClient (and `--endpoint-url` of `aws stepfunctions`). */
    stepFunctions: string;
    dashboard: string;
  };
  /** Ids of the open WebSocket connections. */
  connectionIds(): string[];
  /** Disconnects every client (running $disconnect), waits (bounded) for running handler calls, stops listening. */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 3000;

const DRAIN_TIMEOUT_MS = 5_000;

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
  return new LocalGateway(server, address, options).attach();
}

/** Dispatches the server's requests and upgrades to the surfaces, and closes them in order. */
class LocalGateway {
  private readonly context: SurfaceContext;
  private readonly rest: RestApi;
  private readonly websocket: WebSocketApi;
  private readonly connections: ConnectionsApi;
  private readonly stepFunctions: StepFunctionsApi;
  private readonly site: StaticSite;
  private readonly pending = new Set<Promise<unknown>>();
  private closing = false;
  private readonly origin: string;

  constructor(
    private readonly server: Server,
    private readonly address: AddressInfo,
    options: GatewayOptions,
  ) {
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    this.context = {
      stage: options.stage ?? DEFAULT_STAGE,
      region: options.region ?? process.env.AWS_REGION ?? "us-east-1",
      port: address.port,
      log,
      track: (promise) => this.track(promise),
    };
    this.rest = new RestApi(this.context, options.handlers.api, options.handlers.stream);
    this.websocket = new WebSocketApi(this.context, options.handlers);
    this.connections = new ConnectionsApi(this.context.stage, this.websocket);
    this.stepFunctions = new StepFunctionsApi(options.stepFunctions, log);
    this.site = new StaticSite({
      ...(options.dashboardDir !== undefined ? { root: options.dashboardDir } : {}),
      ...(options.vendorFiles !== undefined ? { vendorFiles: options.vendorFiles } : {}),
    });
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
    const stage = this.context.stage;
    return {
      server,
      port: this.address.port,
      host: this.address.address,
      stage,
      urls: {
        api: origin,
        websocket: `${origin.replace(/^http/, "ws")}${WEBSOCKET_PATH}`,
        management: `${origin}/${stage}`,
        stepFunctions: `${origin}${STEP_FUNCTIONS_PATH}`,
        dashboard: `${origin}/`,
      },
      connectionIds: () => this.websocket.connectionIds(),
      close: () => this.close(),
    };
  }

  private async handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (!hostAllowed(req)) {
        throw new HttpError(403, "Forbidden: the local gateway only answers requests addressed to loopback");
      }
      const { path, query } = splitUrl(req.url ?? "/");
      const method = req.method ?? "GET";
      if (path === STEP_FUNCTIONS_PATH || path === `${STEP_FUNCTIONS_PATH}/`) {
        // SFNClient with endpoint http://host:port/sfn posts to `/sfn/` (the SDK appends the operation's "/").
        await this.stepFunctions.handle(req, res);
        return;
      }
      const management = matchConnectionsPath(path);
      if (management) {
        await this.connections.handle(req, res, management.stage, management.encodedId);
        return;
      }
      if (isRestApiPath(path)) {
        await this.rest.handle(req, res, method, path, query);
        return;
      }
      await this.site.handle(req, res, method, path);
    } catch (error) {
      if (error instanceof HttpError) {
        sendJson(res, error.status, { message: error.message }, error.errorType);
        return;
      }
      this.context.log(`gateway: ${req.method} ${req.url} failed: ${describeError(error)}`);
      sendJson(res, 500, { message: "Internal server error" });
    }
  }

  private async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // A client may vanish during the authorizer call; its socket error must not crash the twin.
    socket.on("error", () => undefined);
    const { path, query } = splitUrl(req.url ?? "/");
    if (!hostAllowed(req)) return rejectUpgrade(socket, 403, "Forbidden");
    if (path !== WEBSOCKET_PATH && path !== `${WEBSOCKET_PATH}/`)
      return rejectUpgrade(socket, 404, "Not Found");
    if (this.closing) return rejectUpgrade(socket, 503, "The local twin is stopping");
    await this.websocket.upgrade(req, socket, head, path, query);
  }

  private track(promise: Promise<unknown>): void {
    const tracked = promise.catch((error: unknown) => this.context.log(`gateway: ${describeError(error)}`));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  private async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.websocket.close();
    const closed = new Promise<void>((resolveClosed) => this.server.close(() => resolveClosed()));
    this.server.closeIdleConnections();
    await withTimeout(Promise.all([...this.pending]), DRAIN_TIMEOUT_MS);
    this.server.closeAllConnections();
    this.websocket.dispose();
    await closed;
  }
}
