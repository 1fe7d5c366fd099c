import { describe, expect, it } from "vitest";
import { buildBankStatement, buildScannedPdf, buildTextPdf } from "../../../examples/samples.ts";
import { evaluateHolderName, statementExtraction } from "../../../lambdas/agents/loan/bank-statements.ts";
import type { AssistedField } from "../../../lambdas/agents/loan/extraction.ts";
import type { ExtractedDocument } from "../../../lambdas/agents/loan/pdf-text.ts";
import { BANK_METADATA, evaluate, pdf, sample, verdictOf } from "./fixtures.ts";

const withBorrower = (borrower: Record<string, unknown>) => ({
  ...BANK_METADATA,
  borrower_info: { ...BANK_METADATA.borrower_info, ...borrower },
});

/** Another bank's wording: "through" periods, "Account ending in", holder in the address block only. */
function otherBankStatement(options: { month: string; days: number; holderLine?: string; rows: string[][] }) {
  return buildTextPdf([
    [
      [[50, "Heartland Credit Union"]],
      [[50, options.holderLine ?? "DOE, JANE Q"]],
      [
        [50, "77 ELM STREET"],
        [330, `Statement period ${options.month} 1, 2025 through ${options.month} ${options.days}, 2025`],
      ],
      [
        [50, "PEORIA IL 61602"],
        [330, "Share Draft Checking - Account ending in 4821"],
      ],
      [[50, "Account Activity"]],
      [
        [50, "Date"],
        [100, "Description"],
        [380, "Withdrawals"],
        [450, "Deposits"],
        [520, "Balance"],
      ],
      [
        [50, "Previous balance"],
        [520, "2,000.00"],
      ],
      ...options.rows.map((row) =>
        row.map((text, index): [number, string] => [[50, 100, 380, 450, 520][index] ?? 50, text]),
      ),
    ],
  ]);
}

describe("BS_TWO_MONTHS", () => {
  it("is fulfilled by two consecutive months, the latest ending within 60 days of as_of_date", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-01.pdf", "statement-2025-02.pdf")),
      "BS_TWO_MONTHS",
    );
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toBe(
      "2 consecutive statement periods (2025-01-01 to 2025-01-31, 2025-02-01 to 2025-02-28); the latest ends 2025-02-28, 46 days before 2025-04-15 (max 60)",
    );
    expect(verdict.citations.map((c) => c.excerpt)).toEqual([
      "Statement Period: 01/01/2025 - 01/31/2025",
      "Statement Period: 02/01/2025 - 02/28/2025",
    ]);
  });

  it("is not fulfilled by a single month", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-02.pdf")),
      "BS_TWO_MONTHS",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("do not cover 2 consecutive months: only one period found");
  });

  it("is not fulfilled when a month is missing between the statements", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-01.pdf", "statement-2025-03-nsf.pdf")),
      "BS_TWO_MONTHS",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("not consecutive");
    expect(verdict.citations.map((c) => c.document)).toEqual([
      "rm-conditions/statement-2025-01.pdf",
      "rm-conditions/statement-2025-03-nsf.pdf",
    ]);
  });

  it("is not fulfilled when the latest period ended more than 60 days before as_of_date", async () => {
    const verdict = verdictOf(
      evaluate(
        { ...BANK_METADATA, as_of_date: "2025-05-15" },
        await sample("statement-2025-01.pdf", "statement-2025-02.pdf"),
      ),
      "BS_TWO_MONTHS",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain(
      "too old: the latest of the consecutive periods ends 2025-02-28, 76 days before 2025-05-15 (max 60)",
    );
  });

  it("reads 'Statement period January 1, 2025 through January 31, 2025' wording", async () => {
    const january = await pdf(
      await otherBankStatement({ month: "January", days: 31, rows: [] }),
      "cu-jan.pdf",
    );
    const february = await pdf(
      await otherBankStatement({ month: "February", days: 28, rows: [] }),
      "cu-feb.pdf",
    );
    const verdict = verdictOf(evaluate(BANK_METADATA, [january, february]), "BS_TWO_MONTHS");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.citations[0]?.excerpt).toBe("Statement period January 1, 2025 through January 31, 2025");
  });
});

describe("BS_NAME_MATCH", () => {
  it("is fulfilled when every statement's holder is the borrower (case and middle initial ignored)", async () => {
    const documents = await sample(
      "statement-2025-01.pdf",
      "statement-2025-02.pdf",
      "statement-2025-03-nsf.pdf",
    );
    for (const name of ["Jane Q. Doe", "JANE DOE", "jane q doe"]) {
      const verdict = verdictOf(evaluate(withBorrower({ name }), documents), "BS_NAME_MATCH");
      expect(verdict.status, name).toBe("fulfilled");
    }
    const verdict = verdictOf(evaluate(BANK_METADATA, documents), "BS_NAME_MATCH");
    expect(verdict.citations.map((c) => c.excerpt)).toEqual([
      "Account Holder: Jane Q. Doe",
      "Account Holder: Jane Q. Doe",
      "Account Owner: JANE Q DOE",
    ]);
  });

  it("is not fulfilled when one statement names someone else, citing it", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-01.pdf", "statement-2025-02-other-name.pdf")),
      "BS_NAME_MATCH",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toBe(
      'account holder does not match "Jane Q. Doe" (borrower_info.name): rm-conditions/statement-2025-02-other-name.pdf names "John R. Smith"',
    );
    expect(verdict.citations).toEqual([
      {
        document: "rm-conditions/statement-2025-02-other-name.pdf",
        page: 1,
        excerpt: "Account Holder: John R. Smith",
      },
    ]);
  });

  it("reads the holder from the address block ('DOE, JANE Q') when there is no label", async () => {
    const document = await pdf(
      await otherBankStatement({ month: "January", days: 31, rows: [] }),
      "cu-jan.pdf",
    );
    const verdict = verdictOf(evaluate(BANK_METADATA, [document]), "BS_NAME_MATCH");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.citations[0]?.excerpt).toBe("DOE, JANE Q");
    const other = verdictOf(evaluate(withBorrower({ name: "John Smith" }), [document]), "BS_NAME_MATCH");
    expect(other.status).toBe("insufficient_evidence");
    expect(other.reason).toContain("no account holder name found in cu-jan.pdf");
  });

  it("is insufficient evidence without a borrower name in metadata", async () => {
    const verdict = verdictOf(
      evaluate(
        { ...BANK_METADATA, borrower_info: { monthly_income: 8000 } },
        await sample("statement-2025-01.pdf"),
      ),
      "BS_NAME_MATCH",
    );
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain(
      "no borrower name in metadata (borrower_info.name): cannot verify BS_NAME_MATCH",
    );
  });
});

describe("BS_SAME_ACCOUNT", () => {
  it("is fulfilled when all statements show the same last four digits, in either wording", async () => {
    const verdict = verdictOf(
      evaluate(
        BANK_METADATA,
        await sample("statement-2025-01.pdf", "statement-2025-02.pdf", "statement-2025-03-nsf.pdf"),
      ),
      "BS_SAME_ACCOUNT",
    );
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toContain("all 3 statements are for the account ending 4821");
    expect(verdict.citations.map((c) => c.excerpt)).toEqual([
      "Account Number: ****4821",
      "Account Number: ****4821",
      "Everyday Checking - Account ending in 4821",
    ]);
  });

  it("is not fulfilled when a statement is for another account", async () => {
    const other = await pdf(
      await buildBankStatement({
        year: 2025,
        month: 2,
        accountLast4: "7733",
        beginningBalance: 100,
        transactions: [],
      }),
      "savings-feb.pdf",
    );
    const [january] = await sample("statement-2025-01.pdf");
    const verdict = verdictOf(evaluate(BANK_METADATA, january ? [january, other] : []), "BS_SAME_ACCOUNT");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toBe(
      "the statements are not all for the same account: rm-conditions/statement-2025-01.pdf: account ending 4821; savings-feb.pdf: account ending 7733",
    );
    expect(verdict.citations[1]).toEqual({
      document: "savings-feb.pdf",
      page: 1,
      excerpt: "Account Number: ****7733",
    });
  });
});

describe("BS_NO_NSF", () => {
  it("is fulfilled when no fee is charged; $0.00 fee summaries and fee disclosures are not fees", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-01.pdf", "statement-2025-02.pdf")),
      "BS_NO_NSF",
    );
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toContain("no NSF, overdraft or returned-item fee in 2 statement(s)");
    // January runs onto a second page, where its fee summary is.
    expect(verdict.citations[0]).toEqual({
      document: "rm-conditions/statement-2025-01.pdf",
      page: 2,
      excerpt: "Total Overdraft Fees  $0.00  $0.00",
    });
  });

  it("is not fulfilled by an NSF fee, citing its line", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-01.pdf", "statement-2025-03-nsf.pdf")),
      "BS_NO_NSF",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toBe(
      'NSF/overdraft/returned-item fees found: rm-conditions/statement-2025-03-nsf.pdf page 1: "NSF Fee - Returned Check #1043" $35.00',
    );
    expect(verdict.citations).toEqual([
      {
        document: "rm-conditions/statement-2025-03-nsf.pdf",
        page: 1,
        excerpt: "03/17  NSF Fee - Returned Check #1043  -35.00  -35.00",
      },
    ]);
  });

  it("recognizes overdraft and returned-item fees in other wordings", async () => {
    for (const description of ["OVERDRAFT ITEM FEE", "Returned Item Fee", "Insufficient Funds Charge"]) {
      const document = await pdf(
        await otherBankStatement({
          month: "January",
          days: 31,
          rows: [
            ["01/05", "POS PURCHASE GROCERY", "50.00", "", "1,950.00"],
            ["01/06", description, "34.00", "", "1,916.00"],
          ],
        }),
        "cu.pdf",
      );
      const verdict = verdictOf(evaluate(BANK_METADATA, [document]), "BS_NO_NSF");
      expect(verdict.status, description).toBe("not_fulfilled");
      expect(verdict.citations[0]?.excerpt).toContain(description);
    }
  });
});

describe("BS_LARGE_DEPOSITS", () => {
  it("is fulfilled when no deposit exceeds 50% of monthly income, citing the largest", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-01.pdf", "statement-2025-02.pdf")),
      "BS_LARGE_DEPOSITS",
    );
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toContain(
      "no deposit exceeds $4,000.00 (50% of monthly income $8,000.00): 6 deposit(s) read",
    );
    expect(verdict.citations[0]?.excerpt).toBe("01/10  Payroll Direct Deposit - ACME WIDGETS INC  3,650.00");
    expect(verdict.letters_of_explanation).toBeUndefined();
  });

  it("is not fulfilled by a large deposit, listing it for a letter of explanation", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-02.pdf", "statement-2025-03-large-deposit.pdf")),
      "BS_LARGE_DEPOSITS",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("1 deposit(s) exceed $4,000.00");
    expect(verdict.letters_of_explanation).toEqual([
      {
        document: "rm-conditions/statement-2025-03-large-deposit.pdf",
        page: 1,
        date: "2025-03-12",
        amount: 12500,
        description: "Incoming Wire Transfer - From ROBERT DOE",
        excerpt: "03/12  Incoming Wire Transfer - From ROBERT DOE  12,500.00",
        reason:
          "deposit of $12,500.00 exceeds $4,000.00 (50% of monthly income $8,000.00): needs a letter of explanation",
      },
    ]);
    expect(verdict.citations).toEqual([
      {
        document: "rm-conditions/statement-2025-03-large-deposit.pdf",
        page: 1,
        excerpt: "03/12  Incoming Wire Transfer - From ROBERT DOE  12,500.00",
      },
    ]);
  });

  it("tells deposits from withdrawals in a signed ledger and in a Withdrawals/Deposits table", async () => {
    const ledger = await sample("statement-2025-03-nsf.pdf");
    const verdict = verdictOf(evaluate(withBorrower({ monthly_income: 6000 }), ledger), "BS_LARGE_DEPOSITS");
    expect(verdict.status).toBe("not_fulfilled");
    // The payroll credits (unsigned) exceed $3,000; the $2,700 transfer out and the rent are debits.
    expect(verdict.letters_of_explanation?.map((l) => [l.date, l.amount])).toEqual([
      ["2025-03-07", 3650],
      ["2025-03-21", 3650],
    ]);

    const table = await pdf(
      await otherBankStatement({
        month: "January",
        days: 31,
        rows: [
          ["01/03", "ONLINE TRANSFER", "5,000.00", "", "-3,000.00"],
          ["01/09", "ONLINE TRANSFER", "", "6,000.00", "3,000.00"],
        ],
      }),
      "cu.pdf",
    );
    const both = verdictOf(evaluate(BANK_METADATA, [table]), "BS_LARGE_DEPOSITS");
    expect(both.status).toBe("not_fulfilled");
    expect(both.letters_of_explanation?.map((l) => [l.date, l.amount])).toEqual([["2025-01-09", 6000]]);
  });

  it("is insufficient evidence without monthly income in metadata", async () => {
    const verdict = verdictOf(
      evaluate(
        { ...BANK_METADATA, borrower_info: { name: "Jane Q. Doe" } },
        await sample("statement-2025-01.pdf"),
      ),
      "BS_LARGE_DEPOSITS",
    );
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toBe(
      "no monthly_income in metadata (borrower_info.monthly_income): cannot verify BS_LARGE_DEPOSITS",
    );
  });
});

describe("statements alongside a scanned file", () => {
  it("keeps proven problems but does not claim absence over an unreadable file", async () => {
    const scanned = await pdf(await buildScannedPdf(), "rm-conditions/scanned.pdf");
    const documents = [...(await sample("statement-2025-01.pdf", "statement-2025-03-nsf.pdf")), scanned];
    const verdicts = evaluate(BANK_METADATA, documents);
    expect(verdictOf(verdicts, "BS_NO_NSF").status).toBe("not_fulfilled");
    const large = verdictOf(verdicts, "BS_LARGE_DEPOSITS");
    expect(large.status).toBe("insufficient_evidence");
    expect(large.reason).toContain("rm-conditions/scanned.pdf has no text layer");
  });
});

describe("other banks' layouts", () => {
  it("reads a statement with uppercase sections, a full account number and a fee whose description holds an amount", async () => {
    const bytes = await buildTextPdf([
      [
        [[50, "CHASE"]],
        [
          [50, "JPMorgan Chase Bank, N.A."],
          [360, "January 01, 2025 through January 31, 2025"],
        ],
        [[360, "Account Number:  000000123454821"]],
        [[50, "JANE DOE"]],
        [[50, "12 MAIN ST"]],
        [
          [50, "Beginning Balance"],
          [400, "$1,000.00"],
        ],
        [[50, "DEPOSITS AND ADDITIONS"]],
        [
          [50, "01/10"],
          [100, "Orig CO Name:Acme Widgets Payroll"],
          [500, "$3,650.00"],
        ],
        [
          [50, "01/15"],
          [100, "Remote Online Deposit 1"],
          [500, "4,100.00"],
        ],
        [
          [50, "Total Deposits and Additions"],
          [500, "$7,750.00"],
        ],
        [[50, "ELECTRONIC WITHDRAWALS"]],
        [
          [50, "01/12"],
          [100, "Online Payment 1234 To Landlord"],
          [500, "$1,850.00"],
        ],
        [[50, "FEES"]],
        [
          [50, "01/17"],
          [100, "Insufficient Funds Fee For A $120.00 Item - Details: Check #1001"],
          [500, "$34.00"],
        ],
      ],
    ]);
    const verdicts = evaluate(BANK_METADATA, [await pdf(bytes, "chase.pdf")]);
    expect(verdictOf(verdicts, "BS_NAME_MATCH").status).toBe("fulfilled");
    expect(verdictOf(verdicts, "BS_SAME_ACCOUNT").observed).toEqual({
      accounts: [{ document: "chase.pdf", last4: "4821" }],
    });
    const nsf = verdictOf(verdicts, "BS_NO_NSF");
    expect(nsf.status).toBe("not_fulfilled");
    expect(nsf.reason).toContain('Check #1001" $34.00');
    expect(
      verdictOf(verdicts, "BS_LARGE_DEPOSITS").letters_of_explanation?.map((l) => [l.date, l.amount]),
    ).toEqual([["2025-01-15", 4100]]);
  });

  it("reads 'For the period Feb 1 - Feb 28, 2025' and Deposits/Withdrawals columns with a daily balance", async () => {
    const bytes = await buildTextPdf([
      [
        [[50, "JANE Q DOE"]],
        [
          [50, "Beginning balance on 2/1"],
          [400, "$500.00"],
        ],
        [[50, "Account number: 1234564821"]],
        [[50, "For the period Feb 1 - Feb 28, 2025"]],
        [[50, "Transaction history"]],
        [
          [50, "Date"],
          [90, "Description"],
          [330, "Deposits"],
          [420, "Withdrawals"],
          [510, "Ending daily balance"],
        ],
        [
          [50, "2/3"],
          [90, "Acme Widgets Payroll 250203"],
          [330, "3,650.00"],
          [510, "4,150.00"],
        ],
        [
          [50, "2/5"],
          [90, "Overdraft Fee"],
          [420, "35.00"],
          [510, "4,115.00"],
        ],
        [
          [50, "2/11"],
          [90, "Wire In Ref 51234"],
          [330, "4,500.00"],
          [510, "8,615.00"],
        ],
      ],
    ]);
    const verdicts = evaluate(BANK_METADATA, [await pdf(bytes, "wells.pdf")]);
    // One recent month: the month before it would make two.
    expect(verdictOf(verdicts, "BS_TWO_MONTHS").observed).toEqual({
      periods: [{ document: "wells.pdf", start: "2025-02-01", end: "2025-02-28" }],
      missing_months: ["2025-01"],
    });
    expect(verdictOf(verdicts, "BS_NO_NSF").citations[0]?.excerpt).toBe(
      "2/5  Overdraft Fee  35.00  4,115.00",
    );
    expect(
      verdictOf(verdicts, "BS_LARGE_DEPOSITS").letters_of_explanation?.map((l) => [l.date, l.amount]),
    ).toEqual([["2025-02-11", 4500]]);
  });
});

describe("model-located fields", () => {
  /** A statement whose holder is named only inside a sentence: no label, no mailing address. */
  async function unlabelled() {
    return pdf(
      await buildTextPdf([
        [
          [[50, "Riverbend Bank"]],
          [
            [50, "Statement Period 01/01/25 through 01/31/25"],
            [330, "Acct # ...4821"],
          ],
          [[50, "This statement was prepared for Jane Q. Doe on 02/01/25 at her request."]],
          [[50, "Transactions"]],
          [
            [50, "01/10"],
            [100, "PAYROLL ACME WIDGETS"],
            [400, "+3,650.00"],
          ],
        ],
      ]),
      "riverbend.pdf",
    );
  }
  const context = (document: Awaited<ReturnType<typeof unlabelled>>, assisted?: AssistedField[]) => ({
    readable: [document],
    unreadable: [],
    asOf: { y: 2025, m: 4, d: 15 },
    expected: { borrower_name: "Jane Q. Doe" },
    ...(assisted ? { assisted } : {}),
  });
  const excerpt = "This statement was prepared for Jane Q. Doe";

  it("BS_NAME_MATCH says which field it could not locate, in which document", async () => {
    const finding = evaluateHolderName(context(await unlabelled()));
    expect(finding.status).toBe("insufficient_evidence");
    expect(finding.reason).toContain(
      "no account holder name found in riverbend.pdf (holder_name not located: no",
    );
  });

  it("BS_NAME_MATCH uses the model-located holder name of that document, citing its quote", async () => {
    const document = await unlabelled();
    const assisted: AssistedField[] = [
      { document: "riverbend.pdf", field: "holder_name", value: "Jane Q. Doe", page: 1, excerpt },
    ];
    const finding = evaluateHolderName(context(document, assisted));
    expect(finding.status).toBe("fulfilled");
    expect(finding.citations).toEqual([{ document: "riverbend.pdf", page: 1, excerpt }]);
    expect(finding.reason).toContain('riverbend.pdf: "Jane Q. Doe" (located by the model)');
    expect(statementExtraction(document, assisted)?.fields[1]).toEqual({
      field: "holder_name",
      found: true,
      value: "Jane Q. Doe",
      page: 1,
      excerpt,
      source: "model",
      confidence: 0.6,
    });
  });

  it("ignores a model-located field of another document, and does not rest a mismatch on the model alone", async () => {
    const document = await unlabelled();
    const elsewhere = evaluateHolderName(
      context(document, [
        { document: "other.pdf", field: "holder_name", value: "Jane Q. Doe", page: 1, excerpt },
      ]),
    );
    expect(elsewhere.status).toBe("insufficient_evidence");
    const located: AssistedField[] = [
      { document: "riverbend.pdf", field: "holder_name", value: "Jane Q. Doe", page: 1, excerpt },
    ];
    const someoneElse = evaluateHolderName({
      ...context(document, located),
      expected: { borrower_name: "John Smith" },
    });
    expect(someoneElse.status).toBe("insufficient_evidence");
    expect(someoneElse.reason).toContain(
      'holder_name located by the model as "Jane Q. Doe" (page 1), which does not match "John Smith"',
    );
  });
});

describe("a scan OCR could not read as a statement", () => {
  // The second month arrived as a fax OCR could make nothing of: it may be the missing month, or
  // another holder's or account's statement, so no verdict about "every statement" may pass over it.
  const unreadableFax = (): ExtractedDocument => ({
    document: "rm-conditions/statement-2025-01-fax.pdf",
    page_count: 1,
    has_text_layer: false,
    pages: ["~ Ee a 4 — iil ssi\n.. 0l2 ~~ rl ,,"],
    page_sources: [{ source: "ocr", confidence: 41 }],
  });

  it("leaves the two months undecided instead of 'only one period', and the holder and account too", async () => {
    const verdicts = evaluate(BANK_METADATA, [...(await sample("statement-2025-02.pdf")), unreadableFax()]);
    const months = verdictOf(verdicts, "BS_TWO_MONTHS");
    expect(months.status).toBe("insufficient_evidence");
    expect(months.reason).toContain("no statement period found in rm-conditions/statement-2025-01-fax.pdf");
    for (const id of ["BS_NAME_MATCH", "BS_SAME_ACCOUNT", "BS_NO_NSF"]) {
      const verdict = verdictOf(verdicts, id);
      expect(verdict.status, id).toBe("insufficient_evidence");
      expect(verdict.reason, id).toContain(
        "rm-conditions/statement-2025-01-fax.pdf was read by OCR but could not be read as a statement",
      );
    }
  });

  it("still decides on a text document that is no statement (a cover letter)", async () => {
    const letter: ExtractedDocument = {
      document: "rm-conditions/cover-letter.pdf",
      page_count: 1,
      has_text_layer: true,
      pages: ["Dear underwriter, please find the borrower's statements enclosed."],
    };
    const verdicts = evaluate(BANK_METADATA, [...(await sample("statement-2025-02.pdf")), letter]);
    expect(verdictOf(verdicts, "BS_TWO_MONTHS").status).toBe("not_fulfilled");
  });
});
