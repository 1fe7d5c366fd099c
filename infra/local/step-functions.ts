// Step Functions emulation for the local twin: runs statemachine/rewoo.asl.json — the same file CDK
// deploys — with aws-local-stepfunctions, invoking in-process handlers in place of the Lambda functions,
// and keeps executions the way the StartExecution / DescribeExecution / StopExecution APIs expose them.
import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { RunOptions, StateMachine, StateMachineDefinition } from "aws-local-stepfunctions";
import {
  type CallbackState,
  callbackSeconds,
  callbackTimeout,
  collectTaskStates,
  containsString,
  HEARTBEAT_PARAMETER,
  type Interpreter,
  LIBRARY_FAIL_CAUSE,
  LIBRARY_FAIL_ERROR,
  loadInterpreter,
  PAYLOAD_LIMIT_BYTES,
  prepareCallbackStates,
  StepFunctionsError,
  substitute,
  TIMEOUT_PARAMETER,
  toTaskError,
  toTaskResult,
} from "./sfn-interpreter.ts";

export type TaskHandler = (input: unknown) => Promise<unknown>;

export type ExecutionStatus = "RUNNING" | "SUCCEEDED" | "FAILED" | "ABORTED" | "TIMED_OUT";

export interface ExecutionDescription {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: ExecutionStatus;
  input: unknown;
  output?: unknown;
  error?: string;
  cause?: string;
  startDate: Date;
  stopDate?: Date;
}

export interface HistoryEvent {
  /** The interpreter's event type: ExecutionStarted, StateEntered, StateExited, StateFailed, StateRetried, StateCaught, MapIterationStarted, ... */
  type: string;
  /** The state (or, for MapIteration* events, the Map state) the event is about. */
  stateName?: string;
  timestamp: number;
  /** Map iteration index, for events raised inside a Map iteration. */
  index?: number;
  /** Error name of StateFailed / ExecutionFailed / MapIterationFailed events. */
  error?: string;
  /** Their cause (as text, at most MAX_CAUSE_LENGTH characters), for GetExecutionHistory. */
  cause?: string;
  /** The definition's type of `stateName` (Task, Map, Pass, ...), which names the API's event types. */
  stateType?: string;
}

/** What DescribeStateMachine tells of a machine. */
export interface StateMachineDescription {
  stateMachineArn: string;
  name: string;
  /** The definition the machine runs: the ASL text after the `${...}` substitutions. */
  definition: string;
  roleArn: string;
  type: "STANDARD";
  status: "ACTIVE";
  creationDate: Date;
}

export interface LocalStepFunctionsOptions {
  region?: string;
  accountId?: string;
  /** Defaults to the ASL file name without `.asl.json`. */
  stateMachineName?: string;
  /** Values for `${Name}` placeholders other than the `${...FunctionArn}` ones, which get fake Lambda ARNs. */
  substitutions?: Record<string, string>;
  /** Passed to the interpreter: milliseconds to wait before each retry, per state name (tests use 0). */
  retryIntervalOverrides?: Record<string, number | number[]>;
  /**
   * Closed executions kept for DescribeExecution and history(); older ones are forgotten, oldest
   * closed first (default CLOSED_EXECUTIONS_KEPT). Running executions are always kept.
   */
  closedExecutionsKept?: number;
  /**
   * false: the definition is not validated again (an emulation that derived it from a file it already
   * validated as a whole; validation is most of the construction cost).
   */
  validate?: boolean;
}

/**
 * AWS keeps a closed execution's history for 90 days; a process that serves for weeks cannot keep
 * them all in memory (each record holds its input, output and event history). The twin's runs live
 * in DynamoDB, so forgetting an old execution loses only its Step Functions view (and, unlike AWS,
 * frees its name).
 */
export const CLOSED_EXECUTIONS_KEPT = 1_000;

/**
 * What Step Functions sends to EventBridge when an execution changes status (detail-type "Step Functions
 * Execution Status Change"): the fields of its `detail`.
 */
export interface ExecutionStatusChangeDetail {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: ExecutionStatus;
  startDate: number;
  stopDate: number | null;
  input: string;
  output: string | null;
  error: string | null;
  cause: string | null;
}

export type StatusChangeListener = (detail: ExecutionStatusChangeDetail) => void;

export {
  MAX_CALLBACK_WAIT_SECONDS,
  PAYLOAD_LIMIT_BYTES,
  StepFunctionsError,
  substitute,
} from "./sfn-interpreter.ts";

/** SendTaskFailure's limits (the API rejects longer values). */
const MAX_ERROR_LENGTH = 256;
const MAX_CAUSE_LENGTH = 32_768;
const DEFAULT_REGION = "us-east-1";
const DEFAULT_ACCOUNT = "123456789012";
// AWS rejects execution names with white space, brackets, wildcards, these punctuation marks and control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is rejected
const INVALID_NAME_CHARS = /[\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]/;

/** A task token whose state waits (open) or no longer waits (closed: answered, timed out or stopped). */
interface TaskTokenRecord {
  executionArn: string;
  stateName: string;
  open: boolean;
  resolve?: (output: unknown) => void;
  reject?: (error: Error) => void;
  /** Restarts the heartbeat timer (SendTaskHeartbeat). */
  heartbeat?: () => void;
}

interface ExecutionRecord {
  arn: string;
  name: string;
  input: unknown;
  inputJson: string;
  status: ExecutionStatus;
  output?: unknown;
  error?: string;
  cause?: string;
  startDate: Date;
  stopDate?: Date;
  history: HistoryEvent[];
  abort?: () => void;
  /** Settled, and the interpreter's event stream fully collected into `history`. */
  done: Promise<void>;
  markSettled: () => void;
  /** Handler invocations still running (they outlive stopExecution, see there). */
  inFlight: number;
  /** Task tokens handed out by `$$.Task.Token` and not yet claimed by a callback state. */
  minted: Set<string>;
  /** Tokens of this execution's callback states (open or closed), forgotten with the execution. */
  tokens: Set<string>;
  onIdle: Array<() => void>;
}

export class LocalStepFunctions {
  readonly stateMachineArn: string;
  readonly stateMachineName: string;
  /** The task states of the definition (including those nested in Map / Parallel states). */
  readonly taskStates: readonly string[];
  /** When this emulation was built: the machine's creationDate. */
  readonly creationDate = new Date();
  private readonly executions = new Map<string, ExecutionRecord>();
  /** ARNs of closed executions still in `executions`, oldest closed first. */
  private readonly closedOrder = new Set<string>();
  private readonly statusListeners: StatusChangeListener[] = [];
  private readonly taskTokens = new Map<string, TaskTokenRecord>();
  /** Set by close(): the emulation is going away with its process, and so is its event bus. */
  private closing = false;

  private constructor(
    private readonly lib: Interpreter,
    private readonly machine: StateMachine,
    private readonly handlers: Readonly<Record<string, TaskHandler>>,
    taskStates: string[],
    private readonly region: string,
    private readonly accountId: string,
    stateMachineName: string,
    private readonly retryIntervalOverrides: Record<string, number | number[]> | undefined,
    private readonly closedExecutionsKept: number,
    private readonly callbackStates: ReadonlyMap<string, CallbackState>,
    private readonly definitionText: string,
  ) {
    this.taskStates = taskStates;
    this.stateMachineName = stateMachineName;
    this.stateMachineArn = `arn:aws:states:${region}:${accountId}:stateMachine:${stateMachineName}`;
  }

  static async fromFile(
    aslPath: string,
    handlers: Record<string, TaskHandler>,
    options: LocalStepFunctionsOptions = {},
  ): Promise<LocalStepFunctions> {
    return LocalStepFunctions.fromDefinition(await readFile(aslPath, "utf8"), aslPath, handlers, options);
  }

  /**
   * A definition given as text: what an emulation derives from an ASL file (the twin runs a
   * Distributed Map's item processor as a state machine of its own). `aslPath` names it in errors
   * and, by default, names the machine.
   */
  static async fromDefinition(
    aslText: string,
    aslPath: string,
    handlers: Record<string, TaskHandler>,
    options: LocalStepFunctionsOptions = {},
  ): Promise<LocalStepFunctions> {
    const kept = options.closedExecutionsKept ?? CLOSED_EXECUTIONS_KEPT;
    if (!Number.isInteger(kept) || kept < 0) {
      throw new Error(`closedExecutionsKept must be an integer ≥ 0, got ${kept}`);
    }
    const region = options.region ?? DEFAULT_REGION;
    const accountId = options.accountId ?? DEFAULT_ACCOUNT;
    const stateMachineName = options.stateMachineName ?? basename(aslPath).replace(/(\.asl)?\.json$/, "");
    const text = substitute(aslText, region, accountId, options.substitutions ?? {});
    let definition: StateMachineDefinition;
    try {
      definition = JSON.parse(text) as StateMachineDefinition;
    } catch (error) {
      throw new Error(`${aslPath} is not valid JSON: ${(error as Error).message}`);
    }

    const taskStates = collectTaskStates(definition);
    const callbackStates = prepareCallbackStates(definition, aslPath);
    const unknown = Object.keys(handlers).filter((name) => !taskStates.includes(name));
    if (unknown.length) {
      throw new Error(
        `Handlers for states that are not Task states of ${aslPath}: ${unknown.join(", ")} (task states: ${taskStates.join(", ")})`,
      );
    }
    const missing = taskStates.filter((name) => typeof handlers[name] !== "function");
    if (missing.length) {
      // Without a local handler the interpreter would call the real Lambda through the AWS SDK.
      throw new Error(`No handler for the task states ${missing.join(", ")} of ${aslPath}`);
    }

    const lib = await loadInterpreter();
    // Validation (asl-validator) is most of the 200–500 ms construction cost: build once, run many.
    const machine = new lib.StateMachine(definition, {
      validationOptions:
        options.validate === false ? { noValidate: true } : { checkArn: true, checkPaths: true },
    });
    return new LocalStepFunctions(
      lib,
      machine,
      { ...handlers },
      taskStates,
      region,
      accountId,
      stateMachineName,
      options.retryIntervalOverrides,
      kept,
      callbackStates,
      text,
    );
  }

  startExecution(request: { name?: string; input: unknown }): { executionArn: string; startDate: Date } {
    const name = request.name ?? randomUUID();
    if (name.length < 1 || name.length > 80 || INVALID_NAME_CHARS.test(name)) {
      throw new StepFunctionsError("InvalidName", `Invalid Execution Name: '${name}'`);
    }
    let inputJson: string | undefined;
    try {
      inputJson = JSON.stringify(request.input ?? {});
    } catch (error) {
      throw new StepFunctionsError(
        "InvalidExecutionInput",
        `Invalid State Machine Execution Input: ${String(error)}`,
      );
    }
    if (inputJson === undefined) {
      throw new StepFunctionsError(
        "InvalidExecutionInput",
        "Invalid State Machine Execution Input: not JSON",
      );
    }

    const executionArn = `arn:aws:states:${this.region}:${this.accountId}:execution:${this.stateMachineName}:${name}`;
    const existing = this.executions.get(executionArn);
    if (existing) {
      // AWS: a repeated StartExecution with the same name and input while the first one runs is an
      // idempotent success; after it has closed, or with another input, it is ExecutionAlreadyExists.
      if (existing.status === "RUNNING" && existing.inputJson === inputJson) {
        return { executionArn, startDate: existing.startDate };
      }
      throw new StepFunctionsError("ExecutionAlreadyExists", `Execution Already Exists: '${executionArn}'`);
    }

    let markSettled!: () => void;
    const settled = new Promise<void>((resolve) => {
      markSettled = resolve;
    });
    const record: ExecutionRecord = {
      arn: executionArn,
      name,
      input: JSON.parse(inputJson),
      inputJson,
      status: "RUNNING",
      startDate: new Date(),
      history: [],
      done: settled,
      markSettled,
      inFlight: 0,
      onIdle: [],
      minted: new Set(),
      tokens: new Set(),
    };
    this.executions.set(executionArn, record);
    this.emitStatusChange(record);

    const runOptions: RunOptions = {
      overrides: {
        taskResourceLocalHandlers: this.handlersFor(record),
        ...(this.retryIntervalOverrides ? { retryIntervalOverrides: this.retryIntervalOverrides } : {}),
      },
      // The interpreter's context only has Execution.Input/StartTime (it overwrites both with its own);
      // Id and Name come from here so `$$.Execution.Id` resolves like in AWS.
      context: {
        Execution: {
          Id: executionArn,
          Name: name,
          Input: record.input as never,
          StartTime: record.startDate.toISOString(),
        },
        StateMachine: { Id: this.stateMachineArn, Name: this.stateMachineName },
        // `$$.Task.Token`: a new token each time a state's Parameters read it; the callback state that
        // receives it in its payload claims it (see callbackHandler).
        Task: {
          get Token(): string {
            const token = randomBytes(48).toString("base64url");
            record.minted.add(token);
            return token;
          },
        },
      },
    };
    const execution = this.machine.run(JSON.parse(inputJson), runOptions);
    record.abort = execution.abort;
    // The result promise settles before the last events reach the stream; waiting for both makes
    // history() complete as soon as waitForExecution() resolves.
    record.done = Promise.all([settled, this.drainEvents(record, execution.eventLogs)]).then(() => undefined);
    execution.result.then(
      (output) => this.settle(record, { status: "SUCCEEDED", output }),
      (error: unknown) => this.settle(record, this.classify(error)),
    );
    return { executionArn, startDate: record.startDate };
  }

  /** Every status change from now on (RUNNING at start, then the final one), as EventBridge would see it. */
  onStatusChange(listener: StatusChangeListener): void {
    this.statusListeners.push(listener);
  }

  describeExecution(executionArn: string): ExecutionDescription {
    return describe(this.get(executionArn), this.stateMachineArn);
  }

  /**
   * DescribeStateMachine. The role is a name only: nothing assumes it, the twin's handlers run with
   * the process's own rights.
   */
  describeStateMachine(): StateMachineDescription {
    return {
      stateMachineArn: this.stateMachineArn,
      name: this.stateMachineName,
      definition: this.definitionText,
      roleArn: `arn:aws:iam::${this.accountId}:role/${this.stateMachineName.replace(/[^\w+=,.@-]/g, "-")}-local`,
      type: "STANDARD",
      status: "ACTIVE",
      creationDate: this.creationDate,
    };
  }

  listExecutions(): ExecutionDescription[] {
    return [...this.executions.values()].map((record) => describe(record, this.stateMachineArn));
  }

  /**
   * Marks the execution ABORTED at once, like AWS. The interpreter's abort() stops the execution from
   * moving on, but it cannot cancel a handler that is already running: that call completes in the
   * background (its result is discarded, and no further handler of this execution is started).
   * `idle(executionArn)` waits for such calls.
   */
  stopExecution(executionArn: string, options: { error?: string; cause?: string } = {}): { stopDate: Date } {
    const record = this.get(executionArn);
    if (record.status !== "RUNNING") return { stopDate: record.stopDate ?? new Date() };
    this.settle(record, { status: "ABORTED", error: options.error, cause: options.cause });
    record.abort?.();
    return { stopDate: record.stopDate as Date };
  }

  /** Resolves with the final description once the execution has ended; a failed execution is not an error here. */
  async waitForExecution(executionArn: string): Promise<ExecutionDescription> {
    const record = this.get(executionArn);
    await record.done;
    return describe(record, this.stateMachineArn);
  }

  /** Resolves when no handler call of the execution is running (after a stop, or a Task timeout). */
  async idle(executionArn: string): Promise<void> {
    await this.recordIdle(this.get(executionArn));
  }

  private async recordIdle(record: ExecutionRecord): Promise<void> {
    if (record.inFlight === 0) return;
    await new Promise<void>((resolve) => record.onIdle.push(resolve));
  }

  /** Compact event log (type, state name, timestamp) collected from the interpreter's event stream. */
  history(executionArn: string): HistoryEvent[] {
    return this.get(executionArn).history.map((event) => ({ ...event }));
  }

  /** Stops every running execution and waits (bounded) for their running handler calls to return. */
  async close(options: { timeoutMs?: number } = {}): Promise<void> {
    // Executions stopped here are not "stopped by someone": the process is going away. Their runs
    // stay in flight, to be resumed by the next twin on the same data (see infra/local/twin.ts).
    this.closing = true;
    const records = [...this.executions.values()];
    for (const record of records) {
      if (record.status === "RUNNING") {
        this.stopExecution(record.arn, { error: "LocalTwinShutdown", cause: "The local twin was stopped" });
      }
    }
    // By record, not by ARN: stopping one may forget an old closed one.
    const idle = Promise.all(records.map((record) => this.recordIdle(record)));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.timeoutMs ?? 5_000);
    });
    await Promise.race([idle, timeout]);
    clearTimeout(timer);
  }

  private get(executionArn: string): ExecutionRecord {
    const record = this.executions.get(executionArn);
    if (!record) {
      throw new StepFunctionsError("ExecutionDoesNotExist", `Execution Does Not Exist: '${executionArn}'`);
    }
    return record;
  }

  private handlersFor(record: ExecutionRecord): Record<string, (input: unknown) => Promise<never>> {
    const wrapped: Record<string, (input: unknown) => Promise<never>> = {};
    for (const [stateName, handler] of Object.entries(this.handlers)) {
      const callback = this.callbackStates.get(stateName);
      if (callback) {
        wrapped[stateName] = (input) => this.runCallbackState(record, stateName, handler, callback, input);
        continue;
      }
      wrapped[stateName] = async (input) => (await this.invoke(record, stateName, handler, input)) as never;
    }
    return wrapped;
  }

  /** One Lambda invocation of a Task state, as AWS makes it. */
  private async invoke(
    record: ExecutionRecord,
    stateName: string,
    handler: TaskHandler,
    input: unknown,
  ): Promise<unknown> {
    // The interpreter calls a Task's handler synchronously inside run(); AWS invokes the Lambda
    // after StartExecution has returned. Yield once so callers see the same ordering.
    await new Promise((resolve) => setImmediate(resolve));
    if (record.status !== "RUNNING") {
      // Iterations queued in a Map still start after an abort (the interpreter's p-limit queue is not
      // drained); AWS would never start them.
      throw new StepFunctionsError("States.Runtime", `Execution ${record.name} is no longer running`);
    }
    record.inFlight += 1;
    try {
      // Lambda receives and returns serialized JSON: handlers never share objects with the interpreter.
      const result = await handler(JSON.parse(JSON.stringify(input ?? null)));
      return toTaskResult(stateName, result);
    } catch (error) {
      throw toTaskError(error);
    } finally {
      record.inFlight -= 1;
      if (record.inFlight === 0) for (const resolve of record.onIdle.splice(0)) resolve();
    }
  }

  /**
   * A `lambda:invoke.waitForTaskToken` state: invoke the function with the Payload (its answer is
   * ignored, its error fails the state), then wait for the token's SendTaskSuccess (the state's result
   * is that output) or SendTaskFailure (the state fails with that error), or for the timeout
   * (States.Timeout) or a missed heartbeat (States.HeartbeatTimeout).
   */
  private async runCallbackState(
    record: ExecutionRecord,
    stateName: string,
    handler: TaskHandler,
    callback: CallbackState,
    input: unknown,
  ): Promise<never> {
    const parameters = (input ?? {}) as Record<string, unknown>;
    const timeoutSeconds = callbackSeconds(
      parameters[TIMEOUT_PARAMETER],
      callback.timeoutSeconds,
      stateName,
      "Timeout",
    );
    const heartbeatSeconds = callbackSeconds(
      parameters[HEARTBEAT_PARAMETER],
      callback.heartbeatSeconds,
      stateName,
      "Heartbeat",
    );
    const payload = parameters.Payload ?? {};
    // The token(s) this state's Parameters read; AWS waits even when none reached the payload (only the
    // timeout can end such a state), and so does the twin.
    const claimed = [...record.minted].filter((token) => containsString(payload, token));
    for (const token of claimed) record.minted.delete(token);

    const waiting = new Promise<unknown>((resolve, reject) => {
      const timers: NodeJS.Timeout[] = [];
      const close = () => {
        for (const timer of timers) clearTimeout(timer);
        for (const token of claimed) {
          const entry = this.taskTokens.get(token);
          if (entry) {
            entry.open = false;
            delete entry.resolve;
            delete entry.reject;
            delete entry.heartbeat;
          }
        }
      };
      const settleWith = (outcome: () => void) => {
        close();
        outcome();
      };
      if (timeoutSeconds !== undefined) {
        const timer = setTimeout(
          () => settleWith(() => reject(callbackTimeout("States.Timeout", stateName, timeoutSeconds))),
          timeoutSeconds * 1000,
        );
        timer.unref();
        timers.push(timer);
      }
      let heartbeatTimer: NodeJS.Timeout | undefined;
      const heartbeat = () => {
        if (heartbeatSeconds === undefined) return;
        if (heartbeatTimer) clearTimeout(heartbeatTimer);
        heartbeatTimer = setTimeout(
          () =>
            settleWith(() => reject(callbackTimeout("States.HeartbeatTimeout", stateName, heartbeatSeconds))),
          heartbeatSeconds * 1000,
        );
        heartbeatTimer.unref();
        timers.push(heartbeatTimer);
      };
      heartbeat();
      for (const token of claimed) {
        record.tokens.add(token);
        this.taskTokens.set(token, {
          executionArn: record.arn,
          stateName,
          open: true,
          resolve: (output) => settleWith(() => resolve(output)),
          reject: (error) => settleWith(() => reject(error)),
          heartbeat,
        });
      }
    });
    // Registered before the function runs: it may hand the token on, and the answer may come back
    // before the invocation returns.
    waiting.catch(() => undefined);
    const { [TIMEOUT_PARAMETER]: _timeout, [HEARTBEAT_PARAMETER]: _heartbeat, ...rest } = parameters;
    try {
      await this.invoke(record, stateName, handler, "Payload" in rest ? rest.Payload : rest);
    } catch (error) {
      for (const token of claimed) this.closeToken(token);
      throw error;
    }
    return (await waiting) as never;
  }

  /** SendTaskSuccess: the waiting state succeeds with `output` (a JSON text). */
  sendTaskSuccess(taskToken: string, output: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(output);
    } catch {
      throw new StepFunctionsError("InvalidOutput", "Invalid Output: the output is not valid JSON");
    }
    if (Buffer.byteLength(output, "utf8") > PAYLOAD_LIMIT_BYTES) {
      throw new StepFunctionsError(
        "InvalidOutput",
        `Invalid Output: ${Buffer.byteLength(output, "utf8")} bytes, above the ${PAYLOAD_LIMIT_BYTES}-byte payload quota`,
      );
    }
    this.openToken(taskToken).resolve?.(parsed);
  }

  /** SendTaskFailure: the waiting state fails with `error` / `cause` (its Retry and Catch apply). */
  sendTaskFailure(taskToken: string, options: { error?: string; cause?: string } = {}): void {
    if ((options.error?.length ?? 0) > MAX_ERROR_LENGTH) {
      throw new StepFunctionsError(
        "ValidationException",
        `Value at 'error' failed to satisfy constraint: Member must have length less than or equal to ${MAX_ERROR_LENGTH}`,
      );
    }
    if ((options.cause?.length ?? 0) > MAX_CAUSE_LENGTH) {
      throw new StepFunctionsError(
        "ValidationException",
        `Value at 'cause' failed to satisfy constraint: Member must have length less than or equal to ${MAX_CAUSE_LENGTH}`,
      );
    }
    this.openToken(taskToken).reject?.(new StepFunctionsError(options.error ?? "", options.cause ?? ""));
  }

  /** SendTaskHeartbeat: the waiting state's heartbeat timer starts again. */
  sendTaskHeartbeat(taskToken: string): void {
    this.openToken(taskToken).heartbeat?.();
  }

  private openToken(taskToken: string): TaskTokenRecord {
    const entry = this.taskTokens.get(taskToken);
    if (!entry) throw new StepFunctionsError("InvalidToken", "Invalid Token: the task token is not known");
    // AWS answers TaskTimedOut for every token whose state no longer waits (answered, timed out, stopped).
    if (!entry.open) throw new StepFunctionsError("TaskTimedOut", "Task Timed Out: the task no longer waits");
    return entry;
  }

  private closeToken(token: string): void {
    const entry = this.taskTokens.get(token);
    if (!entry?.open) return;
    entry.reject?.(new StepFunctionsError("States.Runtime", "the task no longer waits"));
  }

  /** Task tokens some callback state of the execution waits for (diagnostics and tests). */
  openTaskTokens(executionArn: string): string[] {
    const record = this.get(executionArn);
    return [...record.tokens].filter((token) => this.taskTokens.get(token)?.open);
  }

  private async drainEvents(record: ExecutionRecord, events: AsyncGenerator<unknown>): Promise<void> {
    // The interpreter queues every event (with full state inputs and outputs) until someone iterates
    // them; draining continuously and keeping only a compact record bounds memory on long plans.
    try {
      for await (const raw of events) {
        const event = raw as {
          type: string;
          timestamp: number;
          index?: number;
          Error?: string;
          Cause?: unknown;
          state?: { name: string; type?: string };
          parentState?: { name: string; type?: string };
        };
        const entry: HistoryEvent = { type: event.type, timestamp: event.timestamp };
        const state = event.state ?? event.parentState;
        if (state?.name !== undefined) entry.stateName = state.name;
        if (state?.type !== undefined) entry.stateType = state.type;
        if (event.index !== undefined) entry.index = event.index;
        if (event.Error !== undefined) entry.error = event.Error;
        if (event.Cause !== undefined && event.Cause !== null) {
          const cause = typeof event.Cause === "string" ? event.Cause : (JSON.stringify(event.Cause) ?? "");
          entry.cause = cause.slice(0, MAX_CAUSE_LENGTH);
        }
        record.history.push(entry);
      }
    } catch {
      // The event stream is diagnostics only; the execution's outcome comes from its result promise.
    }
  }

  private classify(error: unknown): Settlement {
    const { ExecutionError, ExecutionAbortedError, ExecutionTimeoutError } = this.lib;
    if (error instanceof ExecutionAbortedError) return { status: "ABORTED" };
    if (error instanceof ExecutionTimeoutError) {
      return {
        status: "TIMED_OUT",
        error: "States.Timeout",
        cause: "The execution exceeded its TimeoutSeconds",
      };
    }
    // ExecutionError.message is "Execution has failed with the following error: <cause>"; the error that
    // ended the execution (for a Fail state: name = Error, message = Cause) is its `cause`.
    const inner = error instanceof ExecutionError && error.cause instanceof Error ? error.cause : error;
    if (inner instanceof Error) {
      return {
        status: "FAILED",
        error: inner.name === LIBRARY_FAIL_ERROR ? undefined : inner.name,
        cause: inner.message === LIBRARY_FAIL_CAUSE || inner.message === "" ? undefined : inner.message,
      };
    }
    return { status: "FAILED", error: "States.Runtime", cause: String(inner) };
  }

  private settle(record: ExecutionRecord, settlement: Settlement): void {
    if (record.status !== "RUNNING") return;
    record.status = settlement.status;
    if (settlement.status === "SUCCEEDED") record.output = settlement.output;
    if (settlement.error !== undefined) record.error = settlement.error;
    if (settlement.cause !== undefined) record.cause = settlement.cause;
    record.stopDate = new Date();
    // A stopped (or otherwise ended) execution's callback states no longer wait.
    for (const token of record.tokens) this.closeToken(token);
    record.minted.clear();
    record.markSettled();
    this.emitStatusChange(record);
    this.forgetOldClosedExecutions(record);
  }

  private forgetOldClosedExecutions(closed: ExecutionRecord): void {
    this.closedOrder.add(closed.arn);
    for (const arn of this.closedOrder) {
      if (this.closedOrder.size <= this.closedExecutionsKept) break;
      const record = this.executions.get(arn);
      // A stopped execution whose handler call is still running stays until that call returns
      // (idle() and close() wait for it).
      if (record && record.inFlight > 0) continue;
      this.closedOrder.delete(arn);
      this.executions.delete(arn);
      for (const token of record?.tokens ?? []) this.taskTokens.delete(token);
    }
  }

  private emitStatusChange(record: ExecutionRecord): void {
    if (this.closing) return;
    const detail: ExecutionStatusChangeDetail = {
      executionArn: record.arn,
      stateMachineArn: this.stateMachineArn,
      name: record.name,
      status: record.status,
      startDate: record.startDate.getTime(),
      stopDate: record.stopDate?.getTime() ?? null,
      input: record.inputJson,
      output: record.status === "SUCCEEDED" ? (JSON.stringify(record.output) ?? null) : null,
      error: record.error ?? null,
      cause: record.cause ?? null,
    };
    for (const listener of this.statusListeners) listener(detail);
  }
}

interface Settlement {
  status: Exclude<ExecutionStatus, "RUNNING">;
  output?: unknown;
  error?: string;
  cause?: string;
}

function describe(record: ExecutionRecord, stateMachineArn: string): ExecutionDescription {
  const description: ExecutionDescription = {
    executionArn: record.arn,
    stateMachineArn,
    name: record.name,
    status: record.status,
    input: record.input,
    startDate: record.startDate,
  };
  if (record.status === "SUCCEEDED") description.output = record.output;
  if (record.error !== undefined) description.error = record.error;
  if (record.cause !== undefined) description.cause = record.cause;
  if (record.stopDate) description.stopDate = record.stopDate;
  return description;
}
