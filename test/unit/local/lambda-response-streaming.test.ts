import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Writable } from "node:stream";
import type { Context } from "aws-lambda";
import { afterEach, describe, expect, it } from "vitest";
import {
  installResponseStreaming,
  isStreamingHandler,
  readPrelude,
  type StreamingHandler,
  serveStreaming,
} from "../../../infra/local/lambda-response-streaming.ts";

installResponseStreaming();
const runtime = (globalThis as unknown as { awslambda: typeof awslambda }).awslambda;

let server: Server | undefined;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(handler: StreamingHandler): Promise<string> {
  server = createServer((req, res) => {
    void serveStreaming(handler, { path: req.url }, {} as Context, req, res);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("Lambda response streaming in the twin", () => {
  it("adds the streaming members to an awslambda global another library created first", () => {
    // @aws/lambda-invoke-store (loaded with the SDK) creates `awslambda` for its InvokeStore.
    const scope = globalThis as unknown as { awslambda?: Record<string, unknown> };
    const installed = scope.awslambda;
    const store = { getXRayTraceId: () => undefined };
    scope.awslambda = { InvokeStore: store };
    try {
      installResponseStreaming();
      expect(scope.awslambda.InvokeStore).toBe(store);
      expect(typeof scope.awslambda.streamifyResponse).toBe("function");
      expect(typeof (scope.awslambda.HttpResponseStream as { from?: unknown }).from).toBe("function");
    } finally {
      scope.awslambda = installed;
    }
  });

  it("marks streamified handlers and writes the metadata prelude API Gateway reads", () => {
    const handler = runtime.streamifyResponse(async () => {});
    expect(isStreamingHandler(handler)).toBe(true);
    expect(isStreamingHandler(async () => {})).toBe(false);

    const chunks: Buffer[] = [];
    const sink = { write: (chunk: Buffer) => chunks.push(chunk) } as unknown as Writable;
    runtime.HttpResponseStream.from(sink as never, { statusCode: 201, headers: { "x-a": "1" } });
    const read = readPrelude(Buffer.concat([...chunks, Buffer.from("body")]));
    expect(read).toMatchObject({ statusCode: 201, headers: { "x-a": "1" } });
    expect(read?.rest.toString()).toBe("body");
    expect(readPrelude(Buffer.from('{"statusCode":200}'))).toBeUndefined();
  });

  it("answers with the prelude's status and headers and forwards each chunk before the handler returns", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = runtime.streamifyResponse(async (_event: unknown, stream: Writable) => {
      const out = runtime.HttpResponseStream.from(stream as never, {
        statusCode: 200,
        headers: { "content-type": "text/event-stream" },
      });
      out.write("data: first\n\n");
      await gate;
      out.write("data: second\n\n");
      out.end();
    });
    const response = await fetch(await serve(handler));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    // The handler is still waiting at the gate: the first chunk came through on its own.
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    release();
    let rest = "";
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += new TextDecoder().decode(part.value);
    expect(rest).toBe("data: second\n\n");
  });

  it("destroys the handler's stream when the client goes away", async () => {
    let stream: Writable | undefined;
    let finished!: () => void;
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const handler = runtime.streamifyResponse(async (_event: unknown, s: Writable) => {
      stream = s;
      runtime.HttpResponseStream.from(s as never, { statusCode: 200, headers: {} }).write("x");
      while (!s.destroyed) await new Promise((resolve) => setTimeout(resolve, 5));
      finished();
    });
    const controller = new AbortController();
    const response = await fetch(await serve(handler), { signal: controller.signal });
    await (response.body as ReadableStream<Uint8Array>).getReader().read();
    controller.abort();
    await done;
    expect(stream?.destroyed).toBe(true);
  });
});
