// The local twin's gateway with small in-test handlers: the events it hands to the handlers have API
// Gateway's shapes, and the real SDK clients (SFNClient, ApiGatewayManagementApiClient) work against it.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  GoneException,
  PayloadTooLargeException,
  PostToConnectionCommand,
} from "@aws-sdk/client-apigatewaymanagementapi";
import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  SFNClient,
  StartExecutionCommand,
  StateMachineDoesNotExist,
  StopExecutionCommand,
} from "@aws-sdk/client-sfn";
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
} from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  type Gateway,
  listenLoopback,
  startGateway,
  type WebSocketEvent,
} from "../../infra/local/gateway.ts";
import { LocalStepFunctions } from "../../infra/local/step-functions.ts";
import { verifyToken } from "../../lambdas/auth/tokens.ts";

const credentials = { accessKeyId: "local", secretAccessKey: "local" };

const apiEvents: APIGatewayProxyEvent[] = [];
const wsEvents: WebSocketEvent[] = [];
const authorizerEvents: APIGatewayRequestAuthorizerEvent[] = [];
const logs: string[] = [];
const gates = new Map<string, PromiseWithResolversLike>();

interface PromiseWithResolversLike {
  promise: Promise<void>;
  resolve: () => void;
}

function gate(name: string): PromiseWithResolversLike {
  let entry = gates.get(name);
  if (!entry) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    entry = { promise, resolve };
    gates.set(name, entry);
  }
  return entry;
}

let gateway: Gateway;
let management: ApiGatewayManagementApiClient;
let sfn: SFNClient;
let stepFunctions: LocalStepFunctions;
let dashboardDir: string;

function policy(effect: "Allow" | "Deny", resource: string): APIGatewayAuthorizerResult["policyDocument"] {
  return {
    Version: "2012-10-17",
    Statement: [{ Action: "execute-api:Invoke", Effect: effect, Resource: resource }],
  };
}

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), "rewoo-gateway-"));
  dashboardDir = join(root, "dashboard");
  await mkdir(join(dashboardDir, "js"), { recursive: true });
  await writeFile(join(dashboardDir, "index.html"), "<!doctype html><title>runs</title>");
  await writeFile(join(dashboardDir, "js", "app.js"), "export const answer = 42;\n");
  await writeFile(join(dashboardDir, ".env"), "SECRET=1");
  await writeFile(join(root, "secret.txt"), "outside the dashboard");
  await symlink(join(root, "secret.txt"), join(dashboardDir, "escape.txt"));

  const asl = join(root, "gated.asl.json");
  await writeFile(
    asl,
    JSON.stringify({
      StartAt: "Work",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a definition substitution, as in statemachine/rewoo.asl.json
      States: { Work: { Type: "Task", Resource: "${WorkFunctionArn}", TimeoutSeconds: 30, End: true } },
    }),
  );
  stepFunctions = await LocalStepFunctions.fromFile(asl, {
    // Each execution waits for its gate, so a test sees it RUNNING for as long as it wants.
    Work: async (input) => {
      const name = (input as { gate: string }).gate;
      await gate(name).promise;
      return { done: name };
    },
  });

  gateway = await startGateway({
    port: 0,
    host: "127.0.0.1",
    stage: "local",
    dashboardDir,
    stepFunctions,
    log: (line) => logs.push(line),
    handlers: {
      api: async (event): Promise<APIGatewayProxyResult> => {
        apiEvents.push(event);
        if (event.path === "/v1/runs/boom/cancel") throw new Error("handler exploded");
        if (event.path === "/v1/runs/malformed")
          return { statusCode: 200, body: { not: "a string" } } as never;
        if (event.path === "/v1/runs/binary") {
          return {
            statusCode: 200,
            headers: { "content-type": "application/octet-stream" },
            body: Buffer.from([0, 1, 2, 255]).toString("base64"),
            isBase64Encoded: true,
          };
        }
        return {
          statusCode: 201,
          headers: { "content-type": "application/json", "x-echo": "yes", "set-cookie": "ignored=1" },
          multiValueHeaders: { "set-cookie": ["a=1", "b=2"] },
          body: JSON.stringify({ received: event.body }),
        };
      },
      authorizer: async (event) => {
        authorizerEvents.push(event);
        const token = event.queryStringParameters?.token;
        if (token === "run-token") {
          return {
            principalId: "run:r1",
            policyDocument: policy("Allow", event.methodArn),
            context: { scope: "run", run_id: "r1" },
          };
        }
        if (token === "refused-by-connect") {
          return {
            principalId: "run:refuse",
            policyDocument: policy("Allow", event.methodArn),
            context: { scope: "run", run_id: "refuse" },
          };
        }
        if (token === "denied")
          return { principalId: "anonymous", policyDocument: policy("Deny", event.methodArn) };
        if (token === "nested-context") {
          return {
            principalId: "x",
            policyDocument: policy("Allow", event.methodArn),
            context: { scope: { kind: "run" } } as never,
          };
        }
        throw new Error("Unauthorized");
      },
      ws: async (event) => {
        wsEvents.push(event);
        const { routeKey, connectionId, authorizer } = event.requestContext;
        if (routeKey === "$connect" && authorizer?.run_id === "refuse") return { statusCode: 403 };
        if (routeKey === "subscribe") {
          // What the real handler does: answer through the management API, not the route's return value.
          await management.send(
            new PostToConnectionCommand({
              ConnectionId: connectionId,
              Data: JSON.stringify({ echo: JSON.parse(event.body ?? "null") }),
            }),
          );
        }
        if (routeKey === "$default" && event.body === "crash") throw new Error("route exploded");
        return { statusCode: 200 };
      },
    },
  });
  management = new ApiGatewayManagementApiClient({
    region: "us-east-1",
    endpoint: gateway.urls.management,
    credentials,
  });
  sfn = new SFNClient({ region: "us-east-1", endpoint: gateway.urls.stepFunctions, credentials });
});

afterAll(async () => {
  for (const entry of gates.values()) entry.resolve();
  await gateway?.close();
  await stepFunctions?.close();
  management?.destroy();
  sfn?.destroy();
});

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Client {
  socket: WebSocket;
  messages: string[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a WebSocket; resolves with the client, or with the HTTP status that refused the handshake. */
function connect(query: string): Promise<Client | { status: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${gateway.urls.websocket}${query}`);
    const messages: string[] = [];
    socket.on("message", (data) => messages.push(data.toString()));
    const closed = new Promise<{ code: number; reason: string }>((resolveClose) => {
      socket.on("close", (code, reason) => resolveClose({ code, reason: reason.toString() }));
    });
    socket.on("open", () => resolve({ socket, messages, closed }));
    socket.on("unexpected-response", (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      res.resume();
      socket.terminate();
    });
    socket.on("error", (error) => reject(error));
  });
}

/** An accepted client and the $connect event of its connection (tests connect one client at a time). */
async function connected(query: string): Promise<Client & { connectEvent: WebSocketEvent }> {
  const before = new Set(gateway.connectionIds());
  const client = await connect(query);
  if (!("socket" in client)) throw new Error(`handshake refused with ${client.status}`);
  // The gateway registers the connection before it answers 101, so the new id is there on "open".
  const connectionId = gateway.connectionIds().find((id) => !before.has(id));
  const connectEvent = wsEvents.find(
    (e) => e.requestContext.routeKey === "$connect" && e.requestContext.connectionId === connectionId,
  );
  if (!connectEvent) throw new Error("no $connect event for the new connection");
  return { ...client, connectEvent };
}

/** A raw request, so the path reaches the server exactly as written (fetch would normalize `..`). */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: gateway.port, path, method: "GET", headers },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("REST API (Lambda proxy integration)", () => {
  it("hands the handler a v1 proxy event with the matched resource, path parameters, query, headers and body", async () => {
    const response = await fetch(`${gateway.urls.api}/v1/runs/run-1%2Fx/cancel?x=1&x=2&y=z%20z`, {
      method: "POST",
      headers: { "content-type": "application/json", "Idempotency-Key": "key-1" },
      body: JSON.stringify({ reason: "testing" }),
    });
    const event = apiEvents.at(-1) as APIGatewayProxyEvent;
    expect(event).toMatchObject({
      httpMethod: "POST",
      path: "/v1/runs/run-1%2Fx/cancel",
      resource: "/v1/runs/{run_id}/cancel",
      pathParameters: { run_id: "run-1/x" },
      queryStringParameters: { x: "2", y: "z z" },
      multiValueQueryStringParameters: { x: ["1", "2"], y: ["z z"] },
      body: '{"reason":"testing"}',
      isBase64Encoded: false,
      stageVariables: null,
      requestContext: {
        stage: "local",
        httpMethod: "POST",
        resourcePath: "/v1/runs/{run_id}/cancel",
        path: "/local/v1/runs/run-1%2Fx/cancel",
        identity: { sourceIp: "127.0.0.1" },
        domainName: `127.0.0.1:${gateway.port}`,
      },
    });
    // The client's header spelling is kept, as API Gateway does.
    expect(event.headers["Idempotency-Key"] ?? event.headers["idempotency-key"]).toBe("key-1");
    expect(event.multiValueHeaders["content-type"]).toEqual(["application/json"]);
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(event.requestContext.requestTimeEpoch).toBeGreaterThan(Date.now() - 10_000);

    expect(response.status).toBe(201);
    expect(response.headers.get("x-echo")).toBe("yes");
    // multiValueHeaders win over headers for the same name.
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ received: '{"reason":"testing"}' });
  });

  it("matches the route table's resources; no query string and no body are null", async () => {
    await fetch(`${gateway.urls.api}/health`);
    expect(apiEvents.at(-1)).toMatchObject({
      httpMethod: "GET",
      resource: "/health",
      pathParameters: null,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      body: null,
    });
    // By its own resource, not a proxy fallback (the gateway once kept a resource list of its own).
    await fetch(`${gateway.urls.api}/v1/runs?limit=5`);
    expect(apiEvents.at(-1)).toMatchObject({
      resource: "/v1/runs",
      path: "/v1/runs",
      pathParameters: null,
      queryStringParameters: { limit: "5" },
      requestContext: { resourcePath: "/v1/runs" },
    });
    // One trailing slash reaches the resource, as in API Gateway REST; the path stays as sent.
    await fetch(`${gateway.urls.api}/v1/runs/run-9/`);
    expect(apiEvents.at(-1)).toMatchObject({
      resource: "/v1/runs/{run_id}",
      path: "/v1/runs/run-9/",
      pathParameters: { run_id: "run-9" },
    });
    await fetch(`${gateway.urls.api}/v1/runs/run-9/events?after_seq=3`);
    expect(apiEvents.at(-1)).toMatchObject({
      resource: "/v1/runs/{run_id}/events",
      pathParameters: { run_id: "run-9" },
      queryStringParameters: { after_seq: "3" },
    });
  });

  it.each([
    ["GET", "/v1/no-such-resource"],
    ["GET", "/v1"],
    ["GET", "/v1/runs/run-1/events/extra"],
    ["GET", "/v1/runs//events"],
    ["GET", "/health/x"],
    ["DELETE", "/v1/runs/run-1"],
    ["GET", "/v1/evaluate-conditions"],
    ["PUT", "/health"],
  ])(
    "answers %s %s like API Gateway for a resource or method the API does not have, without the handler",
    async (method, path) => {
      const before = apiEvents.length;
      const response = await fetch(`${gateway.urls.api}${path}`, { method });
      expect(response.status).toBe(403);
      expect(response.headers.get("x-amzn-errortype")).toBe("MissingAuthenticationTokenException");
      expect(await response.json()).toEqual({ message: "Missing Authentication Token" });
      expect(apiEvents.length).toBe(before);
    },
  );

  it("leaves paths outside the API's resources to the dashboard", async () => {
    const before = apiEvents.length;
    expect((await fetch(`${gateway.urls.api}/healthz`)).status).toBe(404);
    expect(apiEvents.length).toBe(before);
  });

  it("base64-encodes binary request bodies and decodes isBase64Encoded responses", async () => {
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff, 0x00, 0x80]);
    await fetch(`${gateway.urls.api}/v1/evaluate-conditions`, {
      method: "POST",
      headers: { "content-type": "application/pdf" },
      body: bytes,
    });
    const event = apiEvents.at(-1) as APIGatewayProxyEvent;
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body ?? "", "base64")).toEqual(bytes);

    const response = await fetch(`${gateway.urls.api}/v1/runs/binary`);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it("answers 502 when the handler throws or returns a malformed proxy response, and logs why", async () => {
    const thrown = await fetch(`${gateway.urls.api}/v1/runs/boom/cancel`, { method: "POST" });
    expect(thrown.status).toBe(502);
    expect(await thrown.json()).toEqual({ message: "Internal server error" });
    expect(logs.some((line) => line.includes("handler exploded"))).toBe(true);

    const malformed = await fetch(`${gateway.urls.api}/v1/runs/malformed`);
    expect(malformed.status).toBe(502);
    expect(logs.some((line) => line.includes("body must be a string"))).toBe(true);
  });

  it("refuses bodies above API Gateway's 10 MB without calling the handler", async () => {
    const before = apiEvents.length;
    const response = await fetch(`${gateway.urls.api}/v1/evaluate-conditions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(10 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(apiEvents.length).toBe(before);
  });

  it("refuses requests addressed to a non-loopback host name (DNS rebinding)", async () => {
    const response = await rawGet("/health", { host: "evil.example:3000" });
    expect(response.status).toBe(403);
  });
});

describe("WebSocket API", () => {
  it("runs the REQUEST authorizer, then $connect with its context; routes messages by action; $disconnect on close", async () => {
    const client = await connected("?token=run-token");
    const authorizerEvent = authorizerEvents.at(-1) as APIGatewayRequestAuthorizerEvent;
    expect(authorizerEvent).toMatchObject({
      type: "REQUEST",
      methodArn: "arn:aws:execute-api:us-east-1:000000000000:local/local/$connect",
      queryStringParameters: { token: "run-token" },
    });

    const { connectEvent } = client;
    const { connectionId } = connectEvent.requestContext;
    // API Gateway-like ids: 16 base64 characters ending in `=`, so they must be URL-encoded in @connections paths.
    expect(connectionId).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    expect(connectEvent).toMatchObject({
      requestContext: {
        routeKey: "$connect",
        eventType: "CONNECT",
        stage: "local",
        domainName: `127.0.0.1:${gateway.port}`,
        authorizer: { scope: "run", run_id: "r1", principalId: "run:r1" },
      },
      queryStringParameters: { token: "run-token" },
    });
    expect(gateway.connectionIds()).toContain(connectionId);

    client.socket.send(JSON.stringify({ action: "subscribe", run_id: "r1", after_seq: 0 }));
    await waitFor(() => client.messages.length >= 1 || undefined, "the subscribe echo");
    expect(JSON.parse(client.messages[0] ?? "")).toEqual({
      echo: { action: "subscribe", run_id: "r1", after_seq: 0 },
    });
    const subscribeEvent = wsEvents.find(
      (e) => e.requestContext.routeKey === "subscribe" && e.requestContext.connectionId === connectionId,
    );
    expect(subscribeEvent).toMatchObject({
      requestContext: { eventType: "MESSAGE", authorizer: { scope: "run", run_id: "r1" } },
      isBase64Encoded: false,
    });

    client.socket.send("not json");
    client.socket.send(JSON.stringify({ action: "dance" }));
    const defaults = await waitFor(() => {
      const found = wsEvents.filter(
        (e) => e.requestContext.routeKey === "$default" && e.requestContext.connectionId === connectionId,
      );
      return found.length === 2 ? found : undefined;
    }, "two $default messages");
    expect(defaults.map((e) => e.body).sort()).toEqual(["not json", '{"action":"dance"}']);

    client.socket.close(1000, "bye");
    const disconnect = await waitFor(
      () =>
        wsEvents.find(
          (e) =>
            e.requestContext.routeKey === "$disconnect" && e.requestContext.connectionId === connectionId,
        ),
      "$disconnect",
    );
    expect(disconnect.requestContext).toMatchObject({ eventType: "DISCONNECT", disconnectStatusCode: 1000 });
    expect(gateway.connectionIds()).not.toContain(connectionId);
    await expect(
      management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: "late" })),
    ).rejects.toBeInstanceOf(GoneException);
  });

  it("refuses the handshake like API Gateway: thrown Unauthorized 401, Deny 403, invalid context 500, $connect non-2xx", async () => {
    expect(await connect("")).toEqual({ status: 401 });
    expect(await connect("?token=forged")).toEqual({ status: 401 });
    expect(await connect("?token=denied")).toEqual({ status: 403 });
    const connectsBefore = wsEvents.filter((e) => e.requestContext.routeKey === "$connect").length;
    expect(await connect("?token=nested-context")).toEqual({ status: 500 });
    expect(wsEvents.filter((e) => e.requestContext.routeKey === "$connect").length).toBe(connectsBefore);
    expect(logs.some((line) => line.includes("context.scope is object"))).toBe(true);

    expect(await connect("?token=refused-by-connect")).toEqual({ status: 403 });
    const refused = wsEvents.findLast((e) => e.requestContext.routeKey === "$connect");
    await expect(
      management.send(new GetConnectionCommand({ ConnectionId: refused?.requestContext.connectionId })),
    ).rejects.toBeInstanceOf(GoneException);
  });

  it("only upgrades on /ws", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${gateway.port}/elsewhere?token=run-token`);
      socket.on("unexpected-response", (_req, res) => {
        resolve(res.statusCode ?? 0);
        socket.terminate();
      });
      socket.on("open", () => reject(new Error("upgraded on /elsewhere")));
      socket.on("error", () => undefined);
    });
    expect(status).toBe(404);
  });

  it("sends an integration failure back to the client as API Gateway does", async () => {
    const client = await connected("?token=run-token");
    const { connectionId } = client.connectEvent.requestContext;
    client.socket.send("crash");
    await waitFor(() => client.messages.length >= 1 || undefined, "the error message");
    expect(JSON.parse(client.messages[0] ?? "")).toMatchObject({
      message: "Internal server error",
      connectionId,
    });
    client.socket.close();
    await client.closed;
  });

  it("closes with 1009 when a client sends a message above 128 KB", async () => {
    const client = await connected("?token=run-token");
    client.socket.send("x".repeat(128 * 1024 + 1));
    expect((await client.closed).code).toBe(1009);
  });
});

describe("@connections management API", () => {
  it("PostToConnection delivers to the socket; GetConnection describes it; DeleteConnection closes it", async () => {
    const client = await connected("?token=run-token");
    const { connectionId } = client.connectEvent.requestContext;

    await management.send(
      new PostToConnectionCommand({ ConnectionId: connectionId, Data: JSON.stringify({ seq: 1 }) }),
    );
    await waitFor(() => client.messages.length >= 1 || undefined, "the pushed message");
    expect(client.messages).toEqual(['{"seq":1}']);

    const info = await management.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(info.ConnectedAt).toBeInstanceOf(Date);
    expect(info.LastActiveAt).toBeInstanceOf(Date);
    expect(info.Identity?.SourceIp).toBe("127.0.0.1");

    await expect(
      management.send(
        new PostToConnectionCommand({ ConnectionId: connectionId, Data: "x".repeat(128 * 1024 + 1) }),
      ),
    ).rejects.toBeInstanceOf(PayloadTooLargeException);

    await management.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    expect((await client.closed).code).toBe(1000);
    await waitFor(
      () =>
        wsEvents.find(
          (e) =>
            e.requestContext.routeKey === "$disconnect" && e.requestContext.connectionId === connectionId,
        ),
      "$disconnect after DeleteConnection",
    );
    await expect(
      management.send(new DeleteConnectionCommand({ ConnectionId: connectionId })),
    ).rejects.toBeInstanceOf(GoneException);
  });

  it("answers 410 GoneException for an unknown connection id", async () => {
    const error = await management
      .send(new PostToConnectionCommand({ ConnectionId: "Zm9vYmFyYmF6cXU=", Data: "hello" }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoneException);
    expect((error as GoneException).$metadata.httpStatusCode).toBe(410);
  });
});

describe("Step Functions JSON API", () => {
  it("StartExecution and DescribeExecution through the real SFNClient: RUNNING, then SUCCEEDED with the output", async () => {
    const started = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: stepFunctions.stateMachineArn,
        name: "run-a",
        input: JSON.stringify({ gate: "a" }),
      }),
    );
    expect(started.executionArn).toBe(
      stepFunctions.stateMachineArn.replace(":stateMachine:", ":execution:").concat(":run-a"),
    );
    expect(started.startDate).toBeInstanceOf(Date);

    const running = await sfn.send(new DescribeExecutionCommand({ executionArn: started.executionArn }));
    expect(running).toMatchObject({ status: "RUNNING", name: "run-a", input: '{"gate":"a"}' });

    gate("a").resolve();
    let described = running;
    const deadline = Date.now() + 5_000;
    while (described.status === "RUNNING" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      described = await sfn.send(new DescribeExecutionCommand({ executionArn: started.executionArn }));
    }
    expect(described.status).toBe("SUCCEEDED");
    expect(JSON.parse(described.output ?? "null")).toEqual({ done: "a" });
    expect(described.stopDate).toBeInstanceOf(Date);

    // A closed execution's name cannot be reused.
    await expect(
      sfn.send(
        new StartExecutionCommand({
          stateMachineArn: stepFunctions.stateMachineArn,
          name: "run-a",
          input: "{}",
        }),
      ),
    ).rejects.toBeInstanceOf(ExecutionAlreadyExists);
  });

  it("StopExecution aborts a running execution", async () => {
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: stepFunctions.stateMachineArn,
        name: "run-b",
        input: JSON.stringify({ gate: "b" }),
      }),
    );
    const stopped = await sfn.send(
      new StopExecutionCommand({ executionArn, error: "Cancelled", cause: "by the test" }),
    );
    expect(stopped.stopDate).toBeInstanceOf(Date);
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    expect(described).toMatchObject({ status: "ABORTED", error: "Cancelled", cause: "by the test" });
    gate("b").resolve();
  });

  it("raises the SDK's exception classes for unknown executions and state machines", async () => {
    const unknown = stepFunctions.stateMachineArn.replace(":stateMachine:", ":execution:").concat(":nope");
    await expect(sfn.send(new DescribeExecutionCommand({ executionArn: unknown }))).rejects.toBeInstanceOf(
      ExecutionDoesNotExist,
    );
    await expect(sfn.send(new StopExecutionCommand({ executionArn: unknown }))).rejects.toBeInstanceOf(
      ExecutionDoesNotExist,
    );
    await expect(
      sfn.send(
        new StartExecutionCommand({
          stateMachineArn: stepFunctions.stateMachineArn.replace(/rewoo$|gated$/, "other"),
          input: "{}",
        }),
      ),
    ).rejects.toBeInstanceOf(StateMachineDoesNotExist);
  });
});

describe("static dashboard", () => {
  it("serves index.html for / and files with their content types", async () => {
    const index = await fetch(gateway.urls.dashboard);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await index.text()).toContain("<title>runs</title>");

    const script = await fetch(`${gateway.urls.api}/js/app.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toContain("answer = 42");

    const head = await fetch(`${gateway.urls.api}/js/app.js`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("26");

    expect((await fetch(`${gateway.urls.api}/missing.js`)).status).toBe(404);
    expect((await fetch(gateway.urls.dashboard, { method: "POST" })).status).toBe(405);
  });

  it("serves the whitelisted vendor files from node_modules", async () => {
    const dagre = await fetch(`${gateway.urls.api}/vendor/dagre.js`);
    expect(dagre.status).toBe(200);
    expect(dagre.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await dagre.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${gateway.urls.api}/vendor/other.js`)).status).toBe(404);
  });

  it("refuses directory traversal, encoded or not, dotfiles and symlinks out of the folder", async () => {
    for (const path of [
      "/../secret.txt",
      "/js/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/js/..%5c..%5csecret.txt",
      "/.env",
      "/escape.txt",
    ]) {
      const response = await rawGet(path);
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(response.body).not.toContain("outside the dashboard");
    }
  });
});

describe("binding", () => {
  it("refuses non-loopback hosts", async () => {
    await expect(listenLoopback(0, "0.0.0.0")).rejects.toThrow(/loopback only/);
  });

  it("says which port is taken", async () => {
    await expect(listenLoopback(gateway.port)).rejects.toThrow(
      new RegExp(`Port ${gateway.port} .* already in use`),
    );
  });
});

describe("rewoo dev", () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));

  /** Runs `rewoo <args>` until it prints `until` (or exits); returns the process and its output so far. */
  function spawnRewoo(args: string[], env: Record<string, string>) {
    const child = spawn("node", ["bin/rewoo.mjs", ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", ...env },
    });
    let stdout = "";
    let stderr = "";
    let exitCode: number | null | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (code) => {
        exitCode = code;
        resolve(code);
      }),
    );
    // A boot competes with the rest of the suite for two cores, and the first one on a fresh clone also
    // generates the scanned samples (their cache lives in node_modules): wait long, but stop at once
    // (with what it said) if the process ends before printing.
    const printed = async (text: string) => {
      await waitFor(() => stdout.includes(text) || exitCode !== undefined || undefined, `"${text}"`, 200_000);
      if (!stdout.includes(text))
        throw new Error(`rewoo exited ${exitCode} before "${text}":\n${stdout}\n${stderr}`);
    };
    return { child, exited, printed, output: () => stdout };
  }

  it("serves the real handlers until SIGINT, exits 0, and keeps its token keys for the next boot", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "rewoo-dev-"));
    const dev = spawnRewoo(["dev", "--port", "0", "--no-sample"], { REWOO_DATA_DIR: dataDir });
    try {
      await dev.printed("serving until Ctrl-C");
      const api = /API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(dev.output())?.[1];
      const token = /\?token=([\w.-]+)/.exec(dev.output())?.[1];
      const health = await fetch(`${api}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok" });

      const operatorKey = (await readFile(join(dataDir, "token-keys", "operator"), "utf8")).trim();
      expect(operatorKey.length).toBeGreaterThanOrEqual(32);
      const keys = { operator: { current: operatorKey } };
      // Valid the operator maximum (12 h by default), which the $connect authorizer enforces.
      const claims = verifyToken(token, { accept: ["operator"], keys });
      expect(claims.scope).toEqual({ kind: "operator" });
      expect(claims.exp - claims.iat).toBe(12 * 3600);

      dev.child.kill("SIGINT");
      expect(await dev.exited).toBe(0);
    } finally {
      dev.child.kill("SIGKILL");
    }

    // --exit: boots, does what it was asked (nothing here) and exits; same data folder, same secret.
    const again = spawnRewoo(["dev", "--port", "0", "--no-sample", "--exit"], { REWOO_DATA_DIR: dataDir });
    expect(await again.exited).toBe(0);
    const token = /\?token=([\w.-]+)/.exec(again.output())?.[1];
    const operatorKey = (await readFile(join(dataDir, "token-keys", "operator"), "utf8")).trim();
    expect(
      verifyToken(token, { accept: ["operator"], keys: { operator: { current: operatorKey } } }).scope,
    ).toEqual({
      kind: "operator",
    });
  }, 360_000);
});
