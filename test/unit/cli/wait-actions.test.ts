// `rewoo runs answer | approve | reject | edit-plan | list | show` against a stand-in API: the request
// each one sends, the API's field messages on a refusal (exit 2), an API out of reach (exit 1), and
// following the run after the action to its end (exit 4 for REJECTED).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ActionOptions,
  runApiAnswer,
  runApiDecision,
  runApiList,
  runApiShow,
} from "../../../cli/remote.ts";
import type { ProgressEvent, RunRecord } from "../../../lambdas/core/types.ts";
import { incomeQuestion, RUN_ID, runRecord } from "./stub-api.ts";

const DEADLINE = "2026-01-02T12:00:00.000Z";

interface StubApi {
  url: string;
  posts: Array<{ path: string; body: unknown }>;
  close(): Promise<void>;
}

/**
 * A run waiting for approval (events 1-3: plan, review, approval pending). `answer` decides what a
 * POST gets; a 202 appends the events the real API and workflow would (the decision, then the end).
 */
async function startStubApi(
  answer: (
    path: string,
    body: Record<string, unknown>,
  ) => { status: number; body: unknown; events?: unknown[] },
): Promise<StubApi> {
  const events: ProgressEvent[] = [];
  const append = (bodies: unknown[]) => {
    for (const body of bodies) {
      events.push({
        ...(body as object),
        run_id: RUN_ID,
        seq: events.length + 1,
        timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, events.length)).toISOString(),
      } as ProgressEvent);
    }
  };
  append([
    { stage: "plan", plan: runRecord("SUCCEEDED").plan },
    { stage: "review", target: "plan", approved: true, score: 10, criteria: {}, issues: [] },
    { stage: "approval", status: "pending", deadline: DEADLINE },
  ]);
  let record: RunRecord = {
    ...runRecord("AWAITING_APPROVAL"),
    approval: { status: "pending", requested_at: "2026-01-01T12:00:00.000Z", deadline: DEADLINE },
  };
  const posts: StubApi["posts"] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? "/", "http://stub");
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.method === "POST") {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      posts.push({ path: url.pathname, body });
      const reply = answer(url.pathname, body);
      if (reply.status === 202 && reply.events) {
        append(reply.events);
        const end = reply.events.at(-1) as { stage: string; status?: RunRecord["status"] };
        if (end.stage === "complete" && end.status) record = { ...record, status: end.status };
      }
      return send(reply.status, reply.body);
    }
    if (url.pathname === `/v1/runs/${RUN_ID}/events`) {
      const after = Number(url.searchParams.get("after_seq") ?? 0);
      const page = events.filter((event) => event.seq > after);
      return send(200, {
        run_id: RUN_ID,
        status: record.status,
        events: page,
        next_after_seq: page.at(-1)?.seq ?? after,
      });
    }
    if (url.pathname === `/v1/runs/${RUN_ID}`) return send(200, record);
    if (url.pathname === "/v1/runs") {
      return send(200, {
        runs: [
          {
            run_id: RUN_ID,
            status: "AWAITING_INPUT",
            mode: "rewoo",
            created_at: "2026-01-01T12:00:00.000Z",
            updated_at: "2026-01-01T12:00:01.000Z",
            request: { metadata: { loan_program: "Flex Supreme", classification: "Bank Statements" } },
          },
          {
            run_id: "run-20260101110000-00000000",
            status: "REJECTED",
            mode: "rewoo",
            created_at: "2026-01-01T11:00:00.000Z",
            updated_at: "2026-01-01T11:00:01.000Z",
            request: {
              metadata: { loan_program: "Flex Supreme", classification: "1120 Corporate Tax Return" },
            },
          },
        ],
      });
    }
    send(404, { error: { code: "not_found", message: `run ${url.pathname} not found` } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let stub: StubApi | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

function captured(api: string, extra: Partial<ActionOptions> = {}) {
  const out = { stdout: "", stderr: "" };
  const options: ActionOptions = {
    api,
    json: false,
    pollIntervalMs: 5,
    stdout: (text) => {
      out.stdout += stripVTControlCharacters(text);
    },
    stderr: (text) => {
      out.stderr += stripVTControlCharacters(text);
    },
    ...extra,
  };
  return { out, options };
}

const accepted = (approval: Record<string, unknown>, events: unknown[]) => ({
  status: 202,
  body: { run_id: RUN_ID, status: "RUNNING", approval },
  events,
});

describe("rewoo runs reject / approve / edit-plan", () => {
  it("reject posts the decision with its reason, follows the run from the decision and exits 4", async () => {
    stub = await startStubApi(() =>
      accepted({ status: "rejected", reason: "wrong borrower" }, [
        { stage: "approval", status: "rejected", reason: "wrong borrower" },
        { stage: "complete", status: "REJECTED", error: "Rejected: wrong borrower" },
      ]),
    );
    const { out, options } = captured(stub.url);
    const code = await runApiDecision(RUN_ID, { decision: "reject", reason: "wrong borrower" }, options);
    expect(code).toBe(4);
    expect(stub.posts).toEqual([
      { path: `/v1/runs/${RUN_ID}/approval`, body: { decision: "reject", reason: "wrong borrower" } },
    ]);
    const lines = out.stdout.split("\n");
    // Only what happened from the decision on: the pending approval before it is not printed again.
    expect(lines.filter((line) => /^(APPROVAL|DONE|PLAN) /.test(line))).toEqual([
      "APPROVAL rejected: wrong borrower; no tool runs; the run ends REJECTED",
      "DONE    REJECTED: Rejected: wrong borrower",
    ]);
    expect(lines).toContain(`Run ${RUN_ID}: REJECTED`);
  });

  it("names the field the API refused (a rejection without a reason) and exits 2 without following", async () => {
    stub = await startStubApi(() => ({
      status: 400,
      body: {
        error: {
          code: "invalid_decision",
          message: "reason: required to reject: say what is wrong with the plan",
          fields: [{ field: "reason", message: "required to reject: say what is wrong with the plan" }],
        },
      },
    }));
    const { out, options } = captured(stub.url);
    expect(await runApiDecision(RUN_ID, { decision: "reject" }, options)).toBe(2);
    expect(stub.posts[0]?.body).toEqual({ decision: "reject" });
    expect(out.stderr).toBe(
      `the API refused to reject the run's plan (run ${RUN_ID}):\n  reason: required to reject: say what is wrong with the plan\n`,
    );
    expect(out.stdout).toBe("");
  });

  it("exits 2 with the API's message when the run is not waiting (409)", async () => {
    stub = await startStubApi(() => ({
      status: 409,
      body: {
        error: {
          code: "not_waiting",
          message: `run ${RUN_ID} is SUCCEEDED; it is not waiting for an approval`,
        },
      },
    }));
    const { out, options } = captured(stub.url);
    expect(await runApiDecision(RUN_ID, { decision: "approve" }, options)).toBe(2);
    expect(out.stderr).toBe(
      `cannot approve the run's plan: POST /v1/runs/${RUN_ID}/approval: 409 run ${RUN_ID} is SUCCEEDED; it is not waiting for an approval\n`,
    );
  });

  it("exits 2 for a run the API does not know", async () => {
    stub = await startStubApi(() => ({ status: 500, body: {} }));
    const { out, options } = captured(stub.url);
    expect(await runApiDecision("run-unknown", { decision: "approve" }, options)).toBe(2);
    expect(out.stderr).toMatch(
      /^cannot approve the run's plan: GET \/v1\/runs\/run-unknown\/events\?after_seq=0: 404/,
    );
    expect(stub.posts).toEqual([]);
  });

  it("edit-plan sends the plan and, with --no-follow, says what became of it", async () => {
    const steps = [{ id: "E1", tool: "call_preconditions_api", args: {}, depends_on: [] }];
    stub = await startStubApi(() => ({
      status: 202,
      body: {
        run_id: RUN_ID,
        status: "RUNNING",
        approval: { status: "edited" },
        plan: { steps, levels: [["E1"]], repairs: [] },
      },
    }));
    const { out, options } = captured(stub.url, { follow: false });
    expect(
      await runApiDecision(RUN_ID, { decision: "edit", plan: steps, reason: "fewer steps" }, options),
    ).toBe(0);
    expect(stub.posts[0]?.body).toEqual({ decision: "edit", plan: steps, reason: "fewer steps" });
    expect(out.stdout).toBe(`RUN     ${RUN_ID}: plan edited (the plan now has 1 step)\n`);
  });

  it("exits 1 when the API cannot be reached", async () => {
    stub = await startStubApi(() => ({ status: 202, body: {} }));
    const url = stub.url;
    await stub.close();
    stub = undefined;
    const { out, options } = captured(url);
    expect(await runApiDecision(RUN_ID, { decision: "approve" }, options)).toBe(1);
    expect(out.stderr).toMatch(
      /^cannot approve the run's plan: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/runs\//,
    );
  });
});

describe("rewoo runs answer", () => {
  it("posts the answers as given and exits 2 naming the refused field", async () => {
    stub = await startStubApi(() => ({
      status: 400,
      body: {
        error: {
          code: "invalid_answer",
          message: "invalid answer",
          fields: [
            {
              field: "answers.borrower_info.monthly_income",
              message: `expected ${incomeQuestion.expected}, got "abc"`,
            },
          ],
        },
      },
    }));
    const { out, options } = captured(stub.url);
    expect(await runApiAnswer(RUN_ID, { "borrower_info.monthly_income": "abc" }, options)).toBe(2);
    expect(stub.posts).toEqual([
      { path: `/v1/runs/${RUN_ID}/input`, body: { answers: { "borrower_info.monthly_income": "abc" } } },
    ]);
    expect(out.stderr).toContain(
      `  answers.borrower_info.monthly_income: expected ${incomeQuestion.expected}, got "abc"`,
    );
  });

  it("with --json and --no-follow prints the API's answer", async () => {
    const body = { run_id: RUN_ID, status: "RUNNING", clarification: { status: "answered" } };
    stub = await startStubApi(() => ({ status: 202, body }));
    const { out, options } = captured(stub.url, { follow: false, json: true });
    expect(await runApiAnswer(RUN_ID, { "borrower_info.monthly_income": 8000 }, options)).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(body);
  });
});

describe("rewoo runs list / show", () => {
  it("lists the runs with their statuses, and how to see what a waiting one waits for", async () => {
    stub = await startStubApi(() => ({ status: 404, body: {} }));
    const { out, options } = captured(stub.url);
    expect(await runApiList({ ...options, limit: 5 })).toBe(0);
    expect(out.stdout.split("\n")).toEqual([
      `${RUN_ID}  AWAITING_INPUT     2026-01-01T12:00:00.000Z  Flex Supreme · Bank Statements`,
      "run-20260101110000-00000000  REJECTED           2026-01-01T11:00:00.000Z  Flex Supreme · 1120 Corporate Tax Return",
      `1 run waits for a person: npx rewoo runs show <run_id> --api ${stub.url} says what and how to answer`,
      "",
    ]);
  });

  it("shows a waiting run's record with the commands that decide on its plan", async () => {
    stub = await startStubApi(() => ({ status: 404, body: {} }));
    const { out, options } = captured(stub.url, { address: { local: true } });
    expect(await runApiShow(RUN_ID, options)).toBe(0);
    expect(out.stdout).toContain(`Run ${RUN_ID}: AWAITING_APPROVAL`);
    expect(out.stdout).toContain(`  reject:  npx rewoo runs reject ${RUN_ID} --reason "<why>" --local`);
  });
});
