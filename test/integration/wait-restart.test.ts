// `rewoo dev` restarted while a run waits for an answer: the next boot resumes the run into the same
// wait (a new execution, a new task token, the question not asked twice), the answer then arrives
// through the API and the run finishes, each tool called once.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { ProgressEvent, RunRecord } from "../../lambdas/core/types.ts";
import { bankRequestWithoutIncome, post, verdictOf } from "./twin-fixture.ts";

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
    env: { ...process.env, NO_COLOR: "1", REWOO_DATA_DIR: dir },
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

async function record(api: string, runId: string): Promise<RunRecord> {
  return (await (await fetch(`${api}/v1/runs/${runId}`)).json()) as RunRecord;
}

async function until(api: string, runId: string, done: (record: RunRecord) => boolean): Promise<RunRecord> {
  for (let i = 0; i < 600; i++) {
    const current = await record(api, runId);
    if (done(current)) return current;
    await sleep(50);
  }
  throw new Error(`run ${runId} never got there`);
}

describe("a twin restarted while a run waits for an answer", () => {
  it("waits again after the restart, and finishes once the answer comes", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "rewoo-wait-restart-"));
    const first = await startDev(dataDir);
    const started = await post(first.api, "/v1/evaluate-conditions", bankRequestWithoutIncome());
    expect(started.status).toBe(202);
    const runId = started.body.run_id as string;
    const asked = await until(first.api, runId, (current) => current.status === "AWAITING_INPUT");

    first.child.kill("SIGTERM");
    await new Promise((resolve) => first.child.once("exit", resolve));

    const second = await startDev(dataDir);
    const waitingAgain = await until(
      second.api,
      runId,
      (current) => current.status === "AWAITING_INPUT" && current.attempt === 2,
    );
    // The same question, the same deadline: the wait goes on, it does not start over.
    expect(waitingAgain.clarification).toEqual(asked.clarification);
    expect(waitingAgain.evidence).toEqual([]);

    const answered = await post(second.api, `/v1/runs/${runId}/input`, {
      answers: { "borrower_info.monthly_income": 8000 },
    });
    expect(answered.status).toBe(202);
    const done = await until(second.api, runId, (current) => current.status === "SUCCEEDED");
    expect(verdictOf(done, "BS_LARGE_DEPOSITS")).toMatch(/^(fulfilled|not_fulfilled)$/);

    const { events } = (await (await fetch(`${second.api}/v1/runs/${runId}/events`)).json()) as {
      events: ProgressEvent[];
    };
    expect(events.filter((event) => event.stage === "question")).toHaveLength(1);
    expect(events.filter((event) => event.stage === "resume")).toHaveLength(1);
    const started1 = events.filter((event) => event.stage === "worker" && event.status === "started");
    expect(started1).toHaveLength(done.plan?.steps.length ?? -1);
    expect(events.at(-1)).toMatchObject({ stage: "complete", status: "SUCCEEDED" });
    second.child.kill("SIGTERM");
    await new Promise((resolve) => second.child.once("exit", resolve));
  }, 120_000);
});
