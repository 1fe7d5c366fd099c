// What the dashboard derives for a run that waits for a person (its question, its plan's approval)
// from the run record, the progress events and its own accepted answers, how it tells them in the
// activity log, and what its forms send and where an API error is shown.
import { describe, expect, it } from "vitest";
import type {
  Approval,
  Clarification,
  InputQuestion,
  Plan,
  ProgressEvent,
  ProgressEventBody,
  RunRecord,
  RunStatus,
} from "../../../lambdas/core/types.ts";
import { plan, RUN_ID, runRecord } from "../cli/stub-api.ts";

interface RunView {
  status: string;
  terminal: boolean;
  waiting: "input" | "approval" | null;
  clarification?: { status: string; questions: InputQuestion[]; deadline?: string };
  approval?: { status: string; deadline?: string; reason?: string };
  plan?: Plan;
  steps: { id: string; status: string }[];
  solverStage: string;
}
interface RunStateLike {
  applyRecord(record: unknown): void;
  applyEvent(event: unknown): { applied: boolean; refetch: boolean };
  resolveWait(kind: string): void;
  readonly status: string;
  readonly isTerminal: boolean;
  view(): RunView;
}
interface FieldError {
  field: string;
  message: string;
}
// The dashboard's modules are plain browser JavaScript without type declarations.
const modulePath = (name: string) => `../../../dashboard/${name}`;
const { RunState } = (await import(modulePath("run-state.js"))) as {
  RunState: new (runId: string) => RunStateLike;
};
const { describeEvent, runStatusLabel } = (await import(modulePath("views.js"))) as {
  describeEvent: (event: unknown) => string;
  runStatusLabel: (status: string) => string;
};
const waiting = (await import(modulePath("waiting.js"))) as {
  answersFrom: (
    questions: InputQuestion[],
    values: Record<string, string>,
  ) => { answers: Record<string, string> | null; errors: FieldError[] };
  editablePlan: (plan: Plan | undefined) => string;
  editedPlanFrom: (text: string) => { plan: unknown; error: string | null };
  rejectionFrom: (reason: string) => { reason: string | null; error: string | null };
  errorLines: (error: unknown, own?: (field: string) => boolean) => string[];
  answerFieldOf: (field: string, questions: InputQuestion[]) => string | null;
};
const { ApiError } = (await import(modulePath("api.js"))) as {
  ApiError: new (status: number, body: unknown, message: string) => Error & { fields: FieldError[] };
};

const DEADLINE = "2026-01-02T12:00:00.000Z";
const INCOME: InputQuestion = {
  field: "borrower_info.monthly_income",
  question: "What is the borrower's gross monthly income?",
  why: "cannot verify BS_LARGE_DEPOSITS without it",
  expected: 'a positive amount in US dollars, e.g. 8000 or "$8,000.00"',
  conditions: ["BS_LARGE_DEPOSITS"],
};
const asked: Clarification = {
  status: "asked",
  questions: [INCOME],
  asked_at: "2026-01-01T12:00:01.000Z",
  deadline: DEADLINE,
};
const pending: Approval = { status: "pending", requested_at: "2026-01-01T12:00:01.000Z", deadline: DEADLINE };

function eventsOf(bodies: ProgressEventBody[]): ProgressEvent[] {
  return bodies.map((body, index) => ({
    ...body,
    run_id: RUN_ID,
    seq: index + 1,
    timestamp: `2026-01-01T12:00:0${index}.000Z`,
  })) as ProgressEvent[];
}

const record = (status: RunStatus, extra: Partial<RunRecord> = {}): RunRecord => ({
  ...runRecord(status),
  ...extra,
});

const review = { stage: "review", target: "plan", approved: true, score: 10, criteria: {}, issues: [] };
const questionRun = eventsOf([
  { stage: "plan", plan },
  review as unknown as ProgressEventBody,
  { stage: "question", questions: [INCOME], deadline: DEADLINE } as unknown as ProgressEventBody,
  { stage: "answer", status: "answered", fields: [INCOME.field] } as unknown as ProgressEventBody,
  { stage: "worker", step: "E1", tool: "call_preconditions_api", level: 0, status: "started" },
]);
const approvalRun = eventsOf([
  { stage: "plan", plan },
  review as unknown as ProgressEventBody,
  { stage: "approval", status: "pending", deadline: DEADLINE } as unknown as ProgressEventBody,
  { stage: "approval", status: "rejected", reason: "wrong borrower" } as unknown as ProgressEventBody,
  { stage: "complete", status: "REJECTED" } as unknown as ProgressEventBody,
]);

const stateWith = (events: ProgressEvent[], upTo: number) => {
  const state = new RunState(RUN_ID);
  for (const event of events.filter((e) => e.seq <= upTo)) state.applyEvent(event);
  return state;
};

describe("RunState of a run that asks for input", () => {
  it("waits for input from the question event on, with its questions and deadline", () => {
    const state = stateWith(questionRun, 3);
    const view = state.view();
    expect(view.status).toBe("AWAITING_INPUT");
    expect(view.waiting).toBe("input");
    expect(view.terminal).toBe(false);
    expect(view.clarification).toEqual({ status: "asked", questions: [INCOME], deadline: DEADLINE });
    // No tool has run: the steps are pending, not skipped.
    expect(view.steps.map((step) => step.status)).toEqual(["pending", "pending", "pending"]);
  });

  it("waits from the record alone (a page without events), and the question event asks a refetch", () => {
    const state = new RunState(RUN_ID);
    state.applyRecord(record("AWAITING_INPUT", { clarification: asked }));
    expect(state.view()).toMatchObject({ status: "AWAITING_INPUT", waiting: "input", clarification: asked });
    expect(state.applyEvent(questionRun[2])).toEqual({ applied: true, refetch: true });
  });

  it("stops waiting on the answer event even when the record was read before the answer", () => {
    const state = stateWith(questionRun, 4);
    state.applyRecord(record("AWAITING_INPUT", { clarification: asked }));
    expect(state.view()).toMatchObject({ status: "RUNNING", waiting: null });
  });

  it("stops waiting once the page's own answer was accepted, before any event says so", () => {
    const state = stateWith(questionRun, 3);
    state.applyRecord(record("AWAITING_INPUT", { clarification: asked }));
    state.resolveWait("input");
    expect(state.view()).toMatchObject({ status: "RUNNING", waiting: null });
    // A record fetched before the answer was stored cannot reopen the question.
    state.applyRecord(record("AWAITING_INPUT", { clarification: asked }));
    expect(state.status).toBe("RUNNING");
  });

  it("draws the record's plan after an answer merged into its arguments", () => {
    const state = stateWith(questionRun, 4);
    const answeredPlan: Plan = {
      ...plan,
      steps: plan.steps.map((step) =>
        step.id === "E1"
          ? { ...step, args: { metadata: { borrower_info: { monthly_income: "8000" } } } }
          : step,
      ),
    };
    state.applyRecord(
      record("RUNNING", {
        plan: answeredPlan,
        clarification: { ...asked, status: "answered", answer: { [INCOME.field]: "8000" } },
      }),
    );
    expect(state.view().plan).toEqual(answeredPlan);
  });

  it("waits for approval after the answer when the record says so, and goes on once decided", () => {
    const state = stateWith(questionRun, 4);
    state.applyRecord(
      record("AWAITING_APPROVAL", { clarification: { ...asked, status: "answered" }, approval: pending }),
    );
    expect(state.view()).toMatchObject({ status: "AWAITING_APPROVAL", waiting: "approval" });
    state.applyRecord(
      record("RUNNING", {
        clarification: { ...asked, status: "answered" },
        approval: { ...pending, status: "approved" },
      }),
    );
    expect(state.view()).toMatchObject({ status: "RUNNING", waiting: null });
  });
});

describe("RunState of a run that needs approval", () => {
  it("waits for approval from the pending approval event on", () => {
    const view = stateWith(approvalRun, 3).view();
    expect(view).toMatchObject({
      status: "AWAITING_APPROVAL",
      waiting: "approval",
      approval: { status: "pending", deadline: DEADLINE },
    });
  });

  it("ends REJECTED with the reason; the steps never ran", () => {
    const state = stateWith(approvalRun, 5);
    // A record read while the plan was pending does not hide the decision the events told.
    state.applyRecord(record("AWAITING_APPROVAL", { approval: pending }));
    const view = state.view();
    expect(state.isTerminal).toBe(true);
    expect(view).toMatchObject({
      status: "REJECTED",
      waiting: null,
      approval: { status: "rejected", reason: "wrong borrower" },
    });
    expect(view.steps.map((step) => step.status)).toEqual(["skipped", "skipped", "skipped"]);
    // Its result is Finalize's note, not the solver's work.
    state.applyRecord(
      record("REJECTED", {
        approval: { ...pending, status: "rejected", reason: "wrong borrower" },
        result: {
          summary: "Rejected: an operator rejected the plan: wrong borrower",
          fulfilled_conditions: [],
          unfulfilled_conditions: [],
          missing_information: [],
          recommendations: [],
        },
      }),
    );
    expect(state.view().solverStage).toBe("skipped");
  });

  it("does not wait once the page's decision was accepted, nor after a cancel while waiting", () => {
    const decided = stateWith(approvalRun, 3);
    decided.resolveWait("approval");
    expect(decided.view()).toMatchObject({ status: "RUNNING", waiting: null });

    const cancelled = new RunState(RUN_ID);
    cancelled.applyRecord(record("CANCELLED", { approval: pending }));
    expect(cancelled.view()).toMatchObject({ status: "CANCELLED", waiting: null });
  });
});

describe("activity log and labels of waiting runs", () => {
  it("tells the question, the answer and each approval decision", () => {
    const lines = [...questionRun.slice(2, 4), ...approvalRun.slice(2, 4)].map(describeEvent);
    expect(lines[0]).toMatch(
      /^Asked for borrower_info\.monthly_income \(for BS_LARGE_DEPOSITS\); answer by .+2026/,
    );
    expect(lines[1]).toBe("Answered: borrower_info.monthly_income; the run continues");
    expect(lines[2]).toMatch(/^Plan waits for approval until .+2026/);
    expect(lines[3]).toBe("Plan rejected: wrong borrower");
    expect(describeEvent({ stage: "answer", status: "timed_out", fields: [INCOME.field] })).toBe(
      "No answer before the deadline for borrower_info.monthly_income: going on without it",
    );
    expect(describeEvent({ stage: "approval", status: "edited" })).toBe(
      "Plan edited by an operator; the edited plan runs",
    );
    expect(
      describeEvent({ stage: "approval", status: "timed_out", reason: `no decision by ${DEADLINE}` }),
    ).toBe(`No approval in time: no decision by ${DEADLINE}`);
  });

  it("labels the new statuses in words", () => {
    expect(["AWAITING_INPUT", "AWAITING_APPROVAL", "REJECTED"].map(runStatusLabel)).toEqual([
      "Waiting for input",
      "Waiting for approval",
      "Rejected",
    ]);
  });
});

describe("what the waiting forms send", () => {
  const SECOND: InputQuestion = { ...INCOME, field: "extracted_entities.ein", expected: "an EIN" };

  it("sends the typed answers trimmed, leaves blank ones out, and needs at least one", () => {
    expect(
      waiting.answersFrom([INCOME, SECOND], { [INCOME.field]: "  8000 ", [SECOND.field]: "  " }),
    ).toEqual({ answers: { [INCOME.field]: "8000" }, errors: [] });
    expect(waiting.answersFrom([INCOME, SECOND], {})).toEqual({
      answers: null,
      errors: [{ field: `answers.${INCOME.field}`, message: `enter an answer: ${INCOME.expected}` }],
    });
  });

  it("prefills the edit box with the steps in the shape the API takes back", () => {
    const described: Plan = {
      ...plan,
      steps: plan.steps.map((step, i) => (i === 0 ? { ...step, description: "What applies" } : step)),
    };
    const text = waiting.editablePlan(described);
    expect(JSON.parse(text)).toEqual(
      described.steps.map(({ id, tool, args, depends_on, description }) => ({
        id,
        tool,
        args,
        depends_on,
        ...(description ? { description } : {}),
      })),
    );
    expect(waiting.editablePlan(undefined)).toBe("[]");
  });

  it("sends an edited plan as JSON, the planner's text as text, and names broken JSON itself", () => {
    expect(waiting.editedPlanFrom(' [{"id": "E1"}] ')).toEqual({ plan: [{ id: "E1" }], error: null });
    expect(waiting.editedPlanFrom("#E1 = call_preconditions_api[x]")).toEqual({
      plan: "#E1 = call_preconditions_api[x]",
      error: null,
    });
    expect(waiting.editedPlanFrom('[{"id": "E1",]').error).toMatch(/^not valid JSON: /);
    expect(waiting.editedPlanFrom("  ").error).toMatch(/^enter the plan's steps/);
  });

  it("requires a reason to reject, at most 2,000 characters", () => {
    expect(waiting.rejectionFrom("  wrong borrower ")).toEqual({ reason: "wrong borrower", error: null });
    expect(waiting.rejectionFrom("   ").error).toMatch(/^a reason is required to reject/);
    expect(waiting.rejectionFrom("x".repeat(2001)).error).toBe("at most 2,000 characters");
  });
});

describe("where an API error is shown", () => {
  const invalidAnswer = new ApiError(
    400,
    {
      error: {
        code: "invalid_answer",
        message: "…",
        fields: [
          {
            field: `answers.${INCOME.field}`,
            message: `answers.${INCOME.field}: expected a positive amount in US dollars, got "abc"`,
          },
        ],
      },
    },
    "400 …",
  );

  it("puts an answer's error on the question it names, without the field repeated", () => {
    expect(waiting.answerFieldOf(`answers.${INCOME.field}`, [INCOME])).toBe(INCOME.field);
    expect(waiting.answerFieldOf("answers.classification", [INCOME])).toBeNull();
    expect(waiting.answerFieldOf("answers", [INCOME])).toBeNull();
    expect(waiting.errorLines(invalidAnswer, () => true)).toEqual([
      'expected a positive amount in US dollars, got "abc"',
    ]);
  });

  it("names other fields, and falls back to the message when the error names none", () => {
    const notApproved = new ApiError(
      400,
      {
        error: {
          code: "plan_not_approved",
          message: "plan: …",
          fields: [
            {
              field: "plan.E3",
              message: "reads rm-conditions/x.pdf, which is not one of the request's documents",
            },
            { field: "plan", message: "no step reads the documents" },
          ],
        },
      },
      "400 plan: …",
    );
    expect(waiting.errorLines(notApproved, (field) => field === "plan")).toEqual([
      "plan.E3: reads rm-conditions/x.pdf, which is not one of the request's documents",
      "no step reads the documents",
    ]);
    const notWaiting = new ApiError(
      409,
      { error: { code: "not_waiting", message: "run x is RUNNING" } },
      "409 run x is RUNNING",
    );
    expect(waiting.errorLines(notWaiting)).toEqual(["409 run x is RUNNING"]);
  });
});
