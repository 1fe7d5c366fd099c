// The twin's function environments in threads of their own: the handler really runs off the main
// thread, keeps its state between invocations like a warm Lambda, reads the environment it was
// started with, reports function errors by name and message, and is replaced after it dies.
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { threadId } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { LambdaPool, LambdaThread } from "../../../infra/local/lambda-thread.ts";

type Event = { action: "echo" | "fail" | "die" | "log"; value?: unknown };
type Result = { value: unknown; invocations: number; threadId: number; setting: string | null };

const MODULE = new URL("./fixtures/thread-handler.ts", import.meta.url);
let fn: LambdaThread<Event, Result> | undefined;

afterEach(async () => {
  await fn?.close();
  fn = undefined;
  delete process.env.THREAD_TEST_SETTING;
});

describe("LambdaThread", () => {
  it("runs the handler in another thread, warm between invocations, with the environment it started with", async () => {
    process.env.THREAD_TEST_SETTING = "from-the-twin";
    fn = new LambdaThread<Event, Result>(MODULE);
    const first = await fn.invoke({ action: "echo", value: { nested: [1, 2] } });
    process.env.THREAD_TEST_SETTING = "changed-later";
    const second = await fn.invoke({ action: "echo", value: "again" });

    expect(first).toMatchObject({ value: { nested: [1, 2] }, invocations: 1, setting: "from-the-twin" });
    expect(first.threadId).not.toBe(threadId);
    expect(second).toMatchObject({ value: "again", invocations: 2, threadId: first.threadId });
    expect(second.setting).toBe("from-the-twin");
  });

  it("sends the environment's stdout and stderr to `output` when given (the twin's log file)", async () => {
    const output = new PassThrough();
    fn = new LambdaThread<Event, Result>(MODULE, "handler", {}, output);
    const arrived = once(output, "data");
    await fn.invoke({ action: "log", value: "a line" });
    expect(String((await arrived)[0])).toBe("logged a line\n");
  });

  it("answers invocations in flight together, each with its own result", async () => {
    fn = new LambdaThread<Event, Result>(MODULE);
    const results = await Promise.all([1, 2, 3, 4].map((value) => fn?.invoke({ action: "echo", value })));
    expect(results.map((r) => r?.value)).toEqual([1, 2, 3, 4]);
  });

  it("reports a function error with its name and message", async () => {
    fn = new LambdaThread<Event, Result>(MODULE);
    await expect(fn.invoke({ action: "fail", value: "this event" })).rejects.toMatchObject({
      name: "ValidationError",
      message: "cannot handle this event",
    });
    // The environment survives a function error.
    expect(await fn.invoke({ action: "echo", value: 1 })).toMatchObject({ invocations: 2 });
  });

  it("fails the invocation whose environment dies and starts a fresh one for the next", async () => {
    fn = new LambdaThread<Event, Result>(MODULE);
    const before = await fn.invoke({ action: "echo" });
    await expect(fn.invoke({ action: "die" })).rejects.toThrow(/environment died/);
    const after = await fn.invoke({ action: "echo" });
    expect(after.invocations).toBe(1);
    expect(after.threadId).not.toBe(before.threadId);
  });

  it("refuses invocations once shut down", async () => {
    fn = new LambdaThread<Event, Result>(MODULE);
    await fn.invoke({ action: "echo" });
    await fn.close();
    await expect(fn.invoke({ action: "echo" })).rejects.toThrow(/shut down/);
  });

  it("names a module that has no such handler", async () => {
    fn = new LambdaThread<Event, Result>(MODULE, "missing");
    await expect(fn.invoke({ action: "echo" })).rejects.toThrow(/exports no function missing/);
  });
});

describe("LambdaPool", () => {
  let pool: LambdaPool<Event, Result> | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it("spreads invocations in flight over its environments and reports errors like one function", async () => {
    pool = new LambdaPool<Event, Result>(MODULE, 2);
    const results = await Promise.all([1, 2, 3, 4].map((value) => pool?.invoke({ action: "echo", value })));
    expect(results.map((r) => r?.value)).toEqual([1, 2, 3, 4]);
    const threads = new Set(results.map((r) => r?.threadId));
    expect(threads.size).toBe(2);
    expect(threads.has(threadId)).toBe(false);
    await expect(pool.invoke({ action: "fail", value: "x" })).rejects.toMatchObject({
      name: "ValidationError",
      message: "cannot handle x",
    });
  });

  it("needs at least one environment", () => {
    expect(() => new LambdaPool<Event, Result>(MODULE, 0)).toThrow(/at least 1 environment, not 0/);
  });
});
