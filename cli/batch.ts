// `rewoo batch <folder | manifest.jsonl>`: send a portfolio of loan files as one batch (POST
// /v1/batches, the requests inline), follow it by polling GET /v1/batches/{id} until it ends, then
// report every line: the API's result for each line it received, and the CLI's own for the lines it
// could not send (see batch-input.ts). `rewoo batches show <id>` reports a batch that already runs.
import { writeFileSync } from "node:fs";
import pc from "picocolors";
import { type LineError, MAX_INLINE_REQUESTS, type VerdictCounts } from "../lambdas/core/batch.ts";
import { WAITING_STATUSES } from "../lambdas/core/types.ts";
import {
  ApiClient,
  type ApiClientOptions,
  ApiRequestError,
  type BatchLineView,
  type BatchRecordView,
  type BatchSubmission,
} from "./api-client.ts";
import { type BatchInput, type BatchLine, lineLabel } from "./batch-input.ts";
import { type BatchProgressView, colourStatus, countsText, createBatchView } from "./batch-view.ts";
import { pause } from "./follow.ts";
import {
  type CommandOutput,
  commandOutput,
  EXIT_INVALID_INPUT,
  EXIT_LINES_NOT_SUCCEEDED,
  EXIT_RUN_FAILED,
  EXIT_SUCCEEDED,
  reportProblems,
} from "./output.ts";
import { type RunAddress, rewooCommand } from "./wait-commands.ts";

/** The shell's code for a command stopped by Ctrl-C. */
const EXIT_INTERRUPTED = 130;
/** Reads of the batch that may fail in a row (API restarting, a network blip) before following gives up. */
const READ_ATTEMPTS = 5;

/** One line's outcome as `rewoo batch` reports it (and writes to --out, one JSON object per line). */
export interface BatchLineOutcome {
  /** The line's number in the input: a manifest's line (blank lines counted), a folder's file in name order. */
  line: number;
  /** The request file, for a folder. */
  file?: string;
  /** The file names of the request's s3_pdf_paths. */
  documents?: string[];
  status: string;
  run_id?: string;
  /** How the line's run judged its conditions, when it ended with a result. */
  verdicts?: VerdictCounts;
  error?: LineError;
  /** true: the CLI found the line invalid and did not send it (the API's batch does not hold it). */
  not_sent?: true;
}

export interface BatchSummary {
  batch_id: string;
  name?: string;
  /** The batch's own status: SUCCEEDED once every line it received was processed. */
  status: BatchRecordView["status"];
  source: string;
  /** Every line of the input, sent or not. */
  total: number;
  counts: Record<string, number>;
  error?: BatchRecordView["error"];
  results: BatchLineOutcome[];
}

export interface BatchCommandOptions {
  api: string;
  json: boolean;
  /** A terminal: a live progress bar; else plain lines. */
  tty?: boolean;
  /** Write the results here as JSON Lines. */
  out?: string;
  maxConcurrency?: number;
  toleratedFailurePercentage?: number;
  name?: string;
  /** How printed commands reach the batch's runs (default: this API); `--local` for the twin's. */
  address?: RunAddress;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  client?: ApiClientOptions;
  pollIntervalMs?: number;
  /** Polls in a row without a line finishing before the runs in flight are checked for one that waits for a person. */
  stallPolls?: number;
  /** Stops following (Ctrl-C); the command then exits 130. */
  signal?: AbortSignal;
  /** What becomes of the batch when following stops on `signal` (default: it goes on behind the API). */
  interruptedNote?: string;
  view?: BatchProgressView;
  /**
   * Called once the batch has ended, with every line's outcome, before the summary is printed: while
   * the API (the twin a `--local` command booted) still serves the batch's runs (`rewoo eval` reads them).
   */
  onEnded?: (summary: BatchSummary, client: ApiClient) => Promise<void>;
}

export async function runBatch(input: BatchInput, options: BatchCommandOptions): Promise<number> {
  const out = commandOutput(options);
  const sent = input.lines.filter((line) => line.request !== undefined);
  const notSent = input.lines.filter((line) => line.request === undefined);
  if (sent.length === 0) {
    out.stderr(`${pc.red("nothing to send")} (${input.source}): no line is a request\n`);
    for (const line of notSent) out.stderr(`  ${lineLabel(line)}: ${line.error?.message ?? "not sent"}\n`);
    return EXIT_INVALID_INPUT;
  }
  if (sent.length > MAX_INLINE_REQUESTS) {
    return reportProblems(
      [
        {
          field: "input",
          message: `${sent.length} requests; a batch sent by rewoo batch holds at most ${MAX_INLINE_REQUESTS} (the API's inline limit): split the ${input.kind}`,
        },
      ],
      input.source,
      out.stderr,
      "invalid batch",
    );
  }
  if (options.out !== undefined && !prepareOut(options.out, out)) return EXIT_INVALID_INPUT;

  let client: ApiClient;
  let batchId: string;
  try {
    client = new ApiClient(options.api, options.client);
    const submission: BatchSubmission = {
      requests: sent.map((line) => line.request),
      // The batch's line numbers (its results, its runs' ids) are the input's, not 1..n of what was sent.
      lines: sent.map((line) => ({ line: line.line, ...(line.file ? { file: line.file } : {}) })),
      ...(options.maxConcurrency !== undefined ? { max_concurrency: options.maxConcurrency } : {}),
      ...(options.toleratedFailurePercentage !== undefined
        ? { tolerated_failure_percentage: options.toleratedFailurePercentage }
        : {}),
      ...(options.name !== undefined ? { name: options.name } : {}),
    };
    const started = await client.startBatch(submission);
    batchId = started.batch_id;
    out.say(
      `${pc.bold("BATCH")}   ${batchId} (${input.source}): ${sent.length} ${sent.length === 1 ? "line" : "lines"} sent${
        notSent.length ? pc.yellow(`, ${notSent.length} not sent (invalid here; see the results)`) : ""
      }`,
    );
    out.say(pc.dim(`status  ${started.status_url}`));
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return reportRefusal(error, "start the batch", input.source, out);
  }

  const view =
    options.view ??
    createBatchView({
      tty: options.tty ?? false,
      json: options.json,
      label: batchId,
      say: out.say,
      notice: (line) => out.stderr(`${line}\n`),
    });
  const byLine = new Map(sent.map((line) => [line.line, line]));
  const followed = await followBatch(client, batchId, view, options, out, (line) => byLine.get(line));
  if (followed.outcome === "lost") {
    out.stderr(`${pc.red("lost the batch")} ${batchId}: ${followed.reason}\n`);
    return EXIT_RUN_FAILED;
  }
  if (followed.outcome === "stopped") {
    const progress = followed.batch ? ` at ${followed.batch.processed}/${followed.batch.total} lines` : "";
    const next =
      options.interruptedNote ??
      `it goes on; ${rewooCommand(out.address, ["batches", "show", batchId])} shows where it stands`;
    out.stderr(`${pc.yellow(`stopped following ${batchId}${progress}`)}: ${next}\n`);
    return EXIT_INTERRUPTED;
  }
  return finishReport(client, followed.batch, input, sent, notSent, options, out);
}

type Followed =
  | { outcome: "ended"; batch: BatchRecordView }
  | { outcome: "stopped"; batch?: BatchRecordView }
  | { outcome: "lost"; reason: string };

/**
 * Polls the batch record until the batch ends (or `signal` stops following). When no line finishes
 * for a while, the lines in flight are checked once for a run that waits for a person, which would
 * otherwise hold the batch in silence.
 */
async function followBatch(
  client: ApiClient,
  batchId: string,
  view: BatchProgressView,
  options: BatchCommandOptions,
  out: CommandOutput,
  sourceOf: (line: number) => BatchLine | undefined,
): Promise<Followed> {
  const pollMs = options.pollIntervalMs ?? 1_000;
  const stallPolls = options.stallPolls ?? 10;
  const told = new Set<string>();
  let batch: BatchRecordView | undefined;
  let failures = 0;
  let stalled = 0;
  try {
    while (!options.signal?.aborted) {
      try {
        const read = await client.getBatch(batchId);
        failures = 0;
        stalled = batch && read.processed === batch.processed ? stalled + 1 : 0;
        batch = read;
      } catch (error) {
        if (!(error instanceof ApiRequestError)) throw error;
        const transient = error.status === undefined || error.status >= 500;
        if (!transient || ++failures >= READ_ATTEMPTS) return { outcome: "lost", reason: error.message };
        await pause(pollMs, options.signal);
        continue;
      }
      view.update(batch);
      if (batch.status !== "RUNNING") return { outcome: "ended", batch };
      if (stalled > 0 && stalled % stallPolls === 0) {
        await tellWaitingRuns(client, batchId, told, view, out.address, sourceOf);
      }
      await pause(pollMs, options.signal);
    }
    return batch ? { outcome: "stopped", batch } : { outcome: "stopped" };
  } finally {
    await view.finish();
  }
}

/** Notes each line whose run waits for an answer or an approval, once, with the command that shows it. */
async function tellWaitingRuns(
  client: ApiClient,
  batchId: string,
  told: Set<string>,
  view: BatchProgressView,
  address: RunAddress,
  sourceOf: (line: number) => BatchLine | undefined,
): Promise<void> {
  try {
    const inFlight = (await client.batchResults(batchId)).filter(
      (line) => line.status === "RUNNING" && line.run_id !== undefined && !told.has(line.run_id),
    );
    for (const line of inFlight) {
      const runId = line.run_id as string;
      const run = await client.getRun(runId);
      if (!WAITING_STATUSES.includes(run.status)) continue;
      told.add(runId);
      const source = sourceOf(line.line);
      const what = run.status === "AWAITING_INPUT" ? "an answer" : "an approval of its plan";
      view.note(
        `${source ? lineLabel(source) : `line ${line.line}`}: run ${runId} waits for ${what}, and the batch with it: ${rewooCommand(address, ["runs", "show", runId])}`,
      );
    }
  } catch (error) {
    // Only a courtesy: the next stall looks again.
    if (!(error instanceof ApiRequestError)) throw error;
  }
}

async function finishReport(
  client: ApiClient,
  batch: BatchRecordView,
  input: BatchInput,
  sent: BatchLine[],
  notSent: BatchLine[],
  options: BatchCommandOptions,
  out: CommandOutput,
): Promise<number> {
  let lines: BatchLineView[];
  try {
    lines = await client.batchResults(batch.batch_id);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    out.stderr(`${pc.red("cannot read the batch's results")}: ${error.message}\n`);
    return EXIT_RUN_FAILED;
  }
  const byLine = new Map(sent.map((line) => [line.line, line]));
  const results: BatchLineOutcome[] = [
    ...lines.map((result) => outcomeOf(result, byLine.get(result.line))),
    ...notSent.map(
      (line): BatchLineOutcome => ({
        line: line.line,
        ...(line.file ? { file: line.file } : {}),
        status: "INVALID",
        ...(line.error ? { error: line.error } : {}),
        not_sent: true,
      }),
    ),
  ].sort((a, b) => a.line - b.line);
  const summary = summaryOf(batch, input.source, results);
  await options.onEnded?.(summary, client);
  return report(summary, options, out);
}

/** The API's result of a line (numbered as the input, sent with the requests), with the file the CLI read it from. */
function outcomeOf(result: BatchLineView, source: BatchLine | undefined): BatchLineOutcome {
  const file = result.file ?? source?.file;
  return {
    line: result.line,
    ...(file ? { file } : {}),
    ...(result.documents?.length ? { documents: result.documents } : {}),
    status: result.status,
    ...(result.run_id ? { run_id: result.run_id } : {}),
    ...(result.verdicts ? { verdicts: result.verdicts } : {}),
    ...(result.error ? { error: result.error } : {}),
  };
}

function summaryOf(batch: BatchRecordView, source: string, results: BatchLineOutcome[]): BatchSummary {
  const counts: Record<string, number> = {};
  for (const result of results) counts[result.status] = (counts[result.status] ?? 0) + 1;
  return {
    batch_id: batch.batch_id,
    ...(batch.name ? { name: batch.name } : {}),
    status: batch.status,
    source,
    total: results.length,
    counts,
    ...(batch.error ? { error: batch.error } : {}),
    results,
  };
}

/**
 * Prints the summary (JSON with --json), writes --out, and returns the exit code: 0 when every line
 * SUCCEEDED, 5 when the batch ran to its end but some did not, 1 when the batch itself did not end
 * SUCCEEDED (too many failures, stopped).
 */
function report(
  summary: BatchSummary,
  options: Pick<BatchCommandOptions, "json" | "out">,
  out: CommandOutput,
): number {
  if (options.out !== undefined) {
    writeFileSync(options.out, summary.results.map((result) => `${JSON.stringify(result)}\n`).join(""));
  }
  if (options.json) out.stdout(`${JSON.stringify(summary, null, 2)}\n`);
  else for (const line of formatBatchSummary(summary, out.address)) out.say(line);
  if (options.out !== undefined && !options.json) out.say(pc.dim(`results written to ${options.out}`));
  if (summary.status !== "SUCCEEDED") return EXIT_RUN_FAILED;
  return summary.results.every((result) => result.status === "SUCCEEDED")
    ? EXIT_SUCCEEDED
    : EXIT_LINES_NOT_SUCCEEDED;
}

/** The batch's status and counts, then one row per line: line, file, run id, status, error. */
export function formatBatchSummary(summary: BatchSummary, address: RunAddress): string[] {
  const heading = `${pc.bold("Batch")} ${summary.batch_id}${summary.name ? ` (${summary.name})` : ""}: ${colourStatus(summary.status)}`;
  const lines = [
    "",
    heading,
    `${summary.total} ${summary.total === 1 ? "line" : "lines"}: ${countsText(summary.counts)}`,
  ];
  if (summary.error) lines.push(pc.red(`${summary.error.error}: ${summary.error.cause}`));
  const notSent = summary.results.filter((result) => result.not_sent).length;
  if (notSent) {
    lines.push(
      pc.yellow(
        `${notSent} ${notSent === 1 ? "line was not sent: rewoo batch found it invalid" : "lines were not sent: rewoo batch found them invalid"}`,
      ),
    );
  }
  const withFile = summary.results.some((result) => result.file);
  const withSource = withFile || summary.results.some((result) => result.documents?.length);
  const withVerdicts = summary.results.some((result) => result.verdicts);
  const rows = summary.results.map((result) => [
    String(result.line),
    ...(withSource ? [sourceText(result)] : []),
    result.run_id ?? "-",
    result.status,
    ...(withVerdicts ? [result.verdicts ? verdictsCell(result.verdicts) : ""] : []),
    result.error ? describeLineError(result.error) : "",
  ]);
  const header = [
    "line",
    ...(withSource ? [withFile ? "file" : "documents"] : []),
    "run_id",
    "status",
    ...(withVerdicts ? [VERDICTS_HEADING] : []),
    "error",
  ];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const statusColumn = header.indexOf("status");
  const format = (row: string[], colour: boolean) =>
    row
      .map((cell, column) => {
        const padded = column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0);
        return colour && column === statusColumn ? padded.replace(cell, colourStatus(cell)) : padded;
      })
      .join("  ")
      .trimEnd();
  lines.push("", pc.dim(format(header, false)), ...rows.map((row) => format(row, true)));
  if (withVerdicts) lines.push(pc.dim(VERDICTS_LEGEND));
  const failed = summary.results.find((result) => result.run_id && result.status !== "SUCCEEDED");
  if (failed?.run_id) {
    lines.push(
      "",
      pc.dim(`a line's run: ${rewooCommand(address, ["runs", "show", { placeholder: "<run_id>" }])}`),
    );
  }
  return lines;
}

/** What tells the line's loan: its file, else the documents its request names (cut to stay a column). */
function sourceText(result: BatchLineOutcome): string {
  if (result.file) return result.file;
  const documents = (result.documents ?? []).join(", ");
  return documents.length > 48 ? `${documents.slice(0, 47)}…` : documents;
}

/** The verdicts column's heading, and what it means under the table. */
const VERDICTS_HEADING = "verdicts F/N/I";
const VERDICTS_LEGEND =
  "verdicts F/N/I: conditions fulfilled / not fulfilled / insufficient evidence in the line's result";

/** "4/1/0": fulfilled, not fulfilled, insufficient evidence (VERDICTS_LEGEND). */
export function verdictsCell(verdicts: VerdictCounts): string {
  return `${verdicts.fulfilled}/${verdicts.not_fulfilled}/${verdicts.insufficient_evidence}`;
}

/**
 * The line's error in one line: each field it names with what was expected, or the message when
 * it names the whole line ("(line)", "(file)") or no field.
 */
export function describeLineError(error: LineError): string {
  const named = (error.fields ?? []).filter((problem) => !problem.field.startsWith("("));
  const text = named.length
    ? named.map((problem) => `${problem.field}: ${problem.message}`).join("; ")
    : error.message;
  return text.replaceAll(/\s+/g, " ");
}

/** `rewoo batches show <batch_id>`: the batch's status, counts and every line's result as it stands. */
export async function runBatchShow(
  batchId: string,
  options: Pick<BatchCommandOptions, "api" | "json" | "out" | "address" | "stdout" | "stderr" | "client">,
): Promise<number> {
  const out = commandOutput(options);
  if (options.out !== undefined && !prepareOut(options.out, out)) return EXIT_INVALID_INPUT;
  let batch: BatchRecordView;
  let lines: BatchLineView[];
  try {
    const client = new ApiClient(options.api, options.client);
    batch = await client.getBatch(batchId);
    lines = await client.batchResults(batchId);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return reportRefusal(error, "show the batch", `batch ${batchId}`, out);
  }
  const summary = summaryOf(
    batch,
    "the API",
    lines.map((line) => outcomeOf(line, undefined)),
  );
  if (options.json) {
    out.stdout(`${JSON.stringify({ ...summary, processed: batch.processed }, null, 2)}\n`);
  } else {
    for (const line of formatBatchSummary(summary, out.address)) out.say(line);
    if (batch.status === "RUNNING")
      out.say(pc.dim(`${batch.processed}/${batch.total} lines processed so far`));
  }
  if (options.out !== undefined) {
    writeFileSync(options.out, summary.results.map((result) => `${JSON.stringify(result)}\n`).join(""));
  }
  return EXIT_SUCCEEDED;
}

/** --out is checked (created, emptied) before anything starts: a typo must not cost a finished batch its results. */
function prepareOut(file: string, out: CommandOutput): boolean {
  try {
    writeFileSync(file, "");
    return true;
  } catch (error) {
    reportProblems(
      [
        {
          field: "--out",
          message: `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        },
      ],
      file,
      out.stderr,
      "invalid option",
    );
    return false;
  }
}

/** A 400 names each field the API named (exit 2); an unknown batch 2; the API out of reach or failing 1. */
function reportRefusal(error: ApiRequestError, what: string, label: string, out: CommandOutput): number {
  if (error.status === 400 || error.status === 413) {
    const problems = error.fields.length ? error.fields : [{ field: "(body)", message: error.message }];
    return reportProblems(problems, label, out.stderr, `the API refused to ${what}`);
  }
  out.stderr(`${pc.red(`cannot ${what}`)}: ${error.message}\n`);
  const unreachable = error.status === undefined || error.status >= 500 || error.code === "bad_response";
  return unreachable ? EXIT_RUN_FAILED : EXIT_INVALID_INPUT;
}
