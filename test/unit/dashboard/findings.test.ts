// The arrangement of findings the dashboard draws and the CLI prints: compartments ordered by their
// most urgent finding, findings by priority (high > medium > low, 1 > 2 > 3, unknown last).
import { describe, expect, it } from "vitest";
import {
  applicableFindings,
  groupFindings,
  interpretationOf,
  judgedFindings,
  priorityLabel,
  priorityLevel,
  priorityRank,
} from "../../../dashboard/findings.js";

const ids = (groups: ReturnType<typeof groupFindings>["groups"]) =>
  groups.map((group) => [group.compartment, group.findings.map((finding) => finding.id)]);

describe("priorityRank", () => {
  it("ranks words and numbers alike, 1 the highest, anything else last", () => {
    expect(["high", "Medium", " low ", 1, 2, 3, "1", "3"].map(priorityRank)).toEqual([
      1, 2, 3, 1, 2, 3, 1, 3,
    ]);
    for (const unknown of [undefined, null, 0, 4, 1.5, "urgent", "", {}, Number.NaN]) {
      expect(priorityRank(unknown), String(unknown)).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it("labels numbers as P1…P3 and keeps words, lower-cased", () => {
    expect([1, "2", "HIGH", "urgent", undefined, "  ", {}].map(priorityLabel)).toEqual([
      "P1",
      "P2",
      "high",
      "urgent",
      null,
      null,
      null,
    ]);
    expect(["high", 2, "low", "urgent"].map(priorityLevel)).toEqual(["high", "medium", "low", "unknown"]);
  });
});

describe("groupFindings", () => {
  it("orders compartments by their most urgent finding, then findings by priority within each", () => {
    const { grouped, groups } = groupFindings([
      { id: "C_LOW", compartment: "Credit", priority: "low" },
      { id: "I_MED", compartment: "Income", priority: "medium" },
      { id: "A_HIGH", compartment: "Assets", priority: 1 },
      { id: "I_HIGH", compartment: "Income", priority: "high" },
      { id: "C_MED", compartment: "Credit", priority: 2 },
      { id: "A_LOW", compartment: "Assets", priority: 3 },
    ]);
    expect(grouped).toBe(true);
    expect(ids(groups)).toEqual([
      // Income and Assets both hold a priority-1 finding: the one named first comes first.
      ["Income", ["I_HIGH", "I_MED"]],
      ["Assets", ["A_HIGH", "A_LOW"]],
      ["Credit", ["C_MED", "C_LOW"]],
    ]);
  });

  it("puts findings without a priority last in their compartment, without a compartment in a last group", () => {
    const { groups } = groupFindings([
      { id: "LOOSE", priority: "high" },
      { id: "I_NONE", compartment: "Income" },
      { id: "I_LOW", compartment: "Income", priority: "low" },
      { id: "I_ODD", compartment: "Income", priority: "urgent" },
      { id: "C_LOW", compartment: " Credit ", priority: "low" },
    ]);
    expect(ids(groups)).toEqual([
      ["Income", ["I_LOW", "I_NONE", "I_ODD"]],
      ["Credit", ["C_LOW"]],
      [null, ["LOOSE"]],
    ]);
  });

  it("within one priority, lists what needs attention first, then the solver's order", () => {
    const { groups } = groupFindings([
      { id: "OK", compartment: "Compliance", priority: "high", status: "fulfilled" },
      { id: "MISSING", compartment: "Compliance", priority: "high", status: "insufficient_evidence" },
      { id: "NO", compartment: "Compliance", priority: "high", status: "not_fulfilled" },
      { id: "NO_LOW", compartment: "Compliance", priority: "low", status: "not_fulfilled" },
    ]);
    expect(ids(groups)).toEqual([["Compliance", ["NO", "MISSING", "OK", "NO_LOW"]]]);
  });

  it("leaves a result from before compartments as one ungrouped list in the old order", () => {
    const result = {
      fulfilled_conditions: [{ id: "A" }, { id: "B" }],
      unfulfilled_conditions: [{ id: "C", status: "insufficient_evidence" }, { id: "D" }],
    };
    const { grouped, groups } = groupFindings(judgedFindings(result));
    expect(grouped).toBe(false);
    expect(ids(groups)).toEqual([[null, ["D", "C", "A", "B"]]]);
  });

  it("skips entries that are not findings and copes with no list at all", () => {
    expect(ids(groupFindings([null, "TR_SIGNED", [], { id: "X", compartment: 5 }] as never).groups)).toEqual([
      [null, ["X"]],
    ]);
    expect(groupFindings(undefined)).toEqual({ grouped: false, groups: [] });
  });
});

describe("result fields", () => {
  it("implies each judged finding's status from its list unless it names one", () => {
    expect(
      judgedFindings({
        fulfilled_conditions: [{ id: "A" }],
        unfulfilled_conditions: [{ id: "B" }, { id: "C", status: "insufficient_evidence" }],
      }).map((finding) => [finding.id, finding.status]),
    ).toEqual([
      ["B", "not_fulfilled"],
      ["C", "insufficient_evidence"],
      ["A", "fulfilled"],
    ]);
    expect(judgedFindings(undefined)).toEqual([]);
  });

  it("reads the applicable conditions and the interpretation only when they have the right shape", () => {
    expect(applicableFindings({ applicable_conditions: [{ id: "TR_SIGNED", reason: "1120" }] })).toEqual([
      { id: "TR_SIGNED", reason: "1120" },
    ]);
    expect(applicableFindings({ applicable_conditions: [] })).toEqual([]);
    expect(applicableFindings({})).toBeNull();
    expect(applicableFindings({ applicable_conditions: "TR_SIGNED" as never })).toBeNull();
    expect(interpretationOf({ interpretation: "  Judging only TR_SIGNED.  " })).toBe(
      "Judging only TR_SIGNED.",
    );
    expect(interpretationOf({ interpretation: "" })).toBeNull();
    expect(interpretationOf({ interpretation: 3 })).toBeNull();
    expect(interpretationOf(undefined)).toBeNull();
  });
});
