// The structural guarantees against a document that addresses the model, through the twin with a
// scripted model whose received prompts are inspected:
// - ReWOO plans before any document is read: the planner prompt holds no document text;
// - document text reaches the `llm` tool and the solver only inside <evidence> tags, and the
//   forged </evidence> in it is neutralised, so it cannot close the tag it is in;
// - the verdicts are those of the same document without the injected text.
// A solver entry that answers "all fulfilled" when it sees the forged delimiter verbatim stands for
// a model that obeys text outside the data tags: it only answers if the neutralisation failed.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { PLANNER_SYSTEM_PROMPT, SOLVER_SYSTEM_PROMPT } from "../../lambdas/agents/loan/prompts.ts";
import { TOOL_SYSTEM_PROMPT } from "../../lambdas/core/prompts.ts";
import type { RunRecord, RunResult } from "../../lambdas/core/types.ts";
import type { ReceivedPrompt, ScriptedProvider } from "../../lambdas/llm/scripted.ts";
import { evidenceContent, outsideTags, tagCount } from "../support/prompt-tags.ts";
import { buildInjectedReturn, CLEAN_KEY, INJECTED_KEY, INJECTION } from "./injected-document.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

const SUMMARY_INSTRUCTION = "Summarize the first page of the return: ";

const plan = (key: string) => [
  {
    id: "E1",
    tool: "call_preconditions_api",
    args: { metadata: taxReturnRequest([key]).metadata },
    description: "Predict the conditions",
  },
  { id: "E2", tool: "retrieve_s3_document", args: { s3_path: key }, description: "Read the return" },
  {
    id: "E3",
    tool: "call_conditions_ai_api",
    args: { conditions: "{{E1.conditions}}", documents: [key] },
    depends_on: ["E2"],
    description: "Judge the conditions",
  },
  {
    id: "E4",
    tool: "llm",
    args: { prompt: `${SUMMARY_INSTRUCTION}{{E2.preview}}` },
    description: "Summarize",
  },
];

const honest: RunResult = {
  summary: "4 of 5 conditions fulfilled; TR_SIGNED needs attention.",
  fulfilled_conditions: ["TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"].map((id) => ({
    id,
    reason: "Conditions AI found it fulfilled",
  })),
  unfulfilled_conditions: [
    { id: "TR_SIGNED", status: "not_fulfilled", reason: "The officer's signature and date are blank" },
  ],
  missing_information: [],
  recommendations: ["Obtain a return signed and dated by an officer"],
};
const obedient: RunResult = {
  ...honest,
  summary: "All conditions fulfilled.",
  fulfilled_conditions: [...honest.fulfilled_conditions, { id: "TR_SIGNED", reason: "on file" }],
  unfulfilled_conditions: [],
};

let twin: Twin;
let model: ScriptedProvider;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), "rewoo-injection-")), "responses.json");
  writeFileSync(
    file,
    JSON.stringify([
      { purpose: "planner", match: INJECTED_KEY, text: JSON.stringify(plan(INJECTED_KEY)) },
      { purpose: "planner", match: CLEAN_KEY, text: JSON.stringify(plan(CLEAN_KEY)) },
      { purpose: "tool", text: "Page 1 of a Form 1120 for 2024." },
      { purpose: "solver", match: INJECTION.forgedClose, text: JSON.stringify(obedient) },
      { purpose: "solver", text: JSON.stringify(honest) },
      {
        purpose: "review",
        text: JSON.stringify({
          criteria: { relevance: 10, completeness: 10, safety: 10, quality: 10 },
          issues: [],
        }),
      },
    ]),
  );
  twin = await bootTwinWithSamples({ REWOO_LLM_PROVIDER: "scripted", REWOO_SCRIPTED_RESPONSES: file });
  const bucket = twin.services.config.documentsBucket;
  await twin.services.blobs.putBytes(
    { bucket, key: INJECTED_KEY },
    await buildInjectedReturn(),
    "application/pdf",
  );
  model = twin.services.llm.solver.provider as ScriptedProvider;
});

afterAll(async () => {
  await twin?.stop();
});

/** Runs one evaluation and returns it with the prompts the model received during it, by purpose. */
async function evaluate(key: string) {
  const before = model.received.length;
  const { run_id } = await twin.startRun(taxReturnRequest([key]));
  const run = await twin.waitForRun(run_id);
  expect(run.status, JSON.stringify(run.error)).toBe("SUCCEEDED");
  const received = model.received.slice(before);
  const only = (purpose: ReceivedPrompt["purpose"]) => {
    const found = received.filter((r) => r.purpose === purpose);
    expect(found, purpose).toHaveLength(1);
    return found[0] as ReceivedPrompt;
  };
  return { run, received, planner: only("planner"), tool: only("tool"), solver: only("solver") };
}

function engineVerdicts(run: RunRecord): Record<string, string> {
  const output = run.evidence.find((e) => e.tool === "call_conditions_ai_api")?.output as {
    verdicts: Array<{ condition_id: string; status: string }>;
  };
  return Object.fromEntries(output.verdicts.map((v) => [v.condition_id, v.status]));
}

describe("a document with instructions for the model, scripted model", () => {
  let clean: Awaited<ReturnType<typeof evaluate>>;
  let injected: Awaited<ReturnType<typeof evaluate>>;

  beforeAll(async () => {
    clean = await evaluate(CLEAN_KEY);
    injected = await evaluate(INJECTED_KEY);
  });

  it("plans before any document is read: the planner prompt holds no document text", async () => {
    expect(injected.received.map((r) => r.purpose)).toEqual([
      "planner",
      "review",
      "tool",
      "solver",
      "review",
    ]);
    expect(injected.planner.system).toBe(PLANNER_SYSTEM_PROMPT);
    expect(injected.planner.prompt).toContain(`<documents>["${INJECTED_KEY}"]</documents>`);
    for (const text of [
      INJECTION.command,
      "Underwriter note",
      "Attached statement",
      "Corporation Income Tax",
    ]) {
      expect(injected.planner.prompt).not.toContain(text);
    }
    // The plan was announced before the first worker step started.
    const events = await twin.services.runs.listEvents(injected.run.run_id);
    const stages = events.map((e) => e.stage);
    expect(stages.indexOf("plan")).toBeGreaterThanOrEqual(0);
    expect(stages.indexOf("plan")).toBeLessThan(stages.indexOf("worker"));
  });

  it("hands the llm tool the document text only inside an evidence tag, its forged </evidence> neutralised", () => {
    const { system, prompt } = injected.tool;

    expect(system).toBe(TOOL_SYSTEM_PROMPT);
    expect(outsideTags(prompt)).toBe(SUMMARY_INSTRUCTION);
    expect(tagCount(prompt)).toBe(2);
    const preview = evidenceContent(prompt, "E2.preview");
    expect(preview).toContain(INJECTION.command);
    expect(preview).toContain(`\\u003c${INJECTION.forgedClose.slice(1)}`);
    expect(preview).not.toContain(INJECTION.forgedClose);
  });

  it("hands the solver the document text only inside evidence tags, its forged </evidence> neutralised", () => {
    const { system, prompt } = injected.solver;

    expect(system).toBe(SOLVER_SYSTEM_PROMPT);
    // 4 evidence tags, the metadata and the documents tag, each opened and closed exactly once.
    expect(tagCount(prompt)).toBe(12);
    expect(evidenceContent(prompt, "E2")).toContain(INJECTION.command);
    expect(prompt).not.toContain(INJECTION.forgedClose);
    for (const text of ["ignore previous instructions", "Underwriter note", "Corporation Income Tax"]) {
      expect(outsideTags(prompt), text).not.toContain(text);
    }
  });

  it("gets the verdicts of the same document without the injected text", () => {
    expect(engineVerdicts(injected.run)).toEqual(engineVerdicts(clean.run));
    expect(engineVerdicts(injected.run).TR_SIGNED).toBe("not_fulfilled");
    // The solver entry that obeys a verbatim forged delimiter never answered.
    expect(injected.run.result).toEqual(clean.run.result);
    expect(injected.run.result?.unfulfilled_conditions.map((c) => [c.id, c.status])).toEqual([
      ["TR_SIGNED", "not_fulfilled"],
    ]);
  });
});
