// Bearer tokens of three audiences, never interchangeable:
//   customer  a bank customer signed in to the chat (POST /v1/chat acts on their accounts only),
//             minted by the bank's sign-in service;
//   run       watch one run's live events (returned with the run by POST /v1/evaluate-conditions
//             and POST /v1/chat);
//   operator  watch every run (dashboards), minted by an operator.
// Each audience has its own HMAC key (lambdas/auth/secret.ts), so whoever holds one key (the bank
// holds only the customer key) can mint tokens of that audience only. The layout is a compact JWS
// (RFC 7515) with HS256, i.e. a JWT any JWT library can mint:
//   base64url({"alg":"HS256","typ":"JWT","kid":<key id>}) . base64url(claims) . base64url(HMAC-SHA256)
// claims: {"aud": audience, "sub": run id | customer id (none for operator), "iat": s, "exp": s}.
// The key id is derived from the key (keyId below), so a rotation never needs a name picked by hand,
// and verification accepts an audience's current and previous key.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export const TOKEN_AUDIENCES = ["customer", "run", "operator"] as const;
export type TokenAudience = (typeof TOKEN_AUDIENCES)[number];

export type TokenScope =
  | { kind: "run"; run_id: string }
  | { kind: "operator" }
  /** A bank customer signed in to the chat: the assistant acts on their accounts and cards only. */
  | { kind: "customer"; customer_id: string };

/** The longest a token of each audience may live (exp − iat) unless configured otherwise. */
export const DEFAULT_MAX_LIFETIME_SECONDS: Readonly<Record<TokenAudience, number>> = {
  // A working day at the chat; the bank's sign-in may mint shorter ones.
  customer: 8 * 3600,
  // REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS's default: a run's waits for a person last up to a day by default.
  run: 24 * 3600,
  // A shift at a dashboard.
  operator: 12 * 3600,
};

/** How far a token's iat may lie ahead of this server's clock (the minter's clock may run fast). */
export const CLOCK_SKEW_SECONDS = 60;

/** An audience's keys: `current` signs; both verify, so tokens signed before a rotation stay valid. */
export interface AudienceKeys {
  current: string;
  previous?: string | undefined;
}

/** The keys a minter or verifier holds, by audience: only those it needs. */
export type TokenKeyring = Partial<Record<TokenAudience, AudienceKeys>>;

export interface TokenClaims {
  aud: TokenAudience;
  /** The key id of the header: which of the audience's keys signed the token. */
  kid: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** What the token allows, from aud and sub. */
  scope: TokenScope;
}

export type InvalidTokenReason =
  | "malformed"
  | "audience"
  | "unknown_key"
  | "signature"
  | "claims"
  | "issued_in_future"
  | "lifetime"
  | "expired";

export class InvalidTokenError extends Error {
  override name = "InvalidTokenError";
  constructor(
    readonly reason: InvalidTokenReason,
    message: string,
    /** The audience the token claims, once read (unverified: for picking keys to re-read, never to allow). */
    readonly audience?: TokenAudience,
  ) {
    super(message);
  }
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");
const ALG = "HS256";

/**
 * The key id of an HMAC key: the first 16 characters of the base64url SHA-256 of the key. Public (it
 * travels in every token), reveals nothing usable about a random key of 32+ characters, and differs
 * between keys, so a rotated key gets a new id without anyone choosing one. Another minter computes it as
 * `printf %s "$KEY" | openssl dgst -sha256 -binary | basenc --base64url | cut -c1-16`.
 */
export function keyId(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("base64url").slice(0, 16);
}

/**
 * A token of `scope.kind`'s audience, signed with that audience's current key, valid `ttlSeconds`
 * from `now`. Keeping `ttlSeconds` within the audience's maximum lifetime is the caller's: a longer
 * token is refused by every verifier.
 */
export function mintToken(
  keys: TokenKeyring,
  scope: TokenScope,
  ttlSeconds: number,
  now = new Date(),
): string {
  const aud = scope.kind;
  const key = keys[aud]?.current;
  if (!key) throw new Error(`no ${aud} token key to sign with`);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError(`token lifetime must be a positive whole number of seconds, got ${ttlSeconds}`);
  }
  const iat = Math.floor(now.getTime() / 1000);
  const sub = scope.kind === "run" ? scope.run_id : scope.kind === "customer" ? scope.customer_id : undefined;
  const header = b64url(JSON.stringify({ alg: ALG, typ: "JWT", kid: keyId(key) }));
  const claims = b64url(
    JSON.stringify({ aud, ...(sub === undefined ? {} : { sub }), iat, exp: iat + ttlSeconds }),
  );
  return `${header}.${claims}.${sign(key, `${header}.${claims}`)}`;
}

export interface VerifyOptions {
  /** The audiences this verifier accepts; a token of any other is refused, whatever its signature. */
  accept: readonly TokenAudience[];
  /** Keys of (at least) the accepted audiences. */
  keys: TokenKeyring;
  now?: Date;
  /** Per audience; DEFAULT_MAX_LIFETIME_SECONDS for an audience not given. */
  maxLifetimeSeconds?: Partial<Record<TokenAudience, number>>;
}

/** The verified claims of `token`, or an InvalidTokenError naming what is wrong with it. */
export function verifyToken(token: unknown, options: VerifyOptions): TokenClaims {
  const { accept, keys, now = new Date() } = options;
  if (typeof token !== "string" || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) {
    throw new InvalidTokenError(
      "malformed",
      "token is missing or malformed: expected <header>.<claims>.<signature>",
    );
  }
  const [encodedHeader = "", encodedClaims = "", signature = ""] = token.split(".");
  const header = decodeJson(encodedHeader, "header");
  if (header.alg !== ALG) {
    throw new InvalidTokenError("malformed", `token algorithm ${JSON.stringify(header.alg)} is not ${ALG}`);
  }
  if (typeof header.kid !== "string" || header.kid === "") {
    throw new InvalidTokenError("malformed", "token header has no key id (kid)");
  }
  const claims = decodeJson(encodedClaims, "claims");
  // Read before the signature is checked, to refuse with the right reason; nothing unverified is trusted.
  const aud = claims.aud;
  if (!isAudience(aud)) {
    throw new InvalidTokenError(
      "audience",
      `token audience (aud) ${JSON.stringify(aud)} is not one of ${TOKEN_AUDIENCES.join(", ")}`,
    );
  }
  if (!accept.includes(aud)) {
    const article = aud === "operator" ? "an" : "a";
    throw new InvalidTokenError(
      "audience",
      `wrong audience: ${article} ${aud} token, expected ${accept.join(" or ")}`,
    );
  }
  const audienceKeys = keys[aud];
  if (!audienceKeys) throw new Error(`no ${aud} token keys to verify with`);
  const key = [audienceKeys.current, audienceKeys.previous].find(
    (candidate) => candidate !== undefined && keyId(candidate) === header.kid,
  );
  if (key === undefined) {
    throw new InvalidTokenError(
      "unknown_key",
      `unknown key id (kid) ${JSON.stringify(header.kid)}: neither the current nor the previous ${aud} token key`,
      aud,
    );
  }
  const expected = Buffer.from(sign(key, `${encodedHeader}.${encodedClaims}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new InvalidTokenError("signature", "token signature does not match");
  }
  const { iat, exp } = claims;
  if (!isSeconds(iat)) throw new InvalidTokenError("claims", "token has no issued-at (iat) in whole seconds");
  if (!isSeconds(exp)) throw new InvalidTokenError("claims", "token has no expiry (exp) in whole seconds");
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS) {
    throw new InvalidTokenError(
      "issued_in_future",
      `token issued in the future: iat is ${iat - nowSeconds} s ahead of this server's clock (at most ${CLOCK_SKEW_SECONDS} s allowed)`,
    );
  }
  const maxLifetime = options.maxLifetimeSeconds?.[aud] ?? DEFAULT_MAX_LIFETIME_SECONDS[aud];
  if (exp - iat > maxLifetime) {
    throw new InvalidTokenError(
      "lifetime",
      `token lifetime ${exp - iat} s is above the ${aud} maximum of ${maxLifetime} s`,
    );
  }
  if (exp <= iat) throw new InvalidTokenError("claims", "token expires (exp) before it was issued (iat)");
  if (exp <= nowSeconds) {
    throw new InvalidTokenError("expired", `token expired at ${new Date(exp * 1000).toISOString()}`);
  }
  return { aud, kid: header.kid, iat, exp, scope: scopeOf(aud, claims.sub) };
}

/** Whether the claims allow watching `runId` (an operator may watch every run). */
export function allowsRun(claims: TokenClaims, runId: string): boolean {
  return claims.scope.kind === "operator" || (claims.scope.kind === "run" && claims.scope.run_id === runId);
}

function scopeOf(aud: TokenAudience, sub: unknown): TokenScope {
  if (aud === "operator") return { kind: "operator" };
  if (typeof sub !== "string" || sub === "") {
    const what = aud === "run" ? "the run id" : "the customer id";
    throw new InvalidTokenError("claims", `a ${aud} token needs ${what} as its subject (sub)`);
  }
  return aud === "run" ? { kind: "run", run_id: sub } : { kind: "customer", customer_id: sub };
}

function decodeJson(part: string, what: "header" | "claims"): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    throw new InvalidTokenError("malformed", `token ${what} is not JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidTokenError("malformed", `token ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

const isAudience = (value: unknown): value is TokenAudience =>
  typeof value === "string" && (TOKEN_AUDIENCES as readonly string[]).includes(value);

const isSeconds = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value);

function sign(key: string, signingInput: string): string {
  return createHmac("sha256", key).update(signingInput).digest("base64url");
}
