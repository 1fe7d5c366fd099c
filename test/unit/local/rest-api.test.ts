// The twin's REST API on its own (no gateway): every method of the route table matches as API Gateway
// matches it, the v1 proxy events have API Gateway's shape, and RestApi on a plain HTTP server answers what
// API Gateway answers around the integration (403 for what the API lacks, 502 for a failed integration),
// and sends streamed methods (`transfer: "stream"`) to the stream function, its response streamed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Writable } from "node:stream";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, type SurfaceContext, sendJson } from "../../../infra/local/http-common.ts";
import { installResponseStreaming } from "../../../infra/local/lambda-response-streaming.ts";
import {
  encodeBody,
  isRestApiPath,
  matchRestRequest,
  RestApi,
  restProxyEvent,
  STREAM_FUNCTION_TIMEOUT_MS,
  type StreamHandler,
  streamContext,
} from "../../../infra/local/rest-api.ts";
import { pathParametersOf, REST_METHODS, REST_RESOURCES } from "../../../lambdas/contracts/routes.ts";

describe("matching requests with the route table", () => {
  it.each(REST_METHODS.map((route) => [route.method, route.resource] as const))(
    "%s %s matches its resource and operation, parameters decoded",
    (method, resource) => {
      const names = pathParametersOf(resource);
      const path = names.reduce((built, name) => built.replace(`{${name}}`, `${name}%3Dx%2Fy`), resource);
      const match = matchRestRequest(method, path);
      expect(match?.resource).toBe(resource);
      expect(match?.route.method).toBe(method);
      expect(match?.route.operation).toEqual(
        REST_METHODS.find((r) => r.resource === resource && r.method === method)?.operation,
      );
      expect(match?.pathParameters).toEqual(Object.fromEntries(names.map((name) => [name, `${name}=x/y`])));
      // One trailing slash is tolerated, as API Gateway routes `/health/` to `/health`.
      expect(matchRestRequest(method, `${path}/`)?.resource).toBe(resource);
      expect(isRestApiPath(path)).toBe(true);
    },
  );

  it("matches GET /v1/runs (the list), not /v1/runs/{run_id}", () => {
    expect(matchRestRequest("GET", "/v1/runs")).toMatchObject({ resource: "/v1/runs", pathParameters: {} });
    expect(matchRestRequest("GET", "/v1/runs/r-1")).toMatchObject({
      resource: "/v1/runs/{run_id}",
      pathParameters: { run_id: "r-1" },
    });
  });

  it("has no match for a resource or a method the table lacks", () => {
    expect(matchRestRequest("GET", "/v1/run")).toBeUndefined();
    expect(matchRestRequest("DELETE", "/v1/runs/r-1")).toBeUndefined();
    expect(matchRestRequest("GET", "/v1/runs/r-1/events/extra")).toBeUndefined();
    expect(matchRestRequest("GET", "/v1/runs//")).toBeUndefined();
    expect(matchRestRequest("POST", "/health")).toBeUndefined();
  });

  it("leaves paths outside the API's first path parts to the dashboard", () => {
    for (const resource of REST_RESOURCES) expect(isRestApiPath(`/${resource.split("/")[1]}/x`)).toBe(true);
    expect(isRestApiPath("/v1/anything")).toBe(true);
    expect(isRestApiPath("/")).toBe(false);
    expect(isRestApiPath("/index.html")).toBe(false);
    expect(isRestApiPath("/js/app.js")).toBe(false);
  });
});

describe("restProxyEvent", () => {
  it("builds API Gateway's v1 event: resource, parameters, multi-value headers and query, request context", () => {
    const now = new Date("2026-03-04T05:06:07.000Z");
    const event = restProxyEvent(
      {
        method: "POST",
        path: "/v1/runs/r%201/input",
        query: "a=1&a=2&b=x",
        rawHeaders: [
          "Content-Type",
          "application/json",
          "X-Token",
          "one",
          "X-Token",
          "two",
          "User-Agent",
          "t",
        ],
        body: Buffer.from('{"answer":"yes"}'),
        httpVersion: "1.1",
        sourceIp: "127.0.0.1",
        host: "127.0.0.1:4000",
      },
      { resource: "/v1/runs/{run_id}/input", pathParameters: { run_id: "r 1" } },
      { stage: "local", port: 4000, now, requestId: "req-1" },
    );
    expect(event).toMatchObject({
      resource: "/v1/runs/{run_id}/input",
      path: "/v1/runs/r%201/input",
      httpMethod: "POST",
      pathParameters: { run_id: "r 1" },
      queryStringParameters: { a: "2", b: "x" },
      multiValueQueryStringParameters: { a: ["1", "2"], b: ["x"] },
      stageVariables: null,
      body: '{"answer":"yes"}',
      isBase64Encoded: false,
    });
    expect(event.headers).toEqual({
      "Content-Type": "application/json",
      "X-Token": "two",
      "User-Agent": "t",
      "X-Forwarded-For": "127.0.0.1",
      "X-Forwarded-Port": "4000",
      "X-Forwarded-Proto": "http",
    });
    expect(event.multiValueHeaders["X-Token"]).toEqual(["one", "two"]);
    expect(event.requestContext).toMatchObject({
      accountId: "000000000000",
      apiId: "local",
      stage: "local",
      path: "/local/v1/runs/r%201/input",
      resourcePath: "/v1/runs/{run_id}/input",
      httpMethod: "POST",
      protocol: "HTTP/1.1",
      requestId: "req-1",
      extendedRequestId: "req-1",
      requestTime: "04/Mar/2026:05:06:07 +0000",
      requestTimeEpoch: now.getTime(),
      domainName: "127.0.0.1:4000",
      authorizer: null,
    });
    expect(event.requestContext.identity).toMatchObject({
      sourceIp: "127.0.0.1",
      userAgent: "t",
      caller: null,
    });
  });

  it("has null parameters, query and body when the request has none", () => {
    const event = restProxyEvent(
      {
        method: "GET",
        path: "/health",
        query: "",
        rawHeaders: [],
        body: Buffer.alloc(0),
        httpVersion: "1.1",
        sourceIp: "::1",
      },
      { resource: "/health", pathParameters: {} },
      { stage: "prod", port: 80 },
    );
    expect(event).toMatchObject({
      pathParameters: null,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      body: null,
      isBase64Encoded: false,
    });
    expect(event.requestContext.domainName).toBe("127.0.0.1:80");
    expect(event.requestContext.path).toBe("/prod/health");
  });

  it("hands text bodies over as they are and binary ones base64-encoded", () => {
    expect(encodeBody(Buffer.from("a=1"), "application/x-www-form-urlencoded")).toEqual({
      body: "a=1",
      isBase64Encoded: false,
    });
    expect(encodeBody(Buffer.from([0, 255]), "application/octet-stream")).toEqual({
      body: "AP8=",
      isBase64Encoded: true,
    });
    // Declared as text but not UTF-8: API Gateway cannot pass it as a string either.
    expect(encodeBody(Buffer.from([0xff, 0xfe]), "text/plain")).toEqual({
      body: "//4=",
      isBase64Encoded: true,
    });
  });
});

describe("RestApi on an HTTP server", () => {
  const events: APIGatewayProxyEvent[] = [];
  const logs: string[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const context: SurfaceContext = {
      stage: "local",
      region: "us-east-1",
      port,
      log: (line) => logs.push(line),
      track: () => undefined,
    };
    const api = new RestApi(context, async (event): Promise<APIGatewayProxyResult> => {
      events.push(event);
      if (event.pathParameters?.run_id === "boom") throw new Error("exploded");
      if (event.pathParameters?.run_id === "malformed") return { statusCode: 999, body: "" };
      return {
        statusCode: 200,
        headers: { "content-type": "application/json", "set-cookie": "dropped=1" },
        multiValueHeaders: { "set-cookie": ["a=1", "b=2"] },
        body: JSON.stringify({ resource: event.resource }),
      };
    });
    server.on("request", (req, res) => {
      const [path = "/", query = ""] = (req.url ?? "/").split("?");
      api.handle(req, res, req.method ?? "GET", path, query).catch((error: unknown) => {
        if (error instanceof HttpError)
          sendJson(res, error.status, { message: error.message }, error.errorType);
        else sendJson(res, 500, { message: String(error) });
      });
    });
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it("calls the handler with the matched resource and writes its proxy result", async () => {
    const response = await fetch(`${base}/v1/runs?limit=5`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ resource: "/v1/runs" });
    // A header in both maps keeps only its multiValueHeaders values, as with API Gateway.
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(events.at(-1)).toMatchObject({ resource: "/v1/runs", queryStringParameters: { limit: "5" } });
  });

  it("answers 403 Missing Authentication Token for what the API does not have, without calling the handler", async () => {
    const before = events.length;
    for (const [method, path] of [
      ["GET", "/v1/nothing"],
      ["PUT", "/v1/runs"],
    ]) {
      const response = await fetch(`${base}${path}`, { method });
      expect(response.status).toBe(403);
      expect(response.headers.get("x-amzn-errortype")).toBe("MissingAuthenticationTokenException");
      expect(await response.json()).toEqual({ message: "Missing Authentication Token" });
    }
    expect(events.length).toBe(before);
  });

  it("answers 502 for a failed or malformed integration and logs why", async () => {
    const thrown = await fetch(`${base}/v1/runs/boom`);
    expect(thrown.status).toBe(502);
    expect(await thrown.json()).toEqual({ message: "Internal server error" });
    const malformed = await fetch(`${base}/v1/runs/malformed`);
    expect(malformed.status).toBe(502);
    expect(logs.join("\n")).toMatch(/API handler failed on GET \/v1\/runs\/boom: Error: exploded/);
    expect(logs.join("\n")).toMatch(
      /malformed Lambda proxy response to GET \/v1\/runs\/malformed: statusCode/,
    );
  });
});

/** A RestApi on a plain HTTP server, its failures answered as the gateway answers them. */
async function serveRestApi(api: (context: SurfaceContext) => RestApi, logs: string[]) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const rest = api({
    stage: "local",
    region: "us-east-1",
    port,
    log: (line) => logs.push(line),
    track: () => {},
  });
  server.on("request", (req, res) => {
    const [path = "/", query = ""] = (req.url ?? "/").split("?");
    rest.handle(req, res, req.method ?? "GET", path, query).catch((error: unknown) => {
      if (error instanceof HttpError)
        sendJson(res, error.status, { message: error.message }, error.errorType);
      else sendJson(res, 500, { message: String(error) });
    });
  });
  return { server, base: `http://127.0.0.1:${port}` };
}

describe("streamed methods (transfer: stream)", () => {
  installResponseStreaming();
  const runtime = (globalThis as unknown as { awslambda: typeof awslambda }).awslambda;
  const apiEvents: APIGatewayProxyEvent[] = [];
  const streamCalls: Array<{ event: APIGatewayProxyEvent; context: Context }> = [];
  const logs: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const streamHandler = runtime.streamifyResponse(
    async (event: APIGatewayProxyEvent, stream: Writable, context: Context) => {
      streamCalls.push({ event, context });
      const out = runtime.HttpResponseStream.from(stream as never, {
        statusCode: 200,
        headers: { "content-type": "text/event-stream" },
      });
      out.write("id: 1\nevent: plan\ndata: {}\n\n");
      await gate;
      out.end("id: 2\nevent: complete\ndata: {}\n\n");
    },
  ) as unknown as StreamHandler;
  const api = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    apiEvents.push(event);
    return { statusCode: 200, body: "{}" };
  };
  let served: Awaited<ReturnType<typeof serveRestApi>>;
  let withoutStream: Awaited<ReturnType<typeof serveRestApi>>;

  beforeAll(async () => {
    served = await serveRestApi((context) => new RestApi(context, api, streamHandler), logs);
    withoutStream = await serveRestApi((context) => new RestApi(context, api), logs);
  });

  afterAll(async () => {
    for (const { server } of [served, withoutStream]) {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
  });

  it("sends the stream route to the stream function with the proxy event, forwarding chunks as written", async () => {
    const response = await fetch(`${served.base}/v1/runs/run-a1/stream?last_event_id=3`, {
      headers: { "Last-Event-ID": "4" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-amzn-requestid")).toEqual(expect.any(String));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // The first message arrives while the handler still waits: streamed, not buffered.
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("id: 1\nevent: plan\ndata: {}\n\n");
    release();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toBe("id: 2\nevent: complete\ndata: {}\n\n");
    expect(apiEvents).toEqual([]);
    const [call] = streamCalls;
    expect(call?.event).toMatchObject({
      resource: "/v1/runs/{run_id}/stream",
      path: "/v1/runs/run-a1/stream",
      httpMethod: "GET",
      pathParameters: { run_id: "run-a1" },
      queryStringParameters: { last_event_id: "3" },
      headers: { "Last-Event-ID": "4" },
      requestContext: { resourcePath: "/v1/runs/{run_id}/stream", stage: "local" },
    });
    expect(call?.context.awsRequestId).toBe(response.headers.get("x-amzn-requestid"));
    expect(call?.context.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it("keeps buffered methods on the API function", async () => {
    const response = await fetch(`${served.base}/v1/runs/run-a1/events`);
    expect(response.status).toBe(200);
    expect(apiEvents.at(-1)?.resource).toBe("/v1/runs/{run_id}/events");
  });

  it("answers 502 for a streamed method when no stream function is configured", async () => {
    const before = apiEvents.length;
    const response = await fetch(`${withoutStream.base}/v1/runs/run-a1/stream`);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ message: "Internal server error" });
    expect(apiEvents.length).toBe(before);
    expect(logs.join("\n")).toMatch(/no stream function to serve GET \/v1\/runs\/run-a1\/stream/);
  });

  it("gives the stream invocation the stream function's timeout", () => {
    const context = streamContext("req-1", "eu-west-1");
    expect(context).toMatchObject({ awsRequestId: "req-1", functionName: "rewoo-stream" });
    expect(context.invokedFunctionArn).toMatch(/^arn:aws:lambda:eu-west-1:/);
    // Already past the deadline: nothing left, never negative.
    expect(
      streamContext(
        "req-3",
        "us-east-1",
        Date.now() - STREAM_FUNCTION_TIMEOUT_MS - 1,
      ).getRemainingTimeInMillis(),
    ).toBe(0);
    expect(streamContext("req-2", "us-east-1").getRemainingTimeInMillis()).toBeGreaterThan(
      STREAM_FUNCTION_TIMEOUT_MS - 60_000,
    );
  });
});
