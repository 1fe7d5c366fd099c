// A run's statuses and their groups, for the page. The one definition is
// lambdas/contracts/run-status.ts; the page is served as plain files and cannot import TypeScript,
// so this file repeats its lists and test/unit/contracts/run-status.test.ts holds the two equal.

/** Every status a run can be in. */
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
];
/** The run has ended: nothing moves it on. */
export const TERMINAL_STATUSES = [
  "SUCCEEDED",
  "FAILED",
  "CANCELLED",
  "INTERRUPTED",
  "NEEDS_REVIEW",
  "REJECTED",
];
/** Some execution is (or was) driving the run. */
export const UNFINISHED_STATUSES = ["PLANNING", "RUNNING", "SOLVING", "AWAITING_INPUT", "AWAITING_APPROVAL"];
/** The run waits for a person. */
export const WAITING_STATUSES = ["AWAITING_INPUT", "AWAITING_APPROVAL"];
/** The run ended and may be resumed. */
export const RESUMABLE_STATUSES = ["FAILED", "INTERRUPTED"];
/** The run needs a person: it waits for one, or it can be resumed. */
export const NEEDS_YOU_STATUSES = [...WAITING_STATUSES, ...RESUMABLE_STATUSES];
