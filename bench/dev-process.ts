// `rewoo dev` in a child process, for the measures that need the twin in its own process: killed
// mid-run, or watched from outside while it is busy.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * The environment the benchmark was started with. The in-process twin writes its endpoints, table
 * names and token secret into process.env when it boots; a child must not inherit them.
 */
const LAUNCH_ENV: NodeJS.ProcessEnv = { ...process.env };

export function launchEnv(): NodeJS.ProcessEnv {
  return { ...LAUNCH_ENV };
}

const BOOT_TIMEOUT_MS = 60_000;

export interface DevProcess {
  /** Base URL of the REST API. */
  api: string;
  /** Everything the process printed on stdout so far. */
  output(): string;
  /** Milliseconds from spawn to "serving". */
  boot_ms: number;
  /** Sends the signal and resolves once the process has exited. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

/** Boots `rewoo dev --no-sample` on `dataDir` with `env` on top of the launch environment. */
export async function startDevProcess(dataDir: string, env: Record<string, string>): Promise<DevProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, ["bin/rewoo.mjs", "dev", "--port", "0", "--no-sample"], {
    cwd: REPO_ROOT,
    env: {
      ...LAUNCH_ENV,
      NO_COLOR: "1",
      POWERTOOLS_LOG_LEVEL: "ERROR",
      REWOO_LLM_PROVIDER: "rule-based",
      REWOO_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  try {
    const api = await serving(child, () => stdout, exited);
    return { api, output: () => stdout, boot_ms: performance.now() - started, stop };
  } catch (error) {
    await stop("SIGKILL");
    throw new Error(`rewoo dev did not start: ${(error as Error).message}\n${stdout}\n${stderr}`);
  }
}

async function serving(child: ChildProcess, stdout: () => string, exited: Promise<void>): Promise<string> {
  const deadline = performance.now() + BOOT_TIMEOUT_MS;
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  while (!stdout().includes("serving until Ctrl-C")) {
    if (hasExited) throw new Error(`exited with ${child.exitCode ?? child.signalCode}`);
    if (performance.now() > deadline) throw new Error(`not serving after ${BOOT_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const api = /API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout())?.[1];
  if (!api) throw new Error("no API URL in its output");
  return api;
}
