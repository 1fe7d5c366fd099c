// call_preconditions_api's `conditions` / `exclude` filters, in both modes: the reference engine and
// the lender's service (a real HTTP server on loopback answering as the lender would).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../../lambdas/agents/loan/catalog.ts";
import { createLoanTools } from "../../../lambdas/agents/loan/loan-tools.ts";
import type { LlmProvider } from "../../../lambdas/llm/types.ts";
import type { RunStore } from "../../../lambdas/store/runs.ts";
import type { DocumentReader } from "../../../lambdas/tools/document-reader.ts";
import { createLenderCalls, type LenderCalls } from "../../../lambdas/tools/lender-client.ts";
import type { ToolDefinition } from "../../../lambdas/tools/registry.ts";
import { type RecordingServer, startRecordingServer } from "../../support/recording-server.ts";
import { AS_OF, TAX_METADATA } from "../loan/fixtures.ts";

let lender: RecordingServer;

const lenderAnswer = {
  loan_program: "Flex Supreme",
  classification: "1120 Corporate Tax Return",
  as_of_date: "2025-04-15",
  conditions: [
    { id: "TR_SIGNED", title: "Signed", compartment: "Compliance", priority: "high", reason: "verify" },
    { id: "tr_ein_match", title: "EIN", compartment: "Compliance", priority: 1, reason: "verify" },
    { id: "TR_COMPLETE", title: "Complete", compartment: "Compliance", priority: "low", reason: "verify" },
  ],
};

beforeAll(async () => {
  lender = await startRecordingServer(() => ({ status: 200, body: JSON.stringify(lenderAnswer) }));
});
afterAll(() => lender.close());

function preconditionsTool(calls?: LenderCalls): ToolDefinition {
  const unused = {} as never;
  const tool = createLoanTools(() => ({
    documents: unused as DocumentReader,
    runs: unused as RunStore,
    llm: { provider: unused as LlmProvider },
    now: () => AS_OF,
    ...(calls ? { lender: calls } : {}),
  })).find((candidate) => candidate.name === "call_preconditions_api");
  if (!tool) throw new Error("call_preconditions_api is not registered");
  return tool;
}

interface Output {
  conditions: Array<{ id: string; title: string }>;
  filtered_out: Array<{ id: string; title: string; reason: string }>;
  not_applicable?: Array<{ id: string; reason: string }>;
}

async function run(args: Record<string, unknown>, calls?: LenderCalls): Promise<Output> {
  const tool = preconditionsTool(calls);
  return (await tool.run(tool.args.parse({ metadata: TAX_METADATA, ...args }), {
    run_id: "run-1",
    step_id: "E1",
    signal: new AbortController().signal,
    recordLlmUsage: () => {},
  })) as Output;
}

describe("call_preconditions_api filters (reference engine)", () => {
  it("without a filter, keeps every applicable condition and filters nothing out", async () => {
    const output = await run({});
    expect(output.conditions.map((c) => c.id)).toEqual([
      "TR_SIGNED",
      "TR_TAX_YEAR",
      "TR_EIN_MATCH",
      "TR_NAME_MATCH",
      "TR_COMPLETE",
    ]);
    expect(output.filtered_out).toEqual([]);
    expect(output).not.toHaveProperty("not_applicable");
  });

  it("judges only the conditions asked for (any case) and lists the others as not asked for", async () => {
    const output = await run({ conditions: ["tr_signed", "TR_EIN_MATCH"] });
    expect(output.conditions.map((c) => c.id)).toEqual(["TR_SIGNED", "TR_EIN_MATCH"]);
    expect(output.filtered_out).toEqual([
      { id: "TR_TAX_YEAR", title: "Tax return is for the expected tax year", reason: "not asked for" },
      {
        id: "TR_NAME_MATCH",
        title: "Corporation name matches the borrowing business",
        reason: "not asked for",
      },
      { id: "TR_COMPLETE", title: "Tax return is complete", reason: "not asked for" },
    ]);
  });

  it("leaves out excluded conditions, and exclude wins over conditions", async () => {
    const excluded = await run({ exclude: ["TR_COMPLETE"] });
    expect(excluded.conditions.map((c) => c.id)).not.toContain("TR_COMPLETE");
    expect(excluded.conditions).toHaveLength(4);
    expect(excluded.filtered_out).toEqual([
      { id: "TR_COMPLETE", title: "Tax return is complete", reason: "excluded by the instructions" },
    ]);

    const both = await run({ conditions: ["TR_SIGNED", "TR_COMPLETE"], exclude: ["tr_complete"] });
    expect(both.conditions.map((c) => c.id)).toEqual(["TR_SIGNED"]);
    expect(both.filtered_out.map(({ id, reason }) => [id, reason])).toEqual([
      ["TR_TAX_YEAR", "not asked for"],
      ["TR_EIN_MATCH", "not asked for"],
      ["TR_NAME_MATCH", "not asked for"],
      ["TR_COMPLETE", "excluded by the instructions"],
    ]);
  });

  it("says when a condition asked for does not apply to the loan", async () => {
    const output = await run({ conditions: ["TR_SIGNED", "BS_NO_NSF"] });
    expect(output.conditions.map((c) => c.id)).toEqual(["TR_SIGNED"]);
    expect(output.not_applicable).toEqual([
      {
        id: "BS_NO_NSF",
        title: "No NSF, overdraft or returned-item fees",
        reason: "asked for, but it does not apply to 1120 Corporate Tax Return / Flex Supreme",
      },
    ]);
  });

  it("refuses an unknown id, naming the field and the ids the catalog knows", () => {
    const tool = preconditionsTool();
    const parsed = tool.args.safeParse({ metadata: TAX_METADATA, conditions: ["TR_SIGNED", "W2_MATCH"] });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(issue?.path).toEqual(["conditions", 1]);
    const known = loadCatalog().conditions.map((condition) => condition.id);
    expect(issue?.message).toBe(`unknown condition id "W2_MATCH": expected one of ${known.join(", ")}`);

    const excluded = tool.args.safeParse({ metadata: TAX_METADATA, exclude: [""] });
    expect(excluded.error?.issues[0]?.path).toEqual(["exclude", 0]);
  });
});

describe("call_preconditions_api filters (lender's service)", () => {
  it("filters the lender's answer the same way, matching its ids in any case", async () => {
    const calls = createLenderCalls({ preconditionsUrl: lender.origin, timeoutMs: 2_000 });
    const output = await run(
      { conditions: ["TR_EIN_MATCH", "TR_COMPLETE"], exclude: ["TR_COMPLETE"] },
      calls,
    );
    expect(lender.received.at(-1)?.body).toEqual({ metadata: TAX_METADATA });
    expect(output.conditions.map((c) => c.id)).toEqual(["tr_ein_match"]);
    expect(output.filtered_out).toEqual([
      { id: "TR_SIGNED", title: "Signed", reason: "not asked for" },
      { id: "TR_COMPLETE", title: "Complete", reason: "excluded by the instructions" },
    ]);
    expect(output).not.toHaveProperty("not_applicable");
  });
});
