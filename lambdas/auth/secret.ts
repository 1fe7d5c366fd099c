// The HMAC keys behind the three token audiences (tokens.ts), one per audience so that rotating one
// signs nobody else out and whoever holds one (the bank's sign-in: the customer key) can mint no other
// audience's tokens. Locally each is configured directly (REWOO_<AUDIENCE>_TOKEN_SECRET, and
// REWOO_<AUDIENCE>_TOKEN_SECRET_PREVIOUS during a rotation); in AWS each lives in its own Secrets
// Manager secret (REWOO_<AUDIENCE>_TOKEN_SECRET_ARN): its AWSCURRENT version is the current key, its
// AWSPREVIOUS version (what `put-secret-value` leaves behind) the previous one. Values are read on
// first use and reused for an hour (lambdas/secrets/reader.ts), never in a function's environment or
// template. A function is granted only the secrets of the audiences it mints or verifies.
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { TOKEN_KEY_VARIABLES } from "../contracts/environment.ts";
import { optionalSecretReader, SecretUnavailableError, secretReader } from "../secrets/reader.ts";
import {
  type AudienceKeys,
  InvalidTokenError,
  keyId,
  type TokenAudience,
  type TokenClaims,
  type TokenKeyring,
  verifyToken,
} from "./tokens.ts";

/** Same floor as the REWOO_<AUDIENCE>_TOKEN_SECRET settings in config.ts: shorter HMAC keys are guessable. */
export const MIN_TOKEN_SECRET_LENGTH = 32;

/**
 * How often a verifier may re-read an audience's keys because a token names a key id it does not know
 * (a rotation it has not picked up yet): bounded, so a stream of forged key ids cannot flood Secrets Manager.
 */
export const KEY_REFRESH_INTERVAL_MS = 60_000;

export class TokenSecretUnavailableError extends SecretUnavailableError {
  override name = "TokenSecretUnavailableError";
}

/** Where an audience's key comes from, and how long its tokens may live. */
export interface TokenKeySettings {
  /** The key itself (local); wins over `secretArn`. */
  secret?: string | undefined;
  /** The key before a rotation, still verifying (local; in AWS the secret's AWSPREVIOUS version). */
  previousSecret?: string | undefined;
  /** The Secrets Manager secret holding the key (AWS). */
  secretArn?: string | undefined;
  maxLifetimeSeconds: number;
}

/** The configuration this needs (the runtime's Config has it): the region and each audience's key settings. */
export interface TokenSecretConfig {
  region: string;
  api: { tokens: Record<TokenAudience, TokenKeySettings> };
}

interface SecretReaders {
  current: (options?: { refresh?: boolean }) => Promise<string>;
  previous: (options?: { refresh?: boolean }) => Promise<string | undefined>;
}

/** By secret ARN: a configuration change in tests (or a twin restart) reads the new secret. */
const readers = new Map<string, SecretReaders>();
/** When each secret was last re-read for an unknown key id. */
const refreshedAt = new Map<string, number>();

/**
 * The keys of `audiences`: configured ones as they are, else the Secrets Manager secrets' current
 * and previous versions (cached; a failed read is not, so the next invocation tries again instead of
 * the container failing until it is recycled). `refresh` reads the secrets again now.
 */
export async function loadTokenKeys(
  config: TokenSecretConfig,
  audiences: readonly TokenAudience[],
  client?: SecretsManagerClient,
  options: { refresh?: boolean } = {},
): Promise<TokenKeyring> {
  const entries = await Promise.all(
    audiences.map(
      async (audience) => [audience, await audienceKeys(config, audience, client, options)] as const,
    ),
  );
  const keyring: TokenKeyring = Object.fromEntries(entries);
  refuseSharedKeys(keyring);
  return keyring;
}

export interface VerifyWithKeysOptions {
  /** The audiences the caller accepts. */
  accept: readonly TokenAudience[];
  client?: SecretsManagerClient | undefined;
  now?: Date;
}

/**
 * Verifies `token` with the accepted audiences' keys and maximum lifetimes. A token signed with a key
 * this container has not read yet (the secret was rotated within the cache's hour) makes it read
 * that audience's secret again, at most once per KEY_REFRESH_INTERVAL_MS, and verify once more.
 */
export async function verifyWithKeys(
  config: TokenSecretConfig,
  token: unknown,
  options: VerifyWithKeysOptions,
): Promise<TokenClaims> {
  const { accept, client, now = new Date() } = options;
  const maxLifetimeSeconds = Object.fromEntries(
    accept.map((audience) => [audience, config.api.tokens[audience].maxLifetimeSeconds]),
  );
  const verify = (keys: TokenKeyring) => verifyToken(token, { accept, keys, now, maxLifetimeSeconds });
  const keys = await loadTokenKeys(config, accept, client);
  try {
    return verify(keys);
  } catch (error) {
    if (!(error instanceof InvalidTokenError) || error.reason !== "unknown_key" || !error.audience)
      throw error;
    const { secret, secretArn } = config.api.tokens[error.audience];
    if (secret || !secretArn) throw error;
    const last = refreshedAt.get(secretArn);
    if (last !== undefined && Date.now() - last < KEY_REFRESH_INTERVAL_MS) throw error;
    refreshedAt.set(secretArn, Date.now());
    keys[error.audience] = await audienceKeys(config, error.audience, client, { refresh: true });
    refuseSharedKeys(keys);
    return verify(keys);
  }
}

/** Tests switch configurations within one process; Lambda never needs this. */
export function resetTokenSecretCache(): void {
  readers.clear();
  refreshedAt.clear();
}

async function audienceKeys(
  config: TokenSecretConfig,
  audience: TokenAudience,
  client: SecretsManagerClient | undefined,
  options: { refresh?: boolean },
): Promise<AudienceKeys> {
  const { secret, previousSecret, secretArn } = config.api.tokens[audience];
  if (secret) return { current: secret, previous: previousSecret };
  const names = TOKEN_KEY_VARIABLES[audience];
  if (!secretArn) {
    throw new TokenSecretUnavailableError(
      `no ${audience} token key configured: set ${names.secret} (local) or ${names.secretArn} (Secrets Manager)`,
    );
  }
  let secretReaders = readers.get(secretArn);
  if (!secretReaders) {
    const common = {
      secretId: secretArn,
      what: `the ${audience} token secret`,
      region: config.region,
      minLength: MIN_TOKEN_SECRET_LENGTH,
      // The handlers pass their traced client; built here only when none is given.
      client: client ?? new SecretsManagerClient({ region: config.region }),
      unavailable: (message: string, init?: { cause?: unknown }) =>
        new TokenSecretUnavailableError(message, init),
    };
    secretReaders = {
      current: secretReader(common),
      previous: optionalSecretReader({ ...common, versionStage: "AWSPREVIOUS" }),
    };
    readers.set(secretArn, secretReaders);
  }
  const [current, previous] = await Promise.all([
    secretReaders.current(options),
    secretReaders.previous(options),
  ]);
  return { current, previous };
}

/** Two audiences signing with one key would make their tokens interchangeable to whoever holds it. */
function refuseSharedKeys(keyring: TokenKeyring): void {
  const entries = Object.entries(keyring) as [TokenAudience, AudienceKeys][];
  entries.forEach(([audience, keys], index) => {
    const shared = entries.slice(index + 1).find(([, other]) => keyId(other.current) === keyId(keys.current));
    if (shared) {
      throw new TokenSecretUnavailableError(
        `the ${audience} and ${shared[0]} token keys are the same key: give each audience its own secret`,
      );
    }
  });
}
