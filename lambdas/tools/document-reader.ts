// Downloads and extracts a document once per run: retrieve_s3_document and the Conditions AI
// engine read the same PDFs, and a warm Lambda container (or the local twin) serves several
// steps of a run. Bounded so a long-lived process does not grow without limit.
import { NoSuchKey, S3ServiceException } from "@aws-sdk/client-s3";
import { type DocumentPolicy, resolveDocumentPath } from "../core/documents.ts";
import type { BlobStore, StoredObject } from "../store/blobs.ts";
import { type ExtractedDocument, extractPdfText } from "./loan/pdf-text.ts";

export interface ReadDocument {
  uri: string;
  path: string;
  size: number;
  last_modified?: string;
  content_type?: string;
  extracted: ExtractedDocument;
}

export class DocumentNotFoundError extends Error {
  override name = "DocumentNotFoundError";
}

export class DocumentReader {
  private readonly cache = new Map<string, Promise<ReadDocument>>();

  constructor(
    private readonly blobs: BlobStore,
    private readonly policy: DocumentPolicy,
    private readonly maxEntries = 64,
  ) {}

  read(runId: string, path: string): Promise<ReadDocument> {
    const location = resolveDocumentPath(path, this.policy);
    const uri = `s3://${location.bucket}/${location.key}`;
    const cacheKey = `${runId}|${uri}`;
    let pending = this.cache.get(cacheKey);
    if (!pending) {
      pending = this.load(path, uri, location);
      // Failures are not cached: a retried step must be able to read a document uploaded late.
      pending.catch(() => this.cache.delete(cacheKey));
      this.cache.set(cacheKey, pending);
      while (this.cache.size > this.maxEntries) {
        const oldest = this.cache.keys().next().value;
        if (oldest === undefined) break;
        this.cache.delete(oldest);
      }
    }
    return pending;
  }

  private async load(
    path: string,
    uri: string,
    location: { bucket: string; key: string },
  ): Promise<ReadDocument> {
    let object: StoredObject;
    try {
      object = await this.blobs.getObject(location);
    } catch (error) {
      if (
        error instanceof NoSuchKey ||
        (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
      ) {
        throw new DocumentNotFoundError(`document ${uri} does not exist (requested as "${path}")`);
      }
      throw error;
    }
    const extracted = await extractPdfText(object.bytes, path);
    return {
      uri,
      path,
      size: object.size,
      ...(object.lastModified ? { last_modified: object.lastModified.toISOString() } : {}),
      ...(object.contentType ? { content_type: object.contentType } : {}),
      extracted,
    };
  }
}
