// Form 1120 captions and the Sign Here block as scans and photos read them: captions shortened
// ("Name.", "B Employer … number"), the officer's caption without its first word under the margin's
// "Here". The text is laid out as OCR lays out what it read (cells at their x positions), so each
// rule is checked exactly; the scans themselves are measured in BENCHMARKS.md.
import { describe, expect, it } from "vitest";
import { buildTextPdf, type SimpleLine } from "../../../examples/samples.ts";
import { asOcrRead, evaluate, pdf, TAX_METADATA, verdictOf } from "./fixtures.ts";

describe("captions as scans read them", () => {
  it("finds the block as a photo reads it: the declaration garbled, Sign and the caption's first word lost", async () => {
    const photo = (caption: string) =>
      buildTextPdf([
        [
          "FORM 1120  -  U.S. CORPORATION INCOME TAX RETURN",
          "Tax year beginning 07/01/2024, ending 06/30/2025",
          "Name of corporation: ACME WIDGETS CORPORATION",
          "EIN: 12-3456789",
          "Taxable income  268,850",
          "row  of erry  Tat  have  thes  ad  10 he best Of my  nd  1 ue.  nd",
          [
            [50, "Here"],
            [110, "Robert J. Tanner"],
            [300, "03/10/2025"],
            [380, "President"],
            [480, "wth the.preparershown below?"],
          ],
          [
            [110, caption],
            [480, "See  [7]Yes"],
          ],
        ],
        ["Form 1120 (2024)  Page 6", "SCHEDULE L - BALANCE SHEETS PER BOOKS", "Total assets  1,284,500"],
      ]);
    const read = verdictOf(
      evaluate(TAX_METADATA, [await pdf(await photo("of officer"), "photo.pdf")]),
      "TR_SIGNED",
    );
    expect(read.status).toBe("fulfilled");
    expect(read.reason).toContain("signed by Robert J. Tanner (President) and dated 03/10/2025");
    // Without the margin's "Here" opening the values' line, "of officer" alone is no caption.
    const moved = await pdf(
      await buildTextPdf([
        [
          "FORM 1120  -  U.S. CORPORATION INCOME TAX RETURN",
          "Tax year beginning 07/01/2024, ending 06/30/2025",
          "Name of corporation: ACME WIDGETS CORPORATION",
          "EIN: 12-3456789",
          "Taxable income  268,850",
          [
            [110, "Robert J. Tanner"],
            [300, "03/10/2025"],
            [380, "President"],
          ],
          [
            [110, "of officer"],
            [480, "See  [7]Yes"],
          ],
        ],
      ]),
      "no-label.pdf",
    );
    expect(verdictOf(evaluate(TAX_METADATA, [moved]), "TR_SIGNED").status).not.toBe("fulfilled");
  });

  it("reads the captions a scan shortened: 'Name.' and 'B Employer … number' without its middle word", async () => {
    const scanned = await pdf(
      await buildTextPdf([
        [
          "FORM 1120  -  U.S. CORPORATION INCOME TAX RETURN",
          "Tax year beginning 07/01/2024, ending 06/30/2025",
          [
            [50, "A"],
            [110, "Name."],
            [330, "8 Employer"],
            [420, "number"],
          ],
          [[330, "84-2917365"]],
          [[110, "Harborview Marine Supply, Inc."]],
          "Taxable income  268,850",
        ],
      ]),
      "short-captions.pdf",
    );
    const verdicts = evaluate(TAX_METADATA, [scanned]);
    const ein = verdictOf(verdicts, "TR_EIN_MATCH");
    expect(ein.status).toBe("not_fulfilled");
    expect(ein.reason).toContain("84-2917365");
    const name = verdictOf(verdicts, "TR_NAME_MATCH");
    expect(name.status).toBe("not_fulfilled");
    expect(name.reason).toContain("Harborview Marine Supply, Inc.");
    // Beside the caption, the EIN's caption or a speck read as "ye" is no name: the name is under it.
    for (const beside of ["B Employer", "ye"]) {
      const document = await pdf(
        await buildTextPdf([
          [
            "FORM 1120  -  U.S. CORPORATION INCOME TAX RETURN",
            "Tax year beginning 07/01/2024, ending 06/30/2025",
            [
              [50, "A"],
              [110, "Name"],
              [330, beside],
            ],
            [[330, "84-2917365"]],
            [[110, "Acme Widgets, Inc."]],
            "Taxable income  268,850",
          ],
        ]),
        "beside.pdf",
      );
      const read = verdictOf(evaluate(TAX_METADATA, [document]), "TR_NAME_MATCH");
      expect(read.status, beside).toBe("fulfilled");
      expect(read.reason, beside).toContain("names the corporation");
    }
  });

  it("takes a value beside the Name caption only near it: a line of the other page of a two-up sheet is no name", async () => {
    const twoUp = (x: number, under: string[] = ["Acme Widgets, Inc."]) =>
      buildTextPdf([
        [
          "FORM 1120  -  U.S. CORPORATION INCOME TAX RETURN",
          "Tax year beginning 01/01/2024, ending 12/31/2024",
          [
            [60, "Name"],
            [x, "Salaries and wages"],
          ],
          ...under.map((text): Array<[number, string]> => [[60, text]]),
          "EIN: 12-3456789",
          "Taxable income  268,850",
        ],
      ]);
    // 300 points right of the caption, across the sheet's middle: the name is the one under it.
    const far = verdictOf(
      evaluate(TAX_METADATA, [await pdf(await twoUp(400), "two-up.pdf")]),
      "TR_NAME_MATCH",
    );
    expect(far.status, far.reason).toBe("fulfilled");
    expect(far.reason).toContain('"Acme Widgets, Inc."');
    // Right beside it, with nothing under it, the same words are what the return names.
    const near = verdictOf(
      evaluate(TAX_METADATA, [await pdf(await twoUp(130, []), "beside.pdf")]),
      "TR_NAME_MATCH",
    );
    expect(near.status, near.reason).toBe("not_fulfilled");
    expect(near.reason).toContain("Salaries and wages");
  });

  it("takes an EIN beside its caption only near it", async () => {
    const sheet = (x: number) =>
      buildTextPdf([
        [
          "FORM 1120  -  U.S. CORPORATION INCOME TAX RETURN",
          "Tax year beginning 01/01/2024, ending 12/31/2024",
          "Name of corporation: ACME WIDGETS INC",
          [
            [60, "B Employer identification number"],
            [x, "45-6789012"],
          ],
          [[60, "12-3456789"]],
          "Taxable income  268,850",
        ],
      ]);
    // Across the sheet, another page's number: the EIN is the one under the caption.
    const far = verdictOf(
      evaluate(TAX_METADATA, [await pdf(await sheet(480), "two-up.pdf")]),
      "TR_EIN_MATCH",
    );
    expect(far.status, far.reason).toBe("fulfilled");
    // Right beside it, that number is the return's EIN, and it is not the one the loan file states.
    const near = verdictOf(
      evaluate(TAX_METADATA, [await pdf(await sheet(230), "beside.pdf")]),
      "TR_EIN_MATCH",
    );
    expect(near.status, near.reason).toBe("not_fulfilled");
    expect(near.reason).toContain("45-6789012");
  });

  it("takes a lone hyphenated EIN from the page that prints page 1's title when no page reads as page 1", async () => {
    // A two-up sheet at half size: the title and the EIN survive, the income lines and captions do not.
    const sheet = (ein: string) =>
      buildTextPdf([
        [
          "Form 1120 U.S. CorporationIncome Tax Return  2024",
          "» ” Compensation of oficers (see structions - afiach Form 1125.6)",
          ein,
          "Acme Widgets, Inc.",
          "1a  Grows  sates  1.864.200",
          "Paid PreparerUse Only",
          "Dana K. Ruiz  Ruiz Tax 8 Accounting LLC  45-6789012",
        ],
        ["Form 1120 (2024)  Page 6", "SCHEDULE L - BALANCE SHEETS PER BOOKS", "Total assets  1,284,500"],
      ]);
    const titled = verdictOf(
      evaluate(TAX_METADATA, [await pdf(await sheet("12-3456789"), "two-up.pdf")]),
      "TR_EIN_MATCH",
    );
    expect(titled.status, titled.reason).toBe("fulfilled");
    expect(titled.reason).toContain("no label beside it; matched by value");
    // The preparer's number below the preparer's block is never the return's.
    const none = verdictOf(
      evaluate(TAX_METADATA, [await pdf(await sheet(""), "no-ein.pdf")]),
      "TR_EIN_MATCH",
    );
    expect(none.status).toBe("insufficient_evidence");
    expect(none.reason).toContain("could not locate the EIN");
  });

  it("cites a scanned return's calendar year where OCR read it surest, when the places agree", async () => {
    const printed = (header: string) =>
      buildTextPdf([
        [
          "Form 1120  U.S. Corporation Income Tax Return",
          "For calendar year 2024 or tax year beginning , ending",
          "Name of corporation: ACME WIDGETS INC",
          "EIN: 12-3456789",
          "Taxable income  268,850",
          "Total tax  56,459",
        ],
        [header, "SCHEDULE L - BALANCE SHEETS PER BOOKS", "Total assets  1,284,500"],
      ]);
    // The heading's small print read unsure, the later page's header surely.
    const confidence = (cell: string) => (/calendar year/.test(cell) ? 64 : 96);
    const read = async (header: string) =>
      verdictOf(
        evaluate(TAX_METADATA, [asOcrRead(await pdf(await printed(header), "scan.pdf"), confidence)]),
        "TR_TAX_YEAR",
      );
    const agreeing = await read("Form 1120 (2024)  Page 6");
    expect(agreeing.status, agreeing.reason).toBe("fulfilled");
    expect(agreeing.citations).toEqual([
      expect.objectContaining({ page: 2, excerpt: "Form 1120 (2024) Page 6", confidence: 96 }),
    ]);
    // Places that disagree leave the heading's reading, and its doubt, standing.
    const disagreeing = await read("Form 1120 (2023)  Page 6");
    expect(disagreeing.status).toBe("insufficient_evidence");
    expect(disagreeing.reason).toContain("tax_year on page 1 of scan.pdf was read by OCR at 64% confidence");
  });

  it("knows a two-up sheet's half-size page 1 and Schedule L by the lines a scan kept of them", async () => {
    // Page 1's income lines misread ("Grows sates", "Tots! tas"); its payment lines read.
    const pageOne = [
      "Form 1120 U.S. CorporationIncome Tax Return  2024",
      "1a  Grows  sates  1.864.200",
      "Tots! tas (SchadeJ Pant |e 11)",
      "Total payments and credits (Schedule J. Part BL ne 23)  1.020.300",
      "Amount owed ¥ ire 33 matter than Pe total of ies 31.32 andM4",
      "Overpayment. ¥ ine 33 Shan Se total of 31. 32 and4",
    ];
    // Schedule J and Schedule L side by side; of the balance sheet only its first asset line read.
    const scheduleL: SimpleLine[] = [
      "Form 1120 (2024)  Page3  Form 1120 (2024)  Page4",
      [
        [50, "ScheduleJ Tax Computationand Payment"],
        [330, "ScheduleL BalanceSheets per Books"],
      ],
      "ScheduleK Other Information(see instructions)  Trade notes and accounts  142.300  151,880",
      "Tota  676.495",
    ];
    const complete = verdictOf(
      evaluate(TAX_METADATA, [await pdf(await buildTextPdf([pageOne, scheduleL]), "two-up.pdf")]),
      "TR_COMPLETE",
    );
    expect(complete.status, complete.reason).toBe("fulfilled");
    expect(complete.reason).toContain(
      "page 1 (two-up.pdf page 1) and Schedule L, Balance Sheets per Books (two-up.pdf page 2)",
    );
    // The title with one payment line is a cover letter's kind of page, not page 1.
    const letter = verdictOf(
      evaluate(TAX_METADATA, [
        await pdf(
          await buildTextPdf([
            ["Your 2024 U.S. Corporation Income Tax Return is enclosed.", "Amount owed: none"],
            scheduleL,
          ]),
          "letter.pdf",
        ),
      ]),
      "TR_COMPLETE",
    );
    expect(letter.status).not.toBe("fulfilled");
    expect(letter.reason).toContain("could not locate Form 1120 page 1");
  });
});
