// A run's statuses and the groups every part of the house reads them by: the handlers, the stores,
// the CLI and the twin import them from here (lambdas/core/types.ts re-exports them). The dashboard
// is served as plain files and cannot import TypeScript: dashboard/run-status.js repeats these lists
// and a unit test (test/unit/contracts/run-status.test.ts) holds the two equal. Imports nothing.

/** Every status a run can be in, in the order a run usually passes through them. */
export const RUN_STATUSES = [
  "PLANNING",
  "RUNNING",
  "SOLVING",
  "SUCCEEDED",
  "FAILED",
  "CANCELLED",
  "INTERRUPTED",
  "NEEDS_REVIEW",
  "AWAITING_INPUT",
  "AWAITING_APPROVAL",
  "REJECTED",
] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];

const TERMINAL = ["SUCCEEDED", "FAILED", "CANCELLED", "INTERRUPTED", "NEEDS_REVIEW", "REJECTED"] as const;

/**
 * A run in one of these has ended: its `complete` event is published and nothing moves it on.
 * NEEDS_REVIEW: it ran to the end but a reviewer scored its plan or result below the threshold.
 * REJECTED: an operator rejected its plan (or approved nothing in time); no tool ran.
 */
export const TERMINAL_STATUSES: readonly RunStatus[] = TERMINAL;
export type TerminalStatus = (typeof TERMINAL)[number];

/** The terminal statuses as a non-empty tuple, for schemas that enumerate them (zod's `z.enum`). */
export const TERMINAL_STATUS_TUPLE: typeof TERMINAL = TERMINAL;

export function isTerminal(status: RunStatus): status is TerminalStatus {
  return TERMINAL_STATUSES.includes(status);
}

/** A run in one of these is in flight: some execution is (or was, if its process died) driving it. */
export const UNFINISHED_STATUSES: readonly RunStatus[] = [
  "PLANNING",
  "RUNNING",
  "SOLVING",
  "AWAITING_INPUT",
  "AWAITING_APPROVAL",
];

/** Statuses in which the run's execution waits for a person (a task token is stored on the run). */
export const WAITING_STATUSES: readonly RunStatus[] = ["AWAITING_INPUT", "AWAITING_APPROVAL"];

/**
 * Ended runs that `POST /v1/runs/{run_id}/resume` may redrive: the work already done (plan, ok
 * evidence, result) is kept and the rest runs again. SUCCEEDED has nothing left to do and
 * CANCELLED was somebody's decision.
 */
export const RESUMABLE_STATUSES: readonly RunStatus[] = ["FAILED", "INTERRUPTED"];

/** What "needs you" means to a person looking at runs: the run waits for them, or it can be resumed. */
export const NEEDS_YOU_STATUSES: readonly RunStatus[] = [...WAITING_STATUSES, ...RESUMABLE_STATUSES];
