// Step ids are `E<n>`. Ordering is by n, never by string, so that E2 sorts before E10.

export const STEP_ID_PATTERN = /^E[1-9][0-9]*$/;

export function isStepId(id: string): boolean {
  return STEP_ID_PATTERN.test(id);
}

/** The number of a well-formed id; malformed ids get +Infinity so they sort after every real step. */
export function stepNumber(id: string): number {
  return isStepId(id) ? Number(id.slice(1)) : Number.POSITIVE_INFINITY;
}

export function compareStepIds(a: string, b: string): number {
  const byNumber = stepNumber(a) - stepNumber(b);
  // Infinity - Infinity is NaN: two malformed ids fall back to string order to stay deterministic.
  if (byNumber !== 0 && !Number.isNaN(byNumber)) return byNumber;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortStepIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort(compareStepIds);
}

/** Planners write `#E1`, ` E1 ` or `E1`; they all mean the same step. */
export function normalizeStepId(id: string): string {
  return id.trim().replace(/^#/, "");
}
