// The OpenAI-compatible provider on the wire: fetch against a loopback server replaying recorded
// chat-completions responses (success, finish_reason length, 429 with retry-after, 401, 500, null
// and empty content).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CompletionRequest,
  createLlmProviders,
  LlmEmptyOutputError,
  LlmOutputTruncatedError,
  OpenAiCompatibleProvider,
  OpenAiHttpError,
} from "../../../lambdas/llm/index.ts";
import { forStateMachine, isTransient, TRANSIENT_ERROR_NAME } from "../../../lambdas/runtime/transient.ts";
import { type ReplayServer, startReplayServer, wireFixture } from "./wire.ts";

let server: ReplayServer;
let baseUrl: string;
let url: string;

beforeAll(async () => {
  server = await startReplayServer("http1");
  baseUrl = `${server.origin}/v1`;
  url = `${baseUrl}/chat/completions`;
});

afterAll(() => server?.close());

const solverRequest = (model?: string): CompletionRequest => ({
  system: "You are the solver.",
  prompt: "Solve.",
  ...(model ? { model } : {}),
  context: {
    purpose: "solver",
    request: { metadata: {}, s3_pdf_paths: [] },
    plan: { steps: [], levels: [], repairs: [] },
    evidence: [],
  },
});

/** Waits asked for between attempts, recorded instead of slept. */
let waits: number[] = [];
const provider = (options: Partial<ConstructorParameters<typeof OpenAiCompatibleProvider>[0]> = {}) =>
  new OpenAiCompatibleProvider({
    baseUrl,
    apiKey: "sk-wire-test",
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });

describe("OpenAI chat completions on the wire", () => {
  it("posts model, messages, the role's temperature and max_tokens with the bearer key, and reads text and usage", async () => {
    server.replay(wireFixture("openai/chat-success"));
    const { solver } = createLlmProviders({
      provider: "openai",
      openaiBaseUrl: baseUrl,
      openaiApiKey: "sk-wire-test",
      solverModel: "gpt-4o-mini",
      roles: { solver: { temperature: 0.2, maxTokens: 1500 } },
    });

    const completion = await solver.provider.complete(solverRequest(solver.model));

    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { authorization: "Bearer sk-wire-test", "content-type": "application/json" },
    });
    expect(server.received[0]?.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are the solver." },
        { role: "user", content: "Solve." },
      ],
      temperature: 0.2,
      max_tokens: 1500,
    });
    const body = wireFixture("openai/chat-success").body as {
      choices: Array<{ message: { content: string } }>;
    };
    expect(completion).toEqual({
      text: body.choices[0]?.message.content,
      model: "gpt-4o-mini-2024-07-18",
      usage: { input_tokens: 1117, output_tokens: 46, source: "provider" },
      stop_reason: "stop",
    });
  });

  it("sends today's default temperature and no max_tokens for a role without settings", async () => {
    server.replay(wireFixture("openai/chat-success"));
    const { planner } = createLlmProviders({ provider: "openai", openaiBaseUrl: baseUrl });

    await planner.provider.complete({
      system: "Plan.",
      prompt: "p",
      context: {
        purpose: "planner",
        request: { metadata: {}, s3_pdf_paths: [] },
        tools: new Map(),
        maxSteps: 4,
      },
    });

    expect(server.received[0]?.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Plan." },
        { role: "user", content: "p" },
      ],
      temperature: 0.1,
    });
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  it("refuses an answer cut off at max_tokens (finish_reason length) with a named error", async () => {
    server.replay(wireFixture("openai/chat-length"));

    const error = await provider({ maxTokens: 32 })
      .complete(solverRequest())
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmOutputTruncatedError);
    expect(error).toMatchObject({ stopReason: "length", usage: { input_tokens: 1117, output_tokens: 32 } });
    expect((error as Error).message).toBe(
      "OpenAI-compatible model gpt-4o-mini-2024-07-18 stopped at the output token limit (maxTokens 32, stop reason length) while answering as the solver: the cut-off answer is not used; raise REWOO_SOLVER_MAX_TOKENS or ask for a shorter answer",
    );
  });

  it("waits what retry-after asks after a 429 and answers when the server does", async () => {
    waits = [];
    server.replay(wireFixture("openai/chat-rate-limit"), wireFixture("openai/chat-success"));

    const completion = await provider().complete(solverRequest());

    expect(server.received).toHaveLength(2);
    expect(waits).toEqual([1000]);
    expect(completion.stop_reason).toBe("stop");
  });

  it("gives up on a lasting 429 after its attempts with a transient error naming the provider, the status and the server's message", async () => {
    waits = [];
    server.replay(wireFixture("openai/chat-rate-limit"));

    const error = await provider()
      .complete(solverRequest("gpt-4o-mini"))
      .catch((e: unknown) => e);

    expect(server.received).toHaveLength(3);
    expect(waits).toEqual([1000, 1000]);
    expect(error).toBeInstanceOf(OpenAiHttpError);
    expect(error).toMatchObject({
      status: 429,
      code: "rate_limit_exceeded",
      $metadata: { httpStatusCode: 429, attempts: 3 },
    });
    expect((error as Error).message).toBe(
      `OpenAI-compatible request to ${url} failed with HTTP 429 Too Many Requests after 3 attempts (model gpt-4o-mini): Rate limit reached for gpt-4o-mini in organization org-EXAMPLE on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
    );
    // The handlers hand it to the state machine's Retry under the one transient name.
    expect(isTransient(error)).toBe(true);
    expect(forStateMachine(error)).toMatchObject({ name: TRANSIENT_ERROR_NAME });
  });

  it("does not wait inside the function for a retry-after longer than its limit", async () => {
    waits = [];
    server.replay(wireFixture("openai/chat-rate-limit"));

    const error = await provider({ maxRetryDelayMs: 500 })
      .complete(solverRequest())
      .catch((e: unknown) => e);

    expect(server.received).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(isTransient(error)).toBe(true);
  });

  it("does not retry a 401 and reports it as a permanent failure", async () => {
    server.replay(wireFixture("openai/chat-invalid-key"));

    const error = await provider()
      .complete(solverRequest("gpt-4o-mini"))
      .catch((e: unknown) => e);

    expect(server.received).toHaveLength(1);
    expect(error).toMatchObject({ status: 401, code: "invalid_api_key" });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^OpenAI-compatible request to ${url.replace(/[.]/g, "\\.")} failed with HTTP 401 Unauthorized \\(model gpt-4o-mini\\): Incorrect API key provided: `,
      ),
    );
    expect(isTransient(error)).toBe(false);
  });

  it("retries a 500 and then surfaces it as transient", async () => {
    waits = [];
    server.replay(wireFixture("openai/chat-server-error"));

    const error = await provider()
      .complete(solverRequest("gpt-4o-mini"))
      .catch((e: unknown) => e);

    expect(server.received).toHaveLength(3);
    // No retry-after: jittered exponential backoff, below 500 ms and then 1 s.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeLessThan(500);
    expect(waits[1]).toBeLessThan(1000);
    expect((error as Error).message).toBe(
      `OpenAI-compatible request to ${url} failed with HTTP 500 Internal Server Error after 3 attempts (model gpt-4o-mini): The server had an error while processing your request. Sorry about that!`,
    );
    expect(isTransient(error)).toBe(true);
  });

  it("refuses content null with the model's refusal in the message", async () => {
    server.replay(wireFixture("openai/chat-content-null"));

    const error = await provider()
      .complete(solverRequest())
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmEmptyOutputError);
    expect((error as Error).message).toBe(
      "OpenAI-compatible model gpt-4o-mini-2024-07-18 refused to answer (finish_reason stop): I'm sorry, I can't help with that request.",
    );
  });

  it("refuses an empty content string with a named error", async () => {
    server.replay(wireFixture("openai/chat-content-empty"));

    const error = await provider()
      .complete(solverRequest())
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmEmptyOutputError);
    expect((error as Error).message).toBe(
      "OpenAI-compatible model gpt-4o-mini-2024-07-18 returned no text (stop reason stop) while answering as the solver",
    );
  });
});
