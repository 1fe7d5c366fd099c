// What both modes of `rewoo evaluate` print at the end, and how they exit: the local twin and a
// remote API produce the same run record, so they report it the same way.
import pc from "picocolors";
import type { RequestProblem } from "../lambdas/core/request.ts";
import type { RunRecord } from "../lambdas/core/types.ts";
import { type FormatContext, formatRunRecord } from "./progress.ts";
import type { RunAddress } from "./wait-commands.ts";

export const EXIT_SUCCEEDED = 0;
/** The run ended FAILED or CANCELLED (or could not be followed to its end). */
export const EXIT_RUN_FAILED = 1;
export const EXIT_INVALID_INPUT = 2;
/** The run ended NEEDS_REVIEW: its plan or its answer scored below the review threshold. */
export const EXIT_NEEDS_REVIEW = 3;
/** The run ended REJECTED: an operator rejected its plan (or decided nothing in time); no tool ran. */
export const EXIT_REJECTED = 4;
/** `rewoo batch`: the batch ran to its end, but not every line SUCCEEDED (failed, invalid, needs review…). */
export const EXIT_LINES_NOT_SUCCEEDED = 5;
/** `rewoo eval`: the labelled loan files ran, but accuracy or false "fulfilled" verdicts miss a threshold. */
export const EXIT_EVAL_THRESHOLDS_NOT_MET = 6;

/** The exit code that tells a script how the run ended. */
export function exitCodeOf(status: RunRecord["status"]): number {
  switch (status) {
    case "SUCCEEDED":
      return EXIT_SUCCEEDED;
    case "NEEDS_REVIEW":
      return EXIT_NEEDS_REVIEW;
    case "REJECTED":
      return EXIT_REJECTED;
    default:
      return EXIT_RUN_FAILED;
  }
}

/** Prints the final run record (JSON on stdout with --json) and returns the exit code. */
export function reportRun(
  record: RunRecord,
  options: {
    json: boolean;
    say: (line: string) => void;
    stdout?: (text: string) => void;
  } & FormatContext,
): number {
  if (options.json)
    (options.stdout ?? ((text) => process.stdout.write(text)))(`${JSON.stringify(record, null, 2)}\n`);
  else for (const line of formatRunRecord(record, options)) options.say(line);
  return exitCodeOf(record.status);
}

/** Every offending field, one per line, on stderr. */
export function reportProblems(
  problems: readonly RequestProblem[],
  label: string,
  stderr: (text: string) => void = (text) => process.stderr.write(text),
  heading = "invalid request",
): number {
  stderr(`${pc.red(heading)} (${label}):\n`);
  for (const problem of problems) stderr(`  ${problem.field}: ${problem.message}\n`);
  return EXIT_INVALID_INPUT;
}

/** Where an API command prints: its result (stdout), its progress lines (`say`, silent with --json), problems (stderr). */
export interface CommandOutput {
  say: (line: string) => void;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** How printed commands reach the run (default: the API the command talks to). */
  address: RunAddress;
}

export function commandOutput(options: {
  api: string;
  json?: boolean;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  address?: RunAddress;
}): CommandOutput {
  const stdout = options.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = options.stderr ?? ((text: string) => process.stderr.write(text));
  return {
    stdout,
    stderr,
    say: options.json ? () => undefined : (line: string) => stdout(`${line}\n`),
    address: options.address ?? { api: options.api },
  };
}
