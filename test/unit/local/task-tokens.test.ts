// The callback pattern in the twin's Step Functions: a `lambda:invoke.waitForTaskToken` state invokes its
// function with `$$.Task.Token` in the payload and waits for SendTaskSuccess / SendTaskFailure /
// SendTaskHeartbeat, its timeout (fixed or from TimeoutSecondsPath on the state input) or a stop.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LocalStepFunctions, type TaskHandler } from "../../../infra/local/step-functions.ts";

const DEFINITION = {
  StartAt: "Ask",
  States: {
    Ask: {
      Type: "Task",
      Resource: "arn:aws:states:::lambda:invoke.waitForTaskToken",
      Parameters: {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a definition substitution, as in the ASL file
        FunctionName: "${AskFunctionArn}",
        Payload: { "question.$": "$.question", "token.$": "$$.Task.Token" },
      },
      TimeoutSecondsPath: "$.wait_seconds",
      ResultPath: "$.answer",
      Catch: [
        { ErrorEquals: ["States.Timeout"], ResultPath: "$.error", Next: "NoAnswer" },
        { ErrorEquals: ["States.HeartbeatTimeout"], ResultPath: "$.error", Next: "NoAnswer" },
        { ErrorEquals: ["Rejected"], ResultPath: "$.error", Next: "NoAnswer" },
      ],
      End: true,
    },
    NoAnswer: { Type: "Pass", End: true },
  },
};

interface Asked {
  question: string;
  token: string;
}

let asl: string;
/** The same with a heartbeat period read from the state input. */
let heartbeatAsl: string;
let sfn: LocalStepFunctions;
let asked: Asked[];
let waiters: Array<(asked: Asked) => void>;

/** The next question the Ask function receives. */
function nextQuestion(): Promise<Asked> {
  return new Promise((resolve) => waiters.push(resolve));
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "task-tokens-"));
  asl = join(dir, "ask.asl.json");
  await writeFile(asl, JSON.stringify(DEFINITION));
  heartbeatAsl = join(dir, "heartbeat.asl.json");
  const heartbeat = structuredClone(DEFINITION);
  Object.assign(heartbeat.States.Ask, { HeartbeatSecondsPath: "$.heartbeat_seconds" });
  await writeFile(heartbeatAsl, JSON.stringify(heartbeat));
});

async function machine(ask?: TaskHandler, path = asl): Promise<LocalStepFunctions> {
  asked = [];
  waiters = [];
  const handler: TaskHandler =
    ask ??
    (async (payload) => {
      const entry = payload as Asked;
      asked.push(entry);
      waiters.shift()?.(entry);
      return { ignored: true };
    });
  sfn = await LocalStepFunctions.fromFile(path, { Ask: handler });
  return sfn;
}

afterEach(async () => {
  await sfn?.close({ timeoutMs: 100 });
});

describe("waitForTaskToken in the twin", () => {
  it("invokes the function with the payload and a token, then succeeds with SendTaskSuccess's output", async () => {
    await machine();
    const question = nextQuestion();
    const { executionArn } = sfn.startExecution({ input: { question: "income?", wait_seconds: 60 } });
    const { token } = await question;
    expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(sfn.openTaskTokens(executionArn)).toEqual([token]);
    expect(sfn.describeExecution(executionArn).status).toBe("RUNNING");

    sfn.sendTaskSuccess(token, JSON.stringify({ monthly_income: 9000 }));
    const done = await sfn.waitForExecution(executionArn);
    expect(done.status).toBe("SUCCEEDED");
    // The function's own answer is ignored; the state's result is the callback's output.
    expect(done.output).toEqual({ question: "income?", wait_seconds: 60, answer: { monthly_income: 9000 } });
    // Answered: the token no longer waits.
    expect(() => sfn.sendTaskSuccess(token, "{}")).toThrow(expect.objectContaining({ name: "TaskTimedOut" }));
    expect(sfn.openTaskTokens(executionArn)).toEqual([]);
  });

  it("fails the state with SendTaskFailure's error and cause, which Catch handles", async () => {
    await machine();
    const question = nextQuestion();
    const { executionArn } = sfn.startExecution({ input: { question: "approve?", wait_seconds: 60 } });
    sfn.sendTaskFailure((await question).token, { error: "Rejected", cause: "wrong documents" });
    const done = await sfn.waitForExecution(executionArn);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.output).toMatchObject({ error: { Error: "Rejected", Cause: "wrong documents" } });
  });

  it("times out after TimeoutSecondsPath read from the state input (States.Timeout)", async () => {
    await machine();
    const question = nextQuestion();
    const { executionArn } = sfn.startExecution({ input: { question: "income?", wait_seconds: 1 } });
    const { token } = await question;
    const done = await sfn.waitForExecution(executionArn);
    expect(done.output).toMatchObject({ error: { Error: "States.Timeout" } });
    expect(() => sfn.sendTaskSuccess(token, "{}")).toThrow(expect.objectContaining({ name: "TaskTimedOut" }));
  });

  it("ends the wait on a missed heartbeat; SendTaskHeartbeat keeps it alive", async () => {
    await machine(undefined, heartbeatAsl);
    const question = nextQuestion();
    const { executionArn } = sfn.startExecution({
      input: { question: "income?", wait_seconds: 60, heartbeat_seconds: 1 },
    });
    const { token } = await question;
    // Two heartbeats 600 ms apart carry the wait past one heartbeat period; then none.
    for (let i = 0; i < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      sfn.sendTaskHeartbeat(token);
    }
    expect(sfn.describeExecution(executionArn).status).toBe("RUNNING");
    const done = await sfn.waitForExecution(executionArn);
    expect(done.output).toMatchObject({ error: { Error: "States.HeartbeatTimeout" } });
  });

  it("closes the wait when the execution is stopped", async () => {
    await machine();
    const question = nextQuestion();
    const { executionArn } = sfn.startExecution({ input: { question: "income?", wait_seconds: 60 } });
    const { token } = await question;
    sfn.stopExecution(executionArn, { error: "Cancelled" });
    expect((await sfn.waitForExecution(executionArn)).status).toBe("ABORTED");
    expect(() => sfn.sendTaskSuccess(token, "{}")).toThrow(expect.objectContaining({ name: "TaskTimedOut" }));
  });

  it("fails the execution when a timeout path selects nothing (States.Runtime, as in AWS)", async () => {
    await machine();
    const { executionArn } = sfn.startExecution({ input: { question: "income?" } });
    const done = await sfn.waitForExecution(executionArn);
    expect(done).toMatchObject({ status: "FAILED", error: "States.Runtime" });
    expect(done.cause).toContain("$.wait_seconds");
  });

  it("fails the state when the function fails, without waiting", async () => {
    await machine(async () => {
      throw Object.assign(new Error("no such run"), { name: "RunNotFound" });
    });
    const { executionArn } = sfn.startExecution({ input: { question: "income?", wait_seconds: 60 } });
    const done = await sfn.waitForExecution(executionArn);
    expect(done).toMatchObject({ status: "FAILED", error: "RunNotFound", cause: "no such run" });
  });

  it("rejects unknown tokens, invalid output and oversized errors like the API", async () => {
    await machine();
    const question = nextQuestion();
    const { executionArn } = sfn.startExecution({ input: { question: "income?", wait_seconds: 60 } });
    const { token } = await question;
    expect(() => sfn.sendTaskSuccess("not-a-token", "{}")).toThrow(
      expect.objectContaining({ name: "InvalidToken" }),
    );
    expect(() => sfn.sendTaskSuccess(token, "{not json")).toThrow(
      expect.objectContaining({ name: "InvalidOutput" }),
    );
    expect(() => sfn.sendTaskFailure(token, { error: "E".repeat(257) })).toThrow(
      expect.objectContaining({ name: "ValidationException" }),
    );
    // None of those answered the task.
    expect(sfn.openTaskTokens(executionArn)).toEqual([token]);
    sfn.sendTaskSuccess(token, "true");
    expect((await sfn.waitForExecution(executionArn)).output).toMatchObject({ answer: true });
  });

  it("refuses a callback state on an integration it does not emulate", async () => {
    const dir = await mkdtemp(join(tmpdir(), "task-tokens-"));
    const path = join(dir, "sqs.asl.json");
    const sqs = structuredClone(DEFINITION);
    sqs.States.Ask.Resource = "arn:aws:states:::sqs:sendMessage.waitForTaskToken";
    await writeFile(path, JSON.stringify(sqs));
    await expect(LocalStepFunctions.fromFile(path, { Ask: async () => ({}) })).rejects.toThrow(
      /emulates arn:aws:states:::lambda:invoke.waitForTaskToken only/,
    );
  });
});
