// The Bedrock provider on the wire: the real BedrockRuntimeClient (SigV4, retries, the restJson1
// error parsing) against a loopback server replaying recorded Converse responses.
import { type BedrockRuntimeClient, ThrottlingException } from "@aws-sdk/client-bedrock-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BEDROCK_MAX_ATTEMPTS,
  type CompletionRequest,
  createLlmProviders,
  DEFAULT_BEDROCK_MODEL,
  LlmEmptyOutputError,
  LlmOutputTruncatedError,
} from "../../../lambdas/llm/index.ts";
import { forStateMachine, isTransient, TRANSIENT_ERROR_NAME } from "../../../lambdas/runtime/transient.ts";
import { type ReplayServer, startBedrockWire, wireFixture } from "./wire.ts";

const SONNET = "us.anthropic.claude-sonnet-4-20250514-v1:0";
const CONVERSE_PATH = (model: string) => `/model/${encodeURIComponent(model)}/converse`;

let server: ReplayServer;
let client: BedrockRuntimeClient;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ server, client, close } = await startBedrockWire());
});

afterAll(() => close?.());

/** The four roles as the functions build them, with the planner's sampling settings configured. */
const llm = () =>
  createLlmProviders(
    {
      provider: "bedrock",
      plannerModel: SONNET,
      roles: { planner: { temperature: 0, maxTokens: 2048 }, tool: { temperature: 0.7 } },
    },
    { bedrockClient: client },
  );

const plannerRequest = (): CompletionRequest => ({
  system: "You are the planner.",
  prompt: "Plan the evaluation.",
  model: SONNET,
  context: {
    purpose: "planner",
    request: { metadata: {}, s3_pdf_paths: ["rm-conditions/1120-signed.pdf"] },
    tools: new Map(),
    maxSteps: 8,
  },
});

const toolRequest = (): CompletionRequest => ({
  system: "You are a tool.",
  prompt: "Summarise.",
  context: { purpose: "tool" },
});

describe("Bedrock Converse on the wire", () => {
  it("posts the messages, the system prompt and the role's inferenceConfig, signed, and reads text and usage", async () => {
    server.replay(wireFixture("bedrock/converse-success"));
    const { planner } = llm();

    const completion = await planner.provider.complete(plannerRequest());

    expect(server.received).toHaveLength(1);
    const [sent] = server.received;
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe(CONVERSE_PATH(SONNET));
    expect(sent?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDWIRETEST\/\d{8}\/us-east-1\/bedrock\/aws4_request, /,
    );
    expect(sent?.body).toEqual({
      system: [{ text: "You are the planner." }],
      messages: [{ role: "user", content: [{ text: "Plan the evaluation." }] }],
      inferenceConfig: { maxTokens: 2048, temperature: 0 },
    });
    const body = wireFixture("bedrock/converse-success").body as {
      output: { message: { content: Array<{ text: string }> } };
    };
    expect(completion).toEqual({
      text: body.output.message.content.map((block) => block.text).join(""),
      model: SONNET,
      usage: { input_tokens: 1283, output_tokens: 87, source: "provider" },
      stop_reason: "end_turn",
    });
  });

  it("sends each role's own settings, and today's defaults where none is set", async () => {
    server.replay(wireFixture("bedrock/converse-success"));
    const { tool, solver } = llm();

    await tool.provider.complete({ ...toolRequest(), model: tool.model });
    await solver.provider.complete({
      system: "You are the solver.",
      prompt: "Solve.",
      model: solver.model,
      context: {
        purpose: "solver",
        request: { metadata: {}, s3_pdf_paths: [] },
        plan: { steps: [], levels: [], repairs: [] },
        evidence: [],
      },
    });

    expect(server.received.map((request) => [request.url, request.body])).toEqual([
      [
        CONVERSE_PATH(DEFAULT_BEDROCK_MODEL),
        expect.objectContaining({ inferenceConfig: { maxTokens: 4096, temperature: 0.7 } }),
      ],
      [
        CONVERSE_PATH(DEFAULT_BEDROCK_MODEL),
        expect.objectContaining({ inferenceConfig: { maxTokens: 4096, temperature: 0.3 } }),
      ],
    ]);
  });

  it("refuses a planner answer cut off at maxTokens with a named error that says what to raise", async () => {
    server.replay(wireFixture("bedrock/converse-max-tokens"));
    const { planner } = llm();

    const error = await planner.provider.complete(plannerRequest()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmOutputTruncatedError);
    expect(error).toMatchObject({
      name: "LlmOutputTruncatedError",
      stopReason: "max_tokens",
      usage: { input_tokens: 1283, output_tokens: 32, source: "provider" },
    });
    expect((error as Error).message).toBe(
      `Bedrock Converse model ${SONNET} stopped at the output token limit (maxTokens 2048, stop reason max_tokens) while answering as the planner: the cut-off answer is not used; raise REWOO_PLANNER_MAX_TOKENS or ask for a shorter answer`,
    );
    // Not a fault worth retrying: the same request is cut off again.
    expect(isTransient(error)).toBe(false);
  });

  it("hands the reviewer a cut-off answer with its stop reason: the reviewer lets the rules stand", async () => {
    server.replay(wireFixture("bedrock/converse-max-tokens"));
    const { reviewer } = llm();

    const completion = await reviewer.provider.complete({
      system: "Review.",
      prompt: "The plan.",
      model: reviewer.model,
      context: {
        purpose: "review",
        target: "plan",
        rules: { score: 8, approved: true, criteria: {}, issues: [] } as never,
      },
    });

    expect(completion.stop_reason).toBe("max_tokens");
    expect(completion.text).toHaveLength(120);
  });

  it(`retries a throttle ${BEDROCK_MAX_ATTEMPTS} times in the SDK, then surfaces ThrottlingException, which the handlers make transient`, async () => {
    server.replay(wireFixture("bedrock/converse-throttling"));
    const { tool } = llm();

    const error = await tool.provider.complete(toolRequest()).catch((e: unknown) => e);

    expect(server.received).toHaveLength(BEDROCK_MAX_ATTEMPTS);
    expect(error).toBeInstanceOf(ThrottlingException);
    expect(error).toMatchObject({
      name: "ThrottlingException",
      $metadata: { httpStatusCode: 429, attempts: BEDROCK_MAX_ATTEMPTS },
    });
    expect((error as Error).message).toBe(
      `Bedrock Converse request for model ${DEFAULT_BEDROCK_MODEL} failed with HTTP 429 ThrottlingException after ${BEDROCK_MAX_ATTEMPTS} attempts: Too many requests, please wait before trying again.`,
    );
    expect(isTransient(error)).toBe(true);
    expect(forStateMachine(error)).toMatchObject({ name: TRANSIENT_ERROR_NAME });
  });

  it("answers after a throttle the SDK retried", async () => {
    server.replay(wireFixture("bedrock/converse-throttling"), wireFixture("bedrock/converse-success"));
    const { tool } = llm();

    const completion = await tool.provider.complete(toolRequest());

    expect(server.received).toHaveLength(2);
    expect(completion.usage).toEqual({ input_tokens: 1283, output_tokens: 87, source: "provider" });
  });

  it("does not retry a ValidationException, and names the provider, the model and the status", async () => {
    server.replay(wireFixture("bedrock/converse-validation"));
    const { planner } = llm();

    const error = await planner.provider.complete(plannerRequest()).catch((e: unknown) => e);

    expect(server.received).toHaveLength(1);
    expect(error).toMatchObject({ name: "ValidationException", $metadata: { httpStatusCode: 400 } });
    expect((error as Error).message).toBe(
      `Bedrock Converse request for model ${SONNET} failed with HTTP 400 ValidationException: The provided model identifier is invalid.`,
    );
    expect(isTransient(error)).toBe(false);
  });

  it("refuses a response without a text block with a named error", async () => {
    server.replay(wireFixture("bedrock/converse-no-text"));
    const { planner } = llm();

    const error = await planner.provider.complete(plannerRequest()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmEmptyOutputError);
    expect((error as Error).message).toBe(
      `Bedrock Converse response for model ${SONNET} had no text content (stopReason: content_filtered)`,
    );
  });
});
