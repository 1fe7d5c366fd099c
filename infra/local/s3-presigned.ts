// What S3 checks of a presigned request and s3rver does not: s3rver verifies only the access key id of
// a SigV4 request, never its signature, expiry or checksum header. The documents a browser uploads
// through POST /v1/documents rely on exactly these checks (a PUT of another size, type or content must
// be refused), so the twin makes them, as a Koa middleware in front of s3rver's own:
//   - a query-signed (presigned) request signed with the twin's key: the SigV4 signature recomputed over
//     the method, path, query and the signed headers as received (SignatureDoesNotMatch, 403), and its
//     expiry (AccessDenied "Request has expired", 403);
//   - any PUT with x-amz-checksum-sha256: the body's SHA-256 compared with it (BadDigest, 400).
// Requests signed in the Authorization header (the SDK clients of the functions) are left to s3rver.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";

/** The part of Koa's context this middleware uses (s3rver is a Koa app). */
export interface S3Context {
  method: string;
  url: string;
  req: IncomingMessage | Readable;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
  set(name: string, value: string): void;
  store?: {
    getSubresource(
      bucket: string,
      key: undefined,
      type: "cors",
    ): Promise<
      | { matchRule(origin: string, method: string): { hasWildcardOrigin: boolean } | undefined }
      | null
      | undefined
    >;
  };
}

const ALGORITHM = "AWS4-HMAC-SHA256";

/** S3's error answer: a code and a message in its XML. */
export class S3RequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks a query-signed request against `credentials` (the twin's key); undefined when it is not one
 * (no X-Amz-Algorithm, or another access key: s3rver decides as before).
 */
export function verifyPresignedRequest(
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined> },
  credentials: { accessKeyId: string; secretAccessKey: string },
  now: Date,
): void {
  const [rawPath = "/", rawQuery = ""] = splitOnce(request.url, "?");
  const query = new URLSearchParams(rawQuery);
  if (query.get("X-Amz-Algorithm") !== ALGORITHM) return;
  const credential = query.get("X-Amz-Credential") ?? "";
  const [accessKeyId, ...scopeParts] = credential.split("/");
  if (accessKeyId !== credentials.accessKeyId) return;
  const amzDate = query.get("X-Amz-Date") ?? "";
  const expires = Number(query.get("X-Amz-Expires"));
  const signedHeaders = query.get("X-Amz-SignedHeaders") ?? "";
  const signature = query.get("X-Amz-Signature") ?? "";
  const signedAt = parseAmzDate(amzDate);
  if (!signedAt || !Number.isInteger(expires) || scopeParts.length !== 4 || !signedHeaders) {
    throw new S3RequestError(
      400,
      "AuthorizationQueryParametersError",
      "malformed presigned query parameters",
    );
  }
  if (now.getTime() > signedAt.getTime() + expires * 1000) {
    throw new S3RequestError(403, "AccessDenied", "Request has expired");
  }
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => [escapeUri(name), escapeUri(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const names = signedHeaders.split(";");
  const canonicalHeaders = names.map((name) => `${name}:${headerValue(request.headers, name)}`).join("\n");
  const canonicalRequest = [
    request.method.toUpperCase(),
    rawPath,
    canonicalQuery,
    `${canonicalHeaders}\n`,
    signedHeaders,
    query.get("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD",
  ].join("\n");
  const scope = scopeParts.join("/");
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  let key: Buffer = hmac(`AWS4${credentials.secretAccessKey}`, scopeParts[0] ?? "");
  for (const part of scopeParts.slice(1)) key = hmac(key, part);
  const expected = Buffer.from(hmac(key, stringToSign).toString("hex"));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new S3RequestError(
      403,
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
    );
  }
}

/**
 * The Koa middleware: presigned requests verified, PUT bodies checked against x-amz-checksum-sha256
 * (the body is read here and handed on to s3rver as a buffer-backed stream).
 */
export function presignedRequestChecks(
  credentials: { accessKeyId: string; secretAccessKey: string },
  now: () => Date = () => new Date(),
) {
  return async function s3PresignedChecks(ctx: S3Context, next: () => Promise<unknown>): Promise<unknown> {
    if (ctx.method === "OPTIONS") return next(); // a CORS preflight carries no signature
    try {
      verifyPresignedRequest(ctx, credentials, now());
      const checksum = headerValue(ctx.headers, "x-amz-checksum-sha256");
      if (ctx.method === "PUT" && checksum) {
        const body = await readAll(ctx.req);
        const actual = createHash("sha256").update(body).digest("base64");
        if (actual !== checksum) {
          throw new S3RequestError(
            400,
            "BadDigest",
            "The SHA256 you specified did not match the calculated checksum.",
          );
        }
        ctx.req = Readable.from([body]);
      }
    } catch (error) {
      if (!(error instanceof S3RequestError)) throw error;
      await allowOrigin(ctx);
      ctx.status = error.status;
      ctx.type = "application/xml";
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${error.message}</Message></Error>`;
      return undefined;
    }
    return next();
  };
}

/** A browser reads an error only with CORS headers: the bucket's rules decide, as for a success. */
async function allowOrigin(ctx: S3Context): Promise<void> {
  const origin = headerValue(ctx.headers, "origin");
  const bucket = decodeURIComponent(ctx.url.split("?")[0]?.split("/")[1] ?? "");
  if (!origin || !bucket || !ctx.store) return;
  const config = await ctx.store.getSubresource(bucket, undefined, "cors").catch(() => undefined);
  const rule = config?.matchRule(origin, ctx.method);
  if (rule) ctx.set("Access-Control-Allow-Origin", rule.hasWildcardOrigin ? "*" : origin);
}

function splitOnce(text: string, separator: string): [string, string] {
  const index = text.indexOf(separator);
  return index < 0 ? [text, ""] : [text.slice(0, index), text.slice(index + 1)];
}

/** SigV4's URI encoding: encodeURIComponent, and !'()* too. */
function escapeUri(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string {
  const value = headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value.join(",") : (value ?? "");
  return text.trim().replace(/\s+/g, " ");
}

function parseAmzDate(text: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match;
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac("sha256", key).update(data).digest();
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
