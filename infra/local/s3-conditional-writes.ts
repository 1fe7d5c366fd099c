// S3's conditional writes, which s3rver 3.7.1 ignores: a PUT Object with `If-None-Match: *` is refused
// with 412 PreconditionFailed when the key already holds an object, as S3 refuses it, so Finalize's
// "write the result only where nothing is" is honoured by the twin as in AWS. Conditional PUTs of one
// key are taken one at a time (check, then write), so two of them racing cannot both succeed, as in S3.
// Any other If-None-Match value on a PUT is refused with 501, as S3 does.
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";

/** The part of Koa's context this middleware uses (s3rver is a Koa app). */
export interface ConditionalWriteContext {
  method: string;
  url: string;
  req: IncomingMessage | Readable;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
  store?: { existsObject(bucket: string, key: string): Promise<boolean> };
}

/** Sub-resources a PUT may address instead of the object itself (a part, its tags, its ACL...). */
const SUBRESOURCES = ["uploadId", "partNumber", "tagging", "acl", "retention", "legal-hold"];

function xmlError(ctx: ConditionalWriteContext, status: number, code: string, message: string): void {
  ctx.status = status;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><Condition>If-None-Match</Condition></Error>`;
}

/** The object a path-style request addresses, or undefined for a bucket or service request. */
function objectOf(url: string): { bucket: string; key: string; query: URLSearchParams } | undefined {
  const [path = "", query = ""] = url.split("?", 2);
  const match = /^\/([^/]+)\/(.+)$/.exec(path);
  if (!match?.[1] || !match[2]) return undefined;
  return {
    bucket: decodeURIComponent(match[1]),
    key: decodeURIComponent(match[2]),
    query: new URLSearchParams(query),
  };
}

export function conditionalWrites() {
  /** Per object: the conditional PUT in progress, which the next one for the same key waits for. */
  const inProgress = new Map<string, Promise<void>>();
  return async function s3ConditionalWrites(
    ctx: ConditionalWriteContext,
    next: () => Promise<unknown>,
  ): Promise<unknown> {
    const raw = ctx.headers["if-none-match"];
    const condition = (Array.isArray(raw) ? raw.join(",") : (raw ?? "")).trim();
    const target = ctx.method === "PUT" && condition ? objectOf(ctx.url) : undefined;
    if (
      !target ||
      "x-amz-copy-source" in ctx.headers ||
      SUBRESOURCES.some((name) => target.query.has(name))
    ) {
      return next();
    }
    if (condition !== "*" || !ctx.store) {
      ctx.req.resume();
      xmlError(
        ctx,
        501,
        "NotImplemented",
        "A header you provided implies functionality that is not implemented",
      );
      return undefined;
    }
    const id = `${target.bucket}/${target.key}`;
    const before = inProgress.get(id);
    let release = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const turn = (before ?? Promise.resolve()).then(() => mine);
    inProgress.set(id, turn);
    await before;
    try {
      if (await ctx.store.existsObject(target.bucket, target.key)) {
        ctx.req.resume(); // the body is not wanted: read and dropped, so the client sees the answer
        xmlError(
          ctx,
          412,
          "PreconditionFailed",
          "At least one of the pre-conditions you specified did not hold",
        );
        return undefined;
      }
      return await next();
    } finally {
      release();
      if (inProgress.get(id) === turn) inProgress.delete(id);
    }
  };
}
