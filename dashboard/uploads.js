// Uploading a PDF from the officer's disk without S3 credentials: the page asks the API for a
// presigned PUT (POST /v1/documents, with the file's name, type, size and SHA-256), then sends the
// file straight to S3 with exactly the headers the API signed. XMLHttpRequest, not fetch: fetch
// reports no upload progress, and a loan file's PDFs can take a while on a slow line.

/** Files the page accepts: PDFs, by type or (when the browser gives no type) by name. */
export function isPdf(file) {
  return file?.type === "application/pdf" || (!file?.type && /\.pdf$/i.test(file?.name ?? ""));
}

/** "1.2 MB", "830 KB", "120 B": sizes as an officer reads them. */
export function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return "";
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The SHA-256 of the file as 64 hex digits (the key is derived from it and S3 checks the body against it). */
export async function sha256Hex(file) {
  // crypto.subtle exists only in secure contexts: https, or http on localhost/127.0.0.1.
  if (!globalThis.crypto?.subtle) {
    throw new Error("this browser cannot hash files here: open the dashboard over https (or on localhost)");
  }
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The body of POST /v1/documents (DocumentUploadRequest) for a file and its digest. */
export function uploadRequestFor(file, sha256) {
  return { filename: file.name, content_type: "application/pdf", size_bytes: file.size, sha256 };
}

// Headers a page may not set (the browser sets them itself, from the body): Content-Length is signed
// by the API, and the browser sends exactly the file's size, which is what was signed.
const FORBIDDEN_HEADERS = new Set(["content-length", "host", "connection"]);

/** What S3 said in an XML error body (`<Code>`, `<Message>`), or the start of whatever it sent. */
export function s3ErrorText(status, body) {
  const code = /<Code>([^<]*)<\/Code>/.exec(body ?? "")?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(body ?? "")?.[1];
  if (code || message)
    return `storage refused the upload (${status} ${[code, message].filter(Boolean).join(": ")})`;
  return `storage refused the upload (${status}${body ? `: ${String(body).slice(0, 200)}` : ""})`;
}

/**
 * PUTs `body` to a presigned URL with its signed headers, reporting progress as a fraction 0..1.
 * Resolves when storage answered 2xx; rejects with a readable reason otherwise. `signal` aborts it.
 */
export function putWithProgress(url, headers, body, { onProgress = () => {}, signal } = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (!FORBIDDEN_HEADERS.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
    }
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener("load", () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else reject(new Error(s3ErrorText(xhr.status, xhr.responseText)));
    });
    xhr.addEventListener("error", () =>
      reject(
        new Error("the upload did not reach storage (network error, or storage refused this page's origin)"),
      ),
    );
    xhr.addEventListener("abort", () => reject(new DOMException("upload cancelled", "AbortError")));
    xhr.addEventListener("timeout", () => reject(new Error("the upload timed out")));
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException("upload cancelled", "AbortError"));
        return;
      }
      signal.addEventListener("abort", () => xhr.abort(), { once: true });
    }
    xhr.send(body);
  });
}

/**
 * Uploads one PDF: hash, ask the API where to put it, PUT it. `onPhase` is told "hashing",
 * "signing", "uploading" and `onProgress` the uploaded fraction. Resolves with the API's
 * DocumentUpload (its `s3_pdf_path` goes in the request's s3_pdf_paths).
 */
export async function uploadDocument(api, file, { onPhase = () => {}, onProgress = () => {}, signal } = {}) {
  if (!isPdf(file)) throw new Error(`${file.name} is not a PDF: only PDF documents are read`);
  if (file.size === 0) throw new Error(`${file.name} is empty`);
  onPhase("hashing");
  const sha256 = await sha256Hex(file);
  if (signal?.aborted) throw new DOMException("upload cancelled", "AbortError");
  onPhase("signing");
  const upload = await api.createDocumentUpload(uploadRequestFor(file, sha256));
  if (Number.isFinite(upload.max_bytes) && file.size > upload.max_bytes) {
    throw new Error(
      `${file.name} is ${formatBytes(file.size)}; the limit is ${formatBytes(upload.max_bytes)}`,
    );
  }
  onPhase("uploading");
  await putWithProgress(upload.upload.url, upload.upload.headers, file, { onProgress, signal });
  return upload;
}
