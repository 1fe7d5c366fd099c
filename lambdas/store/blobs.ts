// S3 access for documents, large evidence and results. `s3://bucket/key` URIs everywhere.
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { ResultExistsError } from "../core/destinations.ts";

export interface S3Location {
  bucket: string;
  key: string;
}

export function parseS3Uri(uri: string): S3Location {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (!match?.[1] || !match[2]) {
    throw new Error(`"${uri}" is not an S3 URI: expected s3://bucket/key`);
  }
  return { bucket: match[1], key: match[2] };
}

export const s3Uri = ({ bucket, key }: S3Location) => `s3://${bucket}/${key}`;

/** The object metadata (`x-amz-meta-run-id`) naming the run that wrote a result. */
export const WRITER_METADATA = "run-id";

/** S3 answered a conditional request whose condition did not hold (412). */
const preconditionFailed = (error: unknown) =>
  (error as { name?: string })?.name === "PreconditionFailed" ||
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 412;

const notFound = (error: unknown) =>
  ["NotFound", "NoSuchKey"].includes((error as { name?: string })?.name ?? "") ||
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;

export interface StoredObject {
  bytes: Uint8Array;
  size: number;
  lastModified?: Date;
  contentType?: string;
}

export class BlobStore {
  constructor(private readonly s3: S3Client) {}

  async putJson(location: S3Location, value: unknown): Promise<string> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: location.bucket,
        Key: location.key,
        Body: JSON.stringify(value),
        ContentType: "application/json",
      }),
    );
    return s3Uri(location);
  }

  /**
   * Writes `value` only where no object is (S3 `If-None-Match: *`), tagged with the run that writes it.
   * An object already there that this run wrote (a retried Finalize, a resumed run) is accepted as it
   * is (`written: false`); anyone else's is never replaced: ResultExistsError, and nothing is written.
   */
  async putJsonOnce(
    location: S3Location,
    value: unknown,
    runId: string,
  ): Promise<{ uri: string; written: boolean }> {
    const uri = s3Uri(location);
    // Twice at most: an object removed between the refused write and the look at it is written over no one.
    for (let attempt = 0; ; attempt++) {
      try {
        await this.s3.send(
          new PutObjectCommand({
            Bucket: location.bucket,
            Key: location.key,
            Body: JSON.stringify(value),
            ContentType: "application/json",
            IfNoneMatch: "*",
            Metadata: { [WRITER_METADATA]: runId },
          }),
        );
        return { uri, written: true };
      } catch (error) {
        if (!preconditionFailed(error)) throw error;
      }
      const writer = await this.writerOf(location);
      if (writer === runId) return { uri, written: false };
      if (writer !== null || attempt > 0) {
        throw new ResultExistsError(
          `${uri} already holds an object ${writer ? `written by run ${writer}` : "that this run did not write"}; results are never overwritten, so run ${runId} wrote nothing there`,
        );
      }
    }
  }

  /** Whether an object is at `location`. */
  async exists(location: S3Location): Promise<boolean> {
    return (await this.writerOf(location)) !== null;
  }

  /** The run an object names as its writer ("" when it names none), or null when there is no object. */
  private async writerOf(location: S3Location): Promise<string | null> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: location.bucket, Key: location.key }));
      return head.Metadata?.[WRITER_METADATA] ?? "";
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async getJson(uri: string): Promise<unknown> {
    return JSON.parse(new TextDecoder().decode(await this.getBytes(parseS3Uri(uri))));
  }

  async getBytes(location: S3Location): Promise<Uint8Array> {
    return (await this.getObject(location)).bytes;
  }

  async getObject(location: S3Location): Promise<StoredObject> {
    const response = await this.s3.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key }));
    if (!response.Body) throw new Error(`${s3Uri(location)} has no body`);
    const bytes = await response.Body.transformToByteArray();
    return {
      bytes,
      size: Number(response.ContentLength ?? bytes.byteLength),
      ...(response.LastModified ? { lastModified: response.LastModified } : {}),
      ...(response.ContentType ? { contentType: response.ContentType } : {}),
    };
  }

  async putBytes(location: S3Location, body: Uint8Array, contentType: string): Promise<string> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: location.bucket,
        Key: location.key,
        Body: body,
        ContentType: contentType,
      }),
    );
    return s3Uri(location);
  }
}
