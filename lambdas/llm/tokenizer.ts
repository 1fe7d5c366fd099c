// Local token counts for the providers that report none (rule-based, scripted, an OpenAI-compatible
// server without `usage`), so every run has comparable numbers offline too. The o200k_base ranks are
// ~2.7 MiB of minified code: lambdas/llm/usage.ts loads this module on demand (countedUsage), so a
// function whose provider reports usage never carries it.
import { countTokens as countWithEncoding } from "gpt-tokenizer/encoding/o200k_base";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import type { CompletionUsage } from "./types.ts";

/**
 * GPT-4o's encoding. Claude and open models tokenize differently, so tokenizer counts are an
 * estimate (typically within ~10-20% for English prose and JSON); provider counts replace them
 * whenever the backend reports usage.
 */
export const TOKENIZER_ENCODING = "o200k_base";

// Documents and model output may literally contain "<|endoftext|>"; count it as text instead of
// letting gpt-tokenizer throw on a special token.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * gpt-tokenizer's byte-pair merge is quadratic in the length of one pre-token (a run the split
 * regex does not break: 100 KB of one letter took 24 s, 250 KB 140 s). Pre-tokens longer than
 * this are counted in slices of this length: a few tokens off at each cut, in linear time.
 */
export const MAX_PRETOKEN_CHARS = 256;
/** Text goes to the tokenizer in chunks of whole pre-tokens up to this size. */
const CHUNK_CHARS = 2_000;
/** Beyond this much text the count is extrapolated from this much: a cost bound per call. */
export const MAX_TOKENIZED_CHARS = 1024 * 1024;

/**
 * Chunks end on the tokenizer's own pre-token boundaries (never after white space), and
 * byte-pair merges never cross a pre-token, so the sum over chunks equals the count of the whole
 * text; only pre-tokens above MAX_PRETOKEN_CHARS (never prose) and text beyond
 * MAX_TOKENIZED_CHARS are estimated.
 */
export function countTokens(text: string): number {
  if (!text) return 0;
  const counted =
    text.length > MAX_TOKENIZED_CHARS ? text.slice(0, cutBefore(text, MAX_TOKENIZED_CHARS)) : text;
  let total = 0;
  let chunkStart = 0;
  for (const match of counted.matchAll(O200K_TOKEN_SPLIT_REGEX)) {
    const start = match.index;
    const pretoken = match[0];
    if (pretoken.length > MAX_PRETOKEN_CHARS) {
      total += countChunk(counted.slice(chunkStart, start)) + countLongPretoken(pretoken);
      chunkStart = start + pretoken.length;
    } else if (start + pretoken.length - chunkStart > CHUNK_CHARS && endsCleanly(counted, start)) {
      total += countChunk(counted.slice(chunkStart, start));
      chunkStart = start;
    }
  }
  total += countChunk(counted.slice(chunkStart));
  return counted.length === text.length ? total : Math.round((total * text.length) / counted.length);
}

/**
 * Whether a chunk may end before `index`. Not after white space: the split regex decides where a
 * run of blanks ends by looking at the next character (`\s+(?!\S)`), which a chunk cannot see.
 */
function endsCleanly(text: string, index: number): boolean {
  return !/\s/u.test(text[index - 1] ?? " ");
}

function countChunk(chunk: string): number {
  return chunk ? countWithEncoding(chunk, PLAIN_TEXT) : 0;
}

function countLongPretoken(pretoken: string): number {
  let total = 0;
  for (let start = 0; start < pretoken.length; ) {
    const end = cutBefore(pretoken, start + MAX_PRETOKEN_CHARS);
    total += countChunk(pretoken.slice(start, end));
    start = end;
  }
  return total;
}

/** `index`, or one less when that would split a surrogate pair (an astral character). */
function cutBefore(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff && index > 0 ? index - 1 : index;
}

export function tokenizerUsage(system: string, prompt: string, output: string): CompletionUsage {
  return {
    input_tokens: countTokens(system) + countTokens(prompt),
    output_tokens: countTokens(output),
    source: "tokenizer",
  };
}
