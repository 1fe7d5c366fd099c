// Local mode of the CLI: boot the twin and make the sample documents available, then do what
// `--api` does against the twin's own API (its gateway serves the real API handler): start the run,
// follow its progress events over the WebSocket (or by polling), act on it through its routes.
// `dev` keeps the twin's gateway (API, WebSocket, dashboard) serving afterwards.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import pc from "picocolors";
import { generateSampleDocuments } from "../examples/samples.ts";
import { generateScannedSampleDocuments } from "../examples/scanned.ts";
import { localS3ClientConfig } from "../infra/local/provision.ts";
import { REPO_ROOT_URL } from "../infra/local/repo-root.ts";
import { type RecoveredRun, startTwin, type Twin, twinRequestPolicy } from "../infra/local/twin.ts";
import { InvalidRequestError } from "../lambdas/core/request.ts";
import { type RunRecord, UNFINISHED_STATUSES, WAITING_STATUSES } from "../lambdas/core/types.ts";
import { ApiClient } from "./api-client.ts";
import { type BatchCommandOptions, runBatch } from "./batch.ts";
import { type BatchInput, stageBatchDocuments } from "./batch-input.ts";
import { chatPageUrl, DEFAULT_CUSTOMER, mintCustomerToken } from "./customer-token.ts";
import { checkLocalRequest, type StagedDocument } from "./local-documents.ts";
import { type CommandOutput, EXIT_RUN_FAILED, reportProblems } from "./output.ts";
import { EXIT_INTERRUPTED, type RemoteOptions, runApiEvaluation, runApiResume } from "./remote.ts";
import { localDataDir, publishTwinApi, type RunningTwin, runningTwin } from "./twin-address.ts";
import { answerCommand, type RunAddress, rewooCommand } from "./wait-commands.ts";

/** In the data folder: the logs of the twins that `--local` commands and `rewoo dev` boot. */
export const TWIN_LOG_FILE = "twin.log";
/** What `npm start` evaluates: a signed return (all fulfilled) and an unsigned one (TR_SIGNED not fulfilled). */
const START_SAMPLES = ["examples/sample-tax-return.json", "examples/sample-unsigned-return.json"];
const POLL_MS = 50;
/** A run in one of these is being driven by an execution; anything else waits for a person or has ended. */
const MOVING_STATUSES: readonly RunRecord["status"][] = UNFINISHED_STATUSES.filter(
  (status) => !WAITING_STATUSES.includes(status),
);

type Say = (line: string) => void;

/** How printed commands reach a run of the local twin: `--local`, with the data folder when it is not the default. */
export function localAddress(env: NodeJS.ProcessEnv = process.env): RunAddress {
  return { local: true, ...(env.REWOO_DATA_DIR ? { dataDir: env.REWOO_DATA_DIR } : {}) };
}

export interface DevOptions {
  /** Gateway port on 127.0.0.1 (0: any free port). */
  port: number;
  /** Evaluate the two samples after booting. */
  sample: boolean;
  /** Stop after the samples and exit with their result, instead of serving until Ctrl-C (tests, CI). */
  exitAfterSample: boolean;
}

/** REWOO_EXIT_AFTER_SAMPLE=1 makes `npm start` behave like `rewoo start --exit` (scripts, CI). */
export function exitAfterSampleFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(1|true|yes)$/i.test(env.REWOO_EXIT_AFTER_SAMPLE ?? "");
}

/**
 * `rewoo dev` / `rewoo start` (= `npm start`): boot the twin with its gateway, evaluate the samples, then
 * serve the API, the WebSocket and the dashboard until SIGINT / SIGTERM.
 */
export async function devCommand(options: DevOptions): Promise<number> {
  const say: Say = (line) => process.stdout.write(`${line}\n`);
  const stopRequested = stopSignal();
  const twin = await bootLocalTwin(say, { port: options.port });
  const unpublish = await publishTwinApi(localDataDir(), twin.urls.api, "serving", twinDocuments(twin));
  try {
    printUrls(twin, say);
    let sampleCode = 0;
    if (options.sample) {
      const stopping = new AbortController();
      const samples = runSamples(twin, say, stopping.signal);
      const outcome = await Promise.race([samples, stopRequested.then(() => undefined)]);
      if (outcome === undefined) {
        // Stopped mid-sample: the followers stop at once (the twin still answers them), then the
        // executions are aborted by stop().
        stopping.abort();
        await samples.catch(() => undefined);
        return EXIT_INTERRUPTED;
      }
      sampleCode = outcome;
    }
    if (options.exitAfterSample) return sampleCode;
    if (options.sample) printUrls(twin, say);
    say(pc.dim("serving until Ctrl-C"));
    await stopRequested;
    say(pc.dim("stopping the local twin…"));
    return 0;
  } finally {
    await unpublish();
    await twin.stop();
  }
}

async function runSamples(twin: Twin, say: Say, signal: AbortSignal): Promise<number> {
  let exitCode = 0;
  for (const sample of START_SAMPLES) {
    if (signal.aborted) return EXIT_INTERRUPTED;
    const request = JSON.parse(readFileSync(fileURLToPath(new URL(sample, REPO_ROOT_URL)), "utf8"));
    say("");
    const code = await evaluateOnTwin(twin, request, [], { label: sample, say, json: false, signal });
    exitCode ||= code;
  }
  return exitCode;
}

function printUrls(twin: Twin, say: Say): void {
  say("");
  say(
    `${pc.bold("API")}        ${twin.urls.api}  (POST /v1/evaluate-conditions, GET /v1/runs/{run_id}, GET /health)`,
  );
  say(
    `${pc.bold("WebSocket")}  ${twin.urls.websocket}?token=<subscribe_token from the POST (a run token), or the operator token>`,
  );
  say(`${pc.bold("Dashboard")}  ${twin.urls.dashboard}?token=${twin.operatorToken}`);
  const chat = chatPageUrl(
    twin.urls.dashboard,
    mintCustomerToken(
      twin.tokenKeys.customer.current,
      DEFAULT_CUSTOMER,
      new Date(),
      twin.services.config.api.tokens.customer.maxLifetimeSeconds,
    ),
  );
  say(`${pc.bold("Chat")}       ${chat}  (the banking assistant as ${DEFAULT_CUSTOMER})`);
}

/** Resolves on the first SIGINT / SIGTERM; a second one while stopping exits at once. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      const force = () => process.exit(130);
      process.once("SIGINT", force);
      process.once("SIGTERM", force);
      resolve(signal);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

export async function runLocalEvaluation(
  input: unknown,
  options: {
    json: boolean;
    label: string;
    baseDir?: string;
    /** Ask the run's questions at the terminal (stdin and stdout are a terminal, no --json). */
    interactive?: boolean;
  },
): Promise<number> {
  const say: Say = options.json ? () => {} : (line) => process.stdout.write(`${line}\n`);
  let request: unknown;
  let staged: StagedDocument[];
  try {
    ({ request, staged } = checkLocalRequest(input, options.baseDir ?? process.cwd(), twinRequestPolicy()));
  } catch (error) {
    return reportInvalid(error, options.label);
  }
  const running = await runningTwin(localDataDir());
  if (running) {
    if (running.lifetime !== "serving") return refuseBusyFolder(running, "the run");
    const interrupt = interruptSignal();
    try {
      if (!(await uploadToServingTwin(running, staged, say))) return EXIT_RUN_FAILED;
      say(pc.dim(`through the twin serving ${localDataDir()} (pid ${running.pid}): ${running.api}`));
      return await runApiEvaluation(request, {
        ...evaluationOptions(running.api, options),
        signal: interrupt.signal,
        stopped: (runId, _client, out) => stoppedFollowingServed(runId, out),
      });
    } finally {
      interrupt.dispose();
    }
  }
  const twin = await bootLocalTwin(say);
  const unpublish = await publishTwinApi(localDataDir(), twin.urls.api, "following", twinDocuments(twin));
  const interrupt = interruptSignal();
  try {
    return await evaluateOnTwin(twin, request, staged, {
      ...options,
      say,
      signal: interrupt.signal,
      stopped: stoppedFollowing,
    });
  } finally {
    interrupt.dispose();
    await unpublish();
    await twin.stop();
  }
}

/**
 * The twin that holds the data folder belongs to a command that stops it when its own run ends: work
 * started through it would stop with it. Said in one line, exit 1.
 */
function refuseBusyFolder(running: RunningTwin, what: string): number {
  process.stderr.write(
    `${pc.red("the data folder is busy")}: ${localDataDir()} is served by the twin of another command (pid ${running.pid}), which stops when its run ends and would stop ${what} with it; try again when that command is done, or start \`npx rewoo dev\` in another terminal and run this again (it goes through that twin)\n`,
  );
  return EXIT_RUN_FAILED;
}

/** Ctrl-C while following a run of the twin that `rewoo dev` serves: the run goes on there. */
function stoppedFollowingServed(runId: string, out: CommandOutput): Promise<number> {
  const show = rewooCommand(localAddress(), ["runs", "show", runId]);
  out.stderr(
    `${pc.yellow(`stopped following ${runId}`)}: it goes on in the twin serving ${localDataDir()}; ${show} shows where it stands\n`,
  );
  return Promise.resolve(EXIT_INTERRUPTED);
}

/**
 * Aborted by the first Ctrl-C (or SIGTERM), so that the twin stops cleanly and the run stays where
 * it was for the next boot; a second one exits at once.
 */
function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    dispose();
    const force = () => process.exit(EXIT_INTERRUPTED);
    process.once("SIGINT", force);
    process.once("SIGTERM", force);
    controller.abort();
  };
  const dispose = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return { signal: controller.signal, dispose };
}

async function bootLocalTwin(say: Say, options: { port?: number } = {}): Promise<Twin> {
  const twin = await startTwin({
    ...(process.env.REWOO_DATA_DIR ? { dataDir: process.env.REWOO_DATA_DIR } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    // The functions' log lines are for a developer, the command's output for a person: apart.
    logFile: join(localDataDir(), TWIN_LOG_FILE),
  });
  const { dynamodbEndpoint, s3Endpoint } = twin.emulators;
  say(
    pc.dim(
      `local twin: dynalite ${dynamodbEndpoint}, s3rver ${s3Endpoint}, state machine statemachine/rewoo.asl.json, logs ${twin.logFile}`,
    ),
  );
  for (const line of recoveryLines(twin.recovered)) say(pc.yellow(line));
  const uploaded = await uploadSampleDocuments(twin, say);
  say(
    pc.dim(
      `uploaded ${uploaded} sample documents to s3://${twin.services.config.documentsBucket}/rm-conditions/`,
    ),
  );
  return twin;
}

/**
 * What the boot did with the runs the last twin left: the ones it moved on (resumed) or could not
 * (INTERRUPTED), and apart from them the ones that wait for a person, which a new execution only
 * takes back to their wait: nothing happens to them until someone answers or decides.
 */
export function recoveryLines(recovered: readonly RecoveredRun[]): string[] {
  const waiting = recovered.filter(
    (run) => run.outcome === "resumed" && WAITING_STATUSES.includes(run.status),
  );
  const moving = recovered.filter((run) => !waiting.includes(run));
  const lines: string[] = [];
  if (moving.length > 0) {
    const resumed = moving.filter((run) => run.outcome === "resumed").length;
    lines.push(
      `${moving.length} ${moving.length === 1 ? "run was" : "runs were"} in flight when the last twin stopped: ${resumed} resumed, ${moving.length - resumed} ended INTERRUPTED`,
    );
  }
  if (waiting.length > 0) {
    const which = waiting.map((run) => `${run.run_id} ${run.status}`).join(", ");
    const command = rewooCommand(localAddress(), ["runs", "list", "--needs-you"]);
    lines.push(
      `${waiting.length} ${waiting.length === 1 ? "run waits" : "runs wait"} for a person, as before the last twin stopped (not resumed: ${waiting.length === 1 ? "it waits" : "they wait"} for an answer or a decision): ${which}; ${command}`,
    );
  }
  return lines;
}

/**
 * Uploads the request's PDFs from disk, then evaluates it through the twin's API exactly as
 * `rewoo evaluate --api` does (the same client, follower, display and exit codes), printing what the
 * local mode always printed: no status URL (the twin stops with the command), the request's
 * problems as an invalid request.
 */
async function evaluateOnTwin(
  twin: Twin,
  request: unknown,
  staged: StagedDocument[],
  options: {
    json: boolean;
    label: string;
    say: Say;
    interactive?: boolean;
    signal?: AbortSignal;
    stopped?: (runId: string, client: ApiClient, out: CommandOutput) => Promise<number>;
  },
): Promise<number> {
  const { say } = options;
  const bucket = twin.services.config.documentsBucket;
  for (const document of staged) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
    say(pc.dim(`uploaded ${document.file} to s3://${bucket}/${document.key}`));
  }
  return runApiEvaluation(request, {
    ...evaluationOptions(twin.urls.api, options),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.stopped ? { stopped: options.stopped } : {}),
  });
}

/**
 * `rewoo evaluate --local` through a twin's API prints what the local mode always printed: no status
 * URL, the request's problems as an invalid request, the commands with `--local`.
 */
function evaluationOptions(
  api: string,
  options: { json: boolean; label: string; interactive?: boolean },
): RemoteOptions {
  return {
    api,
    json: options.json,
    label: options.label,
    // The same plain lines as `rewoo evaluate --api` prints when its output is not a terminal.
    tty: false,
    interactive: options.interactive === true,
    address: localAddress(),
    statusLine: false,
    refusalHeading: "invalid request",
  };
}

/** Ctrl-C while following: say where the run stands and how to go on with it once the twin is back. */
async function stoppedFollowing(runId: string, client: ApiClient, out: CommandOutput): Promise<number> {
  let record: RunRecord | undefined;
  try {
    record = await client.getRun(runId);
  } catch {
    // The twin is still up; should it not answer, the run's status is all that is missing.
  }
  const address = localAddress();
  const status = record?.status;
  const next =
    status === "AWAITING_INPUT" && record?.clarification
      ? `; it waits for input again at the next boot: ${answerCommand(
          address,
          runId,
          record.clarification.questions.map((question) => question.field),
        )}`
      : status === "AWAITING_APPROVAL"
        ? `; it waits for approval again at the next boot (${rewooCommand(address, ["runs", "show", runId])} shows how to decide)`
        : status && MOVING_STATUSES.includes(status)
          ? "; the next boot of the twin (rewoo dev, or any `--local` command) resumes it"
          : "";
  out.stderr(`${pc.yellow(`stopped following ${runId} (${status ?? "status unknown"})${next}`)}\n`);
  out.say("");
  return EXIT_INTERRUPTED;
}

/**
 * `rewoo runs resume <run_id> --local`: boots the twin on its data folder (which itself resumes runs
 * that were in flight when the last twin stopped), resumes a FAILED or INTERRUPTED run through the
 * twin's API (POST /v1/runs/{run_id}/resume) and follows it, like `rewoo runs resume --api`.
 */
export async function runLocalResume(runId: string, options: { json: boolean }): Promise<number> {
  const say: Say = options.json ? () => {} : (line) => process.stdout.write(`${line}\n`);
  const twin = await bootLocalTwin(say);
  try {
    return await runApiResume(runId, {
      api: twin.urls.api,
      json: options.json,
      tty: false,
      address: localAddress(),
      // Resumed by the boot already: a second resume would be refused (the run is not FAILED).
      resumed: twin.recovered.some((run) => run.run_id === runId && run.outcome === "resumed"),
    });
  } finally {
    await twin.stop();
  }
}

/**
 * Which twin a `--local` command goes through. own: booted for this command, so the run moves on only
 * while the command runs. serving: `rewoo dev` in another terminal. following: the twin of a command
 * that stops it once its run ends (so this command must not count on following the run through it).
 */
export type LocalTwinKind = "own" | "serving" | "following";

/**
 * `rewoo runs … --local`: `act` goes through the API of the twin that serves the data folder. When a
 * twin already serves it (`rewoo dev`, a `rewoo evaluate --local` that follows a run), through that
 * one; else a twin is booted for the command. Booting resumes the runs its last process left in flight
 * (a waiting run waits again with the same question), so `runId`'s run is given time to reach its
 * wait before `act` answers it.
 */
export async function withLocalApi(
  runId: string | undefined,
  options: {
    json: boolean;
    /** How a twin booted here is published: "serving" when it lives as long as a session (`rewoo mcp`). */
    publishAs?: "serving" | "following";
  },
  act: (api: string, address: RunAddress, kind: LocalTwinKind) => Promise<number>,
): Promise<number> {
  const address = localAddress();
  const running = await runningTwin(localDataDir());
  if (running) return act(running.api, address, running.lifetime);
  const say: Say = options.json ? () => {} : (line) => process.stdout.write(`${line}\n`);
  const twin = await bootLocalTwin(say);
  const unpublish = await publishTwinApi(
    localDataDir(),
    twin.urls.api,
    options.publishAs ?? "following",
    twinDocuments(twin),
  );
  try {
    if (
      runId !== undefined &&
      twin.recovered.some((run) => run.run_id === runId && run.outcome === "resumed")
    ) {
      await untilSettled(new ApiClient(twin.urls.api), runId);
    }
    return await act(twin.urls.api, address, "own");
  } finally {
    await unpublish();
    await twin.stop();
  }
}

/**
 * `rewoo batch … --local`: through the API of the twin that serves the data folder (`rewoo dev`), or
 * of one booted for the command, like `rewoo evaluate --local`. PDFs on disk are uploaded to the
 * twin's documents bucket first (a line whose file is missing or not a PDF is that line's error).
 * Stopped with Ctrl-C, a booted twin stops with the batch, which its next boot marks FAILED; a
 * serving twin keeps running it.
 */
export async function runLocalBatch(
  input: BatchInput,
  options: Omit<BatchCommandOptions, "api" | "address" | "signal" | "interruptedNote">,
): Promise<number> {
  const address = localAddress();
  const { input: staged, staged: documents } = stageBatchDocuments(input);
  const say: Say = options.json ? () => {} : (line) => process.stdout.write(`${line}\n`);
  const running = await runningTwin(localDataDir());
  if (running && running.lifetime !== "serving") return refuseBusyFolder(running, "the batch");
  const interrupt = interruptSignal();
  try {
    if (running) {
      const uploaded = await uploadToServingTwin(running, documents, say);
      if (!uploaded) return EXIT_RUN_FAILED;
      say(pc.dim(`through the twin serving ${localDataDir()} (pid ${running.pid}): ${running.api}`));
      return await runBatch(staged, { ...options, api: running.api, address, signal: interrupt.signal });
    }
    const twin = await bootLocalTwin(say);
    const unpublish = await publishTwinApi(localDataDir(), twin.urls.api, "following", twinDocuments(twin));
    try {
      const bucket = twin.services.config.documentsBucket;
      for (const document of documents) {
        await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
        say(pc.dim(`uploaded ${document.file} to s3://${bucket}/${document.key}`));
      }
      return await runBatch(staged, {
        ...options,
        api: twin.urls.api,
        address,
        signal: interrupt.signal,
        interruptedNote:
          "the batch stops with this command's twin: its next boot ends the batch FAILED and resumes the runs in flight (lines done keep their results). Leave long portfolios to `npx rewoo dev` in another terminal: `rewoo batch --local` runs through it",
      });
    } finally {
      await unpublish();
      await twin.stop();
    }
  } finally {
    interrupt.dispose();
  }
}

/** Uploads through the S3 endpoint the serving twin published; false (said why) when it published none. */
async function uploadToServingTwin(
  twin: RunningTwin,
  documents: readonly StagedDocument[],
  say: Say,
): Promise<boolean> {
  if (documents.length === 0) return true;
  if (!twin.documents) {
    process.stderr.write(
      `${pc.red("cannot upload the PDFs from disk")}: the twin serving ${localDataDir()} (pid ${twin.pid}) does not say where its documents bucket is; restart \`npx rewoo dev\` with this version\n`,
    );
    return false;
  }
  const s3 = new S3Client(localS3ClientConfig(twin.documents.s3_endpoint, "us-east-1"));
  try {
    for (const document of documents) {
      await s3.send(
        new PutObjectCommand({
          Bucket: twin.documents.bucket,
          Key: document.key,
          Body: document.bytes,
          ContentType: "application/pdf",
        }),
      );
      say(pc.dim(`uploaded ${document.file} to s3://${twin.documents.bucket}/${document.key}`));
    }
    return true;
  } finally {
    s3.destroy();
  }
}

/** What a twin publishes for other processes to upload documents to it. */
function twinDocuments(twin: Twin): RunningTwin["documents"] {
  return { s3_endpoint: twin.emulators.s3Endpoint, bucket: twin.services.config.documentsBucket };
}

/** Until no execution drives the run (read through the API): it waits for a person again, or it has ended. */
async function untilSettled(client: ApiClient, runId: string): Promise<void> {
  while (MOVING_STATUSES.includes((await client.getRun(runId)).status)) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function reportInvalid(error: unknown, label: string): number {
  if (!(error instanceof InvalidRequestError)) throw error;
  return reportProblems(error.problems, label);
}

/**
 * The sample loan files are generated, not committed: they are uploaded on every local boot. The
 * scanned copies (rm-conditions/scanned/) take about a second per page to make, so they are cached
 * under node_modules/.cache and only the first boot on a machine pays for them.
 */
async function uploadSampleDocuments(twin: Twin, say: Say): Promise<number> {
  const text = await generateSampleDocuments();
  const scanned = await generateScannedSampleDocuments({
    sources: text,
    onGenerate: () => say(pc.dim("generating the scanned sample documents (once per machine, about 15 s)")),
  });
  const documents = [...text, ...scanned];
  const bucket = twin.services.config.documentsBucket;
  await Promise.all(
    documents.map((document) =>
      twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf"),
    ),
  );
  return documents.length;
}
