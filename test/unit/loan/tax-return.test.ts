import { describe, expect, it } from "vitest";
import { buildForm1120, buildScannedPdf, buildTextPdf } from "../../../examples/samples.ts";
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
  it("is fulfilled ignoring case, punctuation and legal suffixes", async () => {
    const [signed] = await sample("1120-signed.pdf");
    for (const name of [
      "Acme Widgets Inc",
      "ACME WIDGETS CORPORATION",
      "acme widgets, llc",
      "Acme Widgets",
    ]) {
      const verdict = verdictOf(evaluate(withBusiness(name), signed ? [signed] : []), "TR_NAME_MATCH");
      expect(verdict.status, name).toBe("fulfilled");
      expect(verdict.observed).toEqual({ corporation_name: "Acme Widgets, Inc." });
    }
  });

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
