// Model-assisted reading of transaction rows: a statement whose rows no table reader locates (its
// activity written as sentences) is listed by a model; each row counts only with its quote on the
// page holding its date and amount. Rows read this way prove what they show (a fee, a large
// deposit); they prove an absence only when they add up to the deposits total the statement prints.
import { describe, expect, it } from "vitest";
import { findField } from "../../../lambdas/agents/loan/catalog.ts";
import { type ConditionsResult, evaluateConditions } from "../../../lambdas/agents/loan/conditions-engine.ts";
import type { AssistedField } from "../../../lambdas/agents/loan/extraction.ts";
import { type FieldQuestion, withModelLocatedFields } from "../../../lambdas/agents/loan/field-assist.ts";
import type { ExtractedDocument } from "../../../lambdas/agents/loan/pdf-text.ts";
import { predictConditions } from "../../../lambdas/agents/loan/preconditions.ts";
import { verifyRowsAnswer } from "../../../lambdas/agents/loan/statement-rows-assist.ts";

const PAYROLL = "Payroll Harbor Freight was credited with 2,310.44 on the 2nd of April";
const RENT = "Rent April was debited by 1,450.00 on the 9th of April";
const NSF = "NSF fee returned item was debited by 35.00 on the 19th of April";

function statement(activity: string[], total: string | null): ExtractedDocument {
  const text = [
    "Fernhill Savings Bank",
    "Statement for Dana K. Whitfield",
    "Account number 0047-2231",
    "Statement period 04/01/2026 - 04/30/2026",
    "Your activity this month",
    ...activity,
    ...(total ? [`Total deposits  ${total}`] : []),
  ].join("\n");
  return { document: "rm/fernhill-2026-04.pdf", page_count: 1, has_text_layer: true, pages: [text] };
}

const row = (quote: string, date: string, amount: string, direction: "credit" | "debit", page = 1) => ({
  page,
  quote,
  date,
  description: quote.split(" was ")[0],
  amount,
  direction,
});

const METADATA = {
  loan_program: "Flex Supreme",
  classification: "Bank Statements",
  as_of_date: "2026-05-15",
  borrower_info: { name: "Dana K. Whitfield", monthly_income: 2000 },
};
const AS_OF = new Date("2026-05-15T12:00:00Z");

/** The conditions judged as the loan tool judges them, the model answering with `rows`. */
async function judged(
  document: ExtractedDocument,
  rows: unknown[],
): Promise<{ result: ConditionsResult; asked: string[] }> {
  const conditions = predictConditions(METADATA, { asOf: AS_OF }).conditions.filter((condition) =>
    ["BS_NO_NSF", "BS_LARGE_DEPOSITS"].includes(condition.id),
  );
  const judge = (assisted?: AssistedField[]) =>
    evaluateConditions(conditions, [document], { asOf: AS_OF, ...(assisted ? { assisted } : {}) });
  const asked: string[] = [];
  const result = await withModelLocatedFields(judge(), [document], judge, async (_prompt, question) => {
    asked.push(question.field.name);
    return JSON.stringify({ rows });
  });
  return { result, asked };
}

const status = (result: ConditionsResult, id: string) => result.verdicts.find((v) => v.condition_id === id);

describe("transaction rows located by a model", () => {
  it("keeps only rows whose quote is on the page and holds their date and amount", () => {
    const document = statement([PAYROLL, RENT, NSF], "2,310.44");
    const field = findField("transactions");
    if (!field) throw new Error("no transactions field");
    const question: FieldQuestion = { document, field };
    const outcome = verifyRowsAnswer(
      JSON.stringify({
        rows: [
          row(PAYROLL, "2nd of April", "2,310.44", "credit"),
          row(RENT, "9th of April", "1,450.00", "debit"),
          row("Wire from Cayman Trust was credited with 90,000.00", "3rd of April", "90,000.00", "credit"),
          row(NSF, "19th of April", "350.00", "debit"),
          { page: 1, quote: NSF },
        ],
      }),
      question,
    );
    if (!("accepted" in outcome)) throw new Error(`rejected: ${outcome.rejected}`);
    expect(outcome.accepted.rows?.map((kept) => [kept.amount, kept.direction])).toEqual([
      [2310.44, "credit"],
      [1450, "debit"],
    ]);
    expect(outcome.accepted.value).toContain("2 rows (3 discarded");
    expect(outcome.accepted.value).toContain("row 3's quote is not on page 1");
    expect(verifyRowsAnswer('{"rows": []}', question)).toMatchObject({
      rejected: "the model listed no rows either",
    });
    expect(verifyRowsAnswer("no idea", question)).toMatchObject({
      rejected: "the model's answer is not {rows: [...]}",
    });
  });

  it("finds an NSF fee and a large deposit among the rows, citing the rows' own lines", async () => {
    const { result, asked } = await judged(statement([PAYROLL, RENT, NSF], "2,310.44"), [
      row(PAYROLL, "2nd of April", "2,310.44", "credit"),
      row(RENT, "9th of April", "1,450.00", "debit"),
      row(NSF, "19th of April", "35.00", "debit"),
    ]);
    expect(asked).toContain("transactions");
    const nsf = status(result, "BS_NO_NSF");
    expect(nsf?.status, nsf?.reason).toBe("not_fulfilled");
    expect(nsf?.citations[0]?.excerpt).toContain("NSF fee returned item");
    const large = status(result, "BS_LARGE_DEPOSITS");
    expect(large?.status, large?.reason).toBe("not_fulfilled");
    expect(large?.citations[0]?.excerpt).toContain("Payroll Harbor Freight");
  });

  it("concludes no fee only when the rows add up to the printed deposits total", async () => {
    const rows = [
      row(PAYROLL, "2nd of April", "2,310.44", "credit"),
      row(RENT, "9th of April", "1,450.00", "debit"),
    ];
    const reconciled = await judged(statement([PAYROLL, RENT], "2,310.44"), rows);
    expect(status(reconciled.result, "BS_NO_NSF")?.status).toBe("fulfilled");
    const noTotal = await judged(statement([PAYROLL, RENT], null), rows);
    const unproven = status(noTotal.result, "BS_NO_NSF");
    expect(unproven?.status).toBe("insufficient_evidence");
    expect(unproven?.reason).toContain("prints no deposits total to check them against");
    const short = await judged(statement([PAYROLL, RENT], "4,620.88"), rows);
    expect(status(short.result, "BS_NO_NSF")?.status).toBe("insufficient_evidence");
    expect(status(short.result, "BS_NO_NSF")?.reason).toContain(
      "sum to deposits of $2,310.44, not the $4,620.88",
    );
  });

  it("leaves the verdicts undecided when no row the model lists is on the page", async () => {
    const { result } = await judged(statement([PAYROLL, RENT], "2,310.44"), [
      row("Salary was credited with 2,310.44 on the 2nd of April", "2nd of April", "2,310.44", "credit"),
    ]);
    expect(status(result, "BS_NO_NSF")?.status).toBe("insufficient_evidence");
    expect(status(result, "BS_LARGE_DEPOSITS")?.status).toBe("insufficient_evidence");
  });
});
