// What the CLI says at boot about the runs the last twin left behind: the ones resumed or ended
// INTERRUPTED, and apart from them the ones that wait for a person (resumed only into their wait).
import { describe, expect, it } from "vitest";
import { recoveryLines } from "../../../cli/local.ts";
import type { RecoveredRun } from "../../../infra/local/twin.ts";

const recovered = (run_id: string, outcome: RecoveredRun["outcome"], status: RecoveredRun["status"]) => ({
  run_id,
  outcome,
  status,
  detail: "",
});

describe("recoveryLines", () => {
  it("counts the runs that were moving, and names the ones that wait for a person apart", () => {
    expect(
      recoveryLines([
        recovered("run-a", "resumed", "RUNNING"),
        recovered("run-b", "resumed", "AWAITING_INPUT"),
        recovered("run-c", "interrupted", "SOLVING"),
        recovered("run-d", "resumed", "AWAITING_APPROVAL"),
        recovered("run-e", "resumed", "PLANNING"),
      ]),
    ).toEqual([
      "3 runs were in flight when the last twin stopped: 2 resumed, 1 ended INTERRUPTED",
      "2 runs wait for a person, as before the last twin stopped (not resumed: they wait for an answer or a decision): run-b AWAITING_INPUT, run-d AWAITING_APPROVAL; npx rewoo runs list --needs-you --local",
    ]);
  });

  it("says only what happened: one waiting run, one resumed run, or nothing", () => {
    expect(recoveryLines([recovered("run-b", "resumed", "AWAITING_INPUT")])).toEqual([
      "1 run waits for a person, as before the last twin stopped (not resumed: it waits for an answer or a decision): run-b AWAITING_INPUT; npx rewoo runs list --needs-you --local",
    ]);
    expect(recoveryLines([recovered("run-a", "resumed", "RUNNING")])).toEqual([
      "1 run was in flight when the last twin stopped: 1 resumed, 0 ended INTERRUPTED",
    ]);
    // A waiting run that could not be taken back to its wait ended INTERRUPTED: it is counted so.
    expect(recoveryLines([recovered("run-b", "interrupted", "AWAITING_INPUT")])).toEqual([
      "1 run was in flight when the last twin stopped: 0 resumed, 1 ended INTERRUPTED",
    ]);
    expect(recoveryLines([])).toEqual([]);
  });
});
