// API Gateway REST API with the Lambda proxy integration (v1 events), as the twin emulates it: requests are
// matched with the route table of lambdas/contracts/routes.ts the way API Gateway matches its resources
// (literal path parts before parameters, one trailing slash tolerated), and the API handler receives the
// event API Gateway would build: resource, path parameters, single and multi-value headers and query
// parameters, the request context of the stage. Methods whose contract says `transfer: "stream"` go to
// the stream function with the same event, its response streamed as API Gateway's response transfer
// mode STREAM does (lambda-response-streaming.ts); every other one to the API function. IAM
// authorization is not emulated (the server is loopback only), so the identity is the socket's.
// CORS as the Service stack deploys it: OPTIONS preflights are answered by the gateway (a mock
// integration in AWS) for the origins of REWOO_ALLOWED_ORIGINS, the same setting the API function
// reads to mark its own answers, and the gateway's own errors echo the Origin (its gateway responses).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import {
  CORS_ALLOWED_HEADERS,
  CORS_MAX_AGE_SECONDS,
  LOCAL_ALLOWED_ORIGINS,
  originAllowed,
  originPatternProblem,
} from "../../lambdas/contracts/cors.ts";
import { ENV } from "../../lambdas/contracts/environment.ts";
import {
  matchResourcePath,
  methodRoute,
  methodsOf,
  REST_RESOURCES,
  type RestMethodRoute,
  type RestResource,
} from "../../lambdas/contracts/routes.ts";
import {
  clfTime,
  decodeUtf8,
  describeError,
  eventHeaders,
  HttpError,
  LOCAL_ACCOUNT_ID,
  LOCAL_API_ID,
  queryParameters,
  readBody,
  type SurfaceContext,
  sendJson,
} from "./http-common.ts";
import { type StreamingHandler, serveStreaming } from "./lambda-response-streaming.ts";

export type ApiHandler = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;
/** The stream function's handler (awslambda.streamifyResponse): methods with `transfer: "stream"`. */
export type StreamHandler = StreamingHandler<APIGatewayProxyEvent>;

/**
 * The stream function's timeout in the Service stack: API Gateway's limit for a streamed response
 * (15 minutes). The handler reads what is left of it to end the stream cleanly before it is cut.
 */
export const STREAM_FUNCTION_TIMEOUT_MS = 15 * 60 * 1000;

/** API Gateway's REST API request payload quota. */
export const MAX_REST_BODY_BYTES = 10 * 1024 * 1024;

/**
 * First path parts of the REST API's resources: requests under them are the REST API's, everything else
 * is the dashboard's (the API is mounted at the root, like a custom domain without a stage in the path).
 */
const REST_PATH_ROOTS = new Set(REST_RESOURCES.map((resource) => resource.split("/")[1]));

/** Whether the REST API answers `path` (its answer may be API Gateway's refusal), rather than the dashboard. */
export function isRestApiPath(path: string): boolean {
  return REST_PATH_ROOTS.has(path.split("/")[1]);
}

export interface RestMatch {
  resource: RestResource;
  pathParameters: Record<string, string>;
  route: RestMethodRoute;
}

/**
 * The table's method a request is for, or undefined when the API has no such resource or method. The
 * deployed API has no greedy `/{proxy+}` resource, so whatever is not in the table never reaches the handler.
 */
export function matchRestRequest(method: string, path: string): RestMatch | undefined {
  const matched = matchResourcePath(path);
  const route = matched && methodRoute(matched.resource, method);
  return matched && route ? { ...matched, route } : undefined;
}

/** What API Gateway REST answers for a resource or a method the API does not have, whatever the credentials. */
export function missingAuthenticationToken(): HttpError {
  return new HttpError(403, "Missing Authentication Token", "MissingAuthenticationTokenException");
}

/** The parts of an HTTP request a v1 proxy event is made of. */
export interface RestRequest {
  method: string;
  path: string;
  query: string;
  /** Header names and values as the client sent them (Node's rawHeaders). */
  rawHeaders: readonly string[];
  body: Buffer;
  httpVersion: string;
  sourceIp: string;
  /** The Host header, when the client sent one. */
  host?: string;
}

/** The v1 proxy event API Gateway hands the API function for `request`, matched to `match`. */
export function restProxyEvent(
  request: RestRequest,
  match: Pick<RestMatch, "resource" | "pathParameters">,
  options: { stage: string; port: number; now?: Date; requestId?: string },
): APIGatewayProxyEvent {
  const now = options.now ?? new Date();
  const requestId = options.requestId ?? randomUUID();
  const { headers, multiValueHeaders } = eventHeaders(
    { rawHeaders: [...request.rawHeaders], socket: { remoteAddress: request.sourceIp } } as IncomingMessage,
    options.port,
  );
  const { single, multi } = queryParameters(request.query);
  const contentType = headerValue(request.rawHeaders, "content-type");
  const userAgent = headerValue(request.rawHeaders, "user-agent");
  const { resource } = match;
  return {
    resource,
    path: request.path,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    queryStringParameters: single,
    multiValueQueryStringParameters: multi,
    pathParameters: Object.keys(match.pathParameters).length ? match.pathParameters : null,
    stageVariables: null,
    ...encodeBody(request.body, contentType),
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: LOCAL_API_ID,
      authorizer: null,
      protocol: `HTTP/${request.httpVersion}`,
      httpMethod: request.method,
      // IAM authorization is not emulated (loopback only): the identity is the socket's, never a caller's.
      identity: identity(request.sourceIp, userAgent),
      path: `/${options.stage}${request.path}`,
      stage: options.stage,
      requestId,
      extendedRequestId: requestId,
      requestTime: clfTime(now),
      requestTimeEpoch: now.getTime(),
      resourceId: "local",
      resourcePath: resource,
      domainName: request.host ?? `127.0.0.1:${options.port}`,
    },
  };
}

/** Node's `req.headers` value of content-type or user-agent: the first one (Node discards repeats of these). */
function headerValue(rawHeaders: readonly string[], name: string): string | undefined {
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if ((rawHeaders[index] as string).toLowerCase() === name) return rawHeaders[index + 1];
  }
  return undefined;
}

/**
 * The origins whose pages may call the twin's REST API: REWOO_ALLOWED_ORIGINS as the handlers read it
 * (the twin sets it before they load, by default LOCAL_ALLOWED_ORIGINS), read per request so the
 * gateway and the API function never disagree. A malformed pattern is left out here; the API
 * function's cold start refuses it loudly.
 */
export function twinAllowedOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  const setting = env[ENV.REWOO_ALLOWED_ORIGINS];
  if (setting === undefined) return [...LOCAL_ALLOWED_ORIGINS];
  return setting
    .split(",")
    .map((part) => part.trim())
    .filter((pattern) => pattern && !originPatternProblem(pattern));
}

/**
 * API Gateway's answer to a CORS preflight on `path` (the Service stack's OPTIONS mock methods): 204
 * with the resource's methods and the allowed headers, and the Origin echoed when it is allowed (a
 * browser refuses the actual request otherwise). Undefined when the API has no such resource.
 */
export function preflightHeaders(
  path: string,
  origin: string | undefined,
  allowedOrigins: readonly string[],
): Record<string, string> | undefined {
  const matched = matchResourcePath(path);
  if (!matched) return undefined;
  return {
    "access-control-allow-methods": [...methodsOf(matched.resource), "OPTIONS"].join(","),
    "access-control-allow-headers": CORS_ALLOWED_HEADERS.join(","),
    "access-control-max-age": String(CORS_MAX_AGE_SECONDS),
    vary: "Origin",
    ...(originAllowed(origin, allowedOrigins) ? { "access-control-allow-origin": origin } : {}),
  };
}

/**
 * An answer the gateway makes itself (403 for a missing resource, 413, 502): like the Service stack's
 * gateway responses it echoes the Origin, so a page can read why it was turned away. It carries no data.
 */
function markGatewayAnswer(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (!origin || res.headersSent) return;
  res.setHeader("access-control-allow-origin", origin);
  res.setHeader("vary", "Origin");
}

export class RestApi {
  constructor(
    private readonly context: SurfaceContext,
    private readonly handler: ApiHandler,
    /** Without it a streamed method answers 502 (the integration is missing) and says so in the log. */
    private readonly streamHandler?: StreamHandler,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, method: string, path: string, query: string) {
    try {
      await this.answer(req, res, method, path, query);
    } catch (error) {
      // The gateway (gateway.ts) writes the error; its CORS headers are set first.
      markGatewayAnswer(req, res);
      throw error;
    }
  }

  private async answer(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    path: string,
    query: string,
  ): Promise<void> {
    if (method === "OPTIONS") {
      const headers = preflightHeaders(path, req.headers.origin, twinAllowedOrigins());
      if (!headers) throw missingAuthenticationToken();
      res.writeHead(204, { ...headers, "x-amzn-RequestId": randomUUID() });
      res.end();
      return;
    }
    const match = matchRestRequest(method, path);
    if (!match) throw missingAuthenticationToken();
    const body = await readBody(req, MAX_REST_BODY_BYTES);
    if (body === undefined) {
      throw new HttpError(413, `Request payload exceeds API Gateway's ${MAX_REST_BODY_BYTES}-byte limit`);
    }
    const requestId = randomUUID();
    const event = restProxyEvent(
      {
        method,
        path,
        query,
        rawHeaders: req.rawHeaders,
        body,
        httpVersion: req.httpVersion,
        sourceIp: req.socket.remoteAddress ?? "127.0.0.1",
        ...(req.headers.host ? { host: req.headers.host } : {}),
      },
      match,
      { stage: this.context.stage, port: this.context.port, requestId },
    );
    if (match.route.transfer === "stream") {
      await this.stream(req, res, event, requestId);
      return;
    }
    let result: unknown;
    try {
      result = await this.handler(event);
    } catch (error) {
      // Like API Gateway: a failed integration is a 502 for the client and a log line for the operator.
      this.context.log(`gateway: API handler failed on ${method} ${path}: ${describeError(error)}`);
      markGatewayAnswer(req, res);
      sendJson(res, 502, { message: "Internal server error" }, undefined, requestId);
      return;
    }
    const problem = writeProxyResult(res, result, requestId);
    if (problem) {
      this.context.log(`gateway: malformed Lambda proxy response to ${method} ${path}: ${problem}`);
      markGatewayAnswer(req, res);
      sendJson(res, 502, { message: "Internal server error" }, undefined, requestId);
    }
  }

  /** A streamed method: the stream function writes the response as it goes (status and headers first). */
  private async stream(
    req: IncomingMessage,
    res: ServerResponse,
    event: APIGatewayProxyEvent,
    requestId: string,
  ): Promise<void> {
    const { httpMethod: method, path } = event;
    if (!this.streamHandler) {
      this.context.log(`gateway: no stream function to serve ${method} ${path}`);
      sendJson(res, 502, { message: "Internal server error" }, undefined, requestId);
      return;
    }
    res.setHeader("x-amzn-RequestId", requestId);
    try {
      await serveStreaming(
        this.streamHandler,
        event,
        streamContext(requestId, this.context.region),
        req,
        res,
      );
    } catch (error) {
      this.context.log(`gateway: stream function failed on ${method} ${path}: ${describeError(error)}`);
      // Before the prelude the client gets API Gateway's 502; after it, the stream just ends.
      if (!res.headersSent) sendJson(res, 502, { message: "Internal server error" }, undefined, requestId);
      else if (!res.writableEnded) res.end();
    }
  }
}

/** The Lambda context of one stream invocation: its deadline is the function's timeout from now. */
export function streamContext(requestId: string, region: string, now = Date.now()): Context {
  const deadline = now + STREAM_FUNCTION_TIMEOUT_MS;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: "rewoo-stream",
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:${region}:${LOCAL_ACCOUNT_ID}:function:rewoo-stream`,
    memoryLimitInMB: "256",
    awsRequestId: requestId,
    logGroupName: "/aws/lambda/rewoo-stream",
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function identity(
  sourceIp: string,
  userAgent: string | undefined,
): APIGatewayProxyEvent["requestContext"]["identity"] {
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
    sourceIp,
    user: null,
    userAgent: userAgent ?? null,
    userArn: null,
  };
}

const TEXT_TYPES =
  /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|x-www-form-urlencoded))/i;

/** The event's body: text as is, binary media types base64-encoded, as API Gateway hands them to the Lambda. */
export function encodeBody(
  body: Buffer,
  contentType: string | undefined,
): { body: string | null; isBase64Encoded: boolean } {
  if (body.length === 0) return { body: null, isBase64Encoded: false };
  const text = !contentType || TEXT_TYPES.test(contentType) ? decodeUtf8(body) : undefined;
  return text === undefined
    ? { body: body.toString("base64"), isBase64Encoded: true }
    : { body: text, isBase64Encoded: false };
}

/** Writes a Lambda proxy result; returns what is wrong with it instead when API Gateway would answer 502. */
export function writeProxyResult(
  res: ServerResponse,
  result: unknown,
  requestId: string,
): string | undefined {
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
