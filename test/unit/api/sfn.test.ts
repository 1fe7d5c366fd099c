import {
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from "@aws-sdk/client-sfn";
import { mockClient } from "aws-sdk-client-mock";
import { allCustomMatcher } from "aws-sdk-client-mock-vitest";
import type {} from "aws-sdk-client-mock-vitest/extend";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createWorkflow,
  executionArnFor,
  resetSfnClient,
  sfnClient,
  WorkflowNotConfiguredError,
} from "../../../lambdas/api/sfn.ts";

expect.extend(allCustomMatcher);

const sfn = mockClient(SFNClient);
const ARN = "arn:aws:states:eu-west-1:111122223333:stateMachine:rewoo-prod";
const config = (extra: { sfnEndpoint?: string; stateMachineArn?: string } = {}) => ({
  region: "eu-west-1",
  stateMachineArn: "stateMachineArn" in extra ? extra.stateMachineArn : ARN,
  api: { sfnEndpoint: extra.sfnEndpoint } as never,
});

beforeEach(() => {
  sfn.reset();
  resetSfnClient();
});
afterEach(() => resetSfnClient());

describe("executionArnFor", () => {
  it("derives the execution ARN from the state machine ARN and the run id", () => {
    expect(executionArnFor(ARN, "run-1")).toBe(
      "arn:aws:states:eu-west-1:111122223333:execution:rewoo-prod:run-1",
    );
    expect(executionArnFor("arn:aws-us-gov:states:us-gov-west-1:1:stateMachine:m", "run-2")).toBe(
      "arn:aws-us-gov:states:us-gov-west-1:1:execution:m:run-2",
    );
  });

  it("refuses what is not a state machine ARN", () => {
    expect(() => executionArnFor("arn:aws:lambda:eu-west-1:1:function:f", "run-1")).toThrow(
      /state machine ARN/,
    );
  });
});

describe("createWorkflow", () => {
  it("starts the execution named after the run with {run_id} as input", async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: "x", startDate: new Date() });
    await createWorkflow(config()).start("run-1", { run_id: "run-1" });
    expect(sfn).toHaveReceivedCommandExactlyOnceWith(StartExecutionCommand, {
      stateMachineArn: ARN,
      name: "run-1",
      input: '{"run_id":"run-1"}',
    });
  });

  it("treats ExecutionAlreadyExists as the run already started (a retried start)", async () => {
    sfn.on(StartExecutionCommand).rejects(new ExecutionAlreadyExists({ message: "exists", $metadata: {} }));
    await expect(createWorkflow(config()).start("run-1", { run_id: "run-1" })).resolves.toBeUndefined();
  });

  it("refuses to start without a state machine", async () => {
    await expect(
      createWorkflow(config({ stateMachineArn: undefined })).start("run-1", { run_id: "run-1" }),
    ).rejects.toBeInstanceOf(WorkflowNotConfiguredError);
    expect(sfn).not.toHaveReceivedCommand(StartExecutionCommand);
  });

  it("stops the run's execution, and reports a missing one as false", async () => {
    sfn.on(StopExecutionCommand).resolvesOnce({ stopDate: new Date() });
    const workflow = createWorkflow(config());
    await expect(workflow.stop("run-1", "by request")).resolves.toBe(true);
    expect(sfn).toHaveReceivedCommandWith(StopExecutionCommand, {
      executionArn: "arn:aws:states:eu-west-1:111122223333:execution:rewoo-prod:run-1",
      error: "Cancelled",
      cause: "by request",
    });
    sfn.on(StopExecutionCommand).rejects(new ExecutionDoesNotExist({ message: "no", $metadata: {} }));
    await expect(workflow.stop("run-2", "by request")).resolves.toBe(false);
  });
});

describe("sfnClient", () => {
  it("is built once per cold start", () => {
    expect(sfnClient(config())).toBe(sfnClient(config()));
  });

  it("points at the twin's endpoint with dummy credentials when SFN_ENDPOINT is set", async () => {
    const client = sfnClient(config({ sfnEndpoint: "http://127.0.0.1:4999" }));
    const endpoint = await client.config.endpoint?.();
    expect(`${endpoint?.protocol}//${endpoint?.hostname}:${endpoint?.port}`).toBe("http://127.0.0.1:4999");
    expect(await client.config.credentials()).toMatchObject({
      accessKeyId: "local",
      secretAccessKey: "local",
    });
  });
});
