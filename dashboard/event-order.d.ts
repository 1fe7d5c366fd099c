// Types of event-order.js, for the tests that hold it equal to lambdas/contracts/event-order.ts.

/** What ordering reads of an event; anything else is carried through untouched. */
export interface Sequenced {
  seq: number;
  run_id?: string;
  stage?: string;
}

export function isProgressEvent(value: unknown): value is { run_id: string; seq: number; stage: string };

export interface EventOrderOptions<E extends Sequenced> {
  /** Only this run's events are taken (undefined: any object with a seq). */
  runId?: string;
  /** The caller has everything up to this seq (default 0). */
  afterSeq?: number;
  /** Called for each event as it is released, in seq order. */
  onEvent?: (event: E) => void;
  /** true (default): the first `complete` released ends the stream; false: a `resume` after it goes on. */
  stopAtComplete?: boolean;
}

export class EventOrder<E extends Sequenced = Sequenced> {
  constructor(options?: EventOrderOptions<E>);
  /** The last seq released with none missing before it: what to read or subscribe after next. */
  readonly lastSeq: number;
  /** The last event released is the run's `complete` event. */
  readonly done: boolean;
  /** Events held back behind a missing seq. */
  readonly buffered: number;
  /** Releases the events that now follow lastSeq without a hole; `final`: the run has ended, skip holes. */
  push(events: Iterable<E>, options?: { final?: boolean }): E[];
}

export function contiguousAfter<E extends Sequenced>(events: Iterable<E>, afterSeq: number): E[];
