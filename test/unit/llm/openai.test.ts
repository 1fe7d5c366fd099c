import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OpenAiCompatibleProvider, OpenAiHttpError } from "../../../lambdas/llm/openai.ts";
import { countTokens } from "../../../lambdas/llm/tokenizer.ts";
import {
  type RecordedRequest,
  type RecordingServer,
  startRecordingServer,
} from "../../support/recording-server.ts";

// A real HTTP server on loopback: the provider's fetch, headers, body and error paths are exercised
// end to end, not against a mocked fetch.
let stub: RecordingServer;
let received: RecordedRequest[];
let baseUrl: string;
let reply: { status: number; body: string; delayMs?: number } = { status: 200, body: "{}" };

beforeAll(async () => {
  stub = await startRecordingServer(() => reply);
  received = stub.received;
  baseUrl = `${stub.origin}/v1/`;
});

afterAll(() => stub.close());

beforeEach(() => {
  received.length = 0;
});

const solverContext = {
  purpose: "solver" as const,
  request: { metadata: {}, s3_pdf_paths: ["a.pdf"] },
  plan: { steps: [], levels: [], repairs: [] },
  evidence: [],
};

function chat(content: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    ...extra,
  });
}

describe("OpenAiCompatibleProvider", () => {
  it("posts system and user messages with the bearer key and reports the server's usage", async () => {
    reply = {
      status: 200,
      body: chat('{"summary":"done"}', {
        model: "gpt-4o-mini-2024-07-18",
        usage: { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 },
      }),
    };
    const provider = new OpenAiCompatibleProvider({ baseUrl, apiKey: "sk-test" });

    const completion = await provider.complete({
      system: "You are the solver.",
      prompt: "Solve.",
      model: "gpt-4o-mini",
      context: solverContext,
    });

    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: {
        model: "gpt-4o-mini",
        messages: [
          { role: "system", content: "You are the solver." },
          { role: "user", content: "Solve." },
        ],
        temperature: 0.3,
      },
    });
    expect(completion).toEqual({
      text: '{"summary":"done"}',
      model: "gpt-4o-mini-2024-07-18",
      usage: { input_tokens: 321, output_tokens: 12, source: "provider" },
      stop_reason: "stop",
    });
  });

  it("sends no authorization header without a key and counts tokens when usage is missing", async () => {
    reply = { status: 200, body: chat("plan text") };
    const provider = new OpenAiCompatibleProvider({ baseUrl, defaultModel: "llama3.1:8b" });

    const completion = await provider.complete({
      system: "sys",
      prompt: "Plan it.",
      context: { purpose: "tool" },
    });

    expect(received[0]?.headers.authorization).toBeUndefined();
    expect(received[0]?.body).toMatchObject({ model: "llama3.1:8b" });
    expect(completion.model).toBe("llama3.1:8b");
    expect(completion.usage).toEqual({
      input_tokens: countTokens("sys") + countTokens("Plan it."),
      output_tokens: countTokens("plan text"),
      source: "tokenizer",
    });
  });

  it("reports HTTP 500 with the status and the body's error message", async () => {
    reply = {
      status: 500,
      body: JSON.stringify({ error: { message: "model overloaded", type: "server_error" } }),
    };
    // One attempt: the retries of a 5xx are the wire tests' (wire-openai.test.ts).
    const provider = new OpenAiCompatibleProvider({ baseUrl, maxAttempts: 1 });

    const error = await provider
      .complete({ system: "s", prompt: "p", model: "m1", context: { purpose: "tool" } })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAiHttpError);
    expect((error as OpenAiHttpError).status).toBe(500);
    expect((error as Error).message).toBe(
      `OpenAI-compatible request to ${baseUrl}chat/completions failed with HTTP 500 Internal Server Error (model m1): model overloaded`,
    );
  });

  it("reports a non-JSON error body as text", async () => {
    reply = { status: 502, body: "<html>Bad Gateway</html>" };
    const provider = new OpenAiCompatibleProvider({ baseUrl, maxAttempts: 1 });

    await expect(
      provider.complete({ system: "s", prompt: "p", context: { purpose: "tool" } }),
    ).rejects.toThrow(/HTTP 502 Bad Gateway \(model gpt-4o-mini\): <html>Bad Gateway<\/html>$/);
  });

  it("rejects a 200 response that is not JSON", async () => {
    reply = { status: 200, body: "not json {" };
    const provider = new OpenAiCompatibleProvider({ baseUrl });

    await expect(
      provider.complete({ system: "s", prompt: "p", context: { purpose: "tool" } }),
    ).rejects.toThrow(
      `OpenAI-compatible response from ${baseUrl}chat/completions was not JSON (model gpt-4o-mini): not json {`,
    );
  });

  it("rejects a response without choices[0].message.content", async () => {
    reply = { status: 200, body: JSON.stringify({ choices: [] }) };
    const provider = new OpenAiCompatibleProvider({ baseUrl });

    await expect(
      provider.complete({ system: "s", prompt: "p", context: { purpose: "tool" } }),
    ).rejects.toThrow("had no choices[0].message.content");
  });

  it("gives up after the timeout with a message naming it", async () => {
    reply = { status: 200, body: chat("late"), delayMs: 1_000 };
    const provider = new OpenAiCompatibleProvider({ baseUrl, timeoutMs: 50 });

    await expect(
      provider.complete({ system: "s", prompt: "p", context: { purpose: "tool" } }),
    ).rejects.toThrow(
      `OpenAI-compatible request to ${baseUrl}chat/completions timed out after 50 ms (model gpt-4o-mini)`,
    );
  });

  it("uses an injected fetch", async () => {
    const calls: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      calls.push(String(input));
      return new Response(chat("from fake"), { status: 200 });
    };
    const provider = new OpenAiCompatibleProvider({ baseUrl: "http://llm.invalid/v1", fetch: fakeFetch });

    const completion = await provider.complete({ system: "", prompt: "p", context: { purpose: "tool" } });

    expect(calls).toEqual(["http://llm.invalid/v1/chat/completions"]);
    expect(completion.text).toBe("from fake");
  });
});
