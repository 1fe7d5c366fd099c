// The `rewoo` command.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import pc from "picocolors";
import type { PlanDecision } from "./api-client.ts";
import type { BatchInput } from "./batch-input.ts";
import type { RawChatOptions } from "./chat.ts";
import { registerEvalCommand } from "./eval-command.ts";
import type { LocalTwinKind } from "./local.ts";
import { EXIT_INVALID_INPUT, EXIT_RUN_FAILED, reportProblems } from "./output.ts";
import type { ActionOptions } from "./remote.ts";
import { NEEDS_YOU_DAYS, type RunListOptions } from "./run-list.ts";
import type { OperatorTokenOptions } from "./token-keys.ts";
import { AnswerArgumentError, parseAnswerArguments, type RunAddress } from "./wait-commands.ts";

// A command loads what it runs when it runs, so `rewoo --help`, `rewoo plan parse` and the API
// commands start without the twin's emulators, the AWS SDK or the PDF and OCR libraries (the
// bundled CLI, bin/build-cli.mjs, splits each of these into a file of its own).
const localTwin = () => import("./local.ts");
const remoteApi = () => import("./remote.ts");

const program = new Command()
  .name("rewoo")
  .description(
    "ReWOO loan-conditions agent (Planner → Worker → Solver on AWS Step Functions, with an offline twin)",
  )
  .showHelpAfterError()
  // A command line the parser refuses (an unknown option, a missing argument, two targets) is invalid
  // input, exit 2, never 1: 1 says a run failed. Set before the commands, which inherit it.
  .exitOverride((error) => process.exit(error.exitCode === 1 ? EXIT_INVALID_INPUT : error.exitCode));

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
    const { devCommand, exitAfterSampleFromEnv } = await localTwin();
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
    const { devCommand, exitAfterSampleFromEnv } = await localTwin();
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
      if ((options.local === true) === (options.api !== undefined)) {
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
        process.exitCode = reportUnreadable("rewoo evaluate", file, error);
        return;
      }
      if (options.instructions !== undefined) request = withInstructions(request, options.instructions);
      // A person at a terminal is asked the run's question there; scripts and pipes get the command to answer it.
      const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true && !options.json;
      if (options.api !== undefined) {
        const { runApiEvaluation } = await remoteApi();
        process.exitCode = await runApiEvaluation(request, {
          api: options.api,
          json: options.json ?? false,
          label: file,
          ...(options.token !== undefined ? { token: options.token } : {}),
          tty: process.stdout.isTTY === true,
          interactive,
        });
        return;
      }
      const { runLocalEvaluation } = await localTwin();
      process.exitCode = await runLocalEvaluation(request, {
        json: options.json ?? false,
        label: file,
        // Local PDFs in s3_pdf_paths are relative to the request file, like paths in a config file.
        baseDir: dirname(resolve(file)),
        interactive,
      });
    },
  );

/**
 * A file the command was given that cannot be read (missing, a folder, not JSON): one line on stderr
 * and exit 2, without the usage text (the command line itself was right).
 */
function reportUnreadable(command: string, file: string, error: unknown): number {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
        ? "it is a folder, not a file"
        : error instanceof SyntaxError
          ? `not JSON (${error.message})`
          : (error as Error).message;
  process.stderr.write(`${command}: cannot read ${file}: ${why}\n`);
  return EXIT_INVALID_INPUT;
}

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
    if ((options.local === true) === (options.api !== undefined)) {
      program.error(
        "rewoo runs resume: choose one of --local (the local twin) or --api <url> (a running API)",
      );
    }
    process.exitCode =
      options.api !== undefined
        ? await (await remoteApi()).runApiResume(runId, {
            api: options.api,
            json: options.json ?? false,
            tty: false,
          })
        : await (await localTwin()).runLocalResume(runId, { json: options.json ?? false });
  });

interface TargetOptions {
  local?: boolean;
  api?: string;
  json?: boolean;
}

/** --local and --api, and --json, on every command that acts on existing runs. */
function withTarget(command: Command): Command {
  return command
    .option(
      "--local",
      "the run lives in the local twin's data folder (.rewoo, or REWOO_DATA_DIR); through the API of the twin serving it, else of one booted for the command",
    )
    .option("--api <url>", "the run lives behind this API (e.g. http://127.0.0.1:3000 from `rewoo dev`)")
    .option("--json", "print only JSON on stdout (the final run record, or the API's answer)");
}

/** The API a command acts through, and for --local which twin serves it (see withLocalApi). */
interface Target {
  api: string;
  address?: RunAddress;
  twin?: LocalTwinKind;
}

/**
 * Runs `act` against the API the options name: --api as given; --local through the twin's API (the
 * same handlers, so the same checks and messages).
 */
async function onTarget(
  name: string,
  options: TargetOptions,
  runId: string | undefined,
  act: (target: Target) => Promise<number>,
): Promise<number> {
  if ((options.local === true) === (options.api !== undefined)) {
    program.error(`${name}: choose one of --local (the local twin) or --api <url> (a running API)`, {
      exitCode: EXIT_INVALID_INPUT,
    });
  }
  if (options.api !== undefined) return act({ api: options.api });
  const { withLocalApi } = await localTwin();
  return withLocalApi(runId, { json: options.json ?? false }, (api, address, twin) =>
    act({ api, address, twin }),
  );
}

type FollowOptions = TargetOptions & { follow: boolean };

/**
 * Whether to follow the run after acting: as asked, except through a twin of the local data folder
 * that this command booted (the run moves on only while it runs: always followed) or that another
 * command stops when its run ends (that command shows the run's progress: not followed here).
 */
function actionOptions(options: FollowOptions, target: Target): ActionOptions {
  const base = {
    api: target.api,
    json: options.json ?? false,
    ...(target.address ? { address: target.address } : {}),
  };
  if (target.twin === "own" && !options.follow) {
    return {
      ...base,
      follow: true,
      followNote:
        "following the run anyway: no other twin serves the data folder, and the run moves on only while this command's twin runs",
    };
  }
  if (target.twin === "following" && options.follow) {
    return {
      ...base,
      follow: false,
      followNote:
        "not following the run here: the command whose twin serves the data folder follows it to its end (and stops with it)",
    };
  }
  return { ...base, follow: options.follow };
}

withTarget(
  runs
    .command("answer")
    .description(
      "answer the question of a run in AWAITING_INPUT (each asked field as <field>=<value>) and follow the run to its end",
    )
    .argument("<run_id>", "the run that waits for input")
    .argument(
      "<answers...>",
      "<field>=<value> for each asked field, e.g. borrower_info.monthly_income=8000 (a plain number is sent as a number)",
    )
    .option("--no-follow", "only post the answer; do not follow the run"),
).action(async (runId: string, args: string[], options: FollowOptions) => {
  let answers: Record<string, string | number>;
  try {
    answers = parseAnswerArguments(args);
  } catch (error) {
    if (!(error instanceof AnswerArgumentError)) throw error;
    process.exitCode = reportProblems(
      [{ field: error.field, message: error.message }],
      `run ${runId}`,
      undefined,
      "invalid answer",
    );
    return;
  }
  const { runApiAnswer } = await remoteApi();
  process.exitCode = await onTarget("rewoo runs answer", options, runId, (target) =>
    runApiAnswer(runId, answers, actionOptions(options, target)),
  );
});

/** approve / reject: the decision, with the operator's reason when one is given. */
function decisionCommand(name: "approve" | "reject", description: string, reasonHelp: string): void {
  withTarget(
    runs
      .command(name)
      .description(description)
      .argument("<run_id>", "the run whose plan waits for approval")
      .option("--reason <text>", reasonHelp)
      .option("--no-follow", "only post the decision; do not follow the run"),
  ).action(async (runId: string, options: FollowOptions & { reason?: string }) => {
    const decision: PlanDecision =
      options.reason !== undefined ? { decision: name, reason: options.reason } : { decision: name };
    const { runApiDecision } = await remoteApi();
    process.exitCode = await onTarget(`rewoo runs ${name}`, options, runId, (target) =>
      runApiDecision(runId, decision, actionOptions(options, target)),
    );
  });
}

decisionCommand(
  "approve",
  "approve the plan of a run in AWAITING_APPROVAL (its tools run) and follow the run to its end",
  "why (kept with the approval)",
);
decisionCommand(
  "reject",
  "reject the plan of a run in AWAITING_APPROVAL: no tool runs, the run ends REJECTED (exit code 4 when followed)",
  "what is wrong with the plan (required)",
);

withTarget(
  runs
    .command("edit-plan")
    .description(
      "replace the plan of a run in AWAITING_APPROVAL (checked and reviewed like the planner's) and follow the run to its end",
    )
    .argument("<run_id>", "the run whose plan waits for approval")
    .argument(
      "<plan>",
      'file with the plan: a JSON array of steps, {"steps": [...]}, or the planner\'s text ("#E1 = tool[...]"); - reads stdin',
    )
    .option("--reason <text>", "what the edit changes (kept with the approval)")
    .option("--no-follow", "only post the plan; do not follow the run"),
).action(async (runId: string, file: string, options: FollowOptions & { reason?: string }) => {
  let text: string;
  try {
    text = file === "-" ? await readStdin() : readFileSync(file, "utf8");
  } catch (error) {
    process.exitCode = reportProblems(
      [{ field: "plan", message: `cannot read ${file}: ${(error as Error).message}` }],
      `run ${runId}`,
      undefined,
      "invalid plan",
    );
    return;
  }
  const decision: PlanDecision = {
    decision: "edit",
    plan: planOf(text),
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
  };
  const { runApiDecision } = await remoteApi();
  process.exitCode = await onTarget("rewoo runs edit-plan", options, runId, (target) =>
    runApiDecision(runId, decision, actionOptions(options, target)),
  );
});

/** JSON plans go as JSON (the API reads steps); anything else as the planner's text. */
function planOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

withTarget(
  runs
    .command("list")
    .description(
      "runs newest first (the last 7 days unless --from/--to say otherwise) with their status, filtered; one page, with the --cursor of the next when there is one",
    )
    .addOption(
      new Option("--limit <n>", "how many (1-100)").default(20).argParser((value) => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1 || n > 100)
          throw new InvalidArgumentError("expected an integer 1-100");
        return n;
      }),
    )
    .option("--status <statuses>", "only runs in these statuses, comma-separated (e.g. FAILED,INTERRUPTED)")
    .option("--program <loan_program>", "only runs of this loan program (metadata.loan_program, exact)")
    .option("--classification <name>", "only runs of this classification (metadata.classification, exact)")
    .option("--from <YYYY-MM-DD>", "first creation day (UTC); default: 6 days before --to")
    .option("--to <YYYY-MM-DD>", "last creation day (UTC); default: today")
    .option(
      "--search <run id or loan number>",
      "that run, or the runs of that loan number (metadata.loan_number), over the last 92 days unless --from says otherwise",
    )
    .option(
      "--cursor <cursor>",
      "the next page of a list: the cursor the previous page printed (same options)",
    )
    .option(
      "--needs-you",
      `the runs that need a person over the last ${NEEDS_YOU_DAYS} days: waiting for an answer or an approval, or FAILED/INTERRUPTED and resumable`,
    ),
).action(async (options: TargetOptions & RunListOptions) => {
  const { runApiList } = await remoteApi();
  process.exitCode = await onTarget("rewoo runs list", options, undefined, (target) =>
    runApiList({
      ...options,
      api: target.api,
      json: options.json ?? false,
      ...(target.address ? { address: target.address } : {}),
    }),
  );
});

withTarget(
  runs
    .command("show")
    .description(
      "print a run's record; for a run that waits, what it waits for and the commands that answer it",
    )
    .argument("<run_id>", "the run"),
).action(async (runId: string, options: TargetOptions) => {
  const { runApiShow } = await remoteApi();
  process.exitCode = await onTarget("rewoo runs show", options, runId, (target) =>
    runApiShow(runId, {
      api: target.api,
      json: options.json ?? false,
      ...(target.address ? { address: target.address } : {}),
    }),
  );
});

program
  .command("batch")
  .description(
    "evaluate a portfolio of loan files as one batch (POST /v1/batches) on the local twin (--local) or a running API (--api <url>), show its progress and every file's result",
  )
  .argument(
    "<input>",
    "a folder of request files (every *.json, one batch line each, in name order) or a JSON Lines manifest (*.jsonl, one request per line)",
  )
  .option(
    "--local",
    "run it through the local twin (offline; PDF files on disk in s3_pdf_paths are uploaded)",
  )
  .option(
    "--api <url>",
    "send it to a running API (e.g. http://127.0.0.1:3000 from `rewoo dev`, or a deployed stage)",
  )
  .addOption(
    new Option("--max-concurrency <n>", "lines evaluated at once (the API's default: 10)").argParser(
      (value) => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
        return n;
      },
    ),
  )
  .addOption(
    new Option(
      "--tolerated-failure-percentage <p>",
      "share of FAILED/INTERRUPTED lines above which the batch stops (0-100; the API's default: 10)",
    ).argParser((value) => {
      const p = Number(value);
      if (value.trim() === "" || !Number.isFinite(p) || p < 0 || p > 100)
        throw new InvalidArgumentError("expected a number from 0 to 100");
      return p;
    }),
  )
  .option("--name <label>", "a label for people (the dashboard, rewoo batches show)")
  .option("--out <file>", "write every line's result to this file as JSON Lines")
  .option("--json", "print only the summary (counts and every line's result) as JSON on stdout")
  .action(
    async (
      path: string,
      options: {
        local?: boolean;
        api?: string;
        maxConcurrency?: number;
        toleratedFailurePercentage?: number;
        name?: string;
        out?: string;
        json?: boolean;
      },
    ) => {
      if ((options.local === true) === (options.api !== undefined)) {
        program.error("rewoo batch: choose one of --local (the local twin) or --api <url> (a running API)", {
          exitCode: EXIT_INVALID_INPUT,
        });
      }
      const { BatchInputError, readBatchInput } = await import("./batch-input.ts");
      let input: BatchInput;
      try {
        input = readBatchInput(path);
      } catch (error) {
        if (!(error instanceof BatchInputError)) throw error;
        process.exitCode = reportProblems(
          [{ field: error.field, message: error.message }],
          path,
          undefined,
          "invalid batch",
        );
        return;
      }
      const common = {
        json: options.json ?? false,
        tty: process.stdout.isTTY === true,
        ...(options.out !== undefined ? { out: options.out } : {}),
        ...(options.maxConcurrency !== undefined ? { maxConcurrency: options.maxConcurrency } : {}),
        ...(options.toleratedFailurePercentage !== undefined
          ? { toleratedFailurePercentage: options.toleratedFailurePercentage }
          : {}),
        ...(options.name !== undefined ? { name: options.name } : {}),
      };
      process.exitCode =
        options.api !== undefined
          ? await (await import("./batch.ts")).runBatch(input, { ...common, api: options.api })
          : await (await localTwin()).runLocalBatch(input, common);
    },
  );

withTarget(
  program
    .command("upload")
    .description(
      "upload PDFs to the documents bucket through the API (POST /v1/documents, then a presigned PUT) and print each one's s3_pdf_path, for a request's s3_pdf_paths",
    )
    .argument("<files...>", "PDF files"),
).action(async (files: string[], options: TargetOptions) => {
  const { uploadFiles } = await import("./upload.ts");
  process.exitCode = await onTarget("rewoo upload", options, undefined, (target) =>
    uploadFiles(target.api, files, { json: options.json ?? false }),
  );
});

registerEvalCommand(program);

const batches = program.command("batches").description("work with existing batches");
withTarget(
  batches
    .command("show")
    .description("a batch's status, its counts by line status and every line's result (also while it runs)")
    .argument("<batch_id>", "the batch")
    .option("--out <file>", "write every line's result to this file as JSON Lines"),
).action(async (batchId: string, options: TargetOptions & { out?: string }) => {
  const { runBatchShow } = await import("./batch.ts");
  process.exitCode = await onTarget("rewoo batches show", options, undefined, (target) =>
    runBatchShow(batchId, {
      api: target.api,
      json: options.json ?? false,
      ...(options.out !== undefined ? { out: options.out } : {}),
      ...(target.address ? { address: target.address } : {}),
    }),
  );
});

program
  .command("chat")
  .description(
    "talk to the banking assistant (POST /v1/chat) as a signed-in customer, through the local twin (--local) or a running API (--api <url> --customer-token <token>)",
  )
  .option(
    "--local",
    "through the local twin (the one serving the data folder, else one booted for the command), as a demo customer",
  )
  .option(
    "--customer <id>",
    "with --local: the demo customer to sign in as (cust_alice, cust_sam, cust_bob; default cust_alice)",
  )
  .option(
    "--api <url>",
    "through a running API (e.g. http://127.0.0.1:3000 from `rewoo dev`, or a deployed stage)",
  )
  .option("--customer-token <token>", "with --api: the signed-in customer's token (sent as X-Customer-Token)")
  .option("--session <id>", "go on with this conversation (one of the customer's sessions)")
  .option(
    "--message <text>",
    "send this message instead of prompting (repeatable: sent in order, in one session)",
    (value: string, previous: string[] = []) => [...previous, value],
  )
  .option("--json", "with --message: print each raw API answer as one JSON line")
  .action(async (raw: RawChatOptions) => {
    const { ChatOptionsError, runChat, validateChatOptions } = await import("./chat.ts");
    let options: ReturnType<typeof validateChatOptions>;
    try {
      options = validateChatOptions(raw);
    } catch (error) {
      if (!(error instanceof ChatOptionsError)) throw error;
      process.exitCode = reportProblems(error.problems, "rewoo chat", undefined, "invalid options");
      return;
    }
    process.exitCode = await runChat(options);
  });

program
  .command("operator-token")
  .description(
    "print an operator token (watches every run: a dashboard's ?token=, or rewoo evaluate --token), signed with REWOO_OPERATOR_TOKEN_SECRET",
  )
  .option(
    "--local",
    "without REWOO_OPERATOR_TOKEN_SECRET: sign with the operator key of the twin's data folder",
  )
  .option(
    "--ttl <seconds>",
    "lifetime (default and most: REWOO_OPERATOR_TOKEN_MAX_LIFETIME_SECONDS, 12 h unless set)",
  )
  .action(async (options: OperatorTokenOptions) => {
    const { mintOperatorToken, TokenCommandError } = await import("./token-keys.ts");
    try {
      process.stdout.write(`${await mintOperatorToken(options)}\n`);
    } catch (error) {
      if (!(error instanceof TokenCommandError)) throw error;
      process.exitCode = reportProblems(error.problems, "rewoo operator-token", undefined, "invalid options");
    }
  });

program
  .command("mcp")
  .description(
    "serve the run operations (start an evaluation, read a run's verdicts, list the runs that need a person, answer a question, approve or reject a plan) as a Model Context Protocol server over stdio",
  )
  .option(
    "--local",
    "through the local twin (the one serving the data folder, else one booted for the session)",
  )
  .option(
    "--api <url>",
    "through a running API (e.g. http://127.0.0.1:3000 from `rewoo dev`, or a deployed stage)",
  )
  .action(async (options: { local?: boolean; api?: string }) => {
    if ((options.local === true) === (options.api !== undefined)) {
      program.error("rewoo mcp: choose one of --local (the local twin) or --api <url> (a running API)", {
        exitCode: EXIT_INVALID_INPUT,
      });
    }
    const { runMcpCommand } = await import("./mcp-command.ts");
    process.exitCode = await runMcpCommand(options);
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
    const { parsePlanCommand } = await import("./plan-parse.ts");
    process.exitCode = await parsePlanCommand(file, options);
  });

try {
  await program.parseAsync();
} catch (error) {
  // A twin that holds the data folder without serving it (one still booting, or not a `rewoo`
  // command's): said in one line, not as a stack trace.
  // Checked by name first: any other error leaves without loading the twin's emulators to compare.
  if (!(error instanceof Error && error.name === "DataFolderInUseError")) throw error;
  const { DataFolderInUseError } = await import("../infra/local/emulators.ts");
  if (!(error instanceof DataFolderInUseError)) throw error;
  process.stderr.write(
    `${pc.red("the data folder is busy")}: ${error.message}; wait until that process is done, or use another data folder (REWOO_DATA_DIR)\n`,
  );
  process.exitCode = EXIT_RUN_FAILED;
}
