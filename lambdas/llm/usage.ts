// Token accounting: provider counts when the backend reports them, otherwise a local count, so
// every run has comparable numbers offline too. Nothing here imports the tokenizer: it is loaded on
// demand (countedUsage), and only the providers that count for themselves ask for it.
import type { Usage } from "../core/types.ts";
import type { Completion, CompletionRequest, CompletionUsage, LlmProvider } from "./types.ts";

/**
 * A local count with the tokenizer (lambdas/llm/tokenizer.ts), loaded on first use. A dynamic
 * import: a deployed bundle whose provider reports usage leaves this function, and with it the
 * ~2.7 MiB of token ranks, out (esbuild drops an `import()` it never reaches).
 */
export async function countedUsage(system: string, prompt: string, output: string): Promise<CompletionUsage> {
  const { tokenizerUsage } = await import("./tokenizer.ts");
  return tokenizerUsage(system, prompt, output);
}

/** Characters per token assumed by estimatedUsage: English prose and JSON run at about four. */
export const ESTIMATE_CHARS_PER_TOKEN = 4;

/**
 * An estimate from the text's length, for a provider whose API always reports usage (Bedrock's
 * Converse API documents it as required) in the unexpected case that a response omits it: the run's
 * usage and its budget still see the call, marked `source: "estimate"`, without a tokenizer in the
 * function for a branch the service never takes.
 */
export function estimatedUsage(system: string, prompt: string, output: string): CompletionUsage {
  const tokens = (text: string) => Math.ceil(text.length / ESTIMATE_CHARS_PER_TOKEN);
  return { input_tokens: tokens(system) + tokens(prompt), output_tokens: tokens(output), source: "estimate" };
}

export function emptyUsage(): Usage {
  return { llm_calls: 0, input_tokens: 0, output_tokens: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const models = [...new Set([...(a.models ?? []), ...(b.models ?? [])])].sort();
  return {
    llm_calls: a.llm_calls + b.llm_calls,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    ...(models.length ? { models } : {}),
  };
}

/** One completion as a run-usage increment. */
export function usageOf(completion: Pick<Completion, "usage">): Usage {
  return {
    llm_calls: 1,
    input_tokens: completion.usage.input_tokens,
    output_tokens: completion.usage.output_tokens,
  };
}

/** Adds one call's usage, with the model that answered it, to the run (the store's addUsage, or a tool's recordLlmUsage). */
export type CountUsage = (usage: Usage) => Promise<void>;

/**
 * The usage a provider's error reports for a call that was made, if it reports one, with the model
 * the error names (a guardrail's) or else the one the call asked for.
 */
function usageOfFailedCall(error: unknown, asked: string | undefined): Usage | undefined {
  const failure = error as {
    usage?: { input_tokens?: unknown; output_tokens?: unknown };
    model?: unknown;
  } | null;
  const usage = failure?.usage;
  if (typeof usage?.input_tokens !== "number" || typeof usage.output_tokens !== "number") return undefined;
  const model = typeof failure?.model === "string" ? failure.model : asked;
  return {
    llm_calls: 1,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    ...(model ? { models: [model] } : {}),
  };
}

/**
 * One model call of a run, counted whatever becomes of it. An answer the provider refuses to hand
 * over (cut off at the token limit, empty, or replaced by a guardrail's message) was still paid for:
 * its error carries the call's usage, which is counted before the error goes on to fail the step,
 * so the run's usage and cost see every call.
 */
export async function countedCompletion(
  provider: LlmProvider,
  request: CompletionRequest,
  count: CountUsage,
): Promise<Completion> {
  let completion: Completion;
  try {
    completion = await provider.complete(request);
  } catch (error) {
    const usage = usageOfFailedCall(error, request.model);
    if (usage) await count(usage);
    throw error;
  }
  await count({
    llm_calls: 1,
    input_tokens: completion.usage.input_tokens,
    output_tokens: completion.usage.output_tokens,
    models: [completion.model],
  });
  return completion;
}
