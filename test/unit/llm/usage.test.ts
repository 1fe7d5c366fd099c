import { describe, expect, it } from "vitest";
import {
  addUsage,
  countTokens,
  emptyUsage,
  TOKENIZER_ENCODING,
  usageOf,
} from "../../../lambdas/llm/usage.ts";

describe("usage", () => {
  it("counts tokens with o200k_base, treating special-token text as plain text", () => {
    expect(TOKENIZER_ENCODING).toBe("o200k_base");
    expect(countTokens("")).toBe(0);
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens("a <|endoftext|> b")).toBeGreaterThan(3);
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
