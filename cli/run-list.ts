// `rewoo runs list`'s options as GET /v1/runs's query: the API checks every value (and names a wrong
// one in its 400); the CLI only maps its option names and expands --needs-you.
import { NEEDS_YOU_STATUSES } from "../lambdas/contracts/run-status.ts";
import type { RunListParams } from "./api-client.ts";

/** The options of `rewoo runs list` that choose runs. */
export interface RunListOptions {
  limit: number;
  status?: string;
  program?: string;
  classification?: string;
  from?: string;
  to?: string;
  /** A run id or a loan number (the API's q). */
  search?: string;
  cursor?: string;
  /** The runs that need a person: waiting for an answer or an approval, or ended and resumable. */
  needsYou?: boolean;
}

/** How far back --needs-you looks: a run left waiting or failed a month ago still needs someone. */
export const NEEDS_YOU_DAYS = 30;

export class RunListOptionError extends Error {
  override name = "RunListOptionError";
}

/** The query for these options; `now` gives --needs-you's first day (UTC). */
export function runListParams(options: RunListOptions, now: Date = new Date()): RunListParams {
  if (options.needsYou && options.status !== undefined) {
    throw new RunListOptionError("--needs-you chooses the statuses itself: leave out --status");
  }
  const needsYou = options.needsYou
    ? {
        // What "needs you" means, as statuses: the one list the dashboard's "Needs you" reads too.
        status: NEEDS_YOU_STATUSES.join(","),
        ...(options.from === undefined ? { from: firstDay(options.to, now) } : {}),
      }
    : {};
  const params: RunListParams = {
    limit: options.limit,
    ...(options.status !== undefined ? { status: options.status } : {}),
    ...(options.program !== undefined ? { loan_program: options.program } : {}),
    ...(options.classification !== undefined ? { classification: options.classification } : {}),
    ...(options.from !== undefined ? { from: options.from } : {}),
    ...(options.to !== undefined ? { to: options.to } : {}),
    ...(options.search !== undefined ? { q: options.search } : {}),
    ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
    ...needsYou,
  };
  return params;
}

/** Whether the options narrow the list beyond "the last 7 days". */
export function filtered(options: RunListOptions): boolean {
  return (
    [options.status, options.program, options.classification, options.from, options.to, options.search].some(
      (value) => value !== undefined,
    ) || options.needsYou === true
  );
}

/** The first of NEEDS_YOU_DAYS days ending on `to` (today when absent). */
function firstDay(to: string | undefined, now: Date): string {
  const last =
    to !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(to) ? Date.parse(`${to}T00:00:00Z`) : now.getTime();
  return new Date(last - (NEEDS_YOU_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
}
