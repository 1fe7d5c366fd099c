// The plain text `rewoo evaluate` prints: one line per progress event, and the final run record
// (interpretation first, findings grouped by compartment, most urgent first, applicable conditions).
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { formatEvent, formatRunRecord } from "../../../cli/progress.ts";
import type { ProgressEvent, RunRecord, RunResult } from "../../../lambdas/core/types.ts";
import { RUN_ID, replannedRunEvents, runRecord } from "./stub-api.ts";

const plain = (lines: string[]) => lines.map((line) => stripVTControlCharacters(line));

function recordWith(result: RunResult, extra: Partial<RunRecord> = {}): RunRecord {
  return { ...runRecord("SUCCEEDED"), result, ...extra };
}

const emptyResult: RunResult = {
  summary: "",
  fulfilled_conditions: [],
  unfulfilled_conditions: [],
  missing_information: [],
  recommendations: [],
};

describe("formatRunRecord: where the plan came from", () => {
  it("says a cached plan was used, in the heading and beside the LLM usage", () => {
    const lines = plain(formatRunRecord(recordWith(emptyResult, { plan_source: "cache" })));
    expect(lines[1]).toBe(`Run ${RUN_ID}: SUCCEEDED · cached plan`);
    expect(lines.at(-1)).toMatch(/ · plan: cached \(no planner call\) · LLM usage: /);
  });

  it("names the planner when it planned, and nothing for records without the field", () => {
    const planned = plain(formatRunRecord(recordWith(emptyResult, { plan_source: "planner" })));
    expect(planned[1]).toBe(`Run ${RUN_ID}: SUCCEEDED`);
    expect(planned.at(-1)).toMatch(/ · plan: planner · LLM usage: /);
    expect(plain(formatRunRecord(recordWith(emptyResult))).at(-1)).not.toContain("plan:");
  });
});

describe("formatEvent", () => {
  it("says plainly that the planner planned again, and why", () => {
    const replan = replannedRunEvents().find((event) => event.stage === "replan");
    expect(replan).toBeDefined();
    expect(plain(formatEvent(replan as ProgressEvent))).toEqual([
      "REPLAN  replanned (attempt 1): E3 call_conditions_ai_api failed: Conditions AI answered 500",
    ]);
  });

  it("names the failed steps when the replan event carries no reason", () => {
    const event = {
      stage: "replan",
      attempt: 2,
      reason: "",
      failed_steps: ["E3", "E5"],
      run_id: RUN_ID,
      seq: 9,
      timestamp: "2026-01-01T12:00:09.000Z",
    } as ProgressEvent;
    expect(plain(formatEvent(event))).toEqual(["REPLAN  replanned (attempt 2): E3, E5 failed"]);
  });

  it("prints the second plan of a replanned run like the first", () => {
    const plans = replannedRunEvents().filter((event) => event.stage === "plan");
    expect(plans).toHaveLength(2);
    expect(plain(formatEvent(plans[1] as ProgressEvent)).slice(0, 3)).toEqual([
      "PLAN    3 steps in 2 dependency levels",
      "  level 0: E1, E2",
      "  level 1: E4",
    ]);
  });

  it("names a stage it does not know instead of failing (a newer server)", () => {
    const event = { stage: "audit", run_id: RUN_ID, seq: 3, timestamp: "2026-01-01T12:00:03.000Z" };
    expect(plain(formatEvent(event as unknown as ProgressEvent))).toEqual(["EVENT   audit"]);
  });
});

describe("formatRunRecord", () => {
  it("prints a run from before compartments exactly as before: fulfilled, then not fulfilled", () => {
    const record = recordWith({
      ...emptyResult,
      summary: "1 of 2 conditions fulfilled",
      fulfilled_conditions: [
        {
          id: "TR_SIGNED",
          title: "Signed",
          reason: "signed by Jane",
          citations: [{ document: "a.pdf", page: 2, excerpt: "Jane   Doe" }],
        },
      ],
      unfulfilled_conditions: [{ id: "TR_EIN_MATCH", status: "insufficient_evidence", reason: "no EIN" }],
      missing_information: ["the EIN"],
    });
    expect(plain(formatRunRecord(record))).toEqual([
      "",
      `Run ${RUN_ID}: SUCCEEDED`,
      "",
      "Summary",
      "  1 of 2 conditions fulfilled",
      "",
      "Fulfilled",
      "  TR_SIGNED: fulfilled — Signed",
      "      signed by Jane",
      '      ↳ a.pdf p.2 "Jane Doe"',
      "",
      "Not fulfilled / insufficient evidence",
      "  TR_EIN_MATCH: insufficient_evidence",
      "      no EIN",
      "",
      "Missing information",
      "  - the EIN",
      "",
      "Evidence: 0 ok, 0 failed · LLM usage: 2 calls, 100 input + 50 output tokens",
    ]);
  });

  it("reads the instructions first, then groups by compartment, most urgent compartment and finding first", () => {
    const record = recordWith(
      {
        ...emptyResult,
        interpretation: "Judging every condition of the tax return and the bank statements.",
        summary: "3 of 5 conditions fulfilled",
        fulfilled_conditions: [
          { id: "BS_NO_NSF", title: "No NSF fees", compartment: "Credit", priority: "medium" },
          { id: "TR_COMPLETE", title: "Complete", compartment: "Compliance", priority: "medium" },
          { id: "BS_TWO_MONTHS", title: "Two months", compartment: "Assets", priority: "high" },
        ],
        unfulfilled_conditions: [
          { id: "TR_EIN_MATCH", status: "not_fulfilled", compartment: "Compliance", priority: "low" },
          { id: "TR_SIGNED", status: "not_fulfilled", compartment: "Compliance", priority: "high" },
        ],
      },
      { replans: 1 },
    );
    expect(plain(formatRunRecord(record)).slice(0, 21)).toEqual([
      "",
      `Run ${RUN_ID}: SUCCEEDED · replanned ×1`,
      "",
      "Instructions read as",
      "  Judging every condition of the tax return and the bank statements.",
      "",
      "Summary",
      "  3 of 5 conditions fulfilled",
      // Compliance and Assets both hold a high-priority finding: the solver named Compliance first.
      "",
      "Compliance · 1 of 3 fulfilled",
      "  TR_SIGNED: not_fulfilled [high]",
      "  TR_COMPLETE: fulfilled — Complete [medium]",
      "  TR_EIN_MATCH: not_fulfilled [low]",
      "",
      "Assets · 1 of 1 fulfilled",
      "  BS_TWO_MONTHS: fulfilled — Two months [high]",
      "",
      "Credit · 1 of 1 fulfilled",
      "  BS_NO_NSF: fulfilled — No NSF fees [medium]",
      "",
      "Evidence: 0 ok, 0 failed · LLM usage: 2 calls, 100 input + 50 output tokens",
    ]);
  });

  it("orders numeric priorities (1 highest) and puts findings without a compartment or priority last", () => {
    const record = recordWith({
      ...emptyResult,
      summary: "",
      fulfilled_conditions: [
        { id: "X_NONE", compartment: "Income" },
        { id: "X_LOOSE", priority: 1 },
        { id: "X_THREE", compartment: "Income", priority: 3 },
        { id: "X_ODD", compartment: "Income", priority: "urgent" },
        { id: "X_ONE", compartment: "Credit", priority: 1 },
      ],
    });
    const lines = plain(formatRunRecord(record)).filter((line) => /^\S|^ {2}X_/.test(line));
    expect(lines).toEqual([
      `Run ${RUN_ID}: SUCCEEDED`,
      "Summary",
      "Credit · 1 of 1 fulfilled",
      "  X_ONE: fulfilled [P1]",
      "Income · 3 of 3 fulfilled",
      "  X_THREE: fulfilled [P3]",
      // Unknown priorities keep their word but sort with the absent ones, in the solver's order.
      "  X_NONE: fulfilled",
      "  X_ODD: fulfilled [urgent]",
      "Other · 1 of 1 fulfilled",
      "  X_LOOSE: fulfilled [P1]",
      "Evidence: 0 ok, 0 failed · LLM usage: 2 calls, 100 input + 50 output tokens",
    ]);
  });

  it("lists the conditions that apply, unjudged, grouped the same way with their reasons", () => {
    const record = recordWith({
      ...emptyResult,
      interpretation: "Listing the conditions that apply; nothing is judged.",
      summary: "3 conditions apply",
      applicable_conditions: [
        {
          id: "BS_NO_NSF",
          title: "No NSF fees",
          compartment: "Credit",
          priority: "medium",
          reason: "bank file",
        },
        {
          id: "TR_TAX_YEAR",
          title: "Tax year",
          compartment: "Compliance",
          priority: "medium",
          reason: "1120",
        },
        { id: "TR_SIGNED", title: "Signed", compartment: "Compliance", priority: "high", reason: "1120" },
      ],
    });
    expect(plain(formatRunRecord(record)).slice(2, 18)).toEqual([
      "",
      "Instructions read as",
      "  Listing the conditions that apply; nothing is judged.",
      "",
      "Summary",
      "  3 conditions apply",
      "",
      "Conditions that apply (not judged)",
      "  Compliance",
      "    TR_SIGNED — Signed [high]",
      "        1120",
      "    TR_TAX_YEAR — Tax year [medium]",
      "        1120",
      "  Credit",
      "    BS_NO_NSF — No NSF fees [medium]",
      "        bank file",
    ]);
  });

  it("ignores fields of an unexpected type instead of failing", () => {
    const record = recordWith(
      {
        ...emptyResult,
        summary: "odd record",
        interpretation: 42 as unknown as string,
        applicable_conditions: "none" as unknown as [],
        fulfilled_conditions: [
          { id: "TR_SIGNED", compartment: 7 as unknown as string, priority: null as never },
        ],
      },
      { replans: -1 },
    );
    expect(plain(formatRunRecord(record)).slice(0, 10)).toEqual([
      "",
      `Run ${RUN_ID}: SUCCEEDED`,
      "",
      "Summary",
      "  odd record",
      "",
      "Fulfilled",
      "  TR_SIGNED: fulfilled",
      "",
      "Evidence: 0 ok, 0 failed · LLM usage: 2 calls, 100 input + 50 output tokens",
    ]);
  });
});

describe("formatRunRecord's usage line", () => {
  it("names the models that answered when the run recorded them (a fallback model included)", () => {
    const record = recordWith(emptyResult, {
      usage: {
        llm_calls: 2,
        input_tokens: 100,
        output_tokens: 50,
        models: ["amazon.nova-pro-v1:0", "us.anthropic.claude-sonnet-4-20250514-v1:0"],
      },
    });
    expect(plain(formatRunRecord(record)).at(-1)).toBe(
      "Evidence: 0 ok, 0 failed · LLM usage: 2 calls, 100 input + 50 output tokens (amazon.nova-pro-v1:0, us.anthropic.claude-sonnet-4-20250514-v1:0)",
    );
  });
});

describe("formatRunRecord of a run that can be resumed", () => {
  const failed = (extra: Partial<RunRecord>): RunRecord => ({
    ...runRecord("FAILED"),
    error: { error: "PlanError", cause: "no plan in the planner's answer" },
    ...extra,
  });

  it("says the command that resumes a FAILED or INTERRUPTED run, for where the run lives", () => {
    expect(
      plain(formatRunRecord(failed({}), { address: { local: true, dataDir: "/tmp/d" } })).slice(1, 4),
    ).toEqual([
      `Run ${RUN_ID}: FAILED`,
      "  PlanError: no plan in the planner's answer",
      `  resume: REWOO_DATA_DIR=/tmp/d npx rewoo runs resume ${RUN_ID} --local (finished steps are not run again)`,
    ]);
    const interrupted = failed({ status: "INTERRUPTED" });
    expect(plain(formatRunRecord(interrupted, { address: { api: "https://api.example" } }))).toContain(
      `  resume: npx rewoo runs resume ${RUN_ID} --api https://api.example (finished steps are not run again)`,
    );
  });

  it("says why not once the run has used its attempts, and nothing for other statuses", () => {
    expect(plain(formatRunRecord(failed({ attempt: 5 }), { address: { local: true } }))).toContain(
      "  it has run 5 times, the limit for one run: start a new run to try again",
    );
    const succeeded = plain(formatRunRecord(recordWith(emptyResult), { address: { local: true } }));
    expect(succeeded.some((line) => line.includes("resume"))).toBe(false);
    const cancelled = plain(formatRunRecord(failed({ status: "CANCELLED" }), { address: { local: true } }));
    expect(cancelled.some((line) => line.includes("resume"))).toBe(false);
  });
});
