// How a run's progress is shown while it runs. Plain: the lines of progress.ts formatEvent, one
// per event (logs, pipes, CI, and the local mode). Live (a terminal): a listr2 task list with one
// line per plan step that turns from waiting to running to completed/failed with its duration.
import { Listr, type ListrTask } from "listr2";
import pc from "picocolors";
import type { Plan, ProgressEvent } from "../lambdas/core/types.ts";
import { describeDecision, describeReplan, formatEvent, stepCount } from "./progress.ts";
import type { Asker } from "./question-responder.ts";
import { KeypressPrompt, type PromptInput, readLine } from "./terminal-prompt.ts";
import { answerCommand, approvalCommands, type RunAddress } from "./wait-commands.ts";

export interface ProgressView {
  event(event: ProgressEvent): void;
  /** The run is over (or following it failed): settle the display. */
  finish(): Promise<void>;
  /** Present when the view can ask the person at the terminal (a question of the run). */
  asker?: Asker;
}

/** Where the run lives (for the commands printed under a wait) and the terminal to ask on. */
export interface ViewOptions {
  address?: RunAddress;
  input?: PromptInput;
  output?: NodeJS.WritableStream;
}

export class PlainView implements ProgressView {
  readonly asker: Asker;

  constructor(
    private readonly say: (line: string) => void,
    private readonly options: ViewOptions = {},
  ) {
    this.asker = {
      ask: (prompt, signal) =>
        readLine(prompt, signal, {
          input: this.options.input ?? process.stdin,
          output: this.options.output ?? process.stdout,
        }),
      tell: (line) => this.say(pc.yellow(`  ${line}`)),
    };
  }

  event(event: ProgressEvent): void {
    for (const line of formatEvent(event, this.options)) this.say(line);
  }

  async finish(): Promise<void> {}
}

/**
 * With --json stdout carries the record alone, yet a run that waits for a person must not wait in
 * silence: what it waits for, and the commands that answer, go to `notice` (stderr).
 */
export class WaitNoticeView implements ProgressView {
  constructor(
    private readonly notice: (line: string) => void,
    private readonly options: ViewOptions = {},
  ) {}

  event(event: ProgressEvent): void {
    if (event.stage !== "question" && !(event.stage === "approval" && event.status === "pending")) return;
    for (const line of formatEvent(event, this.options)) this.notice(line);
  }

  async finish(): Promise<void> {}
}

export function createProgressView(
  options: {
    json: boolean;
    tty: boolean;
    say: (line: string) => void;
    /** Where --json tells about waits. */
    notice?: (line: string) => void;
  } & ViewOptions,
): ProgressView {
  const { json, tty, say, notice, ...viewOptions } = options;
  if (json) return new WaitNoticeView(notice ?? (() => undefined), viewOptions);
  return tty ? new LiveView(viewOptions) : new PlainView(say, viewOptions);
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  settled: boolean;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  const d: Deferred<T> = {
    promise,
    settled: false,
    resolve(value) {
      if (d.settled) return;
      d.settled = true;
      resolve(value);
    },
  };
  return d;
}

type WorkerEvent = Extract<ProgressEvent, { stage: "worker" }>;
type CompleteEvent = Extract<ProgressEvent, { stage: "complete" }>;
type SolverEvent = Extract<ProgressEvent, { stage: "solver" }>;
type ReplanEvent = Extract<ProgressEvent, { stage: "replan" }>;
type QuestionEvent = Extract<ProgressEvent, { stage: "question" }>;
type AnswerEvent = Extract<ProgressEvent, { stage: "answer" }>;
type ApprovalEvent = Extract<ProgressEvent, { stage: "approval" }>;

/** A line someone asked the terminal for, waiting for the Question task to prompt it. */
interface PromptRequest {
  prompt: string;
  signal: AbortSignal;
  resolve(line: string | undefined): void;
}

interface StepProgress {
  /** The `started` event (level), or undefined when the run ended before the step started. */
  started: Deferred<WorkerEvent | undefined>;
  /** The `completed`/`failed` event, or undefined when the step never finished. */
  finished: Deferred<WorkerEvent | undefined>;
}

/**
 * Events arrive before or after the task that shows them is running: each stage is a deferred that
 * the event settles and the task awaits. finish() settles whatever never happened as "not run".
 *
 * Plan k is generation k: worker events belong to the latest plan. A replan after plan k (a
 * required step failed, the planner plans again) ends generation k; plan k+1's steps are shown
 * under the replan line (steps that already completed are reused, not shown again). Replans before
 * the first plan (the planner's plan was invalid) are told in the Plan line.
 *
 * A run that waits for a person shows it between the plan and the work: the question (answered in
 * the terminal through the task's prompt when an answerer asks, else the command that answers it),
 * then the plan's approval. A plan edited while it waits for approval replaces the first plan
 * rather than starting a generation: none of its steps had run.
 */
export class LiveView implements ProgressView {
  private readonly plans: Array<Deferred<Plan | undefined>> = [];
  /** Index k: the replan that ended plan k. */
  private readonly replans: Array<Deferred<ReplanEvent | undefined>> = [];
  /** Replans before the first plan. */
  private readonly replansBeforePlan: ReplanEvent[] = [];
  private planEvents = 0;
  /** Generations up to this one were ended by a replan. */
  private lastEndedGeneration = -1;
  /** The solver started or the run ended: no replan can follow. */
  private replansClosed = false;
  private readonly solverStarted = deferred<SolverEvent | undefined>();
  private readonly solverDone = deferred<SolverEvent | undefined>();
  private readonly complete = deferred<CompleteEvent | undefined>();
  /** `${generation}:${step id}` → its progress in that generation's plan. */
  private readonly steps = new Map<string, StepProgress>();
  /** Steps that completed so far, in any generation: a later plan reuses their evidence. */
  private readonly completedSteps = new Set<string>();
  /** For the replan ending plan k: the steps completed when it happened (what plan k+1 reuses rather than runs). */
  private readonly completedAtReplan: Array<ReadonlySet<string>> = [];
  private readonly question = deferred<QuestionEvent | undefined>();
  private readonly answer = deferred<AnswerEvent | undefined>();
  private readonly approvalAsked = deferred<ApprovalEvent | undefined>();
  private readonly approvalDecided = deferred<ApprovalEvent | undefined>();
  /** The run is past its waits (work began, or it ended): the worker's steps show from then on. */
  private readonly waitsOver = deferred<void>();
  /** The plan an operator's edit put in place of the first one. */
  private editedPlan: Plan | undefined;
  /** An operator rejected the plan (or decided nothing in time): none of its steps will run. */
  private planRejected = false;
  private readonly prompts: PromptRequest[] = [];
  private promptAdded = deferred<void>();
  /** The Question task while it is shown: notes for the person go under it. */
  private questionShown: TaskWrapper | undefined;
  private readonly running: Promise<unknown>;
  readonly asker: Asker;

  constructor(private readonly options: { renderer?: "default" | "simple" | "test" } & ViewOptions = {}) {
    this.asker = {
      ask: (prompt, signal) =>
        new Promise((resolve) => {
          if (signal.aborted) return resolve(undefined);
          this.prompts.push({ prompt, signal, resolve });
          this.promptAdded.resolve();
        }),
      tell: (line) => {
        if (this.questionShown) this.questionShown.output = line;
      },
    };
    const list = new Listr(
      [
        { title: "Plan", task: (_ctx, task) => this.planTask(task) },
        { task: (_ctx, task) => this.questionTask(task) },
        { task: (_ctx, task) => this.approvalTask(task) },
        { title: "Worker", task: (_ctx, task) => this.workerTask(task) },
        { title: "Solver", task: (_ctx, task) => this.solverTask(task) },
        { title: "Result", task: (_ctx, task) => this.resultTask(task) },
      ],
      {
        exitOnError: false,
        renderer: options.renderer ?? "default",
        rendererOptions: { collapseSubtasks: false, persistentOutput: true },
      } as never,
    );
    // Failed steps are shown as failed tasks; they are the run's outcome, not the CLI's error.
    this.running = list.run().catch(() => undefined);
  }

  event(event: ProgressEvent): void {
    switch (event.stage) {
      case "plan":
        if (this.approvalAsked.settled && !this.approvalDecided.settled && !this.waitsOver.settled) {
          this.editedPlan = event.plan;
          return;
        }
        this.planAt(this.planEvents++).resolve(event.plan);
        return;
      case "question":
        this.question.resolve(event);
        return;
      case "answer":
        this.question.resolve(undefined);
        this.answer.resolve(event);
        return;
      case "approval":
        this.question.resolve(undefined);
        this.answer.resolve(undefined);
        if (event.status === "pending") this.approvalAsked.resolve(event);
        else {
          this.approvalAsked.resolve(undefined);
          this.approvalDecided.resolve(event);
          this.planRejected = event.status === "rejected" || event.status === "timed_out";
        }
        return;
      case "worker": {
        this.pastWaits();
        const step = this.step(Math.max(this.planEvents - 1, 0), event.step);
        if (event.status === "started") step.started.resolve(event);
        else {
          step.started.resolve(event);
          step.finished.resolve(event);
          if (event.status === "completed") this.completedSteps.add(event.step);
        }
        return;
      }
      case "replan": {
        const generation = this.planEvents - 1;
        if (generation < 0) {
          this.replansBeforePlan.push(event);
          return;
        }
        // A second replan before the next plan adds nothing to show: the first one ended this plan.
        if (generation <= this.lastEndedGeneration) return;
        this.lastEndedGeneration = generation;
        // What the ended plan still had running or waiting will not run as part of it.
        const ended = `${generation}:`;
        for (const [key, step] of this.steps) {
          if (!key.startsWith(ended)) continue;
          step.started.resolve(undefined);
          step.finished.resolve(undefined);
        }
        this.completedAtReplan[generation] = new Set(this.completedSteps);
        this.replanAt(generation).resolve(event);
        return;
      }
      case "solver":
        this.pastWaits();
        this.closeReplans();
        this.solverStarted.resolve(event);
        if (event.status === "completed") this.solverDone.resolve(event);
        return;
      case "complete":
        this.complete.resolve(event);
        this.settleRest();
        return;
    }
  }

  async finish(): Promise<void> {
    this.complete.resolve(undefined);
    this.settleRest();
    await this.running;
  }

  /** No question or approval comes once the work began; what was asked and not settled, was not. */
  private pastWaits(): void {
    for (const wait of [this.question, this.answer, this.approvalAsked, this.approvalDecided])
      wait.resolve(undefined);
    this.waitsOver.resolve();
  }

  private settleRest(): void {
    this.pastWaits();
    for (const plan of this.plans) plan.resolve(undefined);
    for (const step of this.steps.values()) {
      step.started.resolve(undefined);
      step.finished.resolve(undefined);
    }
    this.closeReplans();
    this.solverStarted.resolve(undefined);
    this.solverDone.resolve(undefined);
  }

  private closeReplans(): void {
    this.replansClosed = true;
    for (const replan of this.replans) replan.resolve(undefined);
  }

  private planAt(generation: number): Deferred<Plan | undefined> {
    // Settled already (the run ended): a plan awaited only now never came.
    while (this.plans.length <= generation) {
      const plan = deferred<Plan | undefined>();
      if (this.complete.settled) plan.resolve(undefined);
      this.plans.push(plan);
    }
    return this.plans[generation] as Deferred<Plan | undefined>;
  }

  private replanAt(generation: number): Deferred<ReplanEvent | undefined> {
    while (this.replans.length <= generation) {
      const replan = deferred<ReplanEvent | undefined>();
      if (this.replansClosed) replan.resolve(undefined);
      this.replans.push(replan);
    }
    return this.replans[generation] as Deferred<ReplanEvent | undefined>;
  }

  private step(generation: number, id: string): StepProgress {
    const key = `${generation}:${id}`;
    let step = this.steps.get(key);
    if (!step) {
      step = { started: deferred(), finished: deferred() };
      // Settled already (the run ended, or its plan was replaced): a step seen only now never ran.
      if (this.complete.settled || generation <= this.lastEndedGeneration) {
        step.started.resolve(undefined);
        step.finished.resolve(undefined);
      }
      this.steps.set(key, step);
    }
    return step;
  }

  private async planTask(task: TaskWrapper): Promise<void> {
    const plan = await this.planAt(0).promise;
    const before = this.replansBeforePlan.at(-1);
    const after = before ? ` (${describeReplan(before)})` : "";
    if (!plan) return skip(task, `Plan: none (the run ended before planning)${after}`);
    task.title = `Plan: ${plan.steps.length} steps in ${plan.levels.length} dependency levels${after}`;
  }

  /** Untitled (not shown) unless the run asks a question. */
  private async questionTask(task: TaskWrapper): Promise<void> {
    const question = await this.question.promise;
    if (!question) return;
    const fields = question.questions.map((asked) => asked.field);
    task.title = `Question: ${fields.join(", ")}: waiting for an answer until ${question.deadline}`;
    this.questionShown = task;
    if (this.options.address) {
      task.output = `answer: ${answerCommand(this.options.address, question.run_id, fields)}`;
    }
    const answered = this.answer.promise.then(() => "answered" as const);
    for (;;) {
      const next = await Promise.race([answered, this.promptAdded.promise.then(() => "prompt" as const)]);
      if (next === "answered") break;
      this.promptAdded = deferred();
      for (let request = this.prompts.shift(); request; request = this.prompts.shift()) {
        request.resolve(
          await task
            .prompt(KeypressPrompt)
            .run(request.prompt, { signal: request.signal, input: this.options.input ?? process.stdin }),
        );
      }
    }
    for (const request of this.prompts.splice(0)) request.resolve(undefined);
    this.questionShown = undefined;
    const answer = await this.answer.promise;
    if (!answer) return skip(task, `Question: ${fields.join(", ")}: not answered`);
    if (answer.status === "timed_out") {
      task.title = `Question: no answer came by ${question.deadline}; going on without ${fields.join(", ")}`;
      return;
    }
    task.title = `Question: ${answer.fields.join(", ")} answered`;
  }

  /** Untitled (not shown) unless the plan waits for an operator. */
  private async approvalTask(task: TaskWrapper): Promise<void> {
    const asked = await this.approvalAsked.promise;
    if (!asked) return;
    task.title = `Approval: the plan waits for an operator until ${asked.deadline ?? "its deadline"}`;
    if (this.options.address) {
      task.output = approvalCommands(this.options.address, asked.run_id)
        .map(([label, command]) => `${label}: ${command}`)
        .join("\n");
    }
    const decided = await this.approvalDecided.promise;
    if (!decided) return skip(task, "Approval: no decision");
    task.output = "";
    const plan = decided.status === "edited" && this.editedPlan;
    const edited = plan ? ` (the plan now has ${stepCount(plan.steps.length)})` : "";
    task.title = `Approval: ${describeDecision(decided)}${edited}`;
    if (decided.status === "rejected" || decided.status === "timed_out") throw new Error(task.title);
  }

  private async workerTask(task: TaskWrapper): Promise<unknown> {
    const first = await this.planAt(0).promise;
    await this.waitsOver.promise;
    const plan = this.editedPlan ?? first;
    if (!plan) return skip(task, "Worker: no steps");
    if (this.planRejected) return skip(task, "Worker: no step ran (the plan was rejected)");
    task.title = `Worker: ${plan.steps.length} steps`;
    return task.newListr([...this.stepTasks(plan, 0, plan.steps), this.replanTask(0)], {
      concurrent: true,
      exitOnError: false,
    });
  }

  private stepTasks(plan: Plan, generation: number, steps: Plan["steps"]): ListrTask[] {
    const levelOf = new Map(plan.levels.flatMap((ids, level) => ids.map((id) => [id, level] as const)));
    return steps.map((planned) => ({
      title: `${planned.id} ${planned.tool} (level ${levelOf.get(planned.id) ?? "?"}): waiting`,
      task: async (_ctx, sub) => {
        const label = `${planned.id} ${planned.tool} (level ${levelOf.get(planned.id) ?? "?"})`;
        const progress = this.step(generation, planned.id);
        if (!(await progress.started.promise)) return skip(sub, `${label}: not run`);
        sub.title = `${label}: running`;
        const done = await progress.finished.promise;
        if (!done) return skip(sub, `${label}: did not finish`);
        if (done.status === "failed") {
          sub.title = `${label}: failed in ${done.duration_ms ?? "?"} ms: ${done.error ?? "error"}`;
          throw new Error(sub.title);
        }
        sub.title = `${label}: completed in ${done.duration_ms ?? "?"} ms`;
      },
    }));
  }

  /**
   * Untitled (renderers do not show a task without a title) until a replan ends plan `generation`;
   * then it names the replan and holds the next plan's steps, and that plan's own watcher.
   */
  private replanTask(generation: number): ListrTask {
    return {
      task: async (_ctx, sub) => {
        const replan = await this.replanAt(generation).promise;
        if (!replan) return;
        const described = describeReplan(replan);
        const head = `${described.charAt(0).toUpperCase()}${described.slice(1)}`;
        sub.title = head;
        const plan = await this.planAt(generation + 1).promise;
        if (!plan) return skip(sub, `${head} (no new plan)`);
        const reusable = this.completedAtReplan[generation] ?? new Set<string>();
        const toRun = plan.steps.filter((planned) => !reusable.has(planned.id));
        const reused = plan.steps.length - toRun.length;
        sub.title = `${head} → new plan: ${toRun.length} ${toRun.length === 1 ? "step" : "steps"} to run${reused ? `, ${reused} reused` : ""}`;
        return sub.newListr(
          [...this.stepTasks(plan, generation + 1, toRun), this.replanTask(generation + 1)],
          {
            concurrent: true,
            exitOnError: false,
          },
        );
      },
    };
  }

  private async solverTask(task: TaskWrapper): Promise<void> {
    const started = await this.solverStarted.promise;
    if (!started) return skip(task, "Solver: not run");
    task.title = "Solver: running";
    const done = await this.solverDone.promise;
    if (!done) return skip(task, "Solver: did not finish");
    // The server's clock on both ends: the time the solver took, not the time this display saw.
    task.title = `Solver: completed in ${Date.parse(done.timestamp) - Date.parse(started.timestamp)} ms`;
  }

  private async resultTask(task: TaskWrapper): Promise<void> {
    const complete = await this.complete.promise;
    if (!complete) return skip(task, "Result: unknown");
    if (complete.status !== "SUCCEEDED") {
      task.title = `Result: ${complete.status}${complete.error ? `: ${complete.error}` : ""}`;
      throw new Error(task.title);
    }
    task.title = "Result: SUCCEEDED";
  }
}

type TaskWrapper = Parameters<NonNullable<ListrTask["task"]>>[1];

/** The title says why (renderers differ in how they show a skip message; every one shows the title). */
function skip(task: TaskWrapper, title: string): void {
  task.title = title;
  task.skip();
}
