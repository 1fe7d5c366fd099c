// The OpenAI-compatible chat-completions protocol over fetch (README: Configuration), so OpenAI, vLLM, Ollama
// or LM Studio all work with a base URL and an optional key, and no SDK is bundled into the Lambda.

import { abortableSleep } from "../core/abortable-sleep.ts";
import { scrubSensitiveText } from "../core/redaction.ts";
import { checkedCompletion, LlmEmptyOutputError } from "./outcome.ts";
import {
  type Completion,
  type CompletionRequest,
  DEFAULT_TEMPERATURES,
  isCutOff,
  type LlmProvider,
} from "./types.ts";
import { countedUsage } from "./usage.ts";

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
/** Below the planner/solver Lambda timeouts, so a hung server surfaces as this error, not a Lambda timeout. */
export const DEFAULT_OPENAI_TIMEOUT_MS = 120_000;
/** Attempts per call for a rate limit, a 5xx or a dropped connection: the same as Bedrock's SDK client. */
export const DEFAULT_OPENAI_MAX_ATTEMPTS = 3;
/**
 * The longest wait between attempts. A server asking for more (`retry-after: 60`) is not waited for
 * inside the Lambda: the error goes to the state machine's Retry, which waits without paying for it.
 */
export const DEFAULT_OPENAI_MAX_RETRY_DELAY_MS = 20_000;
/** The first backoff without a retry-after header; doubled per attempt, with full jitter. */
const BASE_RETRY_DELAY_MS = 500;

/** Statuses worth another attempt: rate limits, timeouts, conflicts under load, server errors. */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export interface OpenAiProviderOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama); `/chat/completions` is appended. */
  baseUrl: string;
  /**
   * The bearer key, or how to get it for each call (in AWS: from Secrets Manager, cached with a max
   * age, lambdas/llm/openai-key.ts). Absent: no authorization header (a local server).
   */
  apiKey?: string | (() => Promise<string>);
  defaultModel?: string;
  timeoutMs?: number;
  /** One temperature for every purpose this provider serves; by default DEFAULT_TEMPERATURES per purpose. */
  temperature?: number;
  /** Sent as `max_tokens` only when set: servers disagree on the field's default and limits. */
  maxTokens?: number;
  maxAttempts?: number;
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
  /** How a wait between attempts is spent; tests record the delays instead of waiting them out. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * An HTTP error answer. One that is worth trying again later (429, 5xx) carries the AWS SDK's error
 * conventions, `$metadata.httpStatusCode` and `$retryable`, so the handlers' transient-fault check
 * (lambdas/runtime/transient.ts) sends it to the state machine's Retry like a Bedrock throttle.
 */
export class OpenAiHttpError extends Error {
  override name = "OpenAiHttpError";
  readonly $metadata: { httpStatusCode: number; attempts: number };
  readonly $retryable?: { throttling: boolean };
  constructor(
    message: string,
    readonly status: number,
    attempts = 1,
    /** The server's error code (`rate_limit_exceeded`, `invalid_api_key`), when its body has one. */
    readonly code?: string,
  ) {
    super(message);
    this.$metadata = { httpStatusCode: status, attempts };
    if (retryableStatus(status)) this.$retryable = { throttling: status === 429 };
  }
}

export class OpenAiCompatibleProvider implements LlmProvider {
  readonly name = "openai";
  private readonly url: string;
  private readonly apiKey?: string | (() => Promise<string>);
  private readonly defaultModel: string;
  private readonly timeoutMs: number;
  private readonly temperature?: number;
  private readonly maxTokens?: number;
  private readonly maxAttempts: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: OpenAiProviderOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.apiKey = options.apiKey || undefined;
    this.defaultModel = options.defaultModel ?? DEFAULT_OPENAI_MODEL;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
    this.temperature = options.temperature;
    this.maxTokens = options.maxTokens;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_OPENAI_MAX_ATTEMPTS);
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? DEFAULT_OPENAI_MAX_RETRY_DELAY_MS;
    // Resolved per call when not injected, so a test (or polyfill) replacing globalThis.fetch is honoured.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    // The backoff ends early when the call is aborted, and the abort is what the caller hears.
    this.sleep =
      options.sleep ??
      (async (ms, signal) => {
        signal?.throwIfAborted();
        await abortableSleep(ms, signal);
        signal?.throwIfAborted();
      });
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const model = request.model ?? this.defaultModel;
    const messages = [
      ...(request.system ? [{ role: "system", content: request.system }] : []),
      { role: "user", content: request.prompt },
    ];
    const body = JSON.stringify({
      model,
      messages,
      temperature: this.temperature ?? DEFAULT_TEMPERATURES[request.context.purpose],
      ...(this.maxTokens ? { max_tokens: this.maxTokens } : {}),
    });
    const apiKey = typeof this.apiKey === "function" ? await this.apiKey() : this.apiKey;
    const headers = {
      "content-type": "application/json",
      accept: "application/json",
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    };
    // One deadline for all attempts: the Lambda's timeout bounds the call as a whole.
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;

    for (let attempt = 1; ; attempt++) {
      let response: Response;
      let raw: string;
      try {
        response = await this.fetchImpl(this.url, { method: "POST", headers, body, signal });
        raw = await response.text();
      } catch (error) {
        if (timeout.aborted && !request.signal?.aborted) {
          throw Object.assign(
            new Error(
              `OpenAI-compatible request to ${this.url} timed out after ${this.timeoutMs} ms (model ${model})`,
            ),
            // The name transient-fault checks know (the DOMException AbortSignal.timeout raises has it too).
            { name: "TimeoutError" },
          );
        }
        if (request.signal?.aborted) throw error;
        // A refused or dropped connection: the cause's code (ECONNRESET, ...) marks it transient.
        const code = (error as { cause?: { code?: unknown } }).cause?.code;
        const reason = `${(error as Error).message}${typeof code === "string" ? ` (${code})` : ""}`;
        if (attempt < this.maxAttempts) {
          await this.sleep(backoff(attempt), signal);
          continue;
        }
        throw new Error(
          `OpenAI-compatible request to ${this.url} failed: ${reason}${attempt > 1 ? ` after ${attempt} attempts` : ""}`,
          { cause: error },
        );
      }

      if (!response.ok) {
        const wait = retryableStatus(response.status) ? retryDelay(response.headers, attempt) : undefined;
        if (wait !== undefined && wait <= this.maxRetryDelayMs && attempt < this.maxAttempts) {
          await this.sleep(wait, signal);
          continue;
        }
        const { message, code } = errorDetails(raw);
        const after = attempt > 1 ? ` after ${attempt} attempts` : "";
        throw new OpenAiHttpError(
          `OpenAI-compatible request to ${this.url} failed with HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${after} (model ${model}): ${message}`,
          response.status,
          attempt,
          code,
        );
      }
      return this.completion(raw, request, model);
    }
  }

  private async completion(raw: string, request: CompletionRequest, model: string): Promise<Completion> {
    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch {
      throw new Error(
        `OpenAI-compatible response from ${this.url} was not JSON (model ${model}): ${preview(raw)}`,
      );
    }
    const choice = (
      payload as {
        choices?: Array<{ message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }>;
      }
    )?.choices?.[0];
    if (!choice?.message) {
      throw new Error(
        `OpenAI-compatible response from ${this.url} for model ${model} had no choices[0].message.content: ${preview(raw)}`,
      );
    }
    const finishReason = typeof choice.finish_reason === "string" ? choice.finish_reason : undefined;
    // `content: null` is how the API answers a refusal (its text in `refusal`) or a tool call.
    const text = contentText(choice.message.content) ?? "";
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
    // The server's name is more precise (e.g. a dated snapshot) than the alias we asked for.
    const served = typeof servedModel === "string" && servedModel ? servedModel : model;
    const refusal = choice.message.refusal;
    if (
      typeof refusal === "string" &&
      refusal &&
      text.trim() === "" &&
      request.context.purpose !== "review"
    ) {
      throw new LlmEmptyOutputError(
        `OpenAI-compatible model ${served} refused to answer (finish_reason ${finishReason ?? "none"}): ${preview(refusal)}`,
        usage,
      );
    }
    return checkedCompletion(
      { text, model: served, usage, ...(finishReason ? { stop_reason: finishReason } : {}) },
      {
        provider: "OpenAI-compatible",
        purpose: request.context.purpose,
        maxTokens: this.maxTokens,
        truncated: isCutOff(finishReason),
      },
    );
  }
}

/**
 * How long the server asked us to wait (`retry-after-ms`, then `retry-after` in seconds or as an
 * HTTP date), else exponential backoff with full jitter.
 */
function retryDelay(headers: Headers, attempt: number): number {
  const ms = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers.get("retry-after");
  if (after !== null) {
    const seconds = Number(after);
    if (after.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return backoff(attempt);
}

function backoff(attempt: number): number {
  return Math.floor(Math.random() * BASE_RETRY_DELAY_MS * 2 ** (attempt - 1));
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

/** OpenAI puts it in `error.message` (and `error.code`); vLLM/Ollama/proxies use `error`, `message` or `detail`. */
function errorDetails(raw: string): { message: string; code?: string } {
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const error = body.error;
    if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
      const { message, code } = error as { message: string; code?: unknown };
      return { message: preview(message), ...(typeof code === "string" ? { code } : {}) };
    }
    for (const value of [error, body.message, body.detail]) {
      if (typeof value === "string" && value) return { message: preview(value) };
    }
  } catch {
    // Not JSON: show the body itself.
  }
  return { message: preview(raw) || "(empty body)" };
}

/** Scrubbed: a provider's body may echo the prompt, which quotes the borrower's documents. */
function preview(raw: string): string {
  return scrubSensitiveText(raw.trim(), { maxLength: 300 });
}
