// No condition is judged on a document of another kind: a Form 1120-S is not a complete Form 1120
// for all its Schedule L, a Form 1120 sent as bank statements is named as the tax return it is,
// and each such document says what it is in the engine's report.
import { describe, expect, it } from "vitest";
import { buildForm1120 } from "../../../examples/samples.ts";
import { evaluateConditions } from "../../../lambdas/agents/loan/conditions-engine.ts";
import { predictConditions } from "../../../lambdas/agents/loan/preconditions.ts";
import {
  AS_OF,
  BANK_METADATA,
  evaluate,
  expectValidCitations,
  pdf,
  sample,
  TAX_METADATA,
  verdictOf,
} from "./fixtures.ts";

const S_CORPORATION = "a Form 1120-S (U.S. Income Tax Return for an S Corporation)";

describe("a document of another kind than the conditions are judged on", () => {
  it("finds a Form 1120-S sent for a Form 1120 not complete, saying what it is, and fulfils nothing", async () => {
    const document = await pdf(await buildForm1120({ form: "1120-S" }), "rm/1120s-signed.pdf");
    const verdicts = evaluate(TAX_METADATA, [document]);
    const complete = verdictOf(verdicts, "TR_COMPLETE");
    expect(complete.status).toBe("not_fulfilled");
    expect(complete.reason).toContain(`rm/1120s-signed.pdf is ${S_CORPORATION}, not a Form 1120`);
    expect(complete.citations).toEqual([
      {
        document: "rm/1120s-signed.pdf",
        page: 1,
        excerpt: "Form 1120-S  U.S. Income Tax Return for an S Corporation  OMB No. 1545-0123",
      },
    ]);
    expect(complete.remedies?.join("\n")).toContain("Provide the borrower's Form 1120");
    // Signed, for 2024, with the expected EIN and name: all of it on the wrong form.
    for (const id of ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH"]) {
      const verdict = verdictOf(verdicts, id);
      expect(verdict.status, id).toBe("insufficient_evidence");
      expect(verdict.reason, id).toContain(`rm/1120s-signed.pdf is ${S_CORPORATION}, not a Form 1120`);
    }
  });

  it("reports what the document is, with the page and text that show it, and that nothing was judged on it", async () => {
    const document = await pdf(await buildForm1120({ form: "1120-S" }), "rm/1120s-signed.pdf");
    const conditions = predictConditions(TAX_METADATA, { asOf: AS_OF }).conditions;
    const { documents } = evaluateConditions(conditions, [document], { asOf: AS_OF });
    expect(documents).toEqual([
      {
        document: "rm/1120s-signed.pdf",
        status: "read",
        page_count: 3,
        identification: {
          kind: "form_1120s",
          description: S_CORPORATION,
          page: 1,
          excerpt: "Form 1120-S  U.S. Income Tax Return for an S Corporation  OMB No. 1545-0123",
        },
        kind_note: `rm/1120s-signed.pdf is ${S_CORPORATION}, not a Form 1120: no condition was judged on it`,
      },
    ]);
  });

  it("names a Form 1120 sent as bank statements as the tax return it is, in every verdict", async () => {
    const documents = await sample("1120-signed.pdf");
    const conditions = predictConditions(BANK_METADATA, { asOf: AS_OF }).conditions;
    const result = evaluateConditions(conditions, documents, { asOf: AS_OF });
    expectValidCitations(result.verdicts, documents);
    expect(result.verdicts).toHaveLength(5);
    for (const verdict of result.verdicts) {
      expect(verdict.status, verdict.condition_id).toBe("insufficient_evidence");
      expect(verdict.reason, verdict.condition_id).toContain(
        "rm-conditions/1120-signed.pdf is a Form 1120 (U.S. Corporation Income Tax Return), not a bank statement",
      );
      expect(verdict.remedies?.[0], verdict.condition_id).toMatch(
        /^Provide a bank statement of the borrower/,
      );
    }
    expect(result.documents?.[0]?.identification?.kind).toBe("form_1120");
    expect(result.documents?.[0]?.kind_note).toBe(
      "rm-conditions/1120-signed.pdf is a Form 1120 (U.S. Corporation Income Tax Return), not a bank statement: no condition was judged on it",
    );
  });

  it("judges the Form 1120 of a request that also holds a Form 1120-S, and notes the 1120-S", async () => {
    const return1120 = await sample("1120-signed.pdf");
    const sCorporation = await pdf(await buildForm1120({ form: "1120-S" }), "rm/1120s-signed.pdf");
    const documents = [...return1120, sCorporation];
    const verdicts = evaluate(TAX_METADATA, documents);
    for (const verdict of verdicts.values()) {
      expect(verdict.status, verdict.condition_id).toBe("fulfilled");
      for (const citation of verdict.citations)
        expect(citation.document).toBe("rm-conditions/1120-signed.pdf");
    }
    const conditions = predictConditions(TAX_METADATA, { asOf: AS_OF }).conditions;
    const reports = evaluateConditions(conditions, documents, { asOf: AS_OF }).documents ?? [];
    expect(reports.map((report) => report.kind_note ?? null)).toEqual([
      null,
      `rm/1120s-signed.pdf is ${S_CORPORATION}, not a Form 1120: no condition was judged on it`,
    ]);
  });

  it("leaves a mixed upload's return and statements to their own conditions, with no note", async () => {
    const documents = await sample("statement-2025-01.pdf", "1120-signed.pdf", "statement-2025-02.pdf");
    const all = [
      ...predictConditions(TAX_METADATA, { asOf: AS_OF }).conditions,
      ...predictConditions(BANK_METADATA, { asOf: AS_OF }).conditions,
    ];
    const result = evaluateConditions(all, documents, { asOf: AS_OF });
    for (const verdict of result.verdicts) expect(verdict.status, verdict.condition_id).toBe("fulfilled");
    expect(result.documents?.map((report) => report.identification?.kind)).toEqual([
      "bank_statement",
      "form_1120",
      "bank_statement",
    ]);
    expect(result.documents?.some((report) => report.kind_note)).toBe(false);
  });
});
