// The OpenAI-compatible chat-completions protocol over fetch (README: Configuration), so OpenAI, vLLM, Ollama
// or LM Studio all work with a base URL and an optional key, and no SDK is bundled into the Lambda.
import { scrubSensitiveText } from "../core/redaction.ts";
import { type Completion, type CompletionRequest, DEFAULT_TEMPERATURES, type LlmProvider } from "./types.ts";
import { countedUsage } from "./usage.ts";

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
/** Below the planner/solver Lambda timeouts, so a hung server surfaces as this error, not a Lambda timeout. */
export const DEFAULT_OPENAI_TIMEOUT_MS = 120_000;

export interface OpenAiProviderOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama); `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string;
  defaultModel?: string;
  timeoutMs?: number;
  /** One temperature for every purpose; by default the planner runs colder than the solver. */
  temperature?: number;
  /** Sent as `max_tokens` only when set: servers disagree on the field and its limits. */
  maxTokens?: number;
  fetch?: typeof fetch;
}

export class OpenAiHttpError extends Error {
  override name = "OpenAiHttpError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export class OpenAiCompatibleProvider implements LlmProvider {
  readonly name = "openai";
  private readonly url: string;
  private readonly apiKey?: string;
  private readonly defaultModel: string;
  private readonly timeoutMs: number;
  private readonly temperature?: number;
  private readonly maxTokens?: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: OpenAiProviderOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.apiKey = options.apiKey || undefined;
    this.defaultModel = options.defaultModel ?? DEFAULT_OPENAI_MODEL;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
    this.temperature = options.temperature;
    this.maxTokens = options.maxTokens;
    // Resolved per call when not injected, so a test (or polyfill) replacing globalThis.fetch is honoured.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const model = request.model ?? this.defaultModel;
    const messages = [
      ...(request.system ? [{ role: "system", content: request.system }] : []),
      { role: "user", content: request.prompt },
    ];
    const body = {
      model,
      messages,
      temperature: this.temperature ?? DEFAULT_TEMPERATURES[request.context.purpose],
      ...(this.maxTokens ? { max_tokens: this.maxTokens } : {}),
    };
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;

    let response: Response;
    let raw: string;
    try {
      response = await this.fetchImpl(this.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal,
      });
      raw = await response.text();
    } catch (error) {
      if (timeout.aborted && !request.signal?.aborted) {
        throw new Error(
          `OpenAI-compatible request to ${this.url} timed out after ${this.timeoutMs} ms (model ${model})`,
        );
      }
      if (request.signal?.aborted) throw error;
      throw new Error(`OpenAI-compatible request to ${this.url} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }

    if (!response.ok) {
      throw new OpenAiHttpError(
        `OpenAI-compatible request to ${this.url} failed with HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""} (model ${model}): ${errorMessage(raw)}`,
        response.status,
      );
    }

    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch {
      throw new Error(
        `OpenAI-compatible response from ${this.url} was not JSON (model ${model}): ${preview(raw)}`,
      );
    }
    const choice = (
      payload as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }> }
    )?.choices?.[0];
    const text = contentText(choice?.message?.content);
    if (text === undefined) {
      throw new Error(
        `OpenAI-compatible response from ${this.url} for model ${model} had no choices[0].message.content: ${preview(raw)}`,
      );
    }
    const reported = (payload as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } }).usage;
    const usage =
      typeof reported?.prompt_tokens === "number" && typeof reported.completion_tokens === "number"
        ? {
            input_tokens: reported.prompt_tokens,
            output_tokens: reported.completion_tokens,
            source: "provider" as const,
          }
        : await countedUsage(request.system, request.prompt, text);
    const servedModel = (payload as { model?: unknown }).model;
    return {
      text,
      // The server's name is more precise (e.g. a dated snapshot) than the alias we asked for.
      model: typeof servedModel === "string" && servedModel ? servedModel : model,
      usage,
      ...(typeof choice?.finish_reason === "string" ? { stop_reason: choice.finish_reason } : {}),
    };
  }
}

/** A string, or the text parts of a content array (some servers answer in parts). */
function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content
    .map((part) => (part && typeof part === "object" ? (part as { text?: unknown }).text : undefined))
    .filter((text): text is string => typeof text === "string");
  return parts.length ? parts.join("") : undefined;
}

/** OpenAI puts it in `error.message`; vLLM/Ollama/proxies use `error`, `message` or `detail`. */
function errorMessage(raw: string): string {
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const error = body.error;
    if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
      return (error as { message: string }).message;
    }
    for (const value of [error, body.message, body.detail]) {
      if (typeof value === "string" && value) return value;
    }
  } catch {
    // Not JSON: show the body itself.
  }
  return preview(raw) || "(empty body)";
}

/** Scrubbed: a provider's body may echo the prompt, which quotes the borrower's documents. */
function preview(raw: string): string {
  return scrubSensitiveText(raw.trim(), { maxLength: 300 });
}
