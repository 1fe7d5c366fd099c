// A run's progress events once each and in seq order, whatever delivers them: WebSocket pushes,
// pages of GET /v1/runs/{run_id}/events, a replay after a reconnect, the runs table itself. The
// server side (the events route and the WebSocket push read contiguousAfter) and the CLI's follower
// import it from here. The dashboard is served as plain files and cannot import TypeScript:
// dashboard/event-order.js is the same rule for the page, and test/unit/contracts/event-order.test.ts
// holds the two to the same output. docs/events.md describes the events and how to follow a run.
// Imports nothing.
//
// Why ordering is needed at all: a seq is handed out (an atomic counter) before its event is
// written, so the steps of one level can land seq 5 before seq 4. A follower that jumped to 5 would
// never see 4, so events wait in a buffer until the hole before them closes, and the position to
// read or subscribe from next is always the last CONTIGUOUS seq. Once the run has ended, every
// writer has finished: a hole that is still there is a lost write, not a late one, and a caller
// that knows the run ended says so (`final`) to release what waits behind it.

/** What ordering reads of an event; anything else is carried through untouched. */
export interface Sequenced {
  seq: number;
  run_id?: string;
  stage?: string;
}

/**
 * A value that looks like a progress event: the run it belongs to, its integer seq and its stage.
 * Anything else (an error message on the WebSocket, API Gateway's own answers) is not one.
 */
export function isProgressEvent(value: unknown): value is { run_id: string; seq: number; stage: string } {
  if (typeof value !== "object" || value === null) return false;
  const fields = value as Record<string, unknown>;
  return (
    Number.isInteger(fields.seq) && typeof fields.stage === "string" && typeof fields.run_id === "string"
  );
}

export interface EventOrderOptions<E extends Sequenced> {
  /** Only this run's events are taken (undefined: any object with a seq). */
  runId?: string;
  /** The caller has everything up to this seq (default 0: nothing). */
  afterSeq?: number;
  /** Called for each event as it is released, in seq order. */
  onEvent?: (event: E) => void;
  /**
   * true (default): the first `complete` event released ends the stream, for a follower that stops
   * there. false: a `resume` after it reopens the run and its events are released too.
   */
  stopAtComplete?: boolean;
}

export class EventOrder<E extends Sequenced = Sequenced> {
  readonly #runId: string | undefined;
  #last: number;
  readonly #onEvent: ((event: E) => void) | undefined;
  readonly #stopAtComplete: boolean;
  #done = false;
  /** seq → the first copy of that event that arrived, while an earlier seq is missing. */
  readonly #pending = new Map<number, E>();

  constructor({ runId, afterSeq = 0, onEvent, stopAtComplete = true }: EventOrderOptions<E> = {}) {
    this.#runId = runId;
    this.#last = afterSeq;
    this.#onEvent = onEvent;
    this.#stopAtComplete = stopAtComplete;
  }

  /** The last seq released, with none missing before it: what to read or subscribe after next. */
  get lastSeq(): number {
    return this.#last;
  }

  /** The last event released is the run's `complete` event. */
  get done(): boolean {
    return this.#done;
  }

  /** Events held back behind a missing seq. */
  get buffered(): number {
    return this.#pending.size;
  }

  /**
   * Takes events in any order, duplicates included, and releases (returns, and hands to onEvent)
   * those that now follow lastSeq without a hole, in seq order. `final`: the events given are all
   * that the run will ever store after lastSeq (it has ended); holes among them are skipped.
   */
  push(events: Iterable<E>, { final = false }: { final?: boolean } = {}): E[] {
    const released: E[] = [];
    if (this.#stopped()) return released;
    for (const event of events) {
      if (!this.#accepts(event) || this.#pending.has(event.seq)) continue;
      this.#pending.set(event.seq, event);
    }
    while (!this.#stopped()) {
      let next = this.#pending.get(this.#last + 1);
      if (!next && final && this.#pending.size > 0)
        next = this.#pending.get(Math.min(...this.#pending.keys()));
      if (!next) break;
      this.#pending.delete(next.seq);
      this.#last = next.seq;
      this.#done = next.stage === "complete";
      released.push(next);
      this.#onEvent?.(next);
    }
    // Nothing more is released after the end: what waits (a late writer's event) is let go.
    if (this.#stopped()) this.#pending.clear();
    return released;
  }

  #accepts(event: E): boolean {
    return (
      typeof event === "object" &&
      event !== null &&
      Number.isInteger(event.seq) &&
      event.seq > this.#last &&
      (this.#runId === undefined || event.run_id === this.#runId)
    );
  }

  #stopped(): boolean {
    return this.#done && this.#stopAtComplete;
  }
}

/**
 * The events that directly follow `afterSeq` without a hole, in seq order, once each: what a reader
 * of the stored events may hand on now (the events route, the WebSocket push).
 */
export function contiguousAfter<E extends Sequenced>(events: Iterable<E>, afterSeq: number): E[] {
  return new EventOrder<E>({ afterSeq, stopAtComplete: false }).push(events);
}
