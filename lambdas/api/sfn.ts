// The Step Functions side of the API: start a run's execution, stop it. One SFNClient per cold
// start; in the local twin SFN_ENDPOINT points it at the twin's Step Functions JSON API, so the
// very same client code runs there.
import {
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  InvalidToken,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
  TaskDoesNotExist,
  TaskTimedOut,
} from "@aws-sdk/client-sfn";
import type { BatchExecutionInput } from "../core/batch.ts";
import type { StartExecution } from "../runs/start-run.ts";
import type { Config } from "../runtime/config.ts";
import { functionTracer } from "../runtime/tracer.ts";

/** The emulators accept any credentials; real ones must not leak to a local endpoint. */
const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" };

let client: SFNClient | undefined;

export function sfnClient(config: Pick<Config, "region" | "api">): SFNClient {
  client ??= functionTracer().captureAWSv3Client(
    new SFNClient({
      region: config.region,
      ...(config.api.sfnEndpoint ? { endpoint: config.api.sfnEndpoint, credentials: LOCAL_CREDENTIALS } : {}),
    }),
  );
  return client;
}

/** Tests switch configurations within one process; Lambda never needs this. */
export function resetSfnClient(): void {
  client?.destroy();
  client = undefined;
}

export class WorkflowNotConfiguredError extends Error {
  override name = "WorkflowNotConfiguredError";
  constructor() {
    super("STATE_MACHINE_ARN is not configured: this API cannot start or stop runs");
  }
}

/**
 * `arn:<partition>:states:<region>:<account>:stateMachine:<name>` →
 * `arn:<partition>:states:<region>:<account>:execution:<name>:<executionName>`.
 * Executions are named after their run, so a run's execution is found without storing its ARN.
 */
export function executionArnFor(stateMachineArn: string, executionName: string): string {
  const parts = stateMachineArn.split(":");
  if (parts.length !== 7 || parts[0] !== "arn" || parts[2] !== "states" || parts[5] !== "stateMachine") {
    throw new Error(`not a state machine ARN: ${stateMachineArn}`);
  }
  return [...parts.slice(0, 5), "execution", parts[6], executionName].join(":");
}

export interface Workflow {
  start: StartExecution;
  /** Stops the run's current execution; false when there is no such execution (never started, or unknown here). */
  stop(executionName: string, cause: string): Promise<boolean>;
  /**
   * Sends a wait state's task token back (SendTaskSuccess) so the execution continues; false when
   * the state no longer waits (it timed out, or its execution ended).
   */
  continueWith(taskToken: string): Promise<boolean>;
  /** Starts a batch's execution of the batch workflow (named after the batch). */
  startBatch(name: string, input: BatchExecutionInput): Promise<void>;
}

export class BatchWorkflowNotConfiguredError extends Error {
  override name = "BatchWorkflowNotConfiguredError";
  constructor() {
    super("BATCH_STATE_MACHINE_ARN is not configured: this API cannot start batches");
  }
}

export function createWorkflow(
  config: Pick<Config, "region" | "api" | "stateMachineArn"> & Partial<Pick<Config, "batch">>,
): Workflow {
  const stateMachineArn = config.stateMachineArn;
  const requireArn = () => {
    if (!stateMachineArn) throw new WorkflowNotConfiguredError();
    return stateMachineArn;
  };
  return {
    async start(name, input) {
      try {
        return await sfnClient(config).send(
          new StartExecutionCommand({ stateMachineArn: requireArn(), name, input: JSON.stringify(input) }),
        );
      } catch (error) {
        // The run id is new, so an existing execution of that name is this very start, retried by the
        // SDK after a lost response: the run is started.
        if (error instanceof ExecutionAlreadyExists) return undefined;
        throw error;
      }
    },
    async stop(executionName, cause) {
      try {
        await sfnClient(config).send(
          new StopExecutionCommand({
            executionArn: executionArnFor(requireArn(), executionName),
            error: "Cancelled",
            cause,
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ExecutionDoesNotExist) return false;
        throw error;
      }
    },
    async startBatch(name, input) {
      const batchArn = config.batch?.stateMachineArn;
      if (!batchArn) throw new BatchWorkflowNotConfiguredError();
      try {
        await sfnClient(config).send(
          new StartExecutionCommand({ stateMachineArn: batchArn, name, input: JSON.stringify(input) }),
        );
      } catch (error) {
        // As for runs: the batch id is new, so this is the same start retried by the SDK.
        if (error instanceof ExecutionAlreadyExists) return;
        throw error;
      }
    },
    async continueWith(taskToken) {
      try {
        // The wait states keep their input (ResultPath null): what was decided is on the run.
        await sfnClient(config).send(new SendTaskSuccessCommand({ taskToken, output: "{}" }));
        return true;
      } catch (error) {
        if (
          error instanceof TaskTimedOut ||
          error instanceof TaskDoesNotExist ||
          error instanceof InvalidToken
        ) {
          return false;
        }
        throw error;
      }
    },
  };
}
