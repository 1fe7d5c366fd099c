// Local mode of the CLI: boot the twin, make the sample documents available, start a run and
// follow its progress events from the runs table (the same events a dashboard receives); `dev`
// keeps the twin's gateway (API, WebSocket, dashboard) serving afterwards.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pc from "picocolors";
import { generateSampleDocuments } from "../examples/samples.ts";
import { startTwin, type Twin } from "../infra/local/twin.ts";
import { InvalidRequestError } from "../lambdas/core/request.ts";
import type { RunRecord } from "../lambdas/core/types.ts";
import { ResumeRefusedError, resumeRun } from "../lambdas/runs/resume-run.ts";
import { contiguousAfter } from "../lambdas/store/events.ts";
import { RunNotFoundError } from "../lambdas/store/runs.ts";
import { type StagedDocument, stageLocalDocuments } from "./local-documents.ts";
import { EXIT_INVALID_INPUT, reportProblems, reportRun } from "./output.ts";
import { PlainView } from "./view.ts";

/** What `npm start` evaluates: a signed return (all fulfilled) and an unsigned one (TR_SIGNED not fulfilled). */
const START_SAMPLES = ["examples/sample-tax-return.json", "examples/sample-unsigned-return.json"];
const POLL_MS = 50;

type Say = (line: string) => void;

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
  try {
    printUrls(twin, say);
    let sampleCode = 0;
    if (options.sample) {
      const samples = runSamples(twin, say);
      const outcome = await Promise.race([samples, stopRequested.then(() => undefined)]);
      if (outcome === undefined) {
        // Stopped mid-sample: the executions are aborted by stop(); their followers end with them.
        samples.catch(() => undefined);
        return 130;
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
    await twin.stop();
  }
}

async function runSamples(twin: Twin, say: Say): Promise<number> {
  let exitCode = 0;
  for (const sample of START_SAMPLES) {
    const request = JSON.parse(readFileSync(fileURLToPath(new URL(`../${sample}`, import.meta.url)), "utf8"));
    say("");
    const code = await evaluateOnTwin(twin, request, [], { label: sample, say, json: false });
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
    `${pc.bold("WebSocket")}  ${twin.urls.websocket}?token=<subscribe_token from the POST, or the operator token>`,
  );
  say(`${pc.bold("Dashboard")}  ${twin.urls.dashboard}?token=${twin.operatorToken}`);
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
  options: { json: boolean; label: string; baseDir?: string },
): Promise<number> {
  const say: Say = options.json ? () => {} : (line) => process.stdout.write(`${line}\n`);
  let request: unknown;
  let staged: StagedDocument[];
  try {
    ({ request, staged } = stageLocalDocuments(input, options.baseDir ?? process.cwd()));
  } catch (error) {
    return reportInvalid(error, options.label);
  }
  const twin = await bootLocalTwin(say);
  try {
    return await evaluateOnTwin(twin, request, staged, { ...options, say });
  } finally {
    await twin.stop();
  }
}

async function bootLocalTwin(say: Say, options: { port?: number } = {}): Promise<Twin> {
  const twin = await startTwin({
    ...(process.env.REWOO_DATA_DIR ? { dataDir: process.env.REWOO_DATA_DIR } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
  const { dynamodbEndpoint, s3Endpoint } = twin.emulators;
  say(
    pc.dim(
      `local twin: dynalite ${dynamodbEndpoint}, s3rver ${s3Endpoint}, state machine statemachine/rewoo.asl.json`,
    ),
  );
  if (twin.recovered.length > 0) {
    const resumed = twin.recovered.filter((run) => run.outcome === "resumed").length;
    say(
      pc.yellow(
        `${twin.recovered.length} runs were in flight when the last twin stopped: ${resumed} resumed, ${twin.recovered.length - resumed} ended INTERRUPTED`,
      ),
    );
  }
  const uploaded = await uploadSampleDocuments(twin);
  say(
    pc.dim(
      `uploaded ${uploaded} sample documents to s3://${twin.services.config.documentsBucket}/rm-conditions/`,
    ),
  );
  return twin;
}

async function evaluateOnTwin(
  twin: Twin,
  request: unknown,
  staged: StagedDocument[],
  options: { json: boolean; label: string; say: Say },
): Promise<number> {
  const { say } = options;
  const bucket = twin.services.config.documentsBucket;
  for (const document of staged) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
    say(pc.dim(`uploaded ${document.file} to s3://${bucket}/${document.key}`));
  }

  let runId: string;
  try {
    runId = (await twin.startRun(request)).run_id;
  } catch (error) {
    return reportInvalid(error, options.label);
  }
  say(`${pc.bold("RUN")}     ${runId} (${options.label})`);
  const record = await follow(twin, runId, say);
  return reportRun(record, { json: options.json, say });
}

/**
 * `rewoo runs resume <run_id> --local`: boots the twin on its data folder (which itself resumes runs
 * that were in flight when the last twin stopped), resumes a FAILED or INTERRUPTED run and follows it.
 */
export async function runLocalResume(runId: string, options: { json: boolean }): Promise<number> {
  const say: Say = options.json ? () => {} : (line) => process.stdout.write(`${line}\n`);
  const twin = await bootLocalTwin(say);
  try {
    if (!twin.recovered.some((run) => run.run_id === runId && run.outcome === "resumed")) {
      try {
        const resumed = await resumeRun(
          runId,
          {
            runs: twin.services.runs,
            publisher: twin.services.publisher,
            startExecution: twin.startExecution,
          },
          { reason: "resumed with rewoo runs resume" },
        );
        say(`${pc.bold("RESUME")}  ${runId}: attempt ${resumed.attempt} (${resumed.execution_name})`);
      } catch (error) {
        if (!(error instanceof ResumeRefusedError || error instanceof RunNotFoundError)) throw error;
        process.stderr.write(`${pc.red("cannot resume the run")}: ${error.message}\n`);
        return EXIT_INVALID_INPUT;
      }
    }
    const events = await twin.services.runs.listEvents(runId);
    const resumeSeq = events.filter((event) => event.stage === "resume").at(-1)?.seq ?? 1;
    return reportRun(await follow(twin, runId, say, resumeSeq - 1), { json: options.json, say });
  } finally {
    await twin.stop();
  }
}

/** Prints the run's stored events as they arrive, until the execution ends. */
async function follow(twin: Twin, runId: string, say: Say, fromSeq = 0): Promise<RunRecord> {
  let done = false;
  const completion = twin.waitForRun(runId).finally(() => {
    done = true;
  });
  let afterSeq = fromSeq;
  // The same plain lines as `rewoo evaluate --api` prints when its output is not a terminal.
  const view = new PlainView(say);
  // After the execution ended every writer has finished, so a hole that remains is a lost write,
  // not a late one: the last pass prints everything.
  while (true) {
    const finished = done;
    const stored = await twin.services.runs.listEvents(runId, afterSeq);
    const events = finished ? stored : contiguousAfter(stored, afterSeq);
    for (const event of events) {
      afterSeq = event.seq;
      view.event(event);
    }
    if (finished) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return completion;
}

function reportInvalid(error: unknown, label: string): number {
  if (!(error instanceof InvalidRequestError)) throw error;
  return reportProblems(error.problems, label);
}

/** The sample loan files are generated, not committed: they are uploaded on every local boot. */
async function uploadSampleDocuments(twin: Twin): Promise<number> {
  const documents = await generateSampleDocuments();
  const bucket = twin.services.config.documentsBucket;
  await Promise.all(
    documents.map((document) =>
      twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf"),
    ),
  );
  return documents.length;
}
