// The twin's process dies mid-run (SIGKILL: no shutdown code runs) and is started again on the same
// data folder: every run that was in flight is resumed and completes, no tool is called again for a
// step whose evidence was stored, and no stored evidence changes.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { Evidence, ProgressEvent, RunRecord } from "../../lambdas/core/types.ts";
import { taxReturnRequest } from "./twin-fixture.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const RUNS = 6;
const children: ChildProcessWithoutNullStreams[] = [];
let dataDir: string | undefined;

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `rewoo dev` on its own data folder; resolves with its API URL once it serves. */
async function startDev(
  dir: string,
): Promise<{ child: ChildProcessWithoutNullStreams; api: string; output: () => string }> {
  const child = spawn("node", ["bin/rewoo.mjs", "dev", "--port", "0", "--no-sample"], {
    cwd: root,
    // Slow tools: runs are still in flight when the process is killed.
    env: { ...process.env, NO_COLOR: "1", REWOO_DATA_DIR: dir, REWOO_TOOL_LATENCY_MS: "*=250" },
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
  return { child, api, output: () => stdout };
}

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok)
    throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const okEvidence = (record: RunRecord): Evidence[] => record.evidence.filter((item) => item.status === "ok");

describe("a twin killed mid-run", () => {
  it("resumes every run in flight at the next boot: all complete, no tool called twice, no data changed", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "rewoo-crash-"));
    const first = await startDev(dataDir);
    const runIds: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = await getJson<{ run_id: string }>(`${first.api}/v1/evaluate-conditions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(taxReturnRequest(["rm-conditions/1120-signed.pdf"])),
      });
      runIds.push(started.run_id);
    }

    // Kill once some work is stored, before the runs are done.
    let before: RunRecord[] = [];
    for (let i = 0; i < 400; i++) {
      before = await Promise.all(runIds.map((id) => getJson<RunRecord>(`${first.api}/v1/runs/${id}`)));
      if (before.reduce((sum, record) => sum + okEvidence(record).length, 0) >= 2) break;
      await sleep(25);
    }
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    const inFlight = before.filter((record) => !["SUCCEEDED", "FAILED", "CANCELLED"].includes(record.status));
    expect(inFlight.length).toBeGreaterThan(0);
    const storedBefore = before.flatMap((record) =>
      okEvidence(record).map((item) => ({ run: record.run_id, item })),
    );
    expect(storedBefore.length).toBeGreaterThan(0);

    const second = await startDev(dataDir);
    expect(second.output()).toMatch(/(runs were|run was) in flight when the last twin stopped: \d+ resumed/);
    let after: RunRecord[] = [];
    for (let i = 0; i < 600; i++) {
      after = await Promise.all(runIds.map((id) => getJson<RunRecord>(`${second.api}/v1/runs/${id}`)));
      if (
        after.every((record) => ["SUCCEEDED", "FAILED", "CANCELLED", "INTERRUPTED"].includes(record.status))
      )
        break;
      await sleep(50);
    }

    // Every run completed.
    expect(after.map((record) => record.status)).toEqual(runIds.map(() => "SUCCEEDED"));
    for (const record of after.filter((r) => inFlight.some((f) => f.run_id === r.run_id))) {
      expect(record.attempt).toBe(2);
    }
    // No data changed: evidence stored before the kill is exactly what the runs end with.
    for (const { run, item } of storedBefore) {
      const final = after.find((record) => record.run_id === run);
      expect(final?.evidence.find((candidate) => candidate.step_id === item.step_id)).toEqual(item);
    }
    // No tool called twice for work already done: one `started` event per step stored before the kill.
    for (const { run, item } of storedBefore) {
      const { events } = await getJson<{ events: ProgressEvent[] }>(`${second.api}/v1/runs/${run}/events`);
      const starts = events.filter(
        (event) => event.stage === "worker" && event.step === item.step_id && event.status === "started",
      );
      expect(starts).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ stage: "complete", status: "SUCCEEDED" });
    }
    second.child.kill("SIGTERM");
    await new Promise((resolve) => second.child.once("exit", resolve));
  }, 120_000);
});
