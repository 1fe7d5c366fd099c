// Amazon Bedrock through the Converse API (README: Configuration): one request shape for every model family,
// and token usage reported by the service. The client is injected so a handler builds it once per
// cold start and tests pass an aws-sdk-client-mock instance.
import { type BedrockRuntimeClient, ConverseCommand } from "@aws-sdk/client-bedrock-runtime";
import { type Completion, type CompletionRequest, DEFAULT_TEMPERATURES, type LlmProvider } from "./types.ts";
import { estimatedUsage } from "./usage.ts";

export const DEFAULT_BEDROCK_MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
/** Room for a solver answer with citations for a few dozen conditions. */
export const DEFAULT_BEDROCK_MAX_TOKENS = 4096;

export interface BedrockProviderOptions {
  client: BedrockRuntimeClient;
  /** Used when a request names no model. */
  defaultModel?: string;
  maxTokens?: number;
  /** One temperature for every purpose; by default the planner runs colder than the solver. */
  temperature?: number;
}

export class BedrockProvider implements LlmProvider {
  readonly name = "bedrock";
  private readonly client: BedrockRuntimeClient;
  private readonly defaultModel: string;
  private readonly maxTokens: number;
  private readonly temperature?: number;

  constructor(options: BedrockProviderOptions) {
    this.client = options.client;
    this.defaultModel = options.defaultModel ?? DEFAULT_BEDROCK_MODEL;
    this.maxTokens = options.maxTokens ?? DEFAULT_BEDROCK_MAX_TOKENS;
    this.temperature = options.temperature;
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const modelId = request.model ?? this.defaultModel;
    const command = new ConverseCommand({
      modelId,
      // Converse rejects empty text blocks, so an empty system prompt is left out rather than sent.
      ...(request.system ? { system: [{ text: request.system }] } : {}),
      messages: [{ role: "user", content: [{ text: request.prompt }] }],
      inferenceConfig: {
        maxTokens: this.maxTokens,
        temperature: this.temperature ?? DEFAULT_TEMPERATURES[request.context.purpose],
      },
    });
    // SDK errors (ThrottlingException, AccessDeniedException, ...) propagate unchanged: their names
    // are what retry policies and operators match on.
    const response = await this.client.send(command, { abortSignal: request.signal });
    const blocks = response.output?.message?.content ?? [];
    const texts = blocks
      .map((block) => block.text)
      .filter((text): text is string => typeof text === "string");
    if (texts.length === 0) {
      throw new Error(
        `Bedrock Converse response for model ${modelId} had no text content (stopReason: ${response.stopReason ?? "none"})`,
      );
    }
    const text = texts.join("");
    const inputTokens = response.usage?.inputTokens;
    const outputTokens = response.usage?.outputTokens;
    const usage =
      typeof inputTokens === "number" && typeof outputTokens === "number"
        ? { input_tokens: inputTokens, output_tokens: outputTokens, source: "provider" as const }
        : estimatedUsage(request.system, request.prompt, text);
    return {
      text,
      model: modelId,
      usage,
      ...(response.stopReason ? { stop_reason: response.stopReason } : {}),
    };
  }
}
