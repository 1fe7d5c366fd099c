// The labelled matrix of Form 1120 prints in layouts the engine was not written against: every TR_
// condition both ways on every layout, labels from how each file was generated.
import { describe, expect, it } from "vitest";
import type { LabelledCase } from "../../../examples/layouts/cases.ts";
import { FORM_1120_LAYOUTS, form1120Cases } from "../../../examples/layouts/form-1120.ts";
import type { Verdict } from "../../../lambdas/agents/loan/conditions-engine.ts";
import { type ExtractedDocument, extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { taxReturnExtraction } from "../../../lambdas/agents/loan/tax-return.ts";
import { evaluate } from "./fixtures.ts";

const TR_CONDITIONS = ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"];

interface Judged {
  labelled: LabelledCase;
  documents: ExtractedDocument[];
  verdicts: Map<string, Verdict>;
}

const judged: Promise<Judged[]> = (async () => {
  const cases = await form1120Cases();
  return Promise.all(
    cases.map(async (labelled) => {
      const documents = await Promise.all(
        labelled.documents.map((document) => extractPdfText(document.bytes, document.key)),
      );
      // evaluate() also checks that every citation's excerpt is on the page it names.
      return { labelled, documents, verdicts: evaluate(labelled.metadata, documents) };
    }),
  );
})();

function slug(labelled: LabelledCase): string {
  return labelled.description.split(":")[0] ?? labelled.description;
}

describe("Form 1120 prints in layouts the engine was not written against", () => {
  it("labels every TR_ condition fulfilled and not fulfilled on every layout", async () => {
    const cases = (await judged).map((entry) => entry.labelled);
    expect([...new Set(cases.map((labelled) => labelled.layout))]).toEqual(FORM_1120_LAYOUTS);
    expect(FORM_1120_LAYOUTS.length).toBeGreaterThanOrEqual(4);
    for (const layout of FORM_1120_LAYOUTS) {
      const labels = cases
        .filter((labelled) => labelled.layout === layout)
        .map((labelled) => labelled.labels);
      for (const condition of TR_CONDITIONS) {
        const seen = new Set(labels.map((label) => label[condition]));
        expect(seen.has("fulfilled"), `${layout} ${condition} fulfilled`).toBe(true);
        expect(seen.has("not_fulfilled"), `${layout} ${condition} not_fulfilled`).toBe(true);
      }
    }
  });

  it.each(FORM_1120_LAYOUTS)("%s: every labelled verdict is right", async (layout) => {
    const entries = (await judged).filter((entry) => entry.labelled.layout === layout);
    expect(entries.length).toBeGreaterThanOrEqual(4);
    for (const { labelled, verdicts } of entries) {
      for (const [condition, label] of Object.entries(labelled.labels)) {
        const verdict = verdicts.get(condition);
        expect
          .soft(verdict?.status, `${layout} ${slug(labelled)} ${condition}: ${verdict?.reason}`)
          .toBe(label);
      }
    }
  });

  it("never says fulfilled when the truth is otherwise, and every fulfilled verdict cites its page", async () => {
    const falseFulfilled: string[] = [];
    let fulfilled = 0;
    for (const { labelled, documents, verdicts } of await judged) {
      for (const [condition, label] of Object.entries(labelled.labels)) {
        const verdict = verdicts.get(condition);
        if (verdict?.status !== "fulfilled") continue;
        if (label !== "fulfilled") falseFulfilled.push(`${labelled.layout} ${slug(labelled)} ${condition}`);
        fulfilled++;
        expect(verdict.citations.length, `${labelled.layout} ${condition}`).toBeGreaterThan(0);
        for (const citation of verdict.citations) {
          const page = documents.find((document) => document.document === citation.document)?.pages[
            citation.page - 1
          ];
          expect(
            page,
            `${labelled.layout} ${condition} cites ${citation.document}#${citation.page}`,
          ).toContain(citation.excerpt);
        }
      }
    }
    expect(falseFulfilled).toEqual([]);
    expect(fulfilled).toBeGreaterThan(20);
  });
});

describe("the extraction report of each layout's signed, complete print", () => {
  // What each layout printed (examples/layouts/form-1120.ts), as the report should read it.
  const printed: Record<string, Record<string, string>> = {
    "1120-software-header-table": {
      corporation_name: "ACME WIDGETS INC",
      ein: "12-3456789",
      tax_year: "2024",
      officer_signature: "Robert J. Tanner",
      signature_date: "2025-03-10",
      officer_title: "President",
    },
    "1120-irs-split-labels": {
      corporation_name: "Acme Widgets Incorporated",
      ein: "12-3456789",
      tax_year: "2024",
      officer_signature: "Robert J. Tanner",
      signature_date: "2025-03-10",
      officer_title: "Treasurer",
    },
    "1120-signature-table-script": {
      corporation_name: "ACME WIDGETS CORP.",
      ein: "12-3456789",
      tax_year: "2024",
      officer_signature: "Robert J. Tanner",
      signature_date: "2025-03-10",
      officer_title: "Chief Financial Officer",
    },
    "1120-fiscal-e-signature": {
      corporation_name: "ACME WIDGETS, INCORPORATED",
      ein: "12-3456789",
      tax_year: "2024",
      tax_year_end: "2025-06-30",
      officer_signature: "Robert J. Tanner",
      signature_date: "2025-09-12",
      officer_title: "Chief Executive Officer",
    },
  };

  it.each(FORM_1120_LAYOUTS)("%s: every field found, its excerpt on its page", async (layout) => {
    const entry = (await judged).find(
      (candidate) => candidate.labelled.layout === layout && slug(candidate.labelled) === "signed-complete",
    );
    const document = entry?.documents[0];
    if (!document) throw new Error(`no signed-complete case for ${layout}`);
    const report = taxReturnExtraction(document);
    expect(report?.kind).toBe("form_1120");
    const values = Object.fromEntries((report?.fields ?? []).map((field) => [field.field, field.value]));
    expect(values).toMatchObject({
      ...printed[layout],
      page_one: "Form 1120 page 1",
      schedule_l: "Schedule L",
    });
    for (const field of report?.fields ?? []) {
      expect(field.found, `${layout} ${field.field}: ${field.note}`).toBe(true);
      expect(document.pages[(field.page ?? 0) - 1], `${layout} ${field.field}`).toContain(field.excerpt);
      expect(field.confidence).toBeGreaterThan(0.5);
    }
  });

  it("says, for the unsigned print, which box is blank and reads no preparer's value as the officer's", async () => {
    const entry = (await judged).find(
      (candidate) =>
        candidate.labelled.layout === "1120-signature-table-script" &&
        slug(candidate.labelled) === "unsigned-other-corporation",
    );
    const report = entry?.documents[0] ? taxReturnExtraction(entry.documents[0]) : null;
    const byName = new Map((report?.fields ?? []).map((field) => [field.field, field]));
    expect(byName.get("officer_signature")).toEqual({
      field: "officer_signature",
      found: false,
      note: `the "Signature of officer" box of the "Sign Here" block on page 1 of layouts/1120-signature-table-script/unsigned-other-corporation.pdf is blank`,
    });
    expect(byName.get("signature_date")?.found).toBe(false);
    expect(byName.get("ein")?.value).toBe("12-3456780");
    expect(byName.get("schedule_l")).toMatchObject({ found: false });
    expect(byName.get("schedule_l")?.note).toContain("could not locate Schedule L in pages 1, 2 of");
  });
});
