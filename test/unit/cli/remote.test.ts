// `rewoo evaluate --api` against a stub API: start, follow (WebSocket, reconnect, polling
// fallback), print, exit codes.
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { type RemoteOptions, runApiEvaluation } from "../../../cli/remote.ts";
import { RUN_ID, runEvents, runRecord, type Stub, SUBSCRIBE_TOKEN, startStub } from "./stub-api.ts";

// picocolors decides at import; plain text keeps the assertions readable either way.
const strip = (text: string) => stripVTControlCharacters(text);

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function evaluate(stubOptions: Parameters<typeof startStub>[0], options: Partial<RemoteOptions> = {}) {
  stub = await startStub(stubOptions);
  let stdout = "";
  let stderr = "";
  const code = await runApiEvaluation(
    { metadata: { loan_program: "Flex Supreme" }, s3_pdf_paths: ["rm-conditions/a.pdf"] },
    {
      api: `${stub.url}/`,
      json: false,
      label: "request.json",
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      pollIntervalMs: 5,
      reconnectDelayMs: 5,
      client: { retryDelayMs: 5 },
      ...options,
    },
  );
  return { code, stdout: strip(stdout), stderr: strip(stderr), stub };
}

const lines = (text: string) => text.split("\n");

describe("rewoo evaluate --api", () => {
  it("polls the events when there is no WebSocket, prints each once in order, then the run record", async () => {
    const { code, stdout, stub } = await evaluate({ websocket: "none" });
    expect(code).toBe(0);
    expect(lines(stdout)[0]).toBe(`RUN     ${RUN_ID} (request.json)`);
    const progress = lines(stdout).filter((line) => /^(PLAN|WORKER|SOLVER|DONE) /.test(line));
    expect(progress).toEqual([
      "PLAN    3 steps in 2 dependency levels",
      "WORKER  E1 call_preconditions_api (level 0) started",
      "WORKER  E2 retrieve_s3_document (level 0) started",
      "WORKER  E2 retrieve_s3_document completed in 7 ms",
      "WORKER  E1 call_preconditions_api completed in 12 ms",
      "WORKER  E3 call_conditions_ai_api (level 1) started",
      "WORKER  E3 call_conditions_ai_api completed in 30 ms",
      "SOLVER  started",
      "SOLVER  completed",
      "DONE    SUCCEEDED",
    ]);
    expect(stdout).toContain(`Run ${RUN_ID}: SUCCEEDED`);
    expect(stdout).toContain("TR_SIGNED: fulfilled — Signed");
    // Every poll asks for what follows the last event it printed.
    expect(stub.polls[0]).toBe(0);
    expect(stub.polls.at(-1)).toBe(9);
  });

  it("sends the request with a generated Idempotency-Key", async () => {
    const { stub } = await evaluate({ websocket: "none" });
    expect(stub.posts).toHaveLength(1);
    expect(JSON.parse(stub.posts[0]?.body ?? "")).toEqual({
      metadata: { loan_program: "Flex Supreme" },
      s3_pdf_paths: ["rm-conditions/a.pdf"],
    });
    expect(stub.posts[0]?.headers["idempotency-key"]).toMatch(/^rewoo-cli-[0-9a-f-]{36}$/);
    expect(stub.posts[0]?.headers["content-type"]).toBe("application/json");
  });

  it("retries a 503 under the same Idempotency-Key", async () => {
    const unavailable = {
      status: 503,
      body: { error: { code: "workflow_unavailable", message: "throttled" } },
    };
    const { code, stub } = await evaluate({
      websocket: "none",
      startAnswers: [unavailable, unavailable, "ok"],
    });
    expect(code).toBe(0);
    expect(stub.posts).toHaveLength(3);
    const keys = new Set(stub.posts.map((post) => post.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
  });

  it("follows over the WebSocket with the subscribe token, reconnecting after a drop without duplicates", async () => {
    const { code, stdout, stub } = await evaluate({ websocket: "live", dropAfter: 4 });
    expect(code).toBe(0);
    expect(stub.polls).toEqual([]);
    expect(stub.subscriptions.map((s) => s.message)).toEqual([
      { action: "subscribe", run_id: RUN_ID, after_seq: 0 },
      { action: "subscribe", run_id: RUN_ID, after_seq: 4 },
      { action: "subscribe", run_id: RUN_ID, after_seq: 7 },
    ]);
    for (const { url } of stub.subscriptions) {
      expect(new URL(url, "ws://x").searchParams.get("token")).toBe(SUBSCRIBE_TOKEN);
    }
    const progress = lines(stdout).filter((line) => /^(PLAN|WORKER|SOLVER|DONE) /.test(line));
    expect(progress).toHaveLength(runEvents().length);
    expect(progress.at(-1)).toBe("DONE    SUCCEEDED");
  });

  it("uses --token instead of the subscribe token, and `none` for no token", async () => {
    const withOperator = await evaluate({ websocket: "live" }, { token: "operator.token" });
    expect(withOperator.code).toBe(0);
    expect(new URL(withOperator.stub.subscriptions[0]?.url ?? "", "ws://x").searchParams.get("token")).toBe(
      "operator.token",
    );
    await stub?.close();
    const withNone = await evaluate({ websocket: "live" }, { token: "none" });
    expect(withNone.code).toBe(0);
    expect(new URL(withNone.stub.subscriptions[0]?.url ?? "", "ws://x").searchParams.has("token")).toBe(
      false,
    );
  });

  it("falls back to polling when the WebSocket cannot be reached", async () => {
    const { code, stdout, stderr, stub } = await evaluate({ websocket: "closed" });
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /the WebSocket ws:\/\/127\.0\.0\.1:9\/ws failed: ECONNREFUSED; following .* by polling/,
    );
    expect(stub.polls.length).toBeGreaterThan(0);
    expect(stdout).toContain("DONE    SUCCEEDED");
  });

  it("falls back to polling when the WebSocket refuses the subscription ({type: error})", async () => {
    const { code, stdout, stderr, stub } = await evaluate({
      websocket: "live",
      refuseSubscription: "forbidden",
    });
    expect(code).toBe(0);
    expect(stub.subscriptions).toHaveLength(1);
    expect(stderr).toMatch(/the WebSocket refused the subscription: forbidden; following .* by polling/);
    expect(stub.polls.length).toBeGreaterThan(0);
    expect(stdout).toContain("DONE    SUCCEEDED");
  });

  it("waits at a hole while the run is live, and moves past it once the run has ended (a lost write)", async () => {
    const { code, stdout, stub } = await evaluate({ websocket: "none", lostSeq: 5, revealPerPoll: 2 });
    expect(code).toBe(0);
    const progress = lines(stdout).filter((line) => /^(PLAN|WORKER|SOLVER|DONE) /.test(line));
    expect(progress).toEqual([
      "PLAN    3 steps in 2 dependency levels",
      "WORKER  E1 call_preconditions_api (level 0) started",
      "WORKER  E2 retrieve_s3_document (level 0) started",
      "WORKER  E2 retrieve_s3_document completed in 7 ms",
      "WORKER  E3 call_conditions_ai_api (level 1) started",
      "WORKER  E3 call_conditions_ai_api completed in 30 ms",
      "SOLVER  started",
      "SOLVER  completed",
      "DONE    SUCCEEDED",
    ]);
    // Every poll while the run was live asked after the last contiguous seq: 4, never past the hole.
    expect(stub.polls.filter((after) => after > 4)).toEqual([]);
  });

  for (const websocket of ["none", "live"] as const) {
    it(`stops following when its signal aborts (${websocket === "none" ? "polling" : "WebSocket"}), and says so through \`stopped\``, async () => {
      const controller = new AbortController();
      const stoppedFor: string[] = [];
      let printed = "";
      const { code } = await evaluate(
        { websocket, revealPerPoll: 1, dropAfter: 1 },
        {
          signal: controller.signal,
          // Slow reconnects and polls: the abort comes first.
          pollIntervalMs: 60_000,
          reconnectDelayMs: 60_000,
          stdout: (text) => {
            printed += strip(text);
            if (text.includes("PLAN")) controller.abort();
          },
          stopped: async (runId, _client, out) => {
            stoppedFor.push(runId);
            out.say("stopped here");
            return 130;
          },
        },
      );
      expect(code).toBe(130);
      expect(stoppedFor).toEqual([RUN_ID]);
      expect(printed).toContain("PLAN    3 steps in 2 dependency levels");
      expect(printed).not.toContain("DONE");
      expect(lines(printed).at(-2)).toBe("stopped here");
    });
  }

  it("--json prints only the final run record, and exits 1 when the run failed", async () => {
    const { code, stdout } = await evaluate({ websocket: "live", status: "FAILED" }, { json: true });
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual(runRecord("FAILED"));
  });

  it("exits 1 for a cancelled run", async () => {
    const { code, stdout } = await evaluate({ websocket: "none", status: "CANCELLED" });
    expect(code).toBe(1);
    expect(stdout).toContain("DONE    CANCELLED");
    expect(stdout).toContain(`Run ${RUN_ID}: CANCELLED`);
  });

  it("exits 2 on a 400 and prints every offending field", async () => {
    const invalid = {
      status: 400,
      body: {
        error: {
          code: "invalid_request",
          message: "invalid request",
          fields: [
            { field: "s3_pdf_paths", message: "expected at least one document path" },
            { field: "options.max_steps", message: "Too big: expected number to be <=50" },
          ],
        },
      },
    };
    const { code, stdout, stderr, stub } = await evaluate({ websocket: "live", startAnswers: [invalid] });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("the API refused the request (request.json):");
    expect(stderr).toContain("  s3_pdf_paths: expected at least one document path");
    expect(stderr).toContain("  options.max_steps: Too big: expected number to be <=50");
    expect(stub.posts).toHaveLength(1);
    expect(stub.subscriptions).toEqual([]);
  });

  it("exits 1 when the API cannot be reached", async () => {
    stub = await startStub();
    const url = stub.url;
    await stub.close();
    stub = undefined;
    let stderr = "";
    const code = await runApiEvaluation(
      {},
      {
        api: url,
        json: false,
        label: "request.json",
        stdout: () => undefined,
        stderr: (text) => {
          stderr += text;
        },
        client: { retryDelayMs: 1, startAttempts: 2 },
      },
    );
    expect(code).toBe(1);
    expect(strip(stderr)).toMatch(
      /cannot start the run: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/evaluate-conditions: ECONNREFUSED/,
    );
  });
});
