// What the local twin's AWS surfaces (rest-api.ts, websocket-api.ts, connections-api.ts,
// step-functions-api.ts, static-site.ts) share: reading requests, writing the JSON answers API Gateway and
// the AWS JSON protocols send, and the loopback rule of the one server they sit behind (gateway.ts).
import { randomUUID } from "node:crypto";
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

/** The emulated account (API Gateway's `requestContext.accountId`). */
export const LOCAL_ACCOUNT_ID = "000000000000";
export const LOCAL_API_ID = "local";
export const DEFAULT_STAGE = "local";

/** What every surface needs from the server it is mounted on. */
export interface SurfaceContext {
  /** Stage of the REST and WebSocket APIs (the management endpoint is `/<stage>/@connections`). */
  stage: string;
  region: string;
  /** The server's port (X-Forwarded-Port, fallback domain names). */
  port: number;
  /** Where failures are reported: API Gateway logs them, the client sees only a 5xx. */
  log: (line: string) => void;
  /** Keeps a promise for close(), which waits (bounded) for running handler calls. */
  track: (promise: Promise<unknown>) => void;
}

/** An answer a surface gives instead of calling on (the dispatcher writes it as `{message}`). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorType?: string,
  ) {
    super(message);
  }
}

export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A request addressed to a non-loopback name reached us through DNS rebinding, not from this machine's user. */
export function hostAllowed(req: IncomingMessage): boolean {
  const host = req.headers.host;
  if (!host) return true;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : (host.split(":")[0] ?? "");
  return isLoopbackHost(name);
}

export function splitUrl(url: string): { path: string; query: string } {
  // Not `new URL()`: it would read `//host/...` as an authority and normalize `..`, hiding what was asked.
  const index = url.indexOf("?");
  return index === -1 ? { path: url, query: "" } : { path: url.slice(0, index), query: url.slice(index + 1) };
}

export function queryParameters(query: string): {
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

export function eventHeaders(
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

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Reads the whole body; undefined when it exceeds `limit` (the rest is drained so the client sees the answer). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
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

export function sendJson(
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

/** Answers an upgrade request with a plain HTTP error, as API Gateway refuses a WebSocket handshake. */
export function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Common Log Format time, as in `requestContext.requestTime` (`21/Nov/2026:22:03:01 +0000`). */
export function clfTime(date: Date): string {
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

export async function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise<void>((resolveTimeout) => {
      timer = setTimeout(resolveTimeout, ms);
    }),
  ]);
  clearTimeout(timer);
}
