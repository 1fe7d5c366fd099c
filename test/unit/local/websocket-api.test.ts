// The twin's WebSocket API on its own (no gateway): the authorizer's policy evaluated as API Gateway
// evaluates it, and WebSocketApi on a plain HTTP server running the authorizer, $connect, the message routes
// and $disconnect with API Gateway's events.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIGatewayRequestAuthorizerEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { SurfaceContext } from "../../../infra/local/http-common.ts";
import {
  type WebSocketApi as Api,
  evaluateAuthorizerResult,
  newConnectionId,
  WebSocketApi,
  type WebSocketEvent,
} from "../../../infra/local/websocket-api.ts";

const METHOD_ARN = "arn:aws:execute-api:us-east-1:000000000000:local/local/$connect";

const allow = (resource: string, context?: Record<string, unknown>) => ({
  principalId: "user",
  policyDocument: {
    Version: "2012-10-17",
    Statement: [{ Action: "execute-api:Invoke", Effect: "Allow", Resource: resource }],
  },
  ...(context ? { context } : {}),
});

describe("evaluateAuthorizerResult", () => {
  it("allows on a matching Allow statement (wildcards included) and flattens the context", () => {
    expect(evaluateAuthorizerResult(allow(METHOD_ARN, { scope: "run", n: 1, ok: true }), METHOD_ARN)).toEqual(
      {
        effect: "allow",
        context: { scope: "run", n: 1, ok: true },
      },
    );
    expect(evaluateAuthorizerResult(allow("arn:aws:execute-api:*:*:local/*"), METHOD_ARN)).toEqual({
      effect: "allow",
      context: {},
    });
  });

  it("denies without a matching Allow, and on any matching Deny", () => {
    expect(evaluateAuthorizerResult(allow("arn:aws:execute-api:*:*:other/*"), METHOD_ARN)).toEqual({
      effect: "deny",
    });
    const both = allow(METHOD_ARN);
    both.policyDocument.Statement.push({ Action: "execute-api:*", Effect: "Deny", Resource: "*" });
    expect(evaluateAuthorizerResult(both, METHOD_ARN)).toEqual({ effect: "deny" });
  });

  it("calls a malformed result invalid (API Gateway's 500)", () => {
    expect(evaluateAuthorizerResult(undefined, METHOD_ARN)).toMatchObject({ effect: "invalid" });
    expect(evaluateAuthorizerResult({ policyDocument: {} }, METHOD_ARN)).toEqual({
      effect: "invalid",
      problem: "principalId must be a string",
    });
    expect(evaluateAuthorizerResult(allow(METHOD_ARN, { nested: { a: 1 } }), METHOD_ARN)).toEqual({
      effect: "invalid",
      problem: "context.nested is object; only strings, numbers and booleans are allowed",
    });
  });
});

it("makes connection ids like API Gateway's: 16 base64 characters", () => {
  const ids = new Set(Array.from({ length: 50 }, () => newConnectionId()));
  expect(ids.size).toBe(50);
  for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9+/]{15}=$/);
});

describe("WebSocketApi on an HTTP server", () => {
  const events: WebSocketEvent[] = [];
  const authorizerEvents: APIGatewayRequestAuthorizerEvent[] = [];
  const pending: Promise<unknown>[] = [];
  let server: Server;
  let api: Api;
  let url: string;

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const context: SurfaceContext = {
      stage: "dev",
      region: "eu-west-1",
      port,
      log: () => undefined,
      track: (promise) => pending.push(promise),
    };
    api = new WebSocketApi(context, {
      authorizer: async (event) => {
        authorizerEvents.push(event);
        const token = event.queryStringParameters?.token;
        if (token === "denied")
          return { principalId: "x", policyDocument: { Version: "2012-10-17", Statement: [] } };
        if (token !== "good" && token !== "refused") throw new Error("Unauthorized");
        return allow(event.methodArn, { scope: token }) as never;
      },
      ws: async (event) => {
        events.push(event);
        const { routeKey, authorizer, connectionId } = event.requestContext;
        if (routeKey === "$connect" && authorizer?.scope === "refused") return { statusCode: 403 };
        if (routeKey === "subscribe") {
          const connection = api.connection(connectionId);
          if (connection) await api.send(connection, JSON.stringify({ echoed: event.body }));
        }
        return { statusCode: 200 };
      },
    });
    server.on("upgrade", (req, socket, head) => {
      const [path = "/", query = ""] = (req.url ?? "/").split("?");
      void api.upgrade(req, socket, head, path, query);
    });
    url = `ws://127.0.0.1:${port}/ws`;
  });

  afterAll(async () => {
    await api?.close();
    api?.dispose();
    await new Promise((resolve) => server?.close(resolve));
  });

  function open(query: string): Promise<WebSocket | number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${url}${query}`);
      socket.on("open", () => resolve(socket));
      socket.on("unexpected-response", (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        socket.terminate();
      });
      socket.on("error", reject);
    });
  }

  it("refuses handshakes as API Gateway does: 401 Unauthorized, 403 Deny, 403 from $connect", async () => {
    expect(await open("?token=nobody")).toBe(401);
    expect(await open("?token=denied")).toBe(403);
    expect(await open("?token=refused")).toBe(403);
    expect(api.connectionIds()).toEqual([]);
    expect(authorizerEvents[0]).toMatchObject({
      type: "REQUEST",
      methodArn: "arn:aws:execute-api:eu-west-1:000000000000:local/dev/$connect",
      queryStringParameters: { token: "nobody" },
      requestContext: { routeKey: "$connect", eventType: "CONNECT", stage: "dev", protocol: "websocket" },
    });
  });

  it("connects, routes messages by action with the authorizer's context, and runs $disconnect on close", async () => {
    const socket = await open("?token=good");
    if (typeof socket === "number") throw new Error(`refused with ${socket}`);
    const [connectionId] = api.connectionIds();
    expect(connectionId).toEqual(expect.any(String));
    const connect = events.find(
      (event) =>
        event.requestContext.routeKey === "$connect" && event.requestContext.connectionId === connectionId,
    );
    expect(connect).toMatchObject({
      queryStringParameters: { token: "good" },
      isBase64Encoded: false,
      requestContext: { eventType: "CONNECT", authorizer: { scope: "good", principalId: "user" } },
    });

    const reply = new Promise<string>((resolve) =>
      socket.once("message", (data) => resolve(data.toString())),
    );
    socket.send(JSON.stringify({ action: "subscribe", run_id: "r1" }));
    expect(JSON.parse(await reply)).toEqual({
      echoed: JSON.stringify({ action: "subscribe", run_id: "r1" }),
    });
    const message = events.find((event) => event.requestContext.routeKey === "subscribe");
    expect(message).toMatchObject({
      body: '{"action":"subscribe","run_id":"r1"}',
      isBase64Encoded: false,
      requestContext: {
        eventType: "MESSAGE",
        connectionId,
        messageDirection: "IN",
        authorizer: { scope: "good" },
      },
    });
    expect(message?.headers).toBeUndefined();

    socket.close(1000, "bye");
    await expect
      .poll(() => events.find((event) => event.requestContext.routeKey === "$disconnect"))
      .toMatchObject({
        requestContext: {
          eventType: "DISCONNECT",
          connectionId,
          disconnectStatusCode: 1000,
          disconnectReason: "bye",
          authorizer: { scope: "good" },
        },
      });
    expect(api.connectionIds()).toEqual([]);
  });
});
