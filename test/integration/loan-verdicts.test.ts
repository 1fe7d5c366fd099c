// The loan tools end to end: generated PDFs in the twin's S3, the real state machine, the reference
// engines and the rule-based planner/solver. Assertions are on the verdicts themselves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildForm1120, generateSampleDocuments } from "../../examples/samples.ts";
import type { Twin } from "../../infra/local/twin.ts";
import { extractPdfText } from "../../lambdas/agents/loan/pdf-text.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;
const pageTexts = new Map<string, string[]>();

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  const bucket = twin.services.config.documentsBucket;
  await twin.services.blobs.putBytes(
    { bucket, key: "rm-conditions/corrupt.pdf" },
    new TextEncoder().encode("%PDF-1.7 this file was truncated in transit"),
    "application/pdf",
  );
  for (const sample of await generateSampleDocuments()) {
    pageTexts.set(sample.key, (await extractPdfText(sample.bytes, sample.key)).pages);
  }
  // An S corporation's return: Form 1120-S, with a Schedule L of its own.
  const sCorporation = {
    key: "rm-conditions/1120s-signed.pdf",
    bytes: await buildForm1120({ form: "1120-S" }),
  };
  await twin.services.blobs.putBytes(
    { bucket, key: sCorporation.key },
    sCorporation.bytes,
    "application/pdf",
  );
  pageTexts.set(sCorporation.key, (await extractPdfText(sCorporation.bytes, sCorporation.key)).pages);
});

afterAll(async () => {
  await twin?.stop();
});

const bankStatementsRequest = (documents: string[], instructions = "Evaluate the bank statements") => ({
  metadata: {
    loan_program: "Flex Supreme",
    classification: "Bank Statements",
    as_of_date: "2025-04-15",
    borrower_info: { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 },
  },
  instructions,
  s3_pdf_paths: documents.map((name) => `rm-conditions/${name}`),
});

async function evaluate(request: unknown): Promise<RunRecord> {
  const { run_id } = await twin.startRun(request);
  const run = await twin.waitForRun(run_id);
  expect(run.status, JSON.stringify(run.error)).toBe("SUCCEEDED");
  return run;
}

function statusOf(run: RunRecord, id: string): string | undefined {
  if (run.result?.fulfilled_conditions.some((c) => c.id === id)) return "fulfilled";
  return run.result?.unfulfilled_conditions.find((c) => c.id === id)?.status as string | undefined;
}

function expectCitationsOnTheirPages(run: RunRecord) {
  const conditions = [
    ...(run.result?.fulfilled_conditions ?? []),
    ...(run.result?.unfulfilled_conditions ?? []),
  ];
  let checked = 0;
  for (const condition of conditions) {
    for (const citation of condition.citations ?? []) {
      const pages = pageTexts.get(citation.document);
      expect(pages, `${condition.id} cites an unknown document ${citation.document}`).toBeDefined();
      expect(pages?.[(citation.page ?? 0) - 1], `${condition.id} p.${citation.page}`).toContain(
        citation.excerpt,
      );
      checked += 1;
    }
  }
  expect(checked).toBeGreaterThan(0);
}

describe("bank statements", () => {
  it("finds the NSF fee and answers the sufficiency question", async () => {
    const run = await evaluate(
      bankStatementsRequest(
        ["statement-2025-01.pdf", "statement-2025-02.pdf", "statement-2025-03-nsf.pdf"],
        "Check if these bank statements are sufficient for income verification. If not, tell me what's missing.",
      ),
    );
    expect(statusOf(run, "BS_NO_NSF")).toBe("not_fulfilled");
    for (const id of ["BS_TWO_MONTHS", "BS_NAME_MATCH", "BS_SAME_ACCOUNT", "BS_LARGE_DEPOSITS"]) {
      expect(statusOf(run, id), id).toBe("fulfilled");
    }
    expect(run.result?.summary).toMatch(/^Not sufficient/);
    const nsf = run.result?.unfulfilled_conditions.find((c) => c.id === "BS_NO_NSF");
    expect(nsf?.citations?.[0]).toMatchObject({
      document: "rm-conditions/statement-2025-03-nsf.pdf",
      page: 1,
    });
    expect(nsf?.citations?.[0]?.excerpt).toMatch(/NSF Fee/);
    expectCitationsOnTheirPages(run);
  });

  it("lists a deposit above half the monthly income as needing a letter of explanation", async () => {
    const run = await evaluate(
      bankStatementsRequest([
        "statement-2025-01.pdf",
        "statement-2025-02.pdf",
        "statement-2025-03-large-deposit.pdf",
      ]),
    );
    expect(statusOf(run, "BS_LARGE_DEPOSITS")).toBe("not_fulfilled");
    expect(statusOf(run, "BS_NO_NSF")).toBe("fulfilled");
    const engine = run.evidence.find((e) => e.tool === "call_conditions_ai_api")?.output as {
      verdicts: Array<{
        condition_id: string;
        letters_of_explanation?: Array<{ date: string; amount: number }>;
      }>;
    };
    const letters = engine.verdicts.find(
      (v) => v.condition_id === "BS_LARGE_DEPOSITS",
    )?.letters_of_explanation;
    expect(letters?.map(({ date, amount }) => ({ date, amount }))).toEqual([
      { date: "2025-03-12", amount: 12500 },
    ]);
    expectCitationsOnTheirPages(run);
  });

  it("does not accept a statement in someone else's name", async () => {
    const run = await evaluate(
      bankStatementsRequest(["statement-2025-01.pdf", "statement-2025-02-other-name.pdf"]),
    );
    expect(statusOf(run, "BS_NAME_MATCH")).toBe("not_fulfilled");
    expectCitationsOnTheirPages(run);
  });
});

describe("tax returns", () => {
  it("reports the unsigned return TR_SIGNED not_fulfilled and the rest fulfilled", async () => {
    const run = await evaluate(taxReturnRequest(["rm-conditions/1120-unsigned.pdf"]));
    expect(statusOf(run, "TR_SIGNED")).toBe("not_fulfilled");
    for (const id of ["TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"]) {
      expect(statusOf(run, id), id).toBe("fulfilled");
    }
    expectCitationsOnTheirPages(run);
  });

  it("finds a Form 1120-S sent as the Form 1120 not complete, naming what it is, and fulfils nothing", async () => {
    const run = await evaluate(taxReturnRequest(["rm-conditions/1120s-signed.pdf"]));
    expect(run.result?.fulfilled_conditions).toEqual([]);
    expect(statusOf(run, "TR_COMPLETE")).toBe("not_fulfilled");
    const complete = run.result?.unfulfilled_conditions.find((condition) => condition.id === "TR_COMPLETE");
    expect(complete?.reason).toContain(
      "rm-conditions/1120s-signed.pdf is a Form 1120-S (U.S. Income Tax Return for an S Corporation), not a Form 1120",
    );
    for (const id of ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH"]) {
      expect(statusOf(run, id), id).toBe("insufficient_evidence");
    }
    expect(run.result?.missing_information).toContain(
      "rm-conditions/1120s-signed.pdf is a Form 1120-S (U.S. Income Tax Return for an S Corporation), not a Form 1120: no condition was judged on it",
    );
    expect(run.result?.recommendations.join("\n")).toMatch(/Provide the borrower's Form 1120/);
    expectCitationsOnTheirPages(run);
  });

  it("names a tax return sent as bank statements as the tax return it is", async () => {
    const run = await evaluate(bankStatementsRequest(["1120-signed.pdf"]));
    expect(run.result?.fulfilled_conditions).toEqual([]);
    expect(run.result?.unfulfilled_conditions).toHaveLength(5);
    for (const condition of run.result?.unfulfilled_conditions ?? []) {
      expect(condition.reason, condition.id).toContain(
        "rm-conditions/1120-signed.pdf is a Form 1120 (U.S. Corporation Income Tax Return), not a bank statement",
      );
    }
    expect(run.result?.missing_information).toContain(
      "rm-conditions/1120-signed.pdf is a Form 1120 (U.S. Corporation Income Tax Return), not a bank statement: no condition was judged on it",
    );
  });

  it("says 'no text layer' for a scanned document instead of deciding", async () => {
    const run = await evaluate(taxReturnRequest(["rm-conditions/scanned.pdf"]));
    expect(run.result?.fulfilled_conditions).toEqual([]);
    for (const condition of run.result?.unfulfilled_conditions ?? []) {
      expect(condition.status, condition.id).toBe("insufficient_evidence");
      expect(condition.reason, condition.id).toMatch(/no text layer/);
    }
  });

  it("turns a corrupt PDF into error evidence naming the document, and still answers", async () => {
    const run = await evaluate(taxReturnRequest(["rm-conditions/corrupt.pdf"]));
    // Retrieval fails on it; Conditions AI reports it as an unreadable document of its own evidence
    // (one bad file among several must not cost the others their verdicts), so it does not fail.
    const failed = run.evidence.filter((e) => e.status === "error");
    expect(failed.map((e) => e.tool)).toEqual(["retrieve_s3_document"]);
    expect(failed[0]?.error).toMatch(/rm-conditions\/corrupt\.pdf is not a readable PDF/);
    const judged = run.evidence.find((e) => e.tool === "call_conditions_ai_api");
    expect(judged?.status).toBe("ok");
    const output = judged?.output as {
      documents: Array<{ document: string; status: string; reason: string }>;
    };
    expect(output.documents).toEqual([
      expect.objectContaining({ document: "rm-conditions/corrupt.pdf", status: "unreadable" }),
    ]);
    expect(output.documents[0]?.reason).toMatch(/corrupt\.pdf could not be read/);
    expect(run.result?.fulfilled_conditions).toEqual([]);
    expect(run.result?.unfulfilled_conditions.length).toBeGreaterThan(0);
    for (const condition of run.result?.unfulfilled_conditions ?? []) {
      expect(condition.status, condition.id).toBe("insufficient_evidence");
      expect(condition.reason, condition.id).toMatch(/corrupt\.pdf/);
    }
    expect(run.result?.missing_information.join("\n")).toMatch(/corrupt\.pdf/);
  });
});

describe("history and delivery", () => {
  it("answers from the history of finished evaluations when the instructions ask for it", async () => {
    await evaluate(taxReturnRequest(["rm-conditions/1120-unsigned.pdf"]));
    const run = await evaluate(
      taxReturnRequest(["rm-conditions/1120-signed.pdf"], {
        instructions: "Evaluate the conditions and compare with similar loans we evaluated before",
      }),
    );
    const history = run.evidence.find((e) => e.tool === "query_database");
    expect(history?.status).toBe("ok");
    const output = history?.output as {
      query: string;
      results: Array<{ run_id: string; unfulfilled: string[] }>;
    };
    expect(output.query).toBe("similar_loans");
    expect(output.results.length).toBeGreaterThanOrEqual(1);
    expect(output.results.some((r) => r.unfulfilled.includes("TR_SIGNED"))).toBe(true);
    expect(output.results.map((r) => r.run_id)).not.toContain(run.run_id);
  });

  it("counts how often each condition was not fulfilled, and says so plainly when there is no history", async () => {
    const tool = twin.services.tools.get("query_database");
    const context = {
      run_id: "adhoc",
      step_id: "E1",
      signal: new AbortController().signal,
      recordLlmUsage() {},
    };
    const counts = (await tool.run(
      {
        query: "condition_history",
        filters: { loan_program: "Flex Supreme", classification: "1120 Corporate Tax Return" },
      },
      context,
    )) as { results: Array<{ condition_id: string; not_fulfilled: number; evaluated: number }> };
    const signed = counts.results.find((r) => r.condition_id === "TR_SIGNED");
    expect(signed?.not_fulfilled).toBeGreaterThanOrEqual(1);
    expect(signed?.evaluated).toBeGreaterThan(signed?.not_fulfilled ?? 0);

    const empty = (await tool.run(
      {
        query: "similar_loans",
        filters: { loan_program: "Never Offered", classification: "Bank Statements" },
      },
      context,
    )) as { results: unknown[]; message: string };
    expect(empty.results).toEqual([]);
    expect(empty.message).toBe("No finished evaluations found for Never Offered / Bank Statements.");
  });

  it("writes the result to output_destination", async () => {
    const run = await evaluate(
      taxReturnRequest(["rm-conditions/1120-signed.pdf"], {
        output_destination: "s3://rewoo-artifacts/results/",
      }),
    );
    const written = (await twin.services.blobs.getJson(
      `s3://rewoo-artifacts/results/${run.run_id}.json`,
    )) as {
      run_id: string;
      result: unknown;
    };
    expect(written.run_id).toBe(run.run_id);
    expect(written.result).toEqual(run.result);
  });
});
