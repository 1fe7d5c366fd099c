// The local twin: dynalite + s3rver + the ASL interpreter running statemachine/rewoo.asl.json,
// with each Task state served by the SAME handler module that Lambda runs. Handlers build their
// real SDK clients from the environment, which the twin points at the emulators before the
// handlers are first used. Loopback only; nothing leaves this machine.
import { fileURLToPath } from "node:url";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { startRun } from "../../lambdas/runs/start-run.ts";
import { type Services, services } from "../../lambdas/runtime/services.ts";
import { type Emulators, startEmulators } from "./emulators.ts";
import { provisionResources } from "./provision.ts";
import { LocalStepFunctions } from "./step-functions.ts";

export const ASL_PATH = fileURLToPath(new URL("../../statemachine/rewoo.asl.json", import.meta.url));

export interface TwinOptions {
  /** Where dynalite and s3rver keep their data (default `.rewoo/`). */
  dataDir?: string;
  /** false: in-memory tables and a temporary bucket folder (tests). */
  persist?: boolean;
  /** Extra configuration (REWOO_* variables) for the handlers, e.g. the LLM provider. */
  env?: Record<string, string>;
}

export interface Twin {
  services: Services;
  stepFunctions: LocalStepFunctions;
  emulators: Emulators;
  startRun(request: unknown, options?: { runId?: string }): Promise<{ run_id: string; executionArn: string }>;
  waitForRun(runId: string): Promise<RunRecord>;
  stop(): Promise<void>;
}

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
  const emulators = await startEmulators({ dataDir, persist: options.persist ?? true });
  const region = "us-east-1";
  Object.assign(process.env, {
    AWS_REGION: region,
    ...LOCAL_NAMES,
    DYNAMODB_ENDPOINT: emulators.dynamodbEndpoint,
    S3_ENDPOINT: emulators.s3Endpoint,
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "WARN",
    ...options.env,
  });
  await provisionResources({
    dynamodbEndpoint: emulators.dynamodbEndpoint,
    s3Endpoint: emulators.s3Endpoint,
    region,
    runsTable: LOCAL_NAMES.RUNS_TABLE,
    connectionsTable: LOCAL_NAMES.CONNECTIONS_TABLE,
    buckets: [LOCAL_NAMES.DOCUMENTS_BUCKET, LOCAL_NAMES.ARTIFACTS_BUCKET],
  });

  const [planner, worker, solver, finalize] = await Promise.all([
    import("../../lambdas/planner/index.ts"),
    import("../../lambdas/worker/index.ts"),
    import("../../lambdas/solver/index.ts"),
    import("../../lambdas/finalize/index.ts"),
  ]);
  const stepFunctions = await LocalStepFunctions.fromFile(ASL_PATH, {
    Plan: (input) => planner.handler(input as never),
    Work: (input) => worker.handler(input as never),
    Solve: (input) => solver.handler(input as never),
    Finalize: (input) => finalize.handler(input as never),
    HandleFailure: (input) => finalize.handler(input as never),
  });
  const svc = services();
  const executions = new Map<string, string>();

  const twin: Twin = {
    services: svc,
    stepFunctions,
    emulators,
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
      const executionArn = executions.get(runId);
      if (!executionArn) throw new Error(`run ${runId} was not started by this twin`);
      await stepFunctions.waitForExecution(executionArn);
      const record = await svc.runs.getRun(runId);
      if (!record) throw new Error(`run ${runId} has no record`);
      return record;
    },
    async stop() {
      booted = undefined;
      // Let running handlers finish before their emulators disappear under them.
      await stepFunctions.close({ timeoutMs: 10_000 });
      await emulators.stop();
    },
  };
  booted = twin;
  return twin;
}
