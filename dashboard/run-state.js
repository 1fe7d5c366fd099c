// The state of one run as the page knows it: the last run record fetched over REST plus every
// progress event received (WebSocket or REST replay). No DOM here: the view is derived from this.
//
// Events are deduplicated by seq (a reconnect replays everything after the last contiguous seq, so
// the same event may arrive twice) and may be applied in any order: each step keeps the event with
// the highest seq, and a step with stored evidence is finished whatever late events say.
//
// A replan (a required step failed and the planner planned again) is followed by a second `plan`
// event: the latest plan is drawn, its steps whose evidence is already stored stay completed, and a
// failure from before the replan no longer marks a step of the new plan as failed.

//
// A run may wait for a person: for its caller's answer (a `question` event, the record's
// `clarification`) or for an operator's decision on its plan (an `approval` event with status
// pending, the record's `approval`). Each wait happens at most once per run and, once answered,
// decided or timed out, never opens again: whichever source (an event, the record, or the page's
// own accepted POST) says it is over wins, so a record fetched before the answer cannot reopen it.

import { TERMINAL_STATUSES, WAITING_STATUSES } from "./run-status.js";

export const TERMINAL = new Set(TERMINAL_STATUSES);
/** Statuses in which the run waits for a person. */
export const WAITING = new Set(WAITING_STATUSES);
const PROGRESS = {
  PLANNING: 0,
  RUNNING: 1,
  SOLVING: 2,
  SUCCEEDED: 3,
  FAILED: 3,
  CANCELLED: 3,
  INTERRUPTED: 3,
  NEEDS_REVIEW: 3,
  REJECTED: 3,
};

export class RunState {
  constructor(runId) {
    this.runId = runId;
    this.record = null;
    /** seq → event, for dedupe and the activity log. */
    this.events = new Map();
    /** Highest seq such that 1..lastSeq have all arrived: what a (re)subscription asks to continue after. */
    this.lastSeq = 0;
    this.plan = null;
    /** The `plan` event with the highest seq (its plan may have been left out of a WebSocket message). */
    this.planEvent = null;
    this.planEventCount = 0;
    /** `replan` events by seq. */
    this.replanEvents = new Map();
    /** step id → the worker event with the highest seq for that step. */
    this.stepEvents = new Map();
    this.solverEvent = null;
    this.completeEvent = null;
    /** The latest `resume` event: a `complete` before it ended an earlier attempt, not the run. */
    this.resumeEvent = null;
    /** The latest `question`, `answer` and `approval` events. */
    this.questionEvent = null;
    this.answerEvent = null;
    this.approvalEvent = null;
    /** Waits ("input", "approval") this page answered itself (the API accepted the POST). */
    this.resolvedWaits = new Set();
  }

  applyRecord(record) {
    if (record?.run_id === this.runId) this.record = record;
  }

  /**
   * Applies one progress event. Returns what the caller should do next:
   * `applied` false for duplicates and foreign events, `refetch` true when the run record has
   * information the event does not carry (truncated message, evidence of a finished step, the end).
   */
  applyEvent(event) {
    if (!event || event.run_id !== this.runId || !Number.isInteger(event.seq) || event.seq < 1) {
      return { applied: false, refetch: false };
    }
    if (this.events.has(event.seq)) return { applied: false, refetch: false };
    this.events.set(event.seq, event);
    while (this.events.has(this.lastSeq + 1)) this.lastSeq += 1;

    let refetch = event.truncated === true;
    switch (event.stage) {
      case "plan":
        this.planEventCount += 1;
        if (!this.planEvent || this.planEvent.seq < event.seq) {
          this.planEvent = event;
          if (Array.isArray(event.plan?.steps)) this.plan = event.plan;
        }
        // Without its plan (too large for a WebSocket message), or a new plan after a replan: the
        // record holds it, with the replan count.
        if (!Array.isArray(event.plan?.steps) || this.replanEvents.size > 0) refetch = true;
        break;
      case "worker": {
        const previous = this.stepEvents.get(event.step);
        if (!previous || previous.seq < event.seq) this.stepEvents.set(event.step, event);
        if (event.status !== "started") refetch = true; // its evidence is now in the record
        break;
      }
      case "solver":
        if (!this.solverEvent || this.solverEvent.seq < event.seq) this.solverEvent = event;
        break;
      case "complete":
        if (!this.resumeEvent || this.resumeEvent.seq < event.seq) this.completeEvent = event;
        refetch = true; // final status, usage, timestamps
        break;
      case "replan":
        this.replanEvents.set(event.seq, event);
        refetch = true; // the record's plan and replan count change
        break;
      case "resume":
        if (!this.resumeEvent || this.resumeEvent.seq < event.seq) this.resumeEvent = event;
        if (this.completeEvent && this.completeEvent.seq < event.seq) this.completeEvent = null;
        refetch = true; // status and attempt
        break;
      // The record holds the wait's full state (an answer also changes the plan's arguments).
      case "question":
        if (!this.questionEvent || this.questionEvent.seq < event.seq) this.questionEvent = event;
        refetch = true;
        break;
      case "answer":
        if (!this.answerEvent || this.answerEvent.seq < event.seq) this.answerEvent = event;
        refetch = true;
        break;
      case "approval":
        if (!this.approvalEvent || this.approvalEvent.seq < event.seq) this.approvalEvent = event;
        refetch = true;
        break;
      default:
        break;
    }
    return { applied: true, refetch };
  }

  /**
   * The API accepted this page's answer or decision: the wait is over even before the event saying
   * so arrives (it was stored before the API answered, but may still be on its way).
   */
  resolveWait(kind) {
    if (kind === "input" || kind === "approval") this.resolvedWaits.add(kind);
  }

  /** What the run waits for now: "input", "approval" or null. */
  get waitingFor() {
    if (this.completeEvent || TERMINAL.has(this.record?.status)) return null;
    if (this.#inputOpen()) return "input";
    if (this.#approvalOpen()) return "approval";
    return null;
  }

  #inputOpen() {
    const recorded = this.record?.clarification?.status;
    const asked = this.questionEvent !== null || recorded === "asked";
    const over =
      this.answerEvent !== null ||
      (recorded !== undefined && recorded !== "asked") ||
      this.resolvedWaits.has("input");
    return asked && !over;
  }

  #approvalOpen() {
    const recorded = this.record?.approval?.status;
    const pending = this.approvalEvent?.status === "pending" || recorded === "pending";
    const over =
      (this.approvalEvent !== null && this.approvalEvent.status !== "pending") ||
      (recorded !== undefined && recorded !== "pending") ||
      this.resolvedWaits.has("approval");
    return pending && !over;
  }

  /**
   * The run's question: the record's clarification, else what the `question` event carried; an
   * `answer` event the record does not know of yet sets its status.
   */
  clarification() {
    const recorded = this.record?.clarification;
    let answered;
    if (this.answerEvent) answered = this.answerEvent.status === "timed_out" ? "timed_out" : "answered";
    if (recorded)
      return recorded.status === "asked" && answered ? { ...recorded, status: answered } : recorded;
    if (!this.questionEvent) return undefined;
    const { questions, deadline } = this.questionEvent;
    return { status: answered ?? "asked", questions: Array.isArray(questions) ? questions : [], deadline };
  }

  /**
   * The plan's approval: the record's, else what the `approval` events said; a decision the record
   * does not know of yet (read while pending) comes from its event.
   */
  approval() {
    const recorded = this.record?.approval;
    const event = this.approvalEvent;
    const told = event
      ? {
          status: event.status,
          ...(event.deadline ? { deadline: event.deadline } : {}),
          ...(event.reason ? { reason: event.reason } : {}),
        }
      : undefined;
    if (!recorded) return told;
    return recorded.status === "pending" && told && told.status !== "pending"
      ? { ...recorded, ...told }
      : recorded;
  }

  /** The replan events in seq order. */
  orderedReplans() {
    return [...this.replanEvents.values()].sort((a, b) => a.seq - b.seq);
  }

  /** Where the run's first plan came from ("planner" or "cache"), once the record says; null before. */
  get planSource() {
    const source = this.record?.plan_source;
    return source === "cache" || source === "planner" ? source : null;
  }

  /** How often the planner planned again: the record's count, or the events seen if they know more. */
  get replans() {
    const counted = this.record?.replans;
    const fromRecord = Number.isInteger(counted) && counted > 0 ? counted : 0;
    return Math.max(fromRecord, this.replanEvents.size);
  }

  /**
   * The latest plan. The events' plan unless the record knows of more plans than the events carried
   * (a page that has not received the new plan's event yet), or the latest plan event came without
   * its plan (too large for a WebSocket message: the record has it).
   */
  latestPlan() {
    const recordPlan = this.record?.plan;
    const eventPlan = this.planEvent && this.plan === this.planEvent.plan ? this.plan : null;
    if (!eventPlan) return recordPlan ?? this.plan;
    // An answer is merged into the plan's arguments without a new plan event.
    const answeredSince =
      this.answerEvent !== null &&
      this.answerEvent.seq > this.planEvent.seq &&
      this.record?.clarification !== undefined &&
      this.record.clarification.status !== "asked";
    const recordKnowsMore = recordPlan && (this.replans + 1 > this.planEventCount || answeredSince);
    return recordKnowsMore ? recordPlan : eventPlan;
  }

  /** Events in seq order (the activity log). */
  orderedEvents() {
    return [...this.events.values()].sort((a, b) => a.seq - b.seq);
  }

  get status() {
    if (this.completeEvent) return this.completeEvent.status;
    const fromRecord = this.record?.status;
    if (fromRecord && TERMINAL.has(fromRecord)) return fromRecord;
    const waiting = this.waitingFor;
    if (waiting) return waiting === "input" ? "AWAITING_INPUT" : "AWAITING_APPROVAL";
    // The record was read while the run waited; the wait is over now (see waitingFor).
    if (WAITING.has(fromRecord)) return this.solverEvent ? "SOLVING" : "RUNNING";
    let fromEvents = this.events.size > 0 ? "PLANNING" : undefined;
    if (this.plan || this.stepEvents.size > 0) fromEvents = "RUNNING";
    if (this.solverEvent) fromEvents = "SOLVING";
    if (!fromRecord) return fromEvents ?? "PENDING";
    if (!fromEvents) return fromRecord;
    // A record fetched before the latest events is older than they are: keep the further one.
    return PROGRESS[fromEvents] > PROGRESS[fromRecord] ? fromEvents : fromRecord;
  }

  get isTerminal() {
    return TERMINAL.has(this.status);
  }

  /** Everything the run view draws, derived from record + events. */
  view() {
    const record = this.record;
    const plan = this.latestPlan();
    const status = this.status;
    const replans = this.orderedReplans();
    const lastReplan = replans.at(-1);
    const terminal = TERMINAL.has(status);
    const evidenceById = new Map((record?.evidence ?? []).map((e) => [e.step_id, e]));
    const levelOf = new Map();
    plan?.levels?.forEach((ids, level) => {
      for (const id of ids) levelOf.set(id, level);
    });

    const steps = (plan?.steps ?? []).map((step) => {
      let evidence = evidenceById.get(step.id);
      let event = this.stepEvents.get(step.id);
      if (lastReplan) {
        // What failed before the latest replan is what the new plan works around: a step of the new
        // plan with that id runs again. Completed steps before it are reused as they are.
        const replannedAt = Date.parse(lastReplan.timestamp);
        if (evidence?.status === "error" && !(Date.parse(evidence.finished_at) > replannedAt))
          evidence = undefined;
        if (event && event.seq < lastReplan.seq && event.status !== "completed") event = undefined;
      }
      let stepStatus = "pending";
      if (evidence) stepStatus = evidence.status === "ok" ? "completed" : "failed";
      else if (event) stepStatus = event.status === "started" ? "running" : event.status;
      // A run that ended early leaves steps that will never run: say so rather than "pending".
      if (terminal && stepStatus === "pending" && status !== "SUCCEEDED") stepStatus = "skipped";
      if (terminal && stepStatus === "running") stepStatus = status === "CANCELLED" ? "cancelled" : "failed";
      return {
        id: step.id,
        tool: step.tool,
        description: step.description,
        args: step.args,
        depends_on: step.depends_on ?? [],
        level: levelOf.get(step.id) ?? event?.level ?? 0,
        status: stepStatus,
        duration_ms: evidence?.duration_ms ?? event?.duration_ms,
        error: evidence?.error ?? event?.error,
        started_at: evidence?.started_at ?? (event?.status === "started" ? event.timestamp : undefined),
        evidence,
      };
    });

    const result = record?.result ?? this.solverEvent?.results;
    const planLatest = this.planEvent?.seq ?? 0;
    let planStage = "pending";
    // The planner is at work again between a replan and the new plan.
    if (lastReplan && lastReplan.seq > planLatest && !terminal) planStage = "running";
    else if (plan) planStage = "completed";
    else if (terminal) planStage = status === "SUCCEEDED" ? "completed" : "failed";
    else if (status === "PLANNING" || this.events.size > 0 || record) planStage = "running";

    let solverStage = "pending";
    // A rejected plan never reaches the solver: its result is Finalize's note saying so.
    if (status === "REJECTED" && !this.solverEvent) solverStage = "skipped";
    else if (result || this.solverEvent?.status === "completed") solverStage = "completed";
    else if (this.solverEvent?.status === "started") solverStage = terminal ? "failed" : "running";
    else if (terminal && status !== "SUCCEEDED") solverStage = "skipped";

    return {
      runId: this.runId,
      status,
      terminal,
      request: record?.request,
      plan,
      steps,
      planStage,
      solverStage,
      replans: this.replans,
      planSource: this.planSource,
      replanEvents: replans,
      result,
      usage: record?.usage,
      cost: record?.cost,
      planReview: record?.plan_review,
      resultReview: record?.result_review,
      waiting: this.waitingFor,
      /** A customer's chat request: only that customer answers or confirms it, in the chat. */
      customerRun: Boolean(record?.customer_id),
      clarification: this.clarification(),
      approval: this.approval(),
      error: record?.error ?? (this.completeEvent?.error ? { error: this.completeEvent.error } : undefined),
      created_at: record?.created_at,
      updated_at: record?.updated_at,
      lastSeq: this.lastSeq,
    };
  }
}
