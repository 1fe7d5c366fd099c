// POST /v1/documents and GET /v1/runs/{run_id}/documents: a loan officer's browser uploads a PDF and
// reads a run's documents without S3 credentials, through short-lived presigned URLs.
//
// Upload: the service chooses the key (content-addressed: the same file always lands on the same key)
// and signs a PUT whose signature covers Content-Type, Content-Length and x-amz-checksum-sha256, so S3
// itself refuses a body of another type, size or content. The API function may write under the upload
// prefix only (infra grants PutObject there), and a presigned URL acts with its signer's permissions.
// Reading: only the run's own documents, resolved with the document policy its request was validated
// with; there is no path parameter a caller could point elsewhere.
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import * as z from "zod";
import type { DocumentUpload, DocumentUploadRequest, RunDocuments } from "../contracts/api-types.ts";
import { resolveDocumentPath, safeFileName, uploadKey } from "../core/documents.ts";
import type { RequestProblem } from "../core/request.ts";
import type { ApiContext } from "./context.ts";
import { HttpError, json, jsonBody } from "./http.ts";
import { checkRunId } from "./runs.ts";

/** How long an upload URL works: long enough for a large PDF on a slow line, short enough to leak little. */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** How long a reading URL works: a viewer fetches the PDF at once and asks again for a later citation. */
export const READ_URL_SECONDS = 10 * 60;
/** The longest file name accepted (the key keeps at most 200 characters of it). */
export const MAX_FILENAME_LENGTH = 255;
const PDF = "application/pdf";

/** The upload request's schema; `maxBytes` is the deployment's limit (REWOO_UPLOAD_MAX_BYTES). */
export function documentUploadSchema(maxBytes: number) {
  // Strict: a misspelt field is refused by name rather than ignored.
  return z.strictObject({
    filename: z
      .string({ error: "required: the file's name, e.g. tax-return-2024.pdf" })
      .trim()
      .min(1, "must not be empty: the file's name, e.g. tax-return-2024.pdf")
      .max(MAX_FILENAME_LENGTH, `must be at most ${MAX_FILENAME_LENGTH} characters`)
      .refine(
        (name) => name.toLowerCase().endsWith(".pdf"),
        "must end with .pdf: only PDF documents are read",
      ),
    content_type: z.literal(PDF, { error: `must be "${PDF}": only PDF documents are read` }),
    size_bytes: z
      .number({ error: "required: the file's size in bytes, a whole number" })
      .int("must be a whole number of bytes")
      .min(1, "must be at least 1: the file is empty")
      .max(maxBytes, `must be at most ${maxBytes} bytes (${formatMiB(maxBytes)}): the PDF size limit`),
    sha256: z
      .string({ error: "required: the SHA-256 of the file, 64 hexadecimal digits" })
      .regex(/^[0-9a-fA-F]{64}$/, "must be the SHA-256 of the file as 64 hexadecimal digits"),
  });
}

/**
 * The request checked field by field: every problem at once, each naming its field, in the API's 400
 * format (the same `fields` a new-evaluation form shows next to its inputs).
 */
export function validateDocumentUpload(body: unknown, maxBytes: number): DocumentUploadRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new HttpError(400, "invalid_request", "the request body must be a JSON object", [
      { field: "(body)", message: "expected an object with filename, content_type, size_bytes and sha256" },
    ]);
  }
  const parsed = documentUploadSchema(maxBytes).safeParse(body);
  if (parsed.success) return parsed.data;
  // One problem per field, the first found (an empty name is not also told to end with .pdf).
  const problems: RequestProblem[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        problems.push({
          field: key,
          message: "unknown field: expected filename, content_type, size_bytes and sha256",
        });
      }
      continue;
    }
    const field = issue.path.map(String).join(".") || "(body)";
    if (!problems.some((problem) => problem.field === field))
      problems.push({ field, message: issue.message });
  }
  throw new HttpError(
    400,
    "invalid_request",
    `invalid document upload: ${problems.map((problem) => `${problem.field} ${problem.message}`).join("; ")}`,
    problems,
  );
}

/** The signed PUT for one validated upload, and where the document is to be found afterwards. */
export async function presignUpload(
  s3: S3Client,
  request: DocumentUploadRequest,
  options: { bucket: string; prefix: string; maxBytes: number; now: Date },
): Promise<DocumentUpload> {
  const key = uploadKey(options.prefix, request.sha256, request.filename);
  // S3's checksum header carries the digest in base64; the request names it in hex.
  const checksum = Buffer.from(request.sha256, "hex").toString("base64");
  const headers = {
    "Content-Type": PDF,
    "Content-Length": String(request.size_bytes),
    "x-amz-checksum-sha256": checksum,
  };
  const url = await getSignedUrl(
    s3,
    new PutObjectCommand({
      Bucket: options.bucket,
      Key: key,
      ContentType: PDF,
      ContentLength: request.size_bytes,
      ChecksumSHA256: checksum,
    }),
    {
      expiresIn: UPLOAD_URL_SECONDS,
      // Signed, so S3 compares each with the request; the checksum stays a header (not hoisted into
      // the query) so that the browser sends it and S3 checks the body against it.
      signableHeaders: new Set(["content-type", "content-length"]),
      unhoistableHeaders: new Set(["x-amz-checksum-sha256"]),
      signingDate: options.now,
    },
  );
  return {
    s3_pdf_path: key,
    bucket: options.bucket,
    key,
    upload: { method: "PUT", url, headers },
    expires_at: new Date(options.now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString(),
    max_bytes: options.maxBytes,
  };
}

export async function createDocumentUpload(
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  const { config, clients, now } = ctx.services;
  const { prefix, maxBytes } = config.uploads;
  const body = jsonBody(
    event,
    config.api.maxBodyBytes,
    "a JSON object with filename, content_type, size_bytes and sha256",
  );
  const request = validateDocumentUpload(body, maxBytes);
  const upload = await presignUpload(clients.s3, request, {
    bucket: config.documentsBucket,
    prefix,
    maxBytes,
    now: now(),
  });
  ctx.logger.info("document upload signed", { key: upload.key, size_bytes: request.size_bytes });
  return json(201, upload);
}

export async function getRunDocuments(runId: string, ctx: ApiContext): Promise<APIGatewayProxyResult> {
  const { runs, clients, documentPolicy, now } = ctx.services;
  checkRunId(runId);
  const meta = await runs.getMeta(runId);
  const at = now();
  const paths = meta.request?.s3_pdf_paths ?? [];
  const documents: RunDocuments["documents"] = [];
  for (const path of paths) {
    let location: { bucket: string; key: string };
    try {
      location = resolveDocumentPath(path, documentPolicy);
    } catch {
      // Validated when the run started; a path the policy no longer allows is not served.
      ctx.logger.warn("run document outside the document policy, not served", { run_id: runId });
      continue;
    }
    const fileName = safeFileName(location.key);
    const url = await getSignedUrl(
      clients.s3,
      new GetObjectCommand({
        Bucket: location.bucket,
        Key: location.key,
        ResponseContentType: PDF,
        // Inline: the browser (or pdf.js) shows it rather than saving it.
        ResponseContentDisposition: `inline; filename="${fileName}"`,
      }),
      { expiresIn: READ_URL_SECONDS, signingDate: at },
    );
    documents.push({
      path,
      bucket: location.bucket,
      key: location.key,
      url,
      expires_at: new Date(at.getTime() + READ_URL_SECONDS * 1000).toISOString(),
    });
  }
  const answer: RunDocuments = { run_id: runId, documents };
  return json(200, answer);
}

function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}
