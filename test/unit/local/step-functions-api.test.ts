// The twin's Step Functions API on its own (no gateway): StepFunctionsApi mounted on a plain HTTP server in
// front of real LocalStepFunctions machines, called with @aws-sdk/client-sfn as the handlers and tools call
// it, and through call() for the protocol's edge cases.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  ExecutionDoesNotExist,
  GetExecutionHistoryCommand,
  type HistoryEvent,
  InvalidArn,
  InvalidToken,
  ListExecutionsCommand,
  ListStateMachinesCommand,
  paginateGetExecutionHistory,
  paginateListExecutions,
  SFNClient,
  StartExecutionCommand,
  StateMachineDoesNotExist,
  StopExecutionCommand,
  ValidationException,
} from "@aws-sdk/client-sfn";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalStepFunctions } from "../../../infra/local/step-functions.ts";
import { historyForApi, StepFunctionsApi } from "../../../infra/local/step-functions-api.ts";

const DEFINITION = {
  Comment: "A Pass, a retried Task, a Choice, and a Succeed or Fail end",
  StartAt: "Prepare",
  States: {
    Prepare: { Type: "Pass", Next: "Work" },
    Work: {
      Type: "Task",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a definition substitution, as in statemachine/rewoo.asl.json
      Resource: "${WorkFunctionArn}",
      Retry: [{ ErrorEquals: ["Flaky"], MaxAttempts: 1, IntervalSeconds: 1 }],
      Next: "Check",
    },
    Check: {
      Type: "Choice",
      Choices: [{ Variable: "$.ok", BooleanEquals: true, Next: "Done" }],
      Default: "Broken",
    },
    Done: { Type: "Succeed" },
    Broken: { Type: "Fail", Error: "NotOk", Cause: "the work was not ok" },
  },
};

const gates = new Map<string, () => void>();
const flaked = new Set<string>();

async function work(input: unknown): Promise<unknown> {
  const { mode, key } = input as { mode: string; key?: string };
  if (mode === "flaky-once" && key && !flaked.has(key)) {
    flaked.add(key);
    throw Object.assign(new Error("try again"), { name: "Flaky" });
  }
  if (mode === "gate" && key) await new Promise<void>((resolve) => gates.set(key, resolve));
  return { ok: mode !== "bad" };
}

let server: Server;
let sfn: SFNClient;
let main: LocalStepFunctions;
let other: LocalStepFunctions;
let aslPath: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "rewoo-sfn-api-"));
  aslPath = join(dir, "flow.asl.json");
  await writeFile(aslPath, JSON.stringify(DEFINITION, null, 2));
  const options = { retryIntervalOverrides: { Work: 0 } };
  main = await LocalStepFunctions.fromFile(aslPath, { Work: work }, { ...options, stateMachineName: "flow" });
  other = await LocalStepFunctions.fromFile(
    aslPath,
    { Work: work },
    { ...options, stateMachineName: "other" },
  );
  const api = new StepFunctionsApi([main, other], () => undefined);
  server = createServer((req, res) => void api.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sfn = new SFNClient({
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
});

afterAll(async () => {
  for (const open of gates.values()) open();
  await main?.close();
  await other?.close();
  sfn?.destroy();
  await new Promise((resolve) => server?.close(resolve));
});

async function run(name: string, mode: string): Promise<string> {
  const { executionArn } = await sfn.send(
    new StartExecutionCommand({
      stateMachineArn: main.stateMachineArn,
      name,
      input: JSON.stringify({ mode, key: name }),
    }),
  );
  if (!executionArn) throw new Error("no executionArn");
  if (mode !== "gate") await main.waitForExecution(executionArn);
  return executionArn;
}

const typesOf = (events: HistoryEvent[] | undefined) => (events ?? []).map((event) => event.type);

describe("DescribeStateMachine and ListStateMachines", () => {
  it("describes a machine with the definition it runs (substitutions made), its role, type and status", async () => {
    const described = await sfn.send(
      new DescribeStateMachineCommand({ stateMachineArn: main.stateMachineArn }),
    );
    expect(described).toMatchObject({
      stateMachineArn: "arn:aws:states:us-east-1:123456789012:stateMachine:flow",
      name: "flow",
      type: "STANDARD",
      status: "ACTIVE",
      roleArn: "arn:aws:iam::123456789012:role/flow-local",
    });
    expect(described.creationDate).toEqual(main.creationDate);
    const expected = (await readFile(aslPath, "utf8")).replace(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder the twin substitutes
      "${WorkFunctionArn}",
      "arn:aws:lambda:us-east-1:123456789012:function:rewoo-local-work",
    );
    expect(described.definition).toBe(expected);
  });

  it("lists the machines by ARN, a page at a time", async () => {
    const first = await sfn.send(new ListStateMachinesCommand({ maxResults: 1 }));
    expect(first.stateMachines?.map((machine) => machine.name)).toEqual(["flow"]);
    expect(first.nextToken).toEqual(expect.any(String));
    const second = await sfn.send(
      new ListStateMachinesCommand({ maxResults: 1, nextToken: first.nextToken }),
    );
    expect(second.stateMachines).toEqual([
      {
        stateMachineArn: other.stateMachineArn,
        name: "other",
        type: "STANDARD",
        creationDate: other.creationDate,
      },
    ]);
    expect(second.nextToken).toBeUndefined();
  });
});

describe("GetExecutionHistory", () => {
  it("reports a succeeded execution as AWS does: state events by type, each failed attempt, the end", async () => {
    const executionArn = await run("retried", "flaky-once");
    const { events, nextToken } = await sfn.send(new GetExecutionHistoryCommand({ executionArn }));
    expect(nextToken).toBeUndefined();
    expect(typesOf(events)).toEqual([
      "ExecutionStarted",
      "PassStateEntered",
      "PassStateExited",
      "TaskStateEntered",
      "TaskFailed",
      "TaskStateExited",
      "ChoiceStateEntered",
      "ChoiceStateExited",
      "SucceedStateEntered",
      "SucceedStateExited",
      "ExecutionSucceeded",
    ]);
    expect(events?.map((event) => [event.id, event.previousEventId])).toEqual(
      events?.map((_, index) => [index + 1, index]),
    );
    const times = (events ?? []).map((event) => event.timestamp?.getTime() ?? Number.NaN);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(events?.[0]?.executionStartedEventDetails).toEqual({
      input: JSON.stringify({ mode: "flaky-once", key: "retried" }),
      inputDetails: { truncated: false },
      roleArn: "arn:aws:iam::123456789012:role/flow-local",
    });
    expect(events?.[3]?.stateEnteredEventDetails).toEqual({ name: "Work" });
    expect(events?.[4]?.taskFailedEventDetails).toEqual({
      resourceType: "lambda",
      resource: "invoke",
      error: "Flaky",
      cause: "try again",
    });
    expect(events?.at(-1)?.executionSucceededEventDetails).toEqual({
      output: JSON.stringify({ ok: true }),
      outputDetails: { truncated: false },
    });
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    expect(events?.at(-1)?.timestamp).toEqual(described.stopDate);
  });

  it("ends a failed execution with ExecutionFailed and the Fail state's error and cause", async () => {
    const executionArn = await run("failing", "bad");
    const { events } = await sfn.send(new GetExecutionHistoryCommand({ executionArn }));
    expect(typesOf(events).slice(-3)).toEqual(["ChoiceStateExited", "FailStateEntered", "ExecutionFailed"]);
    expect(events?.at(-1)?.executionFailedEventDetails).toEqual({
      error: "NotOk",
      cause: "the work was not ok",
    });
  });

  it("ends a stopped execution with ExecutionAborted at its stop date; a running one has no end yet", async () => {
    const executionArn = await run("stopped", "gate");
    await expect.poll(() => gates.has("stopped")).toBe(true);
    const running = await sfn.send(new GetExecutionHistoryCommand({ executionArn }));
    expect(typesOf(running.events)).toEqual([
      "ExecutionStarted",
      "PassStateEntered",
      "PassStateExited",
      "TaskStateEntered",
    ]);
    const { stopDate } = await sfn.send(
      new StopExecutionCommand({ executionArn, error: "Halt", cause: "by the test" }),
    );
    const { events } = await sfn.send(new GetExecutionHistoryCommand({ executionArn }));
    expect(events?.at(-1)).toMatchObject({
      type: "ExecutionAborted",
      timestamp: stopDate,
      executionAbortedEventDetails: { error: "Halt", cause: "by the test" },
    });
    gates.get("stopped")?.();
  });

  it("pages forwards and backwards, and leaves the execution data out when asked", async () => {
    const executionArn = await run("paged", "ok");
    const all = (await sfn.send(new GetExecutionHistoryCommand({ executionArn }))).events ?? [];
    expect(all.length).toBeGreaterThan(5);
    const pages: HistoryEvent[][] = [];
    for await (const page of paginateGetExecutionHistory({ client: sfn, pageSize: 3 }, { executionArn })) {
      pages.push(page.events ?? []);
    }
    expect(pages.map((page) => page.length)).toEqual(
      Array.from({ length: Math.ceil(all.length / 3) }, (_, index) => Math.min(3, all.length - index * 3)),
    );
    expect(pages.flat()).toEqual(all);

    const reversed: HistoryEvent[] = [];
    for await (const page of paginateGetExecutionHistory(
      { client: sfn, pageSize: 4 },
      { executionArn, reverseOrder: true },
    )) {
      reversed.push(...(page.events ?? []));
    }
    expect(reversed).toEqual([...all].reverse());

    const bare = await sfn.send(
      new GetExecutionHistoryCommand({ executionArn, includeExecutionData: false }),
    );
    expect(bare.events?.[0]?.executionStartedEventDetails).toEqual({
      inputDetails: { truncated: false },
      roleArn: "arn:aws:iam::123456789012:role/flow-local",
    });
    expect(bare.events?.at(-1)?.executionSucceededEventDetails).toEqual({
      outputDetails: { truncated: false },
    });
  });
});

describe("historyForApi", () => {
  it("numbers events in time order, drops what came after the stop, and names events by state type", () => {
    const execution = {
      executionArn: "arn:aws:states:us-east-1:123456789012:execution:flow:x",
      stateMachineArn: "arn:aws:states:us-east-1:123456789012:stateMachine:flow",
      name: "x",
      status: "ABORTED" as const,
      input: { a: 1 },
      startDate: new Date(1_000),
      stopDate: new Date(1_040),
    };
    const events = historyForApi(
      execution,
      [
        { type: "ExecutionStarted", timestamp: 1_000 },
        { type: "StateEntered", stateName: "Each", stateType: "Map", timestamp: 1_001 },
        // Forwarded late by a concurrent iteration: listed in time order.
        { type: "MapIterationStarted", stateName: "Each", stateType: "Map", index: 1, timestamp: 1_003 },
        { type: "MapIterationStarted", stateName: "Each", stateType: "Map", index: 0, timestamp: 1_002 },
        { type: "StateRetried", stateName: "Work", stateType: "Task", timestamp: 1_010 },
        { type: "StateFailed", stateName: "Check", stateType: "Choice", error: "X", timestamp: 1_020 },
        { type: "StateFailed", stateName: "Work", stateType: "Task", error: "Boom", timestamp: 1_030 },
        // The interpreter's own end, and what it reported after the stop: replaced and dropped.
        { type: "ExecutionAborted", timestamp: 1_040 },
        { type: "StateFailed", stateName: "Work", stateType: "Task", error: "Late", timestamp: 1_050 },
      ],
      "arn:aws:iam::123456789012:role/flow-local",
      true,
    );
    expect(events).toEqual([
      {
        id: 1,
        previousEventId: 0,
        timestamp: 1,
        type: "ExecutionStarted",
        executionStartedEventDetails: {
          input: '{"a":1}',
          inputDetails: { truncated: false },
          roleArn: "arn:aws:iam::123456789012:role/flow-local",
        },
      },
      {
        id: 2,
        previousEventId: 1,
        timestamp: 1.001,
        type: "MapStateEntered",
        stateEnteredEventDetails: { name: "Each" },
      },
      {
        id: 3,
        previousEventId: 2,
        timestamp: 1.002,
        type: "MapIterationStarted",
        mapIterationStartedEventDetails: { name: "Each", index: 0 },
      },
      {
        id: 4,
        previousEventId: 3,
        timestamp: 1.003,
        type: "MapIterationStarted",
        mapIterationStartedEventDetails: { name: "Each", index: 1 },
      },
      {
        id: 5,
        previousEventId: 4,
        timestamp: 1.03,
        type: "TaskFailed",
        taskFailedEventDetails: { resourceType: "lambda", resource: "invoke", error: "Boom" },
      },
      {
        id: 6,
        previousEventId: 5,
        timestamp: 1.04,
        type: "ExecutionAborted",
        executionAbortedEventDetails: {},
      },
    ]);
  });
});

describe("ListExecutions", () => {
  it("lists a machine's executions newest first, filtered by status, a page at a time", async () => {
    const arns = [];
    for (const name of ["list-1", "list-2", "list-3"]) arns.push(await run(name, "ok"));
    const listed: string[] = [];
    for await (const page of paginateListExecutions(
      { client: sfn, pageSize: 2 },
      { stateMachineArn: main.stateMachineArn, statusFilter: "SUCCEEDED" },
    )) {
      expect(page.executions?.length).toBeLessThanOrEqual(2);
      listed.push(...(page.executions ?? []).map((execution) => execution.executionArn ?? ""));
    }
    const described = await Promise.all(
      listed.map((executionArn) => sfn.send(new DescribeExecutionCommand({ executionArn }))),
    );
    expect(described.every((execution) => execution.status === "SUCCEEDED")).toBe(true);
    expect(listed).toEqual(expect.arrayContaining(arns));
    expect(new Set(listed).size).toBe(listed.length);
    const starts = described.map((execution) => execution.startDate?.getTime() ?? 0);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));

    const failed = await sfn.send(
      new ListExecutionsCommand({ stateMachineArn: main.stateMachineArn, statusFilter: "FAILED" }),
    );
    expect(failed.executions?.map((execution) => execution.name)).toEqual(["failing"]);
    expect(failed.executions?.[0]).toMatchObject({
      stateMachineArn: main.stateMachineArn,
      status: "FAILED",
      startDate: expect.any(Date),
      stopDate: expect.any(Date),
    });
    const none = await sfn.send(new ListExecutionsCommand({ stateMachineArn: other.stateMachineArn }));
    expect(none.executions).toEqual([]);
  });

  it("refuses a token of another listing, and a made-up one", async () => {
    const page = await sfn.send(
      new ListExecutionsCommand({ stateMachineArn: main.stateMachineArn, maxResults: 1 }),
    );
    expect(page.nextToken).toEqual(expect.any(String));
    for (const [statusFilter, nextToken] of [
      ["SUCCEEDED", page.nextToken],
      [undefined, "bm90IGEgdG9rZW4"],
    ] as const) {
      await expect(
        sfn.send(
          new ListExecutionsCommand({ stateMachineArn: main.stateMachineArn, statusFilter, nextToken }),
        ),
      ).rejects.toBeInstanceOf(InvalidToken);
    }
  });
});

describe("errors", () => {
  it("raises the SDK's exception classes: unknown ARNs, malformed ARNs, invalid members", async () => {
    const unknownExecution = `${main.stateMachineArn.replace(":stateMachine:", ":execution:")}:nope`;
    await expect(
      sfn.send(new GetExecutionHistoryCommand({ executionArn: unknownExecution })),
    ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(
      sfn.send(new DescribeStateMachineCommand({ stateMachineArn: `${main.stateMachineArn}-gone` })),
    ).rejects.toBeInstanceOf(StateMachineDoesNotExist);
    await expect(
      sfn.send(new ListExecutionsCommand({ stateMachineArn: `${main.stateMachineArn}-gone` })),
    ).rejects.toBeInstanceOf(StateMachineDoesNotExist);
    await expect(
      sfn.send(new DescribeExecutionCommand({ executionArn: "not-an-arn" })),
    ).rejects.toBeInstanceOf(InvalidArn);
    // A state machine's ARN where an execution's is expected is malformed too.
    await expect(
      sfn.send(new GetExecutionHistoryCommand({ executionArn: main.stateMachineArn })),
    ).rejects.toBeInstanceOf(InvalidArn);
    const tooMany = sfn.send(
      new ListExecutionsCommand({ stateMachineArn: main.stateMachineArn, maxResults: 5000 }),
    );
    await expect(tooMany).rejects.toBeInstanceOf(ValidationException);
    await expect(tooMany).rejects.toThrow(
      "1 validation error detected: Value at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 1000",
    );
  });

  it("answers in the awsJson1_0 error shape", () => {
    const api = new StepFunctionsApi([main], () => undefined);
    expect(
      api.call("AWSStepFunctions.ListExecutions", {
        stateMachineArn: main.stateMachineArn,
        statusFilter: "DONE",
      }),
    ).toEqual({
      status: 400,
      body: {
        __type: "ValidationException",
        message:
          "1 validation error detected: Value at 'statusFilter' failed to satisfy constraint: Member must satisfy enum value set: [RUNNING, SUCCEEDED, FAILED, TIMED_OUT, ABORTED, PENDING_REDRIVE]",
      },
    });
    expect(api.call("AWSStepFunctions.DescribeStateMachine", {})).toEqual({
      status: 400,
      body: {
        __type: "ValidationException",
        message:
          "1 validation error detected: Value at 'stateMachineArn' failed to satisfy constraint: Member must not be null",
      },
    });
    expect(
      api.call("AWSStepFunctions.DescribeStateMachine", { stateMachineArn: "arn:aws:s3:::bucket" }),
    ).toEqual({
      status: 400,
      body: { __type: "InvalidArn", message: "Invalid Arn: 'arn:aws:s3:::bucket'" },
    });
    expect(api.call("AWSStepFunctions.CreateStateMachine", {})).toMatchObject({
      status: 400,
      body: { __type: "UnknownOperationException" },
    });
    expect(api.call("AWSStepFunctions.ListExecutions", ["not", "an", "object"])).toMatchObject({
      status: 400,
      body: { __type: "SerializationException" },
    });
  });

  it("answers over HTTP with status 400 and the JSON content type the SDKs expect", async () => {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: "POST",
      headers: {
        "content-type": "application/x-amz-json-1.0",
        "x-amz-target": "AWSStepFunctions.DescribeExecution",
      },
      body: JSON.stringify({
        executionArn: `${main.stateMachineArn.replace(":stateMachine:", ":execution:")}:x`,
      }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/x-amz-json-1.0");
    expect(await response.json()).toEqual({
      __type: "ExecutionDoesNotExist",
      message: "Execution Does Not Exist: 'arn:aws:states:us-east-1:123456789012:execution:flow:x'",
    });
  });
});
