// The OpenAI API key in AWS: a Secrets Manager secret (OPENAI_API_KEY_SECRET_ARN, set and granted by
// the CDK stack), read with Powertools Parameters, which caches it in the container for a few minutes
// so a rotated key is picked up without a redeploy and without a Secrets Manager call per request.
// Locally OPENAI_API_KEY holds the key itself and this module is not used.
// Imported statically: a bundle without the OpenAI provider drops this module and Powertools Parameters
// with it, whereas a dynamic import here made esbuild keep the whole Secrets Manager client (every
// command, evaluated at import) in each bundle that also reads a secret, the API's and the worker's.
import { getSecret } from "@aws-lambda-powertools/parameters/secrets";

/** Seconds a read key is reused before Secrets Manager is asked again. */
export const OPENAI_KEY_MAX_AGE_SECONDS = 300;

export class OpenAiApiKeyUnavailableError extends Error {
  override name = "OpenAiApiKeyUnavailableError";
  /** The SDK's, when Secrets Manager answered with an error: a throttle or 5xx stays transient. */
  readonly $metadata?: { httpStatusCode?: number };
}

/** A function returning the key held by `secretId` (name or ARN), cached for OPENAI_KEY_MAX_AGE_SECONDS. */
export function openAiKeyFromSecret(secretId: string): () => Promise<string> {
  return async () => {
    let value: unknown;
    try {
      value = await getSecret(secretId, { maxAge: OPENAI_KEY_MAX_AGE_SECONDS });
    } catch (error) {
      // Powertools wraps the SDK's error (GetParameterError); its cause has the name and status.
      const cause = (error as { cause?: { name?: string; message?: string; $metadata?: object } }).cause;
      const reason = cause?.name ? `${cause.name}: ${cause.message}` : (error as Error).message;
      const failure = new OpenAiApiKeyUnavailableError(
        `cannot read the OpenAI API key from Secrets Manager secret ${secretId}: ${reason}`,
        { cause: error },
      );
      if (cause?.$metadata) Object.assign(failure, { $metadata: cause.$metadata });
      throw failure;
    }
    const key = keyOf(value);
    if (!key) {
      // Never echo the value: it is the secret.
      throw new OpenAiApiKeyUnavailableError(
        `the Secrets Manager secret ${secretId} holds no OpenAI API key: expected the key as a string, or JSON with "api_key"`,
      );
    }
    return key;
  };
}

/** The key as stored: a plain string (trailing newline from a file trimmed), or `{"api_key": "…"}`. */
function keyOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (!text.startsWith("{")) return text || undefined;
  try {
    const parsed = JSON.parse(text) as { api_key?: unknown };
    return typeof parsed.api_key === "string" && parsed.api_key.trim() ? parsed.api_key.trim() : undefined;
  } catch {
    return undefined;
  }
}
