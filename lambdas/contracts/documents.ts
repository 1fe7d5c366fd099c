// Document uploads through presigned URLs (POST /v1/documents, GET /v1/runs/{run_id}/documents) as data:
// the runtime's defaults, and the documents bucket's CORS rule the CDK app and the twin both apply.
// Data only: the CDK app imports this module.

/** Where uploads go in the documents bucket unless REWOO_UPLOAD_PREFIX says otherwise. */
export const DEFAULT_UPLOAD_PREFIX = "uploads/";

/** The largest PDF an upload may be unless REWOO_UPLOAD_MAX_BYTES says otherwise: 50 MiB. */
export const DEFAULT_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/**
 * The documents bucket's CORS rule for a browser that uploads and reads through presigned URLs, so the
 * deployed bucket and the twin's answer a page the same way (the origins are the deployment's). PUT
 * with the headers POST /v1/documents signs; GET and HEAD with Range, as pdf.js reads a PDF in parts.
 */
export const DOCUMENTS_BUCKET_CORS = {
  methods: ["GET", "HEAD", "PUT"],
  allowedHeaders: ["content-type", "x-amz-checksum-sha256", "range"],
  exposedHeaders: ["ETag", "Content-Length", "Content-Range", "Accept-Ranges"],
  maxAgeSeconds: 600,
} as const;
