// Event patterns, as EventBridge rules and Lambda event-source filters write them, for the twin's
// emulations of both. The subset the project's patterns use: nested objects, lists of accepted
// values, and `{"prefix": "..."}`.
export type EventPattern = {
  readonly [key: string]: EventPattern | ReadonlyArray<string | { prefix: string }>;
};

/** Every key of the pattern must match; a list accepts any of its values. */
export function matches(pattern: EventPattern, value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const object = value as Record<string, unknown>;
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = object[key];
    if (!Array.isArray(expected)) return matches(expected as EventPattern, actual);
    return expected.some((option) =>
      typeof option === "string"
        ? actual === option
        : typeof actual === "string" && actual.startsWith(option.prefix),
    );
  });
}
