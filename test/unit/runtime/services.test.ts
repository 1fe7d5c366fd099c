// The service layers: the registry describes, validates and asks without models or a tool runtime;
// running a tool needs the runtime the worker links (what the tools do), built once, on first use.
import { describe, expect, it } from "vitest";
import { bankingToolRunners } from "../../../lambdas/agents/banking/banking-tools.ts";
import { loanToolRunners } from "../../../lambdas/agents/loan/loan-tools.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import {
  buildBaseServices,
  buildServices,
  type ToolRuntime,
  ToolRuntimeMissingError,
  withTools,
} from "../../../lambdas/runtime/services.ts";
import type { DocumentReader } from "../../../lambdas/tools/document-reader.ts";

const config = parseConfig({
  RUNS_TABLE: "runs",
  DOCUMENTS_BUCKET: "docs",
  ARTIFACTS_BUCKET: "artifacts",
  AWS_REGION: "us-east-1",
});

const context = () => ({
  run_id: "run-1",
  step_id: "E1",
  signal: new AbortController().signal,
  recordLlmUsage() {},
});

const bankPlan = {
  steps: [
    {
      id: "E1",
      tool: "call_preconditions_api",
      args: { metadata: { loan_program: "Flex Supreme", classification: "Bank Statements" } },
      depends_on: [],
    },
  ],
};

describe("service layers", () => {
  it("describe the tools and ask what a plan still needs, with no models and no tool runtime", () => {
    const catalog = withTools(buildBaseServices(config), () => {
      throw new ToolRuntimeMissingError();
    });

    expect(catalog.tools.names()).toEqual(
      expect.arrayContaining([
        "call_preconditions_api",
        "call_conditions_ai_api",
        "retrieve_s3_document",
        "llm",
      ]),
    );
    // Each profile's planner sees its own tools; the registry runs them all.
    const loan = [...catalog.catalog.keys()];
    const banking = [...catalog.tools.catalog("banking_assistant").keys()];
    expect(loan).toEqual([...catalog.tools.catalog("loan_evaluation").keys()]);
    expect(banking).toEqual(expect.arrayContaining(["find_card", "block_card", "transfer_funds"]));
    expect(loan.filter((name) => banking.includes(name))).toEqual([]);
    expect([...loan, ...banking].sort()).toEqual(catalog.tools.names().sort());
    expect(catalog.tools.questionsFor(bankPlan).map((question) => question.field)).toContain(
      "borrower_info.monthly_income",
    );
    expect("llm" in catalog).toBe(false);
  });

  it("refuse to run a tool that reads documents where no tool runtime is linked, saying where tools run", async () => {
    const svc = buildServices(config);
    const run = svc.tools.get("retrieve_s3_document").run({ s3_path: "a.pdf" }, context());

    await expect(run).rejects.toBeInstanceOf(ToolRuntimeMissingError);
    await expect(run).rejects.toThrow(/tools run only in the worker/);
  });

  it("build the linked tool runtime once, on the first tool run, from the same stores and the tool's model", async () => {
    const built: unknown[] = [];
    const reads: Array<[string, string]> = [];
    const documents = {
      async read(runId: string, path: string) {
        reads.push([runId, path]);
        return {
          uri: `s3://docs/${path}`,
          path,
          size: 10,
          extracted: { document: path, page_count: 1, pages: ["Form 1120"], has_text_layer: true },
        };
      },
    } as unknown as DocumentReader;
    const runtime: ToolRuntime = (base, toolModel) => {
      built.push(base.blobs);
      return {
        loan: loanToolRunners(() => ({ documents, runs: base.runs, now: base.now, llm: toolModel() })),
        banking: bankingToolRunners(() => {
          throw new Error("no banking tool runs here");
        }),
      };
    };
    const svc = buildServices(config, { runtime });
    expect(built).toHaveLength(0);

    const retrieve = svc.tools.get("retrieve_s3_document");
    const first = await retrieve.run({ s3_path: "a.pdf" }, context());
    await retrieve.run({ s3_path: "b.pdf" }, context());

    expect(built).toEqual([svc.blobs]);
    expect(reads).toEqual([
      ["run-1", "a.pdf"],
      ["run-1", "b.pdf"],
    ]);
    expect(first).toMatchObject({ path: "a.pdf", page_count: 1, preview: "Form 1120" });
  });
});
