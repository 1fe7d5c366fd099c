// The JSON-over-HTTP conventions of the REST API: every answer is JSON, every error has the shape
// {error: {code, message, fields?}} so a loan system handles all of them with one parser.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { originAllowed } from "../contracts/cors.ts";
import type { RequestProblem } from "../core/request.ts";

export interface ErrorBody {
  error: { code: string; message: string; fields?: RequestProblem[] };
}

/** An error that is the client's answer: status, a stable machine code, a message for people. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: RequestProblem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
    body: JSON.stringify(body),
  };
}

export function errorResult(error: HttpError): APIGatewayProxyResult {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.fields?.length ? { fields: error.fields } : {}),
    },
  };
  return json(error.status, body, error.headers);
}

/** Header lookup is case-insensitive in HTTP; API Gateway passes names as the client sent them. */
export function header(event: Pick<APIGatewayProxyEvent, "headers">, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/**
 * A POST body is read only when it is declared JSON (`application/json`, optionally with
 * `charset=utf-8`). HTML forms send text/plain, urlencoded and multipart bodies to any site without
 * a CORS preflight, so an undeclared or differently declared body is refused before it is read: a
 * page the operator happens to visit cannot start or cancel runs on a twin listening on localhost.
 * A POST without a body and without a Content-Type (a cancel) passes.
 */
export function requireJsonBody(event: Pick<APIGatewayProxyEvent, "headers" | "body">): void {
  const declared = header(event, "content-type");
  if (declared === undefined) {
    if (event.body == null || event.body === "") return;
    throw unsupportedMediaType("missing: a request with a body must declare Content-Type: application/json");
  }
  const [type = "", ...parameters] = declared.split(";").map((part) => part.trim());
  if (type.toLowerCase() !== "application/json") {
    throw unsupportedMediaType(`expected application/json, got ${JSON.stringify(declared.slice(0, 100))}`);
  }
  for (const parameter of parameters) {
    const [name = "", value = ""] = parameter.split("=").map((part) => part.trim());
    if (name.toLowerCase() === "charset" && value.replace(/^"|"$/g, "").toLowerCase() !== "utf-8") {
      throw unsupportedMediaType(`expected charset=utf-8 (JSON is UTF-8), got ${JSON.stringify(parameter)}`);
    }
  }
}

function unsupportedMediaType(message: string): HttpError {
  return new HttpError(
    415,
    "unsupported_media_type",
    `the Content-Type header is ${message.startsWith("missing") ? "missing" : "not application/json"}; send the body as JSON with Content-Type: application/json`,
    [{ field: "Content-Type", message }],
  );
}

/** The raw body as text (API Gateway base64-encodes bodies it considers binary). */
export function bodyText(event: Pick<APIGatewayProxyEvent, "body" | "isBase64Encoded">): string {
  if (event.body == null) return "";
  return event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
}

/**
 * Where clients reach this API: PUBLIC_API_URL when configured, else derived from the request.
 * requestContext.path is the path as the client sent it (with the stage on the execute-api
 * domain, with the base path on a custom domain) and event.path is it without that prefix: the
 * difference is the prefix, whatever the deployment.
 */
export function publicBaseUrl(event: APIGatewayProxyEvent, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, "");
  const context = event.requestContext;
  const host = context?.domainName ?? header(event, "host") ?? "localhost";
  const forwarded = header(event, "x-forwarded-proto")?.split(",")[0]?.trim();
  const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(host);
  const protocol = forwarded ?? (loopback ? "http" : "https");
  let prefix = "";
  if (context?.path && event.path && context.path.endsWith(event.path)) {
    prefix = context.path.slice(0, context.path.length - event.path.length);
  } else if (context?.stage && host.includes(".execute-api.")) {
    prefix = `/${context.stage}`;
  }
  return `${protocol}://${host}${prefix.replace(/\/+$/, "")}`;
}

/** The request body as JSON: 413 above `maxBytes`, 400 when empty (saying what was `expected`) or malformed. */
export function jsonBody(event: APIGatewayProxyEvent, maxBytes: number, expected: string): unknown {
  const text = bodyText(event);
  const size = Buffer.byteLength(text, "utf8");
  if (size > maxBytes) {
    const message = `request body is ${size} bytes; the limit is ${maxBytes} bytes`;
    throw new HttpError(413, "payload_too_large", message, [{ field: "(body)", message }]);
  }
  if (text.trim() === "") {
    throw new HttpError(400, "invalid_request", "request body is empty", [
      { field: "(body)", message: `required: ${expected}` },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = `malformed JSON: ${(error as Error).message}`;
    throw new HttpError(400, "invalid_json", message, [{ field: "(body)", message }]);
  }
}

/**
 * The CORS headers of an answer to `event`: a browser page on an allowed origin (or pattern, see
 * lambdas/contracts/cors.ts) may read it. API Gateway answers the preflights; the function marks
 * every answer, errors included, or the page could not even read why it was refused. `Vary: Origin`
 * always: the same URL answers differently by origin, so a cache must not share one origin's answer.
 */
export function corsHeaders(
  event: Pick<APIGatewayProxyEvent, "headers">,
  allowedOrigins: readonly string[],
): Record<string, string> {
  if (allowedOrigins.length === 0) return {};
  const origin = header(event, "origin");
  return originAllowed(origin, allowedOrigins)
    ? { "access-control-allow-origin": origin, vary: "Origin" }
    : { vary: "Origin" };
}

/** `result` with the CORS headers of `event` (replacing any the handler set under another case). */
export function withCors(
  result: APIGatewayProxyResult,
  event: Pick<APIGatewayProxyEvent, "headers">,
  allowedOrigins: readonly string[],
): APIGatewayProxyResult {
  const cors = corsHeaders(event, allowedOrigins);
  if (Object.keys(cors).length === 0) return result;
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {}).filter(([name]) => !(name.toLowerCase() in cors)),
  );
  return { ...result, headers: { ...headers, ...cors } };
}
