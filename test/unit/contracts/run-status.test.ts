// The run statuses have one definition (lambdas/contracts/run-status.ts); the dashboard, served as
// plain files, repeats the lists in dashboard/run-status.js. These tests hold the two equal and the
// groups consistent, so a status added on one side and not the other fails here.
import { describe, expect, it } from "vitest";
import {
  isTerminal,
  NEEDS_YOU_STATUSES,
  RESUMABLE_STATUSES,
  RUN_STATUSES,
  TERMINAL_STATUS_TUPLE,
  TERMINAL_STATUSES,
  UNFINISHED_STATUSES,
  WAITING_STATUSES,
} from "../../../lambdas/contracts/run-status.ts";

type Lists = Record<
  | "RUN_STATUSES"
  | "TERMINAL_STATUSES"
  | "UNFINISHED_STATUSES"
  | "WAITING_STATUSES"
  | "RESUMABLE_STATUSES"
  | "NEEDS_YOU_STATUSES",
  readonly string[]
>;
const modulePath = (name: string) => `../../../dashboard/${name}`;
const dashboard = (await import(modulePath("run-status.js"))) as Lists;
const runState = (await import(modulePath("run-state.js"))) as {
  TERMINAL: Set<string>;
  WAITING: Set<string>;
};

const CONTRACT: Lists = {
  RUN_STATUSES,
  TERMINAL_STATUSES,
  UNFINISHED_STATUSES,
  WAITING_STATUSES,
  RESUMABLE_STATUSES,
  NEEDS_YOU_STATUSES,
};
const NAMES = Object.keys(CONTRACT) as (keyof Lists)[];

describe("run statuses", () => {
  it.each(NAMES)("the dashboard's %s is the contract's, in the same order", (name) => {
    expect(dashboard[name]).toEqual([...CONTRACT[name]]);
  });

  it("the dashboard's run state reads the same terminal and waiting statuses", () => {
    expect([...runState.TERMINAL]).toEqual([...TERMINAL_STATUSES]);
    expect([...runState.WAITING]).toEqual([...WAITING_STATUSES]);
  });

  it("every status has ended or is in flight, never both", () => {
    const ended = new Set(TERMINAL_STATUSES);
    const inFlight = new Set(UNFINISHED_STATUSES);
    for (const status of RUN_STATUSES) {
      expect(ended.has(status) !== inFlight.has(status), status).toBe(true);
    }
    expect(ended.size + inFlight.size).toBe(RUN_STATUSES.length);
  });

  it("waiting runs are in flight, resumable runs have ended, and isTerminal agrees with the list", () => {
    for (const status of WAITING_STATUSES) expect(UNFINISHED_STATUSES).toContain(status);
    for (const status of RESUMABLE_STATUSES) expect(isTerminal(status), status).toBe(true);
    expect(RUN_STATUSES.filter(isTerminal)).toEqual([...TERMINAL_STATUSES]);
    expect(new Set(TERMINAL_STATUS_TUPLE)).toEqual(new Set(TERMINAL_STATUSES));
  });
});
