// The SDK's default credential provider, for the Lambda bundles (infra/constructs/bundling.ts aliases
// `@aws-sdk/credential-provider-node` to this file). Lambda hands every function its role's
// credentials in the environment, the first link of the SDK's default chain; the other links (SSO,
// shared ini files, credential processes, web identity, container and instance metadata, and the
// STS/SSO clients they load) never run there, yet were ~100 KB of every bundle to parse at each cold
// start. Outside the bundles (the twin, the CLI, tests) the SDK's own chain is used.
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";

/** The environment variables Lambda sets with the execution role's credentials. */
export const LAMBDA_CREDENTIAL_VARIABLES = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"] as const;

/** Reads the credentials on every call: the SDK resolves identities per request and they are a few lookups. */
export function credentialsFromEnvironment(env: NodeJS.ProcessEnv = process.env): AwsCredentialIdentity {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new Error(
      `AWS credentials missing: expected ${LAMBDA_CREDENTIAL_VARIABLES.join(" and ")} in the environment, as Lambda sets them`,
    );
  }
  const expiration = env.AWS_CREDENTIAL_EXPIRATION;
  return {
    accessKeyId,
    secretAccessKey,
    ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    ...(expiration ? { expiration: new Date(expiration) } : {}),
    ...(env.AWS_ACCOUNT_ID ? { accountId: env.AWS_ACCOUNT_ID } : {}),
  };
}

/** What the SDK's clients call when no `credentials` are configured (the name they import). */
export const defaultProvider =
  (_init: unknown = {}): AwsCredentialIdentityProvider =>
  async () =>
    credentialsFromEnvironment();
