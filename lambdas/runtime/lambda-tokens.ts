// The SDK's bearer-token providers, for the Lambda bundles (infra/constructs/bundling.ts aliases
// `@aws-sdk/token-providers` to this file). The Bedrock client signs with a bearer token only when one
// is configured; the SDK looks in the environment (AWS_BEARER_TOKEN_BEDROCK), then in an SSO session
// of the shared config files, whose OIDC client (~40 KB) every Bedrock bundle parsed at each cold
// start. A Lambda function has no SSO session, so here the environment is the only source.
import type { TokenIdentity, TokenIdentityProvider } from "@smithy/types";

/** The variable the SDK reads a service's bearer token from (`bedrock` → AWS_BEARER_TOKEN_BEDROCK). */
export function bearerTokenVariable(signingName: string): string {
  return `AWS_BEARER_TOKEN_${signingName.replace(/[\s-]/g, "_").toUpperCase()}`;
}

/** The token in the service's variable (the SDK's `fromEnvSigningName`). */
export const fromEnvSigningName =
  ({ signingName }: { signingName?: string } = {}): TokenIdentityProvider =>
  async (): Promise<TokenIdentity> => {
    if (!signingName) throw new Error("a bearer token needs the service's signing name");
    const variable = bearerTokenVariable(signingName);
    const token = process.env[variable];
    if (token === undefined) throw new Error(`no bearer token: ${variable} is not set`);
    return { token };
  };

/** The SDK's fallback after the environment: SSO sessions, which a Lambda function does not have. */
export const nodeProvider =
  (_init: unknown = {}): TokenIdentityProvider =>
  async () => {
    throw new Error("no bearer token: Lambda functions have no SSO session to take one from");
  };
