// The Step Functions API of the twin: the awsJson1_0 protocol (`POST` with `X-Amz-Target:
// AWSStepFunctions.<Operation>`) that @aws-sdk/client-sfn, the AWS CLI and the other SDKs speak, served on
// the gateway's `/sfn` for the state machines LocalStepFunctions emulates. Operations: StartExecution,
// DescribeExecution, StopExecution, ListExecutions, GetExecutionHistory, DescribeStateMachine,
// ListStateMachines, SendTaskSuccess, SendTaskFailure, SendTaskHeartbeat. Errors have the protocol's shape
// (HTTP 400, `{"__type": "<ErrorCode>", "message": ...}`), from which the SDKs raise their exception classes.
// SigV4 is not checked (the server is loopback only).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import * as z from "zod";
import { describeError, readBody } from "./http-common.ts";
import {
  type ExecutionDescription,
  type HistoryEvent,
  type LocalStepFunctions,
  StepFunctionsError,
} from "./step-functions.ts";

export const STEP_FUNCTIONS_PATH = "/sfn";

/** The part of LocalStepFunctions the Step Functions API needs. */
export type StepFunctionsBackend = Pick<
  LocalStepFunctions,
  | "stateMachineArn"
  | "startExecution"
  | "describeExecution"
  | "listExecutions"
  | "stopExecution"
  | "sendTaskSuccess"
  | "sendTaskFailure"
  | "sendTaskHeartbeat"
  | "history"
  | "describeStateMachine"
>;

/** Step Functions API requests are small JSON documents (the execution input quota is 256 KB). */
const MAX_SFN_BODY_BYTES = 1024 * 1024;
/** The page size of the List* and GetExecutionHistory operations when maxResults is absent or 0. */
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

export const OPERATIONS = [
  "StartExecution",
  "DescribeExecution",
  "StopExecution",
  "ListExecutions",
  "GetExecutionHistory",
  "DescribeStateMachine",
  "ListStateMachines",
  "SendTaskSuccess",
  "SendTaskFailure",
  "SendTaskHeartbeat",
] as const;

export const EXECUTION_STATUSES = [
  "RUNNING",
  "SUCCEEDED",
  "FAILED",
  "TIMED_OUT",
  "ABORTED",
  "PENDING_REDRIVE",
] as const;

/** A protocol answer: the HTTP status and the JSON document. */
export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

// ------------------------------------------------------------------ request validation

const NOT_NULL = "Member must not be null";
/** A required string member (absent, empty or not a string: the API's "must not be null"). */
const required = z.string({ error: NOT_NULL }).min(1, { error: NOT_NULL });
/** An optional string member: a value of another type is ignored, as the emulation always did. */
const optional = z
  .unknown()
  .transform((value) => (typeof value === "string" ? value : undefined))
  .optional();
const maxResults = z
  .number({ error: "Member must be a number" })
  .int({ error: "Member must be an integer" })
  .min(0, { error: "Member must have value greater than or equal to 0" })
  .max(MAX_PAGE_SIZE, { error: `Member must have value less than or equal to ${MAX_PAGE_SIZE}` })
  .optional();
const nextToken = z
  .string({ error: "Member must be a string" })
  .min(1, { error: "Member must have length greater than or equal to 1" })
  .max(3096, { error: "Member must have length less than or equal to 3096" })
  .optional();
const flag = z.boolean({ error: "Member must be a boolean" }).optional();

const schemas = {
  StartExecution: z.object({ stateMachineArn: required, name: optional, input: optional }),
  DescribeExecution: z.object({ executionArn: required }),
  StopExecution: z.object({ executionArn: required, error: optional, cause: optional }),
  ListExecutions: z.object({
    stateMachineArn: required,
    statusFilter: z
      .enum(EXECUTION_STATUSES, {
        error: `Member must satisfy enum value set: [${EXECUTION_STATUSES.join(", ")}]`,
      })
      .optional(),
    maxResults,
    nextToken,
  }),
  GetExecutionHistory: z.object({
    executionArn: required,
    maxResults,
    nextToken,
    reverseOrder: flag,
    includeExecutionData: flag,
  }),
  DescribeStateMachine: z.object({ stateMachineArn: required }),
  ListStateMachines: z.object({ maxResults, nextToken }),
  SendTaskSuccess: z.object({ taskToken: required, output: required }),
  SendTaskFailure: z.object({ taskToken: required, error: optional, cause: optional }),
  SendTaskHeartbeat: z.object({ taskToken: required }),
} satisfies Record<(typeof OPERATIONS)[number], z.ZodType>;

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const described = issues.map(
    (issue) => `Value at '${issue.path.join(".")}' failed to satisfy constraint: ${issue.message}`,
  );
  throw named(
    "ValidationException",
    `${issues.length} validation error${issues.length === 1 ? "" : "s"} detected: ${described.join("; ")}`,
  );
}

const STATE_MACHINE_ARN = /^arn:[\w-]+:states:[\w-]+:\d+:stateMachine:[^:]+$/;
const EXECUTION_ARN = /^arn:[\w-]+:states:[\w-]+:\d+:(execution|express):[^:]+:[^:]+$/;

function stateMachineArnOf(arn: string): string {
  if (!STATE_MACHINE_ARN.test(arn)) throw named("InvalidArn", `Invalid Arn: '${arn}'`);
  return arn;
}

function executionArnOf(arn: string): string {
  if (!EXECUTION_ARN.test(arn)) throw named("InvalidArn", `Invalid Arn: '${arn}'`);
  return arn;
}

// ------------------------------------------------------------------ the API

export class StepFunctionsApi {
  private readonly machines: readonly StepFunctionsBackend[];

  constructor(
    machines: StepFunctionsBackend | readonly StepFunctionsBackend[] | undefined,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {
    this.machines = [machines ?? []].flat();
  }

  /** One HTTP request of the protocol. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const reply = ({ status, body }: ApiAnswer) => {
      res.writeHead(status, { "content-type": "application/x-amz-json-1.0", "x-amzn-requestid": requestId });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST")
      return reply(failure("UnknownOperationException", "The Step Functions API takes POST", 404));
    if (this.machines.length === 0) {
      return reply(
        failure("UnknownOperationException", "No Step Functions emulation is attached to this gateway"),
      );
    }
    const body = await readBody(req, MAX_SFN_BODY_BYTES);
    if (body === undefined) return reply(failure("ValidationException", "Request too large", 413));
    let input: unknown;
    try {
      input = JSON.parse(body.length ? body.toString("utf8") : "{}");
    } catch {
      input = undefined;
    }
    reply(this.call(String(req.headers["x-amz-target"] ?? ""), input));
  }

  /**
   * One operation: `target` is the X-Amz-Target header (`AWSStepFunctions.ListExecutions`), `input` the
   * parsed request body. Never throws: failures are the protocol's error answers.
   */
  call(target: string, input: unknown): ApiAnswer {
    if (!input || typeof input !== "object" || Array.isArray(input)) {
      return failure("SerializationException", "The request body is not a JSON object");
    }
    const operation = /^AWSStepFunctions\.(\w+)$/.exec(target)?.[1];
    if (!OPERATIONS.includes(operation as (typeof OPERATIONS)[number])) {
      return failure(
        "UnknownOperationException",
        `The local Step Functions API implements ${OPERATIONS.join(", ")}, not ${target || "(no X-Amz-Target)"}`,
      );
    }
    try {
      return { status: 200, body: this.run(operation as (typeof OPERATIONS)[number], input) };
    } catch (error) {
      // LocalStepFunctions names its errors after the API's error codes (StepFunctionsError).
      if (error instanceof StepFunctionsError) return failure(error.name, error.message);
      this.log(`gateway: Step Functions ${operation} failed: ${describeError(error)}`);
      return failure("InternalFailure", "Internal failure of the local Step Functions emulation", 500);
    }
  }

  private run(operation: (typeof OPERATIONS)[number], input: object): Record<string, unknown> {
    const machines = this.machines;
    switch (operation) {
      case "StartExecution": {
        const request = parse(schemas.StartExecution, input);
        const sfn = machineNamed(machines, stateMachineArnOf(request.stateMachineArn));
        let executionInput: unknown;
        try {
          executionInput = JSON.parse(request.input ?? "{}");
        } catch {
          throw named("InvalidExecutionInput", "Invalid State Machine Execution Input: not valid JSON");
        }
        const started = sfn.startExecution({
          ...(request.name !== undefined ? { name: request.name } : {}),
          input: executionInput,
        });
        return { executionArn: started.executionArn, startDate: epochSeconds(started.startDate) };
      }
      case "DescribeExecution": {
        const executionArn = executionArnOf(parse(schemas.DescribeExecution, input).executionArn);
        return describeForApi(machineOfExecution(machines, executionArn).describeExecution(executionArn));
      }
      case "StopExecution": {
        const request = parse(schemas.StopExecution, input);
        const executionArn = executionArnOf(request.executionArn);
        const stopped = machineOfExecution(machines, executionArn).stopExecution(executionArn, {
          ...(request.error !== undefined ? { error: request.error } : {}),
          ...(request.cause !== undefined ? { cause: request.cause } : {}),
        });
        return { stopDate: epochSeconds(stopped.stopDate) };
      }
      case "ListExecutions": {
        const request = parse(schemas.ListExecutions, input);
        const stateMachineArn = stateMachineArnOf(request.stateMachineArn);
        const executions = machineNamed(machines, stateMachineArn)
          .listExecutions()
          .filter(
            (execution) => request.statusFilter === undefined || execution.status === request.statusFilter,
          )
          // Newest first, as AWS lists them; the ARN breaks ties so that pages never overlap.
          .map((execution) => ({ execution, key: executionKey(execution) }))
          .sort((a, b) => compareKeys(b.key, a.key));
        const scope = `ListExecutions ${stateMachineArn} ${request.statusFilter ?? ""}`;
        const after = request.nextToken === undefined ? undefined : readToken(request.nextToken, scope);
        const rest =
          after === undefined ? executions : executions.filter(({ key }) => compareKeys(key, after) < 0);
        const page = rest.slice(0, pageSize(request.maxResults));
        const last = page.at(-1);
        return {
          executions: page.map(({ execution }) => ({
            executionArn: execution.executionArn,
            stateMachineArn: execution.stateMachineArn,
            name: execution.name,
            status: execution.status,
            startDate: epochSeconds(execution.startDate),
            ...(execution.stopDate ? { stopDate: epochSeconds(execution.stopDate) } : {}),
          })),
          ...(last && rest.length > page.length ? { nextToken: writeToken(scope, last.key) } : {}),
        };
      }
      case "GetExecutionHistory": {
        const request = parse(schemas.GetExecutionHistory, input);
        const executionArn = executionArnOf(request.executionArn);
        const machine = machineOfExecution(machines, executionArn);
        const events = historyForApi(
          machine.describeExecution(executionArn),
          machine.history(executionArn),
          machine.describeStateMachine().roleArn,
          request.includeExecutionData ?? true,
        );
        const reverse = request.reverseOrder ?? false;
        const scope = `GetExecutionHistory ${executionArn} ${reverse}`;
        const after = request.nextToken === undefined ? undefined : readToken(request.nextToken, scope);
        const ordered = reverse ? [...events].reverse() : events;
        const rest =
          after === undefined
            ? ordered
            : ordered.filter((event) =>
                reverse ? event.id < Number(after[0]) : event.id > Number(after[0]),
              );
        const page = rest.slice(0, pageSize(request.maxResults));
        const last = page.at(-1);
        return {
          events: page,
          ...(last && rest.length > page.length ? { nextToken: writeToken(scope, [last.id]) } : {}),
        };
      }
      case "DescribeStateMachine": {
        const stateMachineArn = stateMachineArnOf(parse(schemas.DescribeStateMachine, input).stateMachineArn);
        const described = machineNamed(machines, stateMachineArn).describeStateMachine();
        return {
          stateMachineArn: described.stateMachineArn,
          name: described.name,
          status: described.status,
          definition: described.definition,
          roleArn: described.roleArn,
          type: described.type,
          creationDate: epochSeconds(described.creationDate),
          loggingConfiguration: { level: "OFF", includeExecutionData: false },
          tracingConfiguration: { enabled: false },
        };
      }
      case "ListStateMachines": {
        const request = parse(schemas.ListStateMachines, input);
        // By ARN, as AWS lists them (alphabetically by name within an account and region).
        const all = machines
          .map((machine) => machine.describeStateMachine())
          .sort((a, b) => (a.stateMachineArn < b.stateMachineArn ? -1 : 1));
        const scope = "ListStateMachines";
        const after = request.nextToken === undefined ? undefined : readToken(request.nextToken, scope);
        const rest =
          after === undefined ? all : all.filter((machine) => machine.stateMachineArn > String(after[0]));
        const page = rest.slice(0, pageSize(request.maxResults));
        const last = page.at(-1);
        return {
          stateMachines: page.map((machine) => ({
            stateMachineArn: machine.stateMachineArn,
            name: machine.name,
            type: machine.type,
            creationDate: epochSeconds(machine.creationDate),
          })),
          ...(last && rest.length > page.length
            ? { nextToken: writeToken(scope, [last.stateMachineArn]) }
            : {}),
        };
      }
      case "SendTaskSuccess": {
        const request = parse(schemas.SendTaskSuccess, input);
        withTokenOwner(machines, (sfn) => sfn.sendTaskSuccess(request.taskToken, request.output));
        return {};
      }
      case "SendTaskFailure": {
        const request = parse(schemas.SendTaskFailure, input);
        withTokenOwner(machines, (sfn) =>
          sfn.sendTaskFailure(request.taskToken, {
            ...(request.error !== undefined ? { error: request.error } : {}),
            ...(request.cause !== undefined ? { cause: request.cause } : {}),
          }),
        );
        return {};
      }
      case "SendTaskHeartbeat": {
        const request = parse(schemas.SendTaskHeartbeat, input);
        withTokenOwner(machines, (sfn) => sfn.sendTaskHeartbeat(request.taskToken));
        return {};
      }
    }
  }
}

// ------------------------------------------------------------------ helpers

function failure(type: string, message: string, status = 400): ApiAnswer {
  // The SDK raises the exception class named by `__type` (ExecutionDoesNotExist, ...) for 4xx answers.
  return { status, body: { __type: type, message } };
}

function named(name: string, message: string): StepFunctionsError {
  return new StepFunctionsError(name, message);
}

function pageSize(maxResults: number | undefined): number {
  return maxResults === undefined || maxResults === 0 ? DEFAULT_PAGE_SIZE : maxResults;
}

type PageKey = Array<string | number>;

/**
 * Paging tokens are opaque to clients: the position after the last item returned, and what was listed
 * (a token is refused with another machine, filter or order, as AWS refuses it).
 */
function writeToken(scope: string, key: PageKey): string {
  return Buffer.from(JSON.stringify({ scope, key })).toString("base64url");
}

function readToken(token: string, scope: string): PageKey {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as {
      scope?: unknown;
      key?: unknown;
    };
    if (parsed.scope === scope && Array.isArray(parsed.key)) return parsed.key as PageKey;
  } catch {
    // Falls through to the refusal.
  }
  throw named("InvalidToken", `Invalid Token: '${token}'`);
}

function executionKey(execution: ExecutionDescription): PageKey {
  return [execution.startDate.getTime(), execution.executionArn];
}

function compareKeys(a: PageKey, b: PageKey): number {
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const [left, right] = [a[index], b[index]];
    if (left === right) continue;
    if (left === undefined) return -1;
    if (right === undefined) return 1;
    return left < right ? -1 : 1;
  }
  return 0;
}

function machineNamed(
  machines: readonly StepFunctionsBackend[],
  stateMachineArn: string,
): StepFunctionsBackend {
  const machine = machines.find((candidate) => candidate.stateMachineArn === stateMachineArn);
  if (!machine) throw named("StateMachineDoesNotExist", `State Machine Does Not Exist: '${stateMachineArn}'`);
  return machine;
}

/** `…:execution:<machine name>:<execution name>` belongs to the machine `…:stateMachine:<machine name>`. */
function machineOfExecution(
  machines: readonly StepFunctionsBackend[],
  executionArn: string,
): StepFunctionsBackend {
  const machine = machines.find((candidate) =>
    executionArn.startsWith(`${candidate.stateMachineArn.replace(":stateMachine:", ":execution:")}:`),
  );
  if (!machine) throw named("ExecutionDoesNotExist", `Execution Does Not Exist: '${executionArn}'`);
  return machine;
}

/** A task token is one machine's: the others answer InvalidToken. */
function withTokenOwner(
  machines: readonly StepFunctionsBackend[],
  send: (machine: StepFunctionsBackend) => void,
): void {
  for (const [index, machine] of machines.entries()) {
    try {
      send(machine);
      return;
    } catch (error) {
      const last = index === machines.length - 1;
      if (last || !(error instanceof StepFunctionsError) || error.name !== "InvalidToken") throw error;
    }
  }
}

export function describeForApi(execution: ExecutionDescription): Record<string, unknown> {
  const inputJson = JSON.stringify(execution.input ?? {});
  const out: Record<string, unknown> = {
    executionArn: execution.executionArn,
    stateMachineArn: execution.stateMachineArn,
    name: execution.name,
    status: execution.status,
    startDate: epochSeconds(execution.startDate),
    input: inputJson,
    inputDetails: { included: true },
  };
  if (execution.stopDate) out.stopDate = epochSeconds(execution.stopDate);
  if (execution.status === "SUCCEEDED") {
    out.output = JSON.stringify(execution.output ?? null);
    out.outputDetails = { included: true };
  }
  if (execution.error !== undefined) out.error = execution.error;
  if (execution.cause !== undefined) out.cause = execution.cause;
  return out;
}

/** One event of GetExecutionHistory, as the API returns it. */
export interface ApiHistoryEvent {
  id: number;
  previousEventId: number;
  timestamp: number;
  type: string;
  [details: string]: unknown;
}

/** The API's state event types by the definition's state type (Fail states are entered, never exited). */
const STATE_EVENT_PREFIX: Record<string, string> = {
  Task: "Task",
  Pass: "Pass",
  Wait: "Wait",
  Choice: "Choice",
  Succeed: "Succeed",
  Fail: "Fail",
  Map: "Map",
  Parallel: "Parallel",
};

/**
 * The execution's history as GetExecutionHistory returns it, from what the interpreter reports (see
 * LocalStepFunctions.history): ExecutionStarted, `<Type>StateEntered` / `<Type>StateExited` per state,
 * TaskFailed (each failed attempt, retried or not), MapStateFailed / ParallelStateFailed,
 * MapIterationStarted / Succeeded / Failed, and the execution's end. The interpreter does not report the
 * Lambda invocations themselves (TaskScheduled, TaskStarted, TaskSucceeded) nor the states' inputs and
 * outputs (the emulation does not keep them, to bound its memory), so those are absent. The end event is
 * built from the execution's status, which is what DescribeExecution says (a stop is ABORTED at once, as
 * in AWS, whatever the interpreter reports later); nothing after it is listed. Events are in time order.
 */
export function historyForApi(
  execution: ExecutionDescription,
  history: readonly HistoryEvent[],
  roleArn: string,
  includeExecutionData: boolean,
): ApiHistoryEvent[] {
  const out: ApiHistoryEvent[] = [];
  const add = (timestamp: number, type: string, details: Record<string, unknown> = {}) => {
    const id = out.length + 1;
    out.push({ timestamp: timestamp / 1000, type, id, previousEventId: id - 1, ...details });
  };
  const end = execution.stopDate?.getTime();
  // Concurrent Map iterations forward their events as they drain, not always in time order; the API
  // numbers events in time order (a stable sort keeps the order of events of the same millisecond).
  const ordered = [...history].sort((a, b) => a.timestamp - b.timestamp);
  for (const event of ordered) {
    if (end !== undefined && event.timestamp > end) break;
    const prefix = STATE_EVENT_PREFIX[event.stateType ?? ""];
    const name = event.stateName ?? "";
    switch (event.type) {
      case "ExecutionStarted":
        add(event.timestamp, "ExecutionStarted", {
          executionStartedEventDetails: {
            ...(includeExecutionData ? { input: JSON.stringify(execution.input ?? {}) } : {}),
            inputDetails: { truncated: false },
            roleArn,
          },
        });
        break;
      case "StateEntered":
        if (prefix) add(event.timestamp, `${prefix}StateEntered`, { stateEnteredEventDetails: { name } });
        break;
      case "StateExited":
        if (prefix && prefix !== "Fail") {
          add(event.timestamp, `${prefix}StateExited`, { stateExitedEventDetails: { name } });
        }
        break;
      case "StateFailed":
        if (prefix === "Task") {
          add(event.timestamp, "TaskFailed", {
            taskFailedEventDetails: {
              resourceType: "lambda",
              resource: "invoke",
              ...(event.error !== undefined ? { error: event.error } : {}),
              ...(event.cause !== undefined ? { cause: event.cause } : {}),
            },
          });
        } else if (prefix === "Map" || prefix === "Parallel") {
          add(event.timestamp, `${prefix}StateFailed`);
        }
        break;
      case "MapIterationStarted":
      case "MapIterationSucceeded":
      case "MapIterationFailed": {
        const key = `${event.type[0]?.toLowerCase()}${event.type.slice(1)}EventDetails`;
        add(event.timestamp, event.type, { [key]: { name, index: event.index ?? 0 } });
        break;
      }
      default:
        // StateRetried, StateCaught and the Parallel branch events have no event of their own in the
        // API; the interpreter's Execution* ends are replaced by the one built below.
        break;
    }
  }
  if (end !== undefined) add(end, ...endEvent(execution, includeExecutionData));
  return out;
}

function endEvent(
  execution: ExecutionDescription,
  includeExecutionData: boolean,
): [string, Record<string, unknown>] {
  const errorAndCause = {
    ...(execution.error !== undefined ? { error: execution.error } : {}),
    ...(execution.cause !== undefined ? { cause: execution.cause } : {}),
  };
  switch (execution.status) {
    case "SUCCEEDED":
      return [
        "ExecutionSucceeded",
        {
          executionSucceededEventDetails: {
            ...(includeExecutionData ? { output: JSON.stringify(execution.output ?? null) } : {}),
            outputDetails: { truncated: false },
          },
        },
      ];
    case "ABORTED":
      return ["ExecutionAborted", { executionAbortedEventDetails: errorAndCause }];
    case "TIMED_OUT":
      return ["ExecutionTimedOut", { executionTimedOutEventDetails: errorAndCause }];
    default:
      return ["ExecutionFailed", { executionFailedEventDetails: errorAndCause }];
  }
}

/** awsJson1_0 timestamps are epoch seconds (fractions allowed). */
function epochSeconds(date: Date): number {
  return date.getTime() / 1000;
}
