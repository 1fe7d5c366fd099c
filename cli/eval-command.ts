// The `rewoo eval` command line: its arguments and options. What it runs (eval.ts: the batch, the
// scoring, the report) is loaded when the command runs, so other commands start without it.
import { type Command, InvalidArgumentError, Option } from "commander";
import type { EvalCommandOptions } from "./eval.ts";
import { EXIT_INVALID_INPUT } from "./output.ts";

const unitInterval = (value: string) => {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError("expected a number from 0 to 1 (0.95: 95% of labelled verdicts right)");
  return n;
};
const wholeNumber = (value: string) => {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError("expected a whole number ≥ 0");
  return n;
};

/** Adds `rewoo eval` to the program. */
export function registerEvalCommand(program: Command): void {
  program
    .command("eval")
    .description(
      "score the agent on labelled loan files: run them as one batch on the local twin (--local) or a running API (--api <url>) and compare each verdict with its label",
    )
    .argument(
      "<input>",
      'a folder of labelled requests (every *.json, as for rewoo batch) or a JSON Lines manifest (*.jsonl); each request has "expected": {"<condition id>": "fulfilled" | "not_fulfilled" | "insufficient_evidence"}',
    )
    .option(
      "--local",
      "run them through the local twin (offline; PDF files on disk in s3_pdf_paths are uploaded)",
    )
    .option(
      "--api <url>",
      "send them to a running API (e.g. http://127.0.0.1:3000 from `rewoo dev`, or a deployed stage)",
    )
    .option("--json", "print only the evaluation summary as one JSON object on stdout")
    .option("--out <report>", "write the reviewer's report: report.md (Markdown) or report.html (HTML)")
    .option("--compare <previous.json>", "list what changed since a previous `rewoo eval --json` summary")
    .addOption(
      new Option(
        "--min-accuracy <0-1>",
        "exit 6 unless at least this share of labelled verdicts is right",
      ).argParser(unitInterval),
    )
    .addOption(
      new Option(
        "--max-false-fulfilled <n>",
        'exit 6 when more labelled verdicts than this are a false "fulfilled"',
      )
        .default(0)
        .argParser(wholeNumber),
    )
    .addOption(
      new Option("--max-concurrency <n>", "loan files evaluated at once (the API's default: 10)").argParser(
        (value) => {
          const n = wholeNumber(value);
          if (n < 1) throw new InvalidArgumentError("expected a positive integer");
          return n;
        },
      ),
    )
    .action(async (path: string, options: Omit<EvalCommandOptions, "json" | "tty"> & { json?: boolean }) => {
      if ((options.local === true) === (options.api !== undefined)) {
        program.error("rewoo eval: choose one of --local (the local twin) or --api <url> (a running API)", {
          exitCode: EXIT_INVALID_INPUT,
        });
      }
      const { runEval } = await import("./eval.ts");
      process.exitCode = await runEval(path, {
        ...options,
        json: options.json ?? false,
        tty: process.stdout.isTTY === true,
      });
    });
}
