import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loanEvaluationProfile } from "../../../lambdas/agents/loan/profiles.ts";
import { parsePlanText } from "../../../lambdas/core/parse.ts";
import type {
  AgentProfile,
  EvaluationRequest,
  RawStep,
  ToolCatalog,
  ToolSpec,
} from "../../../lambdas/core/types.ts";
import { normalizePlan, PlanValidationError } from "../../../lambdas/core/validate.ts";

const FIXTURES = new URL("../../fixtures/rewoo-plans/", import.meta.url);

const tool = (name: string, args: ToolSpec["args"]): [string, ToolSpec] => [
  name,
  { name, description: `${name} (test double)`, args },
];

const TOOLS: ToolCatalog = new Map([
  tool("call_preconditions_api", z.object({ metadata: z.record(z.string(), z.unknown()) })),
  tool(
    "call_conditions_ai_api",
    z.object({ conditions: z.array(z.unknown()), documents: z.array(z.string()).min(1) }),
  ),
  tool("retrieve_s3_document", z.object({ s3_path: z.string().startsWith("s3://") })),
  tool("llm", z.object({ prompt: z.string().min(1), max_tokens: z.number().optional() })),
]);

const REQUEST: EvaluationRequest = {
  metadata: { loan_program: "Flex Supreme", classification: "1120 Corporate Tax Return" },
  s3_pdf_paths: ["s3://docs/return.pdf"],
};

const step = (
  id: string,
  toolName: string,
  args: Record<string, unknown>,
  depends_on?: string[],
): RawStep => ({
  id,
  tool: toolName,
  args,
  ...(depends_on !== undefined ? { depends_on } : {}),
});
const llm = (id: string, prompt: string, depends_on?: string[]) => step(id, "llm", { prompt }, depends_on);

function validationError(run: () => unknown): PlanValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PlanValidationError);
    return error as PlanValidationError;
  }
  throw new Error("expected a PlanValidationError");
}

describe("normalizePlan on a valid plan", () => {
  it("sets depends_on to explicit ids ∪ referenced ids, sorted by step number (E2 before E10)", () => {
    const raw = [
      ...Array.from({ length: 9 }, (_, i) => llm(`E${i + 1}`, `step ${i + 1}`)),
      llm("E10", "go"),
      llm("E11", "Use {{E10}} and #E2 and {{E2.x}}", ["E3", "E10"]),
    ];
    expect(normalizePlan(raw).steps[10]?.depends_on).toEqual(["E2", "E3", "E10"]);
  });

  it("keeps the planner's step order and computes the levels", () => {
    const plan = normalizePlan([llm("E2", "after #E1"), llm("E1", "first"), llm("E3", "#E1 vs #E2")], {
      tools: TOOLS,
    });
    expect(plan.steps.map((s) => s.id)).toEqual(["E2", "E1", "E3"]);
    expect(plan.levels).toEqual([["E1"], ["E2"], ["E3"]]);
    expect(plan.repairs).toEqual([]);
  });

  it("keeps descriptions and args as the planner wrote them", () => {
    const raw: RawStep[] = [{ id: "E1", tool: "llm", args: { prompt: "hi" }, description: "Say hi" }];
    expect(normalizePlan(raw).steps).toEqual([
      { id: "E1", tool: "llm", args: { prompt: "hi" }, depends_on: [], description: "Say hi" },
    ]);
  });

  it("does not mutate the raw steps", () => {
    const raw = [llm("E1", "a"), llm("E2", "#E1", ["E1"])];
    const before = structuredClone(raw);
    normalizePlan(raw, { profile: loanEvaluationProfile, request: REQUEST, maxSteps: 3 });
    expect(raw).toEqual(before);
  });

  it("normalizes the paper's text plans (HotpotQA exemplar) into levels", () => {
    const text = readFileSync(new URL("hotpotqa_pws_base_01.txt", FIXTURES), "utf8");
    const plan = normalizePlan(parsePlanText(text));
    expect(plan.steps.map((s) => [s.id, s.depends_on])).toEqual([
      ["E1", []],
      ["E2", ["E1"]],
      ["E3", ["E2"]],
      ["E4", ["E2", "E3"]],
    ]);
    expect(plan.levels).toEqual([["E1"], ["E2"], ["E3"], ["E4"]]);
  });
});

describe("normalizePlan reads tool names without regard to case", () => {
  it("resolves the paper's `LLM[...]`, `Llm[...]` and a shouted name to the registered tools, and stores those names", () => {
    const text = [
      "Plan: Read the return. #E1 = RETRIEVE_S3_DOCUMENT[s3://docs/return.pdf]",
      "Plan: Summarise it. #E2 = LLM[Summarise #E1]",
      "Plan: Check the summary. #E3 = Llm[Is #E2 complete?]",
    ].join("\n");
    const plan = normalizePlan(parsePlanText(text), { tools: TOOLS });
    expect(plan.steps.map((s) => [s.id, s.tool, s.args])).toEqual([
      // The text format's one input becomes the registered tool's one required argument.
      ["E1", "retrieve_s3_document", { s3_path: "s3://docs/return.pdf" }],
      ["E2", "llm", { prompt: "Summarise #E1" }],
      ["E3", "llm", { prompt: "Is #E2 complete?" }],
    ]);
  });

  it("checks args against the tool found, under its registered name", () => {
    const error = validationError(() =>
      normalizePlan([step("E1", "Retrieve_S3_Document", { s3_path: "docs/a.pdf" })], { tools: TOOLS }),
    );
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatch(/^step E1 \(retrieve_s3_document\): args\.s3_path: /);
  });

  it("satisfies a profile's required step named in another case, without inserting a second one", () => {
    const plan = normalizePlan(
      [
        step("E1", "CALL_PRECONDITIONS_API", { metadata: REQUEST.metadata }),
        step("E2", "Call_Conditions_AI_Api", {
          conditions: "{{E1.conditions}}",
          documents: ["s3://docs/return.pdf"],
        }),
      ],
      { tools: TOOLS, profile: loanEvaluationProfile, request: REQUEST },
    );
    expect(plan.steps.map((s) => s.tool)).toEqual(["call_preconditions_api", "call_conditions_ai_api"]);
    expect(plan.repairs).toEqual([]);
  });

  it("still refuses a name no registered tool has in any case", () => {
    expect(
      validationError(() => normalizePlan([step("E1", "LLMs", { input: "x" })], { tools: TOOLS })).message,
    ).toMatch(/^step E1: unknown tool "LLMs"; known tools: /);
  });
});

describe("normalizePlan rejects", () => {
  it("a plan without steps", () => {
    expect(validationError(() => normalizePlan([])).message).toBe(
      "plan has no steps: expected at least one step",
    );
  });

  it("duplicate ids, naming them", () => {
    expect(
      validationError(() => normalizePlan([llm("E1", "a"), llm("E2", "b"), llm("E1", "c")])).issues,
    ).toEqual(["duplicate step id E1: used by steps[0] (llm), steps[2] (llm); every step needs its own id"]);
  });

  it("the repeated ids of a multi-example exemplar file", () => {
    const text = readFileSync(new URL("INSTRUCTION_FINETUNE_PREFIX.full.txt", FIXTURES), "utf8");
    expect(validationError(() => normalizePlan(parsePlanText(text))).issues).toEqual([
      "duplicate step id E1: used by steps[0] (Wikipedia), steps[4] (Wikipedia); every step needs its own id",
      "duplicate step id E2: used by steps[1] (LLM), steps[5] (LLM); every step needs its own id",
    ]);
  });

  it("ids that are not E<number>, saying what was expected", () => {
    expect(validationError(() => normalizePlan([llm("step1", "a"), llm("E0", "b")])).issues).toEqual([
      'steps[0] (llm): id "step1" is not a step id; expected E followed by a step number, like "E1"',
      'steps[1] (llm): id "E0" is not a step id; expected E followed by a step number, like "E2"',
    ]);
  });

  it("a placeholder that references a step that does not exist, naming the step, reference and existing ids", () => {
    expect(
      validationError(() => normalizePlan([llm("E1", "a"), llm("E2", "Given {{E7.text}}")])).message,
    ).toBe("step E2 (llm): args.prompt references E7, which is not a step of the plan (steps: E1, E2)");
  });

  it("an explicit depends_on on a step that does not exist", () => {
    expect(validationError(() => normalizePlan([llm("E1", "a", ["E3"])])).message).toBe(
      "step E1 (llm): depends_on lists E3, which is not a step of the plan (steps: E1)",
    );
  });

  it("a step that references itself, calling it a cycle", () => {
    expect(validationError(() => normalizePlan([llm("E1", "a"), llm("E2", "about #E2")])).message).toBe(
      "step E2 (llm): args.prompt references itself (cycle: E2 -> E2)",
    );
  });

  it("a cycle, naming it", () => {
    const error = validationError(() =>
      normalizePlan([llm("E1", "use #E3"), llm("E2", "use #E1"), llm("E3", "a", ["E2"]), llm("E4", "free")]),
    );
    expect(error.message).toBe("cycle: E1 -> E3 -> E2 -> E1 (each step depends on the next)");
  });

  it("an unknown tool, listing the known tools", () => {
    expect(
      validationError(() => normalizePlan([step("E1", "Google", { input: "x" })], { tools: TOOLS })).message,
    ).toBe(
      'step E1: unknown tool "Google"; known tools: call_conditions_ai_api, call_preconditions_api, llm, retrieve_s3_document',
    );
  });

  it("args that do not fit the tool's schema, naming step, tool, field path and zod's message", () => {
    const error = validationError(() =>
      normalizePlan([step("E1", "call_conditions_ai_api", { conditions: "C1, C2", documents: [] })], {
        tools: TOOLS,
      }),
    );
    expect(error.issues).toEqual([
      "step E1 (call_conditions_ai_api): args.conditions: Invalid input: expected array, received string",
      "step E1 (call_conditions_ai_api): args.documents: Too small: expected array to have >=1 items",
    ]);
  });

  it("a missing required arg", () => {
    expect(validationError(() => normalizePlan([step("E1", "llm", {})], { tools: TOOLS })).message).toBe(
      "step E1 (llm): args.prompt: Invalid input: expected string, received undefined",
    );
  });

  it("a placeholder embedded in text where the schema expects a number", () => {
    const raw = [llm("E1", "a"), step("E2", "llm", { prompt: "b", max_tokens: "#E1 + 10" })];
    expect(validationError(() => normalizePlan(raw, { tools: TOOLS })).message).toBe(
      "step E2 (llm): args.max_tokens: Invalid input: expected number, received string",
    );
  });

  it("every issue at once: two unknown tools and a dangling reference make one error with 3 issues", () => {
    const error = validationError(() =>
      normalizePlan(
        [step("E1", "Google", { input: "x" }), step("E2", "Bing", { input: "#E1" }), llm("E3", "#E9")],
        {
          tools: TOOLS,
        },
      ),
    );
    expect(error.issues).toHaveLength(3);
    expect(error.issues[0]).toMatch(/^step E1: unknown tool "Google"/);
    expect(error.issues[1]).toMatch(/^step E2: unknown tool "Bing"/);
    expect(error.issues[2]).toBe(
      "step E3 (llm): args.prompt references E9, which is not a step of the plan (steps: E1, E2, E3)",
    );
    expect(error.message).toBe(error.issues.join("; "));
  });

  it("a cycle only when every reference resolves, so a dangling one is not reported as a cycle too", () => {
    const error = validationError(() => normalizePlan([llm("E1", "#E2"), llm("E2", "#E1 #E5")]));
    expect(error.issues).toEqual([
      "step E2 (llm): args.prompt references E5, which is not a step of the plan (steps: E1, E2)",
    ]);
  });

  it("with an error named PlanValidationError and the issues as a list", () => {
    const error = validationError(() => normalizePlan([llm("E1", "#E1")]));
    expect(error.name).toBe("PlanValidationError");
    expect(error.issues).toEqual(["step E1 (llm): args.prompt references itself (cycle: E1 -> E1)"]);
  });
});

describe("normalizePlan with placeholders in args", () => {
  it("accepts a string that is exactly one placeholder where the schema expects an array", () => {
    const plan = normalizePlan(
      [
        step("E1", "call_preconditions_api", { metadata: { a: 1 } }),
        step("E2", "call_conditions_ai_api", { conditions: "{{E1.conditions}}", documents: ["#E1"] }),
      ],
      { tools: TOOLS },
    );
    expect(plan.steps[1]?.depends_on).toEqual(["E1"]);
  });

  it("accepts a whole-object placeholder where the schema expects a record", () => {
    expect(() =>
      normalizePlan([llm("E1", "a"), step("E2", "call_preconditions_api", { metadata: " {{ E1 }} " })], {
        tools: TOOLS,
      }),
    ).not.toThrow();
  });

  it("accepts a placeholder embedded in a string whose format can only be checked after substitution", () => {
    expect(() =>
      normalizePlan(
        [llm("E1", "which bucket?"), step("E2", "retrieve_s3_document", { s3_path: "#E1/doc.pdf" })],
        {
          tools: TOOLS,
        },
      ),
    ).not.toThrow();
  });
});

describe("normalizePlan with maxSteps (loomflow truncation)", () => {
  const chainOf = (n: number) => Array.from({ length: n }, (_, i) => llm(`E${i + 1}`, `step ${i + 1}`));

  it("keeps the first maxSteps steps and records what it dropped", () => {
    const plan = normalizePlan(chainOf(10), { maxSteps: 8 });
    expect(plan.steps.map((s) => s.id)).toEqual(["E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8"]);
    expect(plan.repairs).toEqual([
      {
        kind: "truncated",
        message: "plan had 10 steps; truncated to the cap of 8 (dropped E9, E10)",
        step_ids: ["E9", "E10"],
      },
    ]);
  });

  it("also drops kept steps that depend on a dropped one, transitively", () => {
    const raw = [
      llm("E1", "a"),
      llm("E2", "uses #E4"),
      llm("E3", "uses #E2"),
      llm("E4", "d"),
      llm("E5", "e"),
    ];
    const plan = normalizePlan(raw, { maxSteps: 3 });
    expect(plan.steps.map((s) => s.id)).toEqual(["E1"]);
    expect(plan.repairs[0]?.message).toBe(
      "plan had 5 steps; truncated to the cap of 3 (dropped E2, E3, E4, E5)",
    );
    expect(plan.levels).toEqual([["E1"]]);
  });

  it("leaves a plan within the cap alone", () => {
    expect(normalizePlan(chainOf(3), { maxSteps: 3 }).repairs).toEqual([]);
  });

  it("treats maxSteps < 1 as a programming error", () => {
    expect(() => normalizePlan(chainOf(1), { maxSteps: 0 })).toThrow(RangeError);
    expect(() => normalizePlan(chainOf(1), { maxSteps: 0 })).toThrow(
      "maxSteps must be an integer >= 1, got number 0",
    );
  });
});

describe("normalizePlan with the loan evaluation profile", () => {
  const pre = (id: string, depends_on?: string[]) =>
    step(id, "call_preconditions_api", { metadata: REQUEST.metadata }, depends_on);
  const cond = (id: string, conditions: unknown, depends_on?: string[]) =>
    step(id, "call_conditions_ai_api", { conditions, documents: REQUEST.s3_pdf_paths }, depends_on);
  const options = { tools: TOOLS, profile: loanEvaluationProfile, request: REQUEST };

  it("changes nothing when PreConditions runs before Conditions AI", () => {
    const plan = normalizePlan([pre("E1"), cond("E2", "{{E1.conditions}}")], options);
    expect(plan.repairs).toEqual([]);
    expect(plan.levels).toEqual([["E1"], ["E2"]]);
  });

  it("inserts both required steps, with the next free ids, when the planner wrote neither", () => {
    const plan = normalizePlan(
      [step("E1", "retrieve_s3_document", { s3_path: "s3://docs/return.pdf" })],
      options,
    );
    expect(plan.steps).toEqual([
      { id: "E1", tool: "retrieve_s3_document", args: { s3_path: "s3://docs/return.pdf" }, depends_on: [] },
      {
        id: "E2",
        tool: "call_preconditions_api",
        args: { metadata: REQUEST.metadata },
        depends_on: [],
        description: loanEvaluationProfile.required_steps[0]?.description,
      },
      {
        id: "E3",
        tool: "call_conditions_ai_api",
        args: { conditions: "{{E2.conditions}}", documents: ["s3://docs/return.pdf"] },
        depends_on: ["E2"],
        description: loanEvaluationProfile.required_steps[1]?.description,
      },
    ]);
    expect(plan.repairs.map((r) => [r.kind, r.step_ids])).toEqual([
      ["inserted_required_step", ["E2"]],
      ["inserted_required_step", ["E3"]],
    ]);
    expect(plan.repairs[1]?.message).toBe(
      "profile loan_evaluation requires a call_conditions_ai_api step and the planner wrote none; " +
        "inserted E3 (Evaluate the predicted conditions against the borrower's documents), after E2",
    );
    expect(plan.levels).toEqual([["E1", "E2"], ["E3"]]);
  });

  it("inserts a missing Conditions AI step that reads the planner's PreConditions step", () => {
    const plan = normalizePlan([pre("E1"), llm("E5", "summarise #E1")], options);
    expect(plan.steps.map((s) => [s.id, s.tool, s.depends_on])).toEqual([
      ["E1", "call_preconditions_api", []],
      ["E5", "llm", ["E1"]],
      ["E6", "call_conditions_ai_api", ["E1"]],
    ]);
    expect(plan.steps[2]?.args.conditions).toBe("{{E1.conditions}}");
  });

  it("inserts a missing PreConditions step before Conditions AI and makes Conditions AI depend on it", () => {
    const plan = normalizePlan([llm("E1", "plan"), cond("E2", ["C1"])], options);
    expect(plan.steps.map((s) => [s.id, s.tool, s.depends_on])).toEqual([
      ["E1", "llm", []],
      ["E3", "call_preconditions_api", []],
      ["E2", "call_conditions_ai_api", ["E3"]],
    ]);
    expect(plan.repairs.map((r) => r.message)).toEqual([
      "profile loan_evaluation requires a call_preconditions_api step and the planner wrote none; " +
        "inserted E3 (Predict the loan conditions that apply to this loan from its metadata)",
      "profile loan_evaluation requires call_preconditions_api before call_conditions_ai_api; " +
        "dependency added: E2 (call_conditions_ai_api) now depends on E3 (call_preconditions_api)",
    ]);
    expect(plan.levels).toEqual([["E1", "E3"], ["E2"]]);
  });

  it("adds the dependency when both are present but Conditions AI does not wait for PreConditions", () => {
    const plan = normalizePlan([cond("E1", ["C1"]), pre("E2")], options);
    expect(plan.steps.find((s) => s.id === "E1")?.depends_on).toEqual(["E2"]);
    expect(plan.repairs).toEqual([
      {
        kind: "inserted_required_step",
        message:
          "profile loan_evaluation requires call_preconditions_api before call_conditions_ai_api; " +
          "dependency added: E1 (call_conditions_ai_api) now depends on E2 (call_preconditions_api)",
        step_ids: ["E1"],
      },
    ]);
    expect(plan.levels).toEqual([["E2"], ["E1"]]);
  });

  it("accepts Conditions AI depending on PreConditions through an intermediate step", () => {
    const plan = normalizePlan([pre("E1"), llm("E2", "filter #E1"), cond("E3", "{{E2}}")], options);
    expect(plan.repairs).toEqual([]);
  });

  it("rejects PreConditions depending on Conditions AI, the order it cannot repair", () => {
    expect(
      validationError(() => normalizePlan([cond("E1", ["C1"]), pre("E2", ["E1"])], options)).message,
    ).toBe(
      "profile loan_evaluation requires call_preconditions_api before call_conditions_ai_api, but " +
        "call_preconditions_api step E2 depends on call_conditions_ai_api step E1; expected the opposite order",
    );
  });

  it("drops trailing non-required steps when an inserted step pushes the plan past maxSteps", () => {
    const plan = normalizePlan([pre("E1"), llm("E2", "b"), llm("E3", "c #E2")], { ...options, maxSteps: 3 });
    expect(plan.steps.map((s) => s.id)).toEqual(["E1", "E2", "E4"]);
    expect(plan.repairs.map((r) => [r.kind, r.message])).toEqual([
      ["inserted_required_step", expect.stringContaining("inserted E4")],
      [
        "truncated",
        "plan had 4 steps (including 1 inserted required step); truncated to the cap of 3 (dropped E3)",
      ],
    ]);
  });

  it("keeps required steps, and what they need, even when they come last", () => {
    const raw = [llm("E1", "a"), llm("E2", "b"), llm("E3", "c"), pre("E4"), cond("E5", "{{E4.conditions}}")];
    const plan = normalizePlan(raw, { ...options, maxSteps: 3 });
    expect(plan.steps.map((s) => s.id)).toEqual(["E1", "E4", "E5"]);
    expect(plan.repairs[0]?.step_ids).toEqual(["E2", "E3"]);
  });

  it("rejects a cap smaller than the number of required steps", () => {
    expect(validationError(() => normalizePlan([llm("E1", "a")], { ...options, maxSteps: 1 })).message).toBe(
      "max_steps is 1, but profile loan_evaluation needs 2 steps (E2, E3: its required steps and the steps " +
        "they depend on); expected max_steps >= 2",
    );
  });

  it("validates the args it builds against the tool's schema", () => {
    const error = validationError(() =>
      normalizePlan([pre("E1")], { ...options, request: { ...REQUEST, s3_pdf_paths: [] } }),
    );
    expect(error.message).toBe(
      "step E2 (call_conditions_ai_api): args.documents: Too small: expected array to have >=1 items",
    );
  });

  it("needs the request when it has to build a step", () => {
    expect(() => normalizePlan([llm("E1", "a")], { profile: loanEvaluationProfile })).toThrow(
      "normalizePlan: profile loan_evaluation must insert a call_preconditions_api step, and building its args needs options.request",
    );
  });

  it("builds a plan from an empty one", () => {
    const plan = normalizePlan([], options);
    expect(plan.steps.map((s) => [s.id, s.tool])).toEqual([
      ["E1", "call_preconditions_api"],
      ["E2", "call_conditions_ai_api"],
    ]);
  });

  it("passes each earlier required step's id to build_args", () => {
    const seen: Array<Record<string, string>> = [];
    const profile: AgentProfile = {
      name: "three",
      required_steps: ["a", "b", "c"].map((name) => ({
        tool: name,
        description: name,
        build_args: (_request, earlier) => {
          seen.push(earlier);
          return {};
        },
      })),
    };
    normalizePlan([step("E7", "b", {})], { profile, request: REQUEST });
    expect(seen).toEqual([{}, { a: "E8", b: "E7" }]);
  });
});

describe("loanEvaluationProfile", () => {
  it("requires PreConditions (from the metadata) and then Conditions AI (on its conditions and the documents)", () => {
    const [first, second] = loanEvaluationProfile.required_steps;
    expect(first?.tool).toBe("call_preconditions_api");
    expect(first?.build_args(REQUEST, {})).toEqual({ metadata: REQUEST.metadata });
    expect(second?.tool).toBe("call_conditions_ai_api");
    expect(second?.build_args(REQUEST, { call_preconditions_api: "E4" })).toEqual({
      conditions: "{{E4.conditions}}",
      documents: ["s3://docs/return.pdf"],
    });
  });
});

describe("text-format plans against registered tools", () => {
  it("passes a text step's single input as the tool's only required argument", () => {
    const tools = new Map([
      [
        "retrieve_s3_document",
        { name: "retrieve_s3_document", description: "d", args: z.object({ s3_path: z.string() }) },
      ],
    ]);
    const plan = normalizePlan(
      [{ id: "E1", tool: "retrieve_s3_document", args: { input: "rm-conditions/doc1.pdf" } }],
      { tools },
    );
    expect(plan.steps[0]?.args).toEqual({ s3_path: "rm-conditions/doc1.pdf" });
  });
});
