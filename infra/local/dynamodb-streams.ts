// DynamoDB Streams + Lambda event source mappings for the local twin. dynalite has no streams, so
// this sits inside dynalite's HTTP server: every successful write to a stream-enabled table becomes
// a stream record (NEW_AND_OLD_IMAGES, keys, sequence number), and each event source mapping hands
// batches of matching records, in order, to the SAME handler module that Lambda runs in AWS, with
// the same partial-batch-failure contract (`batchItemFailures`) and bounded retries.
//
// How images are known: a write's request is rewritten to ask DynamoDB for the old item
// (ReturnValues ALL_OLD on PutItem/DeleteItem; ALL_NEW on UpdateItem), and the answer is trimmed back
// to what the client asked for before it leaves, so clients see exactly DynamoDB's answer.
// Limits of the emulation: an UpdateItem is reported MODIFY with its new image only (DynamoDB would say
// INSERT when the update created the item); BatchWriteItem and transactions are not streamed (the
// project writes neither to its runs table).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { PassThrough } from "node:stream";
import { crc32 } from "node:zlib";
import type { AttributeValue, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { type EventPattern, matches } from "./event-patterns.ts";

export type StreamHandler = (
  event: DynamoDBStreamEvent,
) => Promise<{ batchItemFailures?: Array<{ itemIdentifier: string }> } | undefined>;

export interface EventSourceMapping {
  tableName: string;
  handler: StreamHandler;
  /** Lambda filter criteria patterns: a record is delivered when it matches any of them. */
  filters?: readonly EventPattern[];
  batchSize?: number;
  /** Attempts after the first for a failing batch (Lambda's MaximumRetryAttempts). */
  maxRetries?: number;
  /** Called with the records given up on (the mapping's on-failure destination). */
  onDiscard?: (records: DynamoDBRecord[], error: unknown) => void;
}

type Image = Record<string, AttributeValue>;
type WriteOperation = "PutItem" | "DeleteItem" | "UpdateItem";
const WRITES = new Set<string>(["PutItem", "DeleteItem", "UpdateItem"]);

export class LocalDynamoDbStreams {
  private readonly mappings: Array<
    EventSourceMapping & { queue: DynamoDBRecord[]; running?: Promise<void> }
  > = [];
  private sequence = 0n;
  private readonly keySchemas = new Map<string, string[]>();
  private closed = false;

  constructor(
    private readonly region: string,
    private readonly accountId: string,
  ) {}

  /** Takes over dynalite's request handler; writes to `tables` (name → key attribute names) are streamed. */
  attach(server: Server, tables: Record<string, string[]>): void {
    for (const [name, keys] of Object.entries(tables)) this.keySchemas.set(name, keys);
    const [original] = server.listeners("request") as Array<
      (req: IncomingMessage, res: ServerResponse) => void
    >;
    if (!original) throw new Error("the DynamoDB emulator has no request handler to attach streams to");
    server.removeAllListeners("request");
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const operation = String(req.headers["x-amz-target"] ?? "").split(".")[1] ?? "";
      if (req.method !== "POST" || !WRITES.has(operation)) {
        original(req, res);
        return;
      }
      void this.intercept(req, res, operation as WriteOperation, original);
    });
  }

  addEventSourceMapping(mapping: EventSourceMapping): void {
    if (!this.keySchemas.has(mapping.tableName)) {
      throw new Error(`table ${mapping.tableName} has no stream in the twin (attach it first)`);
    }
    this.mappings.push({ ...mapping, queue: [] });
  }

  /** Resolves when every record written so far has been handed to (and handled by) its mappings. */
  async idle(): Promise<void> {
    for (;;) {
      const busy = this.mappings.map((mapping) => mapping.running).filter(Boolean);
      if (busy.length === 0) return;
      await Promise.all(busy);
    }
  }

  /** Stops delivering (records still queued are dropped, as a deleted mapping would). */
  async close(): Promise<void> {
    this.closed = true;
    for (const mapping of this.mappings) mapping.queue.length = 0;
    await this.idle();
  }

  private async intercept(
    req: IncomingMessage,
    res: ServerResponse,
    operation: WriteOperation,
    original: (req: IncomingMessage, res: ServerResponse) => void,
  ): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let input: Record<string, unknown> | undefined;
    try {
      input = JSON.parse(text) as Record<string, unknown>;
    } catch {
      input = undefined;
    }
    const keys = input ? this.keySchemas.get(String(input.TableName)) : undefined;
    if (!input || !keys) {
      original(replay(req, text), res);
      return;
    }
    const asked = (input.ReturnValues as string | undefined) ?? "NONE";
    const wanted = operation === "UpdateItem" ? "ALL_NEW" : "ALL_OLD";
    const rewritten = asked === "NONE" ? { ...input, ReturnValues: wanted } : input;

    const end = res.end.bind(res) as (body?: unknown) => ServerResponse;
    res.end = ((body?: unknown) => {
      if (res.statusCode !== 200 || body === undefined) return end(body);
      const answer = JSON.parse(String(body)) as { Attributes?: Image };
      const record = this.recordOf(operation, String(input.TableName), keys, input, answer.Attributes, asked);
      if (asked === "NONE") delete answer.Attributes;
      const out = JSON.stringify(answer);
      // The SDK checks DynamoDB's CRC32 of the body it receives.
      res.setHeader("x-amz-crc32", String(crc32(out)));
      res.setHeader("Content-Length", Buffer.byteLength(out));
      const result = end(out);
      if (record) this.dispatch(String(input.TableName), record);
      return result;
    }) as typeof res.end;
    original(replay(req, JSON.stringify(rewritten)), res);
  }

  private recordOf(
    operation: WriteOperation,
    table: string,
    keyNames: string[],
    input: Record<string, unknown>,
    returned: Image | undefined,
    asked: string,
  ): DynamoDBRecord | undefined {
    let oldImage: Image | undefined;
    let newImage: Image | undefined;
    let eventName: DynamoDBRecord["eventName"];
    if (operation === "PutItem") {
      newImage = input.Item as Image;
      oldImage = asked === "NONE" || asked === "ALL_OLD" ? returned : undefined;
      eventName = oldImage ? "MODIFY" : "INSERT";
    } else if (operation === "DeleteItem") {
      oldImage = returned;
      if (!oldImage) return undefined; // deleting nothing writes nothing
      eventName = "REMOVE";
    } else {
      newImage = asked === "NONE" || asked === "ALL_NEW" ? returned : undefined;
      eventName = "MODIFY";
    }
    const source = (newImage ?? oldImage ?? (input.Key as Image)) as Image;
    const keys = Object.fromEntries(
      keyNames.filter((name) => source[name]).map((name) => [name, source[name]]),
    );
    this.sequence += 1n;
    const arn = `arn:aws:dynamodb:${this.region}:${this.accountId}:table/${table}/stream/local`;
    return {
      eventID: `local-${this.sequence}`,
      eventName,
      eventVersion: "1.1",
      eventSource: "aws:dynamodb",
      awsRegion: this.region,
      eventSourceARN: arn,
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        Keys: keys as never,
        ...(newImage ? { NewImage: newImage as never } : {}),
        ...(oldImage ? { OldImage: oldImage as never } : {}),
        SequenceNumber: this.sequence.toString().padStart(21, "0"),
        SizeBytes: Buffer.byteLength(JSON.stringify(newImage ?? oldImage ?? {})),
        StreamViewType: "NEW_AND_OLD_IMAGES",
      },
    };
  }

  private dispatch(table: string, record: DynamoDBRecord): void {
    if (this.closed) return;
    for (const mapping of this.mappings) {
      if (mapping.tableName !== table) continue;
      if (mapping.filters?.length && !mapping.filters.some((pattern) => matches(pattern, record))) continue;
      mapping.queue.push(record);
      mapping.running ??= this.drain(mapping).finally(() => {
        mapping.running = undefined;
      });
    }
  }

  /** One batch at a time per mapping, like one shard: records reach the handler in write order. */
  private async drain(mapping: (typeof this.mappings)[number]): Promise<void> {
    // Let the writer's response go out first: in AWS the stream is read after the write returned.
    await new Promise((resolve) => setImmediate(resolve));
    while (mapping.queue.length > 0 && !this.closed) {
      let batch = mapping.queue.splice(0, mapping.batchSize ?? 100);
      for (let attempt = 0; batch.length > 0; attempt++) {
        let failedFrom: string | undefined;
        let failure: unknown;
        try {
          const answer = await mapping.handler({ Records: batch });
          failedFrom = answer?.batchItemFailures?.[0]?.itemIdentifier;
        } catch (error) {
          failure = error;
          failedFrom = batch[0]?.dynamodb?.SequenceNumber;
        }
        if (failedFrom === undefined) break;
        // Partial batch response: Lambda retries from the first failed record on.
        const index = batch.findIndex((record) => record.dynamodb?.SequenceNumber === failedFrom);
        batch = batch.slice(Math.max(index, 0));
        if (attempt >= (mapping.maxRetries ?? 2) || this.closed) {
          mapping.onDiscard?.(batch, failure ?? new Error(`records from ${failedFrom} reported failed`));
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
  }
}

function replay(req: IncomingMessage, body: string): IncomingMessage {
  const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(stream, {
    headers: { ...req.headers, "content-length": String(Buffer.byteLength(body)) },
    method: req.method,
    url: req.url,
    httpVersion: req.httpVersion,
    socket: req.socket,
  });
  stream.end(body);
  return stream;
}
