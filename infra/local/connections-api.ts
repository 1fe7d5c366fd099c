// The WebSocket API's management API (`POST|GET|DELETE /{stage}/@connections/{connectionId}`), what
// @aws-sdk/client-apigatewaymanagementapi calls: PostToConnection, GetConnection, DeleteConnection on the
// connections websocket-api.ts holds. SigV4 is not checked (the server is loopback only).
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeUtf8, HttpError, readBody, sendJson } from "./http-common.ts";
import { type Connection, MAX_WEBSOCKET_MESSAGE_BYTES } from "./websocket-api.ts";

/** What the management API needs of the WebSocket API. */
export interface ConnectionRegistry {
  connection(id: string): Connection | undefined;
  send(connection: Connection, data: string | Buffer): Promise<boolean>;
  disconnectClient(connection: Connection): void;
}

const CONNECTIONS_PATH = /^\/([^/]+)\/@connections\/([^/]*)$/;

/** `/{stage}/@connections/{id}` → its stage and (still URL-encoded) connection id; undefined for other paths. */
export function matchConnectionsPath(path: string): { stage: string; encodedId: string } | undefined {
  const match = CONNECTIONS_PATH.exec(path);
  return match ? { stage: match[1] ?? "", encodedId: match[2] ?? "" } : undefined;
}

export class ConnectionsApi {
  constructor(
    private readonly stage: string,
    private readonly connections: ConnectionRegistry,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, stage: string, encodedId: string): Promise<void> {
    if (stage !== this.stage) throw new HttpError(403, "Forbidden", "ForbiddenException");
    let connectionId: string;
    try {
      // The SDK URL-encodes the id; API Gateway's ids contain `=`, `+` and `/`.
      connectionId = decodeURIComponent(encodedId);
    } catch {
      throw new HttpError(400, `Invalid connection id ${encodedId}`, "BadRequestException");
    }
    const gone = () => sendJson(res, 410, { message: "Gone" }, "GoneException");
    const connection = this.connections.connection(connectionId);
    switch (req.method) {
      case "POST": {
        const body = await readBody(req, MAX_WEBSOCKET_MESSAGE_BYTES);
        if (body === undefined) {
          throw new HttpError(
            413,
            `Message exceeds API Gateway's ${MAX_WEBSOCKET_MESSAGE_BYTES}-byte WebSocket message limit`,
            "PayloadTooLargeException",
          );
        }
        if (!connection) return gone();
        const text = decodeUtf8(body);
        // Browsers get text frames for UTF-8 data (every JSON event); anything else goes out as binary.
        if (!(await this.connections.send(connection, text ?? body))) return gone();
        res.writeHead(200, { "content-type": "application/json" }).end();
        return;
      }
      case "GET": {
        if (!connection) return gone();
        // The wire names are the model's jsonName traits (camelCase); the SDK maps them to ConnectedAt etc.
        sendJson(res, 200, {
          connectedAt: connection.connectedAt.toISOString(),
          identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent ?? "" },
          lastActiveAt: connection.lastActiveAt.toISOString(),
        });
        return;
      }
      case "DELETE": {
        if (!connection) return gone();
        // Closing runs $disconnect through the socket's close event, as DeleteConnection does in AWS.
        this.connections.disconnectClient(connection);
        res.writeHead(204).end();
        return;
      }
      default:
        throw new HttpError(
          405,
          `Method ${req.method} not allowed on @connections`,
          "MethodNotAllowedException",
        );
    }
  }
}
