// Types of findings.js for the CLI, which prints the same groups the dashboard draws.

/** The fields of a finding this module reads; anything else is carried through untouched. */
export interface FindingLike {
  id: string;
  status?: string;
  compartment?: string;
  priority?: string | number;
  [key: string]: unknown;
}

export interface FindingGroups<T> {
  /** False when no finding names a compartment: one group, `compartment` null. */
  grouped: boolean;
  /** `compartment` null: the findings without one (always last). */
  groups: Array<{ compartment: string | null; findings: T[] }>;
}

export function priorityRank(priority: unknown): number;
export function priorityLabel(priority: unknown): string | null;
export function priorityLevel(priority: unknown): "high" | "medium" | "low" | "unknown";
export function compartmentOf(finding: unknown): string | null;
export function judgedFindings<T extends FindingLike>(
  result: { fulfilled_conditions?: readonly T[]; unfulfilled_conditions?: readonly T[] } | null | undefined,
): Array<T & { status: string }>;
export function applicableFindings<T extends FindingLike>(
  result: { applicable_conditions?: readonly T[] } | null | undefined,
): T[] | null;
export function interpretationOf(result: { interpretation?: unknown } | null | undefined): string | null;
export function groupFindings<T extends FindingLike>(
  findings: readonly T[] | null | undefined,
): FindingGroups<T>;

/** "plan review 9/10, approved" / "result review 3/10, needs review: <first issue> (+N more)". */
export function reviewSummary(target: "plan" | "result", review: unknown): string;

/** "replanned (attempt 1): <reason>" for a replan event, the failed steps when it has no reason. */
export function replanSummary(event: { attempt?: unknown; reason?: unknown; failed_steps?: unknown }): string;
