// Idempotency-Key: a client that retries POST /v1/evaluate-conditions after a lost response (or
// a timeout) gets the run its first attempt started instead of a second run, and a second bill
// for the LLM calls. The key is remembered for 24 hours; reusing it for another body is a conflict.
import { createHash } from "node:crypto";
import type { APIGatewayProxyEvent } from "aws-lambda";
import type { RunMode } from "../store/runs.ts";
import { HttpError, header } from "./http.ts";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
// Printable ASCII, no surrounding blanks (proxies strip them, so a key with them would never match itself).
const KEY_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]{0,126}[\x21-\x7e])?$/;

/** The key of the request, undefined without the header; 400 when it is present but unusable. */
export function idempotencyKeyOf(event: Pick<APIGatewayProxyEvent, "headers">): string | undefined {
  const key = header(event, IDEMPOTENCY_HEADER);
  if (key === undefined) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw new HttpError(400, "invalid_idempotency_key", `invalid ${IDEMPOTENCY_HEADER} header`, [
      {
        field: IDEMPOTENCY_HEADER,
        message: "expected 1 to 128 printable ASCII characters without leading or trailing blanks",
      },
    ]);
  }
  return key;
}

export const hashKey = (key: string) => sha256(key);

/**
 * What the key was used for: the endpoint's mode and the body as JSON *values* (key order and
 * white space do not make two bodies different).
 */
export function requestHash(mode: RunMode, body: unknown): string {
  return sha256(canonicalJson({ mode, body }));
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
