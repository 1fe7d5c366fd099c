// `rewoo dev` stopped while a batch runs: the stop does not cancel the batch's runs (they are resumed by
// the next boot like any run in flight), and the next boot ends the batch FAILED (Interrupted), since
// its Map Run died with the process; its lines say which runs were in flight and which never started.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { post } from "./twin-fixture.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
let dataDir: string | undefined;

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startDev(dir: string): Promise<{ child: ChildProcessWithoutNullStreams; api: string }> {
  const child = spawn("node", ["bin/rewoo.mjs", "dev", "--port", "0", "--no-sample"], {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1", REWOO_DATA_DIR: dir, REWOO_TOOL_LATENCY_MS: "*=0" },
  });
  children.push(child);
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.resume();
  for (let i = 0; i < 900 && !stdout.includes("serving until Ctrl-C"); i++) await sleep(50);
  const api = /API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
  if (!api) throw new Error(`rewoo dev did not start:\n${stdout}`);
  return { child, api };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (done(value)) return value;
    await sleep(50);
  }
  throw new Error("gave up waiting");
}

type Line = { line: number; status: string; run_id?: string };

async function lines(api: string, batchId: string): Promise<Line[]> {
  const text = await (await fetch(`${api}/v1/batches/${batchId}/results`)).text();
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
}

const run = async (api: string, runId: string) =>
  (await (await fetch(`${api}/v1/runs/${runId}`)).json()) as RunRecord;

describe("a twin restarted while a batch runs", () => {
  it("keeps the batch's runs for the next boot, which ends the batch FAILED (Interrupted)", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "rewoo-batch-restart-"));
    const first = await startDev(dataDir);
    const waiting = {
      ...JSON.parse(readFileSync(join(root, "examples/sample-tax-return.json"), "utf8")),
      options: { approval: "required" },
    };
    const started = await post(first.api, "/v1/batches", {
      requests: [waiting, waiting, waiting],
      max_concurrency: 2,
    });
    expect(started.status).toBe(202);
    const batchId = started.body.batch_id as string;
    const inFlight = (
      await until(
        () => lines(first.api, batchId),
        (current) => current.filter((line) => line.status === "RUNNING").length === 2,
      )
    ).filter((line) => line.status === "RUNNING");
    for (const line of inFlight) {
      await until(
        () => run(first.api, line.run_id ?? ""),
        (record) => record.status === "AWAITING_APPROVAL",
      );
    }

    first.child.kill("SIGTERM");
    await new Promise((resolve) => first.child.once("exit", resolve));

    const second = await startDev(dataDir);
    const batch = (await (await fetch(`${second.api}/v1/batches/${batchId}`)).json()) as {
      status: string;
      error: { error: string; cause: string };
    };
    expect(batch.status).toBe("FAILED");
    expect(batch.error.error).toBe("Interrupted");
    // The runs were not cancelled by the stop: the new boot resumed them into the same wait.
    for (const line of inFlight) {
      const resumed = await until(
        () => run(second.api, line.run_id ?? ""),
        (record) => record.status === "AWAITING_APPROVAL" && record.attempt === 2,
      );
      expect(resumed.status).toBe("AWAITING_APPROVAL");
    }
    const after = await lines(second.api, batchId);
    expect(after.map((line) => line.status).sort()).toEqual(["NOT_RUN", "STOPPED", "STOPPED"]);
    second.child.kill("SIGTERM");
    await new Promise((resolve) => second.child.once("exit", resolve));
  }, 120_000);
});
