// What the CLI prints about runs that wait for a person: QUESTION / ANSWER / APPROVAL lines with the
// exact commands that answer them, the waits in the run record, exit code 4 for REJECTED, and the
// `<field>=<value>` answers of `rewoo runs answer`.
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { EXIT_NEEDS_REVIEW, EXIT_REJECTED, exitCodeOf, reportRun } from "../../../cli/output.ts";
import { formatEvent, formatRunRecord } from "../../../cli/progress.ts";
import {
  AnswerArgumentError,
  answerCommand,
  parseAnswerArguments,
  shellQuote,
} from "../../../cli/wait-commands.ts";
import type { ProgressEvent, RunRecord } from "../../../lambdas/core/types.ts";
import { incomeQuestion, plan, RUN_ID, runRecord } from "./stub-api.ts";

const plain = (lines: string[]) => lines.map((line) => stripVTControlCharacters(line));

const DEADLINE = "2026-01-02T12:00:00.000Z";
const API = { api: "http://127.0.0.1:3000" };

const event = (body: Record<string, unknown>, seq = 3) =>
  ({ ...body, run_id: RUN_ID, seq, timestamp: "2026-01-01T12:00:03.000Z" }) as ProgressEvent;

describe("QUESTION, ANSWER and APPROVAL lines", () => {
  it("say each asked field with its question, why, what is expected, the deadline and the command that answers", () => {
    const lines = plain(
      formatEvent(event({ stage: "question", questions: [incomeQuestion], deadline: DEADLINE }), {
        address: API,
      }),
    );
    expect(lines).toEqual([
      `QUESTION the run waits for input until ${DEADLINE} (then it goes on without it)`,
      "  borrower_info.monthly_income: What is the borrower's gross monthly income?",
      "    why:      no monthly_income in metadata (borrower_info.monthly_income): cannot verify BS_LARGE_DEPOSITS",
      '    expected: a positive amount in US dollars, e.g. 8000 or "$8,000.00"',
      "    for:      BS_LARGE_DEPOSITS",
      `  answer: npx rewoo runs answer ${RUN_ID} borrower_info.monthly_income=<value> --api http://127.0.0.1:3000`,
    ]);
  });

  it("name every field of a question with several in one command", () => {
    const name = { ...incomeQuestion, field: "borrower_info.name", conditions: ["BS_NAME_MATCH"] };
    const lines = plain(
      formatEvent(event({ stage: "question", questions: [incomeQuestion, name], deadline: DEADLINE }), {
        address: API,
      }),
    );
    expect(lines.at(-1)).toBe(
      `  answer: npx rewoo runs answer ${RUN_ID} borrower_info.monthly_income=<value> borrower_info.name=<value> --api http://127.0.0.1:3000`,
    );
  });

  it("point a local run's commands at --local, with a data folder that is not the default (quoted for the shell)", () => {
    expect(answerCommand({ local: true }, RUN_ID, ["borrower_info.monthly_income"])).toBe(
      `npx rewoo runs answer ${RUN_ID} borrower_info.monthly_income=<value> --local`,
    );
    expect(
      answerCommand({ local: true, dataDir: "/tmp/loan files/.rewoo" }, RUN_ID, ["borrower_info.name"]),
    ).toBe(
      `REWOO_DATA_DIR='/tmp/loan files/.rewoo' npx rewoo runs answer ${RUN_ID} borrower_info.name=<value> --local`,
    );
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it("say whether the question was answered or the run went on without an answer", () => {
    expect(
      plain(
        formatEvent(event({ stage: "answer", status: "answered", fields: ["borrower_info.monthly_income"] })),
      ),
    ).toEqual(["ANSWER  borrower_info.monthly_income answered; the run goes on"]);
    expect(
      plain(
        formatEvent(
          event({ stage: "answer", status: "timed_out", fields: ["borrower_info.monthly_income"] }),
        ),
      ),
    ).toEqual([
      "ANSWER  no answer came for borrower_info.monthly_income by the deadline; the run goes on without it",
    ]);
  });

  it("show a plan waiting for approval with the commands that approve, reject or edit it", () => {
    const lines = plain(
      formatEvent(event({ stage: "approval", status: "pending", deadline: DEADLINE }), { address: API }),
    );
    expect(lines).toEqual([
      `APPROVAL the plan waits for an operator's approval until ${DEADLINE} (then the run ends REJECTED)`,
      `  approve: npx rewoo runs approve ${RUN_ID} --api http://127.0.0.1:3000`,
      `  reject:  npx rewoo runs reject ${RUN_ID} --reason "<why>" --api http://127.0.0.1:3000`,
      `  edit:    npx rewoo runs edit-plan ${RUN_ID} <plan.json> --api http://127.0.0.1:3000`,
    ]);
  });

  it("then the decision, with the operator's reason", () => {
    const decided = (status: string, reason?: string) =>
      plain(formatEvent(event({ stage: "approval", status, ...(reason ? { reason } : {}) })));
    expect(decided("approved", "looks right")).toEqual(["APPROVAL approved: looks right"]);
    expect(decided("edited")).toEqual(["APPROVAL approved as edited (the plan above runs)"]);
    expect(decided("rejected", "wrong borrower")).toEqual([
      "APPROVAL rejected: wrong borrower; no tool runs; the run ends REJECTED",
    ]);
    expect(decided("timed_out", `no decision by ${DEADLINE}`)).toEqual([
      `APPROVAL timed out: no decision by ${DEADLINE}; the run ends REJECTED`,
    ]);
  });

  it("without an address still say what the run waits for", () => {
    const lines = plain(formatEvent(event({ stage: "approval", status: "pending", deadline: DEADLINE })));
    expect(lines).toEqual([
      `APPROVAL the plan waits for an operator's approval until ${DEADLINE} (then the run ends REJECTED)`,
    ]);
  });

  it("end a rejected run with DONE REJECTED", () => {
    expect(
      plain(formatEvent(event({ stage: "complete", status: "REJECTED", error: "Rejected: wrong borrower" }))),
    ).toEqual(["DONE    REJECTED: Rejected: wrong borrower"]);
  });
});

describe("the run record of a run that waited or waits", () => {
  const waitingForInput = (): RunRecord => ({
    ...runRecord("AWAITING_INPUT"),
    clarification: {
      status: "asked",
      questions: [incomeQuestion],
      asked_at: "2026-01-01T12:00:00.000Z",
      deadline: DEADLINE,
    },
  });

  it("a run waiting for input: its question and the command that answers it", () => {
    const lines = plain(formatRunRecord(waitingForInput(), { address: { local: true } }));
    expect(lines).toContain(`Run ${RUN_ID}: AWAITING_INPUT`);
    expect(lines).toContain("  borrower_info.monthly_income: What is the borrower's gross monthly income?");
    expect(lines).toContain(
      `  answer: npx rewoo runs answer ${RUN_ID} borrower_info.monthly_income=<value> --local`,
    );
  });

  it("a run that was answered: what the answer set", () => {
    const record = waitingForInput();
    const answered: RunRecord = {
      ...record,
      status: "SUCCEEDED",
      clarification: {
        ...(record.clarification as NonNullable<RunRecord["clarification"]>),
        status: "answered",
        answer: { "borrower_info.monthly_income": 8000 },
      },
    };
    expect(plain(formatRunRecord(answered))).toContain(
      "  asked borrower_info.monthly_income: answered (borrower_info.monthly_income=8000)",
    );
  });

  it("a run whose question timed out: judged without the answer", () => {
    const record = waitingForInput();
    const timedOut: RunRecord = {
      ...record,
      status: "SUCCEEDED",
      clarification: {
        ...(record.clarification as NonNullable<RunRecord["clarification"]>),
        status: "timed_out",
      },
    };
    expect(plain(formatRunRecord(timedOut))).toContain(
      `  asked borrower_info.monthly_income: no answer came by ${DEADLINE}; judged without it`,
    );
  });

  it("a plan waiting for approval: the commands and the plan's steps", () => {
    const record: RunRecord = {
      ...runRecord("AWAITING_APPROVAL"),
      approval: { status: "pending", requested_at: "2026-01-01T12:00:00.000Z", deadline: DEADLINE },
    };
    const lines = plain(formatRunRecord(record, { address: API }));
    expect(lines).toContain(`  approve: npx rewoo runs approve ${RUN_ID} --api http://127.0.0.1:3000`);
    expect(lines).toContain(`  plan: ${plan.steps.length} steps in ${plan.levels.length} dependency levels`);
    expect(lines).toContain("  E3 call_conditions_ai_api ← E1");
  });

  it("a rejected run: the decision and its reason", () => {
    const record: RunRecord = {
      ...runRecord("REJECTED"),
      approval: {
        status: "rejected",
        requested_at: "2026-01-01T12:00:00.000Z",
        deadline: DEADLINE,
        decided_at: "2026-01-01T12:05:00.000Z",
        reason: "wrong borrower",
      },
    };
    const lines = plain(formatRunRecord(record));
    expect(lines).toContain(`Run ${RUN_ID}: REJECTED`);
    expect(lines).toContain("  plan rejected: wrong borrower");
  });
});

describe("exit codes", () => {
  it("4 for a run that ended REJECTED, 3 for NEEDS_REVIEW, 0 SUCCEEDED, 1 otherwise", () => {
    expect(exitCodeOf("REJECTED")).toBe(EXIT_REJECTED);
    expect(EXIT_REJECTED).toBe(4);
    expect(exitCodeOf("NEEDS_REVIEW")).toBe(EXIT_NEEDS_REVIEW);
    expect(exitCodeOf("SUCCEEDED")).toBe(0);
    for (const status of ["FAILED", "CANCELLED", "INTERRUPTED"] as const) expect(exitCodeOf(status)).toBe(1);
  });

  it("reportRun returns 4 for a rejected record", () => {
    const said: string[] = [];
    expect(reportRun(runRecord("REJECTED"), { json: false, say: (line) => said.push(line) })).toBe(4);
    expect(plain(said)).toContain(`Run ${RUN_ID}: REJECTED`);
  });
});

describe("rewoo runs answer <field>=<value> arguments", () => {
  it("sends a plain number as a number and anything else as text", () => {
    expect(
      parseAnswerArguments([
        "borrower_info.monthly_income=8000",
        "borrower_info.name=Jane Q. Doe",
        "extracted_entities.ein=12-3456789",
        "zip=02134",
        "amount=$8,000.00",
        "note=a=b",
      ]),
    ).toEqual({
      "borrower_info.monthly_income": 8000,
      "borrower_info.name": "Jane Q. Doe",
      "extracted_entities.ein": "12-3456789",
      zip: "02134",
      amount: "$8,000.00",
      note: "a=b",
    });
  });

  it("names what is not a <field>=<value>", () => {
    const refusal = (args: string[]) => {
      try {
        parseAnswerArguments(args);
      } catch (error) {
        expect(error).toBeInstanceOf(AnswerArgumentError);
        const { field, message } = error as AnswerArgumentError;
        return { field, message };
      }
      throw new Error("accepted");
    };
    expect(refusal([])).toEqual({ field: "answers", message: "expected at least one <field>=<value>" });
    expect(refusal(["borrower_info.monthly_income=8000", "8000"])).toEqual({
      field: "answers[1]",
      message: 'expected <field>=<value> (e.g. borrower_info.monthly_income=8000), got "8000"',
    });
    expect(refusal(["=8000"]).field).toBe("answers[0]");
    expect(refusal(["a=1", "a=2"])).toEqual({
      field: "answers.a",
      message: "given twice; expected one value per field",
    });
  });
});
