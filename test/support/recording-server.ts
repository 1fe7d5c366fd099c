// A real HTTP server on loopback that records every request and answers as the test scripts it,
// so HTTP clients are exercised through fetch and the network stack rather than a mocked fetch.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What to answer; "hang" never answers (timeouts). */
export type StubReply =
  | { status: number; body: string; headers?: Record<string, string>; delayMs?: number }
  | "hang";

export interface RecordingServer {
  origin: string;
  received: RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordingServer(
  respond: (request: RecordedRequest) => StubReply,
): Promise<RecordingServer> {
  const received: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const request = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: JSON.parse(raw || "null"),
      };
      received.push(request);
      const reply = respond(request);
      if (reply === "hang") return;
      const send = () => {
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
        res.end(reply.body);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
