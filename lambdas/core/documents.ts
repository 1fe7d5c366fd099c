// Where a document path may point. Used by the API (reject before starting) and by the tools
// (reject before reading): only configured buckets/prefixes are readable.
export interface DocumentLocation {
  bucket: string;
  key: string;
}

export interface DocumentPolicy {
  documentsBucket: string;
  /** `bucket` or `bucket/prefix` entries. */
  allowedPrefixes: string[];
}

export class DocumentPathError extends Error {
  override name = "DocumentPathError";
}

/** `s3://bucket/key` or a key relative to the documents bucket (seed 000 uses `rm-conditions/doc1.pdf`). */
export function resolveDocumentPath(path: string, policy: DocumentPolicy): DocumentLocation {
  if (typeof path !== "string" || path.trim() === "") {
    throw new DocumentPathError(
      "document path is empty: expected s3://bucket/key or a key such as rm-conditions/doc1.pdf",
    );
  }
  const trimmed = path.trim();
  let bucket = policy.documentsBucket;
  let key = trimmed;
  if (trimmed.startsWith("s3://")) {
    const match = /^s3:\/\/([^/]+)\/(.*)$/.exec(trimmed);
    if (!match?.[1]) throw new DocumentPathError(`"${path}" is not an S3 URI: expected s3://bucket/key`);
    bucket = match[1];
    key = match[2] ?? "";
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    throw new DocumentPathError(
      `"${path}" uses an unsupported scheme: expected s3://bucket/key or a relative key`,
    );
  }
  key = key.replace(/^\/+/, "");
  if (key === "" || key.endsWith("/")) {
    throw new DocumentPathError(`"${path}" has no object key: expected s3://bucket/key`);
  }
  if (key.split("/").some((segment) => segment === ".." || segment === ".")) {
    throw new DocumentPathError(`"${path}" contains "." or ".." segments; document keys must be plain paths`);
  }
  const allowed = policy.allowedPrefixes.some((entry) => {
    const [allowedBucket, ...rest] = entry.split("/");
    const prefix = rest.join("/");
    return allowedBucket === bucket && key.startsWith(prefix);
  });
  if (!allowed) {
    throw new DocumentPathError(
      `"${path}" is outside the allowed document locations (${policy.allowedPrefixes.map((p) => `s3://${p}`).join(", ")})`,
    );
  }
  return { bucket, key };
}
