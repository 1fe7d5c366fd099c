// Token accounting (DESIGN.md §5): provider counts when the backend reports them, otherwise a
// local count, so every run has comparable numbers offline too.
import { countTokens as countWithEncoding } from "gpt-tokenizer/encoding/o200k_base";
import type { Usage } from "../core/types.ts";
import type { Completion, CompletionUsage } from "./types.ts";

/**
 * GPT-4o's encoding. Claude and open models tokenize differently, so tokenizer counts are an
 * estimate (typically within ~10-20% for English prose and JSON); provider counts replace them
 * whenever the backend reports usage.
 */
export const TOKENIZER_ENCODING = "o200k_base";

// Documents and model output may literally contain "<|endoftext|>"; count it as text instead of
// letting gpt-tokenizer throw on a special token.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  return text ? countWithEncoding(text, PLAIN_TEXT) : 0;
}

export function tokenizerUsage(system: string, prompt: string, output: string): CompletionUsage {
  return {
    input_tokens: countTokens(system) + countTokens(prompt),
    output_tokens: countTokens(output),
    source: "tokenizer",
  };
}

export function emptyUsage(): Usage {
  return { llm_calls: 0, input_tokens: 0, output_tokens: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    llm_calls: a.llm_calls + b.llm_calls,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
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
