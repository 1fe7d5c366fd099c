// The runs table: run record (META), evidence (STEP#), progress events (EVENT#) of one run share
// the partition key, so one Query returns a whole run. dynalite has no transactions, so every
// write that must be exactly-once is a conditional write instead.
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { DEFAULT_PROFILE } from "../contracts/agents.ts";
import type { RunMode } from "../contracts/api-types.ts";
import { RUNS_BY_DAY, RUNS_BY_LOAN, RUNS_BY_PROFILE, TTL_ATTRIBUTE } from "../contracts/tables.ts";
import type {
  Approval,
  Clarification,
  EvaluationRequest,
  Evidence,
  Plan,
  PlanSource,
  ProfileName,
  ProgressEvent,
  ProgressEventBody,
  Review,
  RunCost,
  RunRecord,
  RunResult,
  RunStatus,
  Usage,
} from "../core/types.ts";
import { TERMINAL_STATUSES, UNFINISHED_STATUSES } from "../core/types.ts";
import { conditionalWrite } from "./conditional.ts";
import {
  claimIdempotencyKey,
  getIdempotencyRecord,
  type IdempotencyRecord,
  releaseIdempotencyKey,
} from "./idempotency.ts";
import {
  dayKey,
  eventKey,
  loanKey,
  loanNumberOf,
  loanSortKey,
  META,
  profileKey,
  runKey,
  stepKey,
} from "./keys.ts";
import { queryAllPages, scanAllPages } from "./pagination.ts";
import type { MetaItem, RunsTable } from "./run-item.ts";
import { type ListBounds, listRecentRuns, type RunListPage, type RunListQuery } from "./run-list.ts";

/** Finished runs stay queryable (history tool, GET /runs) for 90 days, then DynamoDB TTL removes them. */
export const RETENTION_SECONDS = 90 * 24 * 3600;

// The run's planning mode and its summary in GET /v1/runs are API contracts: declared once there.
export type { RunMode, RunSummary } from "../contracts/api-types.ts";
export type { IdempotencyRecord } from "./idempotency.ts";
export type { MetaItem } from "./run-item.ts";
export { DEFAULT_LIST_BOUNDS, type ListBounds, type RunListPage, type RunListQuery } from "./run-list.ts";

/** One function invocation's share of a run's cost (RunStore.addInvocation's counters). */
export interface InvocationCount {
  requests: number;
  /** Memory (MB) × duration (ms). */
  mb_ms: number;
  transitions: number;
}

/** Run fields an event may store in the update that gives it its seq (what the event announces). */
export type EventRecordFields = Partial<Pick<MetaItem, "plan_review" | "result_review">>;

export class RunNotFoundError extends Error {
  override name = "RunNotFoundError";
  constructor(runId: string) {
    super(`run "${runId}" does not exist`);
  }
}

/** The execution a run is driven by; resumes start new executions under new names. */
export function executionNameOf(meta: Pick<MetaItem, "run_id" | "execution_name">): string {
  return meta.execution_name ?? meta.run_id;
}

type StoredEvidence = Evidence & { run_id: string };

export class RunStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
    /** Overrides of DEFAULT_LIST_BOUNDS (tests page through a few runs with small bounds). */
    private readonly listBounds: Partial<ListBounds> = {},
  ) {}

  /** What the store's modules (idempotency.ts, run-list.ts) are given to reach the table. */
  private get at(): RunsTable {
    return { ddb: this.ddb, table: this.table, now: this.now };
  }

  /** Creates the run record; false when a run with this id already exists (idempotent start). */
  async createRun(
    runId: string,
    request: EvaluationRequest,
    options: { mode?: RunMode; sessionId?: string; profile?: ProfileName; customerId?: string } = {},
  ): Promise<boolean> {
    const at = this.now().toISOString();
    return conditionalWrite(
      this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: runKey(runId),
            sk: META,
            run_id: runId,
            status: "PLANNING",
            mode: options.mode ?? "rewoo",
            ...(options.sessionId ? { session_id: options.sessionId } : {}),
            ...(options.profile && options.profile !== DEFAULT_PROFILE ? { profile: options.profile } : {}),
            ...(options.customerId ? { customer_id: options.customerId } : {}),
            request,
            usage_llm_calls: 0,
            usage_input_tokens: 0,
            usage_output_tokens: 0,
            event_seq: 0,
            created_at: at,
            updated_at: at,
            [RUNS_BY_DAY.partitionKey.name]: dayKey(at),
            [RUNS_BY_DAY.sortKey.name]: at,
            ...loanIndexAttributes({ run_id: runId, created_at: at, request }),
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
  }

  async getMeta(runId: string): Promise<MetaItem> {
    const { Item } = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { pk: runKey(runId), sk: META }, ConsistentRead: true }),
    );
    if (!Item) throw new RunNotFoundError(runId);
    return Item as MetaItem;
  }

  /** The run record of docs/api.openapi.yaml RunRecord, evidence in plan order (large outputs stay as output_ref). */
  async getRun(runId: string): Promise<RunRecord | undefined> {
    const items = await this.queryAll(runId, "STEP#", { from: META });
    const meta = items.find((item) => item.sk === META) as MetaItem | undefined;
    if (!meta) return undefined;
    const evidence = items.filter((item) => String(item.sk).startsWith("STEP#")).map(toEvidence);
    const order = new Map(meta.plan?.steps.map((step, index) => [step.id, index]));
    evidence.sort((a, b) => (order.get(a.step_id) ?? 0) - (order.get(b.step_id) ?? 0));
    return {
      run_id: meta.run_id,
      status: meta.status,
      ...(meta.profile ? { profile: meta.profile } : {}),
      ...(meta.customer_id ? { customer_id: meta.customer_id } : {}),
      ...(meta.session_id ? { session_id: meta.session_id } : {}),
      request: meta.request,
      ...(meta.plan ? { plan: meta.plan } : {}),
      ...(meta.plan_source ? { plan_source: meta.plan_source } : {}),
      evidence,
      ...(meta.result ? { result: meta.result } : {}),
      ...(meta.error ? { error: meta.error } : {}),
      usage: usageOf(meta),
      attempt: meta.attempt ?? 1,
      ...(meta.replans ? { replans: meta.replans } : {}),
      ...(meta.plan_review ? { plan_review: meta.plan_review } : {}),
      ...(meta.result_review ? { result_review: meta.result_review } : {}),
      ...(meta.clarification ? { clarification: meta.clarification } : {}),
      ...(meta.approval ? { approval: meta.approval } : {}),
      ...(meta.cost ? { cost: meta.cost } : {}),
      created_at: meta.created_at,
      updated_at: meta.updated_at,
    };
  }

  /**
   * Moves a run to a new status with optional fields. Terminal statuses are final: a late
   * FAILED never overwrites CANCELLED, and nothing moves a SUCCEEDED run. `expect` narrows the
   * condition further (the run must be in one of these statuses, and hold this task token), so
   * that of two callers racing for one waiting run exactly one wins.
   */
  async updateRun(
    runId: string,
    patch: {
      status?: RunStatus;
      request?: EvaluationRequest;
      plan?: Plan;
      plan_source?: PlanSource;
      result?: RunResult;
      error?: { error: string; cause: string };
      plan_review?: Review;
      result_review?: Review;
      /** null: the question was answered and another must be asked (the next wait asks anew). */
      clarification?: Clarification | null;
      approval?: Approval;
      refusal?: string;
      /** A wait state's token to store, or null to remove it. */
      task_token?: string | null;
      indexForHistory?: boolean;
      /** Stored with the terminal status that ends the run. */
      cost?: RunCost;
    },
    expect: { statuses?: readonly RunStatus[]; taskToken?: string } = {},
  ): Promise<boolean> {
    const names: Record<string, string> = { "#updated_at": "updated_at", "#status": "status" };
    const values: Record<string, unknown> = { ":now": this.now().toISOString() };
    const sets = ["#updated_at = :now"];
    const set = (field: string, value: unknown) => {
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    };
    if (patch.status) set("status", patch.status);
    if (patch.request) set("request", patch.request);
    if (patch.plan) set("plan", patch.plan);
    if (patch.plan_source) set("plan_source", patch.plan_source);
    if (patch.result) set("result", patch.result);
    if (patch.error) set("error", patch.error);
    if (patch.plan_review) set("plan_review", patch.plan_review);
    if (patch.result_review) set("result_review", patch.result_review);
    if (patch.clarification) set("clarification", patch.clarification);
    if (patch.approval) set("approval", patch.approval);
    if (patch.cost) set("cost", patch.cost);
    if (patch.refusal) set("refusal", patch.refusal);
    const removes: string[] = [];
    if (patch.clarification === null) {
      names["#clarification"] = "clarification";
      removes.push("#clarification");
    }
    if (patch.task_token) set("task_token", patch.task_token);
    if (patch.task_token === null) {
      names["#task_token"] = "task_token";
      removes.push("#task_token");
    }
    if (patch.indexForHistory) {
      const meta = await this.getMeta(runId);
      set(
        RUNS_BY_PROFILE.partitionKey.name,
        profileKey(meta.request.metadata.loan_program, meta.request.metadata.classification),
      );
      set(RUNS_BY_PROFILE.sortKey.name, meta.created_at);
      set(TTL_ATTRIBUTE, Math.floor(this.now().getTime() / 1000) + RETENTION_SECONDS);
    }
    const terminal = terminalStatusValues();
    Object.assign(values, terminal.values);
    const conditions = ["attribute_exists(pk)", `NOT (#status IN (${terminal.placeholders}))`];
    if (expect.statuses) {
      const allowed = expect.statuses.map((status, index) => {
        values[`:e${index}`] = status;
        return `:e${index}`;
      });
      conditions.push(`#status IN (${allowed.join(", ")})`);
    }
    if (expect.taskToken !== undefined) {
      names["#task_token"] = "task_token";
      values[":expected_token"] = expect.taskToken;
      conditions.push("#task_token = :expected_token");
    }
    try {
      await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: runKey(runId), sk: META },
          UpdateExpression: `SET ${sets.join(", ")}${removes.length ? ` REMOVE ${removes.join(", ")}` : ""}`,
          ConditionExpression: conditions.join(" AND "),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        await this.getMeta(runId); // throws RunNotFoundError for a missing run
        return false;
      }
      throw error;
    }
  }

  /** Counts a replan that produced no plan to store yet (the planner's plan was invalid and it asks again). */
  async countReplan(runId: string): Promise<void> {
    await this.ddb.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: runKey(runId), sk: META },
        UpdateExpression: "ADD #replans :one SET #updated_at = :now",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#replans": "replans", "#updated_at": "updated_at" },
        ExpressionAttributeValues: { ":one": 1, ":now": this.now().toISOString() },
      }),
    );
  }

  /**
   * Replaces the plan of a run that is still going, counting the replan, unless another invocation
   * already did (the count moved past `replansBefore`) or the run ended. False in those cases.
   */
  /**
   * `reviewAgain`: the plan's review and approval are dropped with the old plan, so the new plan is
   * reviewed and waits for its own approval before it runs.
   */
  async replacePlan(
    runId: string,
    plan: Plan,
    replansBefore: number,
    options: { reviewAgain?: boolean } = {},
  ): Promise<boolean> {
    const terminal = terminalStatusValues();
    return conditionalWrite(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: runKey(runId), sk: META },
          UpdateExpression:
            "SET #plan = :plan, #replans = :after, #updated_at = :now" +
            (options.reviewAgain ? " REMOVE plan_review, approval" : ""),
          ConditionExpression:
            `attribute_exists(pk) AND NOT (#status IN (${terminal.placeholders})) AND ` +
            (replansBefore === 0
              ? "(attribute_not_exists(#replans) OR #replans = :before)"
              : "#replans = :before"),
          ExpressionAttributeNames: {
            "#plan": "plan",
            "#replans": "replans",
            "#status": "status",
            "#updated_at": "updated_at",
          },
          ExpressionAttributeValues: {
            ":plan": plan,
            ":after": replansBefore + 1,
            ":before": replansBefore,
            ":now": this.now().toISOString(),
            ...terminal.values,
          },
        }),
      ),
    );
  }

  /** See idempotency.ts: exactly one of concurrent requests with one key claims it. */
  async claimIdempotencyKey(
    record: IdempotencyRecord,
    options: { replacing?: string } = {},
  ): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
    return claimIdempotencyKey(this.at, record, options);
  }

  async getIdempotencyRecord(keyHash: string): Promise<IdempotencyRecord | undefined> {
    return getIdempotencyRecord(this.at, keyHash);
  }

  /** Frees a key whose run did not start, so the client's retry with the same key starts afresh. */
  async releaseIdempotencyKey(keyHash: string, runId: string): Promise<void> {
    return releaseIdempotencyKey(this.at, keyHash, runId);
  }

  /** Adds to the run's counters, and `usage.models` to the set of models that answered it. */
  async addUsage(runId: string, usage: Usage): Promise<void> {
    const models = [...new Set(usage.models ?? [])];
    await this.ddb.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: runKey(runId), sk: META },
        UpdateExpression: `ADD usage_llm_calls :c, usage_input_tokens :i, usage_output_tokens :o${models.length ? ", usage_models :m" : ""}`,
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: {
          ":c": usage.llm_calls,
          ":i": usage.input_tokens,
          ":o": usage.output_tokens,
          ...(models.length ? { ":m": new Set(models) } : {}),
        },
      }),
    );
  }

  /**
   * Counts one invocation of a workflow function for the run: an atomic ADD, like the usage counters,
   * so concurrent workers never lose each other's counts. Nothing for a run that does not exist.
   */
  async addInvocation(
    runId: string,
    invocation: { requests: number; mb_ms: number; transitions: number },
  ): Promise<void> {
    try {
      await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: runKey(runId), sk: META },
          UpdateExpression: "ADD lambda_requests :r, lambda_mb_ms :m, sfn_transitions :t",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: {
            ":r": invocation.requests,
            ":m": Math.round(invocation.mb_ms),
            ":t": invocation.transitions,
          },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /**
   * Stores the cost of a run that ended without it (cancelled through the API: the ending and the
   * cost come from different functions). False when the run has not ended or has its cost already.
   */
  async recordCost(runId: string, cost: RunCost): Promise<boolean> {
    const terminal = terminalStatusValues();
    return conditionalWrite(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: runKey(runId), sk: META },
          UpdateExpression: "SET #cost = :cost",
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(#cost) AND #status IN (${terminal.placeholders})`,
          ExpressionAttributeNames: { "#cost": "cost", "#status": "status" },
          ExpressionAttributeValues: { ":cost": cost, ...terminal.values },
        }),
      ),
    );
  }

  async getEvidence(runId: string, stepIds: string[]): Promise<Map<string, Evidence>> {
    const evidence = new Map<string, Evidence>();
    // BatchGetItem takes at most 100 keys per call.
    for (let i = 0; i < stepIds.length; i += 100) {
      let keys: Record<string, unknown>[] | undefined = stepIds
        .slice(i, i + 100)
        .map((id) => ({ pk: runKey(runId), sk: stepKey(id) }));
      while (keys?.length) {
        const response: BatchGetCommandOutput = await this.ddb.send(
          new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of response.Responses?.[this.table] ?? []) {
          const found = toEvidence(item);
          evidence.set(found.step_id, found);
        }
        keys = response.UnprocessedKeys?.[this.table]?.Keys;
      }
    }
    return evidence;
  }

  /**
   * The run's META and all its evidence in one Query (META sorts right before the STEP# items, the
   * EVENT# items before META): what a worker reads before its tool, in one round trip.
   */
  async getMetaAndEvidence(runId: string): Promise<{ meta: MetaItem; evidence: Map<string, Evidence> }> {
    const items = await this.queryAll(runId, "STEP#", { from: META });
    const meta = items.find((item) => item.sk === META) as MetaItem | undefined;
    if (!meta) throw new RunNotFoundError(runId);
    const evidence = items.filter((item) => item.sk !== META).map(toEvidence);
    return { meta, evidence: new Map(evidence.map((item) => [item.step_id, item])) };
  }

  async listEvidence(runId: string): Promise<Evidence[]> {
    return (await this.queryAll(runId, "STEP#")).map(toEvidence);
  }

  /**
   * Stores evidence unless ok evidence is already there: the first successful writer wins, so a
   * retried worker never replaces (or repeats) a tool result. Error evidence may be replaced by a
   * later successful attempt. Returns the evidence that is stored after the call.
   */
  async putEvidence(runId: string, evidence: Evidence): Promise<{ stored: Evidence; written: boolean }> {
    try {
      await this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: runKey(runId), sk: stepKey(evidence.step_id), run_id: runId, ...evidence },
          ConditionExpression: "attribute_not_exists(pk) OR #status <> :ok",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":ok": "ok" },
        }),
      );
      return { stored: evidence, written: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const existing = (await this.getEvidence(runId, [evidence.step_id])).get(evidence.step_id);
      if (!existing) throw error;
      return { stored: existing, written: false };
    }
  }

  /**
   * Appends a progress event with the next seq. The atomic counter on META hands out each seq
   * exactly once; the event item is then written under that seq, so concurrent writers (the
   * steps of one level) never collide and the sequence has no gaps.
   * The `complete` event closes the stream in the same update: an event that comes later (a worker
   * that was still running when its run was cancelled) gets no seq and is dropped (undefined), so
   * `complete` is always a run's last event. A resume reopens the stream.
   */
  async appendEvent(
    runId: string,
    body: ProgressEventBody,
    record: EventRecordFields = {},
  ): Promise<ProgressEvent | undefined> {
    const seq = await this.reserveEventSeq(runId, body.stage, { record });
    return seq === undefined ? undefined : this.putEvent(runId, seq, body);
  }

  /**
   * The first of an event's two writes (appendEvent): its seq, from the counter on META, with the
   * run fields the event announces, usage and an invocation count to add, all in that one update
   * (addUsage's and addInvocation's round trips saved). Undefined when the
   * stream is closed (nothing is stored then, usage included). The caller must then store the event
   * under that seq (putEvent), whatever happens: a seq handed out and never written is a hole that
   * holds up every follower.
   */
  async reserveEventSeq(
    runId: string,
    stage: ProgressEventBody["stage"],
    {
      record = {},
      usage,
      invocation,
    }: { record?: EventRecordFields; usage?: Usage; invocation?: InvocationCount } = {},
  ): Promise<number | undefined> {
    // Fields the event announces (a review) are stored in the same update as its seq: one round trip.
    const sets = Object.entries(record).filter(([, value]) => value !== undefined);
    const names = Object.fromEntries(sets.map(([field]) => [`#${field}`, field]));
    const values = Object.fromEntries(sets.map(([field, value]) => [`:${field}`, value]));
    const assignments = [
      ...(stage === "complete" ? ["events_closed = :closed"] : []),
      ...(sets.length ? ["updated_at = :now"] : []),
      ...sets.map(([field]) => `#${field} = :${field}`),
    ];
    const models = [...new Set(usage?.models ?? [])];
    const additions = [
      "event_seq :one",
      ...(usage
        ? [
            "usage_llm_calls :c, usage_input_tokens :i, usage_output_tokens :o",
            ...(models.length ? ["usage_models :m"] : []),
          ]
        : []),
      ...(invocation ? ["lambda_requests :r, lambda_mb_ms :mbms, sfn_transitions :t"] : []),
    ];
    try {
      const { Attributes } = await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: runKey(runId), sk: META },
          UpdateExpression: `ADD ${additions.join(", ")}${assignments.length ? ` SET ${assignments.join(", ")}` : ""}`,
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(events_closed)",
          ...(sets.length ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: {
            ":one": 1,
            ...(stage === "complete" ? { ":closed": true } : {}),
            ...(sets.length ? { ":now": this.now().toISOString(), ...values } : {}),
            ...(usage
              ? {
                  ":c": usage.llm_calls,
                  ":i": usage.input_tokens,
                  ":o": usage.output_tokens,
                  ...(models.length ? { ":m": new Set(models) } : {}),
                }
              : {}),
            ...(invocation
              ? {
                  ":r": invocation.requests,
                  ":mbms": Math.round(invocation.mb_ms),
                  ":t": invocation.transitions,
                }
              : {}),
          },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      return Number(Attributes?.event_seq);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      await this.getMeta(runId); // throws RunNotFoundError for a missing run
      return undefined;
    }
  }

  /** The second of an event's two writes: the event item under the seq reserveEventSeq handed out. */
  async putEvent(runId: string, seq: number, body: ProgressEventBody): Promise<ProgressEvent> {
    const event = { ...body, run_id: runId, seq, timestamp: this.now().toISOString() } as ProgressEvent;
    await this.ddb.send(
      new PutCommand({ TableName: this.table, Item: { pk: runKey(runId), sk: eventKey(seq), ...event } }),
    );
    return event;
  }

  /**
   * Hands an ended (FAILED, INTERRUPTED) or orphaned (unfinished, its execution gone) run to a new
   * execution: status back to where its stored work says it is, the error cleared, the event
   * stream reopened. Conditional on the attempt the caller read, so of two concurrent resumes
   * exactly one wins (the other gets false).
   */
  async reopenRun(
    runId: string,
    reopen: { executionName: string; fromAttempt: number; allowed: readonly RunStatus[] },
  ): Promise<boolean> {
    const meta = await this.getMeta(runId);
    const status: RunStatus = meta.plan ? "RUNNING" : "PLANNING";
    const allowed = Object.fromEntries(reopen.allowed.map((value, index) => [`:s${index}`, value]));
    try {
      await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: runKey(runId), sk: META },
          UpdateExpression:
            // A wait state's token dies with its execution: the new execution's wait stores its own.
            // The cost is estimated again when the run ends again (its counters keep every attempt's).
            "SET #status = :status, execution_name = :execution, attempt = :next, updated_at = :now REMOVE events_closed, #error, task_token, cost",
          // Runs created before resumes existed have no attempt: they are on their first.
          ConditionExpression: `attribute_exists(pk) AND #status IN (${Object.keys(allowed).join(", ")}) AND ${
            reopen.fromAttempt === 1
              ? "(attribute_not_exists(attempt) OR attempt = :from)"
              : "attempt = :from"
          }`,
          ExpressionAttributeNames: { "#status": "status", "#error": "error" },
          ExpressionAttributeValues: {
            ...allowed,
            ":status": status,
            ":execution": reopen.executionName,
            ":next": reopen.fromAttempt + 1,
            ":from": reopen.fromAttempt,
            ":now": this.now().toISOString(),
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /**
   * Runs that have not ended, oldest first. A full scan: only the local twin calls it, at boot, to
   * find runs whose executions died with the process (in AWS executions outlive any process).
   */
  async listUnfinishedRuns(): Promise<MetaItem[]> {
    const values = Object.fromEntries(UNFINISHED_STATUSES.map((status, index) => [`:u${index}`, status]));
    const found = (await scanAllPages(this.ddb, {
      TableName: this.table,
      FilterExpression: `sk = :meta AND #status IN (${Object.keys(values).join(", ")})`,
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":meta": META, ...values },
      ConsistentRead: true,
    })) as unknown as MetaItem[];
    return found.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async listEvents(runId: string, afterSeq = 0): Promise<ProgressEvent[]> {
    const items = await this.queryAll(runId, "EVENT#", { after: eventKey(afterSeq) });
    return items.map(({ pk: _pk, sk: _sk, ...event }) => event as ProgressEvent);
  }

  /** Runs newest first, filtered, one page at a time (GET /v1/runs): see run-list.ts. */
  async listRecentRuns(query: RunListQuery): Promise<RunListPage> {
    return listRecentRuns(this.at, query, this.listBounds);
  }
  /** Finished runs of one loan program + classification, most recent first (history tool). */
  async listRunsByProfile(
    loanProgram: unknown,
    classification: unknown,
    limit: number,
  ): Promise<RunRecord[]> {
    const { Items = [] } = await this.ddb.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: RUNS_BY_PROFILE.name,
        KeyConditionExpression: `${RUNS_BY_PROFILE.partitionKey.name} = :p`,
        ExpressionAttributeValues: { ":p": profileKey(loanProgram, classification) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map((meta) => ({
      run_id: meta.run_id,
      status: meta.status,
      request: meta.request,
      plan: meta.plan,
      evidence: [],
      result: meta.result,
      usage: usageOf(meta as MetaItem),
      created_at: meta.created_at,
      updated_at: meta.updated_at,
    }));
  }

  /**
   * Items whose sort key starts with `prefix`; `after`: only those after that key; `from`: every item
   * from that key on (META and the STEP# items in one Query: META sorts right before STEP#).
   */
  private async queryAll(
    runId: string,
    prefix: string,
    range: { after?: string; from?: string } = {},
  ): Promise<Record<string, unknown>[]> {
    const lower = range.from ?? (range.after ? `${range.after}\u0000` : undefined);
    const conditions = lower
      ? {
          expr: "pk = :pk AND sk BETWEEN :from AND :to",
          values: { ":from": lower, ":to": `${prefix}\uffff` },
        }
      : { expr: "pk = :pk AND begins_with(sk, :prefix)", values: { ":prefix": prefix } };
    return queryAllPages(this.ddb, {
      TableName: this.table,
      KeyConditionExpression: conditions.expr,
      ExpressionAttributeValues: { ":pk": runKey(runId), ...conditions.values },
      ConsistentRead: true,
    });
  }
}

/** The terminal statuses as expression values (`:t0`…) and the placeholder list for `#status IN (…)`. */
function terminalStatusValues(): { values: Record<string, RunStatus>; placeholders: string } {
  const values = Object.fromEntries(TERMINAL_STATUSES.map((status, index) => [`:t${index}`, status]));
  return { values, placeholders: Object.keys(values).join(", ") };
}

/**
 * The by_loan index attributes of a run's META item: present only when its request names a usable
 * loan number (a sparse index). Exported for the twin, which adds them to runs stored before the index.
 */
export function loanIndexAttributes(meta: {
  run_id: string;
  created_at: string;
  request?: { metadata?: Record<string, unknown> };
}): Record<string, string> {
  const loan = loanNumberOf(meta.request?.metadata?.loan_number);
  if (loan === undefined) return {};
  return {
    [RUNS_BY_LOAN.partitionKey.name]: loanKey(loan),
    [RUNS_BY_LOAN.sortKey.name]: loanSortKey(meta.created_at, meta.run_id),
  };
}

function toEvidence(item: Record<string, unknown>): Evidence {
  const {
    pk: _pk,
    sk: _sk,
    run_id: _run,
    ...evidence
  } = item as unknown as StoredEvidence & { pk: string; sk: string };
  return { ...evidence, upstream_errors: evidence.upstream_errors ?? [] };
}

function usageOf(meta: MetaItem): Usage {
  return {
    llm_calls: Number(meta.usage_llm_calls ?? 0),
    input_tokens: Number(meta.usage_input_tokens ?? 0),
    output_tokens: Number(meta.usage_output_tokens ?? 0),
    ...(meta.usage_models?.size ? { models: [...meta.usage_models].sort() } : {}),
  };
}
