// A statement's own arithmetic as evidence: the running balance printed on each row settles a
// row's direction and confirms its amount, whatever a scan did to the headings and however unsure
// OCR was of the digits. The statement is drawn as a text PDF, then its text handed to the engine as
// OCR would (every page `source: "ocr"`, each column with a confidence) so each rule is checked
// exactly; real scans of such statements are measured by bench/scans.ts.
import { describe, expect, it } from "vitest";
import { buildTextPdf, type SimpleLine } from "../../../examples/samples.ts";
import type { ExtractedDocument } from "../../../lambdas/agents/loan/pdf-text.ts";
import { readStatement } from "../../../lambdas/agents/loan/statement-fields.ts";
import { findAmounts } from "../../../lambdas/agents/loan/text.ts";
import { asOcrRead, BANK_METADATA, evaluate, pdf, verdictOf } from "./fixtures.ts";

// Monthly income $8,000: a deposit above $4,000 needs a letter of explanation.
const METADATA = { ...BANK_METADATA, as_of_date: "2026-02-20" };

/**
 * A credit union's one-page statement as a phone photo reads it: the bank's name carries the word
 * "CREDIT", the column header kept only "POST DATE  DESCRIPTION", "BALANCE FORWARD" lost a letter.
 */
async function creditUnionStatement(
  rows: string[][],
  opening = "BALANCE FORNARD",
): Promise<ExtractedDocument> {
  const lines: SimpleLine[] = [
    [[50, "GRANITE VALLEY FEDERAL CREDIT UNION"]],
    [
      [50, "JANE Q DOE"],
      [330, "STATEMENT PERIOD 01/01/26 THRU 01/31/26"],
    ],
    [
      [50, "SHARE DRAFT CHECKING"],
      [330, "ACCOUNT ******5512"],
    ],
    [
      [50, "POST DATE"],
      [110, "DESCRIPTION"],
    ],
    [
      [50, "01/01/26"],
      [110, opening],
      [500, "2,000.00"],
    ],
    ...rows.map((row) =>
      row.map((text, index): [number, string] => [[50, 110, 400, 500][index] ?? 50, text]),
    ),
  ];
  return pdf(await buildTextPdf([lines]), "granite.pdf");
}

/** The document as OCR would hand it over: every column read at `confidence`, or what `lower` says. */
function asScanned(
  document: ExtractedDocument,
  confidence: number,
  lower: (cell: string) => number | undefined = () => undefined,
): ExtractedDocument {
  return asOcrRead(document, (cell) => lower(cell) ?? confidence, confidence);
}

const ROWS = [
  ["01/03/26", "WITHDRAWAL ACH EVERSOURCE ENERGY", "118.42", "1,881.58"],
  ["01/05/26", "DEPOSIT ACH CONCORD MEDICAL PAYROLL", "2,961.40", "4,842.98"],
  ["01/12/26", "DEPOSIT AT BRANCH - CHECK 4471 HOLLIS NH", "9,800.00", "14,642.98"],
  ["01/14/26", "WITHDRAWAL ACH TOYOTA FINANCIAL SVCS", "5,389.27", "9,253.71"],
  ["01/31/26", "DIVIDEND", "1.48", "9,255.19"],
];

describe("a statement's running balance", () => {
  it("settles each row's direction: a bank named Credit Union does not make every row a deposit", async () => {
    const statement = readStatement(await creditUnionStatement(ROWS));
    expect(
      statement?.transactions.map((row) => [row.description, row.amount, row.direction, row.balanced]),
    ).toEqual([
      ["WITHDRAWAL ACH EVERSOURCE ENERGY", 118.42, "debit", true],
      ["DEPOSIT ACH CONCORD MEDICAL PAYROLL", 2961.4, "credit", true],
      ["DEPOSIT AT BRANCH - CHECK 4471 HOLLIS NH", 9800, "credit", true],
      ["WITHDRAWAL ACH TOYOTA FINANCIAL SVCS", 5389.27, "debit", true],
      ["DIVIDEND", 1.48, "credit", true],
    ]);
    // A row whose balance was lost has only its words: a share draft is not a deposit.
    const unbalanced = readStatement(
      await creditUnionStatement([...ROWS, ["01/20/26", "SHARE DRAFT #3302", "85.00", ""]]),
    );
    expect(unbalanced?.transactions.at(-1)).toMatchObject({ amount: 85, direction: "unknown" });
    expect(unbalanced?.transactions.at(-1)?.balanced).toBeUndefined();
    // The misread "BALANCE FORNARD" opened the table; it is no transaction of $2,000.00.
    const verdict = verdictOf(evaluate(METADATA, [await creditUnionStatement(ROWS)]), "BS_LARGE_DEPOSITS");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.letters_of_explanation?.map((letter) => [letter.date, letter.amount])).toEqual([
      ["2026-01-12", 9800],
    ]);
  });

  it("settles nothing when the rows run newest first: two equal payrolls would fake the sum", async () => {
    const newestFirst = [
      ["01/20/26", "ACH CREDIT ACME PAYROLL", "2,000.00", "6,000.00"],
      ["01/10/26", "ACH CREDIT ACME PAYROLL", "2,000.00", "4,000.00"],
    ];
    const statement = readStatement(await creditUnionStatement(newestFirst, "BALANCE FORWARD"));
    // 6,000.00 − 2,000.00 = 4,000.00 reads like a withdrawal; the second payroll is a deposit.
    expect(statement?.transactions.map((row) => [row.date?.d, row.direction, row.balanced])).toEqual([
      [20, "credit", undefined],
      [10, "credit", undefined],
    ]);
  });

  it("confirms a deposit OCR read unsure, so a not_fulfilled can rest on it", async () => {
    const digits = (cell: string) => (/\d/.test(cell) ? 81 : undefined);
    const scanned = asScanned(await creditUnionStatement(ROWS), 88, digits);
    const verdict = verdictOf(evaluate(METADATA, [scanned]), "BS_LARGE_DEPOSITS");
    expect(verdict.status, verdict.reason).toBe("not_fulfilled");
    expect(verdict.citations).toEqual([
      expect.objectContaining({ confirmed_by: "running_balance", source: "ocr", confidence: 81 }),
    ]);
    expect(verdict.reason).toContain(
      "confirmed by arithmetic on a scan read below the 90% bar: on page 1 of granite.pdf (read by OCR at 81%, the page at 88%), the running balances printed before and on the row differ by exactly its amount",
    );
  });

  it("confirms nothing when the balances do not add up: the same unsure read is not enough", async () => {
    // The deposit's balance misread (14,642.98 as 14,642.96): the arithmetic no longer holds.
    const misread = ROWS.map((row) => (row[3] === "14,642.98" ? [...row.slice(0, 3), "14,642.96"] : row));
    const digits = (cell: string) => (/\d/.test(cell) ? 81 : undefined);
    const verdict = verdictOf(
      evaluate(METADATA, [asScanned(await creditUnionStatement(misread), 88, digits)]),
      "BS_LARGE_DEPOSITS",
    );
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain("below the 90% required for a not_fulfilled");
    expect(verdict.citations[0]?.confirmed_by).toBeUndefined();
  });

  it("does not date a scanned row by a misread date outside the statement's period", async () => {
    const misdated = ROWS.map((row) => (row[2] === "9,800.00" ? ["01/12/28", ...row.slice(1)] : row));
    const verdict = verdictOf(
      evaluate(METADATA, [asScanned(await creditUnionStatement(misdated), 95)]),
      "BS_LARGE_DEPOSITS",
    );
    expect(verdict.letters_of_explanation?.map((letter) => [letter.date, letter.amount])).toEqual([
      [null, 9800],
    ]);
    // The same date printed in a text PDF is what the statement says.
    const printed = verdictOf(
      evaluate(METADATA, [await creditUnionStatement(misdated)]),
      "BS_LARGE_DEPOSITS",
    );
    expect(printed.letters_of_explanation?.[0]?.date).toBe("2028-01-12");
  });
});

describe("amounts a scan spaced", () => {
  it("reads a space after a thousands comma as part of the amount", () => {
    expect(findAmounts("9,800.00  16, 543.65").map((amount) => amount.value)).toEqual([9800, 16543.65]);
    expect(findAmounts("1, 234, 567.89").map((amount) => amount.value)).toEqual([1234567.89]);
  });
});

/**
 * A statement in sections, no running balance: its deposits, then the total it prints of them
 * ("Total Deposits and Additions"), as a fax reads it: misspelt, a row's words on the line under it.
 */
async function sectionedStatement(
  deposits: SimpleLine[],
  total: string,
  label = "Total Deposil  and Additians",
) {
  const lines: SimpleLine[] = [
    [[50, "LAKESHORE NATIONAL BANK"]],
    [
      [50, "DANIEL R OKAFOR"],
      [330, "January 1, 2026 through January 31, 2026"],
    ],
    [[50, "Account Number: 000000583904417"]],
    [[50, "DEPOSITS AND ADDITIONS"]],
    [
      [50, "DATE"],
      [110, "DESCRIPTION"],
      [500, "AMOUNT"],
    ],
    ...deposits,
    [
      [50, label],
      [500, total],
    ],
    [[50, "CHECKS PAID"]],
    [
      [50, "01/09"],
      [110, "Check 1044"],
      [500, "$1,450.00"],
    ],
  ];
  return pdf(await buildTextPdf([lines]), "lakeshore.pdf");
}

const DEPOSITS: SimpleLine[] = [
  [
    [50, "01:06"],
    [110, "Brightine Logistics Payroll PPD 10: 9111111101"],
    [500, "$3842.16"],
  ],
  // The row's date and amount on one line, its words on the next.
  [
    [50, "01:09"],
    [500, "$125.00"],
  ],
  [[110, "Zelle Paymenl From R Okator 1JD2K7TQWS"]],
  [
    [50, "0120"],
    [110, "Logiskcs Payroll PPD ID 9111111101"],
    [500, "$3842.16"],
  ],
];

describe("a statement's printed deposits total", () => {
  it("confirms a scan's reading of every deposit when the rows sum to it", async () => {
    const scanned = asScanned(await sectionedStatement(DEPOSITS, "$7,809.32"), 74);
    const rows = readStatement(scanned)?.transactions.filter((row) => row.direction === "credit");
    expect(rows?.map((row) => [row.description, row.amount])).toEqual([
      ["Brightine Logistics Payroll PPD 10: 9111111101", 3842.16],
      ["Zelle Paymenl From R Okator 1JD2K7TQWS", 125],
      ["Logiskcs Payroll PPD ID 9111111101", 3842.16],
    ]);
    const verdict = verdictOf(evaluate(METADATA, [scanned]), "BS_LARGE_DEPOSITS");
    expect(verdict.status, verdict.reason).toBe("fulfilled");
    expect(verdict.citations).toContainEqual(
      expect.objectContaining({
        confirmed_by: "deposits_total",
        excerpt: expect.stringContaining("$7,809.32"),
      }),
    );
    expect(verdict.reason).toContain(
      "the deposits read sum to the deposits total printed on lakeshore.pdf ($7,809.32)",
    );
    expect(verdict.reason).toContain(
      "confirmed by arithmetic on a scan read below the 80% bar: the deposit rows read on lakeshore.pdf sum to the deposits total it prints",
    );
  });

  it("confirms nothing when they do not: a row missed or misread leaves the page's doubt", async () => {
    const scanned = asScanned(await sectionedStatement(DEPOSITS, "$12,309.32"), 74);
    const verdict = verdictOf(evaluate(METADATA, [scanned]), "BS_LARGE_DEPOSITS");
    expect(verdict.status).toBe("insufficient_evidence");
    expect(verdict.reason).toContain(
      "page 1 of lakeshore.pdf was read by OCR at 74% mean confidence, below the 80% required",
    );
    expect(verdict.citations.some((citation) => citation.confirmed_by)).toBe(false);
  });

  it("keeps a text layer's row without words a daily balance, not a deposit", async () => {
    const dated = DEPOSITS.map((line) =>
      typeof line === "string"
        ? line
        : line.map(([x, text]): [number, string] => [x, text.replace(/^01:?(\d\d)$/, "01/$1")]),
    );
    const printed = await sectionedStatement(dated, "$7,809.32", "Total Deposits and Additions");
    const rows = readStatement(printed)?.transactions.filter((row) => row.direction === "credit");
    expect(rows?.map((row) => row.amount)).toEqual([3842.16, 3842.16]);
  });
});
