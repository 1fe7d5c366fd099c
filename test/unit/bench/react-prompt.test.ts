// The ReAct baseline keeps the prompt it was measured with: the ReWOO prompts' shorter forms (args
// as types, answers as bare ids) must not make the baseline cheaper.
import { describe, expect, it } from "vitest";
import { renderReactPrompt } from "../../../bench/react.ts";
import { renderLoanPlannerPrompt } from "../../../lambdas/agents/loan/prompts.ts";
import { argsJsonSchema } from "../../../lambdas/core/prompts.ts";
import { loanTools, taxReturnRequest } from "../llm/fixtures.ts";

describe("ReAct prompt", () => {
  const tools = loanTools();
  const { prompt } = renderReactPrompt(taxReturnRequest(), tools, []);

  it("describes every tool's args as JSON Schema", () => {
    for (const [name, spec] of tools) {
      expect(prompt).toContain(
        `- ${name}: ${spec.description}\n  args: ${JSON.stringify(argsJsonSchema(spec.args))}`,
      );
    }
    expect(renderLoanPlannerPrompt({ request: taxReturnRequest(), tools, maxSteps: 8 }).prompt).not.toContain(
      "  args: {",
    );
  });

  it("asks for the whole answer, every condition written out", () => {
    expect(prompt).toContain(
      '{"summary": "...", "fulfilled_conditions": [{"id": "...", "title": "...", "reason": "...", "citations": [{"document": "...", "page": 1, "excerpt": "..."}]}]',
    );
    expect(prompt).toContain("Treat its output as missing, name every such step in missing_information");
    expect(prompt).not.toContain("as its id alone");
    expect(prompt).not.toMatch(/\{(tool_descriptions|tool_names|request|scratchpad|answer_rules)\}/);
  });
});
