// The twin's glue around aws-local-stepfunctions: loading (and patching) the interpreter, preparing
// the ASL definition it runs (substitutions, callback states), and turning what handlers return or
// throw into what the interpreter expects, with Step Functions' limits and error names.
import type { StateMachine, StateMachineDefinition } from "aws-local-stepfunctions";
import { installPolyfills } from "./polyfills.ts";

/** Errors carry the Step Functions API error code as `name` (what the JSON API returns as `__type`). */
export class StepFunctionsError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** Step Functions' payload quota: a state's input or output, or a task's result, above it is fatal. */
export const PAYLOAD_LIMIT_BYTES = 256 * 1024;

/**
 * The callback pattern (`arn:aws:states:::lambda:invoke.waitForTaskToken`): the state invokes the function
 * with its Payload (which carries `$$.Task.Token`), ignores what the function returns, and waits until
 * someone calls SendTaskSuccess / SendTaskFailure with the token — or until its timeout or heartbeat ends it.
 */
export const CALLBACK_RESOURCE = "arn:aws:states:::lambda:invoke.waitForTaskToken";
/**
 * The interpreter evaluates a Task's TimeoutSecondsPath on the input after Parameters, AWS on the state
 * input. The twin moves each callback state's TimeoutSecondsPath / HeartbeatSecondsPath into Parameters
 * under these names (evaluated on the state input there, as in AWS), strips them before the function
 * sees the payload and enforces both itself.
 */
export const TIMEOUT_PARAMETER = "__twin_timeout_seconds";
export const HEARTBEAT_PARAMETER = "__twin_heartbeat_seconds";
/** What the interpreter is told for a callback state (its own default is 60 s); the twin enforces the real one. */
export const CALLBACK_INTERPRETER_TIMEOUT_SECONDS = 2_000_000;
/** Node timers hold at most 2^31 - 1 ms (≈ 24.8 days); a longer wait is refused rather than fired at once. */
export const MAX_CALLBACK_WAIT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

// The interpreter's FailStateError defaults, used when a Fail state has no Error / Cause.
export const LIBRARY_FAIL_ERROR = "FailStateError";
export const LIBRARY_FAIL_CAUSE = "Execution failed because of a Fail state";

export type Interpreter = typeof import("aws-local-stepfunctions");

let interpreter: Promise<Interpreter> | undefined;

export function loadInterpreter(): Promise<Interpreter> {
  // The polyfill must exist before the interpreter's first Task runs; loading the library only after
  // installing it keeps that true whoever imports this module first.
  interpreter ??= (async () => {
    installPolyfills();
    const lib = await import("aws-local-stepfunctions");
    stopQueuedIterationsOnFailure(lib);
    return lib;
  })();
  return interpreter;
}

/** Iterator / branch machines that the interpreter built for one Map or Parallel state run, and that failed. */
const failedNestedMachines = new WeakSet<object>();
const PATCHED = Symbol.for("rewoo.local.stopQueuedIterationsOnFailure");

/**
 * In AWS a Map state that fails (an iteration failed, or the execution was stopped) starts no further
 * iterations. The interpreter runs iterations through a p-limit queue that it never clears: after the
 * first failure, every queued iteration still runs — with RunLevels' MaxConcurrency 1 that means the
 * next dependency levels run after their prerequisites failed, concurrently with HandleFailure.
 * The interpreter builds one iterator machine per Map state run and calls its `run` per iteration, so
 * refusing to start iterations on a machine that already had a failed or aborted iteration (or whose
 * execution was aborted) restores the AWS behaviour. Only nested runs carry `_rootAbortSignal` (the
 * interpreter's internal run option): root runs, whoever starts them, are left alone.
 */
function stopQueuedIterationsOnFailure(lib: Interpreter): void {
  const proto = lib.StateMachine.prototype as StateMachine & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const run = proto.run;
  type Run = ReturnType<StateMachine["run"]>;
  proto.run = function patchedRun(this: StateMachine, input, options): Run {
    const parentSignal = (options as { _rootAbortSignal?: AbortSignal } | undefined)?._rootAbortSignal;
    if (!parentSignal) return run.call(this, input, options);
    if (failedNestedMachines.has(this) || parentSignal.aborted) {
      const result = Promise.reject(new lib.ExecutionAbortedError());
      // Whoever runs this iteration has already given up on it (Promise.all rejected); don't report it.
      result.catch(() => undefined);
      return { abort: () => undefined, eventLogs: (async function* () {})(), result };
    }
    const execution = run.call(this, input, options);
    return {
      ...execution,
      // Derived promise: the mark is set before the p-limit queue sees the rejection and starts the next item.
      result: execution.result.catch((error: unknown) => {
        failedNestedMachines.add(this);
        throw error;
      }),
    };
  };
  proto[PATCHED] = true;
}
/** A callback state's timeouts, as the definition sets them (a path is read per execution). */
export interface CallbackState {
  timeoutSeconds?: number;
  heartbeatSeconds?: number;
}

/**
 * CDK substitutes `${XFunctionArn}` with the real function ARNs; the twin puts syntactically valid fake
 * ARNs there (the interpreter validates ARNs, and never calls them because every Task has a local handler).
 */
export function substitute(
  text: string,
  region: string,
  accountId: string,
  extra: Record<string, string>,
): string {
  const unresolved = new Set<string>();
  const result = text.replace(/\$\{([A-Za-z0-9_]+)\}/g, (placeholder, key: string) => {
    const value = extra[key];
    // Placeholders sit inside JSON string literals.
    if (value !== undefined) return JSON.stringify(value).slice(1, -1);
    const fn = /^(.+)FunctionArn$/.exec(key);
    if (fn?.[1]) {
      const slug = fn[1].replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
      return `arn:aws:lambda:${region}:${accountId}:function:rewoo-local-${slug}`;
    }
    unresolved.add(placeholder);
    return placeholder;
  });
  if (unresolved.size) {
    throw new Error(`No value for the definition substitutions ${[...unresolved].join(", ")}`);
  }
  return result;
}

type StatesMap = Record<string, { Type?: string } & Record<string, unknown>>;

export function collectTaskStates(definition: StateMachineDefinition): string[] {
  const tasks: string[] = [];
  const seen = new Set<string>();
  const visit = (states: StatesMap | undefined) => {
    for (const [name, state] of Object.entries(states ?? {})) {
      // Handlers are keyed by state name across nesting levels, so a duplicated name would silently
      // share one handler (AWS rejects duplicates anyway).
      if (seen.has(name)) throw new Error(`State name ${name} is used more than once in the definition`);
      seen.add(name);
      if (state.Type === "Task") tasks.push(name);
      const processor = (state.ItemProcessor ?? state.Iterator) as { States?: StatesMap } | undefined;
      if (processor) visit(processor.States);
      for (const branch of (state.Branches as Array<{ States?: StatesMap }> | undefined) ?? [])
        visit(branch.States);
    }
  };
  visit(definition.States as unknown as StatesMap);
  return tasks;
}

export function toTaskResult(stateName: string, result: unknown): unknown {
  // Lambda serializes the return value: undefined becomes null, Dates become strings, and so on.
  const json = JSON.stringify(result);
  if (json === undefined) return null;
  if (Buffer.byteLength(json, "utf8") > PAYLOAD_LIMIT_BYTES) {
    throw terminalError(
      "States.DataLimitExceeded",
      `The result of state ${stateName} is ${Buffer.byteLength(json, "utf8")} bytes, above the ${PAYLOAD_LIMIT_BYTES}-byte payload quota`,
    );
  }
  return JSON.parse(json);
}

export function toTaskError(error: unknown): Error {
  if (error instanceof Error) return error;
  // The interpreter reads `name` and `message`; Lambda reports any thrown value as an error too.
  return new StepFunctionsError(
    "Error",
    typeof error === "string" ? error : (JSON.stringify(error) ?? String(error)),
  );
}

/** States.DataLimitExceeded is terminal in AWS: neither Retry nor Catch (States.ALL included) match it. */
export function terminalError(name: string, message: string): Error {
  const error = new StepFunctionsError(name, message);
  // The interpreter reads these (RuntimeError getters) to decide whether Retry/Catch may match.
  Object.defineProperties(error, { isRetryable: { value: false }, isCatchable: { value: false } });
  return error;
}

/**
 * Callback states: checks that each is a Lambda invocation (the only callback integration the twin
 * emulates) and rewrites its TimeoutSecondsPath / HeartbeatSecondsPath as Parameters entries (see
 * TIMEOUT_PARAMETER). Mutates the definition it is given.
 */
export function prepareCallbackStates(
  definition: StateMachineDefinition,
  aslPath: string,
): Map<string, CallbackState> {
  const callbacks = new Map<string, CallbackState>();
  const visit = (states: StatesMap | undefined) => {
    for (const [name, state] of Object.entries(states ?? {})) {
      const resource = typeof state.Resource === "string" ? state.Resource : "";
      if (state.Type === "Task" && resource.endsWith(".waitForTaskToken")) {
        if (resource !== CALLBACK_RESOURCE) {
          throw new Error(
            `${aslPath}: state ${name} waits for a task token through ${resource}; the twin emulates ${CALLBACK_RESOURCE} only`,
          );
        }
        const parameters = (state.Parameters ?? {}) as Record<string, unknown>;
        const entry: CallbackState = {};
        if (typeof state.TimeoutSeconds === "number") entry.timeoutSeconds = state.TimeoutSeconds;
        if (typeof state.HeartbeatSeconds === "number") entry.heartbeatSeconds = state.HeartbeatSeconds;
        if (typeof state.TimeoutSecondsPath === "string") {
          parameters[`${TIMEOUT_PARAMETER}.$`] = state.TimeoutSecondsPath;
          delete state.TimeoutSecondsPath;
        }
        if (typeof state.HeartbeatSecondsPath === "string") {
          parameters[`${HEARTBEAT_PARAMETER}.$`] = state.HeartbeatSecondsPath;
          delete state.HeartbeatSecondsPath;
        }
        state.Parameters = parameters;
        state.TimeoutSeconds = CALLBACK_INTERPRETER_TIMEOUT_SECONDS;
        delete state.HeartbeatSeconds;
        callbacks.set(name, entry);
      }
      const processor = (state.ItemProcessor ?? state.Iterator) as { States?: StatesMap } | undefined;
      if (processor) visit(processor.States);
      for (const branch of (state.Branches as Array<{ States?: StatesMap }> | undefined) ?? [])
        visit(branch.States);
    }
  };
  visit(definition.States as unknown as StatesMap);
  return callbacks;
}

/** A callback state's timeout or heartbeat: the value its path resolved to, else the fixed one. */
export function callbackSeconds(
  fromPath: unknown,
  fixed: number | undefined,
  stateName: string,
  what: "Timeout" | "Heartbeat",
): number | undefined {
  const value = fromPath ?? fixed;
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw terminalError(
      "States.Runtime",
      `${stateName}: ${what}SecondsPath must select a positive integer, got ${JSON.stringify(value)}`,
    );
  }
  if (value > MAX_CALLBACK_WAIT_SECONDS) {
    throw terminalError(
      "States.Runtime",
      `${stateName}: the twin can wait at most ${MAX_CALLBACK_WAIT_SECONDS} seconds, got ${value}`,
    );
  }
  return value;
}

export function containsString(value: unknown, wanted: string): boolean {
  if (value === wanted) return true;
  if (Array.isArray(value)) return value.some((item) => containsString(item, wanted));
  if (value && typeof value === "object")
    return Object.values(value).some((item) => containsString(item, wanted));
  return false;
}

/** States.Timeout / States.HeartbeatTimeout of a callback state: Catch may handle them, Retry as configured. */
export function callbackTimeout(name: string, stateName: string, seconds: number): Error {
  return new StepFunctionsError(name, `${stateName} received no callback within ${seconds} seconds`);
}
