// Downloads and extracts a document once per run: retrieve_s3_document and the Conditions AI
// engine read the same PDFs, and a warm Lambda container (or the local twin) serves several
// steps of a run. Bounded so a long-lived process does not grow without limit. Pages without a text
// layer are read by the OCR engine, if one is configured, within that same once-per-run read.
// Text-layer extractions are also kept by the document's content hash, so the same bytes read again
// by another run are not parsed again (OCR results are not: a failed OCR must be retried).
import { createHash } from "node:crypto";
import { NoSuchKey, S3ServiceException } from "@aws-sdk/client-s3";
import type { UnavailableDocument } from "../agents/loan/conditions-engine.ts";
import { DocumentError, type ExtractedDocument, extractPdfText } from "../agents/loan/pdf-text.ts";
import { DocumentPathError, type DocumentPolicy, resolveDocumentPath } from "../core/documents.ts";
import type { BlobStore, StoredObject } from "../store/blobs.ts";
import type { OcrEngine } from "./ocr/engine.ts";

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

/** A document read, or why this one document could not be: its own problem, not the step's. */
export type DocumentReadOutcome =
  | { status: "read"; path: string; document: ReadDocument }
  | ({ path: string } & UnavailableDocument);

export class DocumentReader {
  private readonly cache = new Map<string, Promise<ReadDocument>>();
  /** Extractions that needed no OCR, by the SHA-256 of the document's bytes. */
  private readonly byContent = new Map<string, ExtractedDocument>();

  constructor(
    private readonly blobs: BlobStore,
    private readonly policy: DocumentPolicy,
    private readonly options: { ocr?: OcrEngine; maxEntries?: number } = {},
  ) {}

  read(runId: string, path: string): Promise<ReadDocument> {
    const location = resolveDocumentPath(path, this.policy);
    const uri = `s3://${location.bucket}/${location.key}`;
    const cacheKey = `${runId}|${uri}`;
    let pending = this.cache.get(cacheKey);
    if (!pending) {
      pending = this.load(runId, path, uri, location);
      // Failures are not cached: a retried step must be able to read a document uploaded late.
      pending.catch(() => this.cache.delete(cacheKey));
      this.cache.set(cacheKey, pending);
      evictOldest(this.cache, this.options.maxEntries ?? 64);
    }
    return pending;
  }

  /**
   * Like `read`, but a problem of this document alone (it does not exist, the policy or S3 refuses
   * it, it is not a readable PDF) is returned as data, so one bad file among several does not sink
   * the others. Anything else (throttling, S3 5xx, network) is thrown: the workflow retries it.
   */
  async readOrExplain(runId: string, path: string): Promise<DocumentReadOutcome> {
    try {
      return { status: "read", path, document: await this.read(runId, path) };
    } catch (error) {
      const unavailable = explainUnavailable(path, error);
      if (!unavailable) throw error;
      return { path, ...unavailable };
    }
  }

  private async load(
    runId: string,
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
    const contentHash = createHash("sha256").update(object.bytes).digest("hex");
    const known = this.byContent.get(contentHash);
    let extracted: ExtractedDocument;
    if (known) {
      extracted = { ...known, document: path };
    } else {
      extracted = await extractPdfText(object.bytes, path, {
        ...(this.options.ocr ? { ocr: this.options.ocr } : {}),
        location,
        requestToken: `${runId}|${uri}`,
      });
      if (!extracted.ocr) {
        this.byContent.set(contentHash, extracted);
        evictOldest(this.byContent, this.options.maxEntries ?? 64);
      }
    }
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

/** Why one document cannot be read, when that is the document's own problem; undefined otherwise. */
/** Drops the oldest entries (a Map iterates in insertion order) until at most `maxEntries` remain. */
function evictOldest(cache: Map<string, unknown>, maxEntries: number): void {
  while (cache.size > maxEntries) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
}

export function explainUnavailable(path: string, error: unknown): UnavailableDocument | undefined {
  if (error instanceof DocumentNotFoundError) {
    return { document: path, status: "missing", problem: "does not exist" };
  }
  if (error instanceof DocumentPathError) {
    return {
      document: path,
      status: "refused",
      problem: `is refused by the document policy: ${error.message}`,
    };
  }
  if (error instanceof DocumentError) {
    // The parser's message starts with the document's name, which the sentence already carries.
    const prefix = `${error.document} is not a readable PDF: `;
    const detail = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return { document: path, status: "unreadable", problem: `could not be read: ${detail}` };
  }
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    // 429 and 5xx are the service's trouble, not the document's: they are retried.
    if (status === undefined || status < 400 || status >= 500 || status === 429 || error.$retryable) {
      return undefined;
    }
    if (status === 403) {
      return {
        document: path,
        status: "refused",
        problem: `is refused by S3 (${error.name}, HTTP 403): the agent's role may not read it, or its encryption key is not shared`,
      };
    }
    return {
      document: path,
      status: "unreadable",
      problem: `could not be downloaded: S3 answered ${error.name} (HTTP ${status})`,
    };
  }
  return undefined;
}
