// How a run's progress is shown while it runs. Plain: the lines of progress.ts formatEvent, one
// per event (logs, pipes, CI, and the local mode). Live (a terminal): a listr2 task list with one
// line per plan step that turns from waiting to running to completed/failed with its duration.
import { Listr, type ListrTask } from "listr2";
import type { Plan, ProgressEvent } from "../lambdas/core/types.ts";
import { describeReplan, formatEvent } from "./progress.ts";

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
type ReplanEvent = Extract<ProgressEvent, { stage: "replan" }>;

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
        this.planAt(this.planEvents++).resolve(event.plan);
        return;
      case "worker": {
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

  private settleRest(): void {
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

  private async workerTask(task: TaskWrapper): Promise<unknown> {
    const plan = await this.planAt(0).promise;
    if (!plan) return skip(task, "Worker: no steps");
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
