// The REST handler (lambdas/api) against the real runs table (dynalite, through the local twin),
// with Step Functions behind aws-sdk-client-mock: StartExecution / StopExecution are forwarded to
// the twin's ASL executor when a test wants the run to really execute.
import {
  SFNClient,
  StartExecutionCommand,
  type StartExecutionCommandInput,
  StopExecutionCommand,
  type StopExecutionCommandInput,
} from "@aws-sdk/client-sfn";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { APIGatewayProxyResult } from "aws-lambda";
import { mockClient } from "aws-sdk-client-mock";
import { allCustomMatcher } from "aws-sdk-client-mock-vitest";
import type {} from "aws-sdk-client-mock-vitest/extend";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { handler } from "../../lambdas/api/index.ts";
import { verifyToken } from "../../lambdas/auth/tokens.ts";
import type { ProgressEvent, RunRecord } from "../../lambdas/core/types.ts";
import { LEGACY_PLAN_NOTE } from "../../lambdas/planner/plan-run.ts";
import { apiEvent, type EventSpec } from "../unit/api/events.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

expect.extend(allCustomMatcher);

const RUN_KEY = "integration-run-token-key-0123456789abcdef";
const STATE_MACHINE_ARN = "arn:aws:states:us-east-1:123456789012:stateMachine:rewoo";
const MAX_BODY_BYTES = 16 * 1024;
const sfn = mockClient(SFNClient);
let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples({
    STATE_MACHINE_ARN,
    REWOO_RUN_TOKEN_SECRET: RUN_KEY,
    REWOO_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    WEBSOCKET_URL: "wss://ws.example.test/prod",
    PUBLIC_API_URL: "https://api.lender.example/loans/",
    // Long enough to cancel a run mid-way, short enough to keep the file quick.
    REWOO_TOOL_LATENCY_MS: "*=150",
  });
});

afterAll(async () => {
  await twin?.stop();
});

/** StartExecution / StopExecution reach the twin's executor, as the twin's SFN JSON API would do. */
function forwardToTwin() {
  sfn.on(StartExecutionCommand).callsFake((input: StartExecutionCommandInput) => {
    return twin.stepFunctions.startExecution({ name: input.name, input: JSON.parse(input.input ?? "{}") });
  });
  sfn.on(StopExecutionCommand).callsFake((input: StopExecutionCommandInput) => {
    return twin.stepFunctions.stopExecution(input.executionArn ?? "", {
      error: input.error,
      cause: input.cause,
    });
  });
}

beforeEach(() => {
  sfn.reset();
  forwardToTwin();
});

const executionArn = (runId: string) => `arn:aws:states:us-east-1:123456789012:execution:rewoo:${runId}`;
const call = (spec: EventSpec) => handler(apiEvent(spec));
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call({
    method: "POST",
    path,
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });
const bodyOf = (result: APIGatewayProxyResult) => JSON.parse(result.body);
const validRequest = (extra: Record<string, unknown> = {}) =>
  taxReturnRequest(["rm-conditions/1120-signed.pdf"], extra);

async function countRuns(): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await twin.services.clients.ddb.send(
      new ScanCommand({
        TableName: twin.services.config.runsTable,
        FilterExpression: "sk = :meta AND begins_with(pk, :run)",
        ExpressionAttributeValues: { ":meta": "META", ":run": "RUN#" },
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

async function finished(runId: string): Promise<RunRecord> {
  await twin.stepFunctions.waitForExecution(executionArn(runId));
  await twin.stepFunctions.idle(executionArn(runId));
  return (await twin.services.runs.getRun(runId)) as RunRecord;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("POST /v1/evaluate-conditions: bad input", () => {
  const base = validRequest();
  const without = (field: string) =>
    Object.fromEntries(Object.entries(base).filter(([key]) => key !== field));
  const withField = (field: string, value: unknown) => ({ ...base, [field]: value });
  const cases: Array<{
    name: string;
    body: unknown;
    fields: string[];
    status?: number;
    headers?: Record<string, string>;
  }> = [
    { name: "malformed JSON", body: '{"metadata": {', fields: ["(body)"] },
    { name: "empty body", body: "", fields: ["(body)"] },
    { name: "JSON null", body: "null", fields: ["(body)"] },
    { name: "JSON array", body: "[]", fields: ["(body)"] },
    { name: "JSON string", body: '"evaluate please"', fields: ["(body)"] },
    { name: "missing metadata", body: without("metadata"), fields: ["metadata"] },
    { name: "metadata is a string", body: withField("metadata", "Flex Supreme"), fields: ["metadata"] },
    { name: "metadata is an array", body: withField("metadata", [1, 2]), fields: ["metadata"] },
    { name: "metadata is null", body: withField("metadata", null), fields: ["metadata"] },
    { name: "missing s3_pdf_paths", body: without("s3_pdf_paths"), fields: ["s3_pdf_paths"] },
    { name: "empty s3_pdf_paths", body: withField("s3_pdf_paths", []), fields: ["s3_pdf_paths"] },
    { name: "s3_pdf_paths is a string", body: withField("s3_pdf_paths", "a.pdf"), fields: ["s3_pdf_paths"] },
    { name: "non-string path", body: withField("s3_pdf_paths", [42]), fields: ["s3_pdf_paths[0]"] },
    { name: "blank path", body: withField("s3_pdf_paths", ["  "]), fields: ["s3_pdf_paths[0]"] },
    {
      name: "too many documents",
      body: withField(
        "s3_pdf_paths",
        Array.from({ length: 51 }, (_, i) => `rm-conditions/${i}.pdf`),
      ),
      fields: ["s3_pdf_paths"],
    },
    {
      name: "disallowed bucket",
      body: withField("s3_pdf_paths", ["s3://someone-elses-bucket/1120.pdf"]),
      fields: ["s3_pdf_paths[0]"],
    },
    {
      name: "`..` in the key",
      body: withField("s3_pdf_paths", ["rm-conditions/../../secrets/1120.pdf"]),
      fields: ["s3_pdf_paths[0]"],
    },
    {
      name: "unsupported scheme",
      body: withField("s3_pdf_paths", ["https://example.com/1120.pdf"]),
      fields: ["s3_pdf_paths[0]"],
    },
    {
      name: "the second path is the bad one",
      body: withField("s3_pdf_paths", ["rm-conditions/1120-signed.pdf", "s3://other/x.pdf"]),
      fields: ["s3_pdf_paths[1]"],
    },
    { name: "instructions is a number", body: withField("instructions", 7), fields: ["instructions"] },
    {
      name: "instructions too long",
      body: withField("instructions", "x".repeat(4001)),
      fields: ["instructions"],
    },
    {
      name: "output_destination not s3",
      body: withField("output_destination", "https://bucket.example/out/"),
      fields: ["output_destination"],
    },
    {
      name: "output_destination is an object",
      body: withField("output_destination", {}),
      fields: ["output_destination"],
    },
    { name: "unknown top-level field", body: withField("priority", "high"), fields: ["priority"] },
    { name: "options is a string", body: withField("options", "fast"), fields: ["options"] },
    {
      name: "unknown options key",
      body: withField("options", { max_steps: 4, temperature: 0.2 }),
      fields: ["options.temperature"],
    },
    { name: "max_steps 0", body: withField("options", { max_steps: 0 }), fields: ["options.max_steps"] },
    { name: "max_steps 51", body: withField("options", { max_steps: 51 }), fields: ["options.max_steps"] },
    { name: 'max_steps "3"', body: withField("options", { max_steps: "3" }), fields: ["options.max_steps"] },
    { name: "max_steps 2.5", body: withField("options", { max_steps: 2.5 }), fields: ["options.max_steps"] },
    { name: 'parallel "yes"', body: withField("options", { parallel: "yes" }), fields: ["options.parallel"] },
    {
      name: "every problem at once",
      body: { s3_pdf_paths: [], options: { parallel: 1 }, extra: true },
      fields: ["metadata", "s3_pdf_paths", "options.parallel", "extra"],
    },
    {
      name: "oversized body",
      body: withField("metadata", { ...base.metadata, notes: "x".repeat(MAX_BODY_BYTES) }),
      fields: ["(body)"],
      status: 413,
    },
    {
      name: "bad Idempotency-Key",
      body: base,
      fields: ["Idempotency-Key"],
      headers: { "Idempotency-Key": "x".repeat(129) },
    },
  ];

  it("has at least 25 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  it.each(cases)("$name → $fields", async ({ body, fields, status = 400, headers = {} }) => {
    const before = await countRuns();
    for (const path of ["/v1/evaluate-conditions", "/v1/evaluate-loan-conditions"]) {
      const result = await post(path, body, headers);
      expect(result.statusCode, `${path}: ${result.body}`).toBe(status);
      expect(result.headers?.["content-type"]).toBe("application/json");
      const { error } = bodyOf(result);
      expect(error.code).toEqual(expect.any(String));
      expect(error.message).toEqual(expect.any(String));
      expect(error.fields.map((f: { field: string }) => f.field).sort()).toEqual([...fields].sort());
      for (const field of error.fields) expect(field.message).toEqual(expect.any(String));
    }
    expect(sfn).not.toHaveReceivedCommand(StartExecutionCommand);
    expect(await countRuns()).toBe(before);
  });

  it("names the limit in the 413", async () => {
    const result = await post("/v1/evaluate-conditions", "x".repeat(MAX_BODY_BYTES + 1));
    expect(result.statusCode).toBe(413);
    expect(bodyOf(result).error.message).toBe(
      `request body is ${MAX_BODY_BYTES + 1} bytes; the limit is ${MAX_BODY_BYTES} bytes`,
    );
  });
});

describe("POST /v1/evaluate-conditions", () => {
  it("answers 202 with where to follow the run, and the run executes", async () => {
    const result = await post("/v1/evaluate-conditions", validRequest());
    expect(result.statusCode, result.body).toBe(202);
    expect(result.headers?.["content-type"]).toBe("application/json");
    const body = bodyOf(result);
    const base = "https://api.lender.example/loans";
    expect(body).toEqual({
      run_id: expect.stringMatching(/^run-\d{14}-[0-9a-f]{8}$/),
      // Every run belongs to a session; this request named none, so it got a new one.
      session_id: expect.stringMatching(/^sess-\d{14}-[0-9a-f]{8}$/),
      status: "PLANNING",
      status_url: `${base}/v1/runs/${body.run_id}`,
      events_url: `${base}/v1/runs/${body.run_id}/events`,
      websocket_url: "wss://ws.example.test/prod",
      subscribe_token: expect.any(String),
    });
    // A run token, signed with the run key: it opens the WebSocket for this run, and nothing else.
    const keys = {
      run: { current: RUN_KEY },
      operator: { current: "o".repeat(32) },
      customer: { current: "c".repeat(32) },
    };
    const claims = verifyToken(body.subscribe_token, { accept: ["run", "operator"], keys });
    expect(claims.scope).toEqual({ kind: "run", run_id: body.run_id });
    expect(claims.exp - claims.iat).toBe(24 * 3600);
    expect(() => verifyToken(body.subscribe_token, { accept: ["customer"], keys })).toThrow(
      "wrong audience: a run token, expected customer",
    );
    expect(sfn).toHaveReceivedCommandExactlyOnceWith(StartExecutionCommand, {
      stateMachineArn: STATE_MACHINE_ARN,
      name: body.run_id,
      input: JSON.stringify({ run_id: body.run_id }),
    });

    const run = await finished(body.run_id);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.usage.llm_calls).toBe(2);

    const got = await call({ method: "GET", path: `/v1/runs/${body.run_id}` });
    expect(got.statusCode).toBe(200);
    expect(bodyOf(got)).toMatchObject({
      run_id: body.run_id,
      status: "SUCCEEDED",
      result: expect.any(Object),
    });
  });

  it("treats Idempotency-Key case-insensitively and replays the same run once", async () => {
    const request = validRequest({ instructions: "idempotent replay" });
    const first = await post("/v1/evaluate-conditions", request, { "Idempotency-Key": "loan-42-attempt" });
    expect(first.statusCode).toBe(202);
    expect(first.headers?.["Idempotent-Replay"]).toBeUndefined();
    // Same values, other key order and spacing: the same request.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(request).reverse()), null, 2);
    const second = await post("/v1/evaluate-conditions", reordered, { "idempotency-key": "loan-42-attempt" });
    expect(second.statusCode).toBe(202);
    expect(second.headers?.["Idempotent-Replay"]).toBe("true");
    const [a, b] = [bodyOf(first), bodyOf(second)];
    expect(b.run_id).toBe(a.run_id);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(sfn).toHaveReceivedCommandTimes(StartExecutionCommand, 1);
    await finished(a.run_id);
  });

  it("starts exactly one run for concurrent requests with the same key", async () => {
    const request = validRequest({ instructions: "concurrent replay" });
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        post("/v1/evaluate-conditions", request, { "Idempotency-Key": "burst-1" }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([202, 202, 202, 202]);
    const ids = new Set(results.map((r) => bodyOf(r).run_id));
    expect(ids.size).toBe(1);
    expect(sfn).toHaveReceivedCommandTimes(StartExecutionCommand, 1);
    await finished([...ids][0]);
  });

  it("answers 409 when the key is reused with another body or on the other endpoint", async () => {
    const first = await post("/v1/evaluate-conditions", validRequest({ instructions: "one" }), {
      "Idempotency-Key": "reused-key",
    });
    expect(first.statusCode).toBe(202);
    const before = await countRuns();
    for (const [path, body] of [
      ["/v1/evaluate-conditions", validRequest({ instructions: "two" })],
      ["/v1/evaluate-loan-conditions", validRequest({ instructions: "one" })],
    ] as const) {
      const conflict = await post(path, body, { "Idempotency-Key": "reused-key" });
      expect(conflict.statusCode).toBe(409);
      expect(bodyOf(conflict).error).toMatchObject({
        code: "idempotency_key_conflict",
        message: expect.stringContaining(bodyOf(first).run_id),
        fields: [{ field: "Idempotency-Key" }],
      });
    }
    expect(await countRuns()).toBe(before);
    expect(sfn).toHaveReceivedCommandTimes(StartExecutionCommand, 1);
    await finished(bodyOf(first).run_id);
  });

  it("marks the run FAILED and answers 503 when StartExecution is throttled; the key is free again", async () => {
    sfn.reset();
    sfn.on(StartExecutionCommand).rejectsOnce(
      Object.assign(new Error("Rate exceeded"), {
        name: "ThrottlingException",
        $metadata: { httpStatusCode: 400 },
      }),
    );
    const request = validRequest({ instructions: "throttled" });
    const result = await post("/v1/evaluate-conditions", request, { "Idempotency-Key": "throttled-1" });
    expect(result.statusCode).toBe(503);
    expect(result.headers?.["Retry-After"]).toBe("1");
    const { error } = bodyOf(result);
    expect(error.code).toBe("workflow_unavailable");
    const runId = /run (run-[\w-]+) has been marked FAILED/.exec(error.message)?.[1] as string;
    expect(runId).toBeDefined();
    const run = await twin.services.runs.getRun(runId);
    expect(run?.status).toBe("FAILED");
    expect(run?.error).toEqual({
      error: "StartExecutionFailed",
      cause: "ThrottlingException: Rate exceeded",
    });
    const events = await twin.services.runs.listEvents(runId);
    expect(events).toEqual([expect.objectContaining({ stage: "complete", status: "FAILED", seq: 1 })]);

    // The client retries with its key: a new run starts (the failed one is not replayed).
    forwardToTwin();
    const retry = await post("/v1/evaluate-conditions", request, { "Idempotency-Key": "throttled-1" });
    expect(retry.statusCode).toBe(202);
    expect(retry.headers?.["Idempotent-Replay"]).toBeUndefined();
    expect(bodyOf(retry).run_id).not.toBe(runId);
    await finished(bodyOf(retry).run_id);
  });

  it("answers 502 when Step Functions rejects the start (not worth retrying)", async () => {
    sfn.reset();
    sfn.on(StartExecutionCommand).rejects(
      Object.assign(new Error("State Machine Does Not Exist"), {
        name: "StateMachineDoesNotExist",
        $metadata: { httpStatusCode: 400 },
      }),
    );
    const result = await post("/v1/evaluate-conditions", validRequest());
    expect(result.statusCode).toBe(502);
    const { error } = bodyOf(result);
    expect(error.code).toBe("workflow_start_failed");
    expect(error.message).toMatch(/StateMachineDoesNotExist/);
    const runId = /run (run-[\w-]+) has been marked FAILED/.exec(error.message)?.[1] as string;
    expect((await twin.services.runs.getRun(runId))?.status).toBe("FAILED");
  });
});

describe("POST /v1/evaluate-loan-conditions (legacy)", () => {
  it("runs the fixed PreConditions → Conditions AI plan without a planner LLM call", async () => {
    const result = await post(
      "/v1/evaluate-loan-conditions",
      validRequest({ instructions: "ignored by the fixed plan", options: { max_steps: 1 } }),
    );
    expect(result.statusCode, result.body).toBe(202);
    const { run_id } = bodyOf(result);
    expect((await twin.services.runs.getMeta(run_id)).mode).toBe("legacy");
    const run = await finished(run_id);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.plan?.steps.map((step) => [step.id, step.tool, step.depends_on])).toEqual([
      ["E1", "call_preconditions_api", []],
      ["E2", "call_conditions_ai_api", ["E1"]],
    ]);
    expect(run.plan?.repairs).toEqual([
      { kind: "inserted_required_step", message: LEGACY_PLAN_NOTE, step_ids: ["E1", "E2"] },
    ]);
    // Only the solver's call.
    expect(run.usage.llm_calls).toBe(1);
    expect(run.result?.fulfilled_conditions.length).toBeGreaterThan(0);
  });

  it("creates ReWOO runs with mode rewoo", async () => {
    const result = await post("/v1/evaluate-conditions", validRequest());
    const { run_id } = bodyOf(result);
    expect((await twin.services.runs.getMeta(run_id)).mode).toBe("rewoo");
    await finished(run_id);
  });
});

describe("GET /v1/runs/{run_id} and /events", () => {
  let runId: string;
  let stored: ProgressEvent[];

  beforeAll(async () => {
    sfn.reset();
    forwardToTwin();
    runId = bodyOf(await post("/v1/evaluate-conditions", validRequest({ instructions: "events" }))).run_id;
    await finished(runId);
    stored = await twin.services.runs.listEvents(runId);
  });

  it("answers 404 run_not_found for an unknown run", async () => {
    for (const path of [
      "/v1/runs/run-20990101000000-deadbeef",
      "/v1/runs/run-20990101000000-deadbeef/events",
    ]) {
      const result = await call({ method: "GET", path });
      expect(result.statusCode).toBe(404);
      expect(bodyOf(result).error.code).toBe("run_not_found");
    }
  });

  it("answers 400 for a malformed run id", async () => {
    const result = await call({ method: "GET", path: "/v1/runs/..%2F..%2Fetc" });
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result).error.fields).toEqual([expect.objectContaining({ field: "run_id" })]);
  });

  it("lists every event in seq order, then those after after_seq", async () => {
    const all = bodyOf(await call({ method: "GET", path: `/v1/runs/${runId}/events` }));
    expect(all.run_id).toBe(runId);
    expect(all.status).toBe("SUCCEEDED");
    expect(all.events.map((e: ProgressEvent) => e.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(all.events[0].stage).toBe("plan");
    expect(all.events.at(-1)).toMatchObject({ stage: "complete", status: "SUCCEEDED" });
    expect(all.next_after_seq).toBe(stored.length);

    const tail = bodyOf(
      await call({ method: "GET", path: `/v1/runs/${runId}/events`, query: { after_seq: "3" } }),
    );
    expect(tail.events.map((e: ProgressEvent) => e.seq)).toEqual(stored.slice(3).map((e) => e.seq));

    const page = bodyOf(
      await call({ method: "GET", path: `/v1/runs/${runId}/events`, query: { after_seq: "1", limit: "2" } }),
    );
    expect(page.events.map((e: ProgressEvent) => e.seq)).toEqual([2, 3]);
    expect(page.next_after_seq).toBe(3);

    const none = bodyOf(
      await call({
        method: "GET",
        path: `/v1/runs/${runId}/events`,
        query: { after_seq: String(stored.length) },
      }),
    );
    expect(none).toMatchObject({ events: [], next_after_seq: stored.length });
  });

  it("works behind a greedy proxy resource too", async () => {
    const result = await call({ method: "GET", path: `/v1/runs/${runId}`, resource: "/{proxy+}" });
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result).run_id).toBe(runId);
  });
});

describe("POST /v1/runs/{run_id}/cancel", () => {
  it("stops a running run: it ends CANCELLED with a complete event, and stays CANCELLED", async () => {
    const { run_id } = bodyOf(
      await post("/v1/evaluate-conditions", validRequest({ instructions: "cancel me" }), {}),
    );
    await until(async () => {
      const events = await twin.services.runs.listEvents(run_id);
      return events.some((e) => e.stage === "worker" && e.status === "started") ? true : undefined;
    }, "the first worker step");

    const result = await post(`/v1/runs/${run_id}/cancel`, "");
    expect(result.statusCode, result.body).toBe(200);
    expect(bodyOf(result)).toEqual({ run_id, status: "CANCELLED" });
    expect(sfn).toHaveReceivedCommandWith(StopExecutionCommand, { executionArn: executionArn(run_id) });

    const run = await finished(run_id);
    expect(twin.stepFunctions.describeExecution(executionArn(run_id)).status).toBe("ABORTED");
    expect(run.status).toBe("CANCELLED");
    expect(run.result).toBeUndefined();
    const events = await twin.services.runs.listEvents(run_id);
    const completes = events.filter((e) => e.stage === "complete");
    expect(completes).toEqual([expect.objectContaining({ status: "CANCELLED" })]);
    expect(events.some((e) => e.stage === "solver")).toBe(false);
  });

  it("cancels a run whose planner has not run yet, and the planner then leaves it alone", async () => {
    sfn.reset();
    // StartExecution accepted, but the execution only begins when the test says so.
    const started: StartExecutionCommandInput[] = [];
    sfn.on(StartExecutionCommand).callsFake((input: StartExecutionCommandInput) => {
      started.push(input);
      return { executionArn: executionArn(input.name ?? ""), startDate: new Date() };
    });
    sfn.on(StopExecutionCommand).resolves({ stopDate: new Date() });
    const { run_id } = bodyOf(
      await post("/v1/evaluate-conditions", validRequest({ instructions: "early cancel" })),
    );
    expect((await post(`/v1/runs/${run_id}/cancel`, "")).statusCode).toBe(200);

    // A late execution (StopExecution raced with the start) must not revive the run.
    twin.stepFunctions.startExecution({ name: run_id, input: { run_id } });
    const run = await finished(run_id);
    expect(run.status).toBe("CANCELLED");
    expect(run.plan).toBeUndefined();
    expect(run.usage.llm_calls).toBe(0);
    const events = await twin.services.runs.listEvents(run_id);
    expect(events.map((e) => [e.stage, "status" in e ? e.status : undefined])).toEqual([
      ["complete", "CANCELLED"],
    ]);
  });

  it("answers 409 run_finished for a finished run", async () => {
    const { run_id } = bodyOf(await post("/v1/evaluate-conditions", validRequest({ instructions: "done" })));
    await finished(run_id);
    const result = await post(`/v1/runs/${run_id}/cancel`, "");
    expect(result.statusCode).toBe(409);
    expect(bodyOf(result).error).toEqual({
      code: "run_finished",
      message: `run ${run_id} already SUCCEEDED; only a running run can be cancelled`,
    });
    expect(sfn).not.toHaveReceivedCommand(StopExecutionCommand);
    expect((await twin.services.runs.getRun(run_id))?.status).toBe("SUCCEEDED");
  });

  it("answers 404 for an unknown run", async () => {
    const result = await post("/v1/runs/run-20990101000000-deadbeef/cancel", "");
    expect(result.statusCode).toBe(404);
    expect(bodyOf(result).error.code).toBe("run_not_found");
  });
});

describe("GET /v1/runs", () => {
  it("lists the most recent runs first, with their status and loan profile", async () => {
    const first = bodyOf(await post("/v1/evaluate-conditions", validRequest())).run_id;
    const second = bodyOf(await post("/v1/evaluate-loan-conditions", validRequest())).run_id;
    const result = await call({ method: "GET", path: "/v1/runs", query: { limit: "2" } });
    expect(result.statusCode).toBe(200);
    const { runs } = bodyOf(result);
    expect(runs.map((run: { run_id: string }) => run.run_id)).toEqual([second, first]);
    expect(runs[0]).toMatchObject({
      mode: "legacy",
      request: { metadata: { loan_program: "Flex Supreme", classification: "1120 Corporate Tax Return" } },
    });
    expect(typeof runs[0].status).toBe("string");
  });

  it("answers 400 for a limit out of range", async () => {
    const result = await call({ method: "GET", path: "/v1/runs", query: { limit: "1000" } });
    expect(result.statusCode).toBe(400);
  });
});

describe("GET /health", () => {
  it("answers ok with the version", async () => {
    const result = await call({ method: "GET", path: "/health" });
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ status: "ok", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });
});
