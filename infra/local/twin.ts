// The local twin: dynalite + s3rver + the ASL interpreter running statemachine/rewoo.asl.json, with each
// Task state served by the SAME handler module that Lambda runs, and one loopback gateway in front of the
// REST API, the WebSocket API and Step Functions. Handlers build their real SDK clients from the
// environment, which the twin points at the emulators and the gateway before the handlers are first
// imported. Loopback only; nothing leaves this machine.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { S3Client } from "@aws-sdk/client-s3";
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from "aws-lambda";
import { checkLoanMetadata } from "../../lambdas/agents/loan/request-catalog.ts";
import {
  mintToken,
  TOKEN_AUDIENCES,
  type TokenAudience,
  type TokenKeyring,
} from "../../lambdas/auth/tokens.ts";
import { LOCAL_ALLOWED_ORIGINS } from "../../lambdas/contracts/cors.ts";
import { ENV, TOKEN_KEY_VARIABLES } from "../../lambdas/contracts/environment.ts";
import { TABLES } from "../../lambdas/contracts/tables.ts";
import { type RequestPolicy, validateRequest } from "../../lambdas/core/request.ts";
import { isTerminal, type RunRecord, type RunStatus } from "../../lambdas/core/types.ts";
import { resumeRun } from "../../lambdas/runs/resume-run.ts";
import { startRun } from "../../lambdas/runs/start-run.ts";
import { parseConfig } from "../../lambdas/runtime/config.ts";
import { setLogOutput } from "../../lambdas/runtime/logger.ts";
import { locationPolicies, type Services, services } from "../../lambdas/runtime/services.ts";
import { executionNameOf } from "../../lambdas/store/runs.ts";
import { seedDemoBank } from "./banking-demo.ts";
import { type DistributedWorkflow, loadDistributedWorkflow } from "./distributed-map.ts";
import { LocalDynamoDbStreams } from "./dynamodb-streams.ts";
import { type Emulators, startEmulators } from "./emulators.ts";
import { LocalEventBus } from "./event-bridge.ts";
import { DEFAULT_STAGE, type Gateway, listenLoopback, type StreamHandler, startGateway } from "./gateway.ts";
import { installResponseStreaming } from "./lambda-response-streaming.ts";
import { LambdaPool, LambdaThread } from "./lambda-thread.ts";
import { localS3ClientConfig, provisionResources } from "./provision.ts";
import { LocalStepFunctions } from "./step-functions.ts";
import {
  startTextractEmulator,
  type TextractEmulator,
  type TextractEmulatorOptions,
} from "./textract-emulator.ts";
import { openTwinLog, type TwinLog } from "./twin-log.ts";

export const ASL_PATH = fileURLToPath(new URL("../../statemachine/rewoo.asl.json", import.meta.url));
export const BATCH_ASL_PATH = fileURLToPath(new URL("../../statemachine/batch.asl.json", import.meta.url));
export const DASHBOARD_DIR = fileURLToPath(new URL("../../dashboard/", import.meta.url));

export interface TwinOptions {
  /** Where dynalite and s3rver keep their data (default `.rewoo/`). */
  dataDir?: string;
  /** false: in-memory tables and a temporary bucket folder (tests). */
  persist?: boolean;
  /** Extra configuration (REWOO_* variables) for the handlers, e.g. the LLM provider. */
  env?: Record<string, string>;
  /** Port of the gateway (REST, WebSocket, dashboard, Step Functions API) on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Static files served at `/` (default `dashboard/`). */
  dashboardDir?: string;
  /** Milliseconds to wait before each retry, per state name (tests use 0 instead of the ASL's backoff). */
  retryIntervalOverrides?: Record<string, number>;
  /**
   * Work invocations run in this many environments of their own (worker threads, as Lambda runs
   * concurrent invocations), so one step's PDF parsing does not hold up the rest of the twin. 0
   * (default): in the twin's thread, where tests can reach the worker's services.
   */
  workerEnvironments?: number;
  /**
   * Amazon Textract emulated on loopback (textract-emulator.ts), so that scans are read through the
   * deployed path: the worker's Textract client, its asynchronous job, pagination and the Work
   * state's OcrPending retry. It starts when the handlers' OCR engine is textract (REWOO_OCR_ENGINE in
   * `env` or in the process's environment) and no TEXTRACT_ENDPOINT is configured; these settings
   * tune it. The twin's default engine stays tesseract called directly: the emulator reads every page
   * (as Textract does, text pages too) and the worker polls it, which only adds time offline.
   */
  textract?: Pick<TextractEmulatorOptions, "minInProgress" | "concurrentJobs" | "jobsKept">;
  /**
   * Append the twin's logs to this file instead of stdout and stderr: the functions' Powertools
   * lines (from their worker threads too), the gateway's failures with their stack traces, the
   * twin's own warnings. The CLI's `--local` commands use `<data folder>/twin.log`, so that their
   * output stays what a person reads. A file above 10 MB is moved to `<file>.1` first.
   */
  logFile?: string;
}

export interface Twin {
  services: Services;
  stepFunctions: LocalStepFunctions;
  /** The batch workflow (statemachine/batch.asl.json) and its Distributed Map's item processor. */
  batchWorkflow: DistributedWorkflow;
  /** The runs table's stream and its consumer (the push function), as Lambda's event source mapping runs it. */
  streams: LocalDynamoDbStreams;
  /** The default event bus with the workflow's execution-status rule. */
  eventBus: LocalEventBus;
  /** What boot found in flight from a previous process on the same data, and what became of it. */
  recovered: RecoveredRun[];
  emulators: Emulators;
  /** The Textract emulator, when the OCR engine is textract (TwinOptions.textract); stopped with the twin. */
  textract?: TextractEmulator;
  gateway: Gateway;
  urls: {
    /** Base URL of the REST API (`/v1/...`, `/health`). */
    api: string;
    /** WebSocket URL; clients add `?token=<run (subscribe) or operator token>`. */
    websocket: string;
    /** The dashboard page (add `?token=<operatorToken>` to watch every run). */
    dashboard: string;
  };
  /** Lets a dashboard watch every run; signed with this data folder's operator key, valid the operator maximum lifetime. */
  operatorToken: string;
  /**
   * The current key of each token audience the handlers sign and verify with (configured, else this
   * data folder's `token-keys/<audience>`): for minting a demo customer's token, or checking a run's.
   */
  tokenKeys: Required<TokenKeyring>;
  startRun(request: unknown, options?: { runId?: string }): Promise<{ run_id: string; executionArn: string }>;
  /** StartExecution on the twin's Step Functions (what the API's SFN client reaches through the gateway). */
  startExecution(name: string, input: { run_id: string }): Promise<{ executionArn: string }>;
  /** Resolves with the run record once the run has ended (following its resumes). */
  waitForRun(runId: string): Promise<RunRecord>;
  /** Resolves when every stream record and bus event written so far has been handled. */
  settled(): Promise<void>;
  /** TwinOptions.logFile, when the logs go there. */
  logFile?: string;
  stop(): Promise<void>;
}

export interface RecoveredRun {
  run_id: string;
  /** resumed: a new execution continues it; interrupted: it could not be, and ended INTERRUPTED. */
  outcome: "resumed" | "interrupted";
  /**
   * The run's status when the twin found it. A run that was waiting for a person (AWAITING_INPUT,
   * AWAITING_APPROVAL) is not moved on by its new execution: it asks again and waits.
   */
  status: RunStatus;
  detail: string;
}

/** Who the handlers are, for the names and ARNs they are given; fixed so STATE_MACHINE_ARN is known before the machine is built. */
const REGION = "us-east-1";
const ACCOUNT_ID = "123456789012";
const STATE_MACHINE_NAME = "rewoo";
const BATCH_STATE_MACHINE_NAME = "batch";
/** One file per audience under the data folder, so that rotating one (deleting its file) signs nobody else out. */
const TOKEN_KEYS_DIR = "token-keys";

const LOCAL_NAMES = {
  [ENV.RUNS_TABLE]: "rewoo-runs",
  [ENV.CONNECTIONS_TABLE]: "rewoo-connections",
  [ENV.CORE_BANKING_TABLE]: "rewoo-core-banking",
  [ENV.DOCUMENTS_BUCKET]: "rewoo-documents",
  [ENV.ARTIFACTS_BUCKET]: "rewoo-artifacts",
};

let booted: Twin | undefined;

/**
 * The policy the twin's API will check requests with, without booting it: what `rewoo evaluate --local`
 * checks a request file against before it starts anything.
 */
export function twinRequestPolicy(env: NodeJS.ProcessEnv = process.env): RequestPolicy {
  const { documentPolicy, resultPolicy } = locationPolicies(parseConfig({ ...env, ...LOCAL_NAMES }));
  return { documents: documentPolicy, results: resultPolicy, metadataProblems: checkLoanMetadata };
}

/**
 * Boots the twin. The handlers' configuration is per process (like a Lambda container), so one
 * process hosts one twin; a second call returns the running one.
 */
export async function startTwin(options: TwinOptions = {}): Promise<Twin> {
  if (booted) return booted;
  const dataDir = options.dataDir ?? ".rewoo";
  const persist = options.persist ?? true;
  // Bind first: a taken port should fail before anything else starts, and the handlers' configuration
  // (WEBSOCKET_ENDPOINT, SFN_ENDPOINT, ...) needs the real port when 0 asked for any free one.
  const server = await listenLoopback(options.port ?? 0, "127.0.0.1");
  let emulators: Emulators | undefined;
  let textract: TextractEmulator | undefined;
  let gateway: Gateway | undefined;
  let log: TwinLog | undefined;
  try {
    emulators = await startEmulators({ dataDir, persist });
    // Opened once the data folder is this process's (the emulators lock it).
    if (options.logFile) {
      log = await openTwinLog(options.logFile);
      setLogOutput(log.stream);
    }
    textract = await startTextractFor(options, emulators);
    const twin = await bootTwin(server, emulators, textract, options, dataDir, persist, log, (started) => {
      gateway = started;
    });
    booted = twin;
    return twin;
  } catch (error) {
    // Leave nothing listening behind: the CLI would otherwise hang on a half-booted twin.
    await gateway?.close().catch(() => undefined);
    if (server.listening) await new Promise((resolve) => server.close(resolve));
    await textract?.stop().catch(() => undefined);
    await emulators?.stop().catch(() => undefined);
    await closeLog(log);
    throw error;
  }
}

async function closeLog(log: TwinLog | undefined): Promise<void> {
  if (!log) return;
  setLogOutput(undefined);
  await log.close();
}

async function bootTwin(
  server: Server,
  emulators: Emulators,
  textract: TextractEmulator | undefined,
  options: TwinOptions,
  dataDir: string,
  persist: boolean,
  log: TwinLog | undefined,
  onGateway: (gateway: Gateway) => void,
): Promise<Twin> {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stateMachineArn = `arn:aws:states:${REGION}:${ACCOUNT_ID}:stateMachine:${STATE_MACHINE_NAME}`;
  const batchStateMachineArn = `arn:aws:states:${REGION}:${ACCOUNT_ID}:stateMachine:${BATCH_STATE_MACHINE_NAME}`;
  const tokenKeys = await localTokenKeys(options.env ?? {}, dataDir, persist);
  Object.assign(
    process.env,
    twinEnvironment(origin, stateMachineArn, batchStateMachineArn, emulators, textract, tokenKeys, options),
  );
  twinTokenKeys = tokenKeys;
  twinTextractEndpoint = textract?.endpoint;
  await provisionResources({
    dynamodbEndpoint: emulators.dynamodbEndpoint,
    s3Endpoint: emulators.s3Endpoint,
    region: REGION,
    runsTable: LOCAL_NAMES.RUNS_TABLE,
    connectionsTable: LOCAL_NAMES.CONNECTIONS_TABLE,
    coreBankingTable: LOCAL_NAMES.CORE_BANKING_TABLE,
    buckets: [LOCAL_NAMES.DOCUMENTS_BUCKET, LOCAL_NAMES.ARTIFACTS_BUCKET],
    // The dashboard uploads and reads documents with presigned URLs from the API's allowed origins.
    browserAccess: {
      buckets: [LOCAL_NAMES.DOCUMENTS_BUCKET],
      origins: (process.env[ENV.REWOO_ALLOWED_ORIGINS] ?? LOCAL_ALLOWED_ORIGINS.join(",")).split(","),
    },
  });
  await seedDemoBank({
    dynamodbEndpoint: emulators.dynamodbEndpoint,
    region: REGION,
    table: LOCAL_NAMES.CORE_BANKING_TABLE,
  });
  // In AWS the runs table has a stream; dynalite has none, so the twin records one from its writes.
  const streams = new LocalDynamoDbStreams(REGION, ACCOUNT_ID);
  streams.attach(emulators.dynamodbServer, {
    [LOCAL_NAMES.RUNS_TABLE]: [TABLES.runs.partitionKey.name, TABLES.runs.sortKey.name],
  });

  const logLine = log ? log.line : (line: string) => process.stderr.write(`${line}\n`);
  const warn = (message: string, extra: Record<string, unknown>) =>
    logLine(`[rewoo twin] ${message} ${JSON.stringify(extra)}`);
  const handlers = await loadHandlers();
  const { api, ws, authorizer, stream } = handlers;
  const { pushFunction, workerPool, stepFunctions, batchWorkflow } = await startWorkflows(
    handlers,
    streams,
    stateMachineArn,
    options,
    log,
    warn,
  );
  const gateway = await startGateway({
    server,
    handlers: {
      api: api.handler,
      stream: stream.handler as StreamHandler,
      ws: ws.handler,
      authorizer: authorizer.handler,
    },
    stepFunctions: [stepFunctions, ...batchWorkflow.machines],
    stage: DEFAULT_STAGE,
    region: REGION,
    dashboardDir: options.dashboardDir ?? DASHBOARD_DIR,
    log: logLine,
  });
  onGateway(gateway);
  const svc = services();
  const eventBus = routeExecutionEvents(
    handlers,
    stepFunctions,
    batchWorkflow,
    stateMachineArn,
    batchStateMachineArn,
    warn,
  );
  const startExecution = async (name: string, input: { run_id: string }) =>
    stepFunctions.startExecution({ name, input });
  const recovered = await recoverRuns(svc, startExecution);
  await closeInterruptedBatches(svc, warn);

  const twin: Twin = {
    services: svc,
    stepFunctions,
    batchWorkflow,
    streams,
    eventBus,
    recovered,
    startExecution,
    emulators,
    ...(textract ? { textract } : {}),
    gateway,
    urls: { api: gateway.urls.api, websocket: gateway.urls.websocket, dashboard: gateway.urls.dashboard },
    operatorToken: mintToken(
      { operator: { current: tokenKeys.operator } },
      { kind: "operator" },
      svc.config.api.tokens.operator.maxLifetimeSeconds,
    ),
    tokenKeys: {
      customer: { current: tokenKeys.customer },
      run: { current: tokenKeys.run },
      operator: { current: tokenKeys.operator },
    },
    ...runControls(svc, stepFunctions, eventBus, stateMachineArn, startExecution),
    ...(log ? { logFile: log.file } : {}),
    async settled() {
      await eventBus.idle();
      await streams.idle();
    },
    async stop() {
      booted = undefined;
      // Executions first, while the gateway still takes their WebSocket pushes; then the clients
      // ($disconnect still reaches DynamoDB); the emulators last, once nothing uses them.
      // Batches first: a Map Run would otherwise start child executions into a closing twin.
      await batchWorkflow.close({ timeoutMs: 10_000 });
      await stepFunctions.close({ timeoutMs: 10_000 });
      await eventBus.idle();
      await streams.close();
      await pushFunction.close();
      await workerPool?.close();
      await gateway.close();
      // Before S3: a job it is reading still reads its document there.
      await textract?.stop();
      await emulators.stop();
      await closeLog(log);
    },
  };
  return twin;
}

/** The handlers' configuration: the emulators' and the gateway's endpoints, the local names, the token keys. */
function twinEnvironment(
  origin: string,
  stateMachineArn: string,
  batchStateMachineArn: string,
  emulators: Emulators,
  textract: TextractEmulator | undefined,
  tokenKeys: Record<TokenAudience, string>,
  options: TwinOptions,
): Record<string, string> {
  return {
    [ENV.AWS_REGION]: REGION,
    ...LOCAL_NAMES,
    [ENV.DYNAMODB_ENDPOINT]: emulators.dynamodbEndpoint,
    [ENV.S3_ENDPOINT]: emulators.s3Endpoint,
    // The API handler's SFNClient posts to `<SFN_ENDPOINT>/` (the SDK keeps the path prefix).
    [ENV.SFN_ENDPOINT]: `${origin}/sfn`,
    [ENV.STATE_MACHINE_ARN]: stateMachineArn,
    [ENV.BATCH_STATE_MACHINE_ARN]: batchStateMachineArn,
    [ENV.WEBSOCKET_ENDPOINT]: `${origin}/${DEFAULT_STAGE}`,
    [ENV.WEBSOCKET_URL]: `${origin.replace(/^http/, "ws")}/ws`,
    [ENV.PUBLIC_API_URL]: origin,
    // A page served from another local port (a dev server, a static host) may call the REST API.
    [ENV.REWOO_ALLOWED_ORIGINS]: process.env[ENV.REWOO_ALLOWED_ORIGINS] ?? LOCAL_ALLOWED_ORIGINS.join(","),
    ...Object.fromEntries(
      TOKEN_AUDIENCES.map((audience) => [TOKEN_KEY_VARIABLES[audience].secret, tokenKeys[audience]]),
    ),
    // The twin's operator is the person at this machine, chatting as its demo customers: the run view
    // shows their conversations. A deployed API keeps chats to their customers unless configured.
    [ENV.REWOO_CHAT_TRANSCRIPTS]: process.env[ENV.REWOO_CHAT_TRANSCRIPTS] ?? "officers",
    [ENV.POWERTOOLS_LOG_LEVEL]: process.env[ENV.POWERTOOLS_LOG_LEVEL] ?? "WARN",
    // Offline, scanned pages are read by tesseract.js (no AWS account, no download).
    [ENV.REWOO_OCR_ENGINE]: process.env[ENV.REWOO_OCR_ENGINE] ?? "tesseract",
    // With the emulated Textract, the deployed path: document analysis with SIGNATURES, as the stack sets it.
    ...(textract
      ? {
          [ENV.TEXTRACT_ENDPOINT]: textract.endpoint,
          [ENV.REWOO_TEXTRACT_SIGNATURES]: process.env[ENV.REWOO_TEXTRACT_SIGNATURES] ?? "true",
        }
      : {}),
    ...options.env,
  };
}

/** The handler modules Lambda runs, imported once the environment points them at the twin. */
async function loadHandlers() {
  // The stream function calls the runtime's `awslambda.streamifyResponse` as it loads: the global first.
  installResponseStreaming();
  const [planner, worker, solver, finalize, api, ws, authorizer, push, executionStatus, batch, stream] =
    await Promise.all([
      import("../../lambdas/planner/index.ts"),
      import("../../lambdas/worker/index.ts"),
      import("../../lambdas/solver/index.ts"),
      import("../../lambdas/finalize/index.ts"),
      import("../../lambdas/api/index.ts"),
      import("../../lambdas/ws/index.ts"),
      import("../../lambdas/ws/authorizer.ts"),
      import("../../lambdas/ws/push.ts"),
      import("../../lambdas/finalize/execution-status.ts"),
      import("../../lambdas/batch/index.ts"),
      import("../../lambdas/stream/index.ts"),
    ]);
  return { planner, worker, solver, finalize, api, ws, authorizer, push, executionStatus, batch, stream };
}

type TwinHandlers = Awaited<ReturnType<typeof loadHandlers>>;

/**
 * The functions the workflows invoke and the workflows themselves: the push function on the runs
 * table's stream, the evaluation workflow (rewoo.asl.json) and the batch workflow (batch.asl.json).
 */
async function startWorkflows(
  { planner, worker, solver, finalize, push, batch }: TwinHandlers,
  streams: LocalDynamoDbStreams,
  stateMachineArn: string,
  options: TwinOptions,
  log: TwinLog | undefined,
  warn: (message: string, extra: Record<string, unknown>) => void,
) {
  // The push function's work grows with the dashboards watching, so it runs in an environment of
  // its own, as in AWS: dashboards do not slow a run down.
  const pushFunction = new LambdaThread<DynamoDBStreamEvent, DynamoDBBatchResponse>(
    new URL("../../lambdas/ws/push.ts", import.meta.url),
    "handler",
    {},
    log?.stream,
  );
  pushFunction.warm();
  const workerPool = options.workerEnvironments
    ? new LambdaPool<unknown, unknown>(
        new URL("../../lambdas/worker/index.ts", import.meta.url),
        options.workerEnvironments,
        "handler",
        log?.stream,
      )
    : undefined;
  workerPool?.warm();
  // The push function's event source mapping (infra/stacks: the same filter, batch size and retries).
  streams.addEventSourceMapping({
    tableName: LOCAL_NAMES.RUNS_TABLE,
    handler: (event) => pushFunction.invoke(event),
    filters: push.PUSH_STREAM_FILTERS,
    batchSize: 100,
    maxRetries: 2,
    onDiscard: (records, error) =>
      warn("stream records given up on (live delivery resumes with the next event or a re-subscribe)", {
        records: records.length,
        error: String(error),
      }),
  });
  const stepFunctions = await LocalStepFunctions.fromFile(
    ASL_PATH,
    {
      Plan: (input) => planner.handler(input as never),
      ReviewPlan: (input) => planner.handler(input as never),
      // The wait states invoke the planner with their Payload (lambda:invoke.waitForTaskToken).
      AwaitInput: (input) => planner.handler(input as never),
      AwaitApproval: (input) => planner.handler(input as never),
      WaitTimedOut: (input) => planner.handler(input as never),
      Replan: (input) => planner.handler(input as never),
      Work: workerPool ? (input) => workerPool.invoke(input) : (input) => worker.handler(input as never),
      Solve: (input) => solver.handler(input as never),
      ReviewResult: (input) => solver.handler(input as never),
      Finalize: (input) => finalize.handler(input as never),
      HandleFailure: (input) => finalize.handler(input as never),
    },
    {
      region: REGION,
      accountId: ACCOUNT_ID,
      stateMachineName: STATE_MACHINE_NAME,
      ...(options.retryIntervalOverrides ? { retryIntervalOverrides: options.retryIntervalOverrides } : {}),
    },
  );
  if (stepFunctions.stateMachineArn !== stateMachineArn) {
    throw new Error(
      `The twin configured STATE_MACHINE_ARN=${stateMachineArn} but the emulation is ${stepFunctions.stateMachineArn}`,
    );
  }
  // The same batch.asl.json as in AWS; the Distributed Map and its child executions are emulated.
  const batchWorkflow = await loadDistributedWorkflow(
    BATCH_ASL_PATH,
    {
      StartLine: (input) => batch.handler(input),
      RecordLine: (input) => batch.handler(input),
      FinishBatch: (input) => batch.handler(input),
      FailBatch: (input) => batch.handler(input),
    },
    {
      region: REGION,
      accountId: ACCOUNT_ID,
      stateMachineName: BATCH_STATE_MACHINE_NAME,
      substitutions: { RewooStateMachineArn: stateMachineArn },
      s3: services().clients.s3,
      targets: [stepFunctions],
      ...(options.retryIntervalOverrides ? { retryIntervalOverrides: options.retryIntervalOverrides } : {}),
    },
  );
  return { pushFunction, workerPool, stepFunctions, batchWorkflow };
}

/** Executions' status changes, routed through a local EventBridge as the stack's rules route them. */
function routeExecutionEvents(
  { finalize, batch, executionStatus }: TwinHandlers,
  stepFunctions: LocalStepFunctions,
  batchWorkflow: DistributedWorkflow,
  stateMachineArn: string,
  batchStateMachineArn: string,
  warn: (message: string, extra: Record<string, unknown>) => void,
): LocalEventBus {
  // Executions that end outside the workflow (stopped, timed out, failure handler out of retries) reach
  // the finalize function through EventBridge, as in AWS.
  const eventBus = new LocalEventBus(REGION, ACCOUNT_ID);
  eventBus.addRule({
    name: "ExecutionEnded",
    // Narrowed to the evaluation workflow, as the CDK stack narrows it.
    pattern: {
      ...executionStatus.EXECUTION_ENDED_PATTERN,
      detail: { ...executionStatus.EXECUTION_ENDED_PATTERN.detail, stateMachineArn: [stateMachineArn] },
    },
    target: (event) => finalize.handler(event as never),
    retryAttempts: 3,
    onDeadLetter: (event, error) =>
      warn("execution status event not delivered", { id: event.id, error: String(error) }),
  });
  // A stopped or timed-out batch is closed by the batch function, as the stack's BatchEndedRule does.
  eventBus.addRule({
    name: "BatchExecutionEnded",
    pattern: {
      ...executionStatus.EXECUTION_ENDED_PATTERN,
      detail: { ...executionStatus.EXECUTION_ENDED_PATTERN.detail, stateMachineArn: [batchStateMachineArn] },
    },
    target: (event) => batch.handler(event),
    retryAttempts: 3,
    onDeadLetter: (event, error) =>
      warn("batch status event not delivered", { id: event.id, error: String(error) }),
  });
  batchWorkflow.root.onStatusChange((detail) =>
    eventBus.put({
      source: "aws.states",
      detailType: executionStatus.EXECUTION_STATUS_CHANGE,
      resources: [detail.executionArn],
      detail,
    }),
  );
  stepFunctions.onStatusChange((detail) =>
    eventBus.put({
      source: "aws.states",
      detailType: executionStatus.EXECUTION_STATUS_CHANGE,
      resources: [detail.executionArn],
      detail,
    }),
  );
  return eventBus;
}

/** Twin.startRun and Twin.waitForRun: a run started as the API starts it, and followed to its end. */
function runControls(
  svc: Services,
  stepFunctions: LocalStepFunctions,
  eventBus: LocalEventBus,
  stateMachineArn: string,
  startExecution: Twin["startExecution"],
): Pick<Twin, "startRun" | "waitForRun"> {
  return {
    async startRun(request, startOptions = {}) {
      let executionArn = "";
      // Validated here, where the request enters, with the API's policy: the twin accepts what it would.
      const validated = validateRequest(request, {
        documents: svc.documentPolicy,
        results: svc.resultPolicy,
        metadataProblems: checkLoanMetadata,
      });
      const { run_id } = await startRun(
        validated,
        {
          runs: svc.runs,
          startExecution: async (name, input) => {
            executionArn = (await startExecution(name, input)).executionArn;
          },
        },
        startOptions,
      );
      return { run_id, executionArn };
    },
    async waitForRun(runId) {
      for (;;) {
        const meta = await svc.runs.getMeta(runId);
        const executionArn = stateMachineArn
          .replace(":stateMachine:", ":execution:")
          .concat(`:${executionNameOf(meta)}`);
        try {
          await stepFunctions.waitForExecution(executionArn);
        } catch (error) {
          if ((error as Error).name !== "ExecutionDoesNotExist") throw error;
        }
        // An execution that ended outside the workflow is closed by the bus's finalize delivery.
        await eventBus.idle();
        const now = await svc.runs.getMeta(runId);
        if (executionNameOf(now) !== executionNameOf(meta)) continue; // resumed meanwhile: follow it
        if (isTerminal(now.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const record = await svc.runs.getRun(runId);
      if (!record) throw new Error(`run ${runId} has no record`);
      return record;
    },
  };
}

/**
 * Runs whose executions died with a previous process on the same data (a crash, a kill, a shutdown
 * with runs in flight). In AWS executions outlive any process; here they are resumed: a new execution
 * for the same run, which reuses the stored plan, evidence and result, so finished work is not redone.
 * A run that cannot be resumed (it already ran MAX_ATTEMPTS times, or its execution will not start)
 * ends INTERRUPTED with its `complete` event, and `rewoo runs resume` may try it again later.
 */
async function recoverRuns(
  svc: Services,
  startExecution: (name: string, input: { run_id: string }) => Promise<unknown>,
): Promise<RecoveredRun[]> {
  const recovered: RecoveredRun[] = [];
  for (const meta of await svc.runs.listUnfinishedRuns()) {
    const runId = meta.run_id;
    try {
      const resumed = await resumeRun(
        runId,
        { runs: svc.runs, publisher: svc.publisher, startExecution },
        { reason: "the local twin restarted while the run was in flight", orphaned: true },
      );
      recovered.push({
        run_id: runId,
        outcome: "resumed",
        status: meta.status,
        detail: `attempt ${resumed.attempt}`,
      });
    } catch (error) {
      const cause = (error as Error).message;
      const error_ = {
        error: "Interrupted",
        cause: `the local twin stopped while the run was in flight; ${cause}`,
      };
      if (await svc.runs.updateRun(runId, { status: "INTERRUPTED", error: error_ })) {
        await svc.publisher.publish(runId, {
          stage: "complete",
          status: "INTERRUPTED",
          error: `${error_.error}: ${error_.cause}`,
        });
      }
      recovered.push({ run_id: runId, outcome: "interrupted", status: meta.status, detail: cause });
    }
  }
  return recovered;
}

/**
 * Batches whose execution died with a previous process. Their runs in flight were resumed one by one
 * (recoverRuns); the batch itself cannot be continued here (its Map Run's child executions are gone),
 * so it ends FAILED saying so, and its unfinished lines read NOT_RUN / STOPPED.
 */
async function closeInterruptedBatches(
  svc: Services,
  warn: (message: string, extra: Record<string, unknown>) => void,
): Promise<void> {
  for (const batchId of await svc.batches.listRunning()) {
    await svc.batches.finish(batchId, {
      status: "FAILED",
      error: {
        error: "Interrupted",
        cause:
          "the local twin stopped while the batch ran; runs in flight were resumed on their own, lines not yet started were not run",
      },
    });
    warn("batch interrupted by a restart", { batch_id: batchId });
  }
}

/** The keys a previous twin of this process put in the environment: not ones the user configured. */
let twinTokenKeys: Partial<Record<TokenAudience, string>> = {};
/** The endpoint a previous twin of this process set: not one the user configured. */
let twinTextractEndpoint: string | undefined;

/**
 * The Textract emulator, when the handlers will read scans with Textract and no endpoint is
 * configured (in the twin the regional endpoint could not read the twin's S3 anyway). It reads the
 * documents from the twin's s3rver with a client of its own, destroyed when it stops.
 */
async function startTextractFor(
  options: TwinOptions,
  emulators: Emulators,
): Promise<TextractEmulator | undefined> {
  const engine = options.env?.[ENV.REWOO_OCR_ENGINE] ?? process.env[ENV.REWOO_OCR_ENGINE] ?? "tesseract";
  const endpoint = process.env[ENV.TEXTRACT_ENDPOINT];
  const configured =
    options.env?.[ENV.TEXTRACT_ENDPOINT] ?? (endpoint !== twinTextractEndpoint ? endpoint : undefined);
  if (engine !== "textract" || configured) return undefined;
  const s3 = new S3Client(localS3ClientConfig(emulators.s3Endpoint, REGION));
  const emulator = await startTextractEmulator({ s3, ...options.textract }).catch((error: unknown) => {
    s3.destroy();
    throw error;
  });
  const stop = emulator.stop;
  emulator.stop = async () => {
    await stop();
    s3.destroy();
  };
  return emulator;
}

/**
 * The HMAC key of each token audience. Persisted next to the data it protects, one file per
 * audience, so tokens (the dashboard's link, a client's run token) survive a restart of `rewoo dev`;
 * in memory for a throwaway twin. A key given in the twin's options or configured by the user wins,
 * unless it is the one a previous twin of this process set.
 */
async function localTokenKeys(
  given: Record<string, string>,
  dataDir: string,
  persist: boolean,
): Promise<Record<TokenAudience, string>> {
  const entries = await Promise.all(
    TOKEN_AUDIENCES.map(async (audience) => {
      const name = TOKEN_KEY_VARIABLES[audience].secret;
      const configured = process.env[name];
      const key =
        given[name] ??
        (configured && configured !== twinTokenKeys[audience]
          ? configured
          : await localTokenKey(audience, dataDir, persist));
      return [audience, key] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<TokenAudience, string>;
}

async function localTokenKey(audience: TokenAudience, dataDir: string, persist: boolean): Promise<string> {
  if (!persist) return randomBytes(32).toString("base64url");
  const file = join(dataDir, TOKEN_KEYS_DIR, audience);
  const existing = await readFile(file, "utf8").then(
    (text) => text.trim(),
    () => undefined,
  );
  if (existing && existing.length >= 32) return existing;
  const key = randomBytes(32).toString("base64url");
  // Owner-only like the data beside it (the emulators also tighten a folder created before).
  await mkdir(join(dataDir, TOKEN_KEYS_DIR), { recursive: true, mode: 0o700 });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}
