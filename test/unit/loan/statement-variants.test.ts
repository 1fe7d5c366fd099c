// Statement layouts of banks the engines were not written against, each a variant a real statement
// prints: written here after real layouts, checked field by field, then judged.
import { describe, expect, it } from "vitest";
import { buildTextPdf, type SimpleLine } from "../../../examples/samples.ts";
import { extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { readStatement } from "../../../lambdas/agents/loan/statement-fields.ts";
import { findAmounts, findDateRanges, isoDate, parseDate } from "../../../lambdas/agents/loan/text.ts";
import { evaluate, verdictOf } from "./fixtures.ts";

async function statement(name: string, ...pages: SimpleLine[][]) {
  return extractPdfText(await buildTextPdf(pages), `statements/${name}.pdf`);
}

const METADATA = {
  loan_program: "Flex Supreme",
  classification: "Bank Statements",
  as_of_date: "2025-06-15",
  borrower_info: { name: "Tomas Okafor", business_name: "Okafor Joinery Ltd", monthly_income: 6000 },
};

const periodsOf = (read: ReturnType<typeof readStatement>) =>
  read?.periods.map((period) => `${isoDate(period.value.start)}/${isoDate(period.value.end)}`);

describe("dates and amounts as statements outside the US print them", () => {
  it("reads 05-Mar-25 and 05.03.2025", () => {
    expect(parseDate("05-Mar-25")).toEqual({ y: 2025, m: 3, d: 5 });
    expect(parseDate("05.03.2025", undefined, "dmy")).toEqual({ y: 2025, m: 3, d: 5 });
  });

  it("reads a range written 'From : 01/04/2025 To : 30/04/2025'", () => {
    const [range] = findDateRanges("Statement From : 01/04/2025 To : 30/04/2025", "dmy");
    expect(range && [isoDate(range.start), isoDate(range.end)]).toEqual(["2025-04-01", "2025-04-30"]);
  });

  it("reads amounts grouped in lakhs", () => {
    expect(findAmounts("NEFT CR SALARY  1,12,400.00  2,04,880.75").map((amount) => amount.value)).toEqual([
      112400, 204880.75,
    ]);
  });
});

describe("statement fields found where real statements put them", () => {
  it("takes the period from the statement date and the days in the cycle", async () => {
    const read = readStatement(
      await statement("cycle", [
        [
          [50, "Statement Date:"],
          [140, "04/30/2025"],
        ],
        [
          [50, "Days in cycle"],
          [140, "30"],
        ],
        [
          [50, "Account number"],
          [140, "XXXXXX6120"],
        ],
        "Date  Description  Amount  Running balance",
        [
          [50, "Apr 02"],
          [100, "Direct deposit ACME PAYROLL"],
          [400, "2,486.15"],
          [480, "3,360.25"],
        ],
      ]),
    );
    expect(periodsOf(read)).toEqual(["2025-04-01/2025-04-30"]);
    expect(read?.accounts[0]?.value).toBe("6120");
  });

  it("reads an account number printed apart from its colon, an IBAN, and an office-prefixed number", async () => {
    const numbers = await Promise.all(
      [
        ["Account No", ": 50100198840627"],
        ["IBAN", "IE64 LDCU 9901 2345 6781 43"],
        ["Account Number:", "6HX-204518"],
      ].map(async ([label, value], index) =>
        readStatement(
          await statement(`account-${index}`, [
            "Statement Period 03/01/2025 - 03/31/2025",
            [
              [50, label ?? ""],
              [160, value ?? ""],
            ],
          ]),
        ),
      ),
    );
    expect(numbers.map((read) => read?.accounts[0]?.value)).toEqual(["0627", "8143", "4518"]);
  });

  it("never takes a card number in a transaction row for the account", async () => {
    const read = readStatement(
      await statement("card-row", [
        "Statement Period 03/01/2025 - 03/31/2025",
        "Date  Description  Amount",
        "03/07  POS 4591XXXXXX2231 CORNER SHOP  35.42",
      ]),
    );
    expect(read?.accounts).toEqual([]);
  });

  it("reads joint owners printed one per line, the first ending in OR", async () => {
    const read = readStatement(
      await statement("joint", [
        "Statement Period 03/01/2025 - 03/31/2025",
        "TOMAS OKAFOR OR",
        "ADAEZE OKAFOR",
        "4120 MONTECITO AVE APT 3",
        "OAKLAND CA 94611-4833",
      ]),
    );
    expect(read?.addressNames.map((name) => name.value)).toEqual(["TOMAS OKAFOR", "ADAEZE OKAFOR"]);
  });

  it.each([
    ["New Zealand", ["14 Renall Street", "Ponsonby", "Auckland 1011"]],
    ["the UK", ["14 Larkspur Close", "Harrogate", "HG2 8QT"]],
    ["India", ["B-702, PALM GROVE TOWERS", "MUMBAI 400053"]],
  ])("finds the holder above an address in %s", async (_country, address) => {
    const read = readStatement(
      await statement("address", ["Statement Period 01/03/2025 - 31/03/2025", "MR TOMAS OKAFOR", ...address]),
    );
    expect(read?.addressNames.map((name) => name.value)).toEqual(["MR TOMAS OKAFOR"]);
  });

  it("reads the deposits total from a summary table, under its heading", async () => {
    const read = readStatement(
      await statement("summary-table", [
        "Statement Period  06/01/25 - 06/30/25",
        [
          [50, "Beginning Balance"],
          [160, "Total Credits (26)"],
          [280, "Total Debits (88)"],
          [400, "Ending Balance"],
        ],
        [
          [50, "1,267.09"],
          [160, "7,959.93"],
          [280, "8,452.16"],
          [400, "774.86"],
        ],
      ]),
    );
    expect(read?.depositsTotal?.value).toBe(7959.93);
  });
});

describe("verdicts that rest on the whole statement", () => {
  const page = (number: number, of: number, rows: string[]): SimpleLine[] => [
    "Statement Period 05/01/2025 - 05/31/2025",
    "Account ending in 7741",
    `Page ${number} of ${of}`,
    "Date  Description  Debits  Credits  Balance",
    ...rows,
  ];

  it("says a statement missing a page of its own numbering cannot show the absence of large deposits or fees", async () => {
    const april = await statement("april", [
      "Statement Period 04/01/2025 - 04/30/2025",
      "Account ending in 7741",
      "Page 1 of 1",
      "Date  Description  Debits  Credits  Balance",
      "04/02  PAYROLL ACME  2,100.00  3,100.00",
    ]);
    const may = await statement(
      "may-pages-1-and-3",
      page(1, 3, ["05/02  PAYROLL ACME  2,100.00  3,100.00"]),
      page(3, 3, ["05/28  GROCERY  54.10  3,045.90"]),
    );
    const verdicts = evaluate(METADATA, [april, may], ["BS_LARGE_DEPOSITS", "BS_NO_NSF"]);
    for (const id of ["BS_LARGE_DEPOSITS", "BS_NO_NSF"]) {
      const verdict = verdictOf(verdicts, id);
      expect(verdict.status, id).toBe("insufficient_evidence");
      expect(verdict.reason, id).toContain("is missing page 2 of its own numbering");
    }
  });

  it("does not read an End balance row as a deposit", async () => {
    const read = readStatement(
      await statement("end-balance", [
        "Statement period 01/04/2025 to 30/04/2025  Sort code 20-45-77",
        "Date  Details  Paid out  Paid in  Balance",
        "02/04/2025  SALARY  2,000.00  3,000.00",
        "30/04/2025  End balance  3,603.94",
      ]),
    );
    expect(read?.transactions.map((transaction) => transaction.description)).toEqual(["SALARY"]);
  });
});
