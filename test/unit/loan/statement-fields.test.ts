// The bank-statement field finders on the wordings the labelled layouts do not all use: fee names
// and what is not a fee, period and date formats, masked account numbers, signed amounts, holder
// names, and the extraction report they produce.
import { describe, expect, it } from "vitest";
import { buildTextPdf, type SimpleLine } from "../../../examples/samples.ts";
import { statementExtraction } from "../../../lambdas/agents/loan/bank-statements.ts";
import type { ExtractedDocument } from "../../../lambdas/agents/loan/pdf-text.ts";
import { readStatement } from "../../../lambdas/agents/loan/statement-fields.ts";
import {
  dateInPeriods,
  findDateRanges,
  isoDate,
  parseDate,
  scannedLeadingDate,
} from "../../../lambdas/agents/loan/text.ts";
import { BANK_METADATA, evaluate, pdf, sample, verdictOf } from "./fixtures.ts";

const METADATA = { ...BANK_METADATA, as_of_date: "2026-02-20" };

/** A one-page statement: a header, then "Date  Description  Amount  Balance" rows. */
async function statement(options: {
  header?: SimpleLine[];
  rows?: string[][];
  footer?: SimpleLine[];
  name?: string;
}): Promise<ExtractedDocument> {
  const lines: SimpleLine[] = [
    [[50, "Summit Federal Credit Union"]],
    ...(options.header ?? [
      [
        [50, "Account Holder: Jane Q. Doe"],
        [330, "Statement Period 01/01/26 through 01/31/26"],
      ],
      [[50, "Acct # ...5512"]],
    ]),
    [[50, "Transactions"]],
    [
      [50, "Date"],
      [100, "Description"],
      [400, "Amount"],
      [500, "Balance"],
    ],
    [
      [50, "Beginning balance"],
      [500, "2,000.00"],
    ],
    ...(options.rows ?? [["01/05", "POS PURCHASE GROCERY", "-50.00", "1,950.00"]]).map((row) =>
      row.map((text, index): [number, string] => [[50, 100, 400, 500][index] ?? 50, text]),
    ),
    ...(options.footer ?? []),
  ];
  return pdf(await buildTextPdf([lines]), options.name ?? "summit.pdf");
}

function field(document: ExtractedDocument, name: string) {
  return statementExtraction(document)?.fields.find((reading) => reading.field === name);
}

describe("NSF fees: the many names of one fee, and what is not a fee", () => {
  const notFees = [
    ["01/05", "Overdraft Protection Transfer from Savings ****7710", "250.00", "2,250.00"],
    ["01/06", "NSF FEE WAIVED", "0.00", "2,250.00"],
    ["01/07", "OD Fee", "35.00-", "2,215.00"],
    ["01/08", "OD Fee Reversal", "35.00", "2,250.00"],
  ];
  const zeroTotals: SimpleLine[] = [
    [
      [50, "Overdraft fees"],
      [400, "$0.00"],
      [500, "$0.00"],
    ],
    [[50, "Total fees this period: $0.00"]],
    [[50, "An overdraft fee of $35.00 may apply to each item paid when your balance is short."]],
  ];

  it("does not count waivers, refunds of the same amount, protection transfers, zero totals or disclosures", async () => {
    const verdict = verdictOf(
      evaluate(METADATA, [await statement({ rows: notFees, footer: zeroTotals })]),
      "BS_NO_NSF",
    );
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toContain(
      'credited back in the same statement: summit.pdf the 2026-01-07 fee of $35.00 (OD Fee), credited by "OD Fee Reversal"',
    );
    expect(verdict.observed?.reversed_fees).toEqual([
      {
        document: "summit.pdf",
        date: "2026-01-07",
        label: "OD Fee",
        amount: 35,
        credited_by: "OD Fee Reversal",
      },
    ]);
  });

  it.each([
    "Insufficient Funds Fee",
    "Overdraft Item Fee",
    "Returned Item Charge",
    "OD FEE",
    "NSF Charge",
    "Paid Item Fee",
    "Non-Sufficient Funds Fee",
    "Courtesy Pay Fee",
    "O/D FEE",
    "INSUFF FUNDS FEE",
    "Extended Overdraft Fee",
    "SERVICE CHARGE - OVERDRAWN ACCOUNT",
    "RETURN ITEM CHARGEBACK FEE",
    "EXTENDED OVERDRAFT CHARGE",
    "Fee: Returned Item",
  ])("counts %s, charged and not refunded", async (name) => {
    const rows = [...notFees, ["01/12", name, "-30.00", "2,220.00"]];
    const verdict = verdictOf(
      evaluate(METADATA, [await statement({ rows, footer: zeroTotals })]),
      "BS_NO_NSF",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.citations.map((citation) => citation.excerpt)).toEqual([
      `01/12  ${name}  -30.00  2,220.00`,
    ]);
  });

  it("counts a refund only against a fee of the same amount", async () => {
    const rows = [
      ["01/07", "Overdraft Item Fee", "35.00-", "1,965.00"],
      ["01/08", "Overdraft Fee Refund", "10.00", "1,975.00"],
    ];
    const verdict = verdictOf(evaluate(METADATA, [await statement({ rows })]), "BS_NO_NSF");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain('"Overdraft Item Fee" $35.00');
  });

  it("takes a period's fee total as a fee when the statement itemizes none", async () => {
    const footer: SimpleLine[] = [
      [
        [300, "Total for this period"],
        [420, "Total year-to-date"],
      ],
      [
        [50, "Total Overdraft Fees"],
        [330, "$35.00"],
        [450, "$35.00"],
      ],
    ];
    const verdict = verdictOf(evaluate(METADATA, [await statement({ footer })]), "BS_NO_NSF");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.citations[0]?.excerpt).toBe("Total Overdraft Fees  $35.00  $35.00");
  });
});

describe("statement periods and transaction dates", () => {
  it.each([
    ["Statement Period: January 1 - January 31, 2026", "2026-01-01 to 2026-01-31"],
    ["Statement Period 01/01/26 through 01/31/26", "2026-01-01 to 2026-01-31"],
    ["Statement period 2026-01-01 to 2026-01-31", "2026-01-01 to 2026-01-31"],
    ["Statement period 01-01-2026 to 01-31-2026", "2026-01-01 to 2026-01-31"],
    ["For the period 12/15/25 - 01/14/26", "2025-12-15 to 2026-01-14"],
    ["Statement Period: Dec 15 - Jan 14, 2026", "2025-12-15 to 2026-01-14"],
  ])("reads %s", async (printed, expected) => {
    const document = await statement({
      header: [[[50, "Account Holder: Jane Q. Doe"]], [[330, printed]], [[50, "Acct # ...5512"]]],
    });
    expect(field(document, "statement_period")).toMatchObject({ found: true, value: expected, page: 1 });
  });

  it("reads 'Statement Date 01/31/26' with 'Beginning Balance on 01/01/26', citing both lines", async () => {
    const document = await statement({
      header: [
        [
          [50, "Account Holder: Jane Q. Doe"],
          [330, "Statement Date"],
          [500, "01/31/26"],
        ],
        [[50, "Account Number: XXXXXX5512"]],
        [
          [50, "Beginning Balance on 01/01/26"],
          [300, "$2,000.00"],
        ],
      ],
    });
    const reading = field(document, "statement_period");
    expect(reading).toMatchObject({
      value: "2026-01-01 to 2026-01-31",
      excerpt: "Beginning Balance on 01/01/26",
    });
    const january = verdictOf(evaluate(METADATA, [document]), "BS_TWO_MONTHS");
    expect(january.citations.map((citation) => citation.excerpt)).toEqual([
      "Beginning Balance on 01/01/26",
      "Statement Date",
    ]);
  });

  it("infers the year of 'Jan 3' and '12/18' rows from a period across the year end", async () => {
    const document = await statement({
      header: [
        [
          [50, "Account Holder: Jane Q. Doe"],
          [330, "For the period 12/15/25 - 01/14/26"],
        ],
        [[50, "Acct # ...5512"]],
      ],
      rows: [
        ["12/18", "Wire transfer from R DOE", "+6,000.00", "8,000.00"],
        ["Jan 3", "Mobile deposit", "+4,500.00", "12,500.00"],
      ],
    });
    const verdict = verdictOf(evaluate(METADATA, [document]), "BS_LARGE_DEPOSITS");
    expect(verdict.letters_of_explanation?.map((letter) => [letter.date, letter.amount])).toEqual([
      ["2025-12-18", 6000],
      ["2026-01-03", 4500],
    ]);
    const periods = [{ start: { y: 2025, m: 12, d: 15 }, end: { y: 2026, m: 1, d: 14 } }];
    expect(isoDate(dateInPeriods("01/03", periods) ?? { y: 0, m: 0, d: 0 })).toBe("2026-01-03");
    expect(isoDate(dateInPeriods("Dec 18", periods) ?? { y: 0, m: 0, d: 0 })).toBe("2025-12-18");
  });

  it("parses US dates written with dashes, and not phone numbers, ZIP+4 or EINs", () => {
    expect(parseDate("01-31-26")).toEqual({ y: 2026, m: 1, d: 31 });
    expect(findDateRanges("call 1-800-555-0142, IL 62704-1120, EIN 12-3456789")).toEqual([]);
  });

  it("reads a period a scan printed 'March1. 2026 through March 31. 2026'", () => {
    expect(
      findDateRanges("March1. 2026 through March 31. 2026").map((range) => [
        isoDate(range.start),
        isoDate(range.end),
      ]),
    ).toEqual([["2026-03-01", "2026-03-31"]]);
    expect(parseDate("March 1. 2026")).toEqual({ y: 2026, m: 3, d: 1 });
  });

  it("reads a transaction date whose slash a scan misread, on OCR pages and inside the period only", async () => {
    expect(scannedLeadingDate("03:09  Zelle Payment  $125.00")).toEqual({ text: "03/09", length: 5 });
    expect(scannedLeadingDate("0313  IRS Treas 310  $1,286.00")?.text).toBe("03/13");
    expect(scannedLeadingDate("03105  Card Purchase  $51.20")?.text).toBe("03/05");
    expect(scannedLeadingDate("03.24  Online Transfer  $300.00")?.text).toBe("03/24");
    expect(scannedLeadingDate("01724  Card Purchase  $184.32")?.text).toBe("01/24");
    // No month 13, no day 44, and no amount or long number taken for a date.
    for (const line of [
      "1344  Check  $64.25",
      "1044  03:09  $1,450.00",
      "12.50  Fee",
      "2,650.00  Deposit",
      "031234 Ref",
    ])
      expect(scannedLeadingDate(line), line).toBeNull();
    const rows = [
      ["03:09", "ZELLE PAYMENT FROM R OKAFOR", "125.00", "2,125.00"],
      ["0313", "IRS TREAS 310 TAX REF", "1,286.00", "3,411.00"],
      ["1212", "TRANSFER FROM SAVINGS", "300.00", "3,711.00"],
    ];
    const header: SimpleLine[] = [
      [
        [50, "Account Holder: Jane Q. Doe"],
        [330, "Statement Period 03/01/26 through 03/31/26"],
      ],
      [[50, "Acct # ...5512"]],
    ];
    const text = await statement({ header, rows });
    const scanned: ExtractedDocument = {
      ...text,
      has_text_layer: false,
      page_sources: text.pages.map(() => ({ source: "ocr", confidence: 95 })),
    };
    const dates = (document: ExtractedDocument) =>
      (readStatement(document)?.transactions ?? []).map((row) => row.date && isoDate(row.date));
    // 12/12 is outside the March statement: not a date, the row is not a transaction.
    expect(dates(scanned)).toEqual(["2026-03-09", "2026-03-13"]);
    // A text layer prints what it means: "03:09" there is no date.
    expect(dates(text)).toEqual([]);
  });

  it("reads a range whose 'to' a scan ran into the date before it, and not 'to' inside a word", () => {
    expect(
      findDateRanges("Statement Period 01/15/2026to 02/14/2026").map((range) => [
        isoDate(range.start),
        isoDate(range.end),
      ]),
    ).toEqual([["2026-01-15", "2026-02-14"]]);
    expect(findDateRanges("01/15/2026 toll 02/14/2026")).toEqual([]);
  });
});

describe("account numbers", () => {
  it.each([
    "Account Number: ****1234",
    "Account Number: XXXXXX1234",
    "Checking - Account ending in 1234",
    "Acct # ...1234",
    "Account Number:  000123451234",
    "Member Number: XXXXX1234",
    "Primary Account: 000123451234",
    "Checking Account 0072 3391 1234",
  ])("reads the last four digits of %s", async (printed) => {
    const document = await statement({
      header: [
        [
          [50, "Account Holder: Jane Q. Doe"],
          [330, "Statement Period 01/01/26 through 01/31/26"],
        ],
        [[50, "ABA/Routing Number 071000013"]],
        [[50, "Overdraft Protection: Savings ****7710"]],
        [[50, printed]],
      ],
    });
    expect(field(document, "account_number")).toMatchObject({ found: true, value: "1234", source: "label" });
  });

  it("reads a masked number in the column beside a bare 'Account', as a scan splits them, never an unmasked one", async () => {
    const beside = async (label: string, value: string) =>
      field(
        await statement({
          header: [
            [
              [50, "Account Holder: Jane Q. Doe"],
              [330, "Statement Period 01/01/26 through 01/31/26"],
            ],
            [
              [50, "SHARE DRAFT CHECKING"],
              [250, label],
              [330, value],
            ],
          ],
        }),
        "account_number",
      );
    expect(await beside("ACCOUNT", "******1234")).toMatchObject({
      found: true,
      value: "1234",
      source: "label",
    });
    // A photo read the mask's first star into the label and lost the rest but one.
    expect(await beside("ACCOUNT*", "*1234")).toMatchObject({ found: true, value: "1234" });
    // An unmasked figure beside the bare word is no account number: a balance, a count.
    expect(await beside("ACCOUNT", "1234")).toMatchObject({ found: false });
  });

  it("does not take an amount printed after 'Savings Account' for its number", async () => {
    const document = await statement({
      header: [
        [
          [50, "Account Holder: Jane Q. Doe"],
          [330, "Statement Period 01/01/26 through 01/31/26"],
        ],
        [[50, "Savings Account 2500.00"]],
      ],
    });
    expect(field(document, "account_number")).toMatchObject({ found: false });
  });

  it("reads an account number printed under its column heading", async () => {
    const document = await statement({
      header: [
        [
          [330, "Account Number"],
          [450, "Statement Period"],
        ],
        [
          [330, "0072-3391-1234"],
          [450, "01/01/26 through 01/31/26"],
        ],
        [[50, "Account Holder: Jane Q. Doe"]],
      ],
    });
    expect(field(document, "account_number")).toMatchObject({
      value: "1234",
      source: "table",
      excerpt: "0072-3391-1234",
    });
    expect(field(document, "statement_period")).toMatchObject({
      value: "2026-01-01 to 2026-01-31",
      source: "table",
    });
  });

  it("reports the account number not found, and what was looked for", async () => {
    const document = await statement({
      header: [
        [
          [50, "Account Holder: Jane Q. Doe"],
          [330, "Statement Period 01/01/26 through 01/31/26"],
        ],
      ],
    });
    expect(field(document, "account_number")).toEqual({
      field: "account_number",
      found: false,
      note: 'no "Account Number" / "Account ending in" / "Acct #" / "Member Number" label and no masked number (****1234) near the top of page 1',
    });
    const verdict = verdictOf(evaluate(METADATA, [document]), "BS_SAME_ACCOUNT");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain(
      "no account number found in summit.pdf: account_number not located in summit.pdf (",
    );
  });
});

describe("amounts with signs, parentheses, trailing minus, CR and DR", () => {
  it("never takes a large withdrawal for a deposit, whatever its sign convention", async () => {
    const rows = ["(5,000.00)", "5,000.00-", "5,000.00 DR", "-5,000.00"].map((amount, index) => [
      `01/0${index + 2}`,
      "ONLINE TRANSFER REF 88812",
      amount,
      "",
    ]);
    const debits = verdictOf(evaluate(METADATA, [await statement({ rows })]), "BS_LARGE_DEPOSITS");
    expect(debits.status).toBe("fulfilled");
    const credits = verdictOf(
      evaluate(METADATA, [
        await statement({
          rows: [
            ...rows,
            ["01/20", "ONLINE TRANSFER REF 99120", "5,000.00 CR", ""],
            ["01/21", "ONLINE TRANSFER REF 99121", "+4,100.00", ""],
          ],
        }),
      ]),
      "BS_LARGE_DEPOSITS",
    );
    expect(credits.letters_of_explanation?.map((letter) => [letter.date, letter.amount])).toEqual([
      ["2026-01-20", 5000],
      ["2026-01-21", 4100],
    ]);
  });

  it("reads a row whose amount a scan lost from its running balance, never the balance as the amount", async () => {
    // "1.48" read as "1.4" (no cents: not an amount): the balance beside it is not the deposit.
    const dividend = ["01/31", "DIVIDEND", "1.4", "5,001.48"];
    const rows = [["01/05", "PAYROLL ACME WIDGETS", "+3,000.00", "5,000.00"], dividend];
    const small = verdictOf(evaluate(METADATA, [await statement({ rows })]), "BS_LARGE_DEPOSITS");
    expect(small.status, small.reason).toBe("fulfilled");
    // A large one found that way is cited, and the reason says how its amount was read.
    const wire = ["01/20", "WIRE TRANSFER IN", "", "9,500.00"];
    const large = verdictOf(
      evaluate(METADATA, [await statement({ rows: [rows[0] ?? [], wire] })]),
      "BS_LARGE_DEPOSITS",
    );
    expect(large.status).toBe("not_fulfilled");
    expect(large.letters_of_explanation?.map((letter) => [letter.date, letter.amount])).toEqual([
      ["2026-01-20", 4500],
    ]);
    expect(large.letters_of_explanation?.[0]?.reason).toContain(
      "deposit of $4,500.00 (the change of the running balance; the amount itself was not read)",
    );
    // Only from the row just before: past a row whose balance was not read, the change is two rows'.
    const stale = verdictOf(
      evaluate(METADATA, [
        await statement({
          rows: [
            rows[0] ?? [],
            ["01/10", "DEPOSIT AT BRANCH", "+6,000.00", ""],
            ["01/12", "ACH VERIZON", "92.1%", "10,908.00"],
          ],
        }),
      ]),
      "BS_LARGE_DEPOSITS",
    );
    expect(stale.letters_of_explanation?.map((letter) => [letter.date, letter.amount])).toEqual([
      ["2026-01-10", 6000],
    ]);
  });

  it("takes a deposited check for a deposit, a check paid for a withdrawal", async () => {
    const rows = [
      ["01/12", "DEPOSIT AT BRANCH - CHECK 4471", "9,800.00", ""],
      ["01/13", "MOBILE CHECK DEPOSIT", "4,200.00", ""],
      ["01/14", "CHECK 1043", "6,000.00", ""],
    ];
    const verdict = verdictOf(evaluate(METADATA, [await statement({ rows })]), "BS_LARGE_DEPOSITS");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.letters_of_explanation?.map((letter) => [letter.date, letter.amount])).toEqual([
      ["2026-01-12", 9800],
      ["2026-01-13", 4200],
    ]);
  });

  it("does not call a statement clear of large deposits when its deposit lines fall short of its printed total", async () => {
    const document = await statement({
      rows: [["01/05", "PAYROLL ACME WIDGETS", "+3,650.00", "5,650.00"]],
      footer: [
        [
          [50, "Total Deposits and Other Credits"],
          [400, "12,150.00"],
        ],
      ],
    });
    const verdict = verdictOf(evaluate(METADATA, [document]), "BS_LARGE_DEPOSITS");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain(
      "summit.pdf prints deposits of $12,150.00 (page 1) but its deposit lines read sum to $3,650.00, so $8,500.00 of deposits (transactions) could not be located",
    );
  });
});

describe("account holders", () => {
  it.each([
    ["Account Holder: DOE, JANE Q", "fulfilled"],
    ["Account Owners: JANE Q DOE OR JOHN DOE", "fulfilled"],
    ["Primary Owner: John Doe", "not_fulfilled"],
    ["Account Title: JANE Q DOE DBA DOE DESIGN STUDIO", "fulfilled"],
  ])("reads %s", async (printed, status) => {
    const document = await statement({
      header: [
        [
          [50, printed],
          [330, "Statement Period 01/01/26 through 01/31/26"],
        ],
        [[50, "Acct # ...5512"]],
      ],
    });
    expect(verdictOf(evaluate(METADATA, [document]), "BS_NAME_MATCH").status).toBe(status);
  });

  it("reads the holder above the mailing address, and reports where it was found", async () => {
    const document = await statement({
      header: [
        [
          [50, "JANE Q DOE"],
          [330, "Statement Period 01/01/26 through 01/31/26"],
        ],
        [
          [50, "1842 MAPLE AVE APT 3"],
          [330, "Acct # ...5512"],
        ],
        [[50, "SPRINGFIELD IL 62704-1120"]],
      ],
    });
    expect(field(document, "holder_name")).toMatchObject({
      found: true,
      value: "JANE Q DOE",
      source: "position",
      confidence: 0.7,
    });
    expect(verdictOf(evaluate(METADATA, [document]), "BS_NAME_MATCH").status).toBe("fulfilled");
  });
});

describe("holders: the mailing address between another column's lines, generations, and month after month", () => {
  const JUNIOR = { ...METADATA, borrower_info: { ...METADATA.borrower_info, name: "John Smith Jr." } };

  it.each([
    ["Account Holder: JOHN A SMITH SR", "not_fulfilled"],
    ["Account Holder: JOHN A SMITH JR", "fulfilled"],
    ["Account Holder: JOHN A SMITH", "insufficient_evidence"],
    ["Account Holder: SMITH, JOHN V", "insufficient_evidence"],
  ])(
    "compares %s with John Smith Jr.: Jr and Sr are two people, Jr on one side only is not proof",
    async (printed, status) => {
      const document = await statement({
        header: [
          [
            [50, printed],
            [330, "Statement Period 01/01/26 through 01/31/26"],
          ],
          [[50, "Acct # ...5512"]],
        ],
      });
      expect(verdictOf(evaluate(JUNIOR, [document]), "BS_NAME_MATCH").status).toBe(status);
    },
  );

  it("says which suffix is on which side when only the statement has one, and cites the holder", async () => {
    const document = await statement({
      name: "junior.pdf",
      header: [
        [
          [50, "Account Holder: JANE Q DOE JR"],
          [330, "Statement Period 01/01/26 through 01/31/26"],
        ],
        [[50, "Acct # ...5512"]],
      ],
    });
    const verdict = verdictOf(evaluate(METADATA, [document]), "BS_NAME_MATCH");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toBe(
      'account holder name matches "Jane Q. Doe" (borrower_info.name) except for a generational suffix on one side only, which may be another person (a father or a son): junior.pdf names "JANE Q DOE JR" (JR) and the file says "Jane Q. Doe" (no generational suffix)',
    );
    expect(verdict.citations[0]?.document).toBe("junior.pdf");
    expect(verdict.citations[0]?.excerpt).toContain("JANE Q DOE JR");
    expect(verdict.remedies).toEqual([
      'Confirm that "JANE Q DOE JR" on junior.pdf is the borrower Jane Q. Doe (not a relative with the same name), or correct borrower_info.name',
    ]);
  });

  /** The holder above the mailing address, a customer-service line of the right column between them. */
  const addressed = (name: string, file: string, period = "Statement Period 01/01/26 through 01/31/26") =>
    statement({
      name: file,
      header: [
        [
          [50, name],
          [330, period],
        ],
        [[330, "Customer Service: 1-800-555-0142"]],
        [
          [50, "1842 MAPLE AVE APT 3"],
          [330, "Acct # ...5512"],
        ],
        [[50, "SPRINGFIELD IL 62704-1120"]],
      ],
    });

  it("reads the holder above the mailing address past a line printed only in the column beside it", async () => {
    const document = await addressed("JANE Q DOE", "jan.pdf");
    expect(field(document, "holder_name")).toMatchObject({
      found: true,
      value: "JANE Q DOE",
      source: "position",
    });
  });

  it("reads the city and state a scan ran together, and the borrower's name and initial run together on a scan", async () => {
    const scanned = (document: ExtractedDocument): ExtractedDocument => ({
      ...document,
      has_text_layer: false,
      page_sources: document.pages.map(() => ({ source: "ocr", confidence: 95 })),
    });
    const read = async (name: string) =>
      scanned(
        await statement({
          name: "scan.pdf",
          header: [
            [
              [50, name],
              [330, "Statement Period 01/01/26 through 01/31/26"],
            ],
            [[330, "International Calls:"]],
            [
              [50, "1457 ALDER CRESTDR"],
              [330, "Acct # ...5512"],
            ],
            [[330, "1-800-555-0142"]],
            [[50, "SPOKANEWA 99203-4410"]],
          ],
        }),
      );
    const JUNIOR = { ...METADATA, borrower_info: { ...METADATA.borrower_info, name: "John Smith Jr." } };
    const glued = await read("JOHNA SMITH JR");
    expect(field(glued, "holder_name")).toMatchObject({ found: true, value: "JOHNA SMITH JR" });
    expect(verdictOf(evaluate(JUNIOR, [glued]), "BS_NAME_MATCH").status).toBe("fulfilled");
    // Only a single letter after one of the borrower's names is taken for an initial.
    expect(verdictOf(evaluate(JUNIOR, [await read("JOHNAS SMITH JR")]), "BS_NAME_MATCH").status).not.toBe(
      "fulfilled",
    );
    // The same letters on a text layer are printed that way: another name.
    const printed = {
      ...glued,
      has_text_layer: true,
      page_sources: glued.pages.map(() => ({ source: "text" as const })),
    };
    expect(verdictOf(evaluate(JUNIOR, [printed]), "BS_NAME_MATCH").status).not.toBe("fulfilled");
  });

  it("takes another name at the mailing address of every statement as the holder, not of one", async () => {
    const february = "Statement Period 02/01/26 through 02/28/26";
    const both = [
      await addressed("JULIA R SMITH", "jan.pdf"),
      await addressed("JULIA R SMITH", "feb.pdf", february),
    ];
    const verdict = verdictOf(evaluate(METADATA, both), "BS_NAME_MATCH");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.citations.map((citation) => citation.document)).toEqual(["jan.pdf", "feb.pdf"]);

    const one = verdictOf(evaluate(METADATA, [both[0] as ExtractedDocument]), "BS_NAME_MATCH");
    expect(one.status).toBe("insufficient_evidence");
    const different = [
      await addressed("JULIA R SMITH", "jan.pdf"),
      await addressed("MARK T JONES", "feb.pdf", february),
    ];
    expect(verdictOf(evaluate(METADATA, different), "BS_NAME_MATCH").status).toBe("insufficient_evidence");
  });
});

describe("brokerage, passbook and business wordings", () => {
  it("does not count an overdraft transfer, a courtesy fee refund or a maintenance service charge as a fee", async () => {
    const rows = [
      ["01/05", "OVERDRAFT TRANSFER FROM SAVINGS", "300.00", "2,300.00"],
      ["01/06", "FEE REFUND - COURTESY", "25.00", "2,325.00"],
      ["01/07", "SERVICE CHARGE - MONTHLY MAINTENANCE", "-5.00", "2,320.00"],
      ["01/08", "SERVICE CHARGE - OVERDRAFT PROTECTION TRANSFER", "-10.00", "2,310.00"],
    ];
    const verdict = verdictOf(evaluate(METADATA, [await statement({ rows })]), "BS_NO_NSF");
    expect(verdict.status).toBe("fulfilled");
  });

  it.each([
    [
      [
        [50, "Account Number"],
        [150, "RX7-054321"],
      ],
    ],
    [[[50, "Account Number: RX7-054321"]]],
  ] as SimpleLine[][])(
    "reads the digits of a brokerage account number with an office prefix (%j)",
    async (line) => {
      const document = await statement({
        header: [
          [
            [50, "Account Holder: Jane Q. Doe"],
            [330, "Statement Period 01/01/26 through 01/31/26"],
          ],
          line,
        ],
      });
      expect(field(document, "account_number")).toMatchObject({
        found: true,
        value: "4321",
        source: "label",
      });
    },
  );

  it("never takes the counterpart on a transfer's wrapped second line for the statement's account", async () => {
    const document = await statement({
      header: [
        [
          [50, "Account Holder: Jane Q. Doe"],
          [330, "Statement Period 01/01/26 through 01/31/26"],
        ],
      ],
      rows: [
        ["01/05", "ELECTRONIC FUNDS TRANSFER RECEIVED", "2,400.00", "4,400.00"],
        ["", "FROM EXT ACCT XXXXXX8765 FIRST MIAMI VALLEY"],
      ],
    });
    expect(field(document, "account_number")).toMatchObject({ found: false });
  });

  it("reads a month's days printed once under the period label: 'December 1-31, 2025'", async () => {
    expect(
      findDateRanges("December 1-31, 2025").map((range) => [isoDate(range.start), isoDate(range.end)]),
    ).toEqual([["2025-12-01", "2025-12-31"]]);
    expect(findDateRanges("Feb 30-31, 2025")).toEqual([]);
    const document = await statement({
      header: [
        [
          [50, "Account Holder: Jane Q. Doe"],
          [330, "Statement Period"],
        ],
        [[330, "December 1-31, 2025"]],
        [[50, "Acct # ...5512"]],
      ],
    });
    expect(field(document, "statement_period")).toMatchObject({
      found: true,
      value: "2025-12-01 to 2025-12-31",
    });
  });

  it("reads the holder above a street and a city with the next column's line between them", async () => {
    const document = await statement({
      header: [
        [
          [50, "MARY E SMITH"],
          [330, "Statement Period 01/01/26 through 01/31/26"],
        ],
        [
          [50, "17 MILL POND RD"],
          [330, "Acct # ...5512"],
        ],
        [[330, "Statement Savings & Checking Ledger"]],
        [[50, "KEENE NH 03431"]],
      ],
    });
    expect(field(document, "holder_name")).toMatchObject({
      found: true,
      value: "MARY E SMITH",
      source: "position",
    });
  });
});

describe("the extraction report", () => {
  it("names each field of a sample statement with its page and a verbatim excerpt", async () => {
    const [january] = await sample("statement-2025-01.pdf");
    const report = january ? statementExtraction(january) : null;
    expect(report?.kind).toBe("bank_statement");
    expect(report?.fields.map((reading) => [reading.field, reading.value, reading.source])).toEqual([
      ["statement_period", "2025-01-01 to 2025-01-31", "label"],
      ["holder_name", "Jane Q. Doe", "label"],
      ["account_number", "4821", "label"],
      ["transactions", "26", "table"],
      ["deposits_total", "7725.00", "label"],
      ["fees", "none", "label"],
    ]);
    for (const reading of report?.fields ?? []) {
      expect(january?.pages[(reading.page ?? 0) - 1], reading.field).toContain(reading.excerpt);
    }
  });

  it("is null for a document that is not a bank statement", async () => {
    const [form] = await sample("1120-signed.pdf");
    expect(form && statementExtraction(form)).toBeNull();
  });
});
