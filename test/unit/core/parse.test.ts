import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PlanParseError, parsePlanText } from "../../../lambdas/core/parse.ts";

const FIXTURES = new URL("../../fixtures/rewoo-plans/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), "utf8");

type Expected = Array<[id: string, tool: string, input: string]>;

// Read off the fixture files by eye, so the parser is checked against what a person sees in them.
const COLORADO: Expected = [
  ["E1", "Wikipedia", "Colorado orogeny"],
  [
    "E2",
    "LLM",
    "What is the name of the area that eastern sector of Colorado extends into? Given context: #E1",
  ],
  ["E3", "Wikipedia", "#E2"],
  ["E4", "LLM", "What is elevation range for the area #E2? Given context: #E3"],
];
const MILHOUSE: Expected = [
  ["E1", "Wikipedia", "Milhouse"],
  ["E2", "LLM", "Who did Matt Groening name Milhouse after? Given context: #E1"],
];

const SINGLE_EXAMPLES: Record<string, Expected> = {
  "gsm8k_pws_01.txt": [
    ["E1", "WolframAlpha", "Solve x + (2x - 10) + ((2x - 10) - 8) = 157"],
    ["E2", "LLM", "What is x, given #E1"],
    ["E3", "Calculator", "(2 * #E2 - 10) - 8"],
  ],
  "hotpotqa_pws_base_01.txt": COLORADO,
  "hotpotqa_pws_base_02.txt": MILHOUSE,
  "hotpotqa_pws_base_03.txt": [
    ["E1", "Wikipedia", "Adam Clayton Powell"],
    ["E2", "Wikipedia", "The Saimaa Gesture"],
    [
      "E3",
      "LLM",
      "Which documentary is about Finnish rock groups, Adam Clayton Powell or The Saimaa Gesture? Given context: #E1, #E2",
    ],
  ],
  "hotpotqa_pws_base_04.txt": [
    ["E1", "Wikipedia", "Nicholas Ray"],
    ["E2", "Wikipedia", "Elia Kazan"],
    ["E3", "LLM", "What profession does Nicholas Ray and Elia Kazan have in common? Given context: #E1, #E2"],
  ],
  "hotpotqa_pws_base_05.txt": [
    ["E1", "Wikipedia", "Arthur's Magazine"],
    ["E2", "Wikipedia", "First for Women"],
    [
      "E3",
      "LLM",
      "Which magazine was started first Arthur's Magazine or First for Women? Given context: #E1, #E2",
    ],
  ],
  "hotpotqa_pws_base_06.txt": [
    ["E1", "Wikipedia", "Pavel Urysohn"],
    ["E2", "Wikipedia", "Leonid Levin"],
    [
      "E3",
      "LLM",
      "Were Pavel Urysohn and Leonid Levin known for the same type of work? Given context: #E1, #E2",
    ],
  ],
  "hotpotqa_pws_extra_01.txt": [
    ["E1", "Google", "name of Leo Dicaprio's girlfriend"],
    ["E2", "Google", "age of #E1"],
    ["E3", "Calculator", "#E2^0.34"],
  ],
  "instruction_finetune_prefix_01.txt": COLORADO,
  "instruction_finetune_prefix_02.txt": MILHOUSE,
  "triviaqa_pws_01.txt": [
    ["E1", "Wikipedia", "Krung Thep"],
    ["E2", "Wikipedia", "Chao Phraya River"],
    ["E3", "LLM", "What is the name of the river on which Bakewell stands? Given context: #E1 and #E2"],
  ],
  "langgraph_py_rewoo_planner_output_1.txt": [
    ["E1", "Google", "2024 Australian Open winner"],
    ["E2", "LLM", "What is the name of the 2024 Australian Open winner, given #E1"],
    ["E3", "Google", "hometown of 2024 Australian Open winner, given #E2"],
    ["E4", "LLM", "What is the hometown of the 2024 Australian Open winner, given #E3"],
  ],
  "langgraph_py_rewoo_planner_output_2_oneline.txt": [
    ["E1", "Google", "2024 Men's Australian Open winner"],
    ["E2", "Google", "Hometown of 2024 Men's Australian Open winner"],
  ],
  "langgraphjs_rewoo_planner_output_1.txt": [
    ["E1", "Google", '"winner of the 2023 Australian Open"'],
    ["E2", "Google", '"hometown of #E1"'],
  ],
};

const triples = (text: string) => parsePlanText(text).map((s) => [s.id, s.tool, s.args.input]);

function parseError(text: string): PlanParseError {
  try {
    parsePlanText(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PlanParseError);
    return error as PlanParseError;
  }
  throw new Error("expected parsePlanText to throw");
}

describe("parsePlanText on the ReWOO fixtures", () => {
  it("has an expectation for every single-example fixture file", () => {
    const files = readdirSync(FIXTURES).filter(
      (f) => (/_0\d*\.txt$/.test(f) || f.startsWith("langgraph")) && !f.endsWith(".full.txt"),
    );
    expect(files.sort()).toEqual(Object.keys(SINGLE_EXAMPLES).sort());
  });

  for (const [file, expected] of Object.entries(SINGLE_EXAMPLES)) {
    it(`reads exactly the #E steps of ${file}, in order, with tools and inputs as written`, () => {
      expect(triples(fixture(file))).toEqual(expected);
    });
  }

  it("takes each step's description from its Plan: sentence", () => {
    expect(parsePlanText(fixture("gsm8k_pws_01.txt")).map((s) => s.description)).toEqual([
      "Given Thomas worked x hours, translate the problem into algebraic expressions and solve with Wolfram Alpha.",
      "Find out the number of hours Thomas worked.",
      "Find out the number of hours Rebecca worked.",
    ]);
  });

  it("takes descriptions from the one-line format, where the Plan: sentence shares the step's line", () => {
    expect(
      parsePlanText(fixture("langgraph_py_rewoo_planner_output_2_oneline.txt")).map((s) => s.description),
    ).toEqual([
      "Use Google to search for the 2024 Men's Australian Open winner.",
      "Once the winner is identified, search for their exact hometown using Google.",
    ]);
  });

  it("keeps a Plan: sentence without a final full stop whole (TriviaQA exemplar)", () => {
    expect(parsePlanText(fixture("triviaqa_pws_01.txt"))[0]?.description).toBe(
      "Search for more information about Krung Thep",
    );
  });

  const FULL_CONSTANTS: Record<string, string[]> = {
    "GSM8K_PWS.full.txt": ["E1", "E2", "E3"],
    "HOTPOTQA_PWS_BASE.full.txt": [
      ...["E1", "E2", "E3", "E4"],
      ...["E1", "E2"],
      ...["E1", "E2", "E3"],
      ...["E1", "E2", "E3"],
      ...["E1", "E2", "E3"],
      ...["E1", "E2", "E3"],
    ],
    "HOTPOTQA_PWS_EXTRA.full.txt": ["E1", "E2", "E3"],
    "INSTRUCTION_FINETUNE_PREFIX.full.txt": ["E1", "E2", "E3", "E4", "E1", "E2"],
    "TRIVIAQA_PWS.full.txt": ["E1", "E2", "E3"],
  };
  for (const [file, ids] of Object.entries(FULL_CONSTANTS)) {
    it(`returns every step of the multi-example ${file} in order, repeated ids included`, () => {
      expect(parsePlanText(fixture(file)).map((s) => s.id)).toEqual(ids);
    });
  }

  it("does not mistake the tool list of the instruction prefix (`Wikipedia[input]: ...`) for steps", () => {
    const tools = parsePlanText(fixture("INSTRUCTION_FINETUNE_PREFIX.full.txt")).map((s) => s.tool);
    expect(tools).toEqual(["Wikipedia", "LLM", "Wikipedia", "LLM", "Wikipedia", "LLM"]);
  });

  it("rejects the instruction suffix template, whose `#E1 = xxxx` has no Tool[input], with a pointer to it", () => {
    const error = parseError(fixture("INSTRUCTION_FINETUNE_SUFFIX.full.txt"));
    expect(error.message).toMatch(/^no plan steps found: /);
    expect(error.message).toContain('"#E1 = xxxx"');
  });
});

describe("parsePlanText on the text format", () => {
  it("reads several Plan/#E pairs that sit on one line", () => {
    const steps = parsePlanText(
      "Plan: Search A. #E1 = Google[A] Plan: Search B. #E2 = Google[B] Plan: Compare. #E3 = LLM[Compare #E1 and #E2]",
    );
    expect(steps).toEqual([
      { id: "E1", tool: "Google", args: { input: "A" }, description: "Search A." },
      { id: "E2", tool: "Google", args: { input: "B" }, description: "Search B." },
      { id: "E3", tool: "LLM", args: { input: "Compare #E1 and #E2" }, description: "Compare." },
    ]);
  });

  it("gives #E10 its own step, distinct from #E1", () => {
    const lines = Array.from(
      { length: 11 },
      (_, i) => `Plan: step ${i + 1}\n#E${i + 1} = Tool[input ${i + 1}]`,
    );
    const steps = parsePlanText(lines.join("\n"));
    expect(steps.map((s) => s.id)).toEqual([
      "E1",
      "E2",
      "E3",
      "E4",
      "E5",
      "E6",
      "E7",
      "E8",
      "E9",
      "E10",
      "E11",
    ]);
    expect(steps[9]).toEqual({
      id: "E10",
      tool: "Tool",
      args: { input: "input 10" },
      description: "step 10",
    });
    expect(steps[0]?.args.input).toBe("input 1");
  });

  it("accepts `#E1: Tool[input]` as well as `#E1 = Tool[input]`", () => {
    expect(triples("Plan: a\n#E1: Search[x]\nPlan: b\n#E2 =LLM[y #E1]")).toEqual([
      ["E1", "Search", "x"],
      ["E2", "LLM", "y #E1"],
    ]);
  });

  it("ends an input at the bracket that matches its opening one, not at the first ]", () => {
    expect(
      triples("#E1 = Tool[a [b] c]\n#E2 = Calculator[(2 * #E2 - 10) - 8]\n#E3 = Tool[[[x]]] trailing"),
    ).toEqual([
      ["E1", "Tool", "a [b] c"],
      ["E2", "Calculator", "(2 * #E2 - 10) - 8"],
      ["E3", "Tool", "[[x]]"],
    ]);
  });

  it("keeps quotes in an input exactly as written", () => {
    expect(triples(`#E1 = Google["winner of the 2023 Australian Open"]\n#E2 = LLM['it's "#E1"']`)).toEqual([
      ["E1", "Google", '"winner of the 2023 Australian Open"'],
      ["E2", "LLM", `'it's "#E1"'`],
    ]);
  });

  it("keeps Unicode in inputs and descriptions", () => {
    expect(
      parsePlanText("Plan: Chercher la gare — 東京 🚄\n#E1 = Wikipedia[Ōsaka → 東京都, «gare»]"),
    ).toEqual([
      {
        id: "E1",
        tool: "Wikipedia",
        args: { input: "Ōsaka → 東京都, «gare»" },
        description: "Chercher la gare — 東京 🚄",
      },
    ]);
  });

  it("reads tool names made of letters, digits and underscores", () => {
    expect(triples("#E1 = search_web2[Ōsaka → 東京都, «gare» 🚄]")).toEqual([
      ["E1", "search_web2", "Ōsaka → 東京都, «gare» 🚄"],
    ]);
  });

  it("keeps a tool name's case as written (validation maps it to the registered tool)", () => {
    expect(triples("#E1 = LLM[Summarise it]\n#E2 = Get_Balance[acc-1]")).toEqual([
      ["E1", "LLM", "Summarise it"],
      ["E2", "Get_Balance", "acc-1"],
    ]);
  });

  it("trims the input but keeps its inner whitespace", () => {
    expect(triples("#E1 = LLM[   two  spaces inside   ]")).toEqual([["E1", "LLM", "two  spaces inside"]]);
  });

  it("ignores Question: lines, prose and a Plan: with no step after it", () => {
    const steps = parsePlanText(
      "Question: Who won?\nHere is my plan.\nPlan: Search.\n#E1 = Google[who won]\nPlan: Then answer directly.",
    );
    expect(steps).toEqual([{ id: "E1", tool: "Google", args: { input: "who won" }, description: "Search." }]);
  });

  it("leaves description out when no Plan: sentence precedes a step", () => {
    expect(parsePlanText("#E1 = Google[x]")[0]).toEqual({ id: "E1", tool: "Google", args: { input: "x" } });
  });

  it("does not read a JSON-looking tool input as a JSON plan", () => {
    expect(triples('Plan: echo\n#E1 = LLM[[{"id": "E9", "tool": "x", "args": {}}]]')).toEqual([
      ["E1", "LLM", '[{"id": "E9", "tool": "x", "args": {}}]'],
    ]);
  });

  it("keeps an input spanning several lines whole", () => {
    expect(triples("#E1 = LLM[line one\nline [two]\nline three]")).toEqual([
      ["E1", "LLM", "line one\nline [two]\nline three"],
    ]);
  });

  it("names the step whose bracket never closes", () => {
    const error = parseError("Plan: a\n#E1 = Google[x]\nPlan: b\n#E2 = LLM[summarise #E1");
    expect(error.message).toBe(
      "step #E2 (LLM): the '[' at line 4, column 10 is never closed; expected LLM[input] with balanced brackets inside the input",
    );
  });
});

describe("parsePlanText on JSON plans", () => {
  const STEPS = [
    { id: "E1", tool: "call_preconditions_api", args: { metadata: { loan_program: "Flex Supreme" } } },
    {
      id: "E2",
      tool: "call_conditions_ai_api",
      args: { conditions: "{{E1.conditions}}", documents: ["a.pdf"] },
      depends_on: ["E1"],
      description: "Evaluate [all] conditions",
    },
  ];

  it("reads a bare JSON array of steps", () => {
    expect(parsePlanText(JSON.stringify(STEPS))).toEqual(STEPS);
  });

  it('reads {"steps": [...]}', () => {
    expect(parsePlanText(JSON.stringify({ steps: STEPS }, null, 2))).toEqual(STEPS);
  });

  it("reads a plan inside a ```json fence surrounded by prose", () => {
    const text = `Sure! Here is the plan [draft]:\n\n\`\`\`json\n${JSON.stringify({ steps: STEPS }, null, 2)}\n\`\`\`\nLet me know.`;
    expect(parsePlanText(text)).toEqual(STEPS);
  });

  it("prefers the fenced plan over an example array in the prose before it", () => {
    const example = JSON.stringify([{ id: "E1", tool: "example", args: {} }]);
    const text = `Steps look like ${example}. The plan:\n\`\`\`\n${JSON.stringify(STEPS)}\n\`\`\``;
    expect(parsePlanText(text)).toEqual(STEPS);
  });

  it("finds an unfenced JSON plan inside prose, skipping bracketed prose that is not JSON", () => {
    const text = `I will [carefully] plan. {not json} ${JSON.stringify(STEPS)} Done [1].`;
    expect(parsePlanText(text)).toEqual(STEPS);
  });

  it("reads brackets inside JSON strings as text", () => {
    const steps = [{ id: "E1", tool: "llm", args: { prompt: "say ] and } and [" } }];
    expect(parsePlanText(`plan: ${JSON.stringify(steps)}`)).toEqual(steps);
  });

  it('normalizes "#E1" ids (and depends_on) to "E1"', () => {
    const text = JSON.stringify([
      { id: "#E1", tool: "search", args: { q: "x" } },
      { id: " #E2 ", tool: "llm", args: { prompt: "{{E1}}" }, depends_on: ["#E1"] },
    ]);
    expect(parsePlanText(text).map((s) => [s.id, s.depends_on])).toEqual([
      ["E1", undefined],
      ["E2", ["E1"]],
    ]);
  });

  it("accepts `input` as the single argument when `args` is absent", () => {
    expect(parsePlanText('[{"id": "E1", "tool": "Google", "input": "who won"}]')).toEqual([
      { id: "E1", tool: "Google", args: { input: "who won" } },
    ]);
  });

  it("gives a step without args or input empty args", () => {
    expect(parsePlanText('[{"id": "E1", "tool": "now"}]')).toEqual([{ id: "E1", tool: "now", args: {} }]);
  });

  it("names the step index and field when a step has no tool", () => {
    const error = parseError('[{"id": "E1", "tool": "a", "args": {}}, {"id": "E2", "args": {}}]');
    expect(error.message).toBe("steps[1].tool: expected a tool name string, got nothing");
  });

  it("names the step index and field when a step has no id", () => {
    expect(parseError('{"steps": [{"tool": "a", "args": {}}]}').message).toBe(
      'steps[0].id: expected a step id string like "E1", got nothing',
    );
  });

  it("rejects args that are not an object, saying what they were", () => {
    expect(parseError('[{"id": "E1", "tool": "a", "args": ["x"]}]').message).toBe(
      "steps[0].args: expected an object of named arguments, got an array of 1",
    );
  });

  it("rejects a depends_on that is not a list of ids", () => {
    expect(parseError('[{"id": "E2", "tool": "a", "depends_on": "E1"}]').message).toBe(
      'steps[0].depends_on: expected an array of step ids like ["E1"], got the string "E1"',
    );
  });

  it('finds a plan wrapped in another object, like {"plan": {"steps": [...]}}', () => {
    expect(parsePlanText(JSON.stringify({ plan: { steps: STEPS } }))).toEqual(STEPS);
  });

  it("stays fast on long runs of unclosed brackets (no scan to the end of the text per bracket)", () => {
    const started = Date.now();
    for (const junk of ["[{".repeat(50_000), '{"'.repeat(50_000), "[".repeat(100_000)]) {
      expect(() => parsePlanText(junk)).toThrow(PlanParseError);
    }
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('rejects {"steps": []} as a plan without steps', () => {
    expect(parseError('{"steps": []}').message).toMatch(/^no plan steps found: .*steps array is empty/);
  });
});

describe("parsePlanText on text that is no plan", () => {
  const NO_STEPS =
    "no plan steps found: expected a JSON array of steps, {\"steps\": [...]}, or lines like 'Plan: ... #E1 = Tool[input]'";

  it.each([
    ["an empty string", ""],
    ["prose", "I cannot help with that [sorry]."],
    ["JSON that is not a plan", '{"answer": 42, "list": [1, 2]}'],
    ["Plan: sentences without steps", "Plan: think hard.\nPlan: answer."],
  ])("throws PlanParseError for %s", (_label, text) => {
    expect(parseError(text).message).toBe(NO_STEPS);
  });
});
