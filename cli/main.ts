// The `rewoo` command.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { devCommand, exitAfterSampleFromEnv, runLocalEvaluation, runLocalResume } from "./local.ts";
import { parsePlanCommand } from "./plan-parse.ts";
import { runApiEvaluation, runApiResume } from "./remote.ts";

const program = new Command()
  .name("rewoo")
  .description(
    "ReWOO loan-conditions agent (Planner → Worker → Solver on AWS Step Functions, with an offline twin)",
  )
  .showHelpAfterError();

const portOption = () =>
  new Option("--port <n>", "port of the API, WebSocket and dashboard on 127.0.0.1 (0: any free port)")
    .default(3000)
    .argParser((value) => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || n > 65535)
        throw new InvalidArgumentError("expected a port number 0-65535");
      return n;
    });
const exitOption = () =>
  new Option(
    "--exit",
    "stop after the sample runs and exit with their result instead of serving (also REWOO_EXIT_AFTER_SAMPLE=1)",
  );

program
  .command("dev")
  .description(
    "boot the local twin, evaluate the two sample loan files, then serve the REST API, the WebSocket and the dashboard on 127.0.0.1 until Ctrl-C",
  )
  .addOption(portOption())
  .option("--no-sample", "serve without running the samples first")
  .addOption(exitOption())
  .action(async (options: { port: number; sample: boolean; exit?: boolean }) => {
    process.exitCode = await devCommand({
      port: options.port,
      sample: options.sample,
      exitAfterSample: options.exit === true || exitAfterSampleFromEnv(),
    });
  });

program
  .command("start")
  .description(
    "what npm start runs: `rewoo dev` (with --exit: evaluate the samples, print the results and exit)",
  )
  .addOption(portOption())
  .addOption(exitOption())
  .action(async (options: { port: number; exit?: boolean }) => {
    process.exitCode = await devCommand({
      port: options.port,
      sample: true,
      exitAfterSample: options.exit === true || exitAfterSampleFromEnv(),
    });
  });

program
  .command("evaluate")
  .description(
    "evaluate a request file (docs/api.openapi.yaml EvaluationRequest) on the local twin (--local) or a running API (--api <url>)",
  )
  .argument(
    "<request.json>",
    "the hybrid request: metadata, instructions, s3_pdf_paths (with --local also PDF files on disk, relative to the request file), options",
  )
  .option("--local", "run it through the local twin (offline)")
  .option(
    "--api <url>",
    "post it to a running API (e.g. http://127.0.0.1:3000 from `rewoo dev`, or a deployed stage) and follow the run",
  )
  .option(
    "--token <token>",
    "with --api: WebSocket token to follow with instead of the run's subscribe token (e.g. an operator token); none: connect without one",
  )
  .option(
    "--instructions <text>",
    'what to do, replacing the request\'s instructions (e.g. "Only check whether the return is signed")',
  )
  .option("--json", "print only the final run record as JSON on stdout")
  .action(
    async (
      file: string,
      options: { local?: boolean; api?: string; token?: string; json?: boolean; instructions?: string },
    ) => {
      if (options.local === (options.api !== undefined)) {
        program.error(
          "rewoo evaluate: choose one of --local (the local twin) or --api <url> (a running API)",
        );
      }
      if (options.token !== undefined && options.api === undefined) {
        program.error("rewoo evaluate: --token only applies with --api");
      }
      let request: unknown;
      try {
        request = JSON.parse(readFileSync(file, "utf8"));
      } catch (error) {
        program.error(`rewoo evaluate: cannot read ${file}: ${(error as Error).message}`);
      }
      if (options.instructions !== undefined) request = withInstructions(request, options.instructions);
      if (options.api !== undefined) {
        process.exitCode = await runApiEvaluation(request, {
          api: options.api,
          json: options.json ?? false,
          label: file,
          ...(options.token !== undefined ? { token: options.token } : {}),
          tty: process.stdout.isTTY === true,
        });
        return;
      }
      process.exitCode = await runLocalEvaluation(request, {
        json: options.json ?? false,
        label: file,
        // Local PDFs in s3_pdf_paths are relative to the request file, like paths in a config file.
        baseDir: dirname(resolve(file)),
      });
    },
  );

/** The request with `instructions` replaced; a request that is not an object is left for validation to name. */
function withInstructions(request: unknown, instructions: string): unknown {
  if (typeof request !== "object" || request === null || Array.isArray(request)) return request;
  return { ...request, instructions };
}

const runs = program.command("runs").description("work with existing runs");
runs
  .command("resume")
  .description(
    "resume a FAILED or INTERRUPTED run from where it stopped (finished steps are not run again) and follow it to its end",
  )
  .argument("<run_id>", "the run to resume")
  .option("--local", "the run lives in the local twin's data folder (.rewoo, or REWOO_DATA_DIR)")
  .option("--api <url>", "the run lives behind this API (e.g. http://127.0.0.1:3000 from `rewoo dev`)")
  .option("--json", "print only the final run record as JSON on stdout")
  .action(async (runId: string, options: { local?: boolean; api?: string; json?: boolean }) => {
    if (options.local === (options.api !== undefined)) {
      program.error(
        "rewoo runs resume: choose one of --local (the local twin) or --api <url> (a running API)",
      );
    }
    process.exitCode =
      options.api !== undefined
        ? await runApiResume(runId, { api: options.api, json: options.json ?? false, tty: false })
        : await runLocalResume(runId, { json: options.json ?? false });
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
