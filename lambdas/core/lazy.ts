// Values built on first use instead of when their module loads: a Lambda function pays for its
// bundle's module-level work on every cold start, whether or not the invocation needs it, and a zod
// schema costs far more to build than a plain constant. Call sites mark the call `/* @__PURE__ */`:
// esbuild then drops a lazily built value, and what only it uses, from a bundle that never reads it.
// Pure.

/** `build()`'s value, built the first time the returned function is called and kept for later calls. */
export function lazily<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
