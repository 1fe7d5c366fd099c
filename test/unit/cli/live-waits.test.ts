// Runs that wait for a person in the live task list (listr2's "test" renderer writes each title and
// state change as a JSON line), and the terminal answering the run's question: the live view's
// prompt, readline under the plain lines, and the responder that posts what was typed.
import { PassThrough } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiRequestError } from "../../../cli/api-client.ts";
import { type Asker, QuestionResponder } from "../../../cli/question-responder.ts";
import { readLine } from "../../../cli/terminal-prompt.ts";
import { LiveView } from "../../../cli/view.ts";
import type { Plan, ProgressEvent } from "../../../lambdas/core/types.ts";
import { incomeQuestion, plan, RUN_ID, runEvents } from "./stub-api.ts";

afterEach(() => vi.restoreAllMocks());

const DEADLINE = "2026-01-02T12:00:00.000Z";
const API = { api: "http://127.0.0.1:3000" };

/** Events with seq and timestamps, in the order given. */
function sequence(bodies: Array<Record<string, unknown>>): ProgressEvent[] {
  return bodies.map((body, index) => ({
    ...body,
    run_id: RUN_ID,
    seq: index + 1,
    timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, index)).toISOString(),
  })) as ProgressEvent[];
}

/** The worker, solver and complete bodies of a successful run of `plan` (from the stub's run). */
const workAndEnd = () =>
  runEvents("SUCCEEDED")
    .slice(1)
    .map(({ run_id: _, seq: __, timestamp: ___, ...body }) => body as Record<string, unknown>);

const question = { stage: "question", questions: [incomeQuestion], deadline: DEADLINE };

/** Feeds a LiveView, then returns the last title and state of every task. */
async function finalTitles(
  feed: (view: LiveView) => void | Promise<void>,
  options: ConstructorParameters<typeof LiveView>[0] = {},
): Promise<string[]> {
  const written: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  const view = new LiveView({ renderer: "test", ...options });
  await feed(view);
  await view.finish();
  vi.restoreAllMocks();
  const last = new Map<string, { title: string; state?: string }>();
  for (const line of written.join("").split("\n").filter(Boolean)) {
    const entry = JSON.parse(line) as {
      event: string;
      data: unknown;
      task: { title: string; path: string[] };
    };
    const key = entry.task.path.join(" / ");
    const previous = last.get(key) ?? { title: entry.task.title };
    if (entry.event === "TITLE") previous.title = String(entry.data);
    if (entry.event === "STATE") previous.state = String(entry.data);
    last.set(key, previous);
  }
  // Colours are on where the environment asks for them (CI=true does): compare the text.
  return [...last.values()].map(({ title, state }) => `${state} ${stripVTControlCharacters(String(title))}`);
}

describe("LiveView of a run that waits", () => {
  it("shows the question between the plan and the work, then that it was answered", async () => {
    const titles = await finalTitles((view) => {
      for (const event of sequence([
        { stage: "plan", plan },
        question,
        { stage: "answer", status: "answered", fields: ["borrower_info.monthly_income"] },
        ...workAndEnd(),
      ]))
        view.event(event);
    });
    expect(titles).toEqual(
      expect.arrayContaining([
        "COMPLETED Plan: 3 steps in 2 dependency levels",
        "COMPLETED Question: borrower_info.monthly_income answered",
        "COMPLETED E3 call_conditions_ai_api (level 1): completed in 30 ms",
        "COMPLETED Result: SUCCEEDED",
      ]),
    );
  });

  it("says when no answer came and the run went on without it", async () => {
    const titles = await finalTitles((view) => {
      for (const event of sequence([
        { stage: "plan", plan },
        question,
        { stage: "answer", status: "timed_out", fields: ["borrower_info.monthly_income"] },
        ...workAndEnd(),
      ]))
        view.event(event);
    });
    expect(titles).toContain(
      `COMPLETED Question: no answer came by ${DEADLINE}; going on without borrower_info.monthly_income`,
    );
  });

  it("shows a rejected plan as failed and runs none of its steps", async () => {
    const titles = await finalTitles((view) => {
      for (const event of sequence([
        { stage: "plan", plan },
        { stage: "approval", status: "pending", deadline: DEADLINE },
        { stage: "approval", status: "rejected", reason: "wrong borrower" },
        { stage: "complete", status: "REJECTED", error: "Rejected: wrong borrower" },
      ]))
        view.event(event);
    });
    expect(titles).toEqual(
      expect.arrayContaining([
        "FAILED Approval: rejected: wrong borrower; no tool runs; the run ends REJECTED",
        "SKIPPED Worker: no step ran (the plan was rejected)",
        "FAILED Result: REJECTED: Rejected: wrong borrower",
      ]),
    );
  });

  it("runs an edited plan's steps in place of the first plan's", async () => {
    const edited: Plan = {
      steps: [plan.steps[0], plan.steps[2]] as Plan["steps"],
      levels: [["E1"], ["E3"]],
      repairs: [],
    };
    const titles = await finalTitles((view) => {
      for (const event of sequence([
        { stage: "plan", plan },
        { stage: "approval", status: "pending", deadline: DEADLINE },
        { stage: "plan", plan: edited },
        { stage: "approval", status: "edited", reason: "no retrieval needed" },
        ...workAndEnd().filter((body) => body.step !== "E2"),
      ]))
        view.event(event);
    });
    expect(titles).toEqual(
      expect.arrayContaining([
        "COMPLETED Approval: approved as edited: no retrieval needed (the plan now has 2 steps)",
        "COMPLETED Worker: 2 steps",
        "COMPLETED E1 call_preconditions_api (level 0): completed in 12 ms",
        "COMPLETED E3 call_conditions_ai_api (level 1): completed in 30 ms",
      ]),
    );
    expect(titles.some((title) => title.includes("E2 retrieve_s3_document"))).toBe(false);
  });

  it("asks the question in its prompt and posts what is typed", async () => {
    const input = new PassThrough();
    const posted: Array<Record<string, unknown>> = [];
    const titles = await finalTitles(
      async (view) => {
        const responder = new QuestionResponder(
          {
            answer: async (_runId, answers) => {
              posted.push(answers);
              return { run_id: RUN_ID, status: "RUNNING", clarification: {} as never };
            },
          },
          view.asker,
          API,
        );
        const [planned, asked, ...rest] = sequence([
          { stage: "plan", plan },
          question,
          { stage: "answer", status: "answered", fields: ["borrower_info.monthly_income"] },
          ...workAndEnd(),
        ]);
        for (const event of [planned, asked] as ProgressEvent[]) {
          view.event(event);
          responder.event(event);
        }
        // The prompt reads keys once it is up.
        await vi.waitFor(() => expect(input.listenerCount("keypress")).toBeGreaterThan(0));
        input.write("80x\x7f00\r");
        await vi.waitFor(() => expect(posted).toHaveLength(1));
        for (const event of rest) {
          view.event(event);
          responder.event(event);
        }
        await responder.settle();
      },
      { input, address: API },
    );
    expect(posted).toEqual([{ "borrower_info.monthly_income": 8000 }]);
    expect(titles).toContain("COMPLETED Question: borrower_info.monthly_income answered");
  });
});

/** An asker that types the given lines, one per prompt, and keeps what it was told. */
function scriptedAsker(lines: Array<string | undefined>): Asker & { prompts: string[]; told: string[] } {
  const prompts: string[] = [];
  const told: string[] = [];
  return {
    prompts,
    told,
    ask: async (prompt) => {
      prompts.push(prompt);
      return lines.shift();
    },
    tell: (line) => told.push(line),
  };
}

const questionEvent = sequence([question])[0] as ProgressEvent;

describe("QuestionResponder", () => {
  it("asks each field, says why an answer was refused, asks that field again and posts the whole answer", async () => {
    const name = {
      ...incomeQuestion,
      field: "borrower_info.name",
      question: "Full name?",
      expected: "a name",
    };
    const asker = scriptedAsker(["Jane Q. Doe", "abc", "8000"]);
    const posted: Array<Record<string, unknown>> = [];
    const responder = new QuestionResponder(
      {
        answer: async (_runId, answers) => {
          posted.push({ ...answers });
          if (answers["borrower_info.monthly_income"] === "abc") {
            throw new ApiRequestError("400 invalid answer", 400, "invalid_answer", [
              {
                field: "answers.borrower_info.monthly_income",
                message: 'expected a positive amount, got "abc"',
              },
            ]);
          }
          return { run_id: RUN_ID, status: "RUNNING", clarification: {} as never };
        },
      },
      asker,
      API,
    );
    responder.event({ ...questionEvent, questions: [name, incomeQuestion] } as ProgressEvent);
    await responder.idle();
    expect(asker.prompts).toEqual([
      "Full name? [borrower_info.name: a name; Enter: leave it] ",
      `What is the borrower's gross monthly income? [borrower_info.monthly_income: ${incomeQuestion.expected}; Enter: leave it] `,
      `What is the borrower's gross monthly income? [borrower_info.monthly_income: ${incomeQuestion.expected}; Enter: leave it] `,
    ]);
    expect(asker.told).toEqual([
      'answers.borrower_info.monthly_income: expected a positive amount, got "abc"',
    ]);
    expect(posted).toEqual([
      { "borrower_info.name": "Jane Q. Doe", "borrower_info.monthly_income": "abc" },
      { "borrower_info.name": "Jane Q. Doe", "borrower_info.monthly_income": 8000 },
    ]);
  });

  it("posts nothing for an empty line and says how to answer later", async () => {
    const asker = scriptedAsker([""]);
    const answer = vi.fn();
    const responder = new QuestionResponder({ answer }, asker, { local: true });
    responder.event(questionEvent);
    await responder.idle();
    expect(answer).not.toHaveBeenCalled();
    expect(asker.told).toEqual([
      `not answered here; the run waits until ${DEADLINE}. Answer with: npx rewoo runs answer ${RUN_ID} borrower_info.monthly_income=<value> --local`,
    ]);
  });

  it("withdraws its prompt when the question is answered elsewhere", async () => {
    let withdrawn: AbortSignal | undefined;
    const answer = vi.fn();
    const asker: Asker = {
      ask: (_prompt, signal) =>
        new Promise((resolve) => {
          withdrawn = signal;
          signal.addEventListener("abort", () => resolve(undefined));
        }),
      tell: () => undefined,
    };
    const responder = new QuestionResponder({ answer }, asker, API);
    responder.event(questionEvent);
    await vi.waitFor(() => expect(withdrawn).toBeDefined());
    responder.event(
      sequence([
        { stage: "answer", status: "answered", fields: ["borrower_info.monthly_income"] },
      ])[0] as ProgressEvent,
    );
    await responder.settle();
    expect(withdrawn?.aborted).toBe(true);
    expect(answer).not.toHaveBeenCalled();
  });

  it("says the answer was not taken when the run no longer waits (409)", async () => {
    const asker = scriptedAsker(["8000"]);
    const responder = new QuestionResponder(
      {
        answer: async () => {
          throw new ApiRequestError(
            `POST /v1/runs/${RUN_ID}/input: 409 run ${RUN_ID} is RUNNING; it is not waiting for input`,
            409,
            "not_waiting",
          );
        },
      },
      asker,
      API,
    );
    responder.event(questionEvent);
    await responder.idle();
    expect(asker.told).toEqual([
      `the answer was not taken: POST /v1/runs/${RUN_ID}/input: 409 run ${RUN_ID} is RUNNING; it is not waiting for input`,
    ]);
  });
});

describe("readLine (plain output)", () => {
  it("returns the line typed, and undefined once the question is withdrawn", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const typed = readLine("income? ", new AbortController().signal, { input, output });
    input.write("8000\n");
    await expect(typed).resolves.toBe("8000");

    const withdraw = new AbortController();
    const pending = readLine("income? ", withdraw.signal, { input: new PassThrough(), output });
    withdraw.abort();
    await expect(pending).resolves.toBeUndefined();
  });
});
