// The runs table: run record (META), evidence (STEP#), progress events (EVENT#) of one run share
// the partition key, so one Query returns a whole run. dynalite has no transactions, so every
// write that must be exactly-once is a conditional write instead.
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  ScanCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import type { RunMode, RunSummary } from "../contracts/api-types.ts";
import { RUNS_BY_DAY, RUNS_BY_LOAN, RUNS_BY_PROFILE, TTL_ATTRIBUTE } from "../contracts/tables.ts";
import type {
  Approval,
  Clarification,
  EvaluationRequest,
  Evidence,
  Plan,
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
import { LOAN_PROFILE, RESUMABLE_STATUSES, TERMINAL_STATUSES, UNFINISHED_STATUSES } from "../core/types.ts";
import { conditionalWrite } from "./conditional.ts";
import {
  dayKey,
  eventKey,
  itemKey,
  loanKey,
  loanNumberOf,
  loanSortKey,
  META,
  profileKey,
  runKey,
  stepKey,
} from "./keys.ts";
import { InvalidCursorError, type RunListCursor } from "./run-cursor.ts";

/** Finished runs stay queryable (history tool, GET /runs) for 90 days, then DynamoDB TTL removes them. */
export const RETENTION_SECONDS = 90 * 24 * 3600;

// The run's planning mode and its summary in GET /v1/runs are API contracts: declared once there.
export type { RunMode, RunSummary } from "../contracts/api-types.ts";

/** Maps an Idempotency-Key (hashed: the key itself is the client's and may be sensitive) to the run it started. */
export interface IdempotencyRecord {
  key_hash: string;
  run_id: string;
  /** Hash of what the key was first used with (endpoint + body): another body under the same key is a conflict. */
  request_hash: string;
  created_at: string;
  /** Epoch seconds; DynamoDB TTL deletes the item some time after, so reads also treat it as gone. */
  expires_at: number;
}

// Idempotency items live in the runs table beside the runs, in their own partition per key.
const idempotencyKey = (keyHash: string) => itemKey(`IDEMPOTENCY#${keyHash}`, META);

/** Run fields an event may store in the update that gives it its seq (what the event announces). */
export type EventRecordFields = Partial<Pick<MetaItem, "plan_review" | "result_review">>;

export class RunNotFoundError extends Error {
  override name = "RunNotFoundError";
  constructor(runId: string) {
    super(`run "${runId}" does not exist`);
  }
}

export interface MetaItem {
  run_id: string;
  status: RunStatus;
  /** Absent on runs created before modes existed: those are "rewoo". */
  mode?: RunMode;
  /** The agent the run belongs to; absent: loan_evaluation. */
  profile?: ProfileName;
  /** The authenticated customer a banking run acts for (its tools touch their holdings only). */
  customer_id?: string;
  request: EvaluationRequest;
  plan?: Plan;
  result?: RunResult;
  error?: { error: string; cause: string };
  usage_llm_calls?: number;
  usage_input_tokens?: number;
  usage_output_tokens?: number;
  /** Invocations of the run's workflow functions, their memory × duration and the state transitions they account for (addInvocation). */
  lambda_requests?: number;
  lambda_mb_ms?: number;
  sfn_transitions?: number;
  /** The estimate stored when the run ended (lambdas/core/cost.ts). */
  cost?: RunCost;
  /** The execution currently driving the run (absent: named after the run, the first one). */
  execution_name?: string;
  /** 1 for the first execution, +1 per resume. */
  attempt?: number;
  /** Plans made again after a required step failed. */
  replans?: number;
  plan_review?: Review;
  result_review?: Review;
  clarification?: Clarification;
  approval?: Approval;
  /** Why the request cannot be carried out, found before anything was asked or run (told to the caller). */
  refusal?: string;
  /** The session the run belongs to. */
  session_id?: string;
  /**
   * The task token of the wait state the run is in (AWAITING_INPUT / AWAITING_APPROVAL): only the API
   * reads it, to resume the execution. Never part of a run record or an event.
   */
  task_token?: string;
  /** Set with the `complete` event: no event is appended after it (until a resume reopens the run). */
  events_closed?: boolean;
  created_at: string;
  updated_at: string;
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
            ...(options.profile && options.profile !== LOAN_PROFILE ? { profile: options.profile } : {}),
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

  /**
   * Records that `record.key_hash` started `record.run_id`, unless the key is already taken by a
   * record that has not expired. The conditional put makes exactly one of concurrent requests with
   * the same key the one that starts a run; the others get the winner's record back.
   * `replacing`: take over the record only if it still names that run (a stale claim whose run was never created).
   */
  async claimIdempotencyKey(
    record: IdempotencyRecord,
    options: { replacing?: string } = {},
  ): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
    const nowSeconds = Math.floor(this.now().getTime() / 1000);
    try {
      await this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...idempotencyKey(record.key_hash), ...record },
          ...(options.replacing === undefined
            ? {
                // TTL deletion lags by up to days (and dynalite never deletes): expired means free.
                ConditionExpression: `attribute_not_exists(pk) OR ${TTL_ATTRIBUTE} < :now`,
                ExpressionAttributeValues: { ":now": nowSeconds },
              }
            : {
                ConditionExpression: "run_id = :old",
                ExpressionAttributeValues: { ":old": options.replacing },
              }),
        }),
      );
      return { claimed: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const existing = await this.getIdempotencyRecord(record.key_hash);
      // Gone between the put and the read (released or expired): the caller may simply try again.
      if (!existing) throw error;
      return { claimed: false, existing };
    }
  }

  async getIdempotencyRecord(keyHash: string): Promise<IdempotencyRecord | undefined> {
    const { Item } = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: idempotencyKey(keyHash), ConsistentRead: true }),
    );
    if (!Item || Number(Item[TTL_ATTRIBUTE]) < Math.floor(this.now().getTime() / 1000)) return undefined;
    const { pk: _pk, sk: _sk, ...record } = Item;
    return record as IdempotencyRecord;
  }

  /** Frees a key whose run did not start, so the client's retry with the same key starts afresh. */
  async releaseIdempotencyKey(keyHash: string, runId: string): Promise<void> {
    try {
      await this.ddb.send(
        new DeleteCommand({
          TableName: this.table,
          Key: idempotencyKey(keyHash),
          ConditionExpression: "run_id = :run",
          ExpressionAttributeValues: { ":run": runId },
        }),
      );
    } catch (error) {
      // Already taken over by another request: not ours to delete.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async addUsage(runId: string, usage: Usage): Promise<void> {
    await this.ddb.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: runKey(runId), sk: META },
        UpdateExpression: "ADD usage_llm_calls :c, usage_input_tokens :i, usage_output_tokens :o",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: {
          ":c": usage.llm_calls,
          ":i": usage.input_tokens,
          ":o": usage.output_tokens,
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
    let seq: number;
    // Fields the event announces (a review) are stored in the same update as its seq: one round trip.
    const sets = Object.entries(record).filter(([, value]) => value !== undefined);
    const names = Object.fromEntries(sets.map(([field]) => [`#${field}`, field]));
    const values = Object.fromEntries(sets.map(([field, value]) => [`:${field}`, value]));
    const assignments = [
      ...(body.stage === "complete" ? ["events_closed = :closed"] : []),
      ...(sets.length ? ["updated_at = :now"] : []),
      ...sets.map(([field]) => `#${field} = :${field}`),
    ];
    try {
      const { Attributes } = await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: runKey(runId), sk: META },
          UpdateExpression: `ADD event_seq :one${assignments.length ? ` SET ${assignments.join(", ")}` : ""}`,
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(events_closed)",
          ...(sets.length ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: {
            ":one": 1,
            ...(body.stage === "complete" ? { ":closed": true } : {}),
            ...(sets.length ? { ":now": this.now().toISOString(), ...values } : {}),
          },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      seq = Number(Attributes?.event_seq);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      await this.getMeta(runId); // throws RunNotFoundError for a missing run
      return undefined;
    }
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
    const found: MetaItem[] = [];
    let startKey: Record<string, unknown> | undefined;
    const values = Object.fromEntries(UNFINISHED_STATUSES.map((status, index) => [`:u${index}`, status]));
    do {
      const page = await this.ddb.send(
        new ScanCommand({
          TableName: this.table,
          FilterExpression: `sk = :meta AND #status IN (${Object.keys(values).join(", ")})`,
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":meta": META, ...values },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      found.push(...((page.Items ?? []) as MetaItem[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return found.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async listEvents(runId: string, afterSeq = 0): Promise<ProgressEvent[]> {
    const items = await this.queryAll(runId, "EVENT#", { after: eventKey(afterSeq) });
    return items.map(({ pk: _pk, sk: _sk, ...event }) => event as ProgressEvent);
  }

  /**
   * Runs newest first, filtered, one page at a time (GET /v1/runs). Without a loan number it walks the
   * by_day index day by day from `to` back to `from`, one Query (with a FilterExpression) after the
   * other, never a Scan; with one, that loan's partition of by_loan. One call reads at most
   * `bounds.maxItemsRead` index items in at most `bounds.maxQueries` Queries: when the bound or the
   * limit stops it, `cursor` says where the next page starts, even if this page has fewer than
   * `limit` runs (filters that match little must not make one request read the whole table). The
   * last page has no cursor.
   */
  async listRecentRuns(query: RunListQuery): Promise<RunListPage> {
    // A cursor only ever continues a walk: a run id search is one page.
    if (query.runId !== undefined && !query.cursor) return this.findRun(query.runId, query);
    const bounds = { ...DEFAULT_LIST_BOUNDS, ...this.listBounds };
    const filter = listFilter(query);
    const runs: RunSummary[] = [];
    let read = 0;
    let queries = 0;

    // One position in an index: the partition (a day of by_day, or the loan's), and where in it.
    type Position =
      | { day: string; key?: Record<string, unknown> }
      | { loan: string; key?: Record<string, unknown> };
    let position: Position | undefined;
    if (query.cursor) position = query.cursor;
    else if (query.loanNumber !== undefined) position = { loan: query.loanNumber };
    else position = { day: query.to };
    if ("day" in position && (position.day > query.to || position.day < query.from)) {
      throw new InvalidCursorError("the cursor is outside the days asked for");
    }
    if (
      ("loan" in position && position.loan !== query.loanNumber) ||
      ("day" in position && query.loanNumber !== undefined)
    ) {
      throw new InvalidCursorError("the cursor belongs to another search");
    }

    while (position) {
      if (read >= bounds.maxItemsRead || queries >= bounds.maxQueries) {
        return { runs, cursor: cursorAt(position) };
      }
      const keyCondition: {
        IndexName: string;
        KeyConditionExpression: string;
        names: Record<string, string>;
        values: Record<string, unknown>;
      } =
        "day" in position
          ? {
              IndexName: RUNS_BY_DAY.name,
              KeyConditionExpression: "#ipk = :ipk",
              names: { "#ipk": RUNS_BY_DAY.partitionKey.name },
              values: { ":ipk": dayKey(position.day) },
            }
          : {
              IndexName: RUNS_BY_LOAN.name,
              // The sort key starts with the creation time: the day range is a key condition here.
              KeyConditionExpression: "#ipk = :ipk AND #isk BETWEEN :from AND :to",
              names: { "#ipk": RUNS_BY_LOAN.partitionKey.name, "#isk": RUNS_BY_LOAN.sortKey.name },
              values: { ":ipk": loanKey(position.loan), ":from": query.from, ":to": `${query.to}\uffff` },
            };
      const page: QueryCommandOutput = await this.ddb.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: keyCondition.IndexName,
          KeyConditionExpression: keyCondition.KeyConditionExpression,
          ...(filter.expression ? { FilterExpression: filter.expression } : {}),
          ExpressionAttributeNames: { ...keyCondition.names, ...filter.names },
          ExpressionAttributeValues: { ...keyCondition.values, ...filter.values },
          ScanIndexForward: false,
          Limit: Math.min(bounds.queryPageSize, bounds.maxItemsRead - read),
          ...(position.key ? { ExclusiveStartKey: position.key } : {}),
        }),
      );
      queries += 1;
      read += page.ScannedCount ?? page.Items?.length ?? 0;
      const items = (page.Items ?? []) as MetaItem[];
      const room = query.limit - runs.length;
      if (items.length >= room) {
        // The page is full: the next one starts right after the last run it shows (runs read after it
        // in this Query are read again then, none skipped), or where this Query stopped.
        const last = items[room - 1] as MetaItem & Record<string, unknown>;
        runs.push(...items.slice(0, room).map(runSummary));
        const rest = items.length > room || page.LastEvaluatedKey;
        const next: Position | undefined = rest
          ? { ...position, key: items.length > room ? indexKeyOf(last, position) : page.LastEvaluatedKey }
          : nextPartition(position, query.from);
        return next ? { runs, cursor: cursorAt(next) } : { runs };
      }
      runs.push(...items.map(runSummary));
      position = page.LastEvaluatedKey
        ? { ...position, key: page.LastEvaluatedKey }
        : nextPartition(position, query.from);
    }
    return { runs };
  }

  /**
   * q= a run id: that run, if it exists and passes the other filters. A run id that names no run may
   * still be a loan number (loan systems number loans freely): then that search.
   */
  private async findRun(runId: string, query: RunListQuery): Promise<RunListPage> {
    const { Item } = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { pk: runKey(runId), sk: META } }),
    );
    const meta = Item as MetaItem | undefined;
    if (!meta && query.loanNumber !== undefined) {
      return this.listRecentRuns({ ...query, runId: undefined });
    }
    return { runs: meta && matches(meta, query) ? [runSummary(meta)] : [] };
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
    const items: Record<string, unknown>[] = [];
    const lower = range.from ?? (range.after ? `${range.after}\u0000` : undefined);
    const conditions = lower
      ? {
          expr: "pk = :pk AND sk BETWEEN :from AND :to",
          values: { ":from": lower, ":to": `${prefix}\uffff` },
        }
      : { expr: "pk = :pk AND begins_with(sk, :prefix)", values: { ":prefix": prefix } };
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.ddb.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: conditions.expr,
          ExpressionAttributeValues: { ":pk": runKey(runId), ...conditions.values },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}

/** The terminal statuses as expression values (`:t0`…) and the placeholder list for `#status IN (…)`. */
function terminalStatusValues(): { values: Record<string, RunStatus>; placeholders: string } {
  const values = Object.fromEntries(TERMINAL_STATUSES.map((status, index) => [`:t${index}`, status]));
  return { values, placeholders: Object.keys(values).join(", ") };
}

/** What GET /v1/runs asks the store for; the API has checked every field. */
export interface RunListQuery {
  /** Only runs in one of these statuses; absent: any. */
  statuses?: readonly RunStatus[];
  loanProgram?: string;
  classification?: string;
  /** UTC creation days, `YYYY-MM-DD`, both included; from ≤ to. */
  from: string;
  to: string;
  /** A run id: only that run (the other filters still apply); if no such run exists, loanNumber is searched. */
  runId?: string;
  /** A loan number (as loanNumberOf makes it): the runs whose metadata.loan_number it is, in by_loan. */
  loanNumber?: string;
  limit: number;
  cursor?: RunListCursor;
}

export interface RunListPage {
  runs: RunSummary[];
  /** Where the next page starts; absent on the last page. */
  cursor?: RunListCursor;
}

/** How much one listRecentRuns call may read: items of the index (before filters) and Queries. */
export interface ListBounds {
  maxItemsRead: number;
  maxQueries: number;
  /** Limit of each Query: DynamoDB pages at 1 MB too, so a Query may stop before it. */
  queryPageSize: number;
}

export const DEFAULT_LIST_BOUNDS: ListBounds = { maxItemsRead: 1000, maxQueries: 40, queryPageSize: 200 };

/** The FilterExpression of a run list's filters (the key condition picks the day or the loan). */
function listFilter(query: RunListQuery): {
  expression?: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses: string[] = [];
  if (query.statuses?.length) {
    names["#status"] = "status";
    const placeholders = query.statuses.map((status, index) => {
      values[`:st${index}`] = status;
      return `:st${index}`;
    });
    clauses.push(`#status IN (${placeholders.join(", ")})`);
  }
  const metadata = (field: string, value: string | undefined) => {
    if (value === undefined) return;
    Object.assign(names, { "#request": "request", "#metadata": "metadata", [`#${field}`]: field });
    values[`:${field}`] = value;
    clauses.push(`#request.#metadata.#${field} = :${field}`);
  };
  metadata("loan_program", query.loanProgram);
  metadata("classification", query.classification);
  return { ...(clauses.length ? { expression: clauses.join(" AND ") } : {}), names, values };
}

/** The filters of a run list, checked on one run (q= a run id). */
function matches(meta: MetaItem, query: RunListQuery): boolean {
  const metadata = (meta.request?.metadata ?? {}) as Record<string, unknown>;
  const day = meta.created_at.slice(0, 10);
  return (
    (!query.statuses?.length || query.statuses.includes(meta.status)) &&
    (query.loanProgram === undefined || metadata.loan_program === query.loanProgram) &&
    (query.classification === undefined || metadata.classification === query.classification) &&
    day >= query.from &&
    day <= query.to
  );
}

/** The index key (LastEvaluatedKey) of an item read from the index `position` walks. */
function indexKeyOf(
  item: Record<string, unknown>,
  position: { day: string } | { loan: string },
): Record<string, unknown> {
  const index = "day" in position ? RUNS_BY_DAY : RUNS_BY_LOAN;
  return {
    pk: item.pk,
    sk: item.sk,
    [index.partitionKey.name]: item[index.partitionKey.name],
    [index.sortKey.name]: item[index.sortKey.name],
  };
}

/** The day before `position`'s, unless that is before `from`; a loan's runs are one partition. */
function nextPartition(
  position: { day: string } | { loan: string },
  from: string,
): { day: string } | undefined {
  if (!("day" in position)) return undefined;
  const previous = new Date(Date.parse(`${position.day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return previous >= from ? { day: previous } : undefined;
}

function cursorAt(
  position: { day: string; key?: Record<string, unknown> } | { loan: string; key?: Record<string, unknown> },
): RunListCursor {
  return { v: 1, ...position } as RunListCursor;
}

/** A run as GET /v1/runs shows it: its request's metadata cut to what identifies the loan. */
function runSummary(meta: MetaItem): RunSummary {
  const loan = loanNumberOf(meta.request?.metadata?.loan_number);
  return {
    run_id: meta.run_id,
    status: meta.status,
    mode: meta.mode ?? "rewoo",
    created_at: meta.created_at,
    updated_at: meta.updated_at,
    request: { metadata: pick(meta.request?.metadata, ["loan_program", "classification", "loan_number"]) },
    ...(meta.cost ? { cost: { currency: meta.cost.currency, total: meta.cost.total, estimated: true } } : {}),
    ...(loan !== undefined ? { loan_number: loan } : {}),
    resumable: RESUMABLE_STATUSES.includes(meta.status),
  };
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

function pick(value: unknown, keys: string[]): Record<string, unknown> {
  const source = (value ?? {}) as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => key in source).map((key) => [key, source[key]]));
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
  };
}
