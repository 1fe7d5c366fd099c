// `rewoo eval <folder | manifest.jsonl>`: a lender's labelled loan files (evaluation requests with an
// `expected` field) run as one batch, like `rewoo batch` (the twin with --local, an API with --api),
// then every labelled verdict is scored against its run's result (eval-score.ts) and reported
// (eval-report.ts). The exit code says whether the thresholds hold.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, extname, resolve } from "node:path";
import pc from "picocolors";
import { loadCatalog, resolveClassification } from "../lambdas/agents/loan/catalog.ts";
import type { RequestProblem } from "../lambdas/core/request.ts";
import type { RunRecord } from "../lambdas/core/types.ts";
import { type ApiClient, ApiRequestError } from "./api-client.ts";
import { type BatchCommandOptions, type BatchSummary, describeLineError, runBatch } from "./batch.ts";
import { type BatchInput, BatchInputError, lineLabel, readBatchInput } from "./batch-input.ts";
import { formatComparison, formatEvalSummary, renderHtml, renderMarkdown } from "./eval-report.ts";
import {
  compareSummaries,
  type LabelledOutcome,
  type Labels,
  type PreviousSummary,
  parsePreviousSummary,
  scoreEvaluation,
  splitLabelledRequest,
} from "./eval-score.ts";
import { runLocalBatch } from "./local.ts";
import { EXIT_EVAL_THRESHOLDS_NOT_MET, EXIT_RUN_FAILED, EXIT_SUCCEEDED, reportProblems } from "./output.ts";

/** Reads of one run record that may fail in a row (the API restarting, a network blip). */
const READ_ATTEMPTS = 3;

export interface EvalCommandOptions {
  local?: boolean;
  api?: string;
  json: boolean;
  /** The reviewer's report: Markdown (.md) or HTML (.html, .htm) by its extension. */
  out?: string;
  /** A previous `rewoo eval --json` summary. */
  compare?: string;
  minAccuracy?: number;
  maxFalseFulfilled: number;
  maxConcurrency?: number;
  tty?: boolean;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Runs the batch (default: `rewoo batch`'s, through the twin or the API). */
  runBatch?: (input: BatchInput, options: BatchCommandOptions) => Promise<number>;
  now?: () => Date;
}

interface LabelledLine {
  line: number;
  file: string;
  labels: Labels;
  documentKind: string;
}

export async function runEval(path: string, options: EvalCommandOptions): Promise<number> {
  const stdout = options.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = options.stderr ?? ((text: string) => process.stderr.write(text));
  let input: BatchInput;
  try {
    input = readBatchInput(path);
  } catch (error) {
    if (!(error instanceof BatchInputError)) throw error;
    return reportProblems(
      [{ field: error.field, message: error.message }],
      path,
      stderr,
      "invalid evaluation",
    );
  }
  const read = readLabels(input);
  if ("problems" in read) return reportProblems(read.problems, path, stderr, "invalid loan files");
  const checked = checkOptions(options);
  if ("problems" in checked) return reportProblems(checked.problems, path, stderr, "invalid options");

  let ended: { summary: BatchSummary; records: Map<string, RunRecord> } | undefined;
  let unreadable: string | undefined;
  const batchOptions: BatchCommandOptions = {
    api: options.api ?? "",
    json: options.json,
    tty: options.tty ?? false,
    name: batchName(path),
    // Every labelled file must run: a failed one is scored as such, never stops the others.
    toleratedFailurePercentage: 100,
    ...(options.maxConcurrency !== undefined ? { maxConcurrency: options.maxConcurrency } : {}),
    // With --json the one object on stdout is the evaluation's, not the batch's.
    ...(options.json ? { stdout: () => undefined } : options.stdout ? { stdout: options.stdout } : {}),
    ...(options.stderr ? { stderr: options.stderr } : {}),
    onEnded: async (summary, client) => {
      try {
        ended = { summary, records: await readRunRecords(summary, client) };
      } catch (error) {
        if (!(error instanceof ApiRequestError)) throw error;
        unreadable = error.message;
      }
    },
  };
  const batchCode = await (options.runBatch ?? defaultRunBatch(options))(read.input, batchOptions);
  if (unreadable !== undefined) {
    stderr(`${pc.red("cannot read the runs' results")}: ${unreadable}\n`);
    return EXIT_RUN_FAILED;
  }
  // The batch did not end (refused, lost, stopped): it said why, and its exit code says how.
  if (!ended) return batchCode === EXIT_SUCCEEDED ? EXIT_RUN_FAILED : batchCode;

  let summary = scoreEvaluation(outcomesOf(read.lines, ended.summary, ended.records), {
    source: path,
    batch_id: ended.summary.batch_id,
    created_at: (options.now?.() ?? new Date()).toISOString(),
    ...(options.api !== undefined ? { api: options.api.replace(/\/+$/, "") } : {}),
    thresholds: {
      ...(options.minAccuracy !== undefined ? { min_accuracy: options.minAccuracy } : {}),
      max_false_fulfilled: options.maxFalseFulfilled,
    },
  });
  if (checked.previous) summary = { ...summary, compare: compareSummaries(checked.previous, summary) };
  if (options.out !== undefined) {
    writeFileSync(
      options.out,
      reportFormat(options.out) === "html" ? renderHtml(summary) : renderMarkdown(summary),
    );
  }
  if (options.json) stdout(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    const lines = [
      ...formatEvalSummary(summary),
      ...(summary.compare ? formatComparison(summary.compare) : []),
    ];
    if (options.out !== undefined) lines.push(`report written to ${options.out}`);
    stdout(`${lines.join("\n")}\n`);
  }
  return summary.passed ? EXIT_SUCCEEDED : EXIT_EVAL_THRESHOLDS_NOT_MET;
}

/** "eval: loans-q3": the batch's label for people, in the characters a batch name may hold. */
function batchName(path: string): string {
  const folder = basename(resolve(path)).replaceAll(/[^A-Za-z0-9 _.:-]/g, "-");
  return `eval: ${folder}`.slice(0, 80);
}

function defaultRunBatch(options: EvalCommandOptions) {
  return (input: BatchInput, batchOptions: BatchCommandOptions) => {
    if (options.api !== undefined) return runBatch(input, batchOptions);
    const { api: _none, ...local } = batchOptions;
    return runLocalBatch(input, local);
  };
}

/** Every file's labels, and the batch to send without them; every problem of every file, named. */
function readLabels(
  input: BatchInput,
): { input: BatchInput; lines: LabelledLine[] } | { problems: RequestProblem[] } {
  const problems: RequestProblem[] = [];
  const lines: LabelledLine[] = [];
  const sent = input.lines.map((line) => {
    const label = lineLabel(line);
    if (line.request === undefined) {
      problems.push({ field: label, message: line.error?.message ?? "cannot be read" });
      return line;
    }
    const split = splitLabelledRequest(line.request);
    if ("problems" in split) {
      for (const problem of split.problems)
        problems.push({ field: `${label} ${problem.field}`, message: problem.message });
      return line;
    }
    lines.push({
      line: line.line,
      file: label,
      labels: split.labels,
      documentKind: documentKindOf(split.request),
    });
    return { ...line, request: split.request };
  });
  return problems.length ? { problems } : { input: { ...input, lines: sent }, lines };
}

/** The kind of document the request's classification names in the catalog; else the classification as given. */
function documentKindOf(request: Record<string, unknown>): string {
  const metadata = request.metadata as { classification?: unknown } | undefined;
  const classification = typeof metadata?.classification === "string" ? metadata.classification.trim() : "";
  if (classification === "") return "unclassified";
  const name = resolveClassification(classification);
  const entry = loadCatalog().classifications.find((candidate) => candidate.name === name);
  return entry?.document_kind ?? classification;
}

type CheckedOptions = { previous?: PreviousSummary } | { problems: RequestProblem[] };

/** --out and --compare, checked before anything runs: a typo must not cost a finished batch its report. */
function checkOptions(options: EvalCommandOptions): CheckedOptions {
  const problems: RequestProblem[] = [];
  if (options.out !== undefined) {
    if (reportFormat(options.out) === undefined) {
      problems.push({ field: "--out", message: `expected a .md or .html file, got ${options.out}` });
    } else {
      try {
        writeFileSync(options.out, "");
      } catch (error) {
        problems.push({ field: "--out", message: `cannot write ${options.out}: ${errorCode(error)}` });
      }
    }
  }
  let previous: PreviousSummary | undefined;
  if (options.compare !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(options.compare, "utf8"));
    } catch (error) {
      const why = error instanceof SyntaxError ? `not JSON (${error.message})` : errorCode(error);
      problems.push({ field: "--compare", message: `cannot read ${options.compare}: ${why}` });
    }
    if (value !== undefined) {
      const parsed = parsePreviousSummary(value);
      if ("problems" in parsed) {
        for (const problem of parsed.problems)
          problems.push({ field: `--compare ${problem.field}`, message: problem.message });
      } else previous = parsed;
    }
  }
  if (problems.length) return { problems };
  return previous ? { previous } : {};
}

function reportFormat(file: string): "markdown" | "html" | undefined {
  const extension = extname(file).toLowerCase();
  if (extension === ".md" || extension === ".markdown") return "markdown";
  return extension === ".html" || extension === ".htm" ? "html" : undefined;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** The run record of every line that ended with a result, read while the API still serves them. */
async function readRunRecords(summary: BatchSummary, client: ApiClient): Promise<Map<string, RunRecord>> {
  const records = new Map<string, RunRecord>();
  for (const outcome of summary.results) {
    if (!outcome.run_id || !["SUCCEEDED", "NEEDS_REVIEW"].includes(outcome.status)) continue;
    for (let attempt = 1; ; attempt++) {
      try {
        records.set(outcome.run_id, await client.getRun(outcome.run_id));
        break;
      } catch (error) {
        const transient =
          error instanceof ApiRequestError && (error.status === undefined || error.status >= 500);
        if (!transient || attempt >= READ_ATTEMPTS) throw error;
      }
    }
  }
  return records;
}

function outcomesOf(
  lines: readonly LabelledLine[],
  summary: BatchSummary,
  records: Map<string, RunRecord>,
): LabelledOutcome[] {
  const results = new Map(summary.results.map((result) => [result.line, result]));
  return lines.map((line): LabelledOutcome => {
    const result = results.get(line.line);
    const record = result?.run_id ? records.get(result.run_id) : undefined;
    return {
      file: line.file,
      line: line.line,
      labels: line.labels,
      document_kind: line.documentKind,
      // A line the batch never reported (it ended early) is one that did not run.
      status: result?.status ?? "NOT_RUN",
      ...(result?.run_id ? { run_id: result.run_id } : {}),
      ...(result?.error ? { error: describeLineError(result.error) } : {}),
      ...(record?.result ? { result: record.result } : {}),
      ...(record?.result_review ? { review_score: record.result_review.score } : {}),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The command line
