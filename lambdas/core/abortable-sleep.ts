// The one wait that gives way to an abort: retries' backoff (the lender's clients, the OpenAI
// provider) and a tool's injected latency (the worker). It only waits on a timer.

/**
 * Waits `ms` milliseconds, or until `signal` aborts, whichever comes first; it never rejects. A
 * caller that must not go on after an abort checks the signal (`signal.throwIfAborted()`).
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
