// The `rewoo` command with runs that wait for a person, as separate processes like a loan officer's
// terminals: `rewoo evaluate` prints the question with the command that answers it and keeps
// following; the printed `rewoo runs answer` (through the twin that serves the data folder, or a
// twin of its own after the first command was stopped) lets the run finish; a plan rejected with
// `rewoo runs reject` ends the run REJECTED, exit code 4 for whoever follows it.
import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { bankRequestWithoutIncome, bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const children: ChildProcessWithoutNullStreams[] = [];
const folders: string[] = [];
/** Each test runs several `rewoo` processes, each booting or reaching a twin: more than the default allows on a busy machine. */
const SEVERAL_COMMANDS = { timeout: 240_000 };

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

/** NO_COLOR: tests read plain text. */
const cliEnv = (env: Record<string, string>) => ({ ...process.env, NO_COLOR: "1", ...env });

/** One `rewoo` command to its end. */
async function rewoo(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run("node", ["bin/rewoo.mjs", ...args], {
      cwd: root,
      env: cliEnv(env),
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A `rewoo` command left running (like `rewoo evaluate` in another terminal), its output read as it comes. */
function startRewoo(args: string[], env: Record<string, string> = {}) {
  const child = spawn("node", ["bin/rewoo.mjs", ...args], { cwd: root, env: cliEnv(env) });
  children.push(child);
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output,
    exited,
    /** Resolves with stdout once `pattern` appears in it; fails if the command ends first. */
    async until(pattern: RegExp): Promise<RegExpExecArray> {
      for (;;) {
        const match = pattern.exec(output.stdout);
        if (match) return match;
        if (child.exitCode !== null) {
          throw new Error(
            `rewoo ${args.join(" ")} ended (${child.exitCode}) before ${pattern}:\n${output.stdout}\n${output.stderr}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** The printed answer command, run as typed with the value filled in (node bin/rewoo.mjs for npx rewoo). */
function answerArgs(printed: string, value: string): { args: string[]; env: Record<string, string> } {
  const match = /^(?:REWOO_DATA_DIR=(\S+) )?npx rewoo (.+)$/.exec(printed.trim());
  if (!match) throw new Error(`not a rewoo command: ${printed}`);
  return {
    args: (match[2] as string).replace("<value>", value).split(" "),
    env: match[1] ? { REWOO_DATA_DIR: match[1] } : {},
  };
}

describe("rewoo evaluate --local on a run that asks for input", () => {
  it(
    "prints the question and the command that answers it, keeps following, and finishes once it is answered",
    SEVERAL_COMMANDS,
    async () => {
      const dataDir = folder("rewoo-cli-waits-");
      const request = join(dataDir, "bank-request.json");
      writeFileSync(request, JSON.stringify(bankRequestWithoutIncome()));
      const evaluation = startRewoo(["evaluate", request, "--local"], { REWOO_DATA_DIR: dataDir });

      const [, printed] = await evaluation.until(/^ {2}answer: (.+)$/m);
      const runId = /^RUN\s+(run-\S+)/m.exec(evaluation.output.stdout)?.[1] as string;
      const question = evaluation.output.stdout.slice(evaluation.output.stdout.indexOf("QUESTION"));
      expect(question.split("\n").slice(0, 6)).toEqual([
        expect.stringMatching(
          /^QUESTION the run waits for input until \d{4}-\d\d-\d\dT[\d:.]+Z \(then it goes on without it\)$/,
        ),
        "  borrower_info.monthly_income: What is the borrower's gross monthly income?",
        "    why:      no monthly_income in metadata (borrower_info.monthly_income): cannot verify BS_LARGE_DEPOSITS",
        '    expected: a positive amount in US dollars, e.g. 8000 or "$8,000.00"',
        "    for:      BS_LARGE_DEPOSITS",
        `  answer: REWOO_DATA_DIR=${dataDir} npx rewoo runs answer ${runId} borrower_info.monthly_income=<value> --local`,
      ]);

      // A refused answer names the field and leaves the run waiting.
      const refused = answerArgs(printed as string, "about-eight-grand");
      const refusal = await rewoo(refused.args, refused.env);
      expect(refusal.code).toBe(2);
      expect(refusal.stderr).toContain(
        'answers.borrower_info.monthly_income: expected a positive amount in US dollars, e.g. 8000 or "$8,000.00", got "about-eight-grand"',
      );

      // Through the twin `rewoo evaluate` serves: that command shows the rest of the run.
      const { args, env } = answerArgs(printed as string, "8000");
      expect(args).toEqual(["runs", "answer", runId, "borrower_info.monthly_income=8000", "--local"]);
      const answered = await rewoo(args, env);
      expect(answered.code).toBe(0);
      expect(answered.stdout).toContain(
        `RUN     ${runId}: borrower_info.monthly_income answered; the run goes on`,
      );

      expect(await evaluation.exited).toBe(0);
      const stdout = evaluation.output.stdout;
      expect(stdout).toContain("ANSWER  borrower_info.monthly_income answered; the run goes on");
      expect(stdout).toContain("DONE    SUCCEEDED");
      expect(stdout).toContain(`Run ${runId}: SUCCEEDED`);
      expect(stdout).toContain(
        "  asked borrower_info.monthly_income: answered (borrower_info.monthly_income=8000)",
      );
      expect(stdout).toMatch(/BS_LARGE_DEPOSITS: fulfilled/);
      // The work happened after the answer, once.
      expect(stdout.indexOf("WORKER")).toBeGreaterThan(stdout.indexOf("ANSWER"));
      expect(stdout.match(/WORKER {2}E1 \S+ \(level 0\) started/g)).toHaveLength(1);
    },
  );

  it(
    "stopped with Ctrl-C while it waits, is answered later by rewoo runs answer --local, which follows it to its end",
    SEVERAL_COMMANDS,
    async () => {
      const dataDir = folder("rewoo-cli-waits-");
      const request = join(dataDir, "bank-request.json");
      writeFileSync(request, JSON.stringify(bankRequestWithoutIncome()));
      const evaluation = startRewoo(["evaluate", request, "--local"], { REWOO_DATA_DIR: dataDir });
      await evaluation.until(/^ {2}answer: /m);
      const runId = /^RUN\s+(run-\S+)/m.exec(evaluation.output.stdout)?.[1] as string;

      evaluation.child.kill("SIGINT");
      expect(await evaluation.exited).toBe(130);
      expect(evaluation.output.stderr).toContain(
        `stopped following ${runId} (AWAITING_INPUT); it waits for input again at the next boot: REWOO_DATA_DIR=${dataDir} npx rewoo runs answer ${runId} borrower_info.monthly_income=<value> --local`,
      );

      const answered = await rewoo(
        ["runs", "answer", runId, "borrower_info.monthly_income=8000", "--local"],
        {
          REWOO_DATA_DIR: dataDir,
        },
      );
      expect(answered.code).toBe(0);
      expect(answered.stdout).toContain("ANSWER  borrower_info.monthly_income answered; the run goes on");
      expect(answered.stdout).toContain("DONE    SUCCEEDED");
      expect(answered.stdout).toContain(`Run ${runId}: SUCCEEDED`);

      const listed = await rewoo(["runs", "list", "--local"], { REWOO_DATA_DIR: dataDir });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`^${runId}\\s+SUCCEEDED\\s`, "m"));
    },
  );
});

describe("a plan that waits for approval, through a running API", () => {
  let twin: Twin;

  beforeAll(async () => {
    twin = await bootTwinWithSamples();
  });

  afterAll(async () => {
    await twin?.stop();
  });

  it(
    "rejected with rewoo runs reject --reason: REJECTED, exit code 4 for the command that follows it",
    SEVERAL_COMMANDS,
    async () => {
      const dir = folder("rewoo-cli-approval-");
      const request = join(dir, "tax-request.json");
      writeFileSync(
        request,
        JSON.stringify(
          taxReturnRequest(["rm-conditions/1120-signed.pdf"], { options: { approval: "required" } }),
        ),
      );
      const api = twin.urls.api;
      const evaluation = startRewoo(["evaluate", request, "--api", api]);
      await evaluation.until(/^ {2}edit: /m);
      const runId = /^RUN\s+(run-\S+)/m.exec(evaluation.output.stdout)?.[1] as string;
      expect(evaluation.output.stdout).toContain(
        `  reject:  npx rewoo runs reject ${runId} --reason "<why>" --api ${api}`,
      );
      const listed = await rewoo(["runs", "list", "--api", api]);
      expect(listed.stdout).toMatch(new RegExp(`^${runId}\\s+AWAITING_APPROVAL\\s`, "m"));

      // Without a reason the API refuses, naming the field; the plan still waits.
      const noReason = await rewoo(["runs", "reject", runId, "--api", api]);
      expect(noReason.code).toBe(2);
      expect(noReason.stderr).toContain("  reason: required to reject: say what is wrong with the plan");

      const rejected = await rewoo(["runs", "reject", runId, "--reason", "x", "--api", api]);
      expect(rejected.code).toBe(4);
      expect(rejected.stdout).toContain("APPROVAL rejected: x; no tool runs; the run ends REJECTED");
      expect(rejected.stdout).toContain("DONE    REJECTED");
      expect(rejected.stdout).toContain(`Run ${runId}: REJECTED`);
      expect(rejected.stdout).not.toContain("WORKER");

      expect(await evaluation.exited).toBe(4);
      expect(evaluation.output.stdout).toContain("APPROVAL rejected: x; no tool runs; the run ends REJECTED");
      expect(evaluation.output.stdout).toContain(`Run ${runId}: REJECTED`);
      expect(evaluation.output.stdout).toContain("  plan rejected: x");
    },
  );
});
