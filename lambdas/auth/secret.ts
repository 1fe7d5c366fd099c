// The HMAC secret behind subscribe and operator tokens (tokens.ts), shared by the REST start
// handler (mints) and the WebSocket $connect authorizer (verifies). Locally it is configured
// directly (REWOO_TOKEN_SECRET); in AWS it lives in Secrets Manager (REWOO_TOKEN_SECRET_ARN) and is
// read on first use and reused for an hour (lambdas/secrets/reader.ts), so it is never in the
// function's environment or template.
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { SecretUnavailableError, secretReader } from "../secrets/reader.ts";

/** Same floor as REWOO_TOKEN_SECRET in config.ts: shorter HMAC keys are guessable. */
export const MIN_TOKEN_SECRET_LENGTH = 32;

export class TokenSecretUnavailableError extends SecretUnavailableError {
  override name = "TokenSecretUnavailableError";
}

/** The configuration this needs (the runtime's Config has it): the region and the API's secret settings. */
export interface TokenSecretConfig {
  region: string;
  api: { tokenSecret?: string | undefined; tokenSecretArn?: string | undefined };
}

let reader: { secretId: string; read: () => Promise<string> } | undefined;

/**
 * The token secret: the configured one, or the Secrets Manager secret's value (cached; a failed read
 * is not, so the next invocation tries again instead of the container failing until it is recycled).
 */
export function loadTokenSecret(config: TokenSecretConfig, client?: SecretsManagerClient): Promise<string> {
  const { tokenSecret, tokenSecretArn } = config.api;
  if (tokenSecret) return Promise.resolve(tokenSecret);
  if (!tokenSecretArn) {
    return Promise.reject(
      new TokenSecretUnavailableError(
        "no token secret configured: set REWOO_TOKEN_SECRET (local) or REWOO_TOKEN_SECRET_ARN (Secrets Manager)",
      ),
    );
  }
  if (reader?.secretId !== tokenSecretArn) {
    reader = {
      secretId: tokenSecretArn,
      read: secretReader({
        secretId: tokenSecretArn,
        what: "the token secret",
        region: config.region,
        minLength: MIN_TOKEN_SECRET_LENGTH,
        // The handlers pass their traced client; built here only when none is given.
        client: client ?? new SecretsManagerClient({ region: config.region }),
        unavailable: (message, init) => new TokenSecretUnavailableError(message, init),
      }),
    };
  }
  return reader.read();
}

/** Tests switch configurations within one process; Lambda never needs this. */
export function resetTokenSecretCache(): void {
  reader = undefined;
}
