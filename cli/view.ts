// How a run's progress is shown while it runs. Plain: the lines of progress.ts formatEvent, one
// per event (logs, pipes, CI, and the local mode). Live (a terminal): a listr2 task list with one
// line per plan step that turns from waiting to running to completed/failed with its duration.
import { Listr, type ListrTask } from "listr2";
import type { Plan, ProgressEvent } from "../lambdas/core/types.ts";
import { formatEvent } from "./progress.ts";

export interface ProgressView {
  event(event: ProgressEvent): void;
  /** The run is over (or following it failed): settle the display. */
  finish(): Promise<void>;
}

export class PlainView implements ProgressView {
  constructor(private readonly say: (line: string) => void) {}

  event(event: ProgressEvent): void {
    for (const line of formatEvent(event)) this.say(line);
  }

  async finish(): Promise<void> {}
}

export function createProgressView(options: {
  json: boolean;
  tty: boolean;
  say: (line: string) => void;
}): ProgressView {
  if (options.json) return { event: () => undefined, finish: async () => undefined };
  return options.tty ? new LiveView() : new PlainView(options.say);
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

interface StepProgress {
  /** The `started` event (level), or undefined when the run ended before the step started. */
  started: Deferred<WorkerEvent | undefined>;
  /** The `completed`/`failed` event, or undefined when the step never finished. */
  finished: Deferred<WorkerEvent | undefined>;
}

/**
 * Events arrive before or after the task that shows them is running: each stage is a deferred that
 * the event settles and the task awaits. finish() settles whatever never happened as "not run".
 */
export class LiveView implements ProgressView {
  private readonly plan = deferred<Plan | undefined>();
  private readonly solverStarted = deferred<SolverEvent | undefined>();
  private readonly solverDone = deferred<SolverEvent | undefined>();
  private readonly complete = deferred<CompleteEvent | undefined>();
  private readonly steps = new Map<string, StepProgress>();
  private readonly running: Promise<unknown>;

  constructor(options: { renderer?: "default" | "simple" | "test" } = {}) {
    const list = new Listr(
      [
        { title: "Plan", task: (_ctx, task) => this.planTask(task) },
        { title: "Worker", task: (_ctx, task) => this.workerTask(task) },
        { title: "Solver", task: (_ctx, task) => this.solverTask(task) },
        { title: "Result", task: (_ctx, task) => this.resultTask(task) },
      ],
      {
        exitOnError: false,
        renderer: options.renderer ?? "default",
        rendererOptions: { collapseSubtasks: false },
      } as never,
    );
    // Failed steps are shown as failed tasks; they are the run's outcome, not the CLI's error.
    this.running = list.run().catch(() => undefined);
  }

  event(event: ProgressEvent): void {
    switch (event.stage) {
      case "plan":
        this.plan.resolve(event.plan);
        return;
      case "worker": {
        const step = this.step(event.step);
        if (event.status === "started") step.started.resolve(event);
        else {
          step.started.resolve(event);
          step.finished.resolve(event);
        }
        return;
      }
      case "solver":
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

  private settleRest(): void {
    this.plan.resolve(undefined);
    for (const step of this.steps.values()) {
      step.started.resolve(undefined);
      step.finished.resolve(undefined);
    }
    this.solverStarted.resolve(undefined);
    this.solverDone.resolve(undefined);
  }

  private step(id: string): StepProgress {
    let step = this.steps.get(id);
    if (!step) {
      step = { started: deferred(), finished: deferred() };
      // Settled already (the run ended): a step seen only now never ran.
      if (this.complete.settled) {
        step.started.resolve(undefined);
        step.finished.resolve(undefined);
      }
      this.steps.set(id, step);
    }
    return step;
  }

  private async planTask(task: TaskWrapper): Promise<void> {
    const plan = await this.plan.promise;
    if (!plan) return skip(task, "Plan: none (the run ended before planning)");
    task.title = `Plan: ${plan.steps.length} steps in ${plan.levels.length} dependency levels`;
  }

  private async workerTask(task: TaskWrapper): Promise<unknown> {
    const plan = await this.plan.promise;
    if (!plan) return skip(task, "Worker: no steps");
    const levelOf = new Map(plan.levels.flatMap((ids, level) => ids.map((id) => [id, level] as const)));
    const subtasks: ListrTask[] = plan.steps.map((planned) => ({
      title: `${planned.id} ${planned.tool} (level ${levelOf.get(planned.id) ?? "?"}): waiting`,
      task: async (_ctx, sub) => {
        const label = `${planned.id} ${planned.tool} (level ${levelOf.get(planned.id) ?? "?"})`;
        const progress = this.step(planned.id);
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
    task.title = `Worker: ${plan.steps.length} steps`;
    return task.newListr(subtasks, { concurrent: true, exitOnError: false });
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
