// The twin's @connections management API on its own (no gateway, no WebSocket server): ConnectionsApi on a
// plain HTTP server in front of an in-test connection registry, called with the real
// ApiGatewayManagementApiClient as the push function calls it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  ForbiddenException,
  GetConnectionCommand,
  GoneException,
  PayloadTooLargeException,
  PostToConnectionCommand,
} from "@aws-sdk/client-apigatewaymanagementapi";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import {
  type ConnectionRegistry,
  ConnectionsApi,
  matchConnectionsPath,
} from "../../../infra/local/connections-api.ts";
import { HttpError, sendJson } from "../../../infra/local/http-common.ts";
import type { Connection } from "../../../infra/local/websocket-api.ts";

const ID = "L0SM9cOFvHcCIhw=";

const sent: Array<{ id: string; data: string | Buffer }> = [];
const disconnected: string[] = [];
const connections = new Map<string, Connection>();
/** A client whose socket went away: sending to it fails. */
const vanished = new Set<string>();

const registry: ConnectionRegistry = {
  connection: (id) => connections.get(id),
  send: async (connection, data) => {
    if (vanished.has(connection.id)) return false;
    sent.push({ id: connection.id, data });
    return true;
  },
  disconnectClient: (connection) => {
    connections.delete(connection.id);
    disconnected.push(connection.id);
  },
};

function connection(id: string): Connection {
  return {
    id,
    socket: {} as WebSocket,
    connectedAt: new Date("2026-01-02T03:04:05.000Z"),
    lastActiveAt: new Date("2026-01-02T03:05:00.000Z"),
    sourceIp: "127.0.0.1",
    userAgent: "test-agent",
    domainName: "127.0.0.1",
    authorizer: {},
    headers: {},
    multiValueHeaders: {},
    closed: Promise.resolve(),
  };
}

let server: Server;
let client: ApiGatewayManagementApiClient;
let base: string;

beforeAll(async () => {
  const api = new ConnectionsApi("local", registry);
  server = createServer((req, res) => {
    const match = matchConnectionsPath(req.url ?? "/");
    if (!match) return sendJson(res, 404, { message: "Not Found" });
    api.handle(req, res, match.stage, match.encodedId).catch((error: unknown) => {
      if (error instanceof HttpError)
        sendJson(res, error.status, { message: error.message }, error.errorType);
      else sendJson(res, 500, { message: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new ApiGatewayManagementApiClient({
    region: "us-east-1",
    endpoint: `${base}/local`,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
});

afterAll(async () => {
  client?.destroy();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(() => {
  sent.length = 0;
  disconnected.length = 0;
  vanished.clear();
  connections.clear();
  connections.set(ID, connection(ID));
});

it("matches /{stage}/@connections/{id} only", () => {
  expect(matchConnectionsPath("/local/@connections/L0SM%3D")).toEqual({
    stage: "local",
    encodedId: "L0SM%3D",
  });
  expect(matchConnectionsPath("/local/@connections/a/b")).toBeUndefined();
  expect(matchConnectionsPath("/@connections/a")).toBeUndefined();
  expect(matchConnectionsPath("/v1/runs")).toBeUndefined();
});

describe("the management API through ApiGatewayManagementApiClient", () => {
  it("PostToConnection sends the data to the connection its (URL-encoded) id names", async () => {
    await client.send(new PostToConnectionCommand({ ConnectionId: ID, Data: '{"stage":"plan"}' }));
    expect(sent).toEqual([{ id: ID, data: '{"stage":"plan"}' }]);
    // Not UTF-8: goes out as bytes (a binary frame).
    await client.send(new PostToConnectionCommand({ ConnectionId: ID, Data: new Uint8Array([0xff, 0x00]) }));
    expect(sent[1]?.data).toEqual(Buffer.from([0xff, 0x00]));
  });

  it("GetConnection describes it; DeleteConnection disconnects it", async () => {
    const described = await client.send(new GetConnectionCommand({ ConnectionId: ID }));
    expect(described).toMatchObject({
      ConnectedAt: new Date("2026-01-02T03:04:05.000Z"),
      LastActiveAt: new Date("2026-01-02T03:05:00.000Z"),
      Identity: { SourceIp: "127.0.0.1", UserAgent: "test-agent" },
    });
    await client.send(new DeleteConnectionCommand({ ConnectionId: ID }));
    expect(disconnected).toEqual([ID]);
  });

  it("answers GoneException for an unknown connection and one whose client vanished", async () => {
    for (const command of [
      new PostToConnectionCommand({ ConnectionId: "unknown=", Data: "x" }),
      new GetConnectionCommand({ ConnectionId: "unknown=" }),
      new DeleteConnectionCommand({ ConnectionId: "unknown=" }),
    ]) {
      await expect(client.send(command as never)).rejects.toBeInstanceOf(GoneException);
    }
    vanished.add(ID);
    await expect(
      client.send(new PostToConnectionCommand({ ConnectionId: ID, Data: "x" })),
    ).rejects.toBeInstanceOf(GoneException);
  });

  it("refuses messages above 128 KB and another stage's endpoint", async () => {
    await expect(
      client.send(new PostToConnectionCommand({ ConnectionId: ID, Data: "x".repeat(128 * 1024 + 1) })),
    ).rejects.toBeInstanceOf(PayloadTooLargeException);
    expect(sent).toEqual([]);
    const otherStage = new ApiGatewayManagementApiClient({
      region: "us-east-1",
      endpoint: `${base}/prod`,
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    });
    try {
      await expect(otherStage.send(new GetConnectionCommand({ ConnectionId: ID }))).rejects.toBeInstanceOf(
        ForbiddenException,
      );
    } finally {
      otherStage.destroy();
    }
  });

  it("answers 405 for a method the API does not have", async () => {
    const response = await fetch(`${base}/local/@connections/${encodeURIComponent(ID)}`, { method: "PUT" });
    expect(response.status).toBe(405);
    expect(response.headers.get("x-amzn-errortype")).toBe("MethodNotAllowedException");
  });
});
