// The HMAC secret behind subscribe and operator tokens (tokens.ts), shared by the REST start
// handler (mints) and the WebSocket $connect authorizer (verifies). Locally it is configured
// directly (REWOO_TOKEN_SECRET); in AWS it lives in Secrets Manager (REWOO_TOKEN_SECRET_ARN) and is
// fetched once per cold start, so it is never in the function's environment or template.
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import type { Config } from "../runtime/config.ts";

/** Same floor as REWOO_TOKEN_SECRET in config.ts: shorter HMAC keys are guessable. */
export const MIN_TOKEN_SECRET_LENGTH = 32;

export class TokenSecretUnavailableError extends Error {
  override name = "TokenSecretUnavailableError";
}

let cached: Promise<string> | undefined;

/**
 * A Secrets Manager secret read once per cold start: the returned function memoizes the value, but
 * not a failure (the next invocation tries again instead of the container failing until recycled).
 */
export function secretReader(options: {
  arn: string;
  region: string;
  what: string;
  minLength?: number;
  client?: SecretsManagerClient;
}): () => Promise<string> {
  let value: Promise<string> | undefined;
  return () => {
    value ??= readSecretString(options).catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}

/**
 * The token secret, memoized per cold start. A failed fetch is not memoized: the next invocation
 * tries again instead of the container failing until it is recycled.
 */
export function loadTokenSecret(
  config: Pick<Config, "region" | "api">,
  client?: SecretsManagerClient,
): Promise<string> {
  cached ??= fetchSecret(config, client).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/** Tests switch configurations within one process; Lambda never needs this. */
export function resetTokenSecretCache(): void {
  cached = undefined;
}

async function fetchSecret(
  config: Pick<Config, "region" | "api">,
  client?: SecretsManagerClient,
): Promise<string> {
  const { tokenSecret, tokenSecretArn } = config.api;
  if (tokenSecret) return tokenSecret;
  if (!tokenSecretArn) {
    throw new TokenSecretUnavailableError(
      "no token secret configured: set REWOO_TOKEN_SECRET (local) or REWOO_TOKEN_SECRET_ARN (Secrets Manager)",
    );
  }
  return readSecretString({
    arn: tokenSecretArn,
    region: config.region,
    what: "the token secret",
    minLength: MIN_TOKEN_SECRET_LENGTH,
    ...(client ? { client } : {}),
  });
}

async function readSecretString(options: {
  arn: string;
  region: string;
  what: string;
  minLength?: number;
  client?: SecretsManagerClient;
}): Promise<string> {
  const { arn, what, minLength = 1 } = options;
  const secrets = options.client ?? new SecretsManagerClient({ region: options.region });
  let value: string | undefined;
  try {
    ({ SecretString: value } = await secrets.send(new GetSecretValueCommand({ SecretId: arn })));
  } catch (error) {
    throw new TokenSecretUnavailableError(
      `cannot read ${what} ${arn}: ${(error as Error).name}: ${(error as Error).message}`,
    );
  } finally {
    if (!options.client) secrets.destroy();
  }
  const secret = unwrap(value);
  if (!secret || secret.length < minLength) {
    // Never echo the value itself: it is the secret.
    throw new TokenSecretUnavailableError(
      `${what} ${arn} must be a string of at least ${minLength} characters`,
    );
  }
  return secret;
}

/**
 * CDK's generated secrets are plain strings, but a secret made with a template is a JSON object:
 * accept `{"secret": "…"}` too rather than HMAC-ing with the JSON text by surprise.
 */
function unwrap(value: string | undefined): string | undefined {
  if (value === undefined || !value.trimStart().startsWith("{")) return value;
  try {
    const parsed = JSON.parse(value) as { secret?: unknown };
    return typeof parsed.secret === "string" ? parsed.secret : undefined;
  } catch {
    return value;
  }
}
