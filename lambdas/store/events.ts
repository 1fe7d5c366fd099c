// Progress events (docs/api.openapi.yaml ProgressEvent): stored first (the durable, ordered record with gap-free seq),
// then handed to every sink. Sinks are where live delivery plugs in (WebSocket push): adding one
// touches only the list built at cold start. A sink failure never fails a run.
import type { ProgressEvent, ProgressEventBody, Usage } from "../core/types.ts";
import type { EventRecordFields, InvocationCount, RunStore } from "./runs.ts";

export interface EventSink {
  readonly name: string;
  deliver(event: ProgressEvent): Promise<void>;
}

export interface EventPublisherLogger {
  warn(message: string, extra: Record<string, unknown>): void;
}

export class EventPublisher {
  constructor(
    private readonly runs: RunStore,
    private readonly sinks: EventSink[] = [],
    private readonly logger?: EventPublisherLogger,
  ) {}

  /**
   * Undefined when the run's stream is already closed by its `complete` event (the event is dropped,
   * and `record` is not stored). `record`: run fields the event announces, stored with its seq.
   */
  async publish(
    runId: string,
    body: ProgressEventBody,
    record?: EventRecordFields,
  ): Promise<ProgressEvent | undefined> {
    const event = await this.runs.appendEvent(runId, body, record);
    if (!event) {
      this.logger?.warn("event after the run's complete event dropped", { run_id: runId, stage: body.stage });
      return undefined;
    }
    await this.deliver(event);
    return event;
  }

  /**
   * `publish`, with the moment the event's seq is handed out: an event of the same writer that must
   * follow it in seq only waits for `reserved`, not for the item to be written too.
   */
  begin(
    runId: string,
    body: ProgressEventBody,
  ): { reserved: Promise<unknown>; published: Promise<ProgressEvent | undefined> } {
    const reserved = this.runs.reserveEventSeq(runId, body.stage);
    const published = reserved.then(async (seq) => {
      if (seq === undefined) {
        this.logger?.warn("event after the run's complete event dropped", {
          run_id: runId,
          stage: body.stage,
        });
        return undefined;
      }
      const event = await this.runs.putEvent(runId, seq, body);
      await this.deliver(event);
      return event;
    });
    return { reserved, published };
  }

  /**
   * Publishes the event that reports `write` (a worker's evidence) one round trip sooner than
   * `await write` then `publish`: the event's seq is reserved while `write` runs, with `usage`
   * added in that same update, and the event item is stored once `write` has settled, so it never
   * precedes what it reports. The reserved seq is always filled: `bodyOf` is also asked for the
   * body when `write` failed (that error is then thrown after the event is stored). With the stream
   * closed, no event is stored and `usage` is added on its own. `invocation`, asked for when the seq
   * is reserved, is counted in that update; `counted` says whether it was (not on a closed stream).
   * `after`: the seq is reserved once it has settled (an earlier event's reservation, see begin).
   */
  async publishAfter<T>(
    runId: string,
    stage: ProgressEventBody["stage"],
    write: Promise<T>,
    bodyOf: (written: PromiseSettledResult<T>) => ProgressEventBody,
    counts: { usage?: Usage; invocation?: () => InvocationCount; after?: Promise<unknown> } = {},
  ): Promise<{ value: T; event: ProgressEvent | undefined; counted: boolean }> {
    const { usage, invocation } = counts;
    const [written, reserved] = await Promise.allSettled([
      write,
      (counts.after ?? Promise.resolve()).then(
        () => this.reserveWith(runId, stage, usage, invocation),
        () => this.reserveWith(runId, stage, usage, invocation),
      ),
    ]);
    if (reserved.status === "rejected")
      throw written.status === "rejected" ? written.reason : reserved.reason;
    let event: ProgressEvent | undefined;
    if (reserved.value === undefined) {
      this.logger?.warn("event after the run's complete event dropped", { run_id: runId, stage });
      if (usage) await this.runs.addUsage(runId, usage);
    } else {
      event = await this.runs.putEvent(runId, reserved.value, bodyOf(written));
      await this.deliver(event);
    }
    if (written.status === "rejected") throw written.reason;
    return { value: written.value, event, counted: reserved.value !== undefined };
  }

  private reserveWith(
    runId: string,
    stage: ProgressEventBody["stage"],
    usage: Usage | undefined,
    invocation: (() => InvocationCount) | undefined,
  ): Promise<number | undefined> {
    return this.runs.reserveEventSeq(runId, stage, {
      ...(usage ? { usage } : {}),
      ...(invocation ? { invocation: invocation() } : {}),
    });
  }

  private async deliver(event: ProgressEvent): Promise<void> {
    await Promise.all(
      this.sinks.map(async (sink) => {
        try {
          await sink.deliver(event);
        } catch (error) {
          this.logger?.warn("event sink failed", { sink: sink.name, seq: event.seq, error: String(error) });
        }
      }),
    );
  }
}

/**
 * The events that directly follow `afterSeq` without a hole. Seqs are handed out before their items
 * are written, so concurrent publishers (the steps of one level) can land seq 5 before seq 4: a
 * follower that jumped to 5 would never see 4. Followers advance only through contiguous seqs. The
 * rule is lambdas/contracts/event-order.ts, the CLI's too; the dashboard's twin is held equal to it
 * (docs/events.md).
 */
export { contiguousAfter } from "../contracts/event-order.ts";
