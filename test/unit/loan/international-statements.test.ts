// Statements as banks outside the US print them: dates day first (31/03/2026), transaction dates
// without a year ("14 Mar"), balances without a year in the summary, and fees named the way UK and
// Australian banks name them. Written after real layouts, not the project's generated ones.
import { describe, expect, it } from "vitest";
import type { ExtractedDocument } from "../../../lambdas/agents/loan/pdf-text.ts";
import { readStatement } from "../../../lambdas/agents/loan/statement-fields.ts";
import { dateOrderOf, isoDate, parseDate } from "../../../lambdas/agents/loan/text.ts";
import { evaluate, verdictOf } from "./fixtures.ts";

const literal = (name: string, ...pages: string[]): ExtractedDocument => ({
  document: name,
  page_count: pages.length,
  pages,
  has_text_layer: true,
});

const METADATA = {
  loan_program: "Flex Supreme",
  classification: "Bank Statements",
  as_of_date: "2025-04-15",
  borrower_info: { name: "Aroha Ngata", business_name: "Ngata Design Ltd", monthly_income: 6000 },
};

function ukStatement(month: 2 | 3, fee: string | null): ExtractedDocument {
  const last = month === 2 ? 28 : 31;
  const mm = String(month).padStart(2, "0");
  const name = month === 2 ? "Feb" : "Mar";
  return literal(
    `statements/kiwi-${mm}.pdf`,
    [
      "Harbour Bank  Everyday Account",
      `Statement period 01/${mm}/2025 to ${last}/${mm}/2025`,
      "Account name  MS AROHA NGATA",
      "Account number  12-3456-7890123-00",
      `Balance on 01/${mm}/2025  NZ$2,104.50`,
      "Date  Details  Paid out  Paid in  Balance",
      `03 ${name}  SALARY NGATA DESIGN  3,000.00  5,104.50`,
      `05 ${name}  COUNTDOWN PONSONBY  84.20  5,020.30`,
      ...(fee ? [`12 ${name}  ${fee}  10.00  5,010.30`] : []),
      `${last} ${name}  CLOSING BALANCE  5,010.30`,
    ].join("\n"),
  );
}

describe("which way a statement writes its dates", () => {
  it("reads a first number above 12 as the day", () => {
    expect(dateOrderOf("Statement period 01/03/2026 to 31/03/2026")).toBe("dmy");
    expect(dateOrderOf("Statement Period 03/01/2026 - 03/31/2026")).toBe("mdy");
  });

  it("lets the currency and bank codes decide when every date reads both ways", () => {
    expect(dateOrderOf("Balance on 01/03/2026  £1,942.18  Sort code 20-45-77")).toBe("dmy");
    expect(dateOrderOf("Period 01/04/2026 - 02/05/2026  BSB 062-914")).toBe("dmy");
    expect(dateOrderOf("Beginning balance on 01/03/2026  $1,942.18")).toBe("mdy");
  });

  it("parses day-first and day-month dates", () => {
    expect(isoDate(parseDate("31/03/2026", undefined, "dmy") ?? { y: 0, m: 0, d: 0 })).toBe("2026-03-31");
    expect(parseDate("31/03/2026")).toBeNull();
    expect(isoDate(parseDate("14 Mar", 2026) ?? { y: 0, m: 0, d: 0 })).toBe("2026-03-14");
  });
});

describe("statements printed outside the US", () => {
  it("reads a New Zealand statement's period and its year-less transaction dates", () => {
    const statement = readStatement(ukStatement(3, null));
    expect(statement?.dateOrder).toBe("dmy");
    expect(
      statement?.periods.map((period) => [isoDate(period.value.start), isoDate(period.value.end)]),
    ).toEqual([["2025-03-01", "2025-03-31"]]);
    expect(
      statement?.transactions.map((transaction) => transaction.date && isoDate(transaction.date)),
    ).toContain("2025-03-05");
  });

  it("judges two consecutive day-first statements as two months", () => {
    const verdict = verdictOf(
      evaluate(METADATA, [ukStatement(2, null), ukStatement(3, null)], ["BS_TWO_MONTHS"]),
      "BS_TWO_MONTHS",
    );
    expect(verdict.status).toBe("fulfilled");
  });

  it.each([
    "DISHONOUR FEE DD VODAFONE",
    "UNPAID ITEM CHARGE",
    "DISHONOURED PAYMENT FEE",
    "UNARRANGED OVERDRAFT FEE",
  ])("counts %s as an NSF-type fee", (fee) => {
    const verdict = verdictOf(
      evaluate(METADATA, [ukStatement(2, null), ukStatement(3, fee)], ["BS_NO_NSF"]),
      "BS_NO_NSF",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain(fee);
  });

  it("reads a summary's year-less balance dates with the year of the statement date", () => {
    const statement = readStatement(
      literal(
        "statements/checking-jan.pdf",
        [
          "Everyday Checking  January 31, 2026  Page 1 of 1",
          "Account number  7310450932",
          "Beginning balance on 1/1  $1,904.66",
          "Deposits/Additions  6,649.44",
          "Ending balance on 1/31  $4,862.31",
          "Date  Description  Deposits  Withdrawals  Balance",
          "1/2  Payroll PPD  2,216.48",
        ].join("\n"),
      ),
    );
    expect(
      statement?.periods.map((period) => [isoDate(period.value.start), isoDate(period.value.end)]),
    ).toEqual([["2026-01-01", "2026-01-31"]]);
  });
});
