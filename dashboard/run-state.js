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

export const TERMINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED", "INTERRUPTED", "NEEDS_REVIEW"]);
const PROGRESS = {
  PLANNING: 0,
  RUNNING: 1,
  SOLVING: 2,
  SUCCEEDED: 3,
  FAILED: 3,
  CANCELLED: 3,
  INTERRUPTED: 3,
  NEEDS_REVIEW: 3,
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
      default:
        break;
    }
    return { applied: true, refetch };
  }

  /** The replan events in seq order. */
  orderedReplans() {
    return [...this.replanEvents.values()].sort((a, b) => a.seq - b.seq);
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
    const recordKnowsMore = recordPlan && this.replans + 1 > this.planEventCount;
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
    if (result || this.solverEvent?.status === "completed") solverStage = "completed";
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
      replanEvents: replans,
      result,
      usage: record?.usage,
      planReview: record?.plan_review,
      resultReview: record?.result_review,
      error: record?.error ?? (this.completeEvent?.error ? { error: this.completeEvent.error } : undefined),
      created_at: record?.created_at,
      updated_at: record?.updated_at,
      lastSeq: this.lastSeq,
    };
  }
}
