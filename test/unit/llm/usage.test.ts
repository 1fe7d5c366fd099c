import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens as countWholeText } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import {
  countTokens,
  MAX_PRETOKEN_CHARS,
  MAX_TOKENIZED_CHARS,
  TOKENIZER_ENCODING,
  tokenizerUsage,
} from "../../../lambdas/llm/tokenizer.ts";
import { addUsage, countedUsage, emptyUsage, estimatedUsage, usageOf } from "../../../lambdas/llm/usage.ts";

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Real texts of this project: the paper's plans (prose) and the providers' recorded answers (JSON). */
function sampleTexts(): Array<[string, string]> {
  const dirs = ["test/fixtures/rewoo-plans", "bench/scripted"];
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => /\.(txt|json)$/.test(name))
      .map((name): [string, string] => [`${dir}/${name}`, readFileSync(join(dir, name), "utf8")]),
  );
}

describe("usage", () => {
  it("counts tokens with o200k_base, treating special-token text as plain text", () => {
    expect(TOKENIZER_ENCODING).toBe("o200k_base");
    expect(countTokens("")).toBe(0);
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens("a <|endoftext|> b")).toBeGreaterThan(3);
  });

  it("counts every sample exactly as the tokenizer counts the whole text", () => {
    const samples = sampleTexts();
    expect(samples.length).toBeGreaterThan(10);
    for (const [name, text] of samples) {
      expect(countTokens(text), name).toBe(countWholeText(text, PLAIN_TEXT));
    }
    // All of them at once: many chunks, still the same count.
    const all = samples.map(([, text]) => text).join("\n\n");
    expect(all.length).toBeGreaterThan(100_000);
    expect(countTokens(all)).toBe(countWholeText(all, PLAIN_TEXT));
  });

  it("counts 250 KB of one character (one giant pre-token) close to its true count", () => {
    // 8,000 characters are still quick for the tokenizer: its count per character is the reference.
    const perChar = countWholeText("a".repeat(8_000), PLAIN_TEXT) / 8_000;
    const count = countTokens("a".repeat(250_000));
    expect(count).toBeGreaterThan(0);
    expect(Math.abs(count - perChar * 250_000)).toBeLessThanOrEqual(0.01 * perChar * 250_000);
    // A run of spaces and a run of punctuation are single pre-tokens too.
    expect(countTokens(" ".repeat(250_000))).toBeGreaterThan(250_000 / (4 * MAX_PRETOKEN_CHARS));
    expect(countTokens(".".repeat(250_000))).toBeGreaterThan(250_000 / (4 * MAX_PRETOKEN_CHARS));
  });

  it("never splits an astral character when it slices a long pre-token", () => {
    const emoji = "\u{1F600}".repeat(MAX_PRETOKEN_CHARS); // 2 UTF-16 units each: cuts land mid-pair
    expect(countTokens(emoji)).toBe(
      countWholeText("\u{1F600}".repeat(MAX_PRETOKEN_CHARS / 2), PLAIN_TEXT) * 2,
    );
  });

  it("extrapolates beyond the tokenized cap instead of counting megabytes", () => {
    const sentence = "The borrower signed Form 1120 on 2024-03-15; deposits are listed below. ";
    const text = sentence.repeat(Math.ceil((3 * MAX_TOKENIZED_CHARS) / sentence.length));
    const sample = sentence.repeat(100);
    const expected = (countWholeText(sample, PLAIN_TEXT) * text.length) / sample.length;
    expect(Math.abs(countTokens(text) - expected)).toBeLessThanOrEqual(0.01 * expected);
  });

  it("counts on demand with the tokenizer, exactly as the tokenizer counts", async () => {
    const system = "You are the planner.";
    const prompt = "Plan the evaluation of a signed 1120 return <|endoftext|> and two statements.";
    const output = '[{"id":"E1","tool":"call_preconditions_api","args":{}}]';

    expect(await countedUsage(system, prompt, output)).toEqual(tokenizerUsage(system, prompt, output));
    expect((await countedUsage(system, prompt, output)).source).toBe("tokenizer");
  });

  it("estimates four characters a token, rounded up per text, and says it is an estimate", () => {
    expect(estimatedUsage("abcde", "", "abcdefgh")).toEqual({
      input_tokens: 2,
      output_tokens: 2,
      source: "estimate",
    });
    expect(estimatedUsage("", "", "")).toEqual({ input_tokens: 0, output_tokens: 0, source: "estimate" });
  });

  it("adds completions into a run's usage", () => {
    const first = usageOf({ usage: { input_tokens: 1200, output_tokens: 150, source: "provider" } });
    const second = usageOf({ usage: { input_tokens: 3000, output_tokens: 400, source: "tokenizer" } });

    expect(addUsage(addUsage(emptyUsage(), first), second)).toEqual({
      llm_calls: 2,
      input_tokens: 4200,
      output_tokens: 550,
    });
  });
});
