// Secrets Manager secrets read by the functions: the token HMAC keys (lambdas/auth/secret.ts) and the
// lender API token (lambdas/tools/lender-client.ts). Shared infrastructure below the API's auth and the
// tools, so neither imports the other's room. Powertools Parameters does the reading and the caching:
// a value read is reused for SECRET_MAX_AGE_SECONDS (no Secrets Manager call per request, and a rotated
// value is picked up within that time, without a new execution environment); a failed read is never
// cached, so the next call tries again instead of the container failing until it is recycled.
import { SecretsProvider } from "@aws-lambda-powertools/parameters/secrets";
import type { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";

/** Seconds a value read is reused before Secrets Manager is asked again. */
export const SECRET_MAX_AGE_SECONDS = 3600;

export class SecretUnavailableError extends Error {
  override name = "SecretUnavailableError";
  /** The SDK's, when Secrets Manager answered with an error: a throttle or 5xx stays transient. */
  readonly $metadata?: { httpStatusCode?: number };
}

export interface SecretReaderOptions {
  /** The secret's ARN (or name); named in every error, the value never is. */
  secretId: string;
  /** What the secret is, for errors: "the token secret", "the lender API token". */
  what: string;
  /** Region of the default client; ignored when `client` is given. */
  region?: string;
  /** Shorter values are refused (an HMAC key must not be guessable). Default 1: not empty. */
  minLength?: number;
  maxAgeSeconds?: number;
  /** The version to read by its staging label (AWSPREVIOUS: the value before the last put); default AWSCURRENT. */
  versionStage?: string;
  /** A client of the caller's: a traced one, or in tests one that is mocked or points at an emulator. */
  client?: SecretsManagerClient;
  /** The error thrown when the secret cannot be read or is unusable (default SecretUnavailableError). */
  unavailable?: (message: string, options?: { cause?: unknown }) => Error;
}

export interface ReadOptions {
  /** Ask Secrets Manager now instead of reusing a cached value (a rotation may have happened). */
  refresh?: boolean;
}

/**
 * A function returning the secret's value: read on first use, then cached for `maxAgeSeconds`. A
 * failed read is not cached, and neither is a value refused as too short (the next call reads again,
 * so fixing the secret takes effect at once). Concurrent first calls share one read.
 */
export function secretReader(options: SecretReaderOptions): (read?: ReadOptions) => Promise<string> {
  const read = reader(options, false);
  return async (readOptions) => (await read(readOptions)) as string;
}

/**
 * Like secretReader, for a version that may not exist (AWSPREVIOUS of a secret never rotated): a
 * missing version reads as undefined, and that answer is cached like a value.
 */
export function optionalSecretReader(
  options: SecretReaderOptions,
): (read?: ReadOptions) => Promise<string | undefined> {
  return reader(options, true);
}

function reader(
  options: SecretReaderOptions,
  missingIsUndefined: boolean,
): (read?: ReadOptions) => Promise<string | undefined> {
  const { secretId, what, minLength = 1, maxAgeSeconds = SECRET_MAX_AGE_SECONDS, versionStage } = options;
  const unavailable =
    options.unavailable ??
    ((message: string, init?: { cause?: unknown }) => new SecretUnavailableError(message, init));
  const described = versionStage ? `${what} ${secretId} (${versionStage})` : `${what} ${secretId}`;
  let provider: SecretsProvider | undefined;
  let refetch = false;
  /** When a missing version was last seen missing (Powertools caches values only). */
  let missingSince: number | undefined;
  let reading: Promise<string | undefined> | undefined;

  const read = async (forceFetch: boolean): Promise<string | undefined> => {
    if (!forceFetch && missingSince !== undefined && Date.now() - missingSince < maxAgeSeconds * 1000) {
      return undefined;
    }
    provider ??= new SecretsProvider(
      options.client
        ? { awsSdkV3Client: options.client }
        : { clientConfig: options.region ? { region: options.region } : {} },
    );
    let value: string | Uint8Array | undefined;
    try {
      value = await provider.get(secretId, {
        maxAge: maxAgeSeconds,
        forceFetch: refetch || forceFetch,
        ...(versionStage ? { sdkOptions: { VersionStage: versionStage } } : {}),
      });
    } catch (error) {
      // Powertools wraps the SDK's error (GetParameterError); its cause has the name and the status.
      const cause = (error as { cause?: { name?: string; message?: string; $metadata?: object } }).cause;
      if (missingIsUndefined && cause?.name === "ResourceNotFoundException") {
        missingSince = Date.now();
        return undefined;
      }
      const reason = cause?.name
        ? `${cause.name}: ${cause.message}`
        : `${(error as Error).name}: ${(error as Error).message}`;
      const failure = unavailable(`cannot read ${described}: ${reason}`, { cause: error });
      if (cause?.$metadata) Object.assign(failure, { $metadata: cause.$metadata });
      throw failure;
    }
    missingSince = undefined;
    const secret = unwrap(value);
    if (!secret || secret.length < minLength) {
      // Powertools cached what it read: ask Secrets Manager again next time, not in an hour.
      refetch = true;
      // Never echo the value itself: it is the secret.
      throw unavailable(`${described} must be a string of at least ${minLength} characters`);
    }
    refetch = false;
    return secret;
  };

  return (readOptions = {}) => {
    // A refresh waits for a read under way, then reads again: that read may predate the rotation.
    if (readOptions.refresh) {
      const after = reading ?? Promise.resolve(undefined);
      return after.catch(() => undefined).then(() => read(true));
    }
    reading ??= read(false).finally(() => {
      reading = undefined;
    });
    return reading;
  };
}

/**
 * CDK's generated secrets are plain strings, but a secret made with a template is a JSON object:
 * accept `{"secret": "…"}` too rather than using the JSON text by surprise. A binary secret is refused.
 */
function unwrap(value: string | Uint8Array | undefined): string | undefined {
  if (typeof value !== "string") return undefined;
  if (!value.trimStart().startsWith("{")) return value;
  try {
    const parsed = JSON.parse(value) as { secret?: unknown };
    return typeof parsed.secret === "string" ? parsed.secret : undefined;
  } catch {
    return value;
  }
}
