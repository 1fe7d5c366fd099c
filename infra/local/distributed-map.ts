// What the twin's interpreter (aws-local-stepfunctions 3) does not implement, emulated the way Step
// Functions behaves, so that a workflow file CDK deploys runs here unchanged:
//   - Distributed Map states (ItemProcessor.ProcessorConfig.Mode DISTRIBUTED): the ItemReader (an S3
//     object read with s3:getObject: JSON Lines or a JSON array), ItemSelector, MaxConcurrency(Path),
//     ToleratedFailurePercentage / Count (Path), child workflow executions of the item processor (a
//     state machine of its own, `<machine>/<label>`, whose executions the Step Functions API lists and
//     describes), and the ResultWriter (manifest.json and SUCCEEDED_0 / FAILED_0 / PENDING_0 files
//     under `<Prefix>/<map run id>/`, the Map's output being {MapRunArn, ResultWriterDetails});
//   - `arn:aws:states:::states:startExecution` (request-response, `.sync`, `.sync:2`): an execution of
//     another twin machine, waited for, with its output or States.TaskFailed; stopping the execution
//     that waits stops the child, as Step Functions does for `.sync` tasks.
// The definition is rewritten before the interpreter sees it: each Distributed Map becomes a Task state
// (same name, paths, Retry and Catch) served by the emulation, each startExecution task gets its
// execution's id as an extra parameter. Handlers keep the business logic; nothing here has any.
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import aslValidator from "asl-validator";
import type { StateMachine, StateMachineDefinition } from "aws-local-stepfunctions";
import { installPolyfills } from "./polyfills.ts";
import {
  type ExecutionDescription,
  LocalStepFunctions,
  type LocalStepFunctionsOptions,
  StepFunctionsError,
  substitute,
  type TaskHandler,
} from "./step-functions.ts";

const START_EXECUTION = "arn:aws:states:::states:startExecution";
const READER_RESOURCE = "arn:aws:states:::s3:getObject";
const WRITER_RESOURCE = "arn:aws:states:::s3:putObject";
/** Parameters the rewrite adds: the emulation's own inputs, stripped before anything else sees them. */
const MAP_PARAMETER = "__twin_distributed_map";
const EXECUTION_PARAMETER = "__twin_execution_id";
const MODE_PARAMETER = "__twin_start_execution_mode";
/**
 * AWS runs a Task without TimeoutSeconds (a Map, a .sync child execution) for as long as it takes; the
 * interpreter would stop it after 60 s, so a batch or a line's run outlasting a minute failed with
 * States.Timeout. Capped to what a Node timer can wait (2^31-1 ms, about 24 days).
 */
const NO_TASK_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
/** MaxConcurrency 0 means "as many as Step Functions allows" (10,000 child executions). */
const UNBOUNDED_CONCURRENCY = 10_000;

type StatesMap = Record<string, Record<string, unknown> & { Type?: string }>;
type Definition = { StartAt: string; States: StatesMap } & Record<string, unknown>;

export interface DistributedWorkflowOptions extends LocalStepFunctionsOptions {
  /** Reads ItemReader objects and writes ResultWriter files (the twin's S3). */
  s3: S3Client;
  /** Machines that startExecution tasks may start, by ARN (the workflow's own machines are added). */
  targets?: readonly LocalStepFunctions[];
}

/** A workflow file's machine and the item-processor machines of its Distributed Maps. */
export interface DistributedWorkflow {
  root: LocalStepFunctions;
  /** The root first, then every item processor (child workflow executions run there). */
  machines: LocalStepFunctions[];
  /**
   * Stops every Map Run and execution of these machines. Call before closing the machines the
   * workflow starts: a Map Run would otherwise start child executions into a closing twin.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/** What the rewrite keeps of a Distributed Map for the emulation. */
interface MapSpec {
  stateName: string;
  label: string;
  processor: Definition;
  reader?: { inputType: "JSONL" | "JSON"; maxItems?: number };
  writer: boolean;
  selector?: unknown;
}

/** A Map Run in progress: how to stop it. */
interface MapRun {
  abort(): void;
}

export async function loadDistributedWorkflow(
  aslPath: string,
  handlers: Record<string, TaskHandler>,
  options: DistributedWorkflowOptions,
): Promise<DistributedWorkflow> {
  installPolyfills();
  const lib = await import("aws-local-stepfunctions");
  const region = options.region ?? "us-east-1";
  const accountId = options.accountId ?? "123456789012";
  const rootName = options.stateMachineName ?? aslPath.replace(/^.*\//, "").replace(/(\.asl)?\.json$/, "");
  const text = substitute(await readFile(aslPath, "utf8"), region, accountId, options.substitutions ?? {});
  const definition = JSON.parse(text) as Definition;
  // Validated once, as written (Distributed Maps included); the machines derived from it are not
  // validated again: validation is most of a machine's construction cost, and the twin boots often.
  // On a copy: the validator writes its defaults (QueryLanguage) into what it validates.
  const validation = aslValidator(JSON.parse(text), { checkArn: true, checkPaths: true });
  if (!validation.isValid) {
    throw new Error(`${aslPath} is not a valid state machine definition: ${validation.errorsText("; ")}`);
  }

  const workflow = new DistributedWorkflowBuilder(lib, handlers, options, region, accountId);
  const root = await workflow.build(definition, rootName);
  const { machines } = workflow;
  const unknown = Object.keys(handlers).filter((name) => !workflow.used.has(name));
  if (unknown.length) {
    throw new Error(`Handlers for states that are not Task states of ${aslPath}: ${unknown.join(", ")}`);
  }
  // The root was built last (its item processors first); callers expect it first.
  machines.unshift(...machines.splice(machines.indexOf(root), 1));

  return {
    root,
    machines,
    async close(closeOptions = {}) {
      workflow.beginClosing();
      for (const machine of machines) await machine.close(closeOptions);
    },
  };
}

/**
 * The machines of one workflow and what they share while they run: the Map Runs in progress, the
 * executions started by `.sync` tasks, the machines a `startExecution` task may target.
 */
class DistributedWorkflowBuilder {
  readonly targets = new Map<string, LocalStepFunctions>();
  readonly machines: LocalStepFunctions[] = [];
  readonly mapRuns = new Map<string, Set<MapRun>>();
  /** Handlers given to a Task state (the rest name no Task state). */
  readonly used = new Set<string>();
  /** Executions started by a `.sync` task, by the execution that waits for them. */
  readonly syncChildren = new Map<string, Set<{ machine: LocalStepFunctions; executionArn: string }>>();
  closing = false;
  /** Settles when close() begins: `.sync` waits end then rather than hold the close up. */
  readonly closingSignal: Promise<"closing">;
  private markClosing!: () => void;

  constructor(
    private readonly lib: typeof import("aws-local-stepfunctions"),
    private readonly handlers: Record<string, TaskHandler>,
    private readonly options: DistributedWorkflowOptions,
    private readonly region: string,
    private readonly accountId: string,
  ) {
    for (const target of options.targets ?? []) this.targets.set(target.stateMachineArn, target);
    this.closingSignal = new Promise<"closing">((resolve) => {
      this.markClosing = () => resolve("closing");
    });
  }

  /** Stops every Map Run; `.sync` waits end. */
  beginClosing(): void {
    this.closing = true;
    this.markClosing();
    for (const runs of this.mapRuns.values()) for (const run of runs) run.abort();
  }

  private machineOptions(name: string): LocalStepFunctionsOptions {
    return {
      region: this.region,
      accountId: this.accountId,
      stateMachineName: name,
      validate: false,
      ...(this.options.retryIntervalOverrides
        ? { retryIntervalOverrides: this.options.retryIntervalOverrides }
        : {}),
      ...(this.options.closedExecutionsKept !== undefined
        ? { closedExecutionsKept: this.options.closedExecutionsKept }
        : {}),
    };
  }

  /** Builds a machine (and, first, the item processors of its Distributed Maps). */
  async build(def: Definition, name: string): Promise<LocalStepFunctions> {
    const maps: MapSpec[] = [];
    const syncTasks: string[] = [];
    rewrite(def.States, name, maps, syncTasks);
    const own: Record<string, TaskHandler> = {};
    for (const stateName of taskStateNames(def.States)) {
      const given = this.handlers[stateName];
      if (given) {
        own[stateName] = given;
        this.used.add(stateName);
      }
    }
    for (const spec of maps) {
      const child = await this.build(spec.processor, `${name}/${spec.label}`);
      const selector = spec.selector === undefined ? undefined : selectorMachine(this.lib, spec.selector);
      own[spec.stateName] = (input) => this.runMap(spec, child, selector, input);
    }
    for (const stateName of syncTasks) own[stateName] = (input) => this.startChild(input);
    const machine = await LocalStepFunctions.fromDefinition(
      JSON.stringify(def),
      name,
      own,
      this.machineOptions(name),
    );
    this.targets.set(machine.stateMachineArn, machine);
    this.machines.push(machine);
    // Stopping an execution stops its Map Runs; the child executions' own stops then reach theirs.
    machine.onStatusChange((detail) => {
      if (detail.status === "RUNNING") return;
      for (const run of this.mapRuns.get(detail.executionArn) ?? []) run.abort();
      // A twin shutting down leaves the children to their own machine's close: their runs stay in
      // flight, to be resumed by the next twin, instead of being stopped (CANCELLED) by someone.
      if (this.closing) return;
      if (detail.status === "ABORTED" || detail.status === "TIMED_OUT")
        this.stopSyncChildren(detail.executionArn);
    });
    return machine;
  }

  stopSyncChildren(parentArn: string): void {
    for (const child of this.syncChildren.get(parentArn) ?? []) {
      try {
        child.machine.stopExecution(child.executionArn, {
          error: "States.Aborted",
          cause: `the execution that started it (${parentArn}) was stopped`,
        });
      } catch {
        // Already forgotten: nothing left to stop.
      }
    }
    this.syncChildren.delete(parentArn);
  }

  async startChild(raw: unknown): Promise<unknown> {
    const {
      [EXECUTION_PARAMETER]: parentArn,
      [MODE_PARAMETER]: mode,
      ...parameters
    } = raw as Record<string, unknown>;
    const arn = String(parameters.StateMachineArn ?? "");
    const target = this.targets.get(arn);
    if (!target) {
      throw new StepFunctionsError(
        "StepFunctions.StateMachineDoesNotExistException",
        `State Machine Does Not Exist: '${arn}'`,
      );
    }
    let input = parameters.Input ?? {};
    if (typeof input === "string") input = JSON.parse(input);
    let started: { executionArn: string };
    try {
      started = target.startExecution({
        ...(typeof parameters.Name === "string" ? { name: parameters.Name } : {}),
        input,
      });
    } catch (error) {
      if (error instanceof StepFunctionsError) {
        throw new StepFunctionsError(`StepFunctions.${error.name}Exception`, error.message);
      }
      throw error;
    }
    if (mode === "request-response") {
      return {
        ExecutionArn: started.executionArn,
        StartDate: target.describeExecution(started.executionArn).startDate.getTime(),
      };
    }
    const parent = String(parentArn ?? "");
    const child = { machine: target, executionArn: started.executionArn };
    const siblings = this.syncChildren.get(parent) ?? new Set();
    siblings.add(child);
    this.syncChildren.set(parent, siblings);
    try {
      const ended = await Promise.race([target.waitForExecution(started.executionArn), this.closingSignal]);
      if (ended === "closing") {
        throw new StepFunctionsError(
          "States.Runtime",
          "the local twin is stopping; the child execution stays with it",
        );
      }
      const jsonOutput = mode === "sync:2";
      if (ended.status !== "SUCCEEDED") {
        throw new StepFunctionsError("States.TaskFailed", JSON.stringify(syncOutput(ended, jsonOutput)));
      }
      return syncOutput(ended, jsonOutput);
    } finally {
      siblings.delete(child);
      if (siblings.size === 0) this.syncChildren.delete(parent);
    }
  }

  async runMap(
    spec: MapSpec,
    child: LocalStepFunctions,
    selector: StateMachine | undefined,
    raw: unknown,
  ): Promise<unknown> {
    const { [MAP_PARAMETER]: parameters } = raw as { [MAP_PARAMETER]: MapParameters };
    const executionArn = parameters.execution_id;
    const mapRunId = randomUUID();
    const mapRunArn = `arn:aws:states:${this.region}:${this.accountId}:mapRun:${child.stateMachineName}:${mapRunId}`;
    const items = spec.reader
      ? await readItems(this.options.s3, spec.reader, parameters.reader)
      : arrayOf(parameters.items);
    const limit = concurrency(parameters.max_concurrency, items.length);
    const toleratedPercentage = number(parameters.tolerated_failure_percentage, 0);
    const toleratedCount = number(parameters.tolerated_failure_count, 0);

    const running = new Set<string>();
    const outcomes: Array<ExecutionDescription | undefined> = new Array(items.length);
    let failures = 0;
    let aborted = false;
    let exceeded = false;
    let wake: (() => void) | undefined;
    const run: MapRun = {
      abort: () => {
        aborted = true;
        for (const arn of running) {
          try {
            child.stopExecution(arn, { error: "States.Aborted", cause: "its Map Run was stopped" });
          } catch {
            // Already forgotten.
          }
        }
        wake?.();
      },
    };
    const runs = this.mapRuns.get(executionArn) ?? new Set<MapRun>();
    runs.add(run);
    this.mapRuns.set(executionArn, runs);
    if (this.closing) run.abort();

    const context = { Id: executionArn, Name: executionArn.split(":").at(-1) ?? "" };
    const dispatched: Array<Promise<void>> = [];
    try {
      for (let index = 0; index < items.length && !aborted && !exceeded; index++) {
        while (running.size >= limit && !aborted && !exceeded) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
        if (aborted || exceeded) break;
        const value = items[index];
        const input = selector
          ? await selector.run(parameters.input as never, {
              context: { Execution: context, Map: { Item: { Index: index, Value: value } } } as never,
            }).result
          : value;
        const { executionArn: childArn } = child.startExecution({ name: randomUUID(), input });
        running.add(childArn);
        dispatched.push(
          child.waitForExecution(childArn).then((ended) => {
            running.delete(childArn);
            outcomes[index] = ended;
            if (ended.status !== "SUCCEEDED" && !aborted) {
              failures += 1;
              const tooMany =
                failures > toleratedCount && (failures * 100) / items.length > toleratedPercentage;
              if (tooMany && !exceeded) {
                exceeded = true;
                // Step Functions stops the Map Run's other child executions.
                for (const arn of running) {
                  try {
                    child.stopExecution(arn, {
                      error: "States.Aborted",
                      cause: "the Map Run exceeded its tolerated failure threshold",
                    });
                  } catch {
                    // Already forgotten.
                  }
                }
              }
            }
            wake?.();
          }),
        );
      }
      await Promise.all(dispatched);
    } finally {
      runs.delete(run);
      if (runs.size === 0) this.mapRuns.delete(executionArn);
    }
    if (aborted) throw new StepFunctionsError("States.Aborted", "the Map Run was stopped");

    let output: unknown;
    if (spec.writer) {
      output = await writeResults(this.options.s3, parameters.writer, mapRunArn, mapRunId, outcomes);
    } else {
      output = outcomes.map((ended) =>
        ended?.status === "SUCCEEDED"
          ? ended.output
          : { Error: ended?.error ?? "States.Aborted", Cause: ended?.cause ?? "" },
      );
    }
    if (exceeded) {
      throw new StepFunctionsError(
        "States.ExceedToleratedFailureThreshold",
        `The specified tolerated failure threshold was exceeded: ${failures} of ${items.length} child executions failed ` +
          `(tolerated: ${toleratedPercentage}% and ${toleratedCount})`,
      );
    }
    return output;
  }
}

/** Parameters the rewritten Task state evaluates for the emulation (see rewrite). */
interface MapParameters {
  execution_id: string;
  input: unknown;
  items?: unknown;
  reader?: { Bucket?: string; Key?: string };
  writer?: { Bucket?: string; Prefix?: string };
  max_concurrency?: unknown;
  tolerated_failure_percentage?: unknown;
  tolerated_failure_count?: unknown;
}

/**
 * Rewrites, in place, each Distributed Map of `states` (nested in Parallel branches and inline Maps
 * too) into a Task state the emulation serves, and marks each startExecution task; collects both.
 */
function rewrite(states: StatesMap, machineName: string, maps: MapSpec[], syncTasks: string[]): void {
  for (const [name, state] of Object.entries(states)) {
    const resource = typeof state.Resource === "string" ? state.Resource : "";
    if (state.Type === "Task" && resource.startsWith(START_EXECUTION)) {
      const mode = startExecutionMode(resource, machineName, name);
      state.Parameters = {
        ...(state.Parameters as Record<string, unknown>),
        [`${EXECUTION_PARAMETER}.$`]: "$$.Execution.Id",
        [MODE_PARAMETER]: mode,
      };
      if (state.TimeoutSeconds === undefined && state.TimeoutSecondsPath === undefined) {
        state.TimeoutSeconds = NO_TASK_TIMEOUT_SECONDS;
      }
      syncTasks.push(name);
      continue;
    }
    const processor = (state.ItemProcessor ?? state.Iterator) as
      | (Definition & { ProcessorConfig?: { Mode?: string } })
      | undefined;
    if (state.Type === "Map" && processor?.ProcessorConfig?.Mode === "DISTRIBUTED") {
      maps.push(rewriteDistributedMap(states, name, state, processor, machineName));
      continue;
    }
    if (processor) rewrite(processor.States, machineName, maps, syncTasks);
    for (const branch of (state.Branches as Definition[] | undefined) ?? []) {
      rewrite(branch.States, machineName, maps, syncTasks);
    }
  }
}

function startExecutionMode(resource: string, machine: string, state: string): string {
  if (resource === START_EXECUTION) return "request-response";
  if (resource === `${START_EXECUTION}.sync`) return "sync";
  if (resource === `${START_EXECUTION}.sync:2`) return "sync:2";
  throw new Error(
    `${machine}: state ${state} uses ${resource}; the twin emulates ${START_EXECUTION}, .sync and .sync:2`,
  );
}

const EMULATED_MAP_FIELDS = new Set([
  "Type",
  "Comment",
  "ItemProcessor",
  "Iterator",
  "ItemReader",
  "ItemSelector",
  "ItemsPath",
  "MaxConcurrency",
  "MaxConcurrencyPath",
  "ToleratedFailurePercentage",
  "ToleratedFailurePercentagePath",
  "ToleratedFailureCount",
  "ToleratedFailureCountPath",
  "ResultWriter",
  "Label",
  "InputPath",
  "ResultPath",
  "ResultSelector",
  "OutputPath",
  "Retry",
  "Catch",
  "Next",
  "End",
]);

function rewriteDistributedMap(
  states: StatesMap,
  name: string,
  state: Record<string, unknown>,
  processor: Definition & { ProcessorConfig?: { Mode?: string; ExecutionType?: string } },
  machineName: string,
): MapSpec {
  const where = `${machineName}: Distributed Map ${name}`;
  const unsupported = Object.keys(state).filter((field) => !EMULATED_MAP_FIELDS.has(field));
  if (unsupported.length) throw new Error(`${where}: the twin does not emulate ${unsupported.join(", ")}`);
  const reader = state.ItemReader as
    | { Resource?: string; ReaderConfig?: { InputType?: string; MaxItems?: number }; Parameters?: unknown }
    | undefined;
  if (reader && reader.Resource !== READER_RESOURCE) {
    throw new Error(
      `${where}: the twin's ItemReader reads one S3 object (${READER_RESOURCE}), not ${reader.Resource}`,
    );
  }
  const inputType = reader?.ReaderConfig?.InputType ?? "JSON";
  if (reader && inputType !== "JSONL" && inputType !== "JSON") {
    throw new Error(`${where}: the twin's ItemReader reads JSONL and JSON objects, not ${inputType}`);
  }
  const writer = state.ResultWriter as
    | { Resource?: string; Parameters?: unknown; WriterConfig?: unknown }
    | undefined;
  if (writer && (writer.Resource !== WRITER_RESOURCE || writer.WriterConfig !== undefined)) {
    throw new Error(`${where}: the twin's ResultWriter writes with ${WRITER_RESOURCE} and no WriterConfig`);
  }
  const parameters: Record<string, unknown> = {
    "execution_id.$": "$$.Execution.Id",
    "input.$": "$",
  };
  const dynamic = (key: string, fixed: unknown, fromPath: unknown) => {
    if (typeof fromPath === "string") parameters[`${key}.$`] = fromPath;
    else if (fixed !== undefined) parameters[key] = fixed;
  };
  if (!reader) dynamic("items", undefined, state.ItemsPath ?? "$");
  if (reader?.Parameters) parameters.reader = reader.Parameters;
  if (writer?.Parameters) parameters.writer = writer.Parameters;
  dynamic("max_concurrency", state.MaxConcurrency, state.MaxConcurrencyPath);
  dynamic(
    "tolerated_failure_percentage",
    state.ToleratedFailurePercentage,
    state.ToleratedFailurePercentagePath,
  );
  dynamic("tolerated_failure_count", state.ToleratedFailureCount, state.ToleratedFailureCountPath);

  const task: Record<string, unknown> = {
    Type: "Task",
    Comment: `Distributed Map ${name}, emulated by the local twin (infra/local/distributed-map.ts)`,
    // Never called: the emulation serves the state by name (the interpreter only checks the ARN's form).
    Resource: "arn:aws:lambda:us-east-1:123456789012:function:rewoo-local-distributed-map",
    Parameters: { [MAP_PARAMETER]: parameters },
    TimeoutSeconds: NO_TASK_TIMEOUT_SECONDS,
  };
  for (const field of [
    "InputPath",
    "ResultPath",
    "ResultSelector",
    "OutputPath",
    "Retry",
    "Catch",
    "Next",
    "End",
  ]) {
    if (state[field] !== undefined) task[field] = state[field];
  }
  states[name] = task as StatesMap[string];
  const { ProcessorConfig: _config, ...machine } = processor;
  return {
    stateName: name,
    label: typeof state.Label === "string" ? state.Label : name,
    processor: machine as Definition,
    ...(reader
      ? {
          reader: {
            inputType: inputType as "JSONL" | "JSON",
            ...(typeof reader.ReaderConfig?.MaxItems === "number"
              ? { maxItems: reader.ReaderConfig.MaxItems }
              : {}),
          },
        }
      : {}),
    writer: writer !== undefined,
    ...(state.ItemSelector !== undefined ? { selector: state.ItemSelector } : {}),
  };
}

function taskStateNames(states: StatesMap): string[] {
  const names: string[] = [];
  for (const [name, state] of Object.entries(states)) {
    if (state.Type === "Task") names.push(name);
    const processor = (state.ItemProcessor ?? state.Iterator) as Definition | undefined;
    if (processor) names.push(...taskStateNames(processor.States));
    for (const branch of (state.Branches as Definition[] | undefined) ?? [])
      names.push(...taskStateNames(branch.States));
  }
  return names;
}

/** ItemSelector evaluated by the interpreter itself (a Pass state's Parameters, `$$.Map.Item` in context). */
function selectorMachine(lib: typeof import("aws-local-stepfunctions"), selector: unknown): StateMachine {
  const definition = {
    StartAt: "ItemSelector",
    States: { ItemSelector: { Type: "Pass", Parameters: selector, End: true } },
  } as unknown as StateMachineDefinition;
  // Part of the definition validated as a whole.
  return new lib.StateMachine(definition, { validationOptions: { noValidate: true } });
}

async function readItems(
  s3: S3Client,
  reader: NonNullable<MapSpec["reader"]>,
  location: MapParameters["reader"],
): Promise<unknown[]> {
  const bucket = location?.Bucket;
  const key = location?.Key;
  if (!bucket || !key) {
    throw new StepFunctionsError(
      "States.ItemReaderFailed",
      "the ItemReader's Parameters name no Bucket and Key",
    );
  }
  let text: string;
  try {
    const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    text = (await response.Body?.transformToString("utf8")) ?? "";
  } catch (error) {
    throw new StepFunctionsError(
      "States.ItemReaderFailed",
      `could not read s3://${bucket}/${key}: ${(error as Error).name}: ${(error as Error).message}`,
    );
  }
  let items: unknown[];
  try {
    if (reader.inputType === "JSON") {
      const parsed = JSON.parse(text) as unknown;
      if (!Array.isArray(parsed)) throw new Error("the object is not a JSON array");
      items = parsed;
    } else {
      items = text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as unknown);
    }
  } catch (error) {
    throw new StepFunctionsError(
      "States.ItemReaderFailed",
      `s3://${bucket}/${key} is not ${reader.inputType}: ${(error as Error).message}`,
    );
  }
  return reader.maxItems !== undefined ? items.slice(0, reader.maxItems) : items;
}

/** Step Functions' ResultWriter files (no WriterConfig: Transformation NONE, JSON arrays). */
async function writeResults(
  s3: S3Client,
  writer: MapParameters["writer"],
  mapRunArn: string,
  mapRunId: string,
  outcomes: Array<ExecutionDescription | undefined>,
): Promise<{ MapRunArn: string; ResultWriterDetails: { Bucket: string; Key: string } }> {
  const bucket = writer?.Bucket;
  if (!bucket)
    throw new StepFunctionsError("States.ResultWriterFailed", "the ResultWriter's Parameters name no Bucket");
  const prefix = [writer?.Prefix?.replace(/\/+$/, ""), mapRunId].filter(Boolean).join("/");
  const groups: Record<"SUCCEEDED" | "FAILED" | "PENDING", unknown[]> = {
    SUCCEEDED: [],
    FAILED: [],
    PENDING: [],
  };
  for (const ended of outcomes) {
    if (!ended) continue;
    groups[ended.status === "SUCCEEDED" ? "SUCCEEDED" : "FAILED"].push(resultEntry(ended));
  }
  const files: Record<string, Array<{ Key: string; Size: number }>> = {
    FAILED: [],
    PENDING: [],
    SUCCEEDED: [],
  };
  try {
    for (const [status, entries] of Object.entries(groups)) {
      if (entries.length === 0) continue;
      const key = `${prefix}/${status}_0.json`;
      const body = JSON.stringify(entries);
      await s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: "application/json" }),
      );
      files[status]?.push({ Key: key, Size: Buffer.byteLength(body) });
    }
    const manifestKey = `${prefix}/manifest.json`;
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: manifestKey,
        Body: JSON.stringify({ DestinationBucket: bucket, MapRunArn: mapRunArn, ResultFiles: files }),
        ContentType: "application/json",
      }),
    );
    return { MapRunArn: mapRunArn, ResultWriterDetails: { Bucket: bucket, Key: manifestKey } };
  } catch (error) {
    throw new StepFunctionsError(
      "States.ResultWriterFailed",
      `could not write to s3://${bucket}/${prefix}/: ${(error as Error).name}: ${(error as Error).message}`,
    );
  }
}

function resultEntry(ended: ExecutionDescription): Record<string, unknown> {
  return {
    ExecutionArn: ended.executionArn,
    Name: ended.name,
    StateMachineArn: ended.stateMachineArn,
    Status: ended.status,
    StartDate: ended.startDate.toISOString(),
    ...(ended.stopDate ? { StopDate: ended.stopDate.toISOString() } : {}),
    Input: JSON.stringify(ended.input ?? {}),
    InputDetails: { Included: true },
    ...(ended.status === "SUCCEEDED"
      ? { Output: JSON.stringify(ended.output ?? null), OutputDetails: { Included: true } }
      : { Error: ended.error ?? "", Cause: ended.cause ?? "" }),
    RedriveCount: 0,
    RedriveStatus: "NOT_REDRIVABLE",
  };
}

/** A `.sync` task's output: the child's description, input and output as text (`.sync`) or JSON (`.sync:2`). */
function syncOutput(ended: ExecutionDescription, json: boolean): Record<string, unknown> {
  const encode = (value: unknown) => (json ? value : JSON.stringify(value ?? null));
  return {
    ExecutionArn: ended.executionArn,
    StateMachineArn: ended.stateMachineArn,
    Name: ended.name,
    Status: ended.status,
    StartDate: ended.startDate.getTime(),
    ...(ended.stopDate ? { StopDate: ended.stopDate.getTime() } : {}),
    Input: encode(ended.input ?? {}),
    InputDetails: { Included: true },
    ...(ended.status === "SUCCEEDED"
      ? { Output: encode(ended.output), OutputDetails: { Included: true } }
      : {}),
    ...(ended.error !== undefined ? { Error: ended.error } : {}),
    ...(ended.cause !== undefined ? { Cause: ended.cause } : {}),
  };
}

function arrayOf(value: unknown): unknown[] {
  if (!Array.isArray(value))
    throw new StepFunctionsError("States.Runtime", "the Map's items are not an array");
  return value;
}

function concurrency(value: unknown, items: number): number {
  const limit = number(value, 0);
  return Math.max(1, limit === 0 ? Math.min(UNBOUNDED_CONCURRENCY, items) : limit);
}

function number(value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new StepFunctionsError(
      "States.Runtime",
      `expected a non-negative number, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
