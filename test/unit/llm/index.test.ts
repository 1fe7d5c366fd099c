import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { describe, expect, it } from "vitest";
import { BedrockProvider } from "../../../lambdas/llm/bedrock.ts";
import { createLlmProviders } from "../../../lambdas/llm/index.ts";
import { OpenAiCompatibleProvider } from "../../../lambdas/llm/openai.ts";
import { RuleBasedProvider } from "../../../lambdas/llm/rule-based.ts";
import { ScriptedProvider } from "../../../lambdas/llm/scripted.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";

describe("createLlmProviders", () => {
  it("defaults to the rule-based provider for every role", () => {
    const llm = createLlmProviders({ provider: "rule-based" });

    expect(llm.planner.provider).toBeInstanceOf(RuleBasedProvider);
    expect(llm.planner.provider).toBe(llm.solver.provider);
    expect([llm.planner.model, llm.solver.model, llm.tool.model]).toEqual([
      "rule-based",
      "rule-based",
      "rule-based",
    ]);
  });

  it("keeps separate planner and solver models, the tool model following the solver's", () => {
    const client = new BedrockRuntimeClient({ region: "eu-west-1" });
    const llm = createLlmProviders(
      { provider: "bedrock", plannerModel: "anthropic.claude-3-5-sonnet-20241022-v2:0" },
      { bedrockClient: client },
    );

    expect(llm.planner.provider).toBeInstanceOf(BedrockProvider);
    expect(llm.planner.model).toBe("anthropic.claude-3-5-sonnet-20241022-v2:0");
    expect(llm.solver.model).toBe("anthropic.claude-3-5-haiku-20241022-v1:0");
    expect(llm.tool.model).toBe("anthropic.claude-3-5-haiku-20241022-v1:0");
  });

  it("builds the OpenAI-compatible provider with gpt-4o-mini unless models are set", () => {
    const llm = createLlmProviders({
      provider: "openai",
      openaiBaseUrl: "http://127.0.0.1:11434/v1",
      solverModel: "llama3.1",
    });

    expect(llm.solver.provider).toBeInstanceOf(OpenAiCompatibleProvider);
    expect(llm.planner.model).toBe("gpt-4o-mini");
    expect(llm.solver.model).toBe("llama3.1");
    expect(llm.tool.model).toBe("llama3.1");
  });

  it("rejects openai without a base URL and scripted without a responses file", () => {
    expect(() => createLlmProviders({ provider: "openai" })).toThrow(
      /REWOO_LLM_PROVIDER=openai needs OPENAI_BASE_URL/,
    );
    expect(() => createLlmProviders({ provider: "scripted" })).toThrow(
      /REWOO_LLM_PROVIDER=scripted needs REWOO_SCRIPTED_RESPONSES/,
    );
  });

  it("loads scripted responses from the configured file", () => {
    const path = join(mkdtempSync(join(tmpdir(), "rewoo-llm-")), "responses.json");
    writeFileSync(path, JSON.stringify([{ text: "hi" }]));

    const llm = createLlmProviders({ provider: "scripted", scriptedResponsesFile: path });

    expect(llm.tool.provider).toBeInstanceOf(ScriptedProvider);
    expect(llm.tool.model).toBe("scripted");
  });

  it("accepts config.llm as parsed from the environment", () => {
    const config = parseConfig({
      RUNS_TABLE: "runs",
      DOCUMENTS_BUCKET: "documents",
      ARTIFACTS_BUCKET: "artifacts",
      REWOO_LLM_PROVIDER: "openai",
      OPENAI_BASE_URL: "http://127.0.0.1:8000/v1",
      REWOO_PLANNER_MODEL: "qwen2.5-72b",
      REWOO_SOLVER_MODEL: "qwen2.5-7b",
    });

    const llm = createLlmProviders(config.llm, { region: config.region });

    expect([llm.planner.model, llm.solver.model, llm.tool.model]).toEqual([
      "qwen2.5-72b",
      "qwen2.5-7b",
      "qwen2.5-7b",
    ]);
  });

  it("reads each role's temperature and max tokens from the environment, unset or empty leaving today's defaults", () => {
    const base = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };
    const config = parseConfig({
      ...base,
      REWOO_PLANNER_TEMPERATURE: "0",
      REWOO_PLANNER_MAX_TOKENS: "2048",
      REWOO_SOLVER_TEMPERATURE: "",
      REWOO_TOOL_MAX_TOKENS: "512",
      REWOO_REVIEWER_TEMPERATURE: "0.5",
    });

    expect(config.llm.roles).toEqual({
      planner: { temperature: 0, maxTokens: 2048 },
      solver: { temperature: undefined, maxTokens: undefined },
      tool: { temperature: undefined, maxTokens: 512 },
      reviewer: { temperature: 0.5, maxTokens: undefined },
    });
    expect(() => parseConfig({ ...base, REWOO_SOLVER_TEMPERATURE: "2.5" })).toThrow(
      /REWOO_SOLVER_TEMPERATURE/,
    );
    expect(() => parseConfig({ ...base, REWOO_PLANNER_MAX_TOKENS: "0" })).toThrow(/REWOO_PLANNER_MAX_TOKENS/);
    expect(() => parseConfig({ ...base, REWOO_TOOL_MAX_TOKENS: "many" })).toThrow(/REWOO_TOOL_MAX_TOKENS/);
  });
});
