// Batches in the runs table, beside the runs (one item collection per batch): the batch record, which
// GET /v1/batches/{id} reads in one request, and one LINE#<line> item per started or finished line.
// A line is counted exactly once without a transaction (dynalite has none): the count and the line's
// number go into the batch record in one conditional update, and a retry finds the number already there.
// Also the manifest objects in S3 (read by the API, written for the Distributed Map).
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { TTL_ATTRIBUTE } from "../contracts/tables.ts";
import type {
  BatchStatus,
  LineError,
  LineRanges,
  LineSource,
  RecordedLineStatus,
  VerdictCounts,
} from "../core/batch.ts";
import type { S3Location } from "./blobs.ts";
import { conditionalWrite } from "./conditional.ts";
import { BATCH_RECORD, batchKey, batchLineKey, timeOrderedId } from "./keys.ts";
import { queryAllPages, scanAllPages } from "./pagination.ts";
import { RETENTION_SECONDS } from "./runs.ts";

/** A new batch's id (matches BATCH_ID_PATTERN of lambdas/core/batch.ts): sorts by creation, never collides. */
export function newBatchId(now = new Date()): string {
  return timeOrderedId("batch", now);
}

export interface BatchItem {
  batch_id: string;
  name?: string;
  status: BatchStatus;
  /** Lines with a request. */
  total: number;
  /** The manifest's line numbers (blank lines have none). */
  line_ranges: LineRanges;
  /** Lines with a final status: the sum of `counts`. */
  processed: number;
  counts: Record<string, number>;
  max_concurrency: number;
  tolerated_failure_percentage: number;
  /** The manifest URI as given, or "inline". */
  source: string;
  /** s3:// URI of the numbered manifest the Distributed Map reads. */
  manifest: string;
  /** s3:// prefix the Map's ResultWriter writes under. */
  results_prefix: string;
  /** The ResultWriter's manifest.json, once the Map has ended. */
  results_manifest?: string;
  error?: { error: string; cause: string };
  created_at: string;
  updated_at: string;
  finished_at?: string;
}

export interface LineItem extends LineSource {
  line: number;
  /** RUNNING while its run is in flight. */
  status: RecordedLineStatus | "RUNNING";
  run_id?: string;
  error?: LineError;
  verdicts?: VerdictCounts;
  updated_at: string;
}

/** A line's file and documents as stored on its item (only what is there). */
function sourceAttributes(source: LineSource): LineSource {
  return {
    ...(source.file ? { file: source.file } : {}),
    ...(source.documents?.length ? { documents: source.documents } : {}),
  };
}

export class BatchNotFoundError extends Error {
  override name = "BatchNotFoundError";
  constructor(batchId: string) {
    super(`batch "${batchId}" does not exist`);
  }
}

/** The manifest object is larger than the caller allows (nothing of it was read). */
export class ObjectTooLargeError extends Error {
  override name = "ObjectTooLargeError";
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(`the object is ${size} bytes; at most ${limit} bytes are read`);
  }
}

// Every attribute of the batch record but `counted_lines` (up to MAX_MANIFEST_LINES numbers, only for
// the exactly-once count): what a read of the batch returns.
const RECORD_ATTRIBUTES = [
  "batch_id",
  "name",
  "status",
  "total",
  "line_ranges",
  "processed",
  "counts",
  "max_concurrency",
  "tolerated_failure_percentage",
  "source",
  "manifest",
  "results_prefix",
  "results_manifest",
  "error",
  "created_at",
  "updated_at",
  "finished_at",
];

export class BatchStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly s3: S3Client,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Records a new batch (RUNNING, nothing counted); false when the id is taken. */
  async create(
    batch: Omit<BatchItem, "status" | "processed" | "counts" | "created_at" | "updated_at">,
  ): Promise<boolean> {
    const at = this.now().toISOString();
    return conditionalWrite(
      this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: batchKey(batch.batch_id),
            sk: BATCH_RECORD,
            ...batch,
            status: "RUNNING",
            processed: 0,
            counts: {},
            created_at: at,
            updated_at: at,
            [TTL_ATTRIBUTE]: this.expiry(),
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
  }

  async get(batchId: string): Promise<BatchItem> {
    const names = Object.fromEntries(RECORD_ATTRIBUTES.map((name, index) => [`#a${index}`, name]));
    const { Item } = await this.ddb.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: batchKey(batchId), sk: BATCH_RECORD },
        ConsistentRead: true,
        ProjectionExpression: Object.keys(names).join(", "),
        ExpressionAttributeNames: names,
      }),
    );
    if (!Item) throw new BatchNotFoundError(batchId);
    return Item as BatchItem;
  }

  /** The line's run exists and is about to run; a line already finished keeps its result. */
  async lineStarted(batchId: string, line: number, runId: string, source: LineSource = {}): Promise<void> {
    try {
      await this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: batchKey(batchId),
            sk: batchLineKey(line),
            line,
            ...sourceAttributes(source),
            status: "RUNNING",
            run_id: runId,
            updated_at: this.now().toISOString(),
            [TTL_ATTRIBUTE]: this.expiry(),
          },
          ConditionExpression: "attribute_not_exists(pk) OR #status = :running",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":running": "RUNNING" },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /**
   * Records a line's final status and counts it once. Returns false when it had been counted already
   * (a retried item step): the line's item is written again, the counts stay as they are.
   */
  async recordLine(
    batchId: string,
    result: LineSource & {
      line: number;
      status: RecordedLineStatus;
      run_id?: string;
      error?: LineError;
      verdicts?: VerdictCounts;
    },
  ): Promise<boolean> {
    const at = this.now().toISOString();
    let counted = true;
    try {
      await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: batchKey(batchId), sk: BATCH_RECORD },
          UpdateExpression:
            "SET #counts.#status = if_not_exists(#counts.#status, :zero) + :one, #processed = #processed + :one, " +
            "#updated_at = :at ADD #counted :lines",
          ConditionExpression: "attribute_exists(pk) AND NOT contains(#counted, :line)",
          ExpressionAttributeNames: {
            "#counts": "counts",
            "#status": result.status,
            "#processed": "processed",
            "#updated_at": "updated_at",
            "#counted": "counted_lines",
          },
          ExpressionAttributeValues: {
            ":zero": 0,
            ":one": 1,
            ":at": at,
            ":lines": new Set([result.line]),
            ":line": result.line,
          },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      await this.get(batchId); // BatchNotFoundError for an unknown batch
      counted = false;
    }
    await this.ddb.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          pk: batchKey(batchId),
          sk: batchLineKey(result.line),
          line: result.line,
          ...sourceAttributes(result),
          status: result.status,
          ...(result.run_id ? { run_id: result.run_id } : {}),
          ...(result.verdicts ? { verdicts: result.verdicts } : {}),
          ...(result.error ? { error: result.error } : {}),
          updated_at: at,
          [TTL_ATTRIBUTE]: this.expiry(),
        },
      }),
    );
    return counted;
  }

  /** Ends a running batch; false when it had already ended (a batch ends once). */
  async finish(
    batchId: string,
    ending: {
      status: Exclude<BatchStatus, "RUNNING">;
      error?: { error: string; cause: string };
      results_manifest?: string;
    },
  ): Promise<boolean> {
    const at = this.now().toISOString();
    const names: Record<string, string> = {
      "#status": "status",
      "#updated_at": "updated_at",
      "#finished_at": "finished_at",
    };
    const values: Record<string, unknown> = { ":status": ending.status, ":at": at, ":running": "RUNNING" };
    const sets = ["#status = :status", "#updated_at = :at", "#finished_at = :at"];
    if (ending.error) {
      names["#error"] = "error";
      values[":error"] = ending.error;
      sets.push("#error = :error");
    }
    if (ending.results_manifest) {
      names["#results_manifest"] = "results_manifest";
      values[":results_manifest"] = ending.results_manifest;
      sets.push("#results_manifest = :results_manifest");
    }
    try {
      await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: batchKey(batchId), sk: BATCH_RECORD },
          UpdateExpression: `SET ${sets.join(", ")}`,
          ConditionExpression: "attribute_exists(pk) AND #status = :running",
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      await this.get(batchId);
      return false;
    }
  }

  /** The batch's started and finished lines, in line order. */
  async lines(batchId: string): Promise<LineItem[]> {
    const items = await queryAllPages(this.ddb, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :line)",
      ExpressionAttributeValues: { ":pk": batchKey(batchId), ":line": "LINE#" },
      ConsistentRead: true,
    });
    return items.map(
      ({ pk: _pk, sk: _sk, [TTL_ATTRIBUTE]: _expires, ...item }) => item as unknown as LineItem,
    );
  }

  /** Ids of the batches still RUNNING (a full scan: for the local twin's restart only). */
  async listRunning(): Promise<string[]> {
    const items = await scanAllPages(this.ddb, {
      TableName: this.table,
      FilterExpression: "sk = :record AND #status = :running",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":record": BATCH_RECORD, ":running": "RUNNING" },
      ProjectionExpression: "batch_id",
      ConsistentRead: true,
    });
    return items.map((item) => String(item.batch_id));
  }

  /** An object's text, refused unread above `maxBytes`. */
  async readText(location: S3Location, maxBytes: number): Promise<string> {
    const response = await this.s3.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key }));
    const size = Number(response.ContentLength ?? 0);
    if (size > maxBytes) {
      (response.Body as { destroy?: () => void } | undefined)?.destroy?.();
      throw new ObjectTooLargeError(size, maxBytes);
    }
    if (!response.Body) return "";
    return new TextDecoder("utf-8", { fatal: true }).decode(await response.Body.transformToByteArray());
  }

  async writeText(location: S3Location, text: string, contentType: string): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: location.bucket,
        Key: location.key,
        Body: text,
        ContentType: contentType,
      }),
    );
  }

  private expiry(): number {
    return Math.floor(this.now().getTime() / 1000) + RETENTION_SECONDS;
  }
}
