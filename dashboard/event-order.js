// A run's progress events once each and in seq order, whatever delivers them: WebSocket pushes,
// pages of GET /v1/runs/{run_id}/events, a replay after a reconnect, the runs table itself. The one
// rule for the page (live.js). The server side and the CLI's follower read
// lambdas/contracts/event-order.ts; the page is served as plain files and cannot import TypeScript,
// so this file is its twin, held to the same output by test/unit/contracts/event-order.test.ts.
// event-order.d.ts types it. docs/events.md describes the events and how to follow a run.
//
// Why ordering is needed at all: a seq is handed out (an atomic counter) before its event is
// written, so the steps of one level can land seq 5 before seq 4. A follower that jumped to 5 would
// never see 4, so events wait in a buffer until the hole before them closes, and the position to
// read or subscribe from next is always the last CONTIGUOUS seq. Once the run has ended, every
// writer has finished: a hole that is still there is a lost write, not a late one, and a caller
// that knows the run ended says so (`final`) to release what waits behind it.

/**
 * A value that looks like a progress event: the run it belongs to, its integer seq and its stage.
 * Anything else (an error message on the WebSocket, API Gateway's own answers) is not one.
 */
export function isProgressEvent(value) {
  return (
    typeof value === "object" &&
    value !== null &&
    Number.isInteger(value.seq) &&
    typeof value.stage === "string" &&
    typeof value.run_id === "string"
  );
}

export class EventOrder {
  #runId;
  #last;
  #onEvent;
  #stopAtComplete;
  #done = false;
  /** seq → the first copy of that event that arrived, while an earlier seq is missing. */
  #pending = new Map();

  /**
   * @param {object} [options]
   * @param {string} [options.runId] only this run's events are taken (undefined: any object with a seq).
   * @param {number} [options.afterSeq] the caller has everything up to this seq (default 0: nothing).
   * @param {(event: object) => void} [options.onEvent] called for each event as it is released.
   * @param {boolean} [options.stopAtComplete] true (default): the first `complete` event released
   *   ends the stream, for a follower that stops there. false: a `resume` after it reopens the run
   *   and its events are released too (the dashboard shows a run's whole history).
   */
  constructor({ runId, afterSeq = 0, onEvent, stopAtComplete = true } = {}) {
    this.#runId = runId;
    this.#last = afterSeq;
    this.#onEvent = onEvent;
    this.#stopAtComplete = stopAtComplete;
  }

  /** The last seq released, with none missing before it: what to read or subscribe after next. */
  get lastSeq() {
    return this.#last;
  }

  /** The last event released is the run's `complete` event. */
  get done() {
    return this.#done;
  }

  /** Events held back behind a missing seq. */
  get buffered() {
    return this.#pending.size;
  }

  /**
   * Takes events in any order, duplicates included, and releases (returns, and hands to onEvent)
   * those that now follow lastSeq without a hole, in seq order. `final`: the events given are all
   * that the run will ever store after lastSeq (it has ended); holes among them are skipped.
   */
  push(events, { final = false } = {}) {
    const released = [];
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

  #accepts(event) {
    return (
      typeof event === "object" &&
      event !== null &&
      Number.isInteger(event.seq) &&
      event.seq > this.#last &&
      (this.#runId === undefined || event.run_id === this.#runId)
    );
  }

  #stopped() {
    return this.#done && this.#stopAtComplete;
  }
}

/**
 * The events that directly follow `afterSeq` without a hole, in seq order, once each: what a reader
 * of the stored events may hand on now (the events route, the WebSocket push).
 */
export function contiguousAfter(events, afterSeq) {
  return new EventOrder({ afterSeq, stopAtComplete: false }).push(events);
}
