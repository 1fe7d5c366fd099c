// Tokens for WebSocket subscribers: a subscribe token lets its holder watch one run (returned
// with the run by POST /v1/evaluate-conditions); an operator token lets dashboards watch every
// run. HMAC-SHA256 over a small JSON payload: stateless, so the $connect authorizer needs no
// table lookup, and expiring.
import { createHmac, timingSafeEqual } from "node:crypto";

export type TokenScope =
  | { kind: "run"; run_id: string }
  | { kind: "operator" }
  /** A bank customer signed in to the chat: the assistant acts on their accounts and cards only. */
  | { kind: "customer"; customer_id: string };

export interface TokenClaims {
  scope: TokenScope;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export class InvalidTokenError extends Error {
  override name = "InvalidTokenError";
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

export function mintToken(secret: string, scope: TokenScope, ttlSeconds: number, now = new Date()): string {
  const claims: TokenClaims = { scope, exp: Math.floor(now.getTime() / 1000) + ttlSeconds };
  const payload = b64url(JSON.stringify(claims));
  return `${payload}.${sign(secret, payload)}`;
}

export function verifyToken(secret: string, token: unknown, now = new Date()): TokenClaims {
  if (typeof token !== "string" || !/^[\w-]+\.[\w-]+$/.test(token)) {
    throw new InvalidTokenError("token is missing or malformed: expected <payload>.<signature>");
  }
  const [payload = "", signature = ""] = token.split(".");
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new InvalidTokenError("token signature does not match");
  }
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as TokenClaims;
  } catch {
    throw new InvalidTokenError("token payload is not JSON");
  }
  if (typeof claims.exp !== "number" || claims.exp * 1000 <= now.getTime()) {
    throw new InvalidTokenError("token has expired");
  }
  const scope = claims.scope;
  if (
    scope?.kind !== "operator" &&
    !(scope?.kind === "run" && typeof scope.run_id === "string") &&
    !(scope?.kind === "customer" && typeof scope.customer_id === "string" && scope.customer_id !== "")
  ) {
    throw new InvalidTokenError("token scope is neither a run, an operator nor a customer");
  }
  return claims;
}

/** Whether the claims allow watching `runId` (an operator may watch every run). */
export function allowsRun(claims: TokenClaims, runId: string): boolean {
  return claims.scope.kind === "operator" || (claims.scope.kind === "run" && claims.scope.run_id === runId);
}

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("base64url");
}
