import { describe, expect, it } from "vitest";
import { buildForm1120, buildScannedPdf, buildTextPdf } from "../../../examples/samples.ts";
import type { AssistedField } from "../../../lambdas/agents/loan/extraction.ts";
import type { ExtractedDocument } from "../../../lambdas/agents/loan/pdf-text.ts";
import { evaluateEin, taxReturnExtraction } from "../../../lambdas/agents/loan/tax-return.ts";
import type { EvaluationContext } from "../../../lambdas/agents/loan/verdict.ts";
import { evaluate, pdf, sample, TAX_METADATA, verdictOf } from "./fixtures.ts";

const withEntities = (entities: Record<string, unknown>) => ({
  ...TAX_METADATA,
  extracted_entities: entities,
});
const withBusiness = (business_name: string) => ({
  ...TAX_METADATA,
  borrower_info: { ...TAX_METADATA.borrower_info, business_name },
});

/** A return typed by tax software with inline "Label: value" fields instead of the IRS layout. */
function compactReturn(lines: {
  signature?: string;
  date?: string;
  year?: string;
  ein?: string;
  name?: string;
}) {
  return buildTextPdf([
    [
      "FORM 1120  -  U.S. CORPORATION INCOME TAX RETURN",
      lines.year ?? "Tax year beginning 07/01/2024, ending 06/30/2025",
      `Name of corporation: ${lines.name ?? "ACME WIDGETS CORPORATION"}`,
      `EIN: ${lines.ein ?? "12-3456789"}`,
      "Taxable income  268,850",
      "SIGN HERE",
      `Signature of officer: ${lines.signature ?? "/s/ Robert J. Tanner"}    Date: ${lines.date ?? "March 10, 2025"}    Title: President`,
    ],
    ["Form 1120 (2024)  Page 6", "SCHEDULE L - BALANCE SHEETS PER BOOKS", "Total assets  1,284,500"],
  ]);
}

describe("TR_SIGNED", () => {
  it("is fulfilled when the Sign Here block carries the officer's name and a date", async () => {
    const verdict = verdictOf(evaluate(TAX_METADATA, await sample("1120-signed.pdf")), "TR_SIGNED");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toBe(
      'rm-conditions/1120-signed.pdf page 1 "Sign Here" block is signed by Robert J. Tanner (President) and dated 03/10/2025',
    );
    expect(verdict.citations).toHaveLength(1);
    expect(verdict.citations[0]).toMatchObject({ document: "rm-conditions/1120-signed.pdf", page: 1 });
    expect(verdict.citations[0]?.excerpt).toContain("Robert J. Tanner  03/10/2025");
    expect(verdict.citations[0]?.excerpt).toContain("Signature of officer");
  });

  it("is not fulfilled when signature and date are blank, even though the preparer signed and dated below", async () => {
    const verdict = verdictOf(evaluate(TAX_METADATA, await sample("1120-unsigned.pdf")), "TR_SIGNED");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("the signature of officer is blank and the date is blank");
    expect(verdict.reason).not.toContain("03/08/2025");
    expect(verdict.citations[0]).toMatchObject({ document: "rm-conditions/1120-unsigned.pdf", page: 1 });
    expect(verdict.citations[0]?.excerpt).toContain("Signature of officer");
  });

  it("is not fulfilled when only the date is missing, naming the signer", async () => {
    const document = await pdf(await buildForm1120({ signDate: "" }), "no-date.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_SIGNED");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("the date is blank (signer: Robert J. Tanner)");
  });

  it("reads inline 'Signature of officer: … Date: …' layouts both ways", async () => {
    const signed = await pdf(await compactReturn({}), "compact.pdf");
    const ok = verdictOf(evaluate(TAX_METADATA, [signed]), "TR_SIGNED");
    expect(ok.status).toBe("fulfilled");
    expect(ok.reason).toContain("signed by Robert J. Tanner (President) and dated March 10, 2025");

    const blank = await pdf(await compactReturn({ signature: "________", date: "" }), "compact-blank.pdf");
    const not = verdictOf(evaluate(TAX_METADATA, [blank]), "TR_SIGNED");
    expect(not.status).toBe("not_fulfilled");
    expect(not.reason).toContain("the signature of officer is blank and the date is blank");
  });

  it("is insufficient evidence when the files hold no Sign Here block", async () => {
    const document = await pdf(await buildForm1120({ includePageOne: false }), "schedules.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_SIGNED");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain('no "Sign Here" block');
  });
});

describe("TR_TAX_YEAR", () => {
  it("is fulfilled when 'For calendar year' equals extracted_entities.tax_year", async () => {
    const verdict = verdictOf(evaluate(TAX_METADATA, await sample("1120-signed.pdf")), "TR_TAX_YEAR");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toContain("shows tax year 2024, equal to the expected 2024");
    expect(verdict.citations[0]?.excerpt).toContain("For calendar year 2024");
  });

  it("is not fulfilled when the return is for another year", async () => {
    const document = await pdf(await buildForm1120({ taxYear: 2023 }), "1120-2023.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_TAX_YEAR");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toBe(
      '1120-2023.pdf page 1 ("For calendar year") shows tax year 2023; expected 2024 (extracted_entities.tax_year)',
    );
    expect(verdict.citations[0]?.excerpt).toContain("For calendar year 2023");
  });

  it("without tax_year in metadata, accepts one of the two most recent completed years before as_of_date", async () => {
    const metadata = withEntities({ ein: "12-3456789" });
    const recent = await pdf(await buildForm1120({ taxYear: 2023 }), "1120-2023.pdf");
    const ok = verdictOf(evaluate(metadata, [recent]), "TR_TAX_YEAR");
    expect(ok.status).toBe("fulfilled");
    expect(ok.reason).toContain(
      "the two most recent completed tax years before 2025-04-15 are 2024 and 2023",
    );

    const old = await pdf(await buildForm1120({ taxYear: 2022 }), "1120-2022.pdf");
    const not = verdictOf(evaluate(metadata, [old]), "TR_TAX_YEAR");
    expect(not.status).toBe("not_fulfilled");
    expect(not.reason).toContain("shows tax year 2022, but the two most recent completed tax years");
  });

  it("reads a fiscal year from 'tax year beginning'", async () => {
    const document = await pdf(await compactReturn({}), "fiscal.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_TAX_YEAR");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toContain('("tax year beginning") shows tax year 2024');
  });
});

describe("TR_EIN_MATCH", () => {
  it("is fulfilled when box B equals extracted_entities.ein", async () => {
    const verdict = verdictOf(evaluate(TAX_METADATA, await sample("1120-signed.pdf")), "TR_EIN_MATCH");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.observed).toEqual({ ein: "12-3456789" });
    expect(verdict.citations[0]?.excerpt).toContain("Employer identification number");
    expect(verdict.citations[0]?.excerpt).toContain("12-3456789");
  });

  it("never takes a number of the paid preparer's block, even where a scan lost its Firm's EIN caption", async () => {
    // The corporation's EIN box unread; the firm's EIN read, its caption misread ("Fimn's EIN").
    const document = await pdf(
      await buildTextPdf([
        [
          "Form 1120  U.S. Corporation Income Tax Return",
          "For calendar year 2024 or tax year beginning",
          "Name  Acme Widgets, Inc.",
          "Sign Here  Robert J. Tanner  03/10/2025  President",
          "Signature of officer  Date  Title",
          "Paid Preparer Use Only  Print/Type preparer's name  Kevin Marsh, CPA",
          "Fimn's EIN  01-0587342",
        ],
      ]),
      "rm/photo.pdf",
    );
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_EIN_MATCH");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain("could not locate the EIN in page 1 of rm/photo.pdf");
  });

  it("is not fulfilled when the EIN differs, and never takes the preparer firm's EIN", async () => {
    const document = await pdf(await buildForm1120({ ein: "12-3456780" }), "other-ein.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_EIN_MATCH");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toBe(
      "other-ein.pdf page 1 shows employer identification number 12-3456780; metadata expects 12-3456789",
    );
    const firm = verdictOf(
      evaluate(withEntities({ ein: "98-7654321", tax_year: 2024 }), await sample("1120-signed.pdf")),
      "TR_EIN_MATCH",
    );
    expect(firm.status).toBe("not_fulfilled");
    expect(firm.observed).toEqual({ ein: "12-3456789" });
  });

  it("reads an inline 'EIN:' label", async () => {
    const document = await pdf(await compactReturn({ ein: "12-3456789" }), "compact.pdf");
    expect(verdictOf(evaluate(TAX_METADATA, [document]), "TR_EIN_MATCH").status).toBe("fulfilled");
  });

  it("is insufficient evidence without an EIN in metadata, saying so", async () => {
    const verdict = verdictOf(
      evaluate(withEntities({ tax_year: 2024 }), await sample("1120-signed.pdf")),
      "TR_EIN_MATCH",
    );
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toBe(
      "no EIN in metadata (extracted_entities.ein): cannot verify TR_EIN_MATCH (the return shows 12-3456789)",
    );
  });
});

describe("TR_NAME_MATCH", () => {
  it("is fulfilled ignoring case, punctuation and how the corporation's designator is written", async () => {
    const [signed] = await sample("1120-signed.pdf");
    for (const name of [
      "Acme Widgets Inc",
      "ACME WIDGETS INCORPORATED",
      "acme widgets, inc.",
      "The Acme Widgets Inc.",
      "ACME WIDGETS CORPORATION",
      "Acme Widgets Co.",
      "Acme Widgets",
    ]) {
      const verdict = verdictOf(evaluate(withBusiness(name), signed ? [signed] : []), "TR_NAME_MATCH");
      expect(verdict.status, name).toBe("fulfilled");
      expect(verdict.observed).toEqual({ corporation_name: "Acme Widgets, Inc." });
    }
  });

  it.each([
    ["acme widgets, llc", "LLC"],
    ["Acme Widgets Limited Liability Company", "LLC"],
    ["Acme Widgets LP", "LP"],
    ["Acme Widgets L.L.P.", "LLP"],
    ["Acme Widgets PLLC", "PLLC"],
  ])(
    "is not fulfilled for %s: the same name, another kind of entity, named in the reason",
    async (name, type) => {
      const [signed] = await sample("1120-signed.pdf");
      const verdict = verdictOf(evaluate(withBusiness(name), signed ? [signed] : []), "TR_NAME_MATCH");
      expect(verdict.status).toBe("not_fulfilled");
      expect(verdict.reason).toBe(
        `rm-conditions/1120-signed.pdf page 1 names the corporation "Acme Widgets, Inc.", which does not match "${name}" (borrower_info.business_name): the same name with another entity type (Inc. on the return, ${type} in the file), a different legal entity`,
      );
      expect(verdict.citations[0]?.excerpt).toContain("Acme Widgets, Inc.");
    },
  );

  it("is not fulfilled when the corporation on the return is another one", async () => {
    const document = await pdf(await buildForm1120({ corporationName: "Acme Gadgets, Inc." }), "gadgets.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_NAME_MATCH");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toBe(
      'gadgets.pdf page 1 names the corporation "Acme Gadgets, Inc.", which does not match "Acme Widgets Inc" (borrower_info.business_name)',
    );
    expect(verdict.citations[0]?.excerpt).toContain("Acme Gadgets, Inc.");
  });

  it("reads 'Name of corporation:' inline", async () => {
    const document = await pdf(await compactReturn({}), "compact.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_NAME_MATCH");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.observed).toEqual({ corporation_name: "ACME WIDGETS CORPORATION" });
  });
});

describe("TR_COMPLETE", () => {
  it("is fulfilled with page 1 and Schedule L, citing both pages", async () => {
    const verdict = verdictOf(evaluate(TAX_METADATA, await sample("1120-signed.pdf")), "TR_COMPLETE");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.citations.map((c) => [c.page, c.excerpt])).toEqual([
      [1, "Form 1120  U.S. Corporation Income Tax Return  OMB No. 1545-0123"],
      [3, "Schedule L Balance Sheets per Books"],
    ]);
  });

  it("is not fulfilled without Schedule L (a mention of 'Schedules L, M-1' does not count)", async () => {
    const document = await pdf(await buildForm1120({ includeScheduleL: false }), "page1-only.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_COMPLETE");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("Schedule L (Balance Sheets per Books) missing from page1-only.pdf");
    expect(verdict.citations[0]).toMatchObject({ document: "page1-only.pdf", page: 1 });
  });

  it("is not fulfilled without page 1", async () => {
    const document = await pdf(await buildForm1120({ includePageOne: false }), "schedules.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_COMPLETE");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("Form 1120 page 1 missing");
    expect(verdict.citations[0]).toMatchObject({ document: "schedules.pdf", page: 2 });
  });

  it("is not fulfilled for documents that are not a tax return at all", async () => {
    const verdict = verdictOf(evaluate(TAX_METADATA, await sample("statement-2025-01.pdf")), "TR_COMPLETE");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("Form 1120 page 1 and Schedule L (Balance Sheets per Books) missing");
  });
});

describe("a return split in two files", () => {
  it("evaluates every condition across both files", async () => {
    const first = await pdf(await buildForm1120({ includeScheduleL: false }), "return-part-1.pdf");
    const second = await pdf(await buildForm1120({ includePageOne: false }), "return-part-2.pdf");
    const verdicts = evaluate(TAX_METADATA, [first, second]);
    for (const verdict of verdicts.values()) expect(verdict.status, verdict.condition_id).toBe("fulfilled");
    expect(verdictOf(verdicts, "TR_COMPLETE").citations.map((c) => `${c.document}#${c.page}`)).toEqual([
      "return-part-1.pdf#1",
      "return-part-2.pdf#2",
    ]);
  });

  it("does not call a part missing when a scanned file could hold it", async () => {
    const first = await pdf(await buildForm1120({ includeScheduleL: false }), "return-part-1.pdf");
    const scanned = await pdf(await buildScannedPdf(), "return-part-2-scan.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [first, scanned]), "TR_COMPLETE");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain("return-part-2-scan.pdf has no text layer");
  });
});

describe("other return layouts", () => {
  it("reads the name beside its label and a signature and date typed in one column", async () => {
    const bytes = await buildTextPdf([
      [
        [
          [50, "Form 1120"],
          [200, "U.S. Corporation Income Tax Return"],
        ],
        [[200, "For calendar year 2024 or tax year beginning"]],
        [
          [50, "Name"],
          [90, "Acme Widgets, Inc."],
          [380, "B Employer identification number"],
          [520, "12-3456789"],
        ],
        [
          [50, "Sign"],
          [90, "Under penalties of perjury, I declare ..."],
        ],
        [
          [50, "Here"],
          [90, "/s/ Robert Tanner 03/10/2025"],
          [380, "CEO"],
        ],
        [
          [90, "Signature of officer"],
          [300, "Date"],
          [380, "Title"],
        ],
      ],
    ]);
    const verdicts = evaluate(TAX_METADATA, [await pdf(bytes, "typed.pdf")]);
    expect(verdictOf(verdicts, "TR_SIGNED").reason).toContain(
      "signed by Robert Tanner (CEO) and dated 03/10/2025",
    );
    expect(verdictOf(verdicts, "TR_NAME_MATCH").status).toBe("fulfilled");
    expect(verdictOf(verdicts, "TR_EIN_MATCH").status).toBe("fulfilled");
    expect(verdictOf(verdicts, "TR_TAX_YEAR").status).toBe("fulfilled");
  });
});

describe("header rows, firm headers and forms filed with the return", () => {
  /** Page 1 whose name box is a header table: headings on one row, the values on the next. */
  const headerTable = (headings: string[], values: string[], top: Array<Array<[number, string]>> = []) =>
    buildTextPdf([
      [
        ...top,
        [
          [50, "Form 1120"],
          [200, "U.S. Corporation Income Tax Return"],
        ],
        [[200, "For calendar year 2024 or tax year beginning"]],
        headings.map((text, index): [number, string] => [[50, 330, 470][index] ?? 50, text]),
        values.map((text, index): [number, string] => [[50, 330, 470][index] ?? 50, text]),
        [
          [50, "1a Gross receipts or sales"],
          [500, "2,450,000"],
        ],
        [
          [50, "30 Taxable income"],
          [500, "268,850"],
        ],
      ],
    ]);

  it("reads the name under 'Name' when the row beside it is a header row, not the heading beside it", async () => {
    const bytes = await headerTable(
      ["Name", "FEIN", "Date incorporated"],
      ["ACME WIDGETS INC", "12-3456789", "06/01/2009"],
    );
    const verdicts = evaluate(TAX_METADATA, [await pdf(bytes, "header-row.pdf")]);
    expect(verdictOf(verdicts, "TR_NAME_MATCH").status).toBe("fulfilled");
    expect(verdictOf(verdicts, "TR_NAME_MATCH").citations[0]?.excerpt).toContain("ACME WIDGETS INC");
    expect(verdictOf(verdicts, "TR_EIN_MATCH").status).toBe("fulfilled");
  });

  it("still reads a name beside its label when the next row is another label and value", async () => {
    const bytes = await buildTextPdf([
      [
        [
          [50, "Form 1120"],
          [200, "U.S. Corporation Income Tax Return"],
        ],
        [[200, "For calendar year 2024 or tax year beginning"]],
        [
          [50, "Name"],
          [120, "Acme Widgets"],
        ],
        [
          [50, "Address"],
          [120, "1250 Industrial Pkwy"],
        ],
        [
          [50, "1a Gross receipts or sales"],
          [500, "2,450,000"],
        ],
        [
          [50, "30 Taxable income"],
          [500, "268,850"],
        ],
      ],
    ]);
    const verdicts = evaluate(withBusiness("Acme Widgets"), [await pdf(bytes, "label-value.pdf")]);
    expect(verdictOf(verdicts, "TR_NAME_MATCH").status).toBe("fulfilled");
    const other = evaluate(withBusiness("Acme Gadgets"), [await pdf(bytes, "label-value.pdf")]);
    expect(verdictOf(other, "TR_NAME_MATCH").reason).toContain('"Acme Widgets"');
  });

  it("reads the EIN under an 'Identification number' heading, never a CPA firm's 'Firm EIN' page header", async () => {
    const top: Array<Array<[number, string]>> = [
      [
        [50, "BEACON & ROWE CPAs, PC"],
        [250, "Firm EIN 77-2345678"],
      ],
    ];
    const bytes = await headerTable(
      ["Name", "Identification number", "Date incorporated"],
      ["ACME WIDGETS INC", "12-3456780", "06/01/2009"],
      top,
    );
    const verdict = verdictOf(evaluate(TAX_METADATA, [await pdf(bytes, "firm-copy.pdf")]), "TR_EIN_MATCH");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("12-3456780");
    expect(verdict.reason).not.toContain("77-2345678");
  });

  it("does not take Form 8879-CORP, which copies page 1's totals, for page 1", async () => {
    const authorization = await buildTextPdf([
      [
        [
          [50, "Form 8879-CORP"],
          [200, "IRS e-file Authorization for Corporations"],
        ],
        [[200, "For calendar year 2024, or tax year beginning"]],
        [
          [50, "Name of corporation"],
          [330, "Employer identification number"],
        ],
        [
          [50, "ACME WIDGETS INC"],
          [330, "12-3456789"],
        ],
        [
          [50, "1 Total income (Form 1120, line 11)"],
          [500, "2,450,000"],
        ],
        [
          [50, "2 Taxable income (Form 1120, line 30)"],
          [500, "268,850"],
        ],
        [
          [50, "3 Total tax (Form 1120, line 31)"],
          [500, "56,459"],
        ],
      ],
      [
        "Schedule L  Balance Sheets per Books",
        [
          [50, "15 Total assets"],
          [500, "1,284,330"],
        ],
      ],
    ]);
    const document = await pdf(authorization, "8879-and-schedule-l.pdf");
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_COMPLETE");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toMatch(/page 1/i);
  });
});

describe("fields the finders cannot locate", () => {
  const AS_OF_DATE = { y: 2025, m: 4, d: 15 };
  /** A return typed by an unknown program: the EIN under a "Taxpayer ID" caption no finder knows. */
  const unknownLayout: ExtractedDocument = {
    document: "rm/return.pdf",
    page_count: 2,
    has_text_layer: true,
    pages: [
      "Form 1120  U.S. Corporation Income Tax Return\nFor calendar year 2024\nName  ACME WIDGETS INC\nTaxpayer ID  12 3456789\nGross receipts  2,450,000\nTaxable income  268,850",
      "Schedule L  Balance Sheets per Books\nTotal assets  1,284,500",
    ],
  };
  const context = (assisted: AssistedField[] = []): EvaluationContext => ({
    readable: [unknownLayout],
    unreadable: [],
    asOf: AS_OF_DATE,
    expected: { ein: "12-3456789" },
    assisted,
  });
  const modelEin = (value: string, excerpt = "Taxpayer ID  12 3456789"): AssistedField => ({
    document: "rm/return.pdf",
    field: "ein",
    value,
    page: 1,
    excerpt,
  });

  it("say which field could not be located and where the finders looked", () => {
    const verdict = evaluateEin(context());
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toBe(
      'could not locate the EIN in pages 1, 2 of rm/return.pdf: no "Employer identification number" (or "EIN") label with an NN-NNNNNNN value beside or under it, and no hyphenated EIN on page 1',
    );
    const report = taxReturnExtraction(unknownLayout);
    expect(report?.fields.find((field) => field.field === "ein")).toEqual({
      field: "ein",
      found: false,
      note: verdict.reason,
    });
    expect(report?.fields.find((field) => field.field === "corporation_name")).toMatchObject({
      found: true,
      value: "ACME WIDGETS INC",
      page: 1,
      excerpt: "Name  ACME WIDGETS INC",
      source: "label",
      confidence: 1,
    });
  });

  it("use a model-located EIN whose quote is on its page, citing that quote", () => {
    const verdict = evaluateEin(context([modelEin("12-3456789")]));
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.citations).toEqual([
      { document: "rm/return.pdf", page: 1, excerpt: "Taxpayer ID  12 3456789" },
    ]);
    expect(verdict.reason).toBe(
      'rm/return.pdf page 1 (located by the model: "Taxpayer ID  12 3456789") shows employer identification number 12-3456789, equal to the expected 12-3456789 (no label beside it; matched by value)',
    );
  });

  it("never let a model's value contradict the file on its own, nor use a quote that is not on the page", () => {
    const differs = evaluateEin(context([modelEin("98-7654321", "Taxpayer ID  12 3456789")]));
    expect(differs.status).toBe("insufficient_evidence");
    const otherEin = evaluateEin({
      ...context([modelEin("12-3456780", "ID  12 3456780")]),
      readable: [{ ...unknownLayout, pages: [`${unknownLayout.pages[0]}\nID  12 3456780`, ""] }],
    });
    expect(otherEin.status).toBe("insufficient_evidence");
    expect(otherEin.reason).toContain("differ from the expected 12-3456789: confirm the EIN by hand");
    const invented = evaluateEin(context([modelEin("12-3456789", "EIN 12-3456789")]));
    expect(invented.status).toBe("insufficient_evidence");
    expect(invented.reason).toContain("could not locate the EIN in pages 1, 2 of rm/return.pdf");
  });

  it("name the tax year and the signature when they cannot be located", async () => {
    const document = await pdf(
      await buildTextPdf([["Form 1120  U.S. Corporation Income Tax Return", "Name  Acme Widgets, Inc."]]),
      "rm/bare.pdf",
    );
    const verdicts = evaluate(TAX_METADATA, [document]);
    expect(verdictOf(verdicts, "TR_TAX_YEAR").reason).toBe(
      'could not locate the tax year in page 1 of rm/bare.pdf: no "For calendar year YYYY", "tax year beginning <date>", "Tax year ended <date>" or "Form 1120 (YYYY)"',
    );
    expect(verdictOf(verdicts, "TR_SIGNED").reason).toContain(
      `could not locate the officer's signature in page 1 of rm/bare.pdf: no "Sign Here" block`,
    );
  });
});

describe("layouts read without positions (text from elsewhere) and distractors", () => {
  const literal = (pages: string[]): ExtractedDocument => ({
    document: "rm/literal.pdf",
    page_count: pages.length,
    has_text_layer: true,
    pages,
  });

  it("reads a header table's values in the column under their headings", () => {
    const document = literal([
      [
        "Form 1120  U.S. Corporation Income Tax Return  2024",
        "Name of corporation  Employer identification number  Tax year ended",
        "ACME WIDGETS INC  12 3456789  06/30/2025",
        "Gross receipts or sales  2,450,000",
        "Taxable income  268,850",
      ].join("\n"),
    ]);
    const values = Object.fromEntries(
      (taxReturnExtraction(document)?.fields ?? []).map((field) => [
        field.field,
        [field.value, field.source],
      ]),
    );
    expect(values).toMatchObject({
      corporation_name: ["ACME WIDGETS INC", "table"],
      ein: ["12-3456789", "table"],
      tax_year: ["2024", "table"],
      tax_year_end: ["2025-06-30", "table"],
    });
  });

  it("reads dashed signature dates, en-dash EINs, a name one space after its label and Schedule L '(Form 1120)'", () => {
    const document = literal([
      [
        "Form 1120  U.S. Corporation Income Tax Return",
        "For calendar year 2024",
        "Name of corporation ACME WIDGETS INC",
        "Employer identification number  12\u20133456789",
        "Gross receipts  2,450,000",
        "Taxable income  268,850",
        "Sign Here  Under penalties of perjury, I declare that I have examined this return",
        "Robert J. Tanner  03-10-2025  Pres.",
        "Signature of officer  Date  Title",
      ].join("\n"),
      "SCHEDULE L (Form 1120) - BALANCE SHEETS PER BOOKS\nTotal assets  1,284,500",
    ]);
    const verdicts = evaluate(TAX_METADATA, [document]);
    for (const condition of ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"]) {
      expect(verdictOf(verdicts, condition).status, verdictOf(verdicts, condition).reason).toBe("fulfilled");
    }
    const fields = taxReturnExtraction(document)?.fields ?? [];
    expect(fields.find((field) => field.field === "signature_date")?.value).toBe("2025-03-10");
    expect(fields.find((field) => field.field === "officer_title")?.value).toBe("Pres.");
    expect(fields.find((field) => field.field === "corporation_name")?.value).toBe("ACME WIDGETS INC");
  });

  it("takes the title 'Balance Sheets per Books' for Schedule L on a page headed Form 1120, never on a 1120-S page", () => {
    // A scan loses the official form's white-on-black "Schedule L" label; its title and the running
    // header remain.
    const pageOne = [
      "Form 1120  U.S. Corporation Income Tax Return",
      "For calendar year 2024",
      "Name of corporation ACME WIDGETS INC",
      "Gross receipts  2,450,000",
      "Taxable income  268,850",
    ].join("\n");
    const balance = (header: string) =>
      `${header}\nBalance Sheets per Books  Beginning of tax year  End of tax year\n15 Total assets  1,284,500`;
    for (const [header, title] of [
      ["Form 1120 (2024)  Page 6", "Balance Sheets per Books"],
      ["Form 1120 202%)  Page6", "BalanceSheets per Books"],
      // A phone photo of the official form: "Page 6" read "Pan6", the title's first word lost.
      ["Form 1120 202%)  Pan6", "Sheets per Books"],
    ] as const) {
      const verdict = verdictOf(
        evaluate(TAX_METADATA, [
          literal([pageOne, balance(header).replace("Balance Sheets per Books", title)]),
        ]),
        "TR_COMPLETE",
      );
      expect(verdict.status, `${header}: ${verdict.reason}`).toBe("fulfilled");
      expect(verdict.citations.some((citation) => citation.excerpt.includes(title))).toBe(true);
    }
    const sCorporation = verdictOf(
      evaluate(TAX_METADATA, [literal([pageOne, balance("Form 1120-S (2024)  Page 5")])]),
      "TR_COMPLETE",
    );
    expect(sCorporation.status).not.toBe("fulfilled");
  });

  it("does not take a cover letter's 'Signature of officer' or Schedule L listing for the return's", () => {
    const cover = [
      "2024 Filing Instructions  U.S. Corporation Income Tax Return (Form 1120)",
      "Forms included:  Form 1120; Schedule L - Balance Sheets per Books",
      "Sign and date the return where indicated:",
      "Signature of officer  Date",
      "Mail to:  Internal Revenue Service Center, Ogden, UT 84201-0012",
    ].join("\n");
    const verdicts = evaluate(TAX_METADATA, [literal([cover])]);
    expect(verdictOf(verdicts, "TR_SIGNED").status).toBe("insufficient_evidence");
    expect(verdictOf(verdicts, "TR_COMPLETE").status).toBe("not_fulfilled");
    expect(verdictOf(verdicts, "TR_COMPLETE").reason).toContain(
      "Form 1120 page 1 and Schedule L (Balance Sheets per Books) missing",
    );
  });

  it("reads a scanned return whose OCR text layer breaks words with stray spaces", () => {
    const pageOne = [
      "Form 1120  U.S. Corpo ration Income Tax Return  2024",
      "For cale ndar year 2024 or tax year begi nning , 2024, ending , 20",
      "A Check if:  Name  B Empl oyer identification number",
      "Acme Widgets Inc  12-3456789",
      "1a  Gross rece ipts or sales  1,864,200",
      "28  Taxable income before NOL dedu ction and special deductions  149,100",
      "Sig n  Under pena lties of perjury, I declare that I have exam ined this return",
      "Here  and state ments, and to the best of my knowledge and belief, it is true.",
      "Marcus T. Webb  03/14/2025  President",
      "Sign ature of officer  Date  Title",
      "Paid  Print /Type preparer's name  Prepa rer's signature  Date  PTIN",
    ].join("\n");
    const schedules = [
      "Form 1120 (2024)  Page 6",
      "Sche dule L Balance Sheets per Books",
      "Begi nning of tax year  End of tax year",
      "15  Total assets  609,954  676,495",
    ].join("\n");
    const verdicts = evaluate(TAX_METADATA, [literal([pageOne, schedules])]);
    expect(verdictOf(verdicts, "TR_SIGNED").status).toBe("fulfilled");
    expect(verdictOf(verdicts, "TR_SIGNED").reason).toContain("Marcus T. Webb");
    expect(verdictOf(verdicts, "TR_COMPLETE").status).toBe("fulfilled");

    const unsigned = pageOne.replace("Marcus T. Webb  03/14/2025  President\n", "");
    const onlyM2 = [
      "Form 1120 (2024)  Page 6",
      "Sche dule M-2 Anal ysis of Unappropriated Retained Earnings per Books (Sche dule L, Line 25)",
      "1  Balance at beginning of year  541,744",
    ].join("\n");
    const incomplete = evaluate(TAX_METADATA, [literal([unsigned, onlyM2])]);
    expect(verdictOf(incomplete, "TR_SIGNED").status).toBe("not_fulfilled");
    expect(verdictOf(incomplete, "TR_COMPLETE").status).toBe("not_fulfilled");
    expect(verdictOf(incomplete, "TR_COMPLETE").reason).toContain(
      "Schedule L (Balance Sheets per Books) missing",
    );
  });

  it("never reads the parent corporation's EIN in Schedule K as the corporation's", () => {
    const document = literal([
      "Form 1120  U.S. Corporation Income Tax Return\nFor calendar year 2024\nGross receipts  1\nTaxable income  1",
      'Schedule K  Other Information\nIf "Yes," enter name and EIN of the parent corporation  TANNER HOLDINGS LLC  45-6789012',
    ]);
    const verdict = verdictOf(evaluate(TAX_METADATA, [document]), "TR_EIN_MATCH");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).not.toContain("45-6789012");
  });
});
