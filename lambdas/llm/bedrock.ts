// Amazon Bedrock through the Converse API (README: Configuration): one request shape for every model family,
// and token usage reported by the service. The client is injected so a handler builds it once per
// cold start and tests pass an aws-sdk-client-mock instance.
import {
  type BedrockRuntimeClient,
  type BedrockRuntimeClientConfig,
  ConverseCommand,
  type ConverseCommandOutput,
} from "@aws-sdk/client-bedrock-runtime";
import {
  checkedCompletion,
  GUARDRAIL_INTERVENED,
  type GuardrailSettings,
  LlmEmptyOutputError,
  LlmGuardrailInterventionError,
  ROLE_OF_PURPOSE,
} from "./outcome.ts";
import {
  type Completion,
  type CompletionRequest,
  DEFAULT_TEMPERATURES,
  isCutOff,
  type LlmProvider,
} from "./types.ts";
import { estimatedUsage } from "./usage.ts";

export const DEFAULT_BEDROCK_MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
/** Room for a solver answer with citations for a few dozen conditions. */
export const DEFAULT_BEDROCK_MAX_TOKENS = 4096;
/**
 * Attempts per Converse call, the SDK's standard retry mode (throttling and 5xx, with jittered
 * backoff). After that a throttle surfaces as ThrottlingException, which the handlers turn into
 * Rewoo.TransientError for the state machine's longer Retry (lambdas/runtime/transient.ts).
 */
export const BEDROCK_MAX_ATTEMPTS = 3;

/** How every Bedrock Runtime client of the functions is built (lambdas/llm/index.ts); tests add an endpoint. */
export function bedrockClientConfig(region?: string): BedrockRuntimeClientConfig {
  return { ...(region ? { region } : {}), maxAttempts: BEDROCK_MAX_ATTEMPTS, retryMode: "standard" };
}

export interface BedrockProviderOptions {
  client: BedrockRuntimeClient;
  /** Used when a request names no model. */
  defaultModel?: string;
  maxTokens?: number;
  /** One temperature for every purpose this provider serves; by default DEFAULT_TEMPERATURES per purpose. */
  temperature?: number;
  /** Applied to every call (Converse's guardrailConfig); an intervention is an error, never an answer. */
  guardrail?: GuardrailSettings;
  /**
   * Tried in order after the request's model when it is throttled, unavailable or unknown
   * (isModelUnavailable), each after the SDK's own retries: at most BEDROCK_MAX_ATTEMPTS calls per model.
   */
  fallbackModels?: readonly string[];
}

/**
 * Bedrock errors that say this model cannot answer now (throttled, not ready, the service busy) or
 * at all here (an unknown or retired model id, one without on-demand throughput, one the account has
 * no access to): another model may. Anything else (a bad request, a guardrail, an abort) would fail
 * the same way on every model.
 */
export function isModelUnavailable(error: unknown): boolean {
  const failure = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  if (!(error instanceof Error) || failure.$metadata === undefined) return false;
  switch (failure.name) {
    case "ThrottlingException":
    case "ServiceUnavailableException":
    case "ModelNotReadyException":
    case "ResourceNotFoundException":
      return true;
    case "ValidationException":
      return /model identifier is invalid|end of (its )?life|on-demand throughput isn.t supported|model is not supported/i.test(
        failure.message ?? "",
      );
    case "AccessDeniedException":
      return /access to the model/i.test(failure.message ?? "");
    default:
      return failure.$metadata.httpStatusCode === 429 || failure.$metadata.httpStatusCode === 503;
  }
}

export class BedrockProvider implements LlmProvider {
  readonly name = "bedrock";
  private readonly client: BedrockRuntimeClient;
  private readonly defaultModel: string;
  private readonly maxTokens: number;
  private readonly temperature?: number;
  private readonly guardrail?: GuardrailSettings;
  private readonly fallbackModels: readonly string[];

  constructor(options: BedrockProviderOptions) {
    this.client = options.client;
    this.defaultModel = options.defaultModel ?? DEFAULT_BEDROCK_MODEL;
    this.maxTokens = options.maxTokens ?? DEFAULT_BEDROCK_MAX_TOKENS;
    this.temperature = options.temperature;
    if (options.guardrail) this.guardrail = options.guardrail;
    this.fallbackModels = options.fallbackModels ?? [];
  }

  /**
   * The request's model, then each fallback model while the one before it is unavailable. The
   * completion names the model that answered and the ones passed over (`fallbacks`); when none can
   * answer, the last one's error, naming every model tried.
   */
  async complete(request: CompletionRequest): Promise<Completion> {
    const models = [...new Set([request.model ?? this.defaultModel, ...this.fallbackModels])];
    const passedOver: NonNullable<Completion["fallbacks"]> = [];
    for (const [index, modelId] of models.entries()) {
      try {
        const completion = await this.completeWith(modelId, request);
        return passedOver.length ? { ...completion, fallbacks: passedOver } : completion;
      } catch (error) {
        const last = index === models.length - 1;
        if (last || request.signal?.aborted || !isModelUnavailable(error)) {
          if (passedOver.length && error instanceof Error) {
            error.message += ` (${modelId} was asked because ${passedOver.map((entry) => entry.model).join(", ")} could not answer)`;
          }
          throw error;
        }
        passedOver.push({ model: modelId, error: `${(error as Error).name}: ${(error as Error).message}` });
      }
    }
    throw new Error("unreachable: the model list is never empty");
  }

  private async completeWith(modelId: string, request: CompletionRequest): Promise<Completion> {
    const command = new ConverseCommand({
      modelId,
      // Converse rejects empty text blocks, so an empty system prompt is left out rather than sent.
      ...(request.system ? { system: [{ text: request.system }] } : {}),
      messages: [{ role: "user", content: [{ text: request.prompt }] }],
      inferenceConfig: {
        maxTokens: this.maxTokens,
        temperature: this.temperature ?? DEFAULT_TEMPERATURES[request.context.purpose],
      },
      ...(this.guardrail
        ? {
            guardrailConfig: {
              guardrailIdentifier: this.guardrail.id,
              guardrailVersion: this.guardrail.version,
            },
          }
        : {}),
    });
    let response: ConverseCommandOutput;
    try {
      response = await this.client.send(command, { abortSignal: request.signal });
    } catch (error) {
      throw withProviderContext(error, modelId);
    }
    const blocks = response.output?.message?.content ?? [];
    const texts = blocks
      .map((block) => block.text)
      .filter((text): text is string => typeof text === "string");
    const text = texts.join("");
    const inputTokens = response.usage?.inputTokens;
    const outputTokens = response.usage?.outputTokens;
    const usage =
      typeof inputTokens === "number" && typeof outputTokens === "number"
        ? { input_tokens: inputTokens, output_tokens: outputTokens, source: "provider" as const }
        : estimatedUsage(request.system, request.prompt, text);
    if (response.stopReason === GUARDRAIL_INTERVENED) {
      const role = ROLE_OF_PURPOSE[request.context.purpose];
      throw new LlmGuardrailInterventionError(
        `Bedrock guardrail ${this.guardrail ? `${this.guardrail.id} (version ${this.guardrail.version})` : "(none configured)"} intervened in the ${role}'s call to model ${modelId}: ` +
          "what came back is the guardrail's message, not the model's answer, and is not used",
        this.guardrail,
        modelId,
        usage,
      );
    }
    if (texts.length === 0 && request.context.purpose !== "review") {
      // Content without a text block (a tool call, reasoning only, nothing): no answer to read.
      throw new LlmEmptyOutputError(
        `Bedrock Converse response for model ${modelId} had no text content (stopReason: ${response.stopReason ?? "none"})`,
        usage,
      );
    }
    return checkedCompletion(
      {
        text,
        model: modelId,
        usage,
        ...(response.stopReason ? { stop_reason: response.stopReason } : {}),
      },
      {
        provider: "Bedrock Converse",
        purpose: request.context.purpose,
        maxTokens: this.maxTokens,
        truncated: isCutOff(response.stopReason),
      },
    );
  }
}

/**
 * A service error (ThrottlingException, ValidationException, AccessDeniedException, ...) with the
 * provider, the model, the HTTP status and the attempts made in its message. The error itself is
 * kept, with its name, class and $metadata: retry policies and operators match on those
 * (lambdas/runtime/transient.ts). Anything else (an abort) passes unchanged.
 */
function withProviderContext(error: unknown, modelId: string): unknown {
  const failure = error as {
    name?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number; attempts?: number };
  };
  if (!(error instanceof Error) || failure.$metadata === undefined) return error;
  const { httpStatusCode: status, attempts } = failure.$metadata;
  const after = attempts && attempts > 1 ? ` after ${attempts} attempts` : "";
  error.message = `Bedrock Converse request for model ${modelId} failed with ${status ? `HTTP ${status} ` : ""}${error.name}${after}: ${error.message}`;
  return error;
}
