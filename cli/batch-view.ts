// How `rewoo batch` shows a batch while it runs, from the batch record it polls (GET
// /v1/batches/{id}): in a terminal a listr2 task whose title is a progress bar with the counts by
// status, redrawn in place; elsewhere (CI, pipes, --local logs) plain lines, one when the counts
// changed and no more often than `everyMs`, so a long portfolio does not flood a log.
import { Listr } from "listr2";
import pc from "picocolors";
import type { BatchRecordView } from "./api-client.ts";

export interface BatchProgressView {
  update(batch: BatchRecordView): void;
  /** Something the person should know while the batch runs (a line's run waits for someone). */
  note(line: string): void;
  /** The batch ended, or following it stopped: settle the display. */
  finish(): Promise<void>;
}

/** Line statuses in the order people read them: the good outcome, then what needs a look, then the rest. */
const STATUS_ORDER = [
  "SUCCEEDED",
  "NEEDS_REVIEW",
  "REJECTED",
  "FAILED",
  "INTERRUPTED",
  "CANCELLED",
  "INVALID",
  "STOPPED",
  "NOT_RUN",
  "RUNNING",
  "PENDING",
];

export function orderedStatuses(counts: Record<string, number>): string[] {
  const rank = (status: string) => {
    const index = STATUS_ORDER.indexOf(status);
    return index === -1 ? STATUS_ORDER.length : index;
  };
  return Object.keys(counts)
    .filter((status) => (counts[status] ?? 0) > 0)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** "SUCCEEDED 50 · NEEDS_REVIEW 2 · INVALID 3" (statuses with no line left out). */
export function countsText(counts: Record<string, number>, colour = true): string {
  return orderedStatuses(counts)
    .map((status) => `${colour ? colourStatus(status) : status} ${counts[status]}`)
    .join(" · ");
}

/** A bar of `width` cells: filled for the share of `done` in `total`. */
export function progressBar(done: number, total: number, width = 24): string {
  const share = total > 0 ? Math.min(Math.max(done / total, 0), 1) : 1;
  const filled = Math.round(share * width);
  return `[${"█".repeat(filled)}${"░".repeat(width - filled)}]`;
}

/** "57/200 lines processed (28%) · SUCCEEDED 50 · INVALID 7": what the bar shows, in words. */
export function progressText(batch: Pick<BatchRecordView, "processed" | "total" | "counts">): string {
  const percent = batch.total > 0 ? Math.floor((batch.processed / batch.total) * 100) : 100;
  const counts = countsText(batch.counts);
  return `${batch.processed}/${batch.total} lines processed (${percent}%)${counts ? ` · ${counts}` : ""}`;
}

export function colourStatus(status: string): string {
  if (status === "SUCCEEDED") return pc.green(status);
  if (["NEEDS_REVIEW", "RUNNING", "PENDING"].includes(status)) return pc.yellow(status);
  return pc.red(status);
}

export class PlainBatchView implements BatchProgressView {
  private lastShown: { processed: number; status: string } | undefined;
  private lastAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly say: (line: string) => void,
    private readonly options: { everyMs?: number; now?: () => number } = {},
  ) {}

  update(batch: BatchRecordView): void {
    const now = (this.options.now ?? Date.now)();
    const changed = batch.processed !== this.lastShown?.processed || batch.status !== this.lastShown?.status;
    const ended = batch.status !== "RUNNING";
    if (!changed || (!ended && now - this.lastAt < (this.options.everyMs ?? 2_000))) return;
    this.lastShown = { processed: batch.processed, status: batch.status };
    this.lastAt = now;
    this.say(`${pc.bold("BATCH")}   ${progressText(batch)}`);
  }

  note(line: string): void {
    this.say(pc.yellow(line));
  }

  async finish(): Promise<void> {}
}

/** One listr2 task: its title is the bar and the counts, its output the notes; it ends with the batch. */
export class LiveBatchView implements BatchProgressView {
  private readonly running: Promise<unknown>;
  private task: { title: string; output: string } | undefined;
  private latest: BatchRecordView | undefined;
  private notes: string[] = [];
  private end!: () => void;
  private readonly ended = new Promise<void>((resolve) => {
    this.end = resolve;
  });

  constructor(
    private readonly label: string,
    options: { renderer?: "default" | "simple" | "test" } = {},
  ) {
    const list = new Listr(
      [
        {
          title: `${label}: starting`,
          task: async (_ctx, task) => {
            this.task = task;
            this.draw();
            await this.ended;
            this.draw();
            if (this.latest && this.latest.status !== "SUCCEEDED") throw new Error(this.title());
          },
        },
      ],
      {
        exitOnError: false,
        renderer: options.renderer ?? "default",
        rendererOptions: { persistentOutput: true },
      } as never,
    );
    // A batch that did not succeed shows as a failed task; that is the batch's outcome, not the CLI's error.
    this.running = list.run().catch(() => undefined);
  }

  update(batch: BatchRecordView): void {
    this.latest = batch;
    this.draw();
  }

  note(line: string): void {
    this.notes = [...this.notes, line].slice(-5);
    this.draw();
  }

  async finish(): Promise<void> {
    this.end();
    await this.running;
  }

  private title(): string {
    const batch = this.latest;
    if (!batch) return `${this.label}: starting`;
    const state = batch.status === "RUNNING" ? "" : ` · batch ${colourStatus(batch.status)}`;
    return `${this.label} ${progressBar(batch.processed, batch.total)} ${progressText(batch)}${state}`;
  }

  private draw(): void {
    if (!this.task) return;
    this.task.title = this.title();
    if (this.notes.length) this.task.output = this.notes.join("\n");
  }
}

/** --json: stdout carries the summary alone; only what needs a person goes to `notice` (stderr). */
export class BatchNoticeView implements BatchProgressView {
  constructor(private readonly notice: (line: string) => void) {}

  update(): void {}

  note(line: string): void {
    this.notice(line);
  }

  async finish(): Promise<void> {}
}

export function createBatchView(options: {
  tty: boolean;
  json: boolean;
  label: string;
  say: (line: string) => void;
  notice: (line: string) => void;
}): BatchProgressView {
  if (options.json) return new BatchNoticeView(options.notice);
  return options.tty ? new LiveBatchView(options.label) : new PlainBatchView(options.say);
}
