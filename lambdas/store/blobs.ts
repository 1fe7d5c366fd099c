// S3 access for documents, large evidence and results. `s3://bucket/key` URIs everywhere.
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";

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
