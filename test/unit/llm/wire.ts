// Replays recorded LLM API responses (test/fixtures/llm/) from a real server on loopback and records
// what the client sent, so a provider is tested through its real HTTP stack. Bedrock's client speaks
// HTTP/2 (the SDK's NodeHttp2Handler, prior knowledge over cleartext for an http:// endpoint), the
// OpenAI-compatible provider HTTP/1.1 through fetch: the server speaks what its client does.
import { readFileSync } from "node:fs";
import { createServer as createHttp1Server, type IncomingHttpHeaders } from "node:http";
import { createServer as createH2cServer } from "node:http2";
import type { AddressInfo } from "node:net";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { bedrockClientConfig } from "../../../lambdas/llm/bedrock.ts";

export interface WireFixture {
  description: string;
  source: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export function wireFixture(name: string): WireFixture {
  return JSON.parse(
    readFileSync(new URL(`../../fixtures/llm/${name}.json`, import.meta.url), "utf8"),
  ) as WireFixture;
}

export interface ReceivedRequest {
  method: string | undefined;
  /** Path and query, as sent. */
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface ReplayServer {
  origin: string;
  received: ReceivedRequest[];
  /** The answers of the next requests, in order (the last one repeats); clears `received`. */
  replay(...fixtures: WireFixture[]): void;
  close(): Promise<void>;
}

type Handler = (
  req: NodeJS.ReadableStream & { method?: string; url?: string; headers: IncomingHttpHeaders },
  res: { writeHead(status: number, headers: Record<string, string>): unknown; end(body: string): unknown },
) => void;

export async function startReplayServer(protocol: "http1" | "h2c"): Promise<ReplayServer> {
  let queue: WireFixture[] = [];
  const received: ReceivedRequest[] = [];
  const handler: Handler = (req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      raw += chunk;
    });
    req.on("end", () => {
      received.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: JSON.parse(raw || "null"),
      });
      const fixture = queue.length > 1 ? queue.shift() : queue[0];
      if (!fixture) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end('{"message":"no fixture queued"}');
        return;
      }
      res.writeHead(fixture.status, fixture.headers);
      res.end(JSON.stringify(fixture.body));
    });
  };
  const server = protocol === "h2c" ? createH2cServer(handler as never) : createHttp1Server(handler as never);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    replay(...fixtures) {
      queue = [...fixtures];
      received.length = 0;
    },
    async close() {
      if ("closeAllConnections" in server) server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The real Bedrock client, as a function configures it, pointed at a replay server (HTTP/2, signed with test keys). */
export async function startBedrockWire(): Promise<{
  server: ReplayServer;
  client: BedrockRuntimeClient;
  close: () => Promise<void>;
}> {
  const server = await startReplayServer("h2c");
  const client = new BedrockRuntimeClient({
    ...bedrockClientConfig("us-east-1"),
    endpoint: server.origin,
    credentials: { accessKeyId: "AKIDWIRETEST", secretAccessKey: "wire-test-secret" },
  });
  return {
    server,
    client,
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
}
