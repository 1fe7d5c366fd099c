// Infrastructure faults that are worth another try (throttling, 5xx, timeouts, dropped connections)
// become one named error, `Rewoo.TransientError`, which every Task's Retry in the state machine
// matches with backoff. The SDK retries them a few times first; this is what happens after that.
// Anything else still fails the state (Catch → HandleFailure): retrying a bug only repeats it.

export const TRANSIENT_ERROR_NAME = "Rewoo.TransientError";

export class TransientInfrastructureError extends Error {
  override name = TRANSIENT_ERROR_NAME;
  constructor(cause: unknown) {
    const inner = cause as { name?: string; message?: string };
    super(
      `${inner?.name ?? "Error"}: ${inner?.message ?? String(cause)} (transient; the workflow retries it)`,
      {
        cause,
      },
    );
  }
}

const TRANSIENT_NAMES = new Set([
  "ProvisionedThroughputExceededException",
  "ThrottlingException",
  "Throttling",
  "RequestLimitExceeded",
  "TooManyRequestsException",
  "SlowDown",
  "ServiceUnavailable",
  "InternalServerError",
  "InternalError",
  "RequestTimeout",
  "RequestTimeoutException",
  "TimeoutError",
  "TransactionInProgressException",
  // Textract: too many asynchronous jobs running in the account at once.
  "LimitExceededException",
  // S3: another conditional write of the same key is in flight; once it lands, the retry sees it.
  "ConditionalRequestConflict",
]);
const TRANSIENT_CODES =
  /Throttl|ServiceUnavailable|Timeout|ECONNRESET|ECONNREFUSED|ENOTFOUND|EPIPE|ETIMEDOUT|EAI_AGAIN|socket hang up/i;

export function isTransient(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const candidate = error as {
    name?: string;
    code?: string;
    message?: string;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  if (candidate.name === TRANSIENT_ERROR_NAME) return true;
  if (candidate.$retryable !== undefined) return true;
  if (candidate.name && TRANSIENT_NAMES.has(candidate.name)) return true;
  const status = candidate.$metadata?.httpStatusCode;
  if (status !== undefined && (status === 429 || status >= 500)) return true;
  return TRANSIENT_CODES.test(`${candidate.name ?? ""} ${candidate.code ?? ""} ${candidate.message ?? ""}`);
}

/** What a handler throws: transient faults under the one name the state machine retries. */
export function forStateMachine(error: unknown): unknown {
  return isTransient(error) && !(error instanceof TransientInfrastructureError)
    ? new TransientInfrastructureError(error)
    : error;
}
