import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLoanTools, type LoanToolServices } from "../../../lambdas/agents/loan/loan-tools.ts";
import type { LlmProvider } from "../../../lambdas/llm/types.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import type { RunStore } from "../../../lambdas/store/runs.ts";
import type { DocumentReader } from "../../../lambdas/tools/document-reader.ts";
import {
  createConditionsAiHttp,
  createLenderCalls,
  createPreconditionsHttp,
  LenderServiceClient,
  type LenderServiceClientOptions,
  LenderServiceError,
  preconditionsResponseSchema,
} from "../../../lambdas/tools/lender-client.ts";
import type { ToolContext } from "../../../lambdas/tools/registry.ts";
import {
  type RecordedRequest,
  type RecordingServer,
  startRecordingServer,
} from "../../support/recording-server.ts";

// A real HTTP server on loopback with one scripted reply per request, so headers, bodies, status
// handling and timeouts go through fetch and the network stack, not a mocked fetch.
type Reply = { status: number; body: unknown; headers?: Record<string, string> } | "hang";

let stub: RecordingServer;
let origin: string;
let received: RecordedRequest[];
let script: Reply[] = [];

beforeAll(async () => {
  stub = await startRecordingServer(() => {
    const reply = script.shift() ?? { status: 500, body: { message: "stub: no scripted reply left" } };
    if (reply === "hang") return "hang";
    const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
    return { status: reply.status, body, ...(reply.headers ? { headers: reply.headers } : {}) };
  });
  origin = stub.origin;
  received = stub.received;
});

afterAll(() => stub.close());

beforeEach(() => {
  received.length = 0;
  script = [];
});

const sleeps: number[] = [];
const noWait = async (ms: number) => {
  sleeps.push(ms);
};

function client(options: Partial<LenderServiceClientOptions> = {}): LenderServiceClient {
  sleeps.length = 0;
  return new LenderServiceClient({
    service: "PreConditions",
    baseUrl: `${origin}/lender/`,
    token: "secret-token",
    sleep: noWait,
    ...options,
  });
}

const preconditionsBody = {
  loan_program: "SBA 7(a)",
  classification: "1120 Corporate Tax Return",
  as_of_date: "2025-03-01",
  conditions: [
    {
      id: "TR_SIGNED",
      title: "Tax return signed and dated",
      compartment: "Compliance",
      priority: "high",
      reason: "verify the Sign Here block",
    },
  ],
};

async function rejection(promise: Promise<unknown>): Promise<LenderServiceError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LenderServiceError);
  return error as LenderServiceError;
}

describe("LenderServiceClient", () => {
  it("posts JSON with the bearer token to the path under the base URL and returns the parsed body", async () => {
    script = [{ status: 200, body: preconditionsBody }];
    const result = await client().post(
      "/v1/preconditions",
      { metadata: { classification: "1120 Corporate Tax Return" } },
      preconditionsResponseSchema(),
    );

    expect(result.conditions[0]?.id).toBe("TR_SIGNED");
    expect(received).toHaveLength(1);
    expect(received[0]?.method).toBe("POST");
    expect(received[0]?.url).toBe("/lender/v1/preconditions");
    expect(received[0]?.headers.authorization).toBe("Bearer secret-token");
    expect(received[0]?.headers["content-type"]).toBe("application/json");
    expect(received[0]?.body).toEqual({ metadata: { classification: "1120 Corporate Tax Return" } });
  });

  it("sends no authorization header without a token", async () => {
    script = [{ status: 200, body: preconditionsBody }];
    await client({ token: undefined }).post("/v1/preconditions", {}, preconditionsResponseSchema());
    expect(received[0]?.headers.authorization).toBeUndefined();
  });

  it("retries a 429 and returns the next success, waiting what Retry-After says", async () => {
    script = [
      { status: 429, body: { message: "slow down" }, headers: { "retry-after": "2" } },
      { status: 200, body: preconditionsBody },
    ];
    const result = await client().post("/v1/preconditions", {}, preconditionsResponseSchema());
    expect(result.classification).toBe("1120 Corporate Tax Return");
    expect(received).toHaveLength(2);
    expect(sleeps).toEqual([2_000]);
  });

  it("caps Retry-After and uses jittered exponential backoff without it", async () => {
    script = [
      { status: 503, body: "", headers: { "retry-after": "3600" } },
      { status: 502, body: "bad gateway" },
      { status: 500, body: "" },
      { status: 200, body: preconditionsBody },
    ];
    await client({ random: () => 0.5, baseDelayMs: 100, maxDelayMs: 5_000 }).post(
      "/v1/preconditions",
      {},
      preconditionsResponseSchema(),
    );
    expect(received).toHaveLength(4);
    // Retry-After 3600 s → capped at 5 s; then 0.5 × 200 ms and 0.5 × 400 ms.
    expect(sleeps).toEqual([5_000, 100, 200]);
  });

  it("gives up after maxAttempts on 500 and names the attempts and the last status", async () => {
    script = Array.from({ length: 4 }, () => ({ status: 500, body: { error: "database unavailable" } }));
    const error = await rejection(client().post("/v1/preconditions", {}, preconditionsResponseSchema()));

    expect(received).toHaveLength(4);
    expect(error.name).toBe("LenderServiceError");
    expect(error.status).toBe(500);
    expect(error.attempts).toBe(4);
    expect(error.service).toBe("PreConditions");
    expect(error.message).toContain("PreConditions POST /lender/v1/preconditions");
    expect(error.message).toContain("after 4 attempts");
    expect(error.message).toContain("HTTP 500");
    expect(error.message).toContain("database unavailable");
  });

  it("does not retry a 400 and reports the body's message", async () => {
    script = [{ status: 400, body: { message: "metadata.classification is required" } }];
    const error = await rejection(client().post("/v1/preconditions", {}, preconditionsResponseSchema()));

    expect(received).toHaveLength(1);
    expect(error.status).toBe(400);
    expect(error.attempts).toBe(1);
    expect(error.message).toContain("HTTP 400");
    expect(error.message).toContain("metadata.classification is required");
    expect(error.message).not.toContain("secret-token");
  });

  it("describes an HTML error page by its title and size, not its content", async () => {
    script = [{ status: 401, body: `<html><title>Gateway login</title>${"x".repeat(1_000)}</html>` }];
    const error = await rejection(client().post("/v1/preconditions", {}, preconditionsResponseSchema()));
    expect(received).toHaveLength(1);
    expect(error.message).toBe(
      'PreConditions POST /lender/v1/preconditions failed with HTTP 401: an HTML page titled "Gateway login" (1041 bytes)',
    );
  });

  it("rejects a malformed response naming the first invalid field", async () => {
    script = [
      {
        status: 200,
        body: { ...preconditionsBody, conditions: [{ ...preconditionsBody.conditions[0], id: 42 }] },
      },
    ];
    const error = await rejection(client().post("/v1/preconditions", {}, preconditionsResponseSchema()));
    expect(received).toHaveLength(1);
    expect(error.message).toContain("PreConditions response: conditions[0].id: expected string");
  });

  it("rejects a response that is not JSON", async () => {
    script = [{ status: 200, body: "<html>maintenance</html>" }];
    const error = await rejection(client().post("/v1/preconditions", {}, preconditionsResponseSchema()));
    // Described, never quoted: a body may echo what the service was sent.
    expect(error.message).toBe("PreConditions response is not JSON: an HTML page (24 bytes, not shown)");
  });

  it("times out an attempt that never answers, retries, then names the timeout", async () => {
    script = ["hang", "hang"];
    const error = await rejection(
      client({ timeoutMs: 50, maxAttempts: 2 }).post("/v1/preconditions", {}, preconditionsResponseSchema()),
    );
    expect(received).toHaveLength(2);
    expect(error.status).toBeUndefined();
    expect(error.attempts).toBe(2);
    expect(error.message).toContain("after 2 attempts");
    expect(error.message).toContain("timed out after 50 ms");
  });

  it("retries a refused connection and names the network error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const error = await rejection(
      client({ baseUrl: `http://127.0.0.1:${port}`, maxAttempts: 3 }).post(
        "/v1/preconditions",
        {},
        preconditionsResponseSchema(),
      ),
    );
    expect(sleeps).toHaveLength(2);
    expect(error.message).toContain("after 3 attempts");
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("stops retrying when the caller aborts", async () => {
    script = ["hang", "hang", "hang"];
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = await rejection(
      client({ timeoutMs: 10_000 }).post(
        "/v1/preconditions",
        {},
        preconditionsResponseSchema(),
        controller.signal,
      ),
    );
    expect(received).toHaveLength(1);
    expect(error.message).toContain("cancelled after 1 attempt");
  });
});

describe("createPreconditionsHttp / createConditionsAiHttp", () => {
  it("fills what the service may leave out with what the reference engine would return", async () => {
    script = [
      {
        status: 200,
        body: {
          classification: "Bank Statements",
          conditions: [
            { id: "BS_NO_NSF", title: "No NSF", compartment: "Assets", priority: 2, reason: "check fees" },
          ],
        },
      },
    ];
    const call = createPreconditionsHttp(client(), { now: () => new Date("2025-06-30T12:00:00Z") });
    const result = await call({ classification: "Bank Statements" });
    expect(result).toEqual({
      loan_program: null,
      classification: "Bank Statements",
      as_of_date: "2025-06-30",
      conditions: [
        {
          id: "BS_NO_NSF",
          title: "No NSF",
          compartment: "Assets",
          priority: 2,
          reason: "check fees",
          verifiable: true,
          expected: {},
        },
      ],
    });
  });

  it("maps cited URIs back to the requested paths and keeps one verdict per condition", async () => {
    script = [
      {
        status: 200,
        body: {
          verdicts: [
            {
              condition_id: "BS_NO_NSF",
              status: "not_fulfilled",
              reason: "NSF fee on 03/14",
              citations: [{ document: "s3://docs/loans/march.pdf", page: 2, excerpt: "NSF FEE 35.00" }],
            },
            { condition_id: "BS_SAME_ACCOUNT", status: "fulfilled", reason: "same account", citations: [] },
          ],
        },
      },
    ];
    const call = createConditionsAiHttp(client({ service: "Conditions AI" }));
    const result = await call(
      ["BS_NO_NSF", "BS_SAME_ACCOUNT", { id: "BS_TWO_MONTHS", title: "Two months", compartment: "Assets" }],
      [{ path: "loans/march.pdf", uri: "s3://docs/loans/march.pdf" }],
    );

    expect(received[0]?.url).toBe("/lender/v1/evaluations");
    expect(received[0]?.body).toEqual({
      conditions: [
        "BS_NO_NSF",
        "BS_SAME_ACCOUNT",
        { id: "BS_TWO_MONTHS", title: "Two months", compartment: "Assets" },
      ],
      documents: [{ path: "loans/march.pdf", uri: "s3://docs/loans/march.pdf" }],
    });
    const [nsf, same, twoMonths] = result.verdicts;
    expect(nsf).toMatchObject({
      condition_id: "BS_NO_NSF",
      status: "not_fulfilled",
      citations: [{ document: "loans/march.pdf", page: 2, excerpt: "NSF FEE 35.00" }],
    });
    expect(typeof nsf?.title).toBe("string");
    // A decision without a citation is not a decision, as with the reference engine.
    expect(same).toMatchObject({ status: "insufficient_evidence" });
    expect(same?.reason).toContain("no citation from Conditions AI");
    expect(twoMonths).toMatchObject({
      condition_id: "BS_TWO_MONTHS",
      title: "Two months",
      compartment: "Assets",
      status: "insufficient_evidence",
    });
    expect(twoMonths?.reason).toContain("returned no verdict");
  });
});

describe("loan tools in HTTP mode", () => {
  const policy = { documentsBucket: "docs", allowedPrefixes: ["docs/loans/"] };

  function tools() {
    sleeps.length = 0;
    const lender = createLenderCalls(
      { preconditionsUrl: `${origin}/pre`, conditionsAiUrl: `${origin}/cai`, token: "t0k", timeoutMs: 1_000 },
      { sleep: noWait },
    );
    const unused = new Proxy(
      {},
      {
        get: (_, name) => {
          throw new Error(`HTTP mode must not touch ${String(name)}`);
        },
      },
    );
    const services: LoanToolServices = {
      documents: unused as DocumentReader,
      runs: unused as RunStore,
      llm: { provider: unused as LlmProvider },
      now: () => new Date("2025-03-01T00:00:00Z"),
      documentPolicy: policy,
      ...(lender ? { lender } : {}),
    };
    return createLoanTools(() => services);
  }

  const context: ToolContext = {
    run_id: "run-1",
    step_id: "E1",
    signal: new AbortController().signal,
    recordLlmUsage: () => {},
  };

  async function run(name: string, args: Record<string, unknown>): Promise<unknown> {
    const tool = tools().find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    return tool.run(tool.args.parse(args), context);
  }

  it("call_preconditions_api returns the service's conditions", async () => {
    script = [{ status: 200, body: preconditionsBody }];
    const metadata = { loan_program: "SBA 7(a)", classification: "1120 Corporate Tax Return" };
    const result = await run("call_preconditions_api", { metadata });

    expect(received).toHaveLength(1);
    expect(received[0]?.url).toBe("/pre/v1/preconditions");
    expect(received[0]?.headers.authorization).toBe("Bearer t0k");
    expect(received[0]?.body).toEqual({ metadata });
    expect(result).toMatchObject({
      loan_program: "SBA 7(a)",
      as_of_date: "2025-03-01",
      conditions: [{ id: "TR_SIGNED", verifiable: true, expected: {} }],
    });
  });

  it("call_conditions_ai_api sends resolved s3:// URIs and returns the service's verdicts", async () => {
    script = [
      {
        status: 200,
        body: {
          verdicts: [
            {
              condition_id: "TR_SIGNED",
              title: "Tax return signed and dated",
              compartment: "Compliance",
              status: "fulfilled",
              reason: "signed by Jane Doe on 03/01/2025",
              citations: [{ document: "loans/1120.pdf", page: 1, excerpt: "Signature of officer Jane Doe" }],
            },
          ],
        },
      },
    ];
    const result = await run("call_conditions_ai_api", {
      conditions: [{ id: "TR_SIGNED", expected: {} }],
      documents: ["loans/1120.pdf", "s3://docs/loans/1120-schedules.pdf"],
    });

    expect(received).toHaveLength(1);
    expect(received[0]?.url).toBe("/cai/v1/evaluations");
    expect(received[0]?.body).toEqual({
      conditions: [{ id: "TR_SIGNED", expected: {} }],
      documents: [
        { path: "loans/1120.pdf", uri: "s3://docs/loans/1120.pdf" },
        { path: "s3://docs/loans/1120-schedules.pdf", uri: "s3://docs/loans/1120-schedules.pdf" },
      ],
    });
    expect(result).toEqual({
      verdicts: [
        {
          condition_id: "TR_SIGNED",
          title: "Tax return signed and dated",
          compartment: "Compliance",
          status: "fulfilled",
          reason: "signed by Jane Doe on 03/01/2025",
          citations: [{ document: "loans/1120.pdf", page: 1, excerpt: "Signature of officer Jane Doe" }],
        },
      ],
    });
  });

  it("rejects a disallowed document path before any HTTP request", async () => {
    script = [{ status: 200, body: { verdicts: [] } }];
    await expect(
      run("call_conditions_ai_api", {
        conditions: ["TR_SIGNED"],
        documents: ["loans/1120.pdf", "s3://other-bucket/secrets.pdf"],
      }),
    ).rejects.toThrow(/outside the allowed document locations/);
    await expect(
      run("call_conditions_ai_api", { conditions: ["TR_SIGNED"], documents: ["loans/../payroll.pdf"] }),
    ).rejects.toThrow(/"\." or "\.\." segments/);
    expect(received).toHaveLength(0);
  });

  it("surfaces a 4xx as the tool's error", async () => {
    script = [{ status: 400, body: { error: 'unknown classification "W-2"' } }];
    await expect(run("call_preconditions_api", { metadata: { classification: "W-2" } })).rejects.toThrow(
      /PreConditions POST \/pre\/v1\/preconditions failed with HTTP 400: unknown classification "W-2"/,
    );
    expect(received).toHaveLength(1);
  });
});

describe("lender configuration", () => {
  const base = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "docs", ARTIFACTS_BUCKET: "artifacts" };

  it("leaves the reference engines in place by default", () => {
    const config = parseConfig(base);
    expect(config.lender).toEqual({
      preconditionsUrl: undefined,
      conditionsAiUrl: undefined,
      token: undefined,
      timeoutMs: 10_000,
    });
    expect(createLenderCalls(config.lender)).toBeUndefined();
  });

  it("reads the URLs, token and timeout, treating empty values as unset", () => {
    const config = parseConfig({
      ...base,
      PRECONDITIONS_API_URL: "https://lender.example/preconditions",
      CONDITIONS_AI_API_URL: "",
      LENDER_API_TOKEN: "abc",
      LENDER_API_TIMEOUT_MS: "5000",
    });
    expect(config.lender).toEqual({
      preconditionsUrl: "https://lender.example/preconditions",
      conditionsAiUrl: undefined,
      token: "abc",
      timeoutMs: 5_000,
    });
    const calls = createLenderCalls(config.lender);
    expect(calls?.preconditions).toBeTypeOf("function");
    expect(calls?.conditionsAi).toBeUndefined();
  });

  it("refuses plain http to a remote host (the token would travel in clear) and non-URLs", () => {
    expect(() => parseConfig({ ...base, CONDITIONS_AI_API_URL: "http://lender.example" })).toThrow(
      /CONDITIONS_AI_API_URL: must be an https:\/\/ URL/,
    );
    expect(
      parseConfig({ ...base, CONDITIONS_AI_API_URL: "http://127.0.0.1:8080" }).lender.conditionsAiUrl,
    ).toBe("http://127.0.0.1:8080");
  });
});
