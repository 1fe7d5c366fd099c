// Live WebSocket delivery against the real emulators (dynalite holds the runs and the connections)
// and a real management-API endpoint: a small HTTP server speaking PostToConnection, reached by
// the real @aws-sdk/client-apigatewaymanagementapi client. The WebSocket route handler is called
// with API Gateway's event shapes; the twin's gateway (another module) produces the same events
// from real sockets.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { EvaluationRequest, ProgressEventBody } from "../../lambdas/core/types.ts";
import { MAX_MESSAGE_BYTES } from "../../lambdas/live/messages.ts";
import { liveDelivery } from "../../lambdas/runtime/services.ts";
import { EventPublisher } from "../../lambdas/store/events.ts";
import { RunStore } from "../../lambdas/store/runs.ts";
import { type WebSocketEvent, handler as wsHandler } from "../../lambdas/ws/index.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

/** The management API of API Gateway, as far as PostToConnection goes. */
class ManagementEndpoint {
  readonly received = new Map<string, string[]>();
  readonly gone = new Set<string>();
  /** Slows every push down, so that replays take long enough for publishers to interleave. */
  delayMs = 0;
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const match = /^\/([^/]+)\/(?:@|%40)connections\/([^/?]+)$/.exec(request.url ?? "");
        if (request.method !== "POST" || !match) {
          response.writeHead(404).end();
          return;
        }
        const id = decodeURIComponent(match[2] as string);
        setTimeout(() => {
          if (this.gone.has(id)) {
            response
              .writeHead(410, { "content-type": "application/json", "x-amzn-errortype": "GoneException" })
              .end(JSON.stringify({ message: "Gone" }));
            return;
          }
          const list = this.received.get(id) ?? [];
          list.push(Buffer.concat(chunks).toString("utf8"));
          this.received.set(id, list);
          response.writeHead(200).end();
        }, this.delayMs);
      });
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/local`;
  }

  messages(connectionId: string): Record<string, unknown>[] {
    return (this.received.get(connectionId) ?? []).map((body) => JSON.parse(body));
  }

  seqs(connectionId: string): number[] {
    return this.messages(connectionId)
      .filter((message) => message.type === undefined)
      .map((message) => message.seq as number);
  }

  errors(connectionId: string): string[] {
    return this.messages(connectionId)
      .filter((message) => message.type === "error")
      .map((message) => message.message as string);
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const endpoint = new ManagementEndpoint();
let twin: Twin;

beforeAll(async () => {
  const url = await endpoint.start();
  twin = await bootTwinWithSamples({ WEBSOCKET_ENDPOINT: url, CONNECTIONS_TABLE: "rewoo-connections" });
});

afterAll(async () => {
  await twin?.stop();
  await endpoint.stop();
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** API Gateway connection ids are base64-ish ("L0SM9cOFvHcCIhw="): the '=' must survive URL encoding. */
const newConnectionId = () => `${randomUUID().slice(0, 12)}=`;

function wsEvent(
  routeKey: string,
  connectionId: string,
  authorizer: Record<string, unknown> | undefined,
  body?: unknown,
): WebSocketEvent {
  return {
    requestContext: {
      routeKey,
      connectionId,
      eventType: routeKey === "$connect" ? "CONNECT" : routeKey === "$disconnect" ? "DISCONNECT" : "MESSAGE",
      domainName: "127.0.0.1",
      stage: "local",
      ...(authorizer ? { authorizer: { principalId: "test", ...authorizer } } : {}),
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    isBase64Encoded: false,
  };
}

const operator = { scope: "operator" };
const runScope = (runId: string) => ({ scope: "run", run_id: runId });

async function connect(authorizer: Record<string, unknown> = operator): Promise<string> {
  const connectionId = newConnectionId();
  expect(await wsHandler(wsEvent("$connect", connectionId, authorizer))).toEqual({ statusCode: 200 });
  return connectionId;
}

function subscribe(connectionId: string, runId: string, afterSeq = 0, authorizer = operator) {
  return wsHandler(
    wsEvent("subscribe", connectionId, authorizer, {
      action: "subscribe",
      run_id: runId,
      after_seq: afterSeq,
    }),
  );
}

async function newRun(): Promise<string> {
  const runId = `ws-${randomUUID()}`;
  await twin.services.runs.createRun(runId, { metadata: {}, s3_pdf_paths: ["x.pdf"] } as EvaluationRequest);
  return runId;
}

/** Publishes, then waits for the stream consumer to have handled what was written (delivery is off the publisher's path). */
async function publishSettled(runId: string, body: ProgressEventBody) {
  const event = await twin.services.publisher.publish(runId, body);
  await twin.settled();
  return event;
}

const workerEvent = (i: number): ProgressEventBody => ({
  stage: "worker",
  step: `E${i}`,
  tool: "query_database",
  level: 0,
  status: "completed",
  duration_ms: i,
});

/**
 * A publisher whose event items are written only after `beforePut(seq)` resolves: the seq comes
 * from the counter at once, the item lands later — exactly what happens when parallel worker
 * Lambdas publish at the same time, and what makes seq n+1 appear in the table before seq n.
 */
function delayedPublisher(beforePut: (seq: number) => Promise<unknown>): EventPublisher {
  const ddb = twin.services.clients.ddb;
  const delaying = {
    send: async (command: { input: { Item?: { sk?: unknown; seq?: unknown } } }) => {
      if (String(command.input.Item?.sk ?? "").startsWith("EVENT#"))
        await beforePut(Number(command.input.Item?.seq));
      return ddb.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  // No sink: the twin's stream emulation sees the (delayed) writes and the push consumer delivers them.
  return new EventPublisher(new RunStore(delaying, twin.services.config.runsTable));
}

/** Writes most event items 0–10 ms late and one in five 60–100 ms late, so drains meet holes. */
const jitteryPublisher = () =>
  delayedPublisher(() => sleep(Math.random() < 0.2 ? 60 + Math.random() * 40 : Math.random() * 10));

describe("live WebSocket delivery", () => {
  it("is wired into the services when the connections table and the endpoint are configured", () => {
    expect(liveDelivery()).toBeDefined();
  });

  it("sends stored then live events exactly once, in order, while 10 publishers write during the replay", async () => {
    const runId = await newRun();
    const history = 20;
    for (let i = 1; i <= history; i++) await publishSettled(runId, workerEvent(i));
    const connectionId = await connect();
    endpoint.delayMs = 5;
    try {
      const publisher = jitteryPublisher();
      // How many messages the subscriber had when each live publish began.
      const receivedAtPublish: number[] = [];
      const replay = subscribe(connectionId, runId, 0);
      const publishers = Array.from({ length: 10 }, async (_, p) => {
        for (let i = 0; i < 5; i++) {
          await sleep(Math.random() * 10);
          receivedAtPublish.push(endpoint.seqs(connectionId).length);
          await publisher.publish(runId, workerEvent(100 + p * 5 + i));
        }
      });
      expect(await replay).toEqual({ statusCode: 200 });
      await Promise.all(publishers);
      await twin.settled();

      const total = history + 50;
      expect(endpoint.seqs(connectionId)).toEqual(range(1, total));
      expect(endpoint.errors(connectionId)).toEqual([]);
      // Live events really were written while the history was being pushed.
      expect(receivedAtPublish.some((count) => count > 0 && count < history)).toBe(true);
      const stored = await liveDelivery()?.connections.get(connectionId);
      expect(stored?.delivered_seq).toBe(total);
      expect(stored?.lease_owner).toBeUndefined();
    } finally {
      endpoint.delayMs = 0;
    }
  });

  it("holds back an event stored before its predecessor until the predecessor is stored", async () => {
    const runId = await newRun();
    const connectionId = await connect();
    await subscribe(connectionId, runId);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const publisher = delayedPublisher((seq) => (seq === 2 ? gate : Promise.resolve()));

    await publisher.publish(runId, workerEvent(1));
    const slow = publisher.publish(runId, workerEvent(2)); // seq 2 handed out, its item held back
    await sleep(50);
    await publisher.publish(runId, workerEvent(3)); // seq 3 stored while 2 is missing
    await twin.settled();
    expect(endpoint.seqs(connectionId)).toEqual([1]);

    release();
    await slow; // the stream record of 2 triggers a drain that pushes 2 and the waiting 3
    await twin.settled();
    expect(endpoint.seqs(connectionId)).toEqual([1, 2, 3]);
  });

  it("gives a late subscriber the full history of a finished run once", async () => {
    const request = taxReturnRequest(["rm-conditions/1120-signed.pdf"]);
    const { run_id } = await twin.startRun(request);
    const record = await twin.waitForRun(run_id);
    expect(record.status).toBe("SUCCEEDED");
    const stored = await twin.services.runs.listEvents(run_id);

    const connectionId = await connect(runScope(run_id));
    expect(await subscribe(connectionId, run_id, 0, runScope(run_id))).toEqual({ statusCode: 200 });
    expect(endpoint.seqs(connectionId)).toEqual(range(1, stored.length));
    const messages = endpoint.messages(connectionId);
    expect(messages[0]).toMatchObject({ run_id, seq: 1, stage: "plan" });
    expect(messages.at(-1)).toMatchObject({ stage: "complete", status: "SUCCEEDED" });

    // Subscribing again from where it stands sends nothing twice.
    await subscribe(connectionId, run_id, stored.length, runScope(run_id));
    expect(endpoint.seqs(connectionId)).toEqual(range(1, stored.length));
  });

  it("follows a real run live from its start to its complete event", async () => {
    const { run_id } = await twin.startRun(taxReturnRequest(["rm-conditions/1120-unsigned.pdf"]));
    const connectionId = await connect(runScope(run_id));
    await subscribe(connectionId, run_id, 0, runScope(run_id));
    await twin.waitForRun(run_id);
    await twin.settled();
    const stored = await twin.services.runs.listEvents(run_id);
    expect(endpoint.seqs(connectionId)).toEqual(range(1, stored.length));
    expect(endpoint.messages(connectionId).at(-1)).toMatchObject({ stage: "complete" });
  });

  it("delivers everything to each of two subscribers of one run", async () => {
    const runId = await newRun();
    await publishSettled(runId, workerEvent(1));
    const first = await connect();
    const second = await connect(runScope(runId));
    await Promise.all([subscribe(first, runId), subscribe(second, runId, 0, runScope(runId))]);
    const publisher = jitteryPublisher();
    await Promise.all(range(2, 31).map((i) => publisher.publish(runId, workerEvent(i))));
    await twin.settled();
    expect(endpoint.seqs(first)).toEqual(range(1, 31));
    expect(endpoint.seqs(second)).toEqual(range(1, 31));
  });

  it("deletes a connection that answers 410 Gone, and publishing still succeeds", async () => {
    const runId = await newRun();
    const goneId = await connect();
    const liveId = await connect();
    await subscribe(goneId, runId);
    await subscribe(liveId, runId);
    endpoint.gone.add(goneId);

    const event = await publishSettled(runId, workerEvent(1));
    expect(event?.seq).toBe(1);
    expect(await liveDelivery()?.connections.get(goneId)).toBeUndefined();
    expect(endpoint.seqs(liveId)).toEqual([1]);
    expect(endpoint.seqs(goneId)).toEqual([]);
    await publishSettled(runId, workerEvent(2));
    expect(endpoint.seqs(liveId)).toEqual([1, 2]);
  });

  it("costs each subscriber two writes per live event, and reads that do not grow with subscribers", async () => {
    /** DynamoDB operations (by name) from publishing one event until it has been pushed to everyone. */
    async function costOfOneEvent(subscribers: number): Promise<Record<string, number>> {
      const runId = await newRun();
      const ids = await Promise.all(Array.from({ length: subscribers }, () => connect()));
      for (const id of ids) await subscribe(id, runId);
      await twin.settled();
      const counts: Record<string, number> = {};
      const count = (req: IncomingMessage) => {
        const operation = String(req.headers["x-amz-target"] ?? "").split(".")[1] ?? "?";
        counts[operation] = (counts[operation] ?? 0) + 1;
      };
      twin.emulators.dynamodbServer.on("request", count);
      try {
        await publishSettled(runId, workerEvent(1));
      } finally {
        twin.emulators.dynamodbServer.off("request", count);
      }
      for (const id of ids) expect(endpoint.seqs(id)).toEqual([1]);
      return counts;
    }
    const few = await costOfOneEvent(2);
    const many = await costOfOneEvent(8);
    // Take the lease; move the cursor and release it: two writes per subscriber.
    expect((many.UpdateItem ?? 0) - (few.UpdateItem ?? 0)).toBe(2 * (8 - 2));
    // The subscribers and the run's events are read once for all of them; no per-connection read.
    expect(many.Query).toBe(few.Query);
    expect(many.GetItem ?? 0).toBe(few.GetItem ?? 0);
  });

  it("replaces an event above 128 KB by a pointer to the REST resource", async () => {
    const runId = await newRun();
    const connectionId = await connect();
    await subscribe(connectionId, runId);
    const results = { summary: "s".repeat(150_000) } as never;
    await publishSettled(runId, { stage: "solver", status: "completed", results });

    const [body] = endpoint.received.get(connectionId) ?? [];
    expect(Buffer.byteLength(body ?? "")).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(JSON.parse(body ?? "")).toMatchObject({
      run_id: runId,
      seq: 1,
      stage: "solver",
      status: "completed",
      truncated: true,
      resource: `/v1/runs/${runId}`,
    });
    // The full event is still there for the REST API.
    const [stored] = await twin.services.runs.listEvents(runId);
    expect(JSON.stringify(stored).length).toBeGreaterThan(150_000);
  });

  it("refuses a run token's subscribe to another run, keeps the connection, and lets it watch its own", async () => {
    const mine = await newRun();
    const other = await newRun();
    await publishSettled(mine, workerEvent(1));
    await publishSettled(other, workerEvent(1));
    const connectionId = await connect(runScope(mine));

    expect(await subscribe(connectionId, other, 0, runScope(mine))).toEqual({ statusCode: 400 });
    expect(endpoint.errors(connectionId)).toEqual([
      `this token may only watch run "${mine}", not "${other}"`,
    ]);
    expect(endpoint.seqs(connectionId)).toEqual([]);
    expect(await liveDelivery()?.connections.get(connectionId)).toMatchObject({ scope: "run" });

    expect(await subscribe(connectionId, mine, 0, runScope(mine))).toEqual({ statusCode: 200 });
    expect(endpoint.messages(connectionId).at(-1)).toMatchObject({ run_id: mine, seq: 1 });
  });

  it("answers bad subscribe messages and unknown actions with an error message", async () => {
    const connectionId = await connect();
    const send = (routeKey: string, body: unknown) =>
      wsHandler(wsEvent(routeKey, connectionId, operator, body));

    await send("subscribe", { action: "subscribe", run_id: "no-such-run" });
    await send("subscribe", { action: "subscribe", run_id: "r", after_seq: -1 });
    await send("subscribe", { action: "subscribe", after_seq: 1.5 });
    await send("subscribe", "{not json");
    await send("$default", { action: "unsubscribe" });
    const errors = endpoint.errors(connectionId);
    expect(errors[0]).toBe('run "no-such-run" does not exist');
    expect(errors[1]).toMatch(/after_seq/);
    expect(errors[2]).toMatch(/run_id.*after_seq|after_seq.*run_id/s);
    expect(errors[3]).toMatch(/not JSON/);
    expect(errors[4]).toMatch(/unsupported action "unsubscribe".*subscribe/);
    expect(errors).toHaveLength(5);
  });

  it("switches an operator's connection to another run on re-subscribe", async () => {
    const first = await newRun();
    const second = await newRun();
    const connectionId = await connect();
    await subscribe(connectionId, first);
    await publishSettled(first, workerEvent(1));
    await subscribe(connectionId, second);
    await publishSettled(first, workerEvent(2));
    await publishSettled(second, workerEvent(1));
    expect(endpoint.messages(connectionId).map((m) => [m.run_id, m.seq])).toEqual([
      [first, 1],
      [second, 1],
    ]);
  });

  it("takes over from a drainer that died holding the lease once its lease expires", async () => {
    const runId = await newRun();
    const connectionId = await connect();
    await subscribe(connectionId, runId);
    // A drainer that took the lease and crashed: nobody releases it.
    await twin.services.clients.ddb.send(
      new UpdateCommand({
        TableName: "rewoo-connections",
        Key: { connection_id: connectionId },
        UpdateExpression: "SET lease_owner = :ghost, draining_until = :until",
        ExpressionAttributeValues: { ":ghost": "crashed", ":until": Date.now() + 300 },
      }),
    );
    await publishSettled(runId, workerEvent(1));
    await publishSettled(runId, workerEvent(2));
    expect(endpoint.seqs(connectionId)).toEqual([]);

    await sleep(350);
    await publishSettled(runId, workerEvent(3));
    expect(endpoint.seqs(connectionId)).toEqual([1, 2, 3]);
  });

  it("forgets a connection on $disconnect", async () => {
    const connectionId = await connect();
    expect(await wsHandler(wsEvent("$disconnect", connectionId, operator))).toEqual({ statusCode: 200 });
    expect(await liveDelivery()?.connections.get(connectionId)).toBeUndefined();
  });

  it("refuses $connect without the authorizer's context", async () => {
    expect(await wsHandler(wsEvent("$connect", newConnectionId(), undefined))).toEqual({ statusCode: 403 });
    expect(await wsHandler(wsEvent("$connect", newConnectionId(), { scope: "run" }))).toEqual({
      statusCode: 403,
    });
  });
});
