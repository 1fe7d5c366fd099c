// The `--local` commands as a person runs them, each a separate process: `rewoo evaluate --local`
// beside a `rewoo dev` that serves the data folder (it goes through that twin instead of failing on
// the folder's lock), a FAILED run's resume command (printed, then run as printed), the twin's logs
// kept out of the command's output (in the data folder's twin.log), a request file that cannot be
// read (one line, exit 2), and the boot telling runs it resumed from runs that wait for a person.
import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { bankRequestWithoutIncome, taxReturnRequest } from "./twin-fixture.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const children: ChildProcessWithoutNullStreams[] = [];
const folders: string[] = [];
/** Each test runs several `rewoo` processes, each booting or reaching a twin. */
const SEVERAL_COMMANDS = { timeout: 240_000 };
/** A Powertools log line (JSON with a level), which belongs in the twin's log, not in a command's output. */
const LOG_LINE = /^\{"level":"(DEBUG|INFO|WARN|ERROR|CRITICAL)"/m;

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

/**
 * NO_COLOR: tests read plain text. The machine's tool latency and faults are not the test's, and the
 * twin logs at its own default level (WARN), not at the test suite's SILENT: as a person runs it.
 */
function cliEnv(env: Record<string, string>) {
  const {
    REWOO_TOOL_LATENCY_MS: _latency,
    REWOO_FAULTS: _faults,
    POWERTOOLS_LOG_LEVEL: _level,
    ...inherited
  } = process.env;
  return { ...inherited, NO_COLOR: "1", ...env };
}

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

/** `rewoo dev` on `dataDir`, left serving; resolves once it serves, with its API URL. */
async function startDev(dataDir: string) {
  const child = spawn("node", ["bin/rewoo.mjs", "dev", "--port", "0", "--no-sample"], {
    cwd: root,
    env: cliEnv({ REWOO_DATA_DIR: dataDir }),
  });
  children.push(child);
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
  });
  while (!output.stdout.includes("serving until Ctrl-C")) {
    if (child.exitCode !== null) throw new Error(`rewoo dev ended (${child.exitCode}):\n${output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const api = /^API\s+(http:\/\/127\.0\.0\.1:\d+)/m.exec(output.stdout)?.[1] as string;
  const stop = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  return { child, api, output, stop };
}

describe("rewoo evaluate --local while rewoo dev serves the data folder", () => {
  it(
    "goes through the serving twin: uploads the PDF from disk to its S3, follows the run to its end, and the run is that twin's",
    SEVERAL_COMMANDS,
    async () => {
      const dataDir = folder("rewoo-cli-local-");
      const dev = await startDev(dataDir);
      try {
        const files = folder("rewoo-cli-local-files-");
        const signed = (await generateSampleDocuments()).find((document) =>
          document.key.endsWith("1120-signed.pdf"),
        );
        mkdirSync(join(files, "scans"));
        writeFileSync(join(files, "scans", "acme 1120.pdf"), signed?.bytes ?? new Uint8Array());
        const request = join(files, "request.json");
        writeFileSync(request, JSON.stringify(taxReturnRequest(["./scans/acme 1120.pdf"])));

        const evaluated = await rewoo(["evaluate", request, "--local"], { REWOO_DATA_DIR: dataDir });
        expect(evaluated.stderr).not.toMatch(/in use|Error:/);
        expect(evaluated.code, evaluated.stderr).toBe(0);
        expect(evaluated.stdout).toContain(
          `through the twin serving ${dataDir} (pid ${dev.child.pid}): ${dev.api}`,
        );
        expect(evaluated.stdout).toMatch(
          /^uploaded \S+\/scans\/acme 1120\.pdf to s3:\/\/rewoo-documents\/uploads\/[0-9a-f]{16}\/acme 1120\.pdf$/m,
        );
        // No twin of its own: no boot line.
        expect(evaluated.stdout).not.toContain("local twin: dynalite");
        const runId = /^RUN\s+(run-\S+)/m.exec(evaluated.stdout)?.[1] as string;
        expect(evaluated.stdout).toContain(`Run ${runId}: SUCCEEDED`);
        expect(evaluated.stdout).toMatch(/TR_SIGNED: fulfilled/);

        const record = (await (await fetch(`${dev.api}/v1/runs/${runId}`)).json()) as RunRecord;
        expect(record.status).toBe("SUCCEEDED");
        expect(record.request.s3_pdf_paths).toEqual([
          expect.stringMatching(/^uploads\/[0-9a-f]{16}\/acme 1120\.pdf$/),
        ]);
        // rewoo dev's own output stays free of the functions' log lines, which its data folder keeps.
        expect(dev.output.stdout).not.toMatch(LOG_LINE);
        expect(dev.output.stderr).not.toMatch(LOG_LINE);
        expect(dev.output.stdout).toContain(`logs ${join(dataDir, "twin.log")}`);
        expect(existsSync(join(dataDir, "twin.log"))).toBe(true);
      } finally {
        await dev.stop();
      }
    },
  );

  it(
    "a data folder that a twin holds without serving it is one line on stderr, not a stack trace",
    SEVERAL_COMMANDS,
    async () => {
      const dataDir = folder("rewoo-cli-local-held-");
      const twin = await startTwin({ dataDir, port: 0 });
      try {
        const request = join(dataDir, "request.json");
        writeFileSync(request, JSON.stringify(taxReturnRequest(["rm-conditions/1120-signed.pdf"])));
        const refused = await rewoo(["evaluate", request, "--local"], { REWOO_DATA_DIR: dataDir });
        expect(refused.code).toBe(1);
        expect(refused.stderr.trimEnd().split("\n")).toEqual([
          `the data folder is busy: The DynamoDB data folder ${join(dataDir, "dynamodb")} is in use by another process (is another local twin running on the same data folder?); wait until that process is done, or use another data folder (REWOO_DATA_DIR)`,
        ]);
      } finally {
        await twin.stop();
      }
    },
  );
});

describe("a run that ends FAILED", () => {
  it("prints the command that resumes it, which resumes it as printed", SEVERAL_COMMANDS, async () => {
    const dataDir = folder("rewoo-cli-failed-");
    const responses = join(dataDir, "responses.json");
    // A planner that answers prose: no plan can be read from it, and the run ends FAILED.
    writeFileSync(responses, JSON.stringify([{ purpose: "planner", text: "I cannot help with that." }]));
    const request = join(dataDir, "request.json");
    writeFileSync(request, JSON.stringify(taxReturnRequest(["rm-conditions/1120-signed.pdf"])));

    const failed = await rewoo(["evaluate", request, "--local"], {
      REWOO_DATA_DIR: dataDir,
      REWOO_LLM_PROVIDER: "scripted",
      REWOO_SCRIPTED_RESPONSES: responses,
    });
    expect(failed.code).toBe(1);
    const runId = /^RUN\s+(run-\S+)/m.exec(failed.stdout)?.[1] as string;
    expect(failed.stdout).toContain(`Run ${runId}: FAILED`);
    const resume = `REWOO_DATA_DIR=${dataDir} npx rewoo runs resume ${runId} --local`;
    expect(failed.stdout).toContain(`  resume: ${resume} (finished steps are not run again)`);

    // Run as printed, with the machine's own model: the run goes on and ends SUCCEEDED.
    const resumed = await rewoo(["runs", "resume", runId, "--local"], { REWOO_DATA_DIR: dataDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`RESUME  ${runId}: attempt 2`);
    expect(resumed.stdout).toContain(`Run ${runId}: SUCCEEDED`);
    expect(resumed.stdout).not.toContain("resume:");
  });
});

describe("the twin's logs", () => {
  it(
    "are appended to the data folder's twin.log, not mixed into the command's output",
    SEVERAL_COMMANDS,
    async () => {
      const dataDir = folder("rewoo-cli-logs-");
      const request = join(dataDir, "request.json");
      writeFileSync(request, JSON.stringify(taxReturnRequest(["rm-conditions/1120-signed.pdf"])));
      // A failing tool: the worker logs it (WARN), and the run goes on without its evidence.
      const evaluated = await rewoo(["evaluate", request, "--local"], {
        REWOO_DATA_DIR: dataDir,
        REWOO_FAULTS: "retrieve_s3_document=1:error",
      });
      const runId = /^RUN\s+(run-\S+)/m.exec(evaluated.stdout)?.[1] as string;
      expect(evaluated.stdout).toContain("failed in");
      expect(evaluated.stdout).not.toMatch(LOG_LINE);
      expect(evaluated.stderr).not.toMatch(LOG_LINE);
      const logFile = join(dataDir, "twin.log");
      expect(evaluated.stdout).toContain(`, logs ${logFile}`);
      const logged = readFileSync(logFile, "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged).toContainEqual(
        expect.objectContaining({
          level: "WARN",
          message: "tool failed",
          run_id: runId,
          tool: "retrieve_s3_document",
        }),
      );
    },
  );
});

describe("a request file that cannot be read", () => {
  it("is one line on stderr and exit 2, without the usage", async () => {
    const dir = folder("rewoo-cli-unreadable-");
    const missing = await rewoo(["evaluate", join(dir, "nope.json"), "--local"]);
    expect(missing).toEqual({
      code: 2,
      stdout: "",
      stderr: `rewoo evaluate: cannot read ${join(dir, "nope.json")}: no such file\n`,
    });
    const notJson = join(dir, "notes.json");
    writeFileSync(notJson, "loan notes, not a request");
    const unreadable = await rewoo(["evaluate", notJson, "--local"]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(
      new RegExp(`^rewoo evaluate: cannot read ${notJson}: not JSON \\(Unexpected token .*\\)\\n$`),
    );
    const folderGiven = await rewoo(["evaluate", dir, "--api", "http://127.0.0.1:9"]);
    expect(folderGiven).toMatchObject({
      code: 2,
      stderr: `rewoo evaluate: cannot read ${dir}: it is a folder, not a file\n`,
    });
    // A command line the parser refuses is invalid input too: 2, never the 1 of a failed run.
    const neither = await rewoo(["evaluate", notJson]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("rewoo evaluate: choose one of --local (the local twin) or --api <url>");
    expect((await rewoo(["evaluate", notJson, "--local", "--colour"])).code).toBe(2);
  });
});

describe("the boot after a twin stopped with a run waiting for a person", () => {
  it("says the run waits (it is not resumed), apart from the runs it resumed", SEVERAL_COMMANDS, async () => {
    const dataDir = folder("rewoo-cli-boot-");
    const request = join(dataDir, "bank-request.json");
    writeFileSync(request, JSON.stringify(bankRequestWithoutIncome()));
    const child = spawn("node", ["bin/rewoo.mjs", "evaluate", request, "--local"], {
      cwd: root,
      env: cliEnv({ REWOO_DATA_DIR: dataDir }),
    });
    children.push(child);
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.resume();
    while (!/^ {2}answer: /m.test(stdout)) {
      if (child.exitCode !== null) throw new Error(`rewoo evaluate ended (${child.exitCode}):\n${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const runId = /^RUN\s+(run-\S+)/m.exec(stdout)?.[1] as string;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    await exited;

    const listed = await rewoo(["runs", "list", "--local"], { REWOO_DATA_DIR: dataDir });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(
      `1 run waits for a person, as before the last twin stopped (not resumed: it waits for an answer or a decision): ${runId} AWAITING_INPUT; REWOO_DATA_DIR=${dataDir} npx rewoo runs list --needs-you --local`,
    );
    expect(listed.stdout).not.toContain("in flight when the last twin stopped");
    expect(listed.stdout).toMatch(new RegExp(`^${runId}\\s+AWAITING_INPUT\\s`, "m"));
  });
});
