// Progress events (docs/api.openapi.yaml ProgressEvent): stored first (the durable, ordered record with gap-free seq),
// then handed to every sink. Sinks are where live delivery plugs in (WebSocket push): adding one
// touches only the list built at cold start. A sink failure never fails a run.
import type { ProgressEvent, ProgressEventBody } from "../core/types.ts";
import type { EventRecordFields, RunStore } from "./runs.ts";

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
    await Promise.all(
      this.sinks.map(async (sink) => {
        try {
          await sink.deliver(event);
        } catch (error) {
          this.logger?.warn("event sink failed", { sink: sink.name, seq: event.seq, error: String(error) });
        }
      }),
    );
    return event;
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
