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
import { mintToken } from "../../lambdas/auth/tokens.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { startRun } from "../../lambdas/runs/start-run.ts";
import { type Services, services } from "../../lambdas/runtime/services.ts";
import { type Emulators, startEmulators } from "./emulators.ts";
import { DEFAULT_STAGE, type Gateway, listenLoopback, startGateway } from "./gateway.ts";
import { provisionResources } from "./provision.ts";
import { LocalStepFunctions } from "./step-functions.ts";

export const ASL_PATH = fileURLToPath(new URL("../../statemachine/rewoo.asl.json", import.meta.url));
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
}

export interface Twin {
  services: Services;
  stepFunctions: LocalStepFunctions;
  emulators: Emulators;
  gateway: Gateway;
  urls: {
    /** Base URL of the REST API (`/v1/...`, `/health`). */
    api: string;
    /** WebSocket URL; clients add `?token=<subscribe or operator token>`. */
    websocket: string;
    /** The dashboard page (add `?token=<operatorToken>` to watch every run). */
    dashboard: string;
  };
  /** Lets a dashboard watch every run; signed with this data folder's token secret. */
  operatorToken: string;
  startRun(request: unknown, options?: { runId?: string }): Promise<{ run_id: string; executionArn: string }>;
  waitForRun(runId: string): Promise<RunRecord>;
  stop(): Promise<void>;
}

/** Who the handlers are, for the names and ARNs they are given; fixed so STATE_MACHINE_ARN is known before the machine is built. */
const REGION = "us-east-1";
const ACCOUNT_ID = "123456789012";
const STATE_MACHINE_NAME = "rewoo";
const OPERATOR_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
const TOKEN_SECRET_FILE = "token-secret";

const LOCAL_NAMES = {
  RUNS_TABLE: "rewoo-runs",
  CONNECTIONS_TABLE: "rewoo-connections",
  DOCUMENTS_BUCKET: "rewoo-documents",
  ARTIFACTS_BUCKET: "rewoo-artifacts",
};

let booted: Twin | undefined;

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
  let gateway: Gateway | undefined;
  try {
    emulators = await startEmulators({ dataDir, persist });
    const twin = await bootTwin(server, emulators, options, dataDir, persist, (started) => {
      gateway = started;
    });
    booted = twin;
    return twin;
  } catch (error) {
    // Leave nothing listening behind: the CLI would otherwise hang on a half-booted twin.
    await gateway?.close().catch(() => undefined);
    if (server.listening) await new Promise((resolve) => server.close(resolve));
    await emulators?.stop().catch(() => undefined);
    throw error;
  }
}

async function bootTwin(
  server: Server,
  emulators: Emulators,
  options: TwinOptions,
  dataDir: string,
  persist: boolean,
  onGateway: (gateway: Gateway) => void,
): Promise<Twin> {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stateMachineArn = `arn:aws:states:${REGION}:${ACCOUNT_ID}:stateMachine:${STATE_MACHINE_NAME}`;
  const tokenSecret = options.env?.REWOO_TOKEN_SECRET ?? (await localTokenSecret(dataDir, persist));
  Object.assign(process.env, {
    AWS_REGION: REGION,
    ...LOCAL_NAMES,
    DYNAMODB_ENDPOINT: emulators.dynamodbEndpoint,
    S3_ENDPOINT: emulators.s3Endpoint,
    // The API handler's SFNClient posts to `<SFN_ENDPOINT>/` (the SDK keeps the path prefix).
    SFN_ENDPOINT: `${origin}/sfn`,
    STATE_MACHINE_ARN: stateMachineArn,
    WEBSOCKET_ENDPOINT: `${origin}/${DEFAULT_STAGE}`,
    WEBSOCKET_URL: `${origin.replace(/^http/, "ws")}/ws`,
    PUBLIC_API_URL: origin,
    REWOO_TOKEN_SECRET: tokenSecret,
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "WARN",
    ...options.env,
  });
  twinTokenSecret = tokenSecret;
  await provisionResources({
    dynamodbEndpoint: emulators.dynamodbEndpoint,
    s3Endpoint: emulators.s3Endpoint,
    region: REGION,
    runsTable: LOCAL_NAMES.RUNS_TABLE,
    connectionsTable: LOCAL_NAMES.CONNECTIONS_TABLE,
    buckets: [LOCAL_NAMES.DOCUMENTS_BUCKET, LOCAL_NAMES.ARTIFACTS_BUCKET],
  });

  const [planner, worker, solver, finalize, api, ws, authorizer] = await Promise.all([
    import("../../lambdas/planner/index.ts"),
    import("../../lambdas/worker/index.ts"),
    import("../../lambdas/solver/index.ts"),
    import("../../lambdas/finalize/index.ts"),
    import("../../lambdas/api/index.ts"),
    import("../../lambdas/ws/index.ts"),
    import("../../lambdas/ws/authorizer.ts"),
  ]);
  const stepFunctions = await LocalStepFunctions.fromFile(
    ASL_PATH,
    {
      Plan: (input) => planner.handler(input as never),
      Work: (input) => worker.handler(input as never),
      Solve: (input) => solver.handler(input as never),
      Finalize: (input) => finalize.handler(input as never),
      HandleFailure: (input) => finalize.handler(input as never),
    },
    { region: REGION, accountId: ACCOUNT_ID, stateMachineName: STATE_MACHINE_NAME },
  );
  if (stepFunctions.stateMachineArn !== stateMachineArn) {
    throw new Error(
      `The twin configured STATE_MACHINE_ARN=${stateMachineArn} but the emulation is ${stepFunctions.stateMachineArn}`,
    );
  }
  const gateway = await startGateway({
    server,
    handlers: { api: api.handler, ws: ws.handler, authorizer: authorizer.handler },
    stepFunctions,
    stage: DEFAULT_STAGE,
    region: REGION,
    dashboardDir: options.dashboardDir ?? DASHBOARD_DIR,
  });
  onGateway(gateway);
  const svc = services();
  const executions = new Map<string, string>();

  const twin: Twin = {
    services: svc,
    stepFunctions,
    emulators,
    gateway,
    urls: { api: gateway.urls.api, websocket: gateway.urls.websocket, dashboard: gateway.urls.dashboard },
    operatorToken: mintToken(tokenSecret, { kind: "operator" }, OPERATOR_TOKEN_TTL_SECONDS),
    async startRun(request, startOptions = {}) {
      let executionArn = "";
      const { run_id } = await startRun(
        request,
        {
          runs: svc.runs,
          policy: svc.documentPolicy,
          startExecution: async (name, input) => {
            executionArn = stepFunctions.startExecution({ name, input }).executionArn;
          },
        },
        startOptions,
      );
      executions.set(run_id, executionArn);
      return { run_id, executionArn };
    },
    async waitForRun(runId) {
      // Runs started through the REST API are executions named after the run, like those started here.
      const executionArn =
        executions.get(runId) ?? stateMachineArn.replace(":stateMachine:", ":execution:").concat(`:${runId}`);
      await stepFunctions.waitForExecution(executionArn);
      const record = await svc.runs.getRun(runId);
      if (!record) throw new Error(`run ${runId} has no record`);
      return record;
    },
    async stop() {
      booted = undefined;
      // Executions first, while the gateway still takes their WebSocket pushes; then the clients
      // ($disconnect still reaches DynamoDB); the emulators last, once nothing uses them.
      await stepFunctions.close({ timeoutMs: 10_000 });
      await gateway.close();
      await emulators.stop();
    },
  };
  return twin;
}

let twinTokenSecret: string | undefined;

/**
 * The HMAC secret of subscribe and operator tokens. Persisted next to the data it protects, so tokens
 * (the dashboard's link, a client's subscribe token) survive a restart of `rewoo dev`; in memory for
 * a throwaway twin. A secret the user configured wins, unless it is the one a previous twin of this
 * process set.
 */
async function localTokenSecret(dataDir: string, persist: boolean): Promise<string> {
  const configured = process.env.REWOO_TOKEN_SECRET;
  if (configured && configured !== twinTokenSecret) return configured;
  if (!persist) return randomBytes(32).toString("base64url");
  const file = join(dataDir, TOKEN_SECRET_FILE);
  const existing = await readFile(file, "utf8").then(
    (text) => text.trim(),
    () => undefined,
  );
  if (existing && existing.length >= 32) return existing;
  const secret = randomBytes(32).toString("base64url");
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
