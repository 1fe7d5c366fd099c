import { describe, expect, it } from "vitest";
import { ANSWER_WORDS } from "../../../lambdas/agents/loan/prompts.ts";
import { noteUnanswered } from "../../../lambdas/agents/loan/solver-answer.ts";
import {
  type AnswerError,
  mergeQuestions,
  nextWait,
  planWithAnswers,
  readAnswers,
  rejectedAnswer,
  type WaitState,
  withAnswers,
} from "../../../lambdas/core/interaction.ts";
import type { Clarification, InputQuestion, Plan, RunResult } from "../../../lambdas/core/types.ts";

const NOW = new Date("2026-11-24T10:00:00.000Z");

const income: InputQuestion = {
  field: "borrower_info.monthly_income",
  question: "What is the borrower's gross monthly income?",
  why: "no monthly_income in metadata (borrower_info.monthly_income): cannot verify BS_LARGE_DEPOSITS",
  expected: "a positive amount in US dollars",
  conditions: ["BS_LARGE_DEPOSITS"],
};

function state(overrides: Partial<WaitState> = {}): WaitState {
  return {
    request: { metadata: {}, s3_pdf_paths: ["s3://docs/a.pdf"] },
    questions: [],
    mayAsk: true,
    approvalRequired: false,
    waitSeconds: 86_400,
    now: NOW,
    ...overrides,
  };
}

describe("nextWait", () => {
  it("goes on when nothing is missing and no approval is required", () => {
    expect(nextWait(state())).toEqual({ wait_for: "none", wait_seconds: 1, rejected: false });
  });

  it("asks for a missing input for the configured wait, unless the run may not ask", () => {
    expect(nextWait(state({ questions: [income] }))).toEqual({
      wait_for: "input",
      wait_seconds: 86_400,
      rejected: false,
    });
    expect(nextWait(state({ questions: [income], mayAsk: false })).wait_for).toBe("none");
  });

  it("waits again only until the first deadline when the run resumes a wait", () => {
    const clarification: Clarification = {
      status: "asked",
      questions: [income],
      asked_at: "2026-11-24T09:00:00.000Z",
      deadline: "2026-11-24T10:30:00.000Z",
    };
    expect(nextWait(state({ questions: [income], clarification }))).toMatchObject({
      wait_for: "input",
      wait_seconds: 1_800,
    });
    // Past the deadline: the state still waits a second (the timeout path records the missing answer).
    const late = { ...clarification, deadline: "2026-11-24T09:30:00.000Z" };
    expect(nextWait(state({ clarification: late })).wait_seconds).toBe(1);
  });

  it("asks once: an answered or timed-out question does not ask again, and approval comes after it", () => {
    for (const status of ["answered", "timed_out"] as const) {
      const clarification: Clarification = {
        status,
        questions: [income],
        asked_at: "2026-11-24T09:00:00.000Z",
        deadline: "2026-11-25T09:00:00.000Z",
      };
      expect(nextWait(state({ questions: [income], clarification })).wait_for).toBe("none");
      expect(nextWait(state({ questions: [income], clarification, approvalRequired: true })).wait_for).toBe(
        "approval",
      );
    }
  });

  it("waits for approval while it is pending; a rejected or unanswered approval ends the run", () => {
    expect(nextWait(state({ approvalRequired: true }))).toEqual({
      wait_for: "approval",
      wait_seconds: 86_400,
      rejected: false,
    });
    const approval = {
      requested_at: "2026-11-24T09:00:00.000Z",
      deadline: "2026-11-24T11:00:00.000Z",
    };
    expect(
      nextWait(state({ approvalRequired: true, approval: { ...approval, status: "pending" } })),
    ).toMatchObject({
      wait_for: "approval",
      wait_seconds: 3_600,
    });
    for (const status of ["approved", "edited"] as const) {
      expect(nextWait(state({ approvalRequired: true, approval: { ...approval, status } })).wait_for).toBe(
        "none",
      );
    }
    for (const status of ["rejected", "timed_out"] as const) {
      expect(nextWait(state({ approvalRequired: true, approval: { ...approval, status } }))).toEqual({
        wait_for: "none",
        wait_seconds: 1,
        rejected: true,
      });
    }
  });
});

describe("answers", () => {
  it("reads the asked fields, and names what is wrong otherwise", () => {
    expect(readAnswers({ answers: { "borrower_info.monthly_income": 9000 } }, [income])).toEqual({
      "borrower_info.monthly_income": 9000,
    });
    const wrong = (body: unknown) => {
      try {
        readAnswers(body, [income]);
      } catch (error) {
        return (error as AnswerError).field;
      }
      throw new Error("accepted");
    };
    expect(wrong([])).toBe("body");
    expect(wrong({ answers: {}, metadata: {} })).toBe("metadata");
    expect(wrong({ answers: [] })).toBe("answers");
    expect(wrong({ answers: {} })).toBe("answers");
    // An answer supplies what was missing; it does not rewrite the loan.
    expect(wrong({ answers: { "metadata.classification": "x" } })).toBe("answers.metadata.classification");
    expect(wrong({ answers: { "borrower_info.monthly_income": " " } })).toBe(
      "answers.borrower_info.monthly_income",
    );
    expect(wrong({ answers: { "borrower_info.monthly_income": { amount: 1 } } })).toBe(
      "answers.borrower_info.monthly_income",
    );
  });

  it("sets dotted fields without touching the original metadata", () => {
    const metadata = { borrower_info: { name: "Jane" }, classification: "bank_statements" };
    const merged = withAnswers(metadata, {
      "borrower_info.monthly_income": 9000,
      "extracted_entities.ein": "12-3456789",
    });
    expect(merged).toEqual({
      borrower_info: { name: "Jane", monthly_income: 9000 },
      classification: "bank_statements",
      extracted_entities: { ein: "12-3456789" },
    });
    expect(metadata).toEqual({ borrower_info: { name: "Jane" }, classification: "bank_statements" });
  });

  it("applies the answer to every step that carries the metadata, and to no other", () => {
    const plan: Plan = {
      steps: [
        {
          id: "E1",
          tool: "call_preconditions_api",
          args: { metadata: { borrower_info: {} } },
          depends_on: [],
        },
        {
          id: "E2",
          tool: "call_conditions_ai_api",
          args: { conditions: "{{E1.conditions}}" },
          depends_on: ["E1"],
        },
      ],
      levels: [["E1"], ["E2"]],
      repairs: [],
    };
    const answered = planWithAnswers(plan, { "borrower_info.monthly_income": 9000 });
    expect(answered.steps[0]?.args).toEqual({ metadata: { borrower_info: { monthly_income: 9000 } } });
    expect(answered.steps[1]).toBe(plan.steps[1]);
    expect(plan.steps[0]?.args).toEqual({ metadata: { borrower_info: {} } });
  });

  it("merges questions by field", () => {
    const merged = mergeQuestions([income, { ...income, conditions: ["OTHER"], why: "other needs it" }]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.conditions).toEqual(["BS_LARGE_DEPOSITS", "OTHER"]);
    expect(merged[0]?.why).toContain("other needs it");
  });
});

describe("results", () => {
  const result: RunResult = {
    summary: "1 of 2 conditions fulfilled",
    fulfilled_conditions: [{ id: "BS_NO_NSF", status: "fulfilled" }],
    unfulfilled_conditions: [
      { id: "BS_LARGE_DEPOSITS", status: "insufficient_evidence", reason: "no monthly_income in metadata" },
    ],
    missing_information: [],
    recommendations: [],
  };

  it("says in the verdict that no answer came, only for a question that timed out", () => {
    const clarification: Clarification = {
      status: "timed_out",
      questions: [income],
      asked_at: "2026-11-23T10:00:00.000Z",
      deadline: "2026-11-24T10:00:00.000Z",
    };
    const noted = noteUnanswered(result, clarification);
    expect(noted.unfulfilled_conditions[0]?.reason).toBe(
      "no monthly_income in metadata (asked for borrower_info.monthly_income at 2026-11-23T10:00:00.000Z; no answer came by 2026-11-24T10:00:00.000Z)",
    );
    expect(noted.missing_information).toEqual([
      expect.stringContaining("no answer came to the question for borrower_info.monthly_income"),
    ]);
    expect(noted.fulfilled_conditions).toEqual(result.fulfilled_conditions);
    expect(noteUnanswered(result, { ...clarification, status: "answered" })).toBe(result);
    expect(noteUnanswered(result, undefined)).toBe(result);
  });

  it("explains a rejection with the operator's reason, or the missed deadline", () => {
    const approval = { requested_at: "2026-11-23T10:00:00.000Z", deadline: "2026-11-24T10:00:00.000Z" };
    expect(
      rejectedAnswer({ ...approval, status: "rejected", reason: "wrong borrower" }, ANSWER_WORDS).summary,
    ).toBe(
      "Rejected: an operator rejected the plan: wrong borrower, so no tool was called and no condition was judged.",
    );
    expect(rejectedAnswer({ ...approval, status: "timed_out" }, ANSWER_WORDS).summary).toContain(
      "no operator approved the plan by 2026-11-24T10:00:00.000Z",
    );
  });
});
