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

/** S3's own limit on an object key, in bytes of UTF-8. */
export const MAX_S3_KEY_BYTES = 1024;

/**
 * What S3 would refuse (or mangle) in an object key, as a sentence; undefined for a usable key.
 * Checked before a run starts, so a bad key is a 400 naming the field, not a failed step later.
 */
export function s3KeyProblem(key: string, maxBytes = MAX_S3_KEY_BYTES): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  const control = /[\u0000-\u001f\u007f]/.exec(key);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).padStart(4, "0").toUpperCase();
    return `the object key contains the control character U+${code} at position ${control.index}; S3 keys must not contain U+0000-U+001F or U+007F`;
  }
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(key)) {
    return "the object key contains an unpaired UTF-16 surrogate; S3 keys must be valid UTF-8";
  }
  const bytes = utf8Length(key);
  if (bytes > maxBytes) {
    return `the object key is ${bytes} bytes of UTF-8; S3 keys are at most ${maxBytes} bytes`;
  }
  return undefined;
}

/** UTF-8 length without encoding the string (keys and request fields can be large). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** `bucket` or `bucket/prefix` (a configured location) as a bucket and a key prefix. */
export function parseLocationEntry(entry: string): { bucket: string; prefix: string } {
  const [bucket = "", ...rest] = entry.split("/");
  return { bucket, prefix: rest.join("/") };
}

/**
 * `s3://bucket/key` or a key relative to the documents bucket (the demo data's keys start with its
 * folder, `rm-conditions/`; docs/architecture.md, "Where this project comes from").
 */
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
    if (!match?.[1])
      throw new DocumentPathError(`${describePath(path)} is not an S3 URI: expected s3://bucket/key`);
    bucket = match[1];
    key = match[2] ?? "";
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    throw new DocumentPathError(
      `${describePath(path)} uses an unsupported scheme: expected s3://bucket/key or a relative key`,
    );
  }
  key = key.replace(/^\/+/, "");
  if (key === "" || key.endsWith("/")) {
    throw new DocumentPathError(`${describePath(path)} has no object key: expected s3://bucket/key`);
  }
  if (key.split("/").some((segment) => segment === ".." || segment === ".")) {
    throw new DocumentPathError(
      `${describePath(path)} contains "." or ".." segments; document keys must be plain paths`,
    );
  }
  const keyProblem = s3KeyProblem(key);
  if (keyProblem) throw new DocumentPathError(`${keyProblem} (${describePath(path)})`);
  const allowed = policy.allowedPrefixes.some((entry) => {
    const location = parseLocationEntry(entry);
    return location.bucket === bucket && key.startsWith(location.prefix);
  });
  if (!allowed) {
    throw new DocumentPathError(
      `${describePath(path)} is outside the allowed document locations (${policy.allowedPrefixes.map((p) => `s3://${p}`).join(", ")})`,
    );
  }
  return { bucket, key };
}

/** A path for an error message: JSON-quoted (control characters visible) and at most 120 characters. */
export function describePath(path: string): string {
  return JSON.stringify(path.length > 120 ? `${path.slice(0, 117)}...` : path);
}

/** How many hex digits of the SHA-256 name an upload's folder: enough to tell files apart, short to read. */
const DIGEST_DIGITS = 16;

/**
 * A file name S3 and URLs take as it is: the last path part, characters outside `A-Za-z0-9 ._()-` as `_`
 * (slashes, quotes, control characters, non-ASCII), no leading dots or spaces, at most 200 characters
 * (the extension kept). Ordinary names such as `acme 1120 (signed).pdf` are unchanged, as in the keys
 * the CLI's local uploads have always made.
 */
export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? "";
  let safe = last
    .replace(/[^A-Za-z0-9 ._()-]/g, "_")
    .replace(/^[. ]+/, "")
    .trimEnd();
  if (safe.length > 200) {
    const dot = safe.lastIndexOf(".");
    const extension = dot > 0 && safe.length - dot <= 10 ? safe.slice(dot) : "";
    safe = safe.slice(0, 200 - extension.length) + extension;
  }
  return safe === "" ? "document.pdf" : safe;
}

/**
 * The content-addressed key of an uploaded document: `<prefix><first 16 hex of sha256>/<safe name>`.
 * The same file always lands on the same key (uploading twice is harmless), and two files of one name
 * never overwrite each other. Shared by POST /v1/documents and the CLI's local uploads.
 */
export function uploadKey(prefix: string, sha256Hex: string, fileName: string): string {
  if (!/^[0-9a-f]{64}$/i.test(sha256Hex)) {
    throw new DocumentPathError("sha256 must be 64 hexadecimal digits");
  }
  const folder = prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
  return `${folder}${sha256Hex.slice(0, DIGEST_DIGITS).toLowerCase()}/${safeFileName(fileName)}`;
}
