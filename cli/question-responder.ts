// In a terminal, `rewoo evaluate` asks the run's question itself: each field is prompted for, the
// answers go to POST /v1/runs/{run_id}/input, and a refused answer is named and asked again. The
// prompt stops as soon as the question is answered elsewhere (another terminal, the dashboard) or
// the run ends; an empty line leaves the field to someone else.
import type { RequestProblem } from "../lambdas/core/request.ts";
import type { InputQuestion, ProgressEvent } from "../lambdas/core/types.ts";
import { type ApiClient, ApiRequestError } from "./api-client.ts";
import { answerCommand, answerValue, type RunAddress } from "./wait-commands.ts";

/** The person at the terminal. */
export interface Asker {
  /** One line typed in answer to `prompt`; undefined when the prompt was withdrawn (signal) or given up. */
  ask(prompt: string, signal: AbortSignal): Promise<string | undefined>;
  /** A note for them (why an answer was refused, how else to answer). */
  tell(line: string): void;
}

type QuestionEvent = Extract<ProgressEvent, { stage: "question" }>;

export class QuestionResponder {
  private controller: AbortController | undefined;
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: Pick<ApiClient, "answer">,
    private readonly asker: Asker,
    private readonly address: RunAddress,
  ) {}

  /** Hand every progress event here, after the view has shown it. */
  event(event: ProgressEvent): void {
    if (event.stage === "question") {
      this.controller?.abort();
      const controller = new AbortController();
      this.controller = controller;
      this.work = this.work.then(() => this.respond(event, controller.signal));
    } else if (event.stage === "answer" || event.stage === "complete") {
      this.controller?.abort();
    }
  }

  /** Resolves once the conversation about the questions seen so far is over. */
  idle(): Promise<void> {
    return this.work;
  }

  /** Withdraws an open prompt and waits until the responder is done. */
  async settle(): Promise<void> {
    this.controller?.abort();
    await this.work;
  }

  private async respond(event: QuestionEvent, signal: AbortSignal): Promise<void> {
    const questions = event.questions;
    const accepted: Record<string, string | number> = {};
    let pending: readonly InputQuestion[] = questions;
    while (pending.length > 0 && !signal.aborted) {
      for (const question of pending) {
        const line = await this.asker.ask(promptFor(question), signal);
        if (line === undefined) {
          if (!signal.aborted) this.notAnswered(event);
          return;
        }
        if (line.trim() === "") delete accepted[question.field];
        else accepted[question.field] = answerValue(line.trim());
      }
      if (signal.aborted) return;
      if (Object.keys(accepted).length === 0) {
        this.notAnswered(event);
        return;
      }
      try {
        await this.client.answer(event.run_id, accepted);
        return;
      } catch (error) {
        if (!(error instanceof ApiRequestError) || error.status !== 400) {
          this.asker.tell(`the answer was not taken: ${(error as Error).message}`);
          return;
        }
        for (const problem of error.fields) this.asker.tell(`${problem.field}: ${problem.message}`);
        pending = refusedQuestions(questions, error.fields);
        for (const question of pending) delete accepted[question.field];
      }
    }
  }

  private notAnswered(event: QuestionEvent): void {
    const fields = event.questions.map((question) => question.field);
    this.asker.tell(
      `not answered here; the run waits until ${event.deadline}. Answer with: ${answerCommand(this.address, event.run_id, fields)}`,
    );
  }
}

/** "What is the borrower's gross monthly income? [borrower_info.monthly_income: a positive amount …; Enter: leave it] " */
function promptFor(question: InputQuestion): string {
  return `${question.question} [${question.field}: ${question.expected}; Enter: leave it] `;
}

/** The questions whose answers the API named; all of them when it named none in particular. */
function refusedQuestions(
  questions: readonly InputQuestion[],
  problems: readonly RequestProblem[],
): InputQuestion[] {
  const named = questions.filter((question) =>
    problems.some(
      (problem) =>
        problem.field === `answers.${question.field}` ||
        problem.field.startsWith(`answers.${question.field}.`) ||
        problem.field === `metadata.${question.field}`,
    ),
  );
  return named.length > 0 ? named : [...questions];
}
