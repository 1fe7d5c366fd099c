// Where a run may write its result (`output_destination`). Checked by the API before a run starts
// and again by Finalize right before it writes, so a request can never make the agent overwrite
// a borrower's document or write into a bucket nobody configured.
import {
  type DocumentLocation,
  type DocumentPolicy,
  describePath,
  MAX_S3_KEY_BYTES,
  parseLocationEntry,
  resolveDocumentPath,
  s3KeyProblem,
} from "./documents.ts";

export interface ResultPolicy {
  /** `bucket` or `bucket/prefix` entries a result may be written under. */
  allowedDestinations: string[];
}

export interface ResultLocation {
  bucket: string;
  key: string;
}

export class ResultDestinationError extends Error {
  override name = "ResultDestinationError";
}

/** The destination already holds an object that is not this run's result: results are never overwritten. */
export class ResultExistsError extends Error {
  override name = "ResultExistsError";
}

/**
 * Room a prefix destination keeps for the `<run_id>.json` appended to it (run ids are at most
 * 104 characters), so the final key still fits S3's limit.
 */
export const RESULT_FILE_NAME_RESERVE_BYTES = 128;

const S3_URI = /^s3:\/\/([^/]+)\/(.*)$/s;

/**
 * The destination as a location, or a ResultDestinationError saying which rule it breaks. A
 * destination ending in `/` is a prefix (the run writes `<prefix><run_id>.json`); anything else
 * is the result's own key.
 */
export function checkResultDestination(
  destination: string,
  policy: ResultPolicy,
  documents: DocumentPolicy,
  requestDocuments: readonly DocumentLocation[] = [],
): ResultLocation & { isPrefix: boolean } {
  const match = S3_URI.exec(destination);
  if (!match?.[1]) {
    throw new ResultDestinationError(
      `${describePath(destination)} is not an S3 URI: expected s3://bucket/prefix/ or s3://bucket/key.json`,
    );
  }
  const bucket = match[1];
  const key = match[2] ?? "";
  const isPrefix = key === "" || key.endsWith("/");
  const keyProblem = s3KeyProblem(
    key,
    isPrefix ? MAX_S3_KEY_BYTES - RESULT_FILE_NAME_RESERVE_BYTES : MAX_S3_KEY_BYTES,
  );
  if (keyProblem) {
    const room = isPrefix
      ? ` (a prefix keeps ${RESULT_FILE_NAME_RESERVE_BYTES} bytes for <run_id>.json)`
      : "";
    throw new ResultDestinationError(`${keyProblem}${room}: ${describePath(destination)}`);
  }
  if (key.split("/").some((segment) => segment === ".." || segment === ".")) {
    throw new ResultDestinationError(
      `${describePath(destination)} contains "." or ".." segments; result keys must be plain paths`,
    );
  }
  assertNotOverDocuments({ bucket, key }, destination, documents, requestDocuments);
  assertAllowed({ bucket, key }, destination, policy);
  return { bucket, key, isPrefix };
}

/**
 * The object a finished run writes: `<prefix><run_id>.json` for a prefix, the key itself
 * otherwise. Everything is checked again, the concrete key included, so Finalize never writes
 * where the API would not have let the request point (the configuration may have changed since).
 */
export function resultObjectLocation(
  destination: string,
  runId: string,
  policy: ResultPolicy,
  documents: DocumentPolicy,
  documentPaths: readonly string[],
): ResultLocation {
  const requestDocuments = documentPaths.flatMap((path) => {
    try {
      return [resolveDocumentPath(path, documents)];
    } catch {
      return []; // no longer readable: it cannot be overwritten through the document locations either
    }
  });
  const checked = checkResultDestination(destination, policy, documents, requestDocuments);
  if (!checked.isPrefix) return { bucket: checked.bucket, key: checked.key };
  const object = { bucket: checked.bucket, key: `${checked.key}${runId}.json` };
  const uri = `s3://${object.bucket}/${object.key}`;
  const keyProblem = s3KeyProblem(object.key);
  if (keyProblem) throw new ResultDestinationError(`${keyProblem}: ${describePath(uri)}`);
  assertNotOverDocuments(object, uri, documents, requestDocuments);
  assertAllowed(object, uri, policy);
  return object;
}

/** Documents are only ever read: neither a request's own document nor any readable location. */
function assertNotOverDocuments(
  target: ResultLocation,
  shown: string,
  documents: DocumentPolicy,
  requestDocuments: readonly DocumentLocation[],
): void {
  const own = requestDocuments.find((doc) => doc.bucket === target.bucket && doc.key === target.key);
  if (own) {
    throw new ResultDestinationError(
      `${describePath(shown)} is one of this request's documents; a result never overwrites a document`,
    );
  }
  const readable = [documents.documentsBucket, ...documents.allowedPrefixes].find((entry) => {
    const location = parseLocationEntry(entry);
    return location.bucket === target.bucket && target.key.startsWith(location.prefix);
  });
  if (readable !== undefined) {
    throw new ResultDestinationError(
      `${describePath(shown)} is inside the document location s3://${readable}; results are never written where documents are read`,
    );
  }
}

function assertAllowed(target: ResultLocation, shown: string, policy: ResultPolicy): void {
  const allowed = policy.allowedDestinations.some((entry) => {
    const location = parseLocationEntry(entry);
    return location.bucket === target.bucket && target.key.startsWith(location.prefix);
  });
  if (!allowed) {
    throw new ResultDestinationError(
      `${describePath(shown)} is outside the allowed result locations (${describeAllowed(policy)})`,
    );
  }
}

export function describeAllowed(policy: ResultPolicy): string {
  return policy.allowedDestinations.length
    ? policy.allowedDestinations.map((entry) => `s3://${entry}`).join(", ")
    : "none configured";
}
