// The `rewoo` command.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { runLocalEvaluation, startCommand } from "./local.ts";
import { parsePlanCommand } from "./plan-parse.ts";

const program = new Command()
  .name("rewoo")
  .description(
    "ReWOO loan-conditions agent (Planner → Worker → Solver on AWS Step Functions, with an offline twin)",
  )
  .showHelpAfterError();

program
  .command("start")
  .description(
    "boot the local twin, upload the sample loan documents, evaluate the sample request and print the result",
  )
  .action(async () => {
    process.exitCode = await startCommand();
  });

program
  .command("evaluate")
  .description("evaluate a request file (DESIGN.md §4.1)")
  .argument(
    "<request.json>",
    "the hybrid request: metadata, instructions, s3_pdf_paths (with --local also PDF files on disk, relative to the request file), options",
  )
  .option("--local", "run it through the local twin (offline)")
  .option("--json", "print only the final run record as JSON on stdout")
  .action(async (file: string, options: { local?: boolean; json?: boolean }) => {
    if (!options.local) {
      program.error(
        "rewoo evaluate: only --local is available in this version (the --api client arrives with the REST API)",
      );
    }
    let request: unknown;
    try {
      request = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      program.error(`rewoo evaluate: cannot read ${file}: ${(error as Error).message}`);
    }
    process.exitCode = await runLocalEvaluation(request, {
      json: options.json ?? false,
      label: file,
      // Local PDFs in s3_pdf_paths are relative to the request file, like paths in a config file.
      baseDir: dirname(resolve(file)),
    });
  });

const plan = program.command("plan").description("work with planner outputs");
plan
  .command("parse")
  .description(
    'parse a planner output (JSON steps or the paper\'s "Plan: … #E1 = Tool[input]" text) and print the normalized plan {steps, levels}',
  )
  .argument("[file]", "file with the planner output; - or nothing reads stdin")
  .addOption(
    new Option("--max-steps <n>", "cap on the number of steps (longer plans are truncated)").argParser(
      (value) => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
        return n;
      },
    ),
  )
  .option("--validate", "also check tools and arguments against the tool registry")
  .action(async (file: string | undefined, options: { maxSteps?: number; validate?: boolean }) => {
    process.exitCode = await parsePlanCommand(file, options);
  });

await program.parseAsync();
