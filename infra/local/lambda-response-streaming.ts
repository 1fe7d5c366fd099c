// Lambda response streaming, as the Node.js runtime offers it and API Gateway consumes it. The runtime
// gives handlers a global `awslambda` with `streamifyResponse` (marks a handler as streaming; it gets a
// writable response stream) and `HttpResponseStream.from(stream, metadata)`, which writes the metadata
// JSON ({statusCode, headers}) and then eight NUL bytes before the body. API Gateway (response transfer
// mode STREAM) reads that prelude, answers with its status and headers and forwards the rest as it
// comes. The twin installs the same global before it loads a streaming handler and its REST gateway
// reads the same prelude, so the handler module is the one deployed, byte for byte.
import type { IncomingMessage, ServerResponse } from "node:http";
import { PassThrough, type Writable } from "node:stream";
import type { Context } from "aws-lambda";

const STREAMING = Symbol.for("rewoo.twin.streaming-handler");
const DELIMITER = Buffer.alloc(8, 0);

/**
 * A handler `awslambda.streamifyResponse` wrapped. Its stream parameter is the runtime's
 * HttpResponseStream (a Writable); typed `never` so both that and the twin's PassThrough fit.
 */
export type StreamingHandler<E = unknown> = (event: E, responseStream: never, context: Context) => unknown;

interface AwsLambdaGlobal {
  streamifyResponse<H extends StreamingHandler>(handler: H): H;
  HttpResponseStream: { from(stream: Writable, metadata: Record<string, unknown>): Writable };
}

/**
 * Installs the runtime's `awslambda` streaming members unless they are there (in Lambda itself, or
 * installed). The global itself may already exist without them: @aws/lambda-invoke-store (loaded by the
 * SDK and Powertools) creates `awslambda` to keep its InvokeStore, so the members are added to it.
 */
export function installResponseStreaming(): void {
  const scope = globalThis as unknown as { awslambda?: Partial<AwsLambdaGlobal> };
  if (scope.awslambda?.streamifyResponse) return;
  scope.awslambda = Object.assign(scope.awslambda ?? {}, {
    streamifyResponse: (handler) => Object.assign(handler, { [STREAMING]: true }),
    HttpResponseStream: {
      from(stream, metadata) {
        stream.write(Buffer.concat([Buffer.from(JSON.stringify(metadata)), DELIMITER]));
        return stream;
      },
    },
  } satisfies AwsLambdaGlobal);
}

export function isStreamingHandler(handler: unknown): handler is StreamingHandler {
  return typeof handler === "function" && (handler as unknown as Record<symbol, unknown>)[STREAMING] === true;
}

/** Status and headers from the prelude; what follows the delimiter is the body. */
export function readPrelude(
  bytes: Buffer,
): { statusCode: number; headers: Record<string, string>; rest: Buffer } | undefined {
  const end = bytes.indexOf(DELIMITER);
  if (end < 0) return undefined;
  const metadata = JSON.parse(bytes.subarray(0, end).toString("utf8")) as {
    statusCode?: number;
    headers?: Record<string, string>;
  };
  return {
    statusCode: metadata.statusCode ?? 200,
    headers: metadata.headers ?? {},
    rest: bytes.subarray(end + 8),
  };
}

/**
 * Invokes a streaming handler for one HTTP request as API Gateway does: waits for the prelude, answers
 * with its status and headers, then forwards every chunk as it is written. When the client goes away
 * the handler's stream is destroyed, so the handler stops.
 */
export async function serveStreaming<E>(
  handler: StreamingHandler<E>,
  event: E,
  context: Context,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const stream = new PassThrough();
  let prelude: Buffer | undefined = Buffer.alloc(0);
  stream.on("data", (chunk: Buffer) => {
    if (prelude === undefined) {
      res.write(chunk);
      return;
    }
    prelude = Buffer.concat([prelude, chunk]);
    const read = readPrelude(prelude);
    if (!read) return;
    prelude = undefined;
    res.writeHead(read.statusCode, read.headers);
    res.flushHeaders();
    if (read.rest.length > 0) res.write(read.rest);
  });
  const gone = () => {
    if (!res.writableEnded) stream.destroy();
  };
  req.once("close", gone);
  res.once("close", gone);
  try {
    await handler(event, stream as never, context);
  } finally {
    req.off("close", gone);
    if (!stream.writableEnded && !stream.destroyed) stream.end();
    await new Promise<void>((resolve) => {
      if (stream.readableEnded || stream.destroyed) resolve();
      else stream.once("end", resolve).once("close", resolve);
    });
    // A handler that wrote no prelude: API Gateway answers with what the integration gave, 200.
    if (!res.headersSent) res.writeHead(200, { "content-type": "application/octet-stream" });
    if (!res.writableEnded) res.end();
  }
}
