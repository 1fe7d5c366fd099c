// Local mode of the CLI: boot the twin, make the sample documents available, start a run and
// follow its progress events from the runs table (the same events a dashboard receives).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pc from "picocolors";
import { generateSampleDocuments } from "../examples/samples.ts";
import { startTwin, type Twin } from "../infra/local/twin.ts";
import { InvalidRequestError } from "../lambdas/core/request.ts";
import { contiguousAfter } from "../lambdas/store/events.ts";
import { formatEvent, formatRunRecord } from "./progress.ts";

const SAMPLE_REQUEST = fileURLToPath(new URL("../examples/sample-tax-return.json", import.meta.url));
const POLL_MS = 50;

export async function startCommand(): Promise<number> {
  const request = JSON.parse(readFileSync(SAMPLE_REQUEST, "utf8"));
  return runLocalEvaluation(request, { json: false, label: "examples/sample-tax-return.json" });
}

export async function runLocalEvaluation(
  request: unknown,
  options: { json: boolean; label: string },
): Promise<number> {
  const say = options.json ? (_: string) => {} : (line: string) => process.stdout.write(`${line}\n`);
  const twin = await startTwin(process.env.REWOO_DATA_DIR ? { dataDir: process.env.REWOO_DATA_DIR } : {});
  try {
    const uploaded = await uploadSampleDocuments(twin);
    say(
      pc.dim(
        `local twin: dynalite ${twin.emulators.dynamodbEndpoint}, s3rver ${twin.emulators.s3Endpoint}, state machine statemachine/rewoo.asl.json`,
      ),
    );
    say(
      pc.dim(
        `uploaded ${uploaded} sample documents to s3://${twin.services.config.documentsBucket}/rm-conditions/`,
      ),
    );

    let started: { run_id: string };
    try {
      started = await twin.startRun(request);
    } catch (error) {
      if (error instanceof InvalidRequestError) {
        process.stderr.write(`${pc.red("invalid request")} (${options.label}):\n`);
        for (const problem of error.problems)
          process.stderr.write(`  ${problem.field}: ${problem.message}\n`);
        return 2;
      }
      throw error;
    }
    say(`${pc.bold("RUN")}     ${started.run_id} (${options.label})`);

    const completion = twin.waitForRun(started.run_id);
    let afterSeq = 0;
    let done = false;
    void completion.finally(() => {
      done = true;
    });
    // Follow the stored events until the execution ends, then drain what is left (all writers
    // have finished by then, so a hole that remains is a lost write, not a late one).
    while (true) {
      const finished = done;
      const stored = await twin.services.runs.listEvents(started.run_id, afterSeq);
      const events = finished ? stored : contiguousAfter(stored, afterSeq);
      for (const event of events) {
        afterSeq = event.seq;
        for (const line of formatEvent(event)) say(line);
      }
      if (finished) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const record = await completion;
    if (options.json) process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
    else for (const line of formatRunRecord(record)) say(line);
    return record.status === "SUCCEEDED" ? 0 : 1;
  } finally {
    await twin.stop();
  }
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
