// The twin's Step Functions API as real clients use it: the AWS CLI (`aws stepfunctions ...
// --endpoint-url <twin>/sfn`) and @aws-sdk/client-sfn list, describe and trace the executions of a run the
// twin evaluated, and describe its state machines. The CLI must be installed (CI installs Debian's
// awscli): without it this file fails, saying so.
import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  DescribeStateMachineCommand,
  ExecutionDoesNotExist,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  ListStateMachinesCommand,
  SFNClient,
} from "@aws-sdk/client-sfn";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { substitute } from "../../infra/local/step-functions.ts";
import { ASL_PATH, BATCH_ASL_PATH, type Twin } from "../../infra/local/twin.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

const run = promisify(execFile);

let twin: Twin;
let aws: string;
let cliEnv: NodeJS.ProcessEnv;
let executionArn: string;
let sfn: SFNClient;

/** The `aws` on PATH, found the way a shell finds it. */
async function findAws(): Promise<string> {
  try {
    const { stdout } = await run("which", ["aws"]);
    const path = stdout.trim();
    if (path) return path;
  } catch {
    // Reported below.
  }
  throw new Error(
    "The AWS CLI (`aws`) is not on PATH: install it (Debian: `apt-get install -y awscli`, as .ci/run does) to run this test",
  );
}

beforeAll(async () => {
  aws = await findAws();
  // Nothing of the user's AWS configuration may leak in: dummy credentials, no config files, no pager.
  const dir = await mkdtemp(join(tmpdir(), "rewoo-aws-cli-"));
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("AWS_"));
  cliEnv = {
    ...Object.fromEntries(inherited),
    AWS_ACCESS_KEY_ID: "local",
    AWS_SECRET_ACCESS_KEY: "local",
    AWS_DEFAULT_REGION: "us-east-1",
    AWS_CONFIG_FILE: join(dir, "config"),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, "credentials"),
    AWS_PAGER: "",
    AWS_EC2_METADATA_DISABLED: "true",
  };
  twin = await bootTwinWithSamples();
  sfn = new SFNClient({
    region: "us-east-1",
    endpoint: twin.gateway.urls.stepFunctions,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  const started = await twin.startRun(
    taxReturnRequest(["rm-conditions/1120-signed.pdf"], { instructions: "Evaluate all loan conditions" }),
  );
  executionArn = started.executionArn;
  const record = await twin.waitForRun(started.run_id);
  expect(record.status).toBe("SUCCEEDED");
});

afterAll(async () => {
  sfn?.destroy();
  await twin?.stop();
});

/** `aws stepfunctions <command> ...` against the twin; its stdout parsed as JSON. */
async function stepfunctions(command: string, ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    aws,
    [
      "stepfunctions",
      command,
      ...args,
      "--endpoint-url",
      twin.gateway.urls.stepFunctions,
      "--region",
      "us-east-1",
      "--output",
      "json",
    ],
    { env: cliEnv },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** CLI v1 prints timestamps as the epoch seconds it received, v2 as ISO 8601 text. */
function dateOf(value: unknown): Date {
  return new Date(typeof value === "number" ? value * 1000 : String(value));
}

const stateMachineArn = () => twin.stepFunctions.stateMachineArn;

describe("aws stepfunctions against the twin", () => {
  it("list-executions lists the run's execution, filtered by status", async () => {
    const listed = await stepfunctions("list-executions", "--state-machine-arn", stateMachineArn());
    const executions = listed.executions as Array<Record<string, unknown>>;
    const ours = executions.find((execution) => execution.executionArn === executionArn);
    expect(ours).toMatchObject({ stateMachineArn: stateMachineArn(), status: "SUCCEEDED" });
    expect(dateOf(ours?.stopDate).getTime()).toBeGreaterThanOrEqual(dateOf(ours?.startDate).getTime());

    const running = await stepfunctions(
      "list-executions",
      "--state-machine-arn",
      stateMachineArn(),
      "--status-filter",
      "RUNNING",
    );
    expect(running.executions).toEqual([]);
  });

  it("describe-execution describes it with its input and output", async () => {
    const described = await stepfunctions("describe-execution", "--execution-arn", executionArn);
    expect(described).toMatchObject({
      executionArn,
      stateMachineArn: stateMachineArn(),
      status: "SUCCEEDED",
    });
    expect(JSON.parse(String(described.input))).toMatchObject({ run_id: expect.any(String) });
    expect(described.output).toEqual(expect.any(String));
  });

  it("get-execution-history traces it from ExecutionStarted through the states to ExecutionSucceeded", async () => {
    const history = await stepfunctions("get-execution-history", "--execution-arn", executionArn);
    const events = history.events as Array<Record<string, unknown>>;
    expect(events[0]).toMatchObject({ id: 1, previousEventId: 0, type: "ExecutionStarted" });
    expect(events.at(-1)).toMatchObject({ type: "ExecutionSucceeded" });
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => index + 1));
    const entered = events
      .filter((event) => event.type === "TaskStateEntered")
      .map((event) => (event.stateEnteredEventDetails as { name: string }).name);
    expect(entered).toEqual(expect.arrayContaining(["Plan", "Work", "Solve", "Finalize"]));
    expect(events.map((event) => event.type)).toContain("TaskStateExited");
    const times = events.map((event) => dateOf(event.timestamp).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("describe-state-machine returns the definition the twin runs, its role and status", async () => {
    const described = await stepfunctions("describe-state-machine", "--state-machine-arn", stateMachineArn());
    expect(described).toMatchObject({
      stateMachineArn: stateMachineArn(),
      name: "rewoo",
      status: "ACTIVE",
      type: "STANDARD",
      roleArn: "arn:aws:iam::123456789012:role/rewoo-local",
    });
    expect(described.definition).toBe(
      substitute(await readFile(ASL_PATH, "utf8"), "us-east-1", "123456789012", {}),
    );
  });

  it("fails with the API's error for an unknown execution", async () => {
    const unknown = `${stateMachineArn().replace(":stateMachine:", ":execution:")}:no-such-run`;
    const failed = stepfunctions("describe-execution", "--execution-arn", unknown);
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringContaining("ExecutionDoesNotExist") });
  });
});

describe("@aws-sdk/client-sfn against the twin", () => {
  it("lists the twin's state machines: the evaluation workflow and the batch workflow", async () => {
    const { stateMachines } = await sfn.send(new ListStateMachinesCommand({}));
    const names = (stateMachines ?? []).map((machine) => machine.name);
    expect(names).toEqual(expect.arrayContaining(["rewoo", "batch"]));
    const batch = await sfn.send(
      new DescribeStateMachineCommand({
        stateMachineArn: stateMachineArn().replace(/:rewoo$/, ":batch"),
      }),
    );
    expect(JSON.parse(batch.definition ?? "{}").StartAt).toBe(
      JSON.parse(await readFile(BATCH_ASL_PATH, "utf8")).StartAt,
    );
  });

  it("pages ListExecutions and GetExecutionHistory, and raises ExecutionDoesNotExist", async () => {
    const first = await sfn.send(
      new ListExecutionsCommand({ stateMachineArn: stateMachineArn(), maxResults: 1 }),
    );
    expect(first.executions?.[0]?.executionArn).toBe(executionArn);
    const history = await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 2 }));
    expect(history.events?.map((event) => event.id)).toEqual([1, 2]);
    const next = await sfn.send(
      new GetExecutionHistoryCommand({ executionArn, maxResults: 2, nextToken: history.nextToken }),
    );
    expect(next.events?.map((event) => event.id)).toEqual([3, 4]);
    await expect(
      sfn.send(new GetExecutionHistoryCommand({ executionArn: `${executionArn}-gone` })),
    ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
  });
});
