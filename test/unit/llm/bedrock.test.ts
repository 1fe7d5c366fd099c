import { BedrockRuntimeClient, ConverseCommand } from "@aws-sdk/client-bedrock-runtime";
import { mockClient } from "aws-sdk-client-mock";
import { allCustomMatcher } from "aws-sdk-client-mock-vitest";
import type {} from "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { BedrockProvider, DEFAULT_BEDROCK_MODEL } from "../../../lambdas/llm/bedrock.ts";

expect.extend(allCustomMatcher);

const bedrock = mockClient(BedrockRuntimeClient);
const SONNET = "anthropic.claude-3-5-sonnet-20241022-v2:0";

function provider() {
  return new BedrockProvider({ client: new BedrockRuntimeClient({ region: "us-east-1" }) });
}

describe("BedrockProvider", () => {
  beforeEach(() => bedrock.reset());

  it("sends the system prompt and the user prompt to the requested model and reports provider usage", async () => {
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: "assistant", content: [{ text: '[{"id": "E1"' }, { text: "}]" }] } },
      stopReason: "end_turn",
      usage: { inputTokens: 812, outputTokens: 96, totalTokens: 908 },
      metrics: { latencyMs: 420 },
    });

    const completion = await provider().complete({
      system: "You are the planner.",
      prompt: "Plan this loan.",
      model: SONNET,
      context: {
        purpose: "planner",
        request: { metadata: {}, s3_pdf_paths: ["a.pdf"] },
        tools: new Map(),
        maxSteps: 8,
      },
    });

    expect(bedrock).toHaveReceivedCommandWith(ConverseCommand, {
      modelId: SONNET,
      system: [{ text: "You are the planner." }],
      messages: [{ role: "user", content: [{ text: "Plan this loan." }] }],
      inferenceConfig: { maxTokens: 4096, temperature: 0.1 },
    });
    expect(completion).toEqual({
      text: '[{"id": "E1"}]',
      model: SONNET,
      usage: { input_tokens: 812, output_tokens: 96, source: "provider" },
      stop_reason: "end_turn",
    });
  });

  it("uses the default model and the solver temperature, and estimates usage from the text length when the response has none", async () => {
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: "assistant", content: [{ text: '{"summary": "ok"}' }] } },
      stopReason: "end_turn",
    });

    const completion = await provider().complete({
      system: "You are the solver.",
      prompt: "Solve it.",
      context: {
        purpose: "solver",
        request: { metadata: {}, s3_pdf_paths: ["a.pdf"] },
        plan: { steps: [], levels: [], repairs: [] },
        evidence: [],
      },
    });

    expect(bedrock).toHaveReceivedCommandWith(ConverseCommand, {
      modelId: DEFAULT_BEDROCK_MODEL,
      inferenceConfig: { maxTokens: 4096, temperature: 0.3 },
    });
    // Four characters a token, rounded up per text: "You are the solver." 19 -> 5, "Solve it." 9 -> 3.
    expect(completion.usage).toEqual({ input_tokens: 8, output_tokens: 5, source: "estimate" });
  });

  it("rejects a response without text content with the model id in the message", async () => {
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: "assistant", content: [] } },
      stopReason: "content_filtered",
    });

    await expect(
      provider().complete({ system: "s", prompt: "p", model: SONNET, context: { purpose: "tool" } }),
    ).rejects.toThrow(
      `Bedrock Converse response for model ${SONNET} had no text content (stopReason: content_filtered)`,
    );
  });

  it("lets service errors through with their names for retry policies", async () => {
    const throttled = Object.assign(new Error("Too many requests"), { name: "ThrottlingException" });
    bedrock.on(ConverseCommand).rejects(throttled);

    await expect(
      provider().complete({ system: "s", prompt: "p", context: { purpose: "tool" } }),
    ).rejects.toMatchObject({ name: "ThrottlingException" });
  });
});
