import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RECEIVED_PROMPTS_KEPT, ScriptedProvider } from "../../../lambdas/llm/scripted.ts";
import { countTokens } from "../../../lambdas/llm/tokenizer.ts";
import type { CompletionRequest } from "../../../lambdas/llm/types.ts";

const plannerContext: CompletionRequest["context"] = {
  purpose: "planner",
  request: { metadata: {}, s3_pdf_paths: ["a.pdf"] },
  tools: new Map(),
  maxSteps: 8,
};
const solverContext: CompletionRequest["context"] = {
  purpose: "solver",
  request: { metadata: {}, s3_pdf_paths: ["a.pdf"] },
  plan: { steps: [], levels: [], repairs: [] },
  evidence: [],
};

function writeJson(value: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "rewoo-scripted-")), "responses.json");
  writeFileSync(path, JSON.stringify(value));
  return path;
}

describe("ScriptedProvider", () => {
  const provider = new ScriptedProvider([
    {
      purpose: "planner",
      match: "similar loans",
      text: "PLAN WITH HISTORY",
      usage: { input_tokens: 10, output_tokens: 2 },
    },
    { purpose: "planner", text: "PLAN" },
    { purpose: "solver", text: '{"summary": "scripted"}' },
  ]);

  it("answers with the first entry whose purpose and prompt substring fit", async () => {
    const withHistory = await provider.complete({
      system: "",
      prompt: "Instructions: compare with similar loans",
      context: plannerContext,
    });
    const plain = await provider.complete({
      system: "sys",
      prompt: "Instructions: evaluate",
      context: plannerContext,
    });
    const solved = await provider.complete({ system: "", prompt: "similar loans", context: solverContext });

    expect(withHistory).toEqual({
      text: "PLAN WITH HISTORY",
      model: "scripted",
      usage: { input_tokens: 10, output_tokens: 2, source: "provider" },
    });
    expect(plain.text).toBe("PLAN");
    expect(plain.usage).toEqual({
      input_tokens: countTokens("sys") + countTokens("Instructions: evaluate"),
      output_tokens: countTokens("PLAN"),
      source: "tokenizer",
    });
    expect(solved.text).toBe('{"summary": "scripted"}');
  });

  it("fails with the entries it has when nothing fits", async () => {
    const onlyPlanner = new ScriptedProvider([
      { purpose: "planner", match: "tax return", text: "PLAN" },
      { text: "x", match: "zzz" },
    ]);

    await expect(
      onlyPlanner.complete({ system: "", prompt: "Summarize E2", context: { purpose: "tool" } }),
    ).rejects.toThrow(
      'scripted LLM has no response for a tool prompt starting "Summarize E2"; it has: planner "tax return"; any purpose "zzz"',
    );
  });

  it("loads an array or {responses} from a JSON file", async () => {
    const fromArray = ScriptedProvider.fromFile(writeJson([{ purpose: "solver", text: "A" }]));
    const fromObject = ScriptedProvider.fromFile(writeJson({ responses: [{ text: "B" }] }));

    expect((await fromArray.complete({ system: "", prompt: "p", context: solverContext })).text).toBe("A");
    expect((await fromObject.complete({ system: "", prompt: "p", context: { purpose: "tool" } })).text).toBe(
      "B",
    );
  });

  it("names the file and the field when the file is invalid", () => {
    const path = writeJson([{ purpose: "judge", text: "A" }]);
    expect(() => ScriptedProvider.fromFile(path)).toThrow(`scripted LLM responses file ${path}`);
    expect(() => ScriptedProvider.fromFile(path)).toThrow(/0\.purpose/);
    expect(() => ScriptedProvider.fromFile("/nonexistent/responses.json")).toThrow(
      /cannot read scripted LLM responses from \/nonexistent\/responses\.json/,
    );
  });

  it("keeps the latest prompts it was asked to complete, oldest first", async () => {
    const recorder = new ScriptedProvider([{ text: "ok" }]);
    for (let i = 0; i < RECEIVED_PROMPTS_KEPT + 2; i++) {
      await recorder.complete({ system: `s${i}`, prompt: `p${i}`, context: { purpose: "tool" } });
    }
    await recorder.complete({ system: "sys", prompt: "the plan", context: plannerContext });

    expect(recorder.received).toHaveLength(RECEIVED_PROMPTS_KEPT);
    expect(recorder.received[0]).toEqual({ purpose: "tool", system: "s3", prompt: "p3" });
    expect(recorder.received.at(-1)).toEqual({ purpose: "planner", system: "sys", prompt: "the plan" });
  });
});
