// How long the current invocation may still run, for work deep inside a tool that can stop early
// and be retried (a Textract job still running). The worker sets it from the Lambda context and
// narrows it to the tool's own timeout; the OCR engine reads it without every layer in between
// passing it along. AsyncLocalStorage keeps concurrent invocations apart (the local twin runs many
// in one process).
import { AsyncLocalStorage } from "node:async_hooks";

const budgets = new AsyncLocalStorage<() => number>();

/** Runs `work` with at most `remainingMs()` milliseconds left; inside another budget, the tighter one holds. */
export function withTimeBudget<T>(remainingMs: () => number, work: () => T): T {
  const outer = budgets.getStore();
  const budget = outer ? () => Math.min(outer(), remainingMs()) : remainingMs;
  return budgets.run(budget, work);
}

/** Milliseconds left in the current budget; Infinity outside any (tests, the CLI, a twin without a context). */
export function remainingTimeBudgetMs(): number {
  return budgets.getStore()?.() ?? Number.POSITIVE_INFINITY;
}
