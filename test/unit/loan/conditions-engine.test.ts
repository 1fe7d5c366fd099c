import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { buildForm1120 } from "../../../examples/samples.ts";
import { evaluateConditions } from "../../../lambdas/agents/loan/conditions-engine.ts";
import { extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { predictConditions } from "../../../lambdas/agents/loan/preconditions.ts";
import {
  AS_OF,
  BANK_METADATA,
  evaluate,
  expectValidCitations,
  extractedSamples,
  sample,
  TAX_METADATA,
  verdictOf,
} from "./fixtures.ts";

const ALL_IDS = [
  "TR_SIGNED",
  "TR_TAX_YEAR",
  "TR_EIN_MATCH",
  "TR_NAME_MATCH",
  "TR_COMPLETE",
  "BS_TWO_MONTHS",
  "BS_NAME_MATCH",
  "BS_SAME_ACCOUNT",
  "BS_NO_NSF",
  "BS_LARGE_DEPOSITS",
];

describe("evaluateConditions", () => {
  it("returns one verdict per condition with title and compartment from the catalog", async () => {
    const verdicts = evaluate(TAX_METADATA, await sample("1120-signed.pdf"));
    expect([...verdicts.keys()]).toEqual([
      "TR_SIGNED",
      "TR_TAX_YEAR",
      "TR_EIN_MATCH",
      "TR_NAME_MATCH",
      "TR_COMPLETE",
    ]);
    expect(verdictOf(verdicts, "TR_SIGNED")).toMatchObject({
      condition_id: "TR_SIGNED",
      title: "Tax return signed and dated by an officer",
      compartment: "Compliance",
      status: "fulfilled",
    });
  });

  it("accepts bare ids; checks that need metadata are insufficient evidence naming it", async () => {
    const documents = await sample("1120-signed.pdf");
    const { verdicts } = evaluateConditions(["TR_SIGNED", "tr_ein_match", "TR_NAME_MATCH"], documents, {
      asOf: AS_OF,
    });
    expectValidCitations(verdicts, documents);
    expect(verdicts.map((v) => [v.condition_id, v.status])).toEqual([
      ["TR_SIGNED", "fulfilled"],
      ["TR_EIN_MATCH", "insufficient_evidence"],
      ["TR_NAME_MATCH", "insufficient_evidence"],
    ]);
    expect(verdicts[1]?.reason).toContain("no EIN in metadata (extracted_entities.ein)");
    expect(verdicts[2]?.reason).toContain("no business name in metadata (borrower_info.business_name)");
  });

  it("uses today (options.asOf) for a bare TR_TAX_YEAR and BS_TWO_MONTHS", async () => {
    const documents = await sample("1120-signed.pdf", "statement-2025-01.pdf", "statement-2025-02.pdf");
    const { verdicts } = evaluateConditions(
      [{ condition_id: "TR_TAX_YEAR" }, { id: "BS_TWO_MONTHS" }],
      documents,
      {
        asOf: new Date("2025-03-20T00:00:00Z"),
      },
    );
    expect(verdicts.map((v) => v.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(verdicts[0]?.reason).toContain("before 2025-03-20 are 2024 and 2023");
  });

  it("answers insufficient_evidence 'no text layer' for every condition over scanned documents", async () => {
    const documents = await sample("scanned.pdf");
    const { verdicts } = evaluateConditions(ALL_IDS, documents, { asOf: AS_OF });
    expect(verdicts).toHaveLength(10);
    for (const verdict of verdicts) {
      expect(verdict.status).toBe("insufficient_evidence");
      expect(verdict.reason).toContain("rm-conditions/scanned.pdf has no text layer");
      expect(verdict.citations).toEqual([]);
    }
  });

  it("reports unknown conditions and missing documents as insufficient evidence", async () => {
    const { verdicts } = evaluateConditions(["W2_MATCH"], await sample("1120-signed.pdf"));
    expect(verdicts[0]).toMatchObject({
      condition_id: "W2_MATCH",
      compartment: "Unknown",
      status: "insufficient_evidence",
    });
    expect(verdicts[0]?.reason).toContain(
      "unknown condition W2_MATCH: not in the condition catalog (known: TR_SIGNED,",
    );
    const empty = evaluateConditions(["TR_SIGNED"], []);
    expect(empty.verdicts[0]?.reason).toBe("no documents were provided to evaluate TR_SIGNED");
  });

  it("picks the relevant documents out of a mixed upload", async () => {
    const documents = await sample("statement-2025-01.pdf", "1120-signed.pdf", "statement-2025-02.pdf");
    const tax = evaluate(TAX_METADATA, documents);
    for (const verdict of tax.values()) expect(verdict.status, verdict.condition_id).toBe("fulfilled");
    const bank = evaluate(BANK_METADATA, documents);
    for (const verdict of bank.values()) expect(verdict.status, verdict.condition_id).toBe("fulfilled");
  });

  it("never cites a page that does not contain the excerpt, over every sample and combination", async () => {
    const all = await extractedSamples();
    const documents = [...all.values()];
    const combinations = [
      ...documents.map((document) => [document]),
      documents.filter((d) => d.document.includes("statement")),
      documents,
    ];
    for (const combination of combinations) {
      for (const metadata of [TAX_METADATA, BANK_METADATA]) {
        const conditions = predictConditions(metadata).conditions;
        const { verdicts } = evaluateConditions(conditions, combination, { asOf: AS_OF });
        expect(verdicts).toHaveLength(5);
        expectValidCitations(verdicts, combination);
      }
    }
  });
});

describe("a text PDF with a scanned page", () => {
  it("does not conclude absence over the textless page", async () => {
    const pdf = await PDFDocument.load(await buildForm1120({ includeScheduleL: false }));
    pdf.addPage([612, 792]).drawRectangle({ x: 40, y: 40, width: 500, height: 700 });
    const document = await extractPdfText(await pdf.save(), "with-scan.pdf");
    const verdicts = evaluate(TAX_METADATA, [document]);
    expect(verdictOf(verdicts, "TR_SIGNED").status).toBe("fulfilled");
    const complete = verdictOf(verdicts, "TR_COMPLETE");
    expect(complete.status).toBe("insufficient_evidence");
    expect(complete.reason).toContain("with-scan.pdf (page 2) has no text layer");
  });
});
