// Local mode of the CLI: boot the twin, make the sample documents available, start a run and
// follow its progress events from the runs table (the same events a dashboard receives).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pc from "picocolors";
import { generateSampleDocuments } from "../examples/samples.ts";
import { startTwin, type Twin } from "../infra/local/twin.ts";
import { InvalidRequestError } from "../lambdas/core/request.ts";
import type { RunRecord } from "../lambdas/core/types.ts";
import { contiguousAfter } from "../lambdas/store/events.ts";
import { type StagedDocument, stageLocalDocuments } from "./local-documents.ts";
import { formatEvent, formatRunRecord } from "./progress.ts";

/** What `npm start` evaluates: a signed return (all fulfilled) and an unsigned one (TR_SIGNED not fulfilled). */
const START_SAMPLES = ["examples/sample-tax-return.json", "examples/sample-unsigned-return.json"];
const POLL_MS = 50;

type Say = (line: string) => void;

export async function startCommand(): Promise<number> {
  const say: Say = (line) => process.stdout.write(`${line}\n`);
  const twin = await bootLocalTwin(say);
  try {
    let exitCode = 0;
    for (const sample of START_SAMPLES) {
      const request = JSON.parse(
        readFileSync(fileURLToPath(new URL(`../${sample}`, import.meta.url)), "utf8"),
      );
      say("");
      const code = await evaluateOnTwin(twin, request, [], { label: sample, say, json: false });
      exitCode ||= code;
    }
    return exitCode;
  } finally {
    await twin.stop();
  }
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

async function bootLocalTwin(say: Say): Promise<Twin> {
  const twin = await startTwin(process.env.REWOO_DATA_DIR ? { dataDir: process.env.REWOO_DATA_DIR } : {});
  const { dynamodbEndpoint, s3Endpoint } = twin.emulators;
  say(
    pc.dim(
      `local twin: dynalite ${dynamodbEndpoint}, s3rver ${s3Endpoint}, state machine statemachine/rewoo.asl.json`,
    ),
  );
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
  if (options.json) process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  else for (const line of formatRunRecord(record)) say(line);
  return record.status === "SUCCEEDED" ? 0 : 1;
}

/** Prints the run's stored events as they arrive, until the execution ends. */
async function follow(twin: Twin, runId: string, say: Say): Promise<RunRecord> {
  let done = false;
  const completion = twin.waitForRun(runId).finally(() => {
    done = true;
  });
  let afterSeq = 0;
  // After the execution ended every writer has finished, so a hole that remains is a lost write,
  // not a late one: the last pass prints everything.
  while (true) {
    const finished = done;
    const stored = await twin.services.runs.listEvents(runId, afterSeq);
    const events = finished ? stored : contiguousAfter(stored, afterSeq);
    for (const event of events) {
      afterSeq = event.seq;
      for (const line of formatEvent(event)) say(line);
    }
    if (finished) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return completion;
}

function reportInvalid(error: unknown, label: string): number {
  if (!(error instanceof InvalidRequestError)) throw error;
  process.stderr.write(`${pc.red("invalid request")} (${label}):\n`);
  for (const problem of error.problems) process.stderr.write(`  ${problem.field}: ${problem.message}\n`);
  return 2;
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
