// What the reference engine tells a loan officer to do: every verdict carries the catalog's
// priority; a verdict that is not fulfilled carries remedies, and `missing` where the evaluator
// knows exactly what is missing (a month, a letter for one deposit, a blank date, two values).
import { describe, expect, it } from "vitest";
import { buildBankStatement, buildForm1120 } from "../../../examples/samples.ts";
import { findCondition } from "../../../lambdas/agents/loan/catalog.ts";
import { evaluateConditions, type Verdict } from "../../../lambdas/agents/loan/conditions-engine.ts";
import { predictConditions } from "../../../lambdas/agents/loan/preconditions.ts";
import {
  AS_OF,
  BANK_METADATA,
  evaluate,
  expectValidCitations,
  extractedSamples,
  pdf,
  sample,
  TAX_METADATA,
  verdictOf,
} from "./fixtures.ts";

describe("priority and remedies on every verdict", () => {
  it("gives each verdict its catalog priority, remedies only when not fulfilled, over every sample", async () => {
    const all = [...(await extractedSamples()).values()];
    const combinations = [...all.map((document) => [document]), all];
    let unfulfilled = 0;
    for (const documents of combinations) {
      for (const metadata of [TAX_METADATA, BANK_METADATA]) {
        const conditions = predictConditions(metadata, { asOf: AS_OF }).conditions;
        const { verdicts } = evaluateConditions(conditions, documents, { asOf: AS_OF });
        for (const verdict of verdicts) {
          expect(verdict.priority, verdict.condition_id).toBe(findCondition(verdict.condition_id)?.priority);
          if (verdict.status === "fulfilled") {
            expect(verdict.remedies, verdict.condition_id).toBeUndefined();
            expect(verdict.missing, verdict.condition_id).toBeUndefined();
            continue;
          }
          unfulfilled += 1;
          expect(verdict.remedies?.length, verdict.condition_id).toBeGreaterThan(0);
          for (const text of [...(verdict.remedies ?? []), ...(verdict.missing ?? [])]) {
            expect(text.trim(), verdict.condition_id).not.toBe("");
          }
        }
      }
    }
    expect(unfulfilled).toBeGreaterThan(20);
  });

  it("falls back to the catalog's action when the finding knows no specifics", async () => {
    const { borrower_info: _borrower, ...noBorrower } = BANK_METADATA;
    const verdicts = evaluate(noBorrower, await sample("statement-2025-01.pdf", "statement-2025-02.pdf"));
    const name = verdictOf(verdicts, "BS_NAME_MATCH");
    expect(name.status).toBe("insufficient_evidence");
    expect(name.remedies).toEqual([findCondition("BS_NAME_MATCH")?.remedy.insufficient_evidence]);
    expect(name.missing).toBeUndefined();
  });

  it("ranks a condition the catalog does not know by the input, and says to check it by hand", async () => {
    const { verdicts } = evaluateConditions(
      [{ id: "W2_MATCH", title: "W-2 matches", priority: "low" }, "K1_MATCH"],
      await sample("1120-signed.pdf"),
    );
    expect(verdicts[0]).toMatchObject({
      condition_id: "W2_MATCH",
      priority: "low",
      remedies: ["Check W2_MATCH by hand: the condition catalog does not know it"],
    });
    expect(verdicts[1]).not.toHaveProperty("priority");
  });
});

describe("BS_TWO_MONTHS names the statements to ask for", () => {
  it("the month missing between the first and the last statement", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-01.pdf", "statement-2025-03-nsf.pdf")),
      "BS_TWO_MONTHS",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.observed?.missing_months).toEqual(["2025-02"]);
    expect(verdict.missing).toEqual(["statement for 2025-02 (gap between 2025-01 and 2025-03)"]);
    expect(verdict.remedies).toEqual(["Provide the statement for 2025-02 (gap between 2025-01 and 2025-03)"]);
  });

  it("the months since a statement that is too old, and the date the latest must reach", async () => {
    const verdict = verdictOf(
      evaluate(
        { ...BANK_METADATA, as_of_date: "2025-06-15" },
        await sample("statement-2025-01.pdf", "statement-2025-02.pdf"),
      ),
      "BS_TWO_MONTHS",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.observed?.missing_months).toEqual(["2025-03", "2025-04"]);
    expect(verdict.missing).toEqual([
      "statement for 2025-03 (after the latest statement, 2025-02)",
      "statement for 2025-04 (after the latest statement, 2025-02)",
      "a statement ending on or after 2025-04-16: the latest ends 2025-02-28",
    ]);
    expect(verdict.remedies?.[2]).toBe(
      "Provide a statement ending on or after 2025-04-16: the latest ends 2025-02-28",
    );
  });

  it("the month before a single recent statement", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-02.pdf")),
      "BS_TWO_MONTHS",
    );
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.missing).toEqual(["statement for 2025-01 (before the earliest statement, 2025-02)"]);
  });
});

describe("bank statement findings name each item", () => {
  it("BS_LARGE_DEPOSITS: one letter of explanation per flagged deposit", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-02.pdf", "statement-2025-03-large-deposit.pdf")),
      "BS_LARGE_DEPOSITS",
    );
    expect(verdict.missing).toEqual([
      "letter of explanation for the 2025-03-12 deposit of $12,500.00 (Incoming Wire Transfer - From ROBERT DOE)",
    ]);
    expect(verdict.remedies).toEqual([
      "Obtain a letter of explanation for the 2025-03-12 deposit of $12,500.00 (Incoming Wire Transfer - From ROBERT DOE), statement rm-conditions/statement-2025-03-large-deposit.pdf page 1",
    ]);
  });

  it("BS_NO_NSF: one action per fee, with its date, amount and description", async () => {
    const verdict = verdictOf(
      evaluate(BANK_METADATA, await sample("statement-2025-03-nsf.pdf")),
      "BS_NO_NSF",
    );
    expect(verdict.observed?.fees).toEqual([
      {
        document: "rm-conditions/statement-2025-03-nsf.pdf",
        page: 1,
        date: "2025-03-17",
        label: "NSF Fee - Returned Check #1043",
        amount: 35,
      },
    ]);
    expect(verdict.remedies).toEqual([
      "Obtain a letter of explanation for the 2025-03-17 fee of $35.00 (NSF Fee - Returned Check #1043), statement rm-conditions/statement-2025-03-nsf.pdf page 1",
    ]);
  });

  it("BS_NAME_MATCH and BS_SAME_ACCOUNT: the names and accounts compared", async () => {
    const other = await pdf(
      await buildBankStatement({
        year: 2025,
        month: 2,
        accountLast4: "7777",
        beginningBalance: 1000,
        transactions: [{ day: 3, description: "Payroll Direct Deposit", amount: 2000 }],
      }),
      "feb-other-account.pdf",
    );
    const documents = [...(await sample("statement-2025-01.pdf", "statement-2025-02-other-name.pdf")), other];
    const verdicts = evaluate(BANK_METADATA, documents);
    expect(verdictOf(verdicts, "BS_NAME_MATCH").missing).toEqual([
      'rm-conditions/statement-2025-02-other-name.pdf names "John R. Smith" as account holder; the file says "Jane Q. Doe"',
    ]);
    const account = verdictOf(verdicts, "BS_SAME_ACCOUNT");
    expect(account.status).toBe("not_fulfilled");
    expect(account.missing).toEqual([
      "statement of the account ending 4821 for the period of feb-other-account.pdf, which is for the account ending 7777",
    ]);
    expect(account.remedies).toEqual([
      "Provide the statement of the account ending 4821 in place of feb-other-account.pdf, or explain the account ending 7777 and provide its statements for the same months",
    ]);
  });
});

describe("tax return findings say what to fix", () => {
  async function judge(metadata: Record<string, unknown>, bytes: Uint8Array): Promise<Map<string, Verdict>> {
    return evaluate(metadata, [await pdf(bytes, "return.pdf")]);
  }

  it("TR_SIGNED: signature and date both blank", async () => {
    const verdict = verdictOf(evaluate(TAX_METADATA, await sample("1120-unsigned.pdf")), "TR_SIGNED");
    expect(verdict.missing).toEqual([
      `officer's signature in the "Sign Here" block on page 1 of rm-conditions/1120-unsigned.pdf`,
      `date beside the officer's signature in the "Sign Here" block on page 1 of rm-conditions/1120-unsigned.pdf`,
    ]);
    expect(verdict.remedies).toEqual([
      'Have an officer sign and date the "Sign Here" block on page 1 of rm-conditions/1120-unsigned.pdf, then provide the signed return',
    ]);
  });

  it("TR_SIGNED: signed but not dated", async () => {
    const verdict = verdictOf(await judge(TAX_METADATA, await buildForm1120({ signDate: "" })), "TR_SIGNED");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.missing).toEqual([
      `date beside the officer's signature in the "Sign Here" block on page 1 of return.pdf`,
    ]);
    expect(verdict.remedies).toEqual([
      'Have the officer who signed (Robert J. Tanner) date the "Sign Here" block on page 1 of return.pdf, then provide the dated return',
    ]);
  });

  it("TR_TAX_YEAR without an expected year: says so and which year the return shows", async () => {
    const { extracted_entities: _entities, ...metadata } = TAX_METADATA;
    const verdict = verdictOf(await judge(metadata, await buildForm1120({ taxYear: 2021 })), "TR_TAX_YEAR");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.missing).toEqual([
      "tax year not given (extracted_entities.tax_year) and the return shows 2021",
    ]);
    expect(verdict.remedies).toEqual([
      "Provide the Form 1120 for 2024 or 2023 (the return provided is for 2021), or give the expected tax year in extracted_entities.tax_year",
    ]);
  });

  it("TR_EIN_MATCH and TR_NAME_MATCH: the values compared", async () => {
    const verdicts = await judge(
      TAX_METADATA,
      await buildForm1120({ ein: "98-7654321", corporationName: "Acme Holdings LLC" }),
    );
    expect(verdictOf(verdicts, "TR_EIN_MATCH").missing).toEqual([
      "the return shows EIN 98-7654321; the file says 12-3456789",
    ]);
    expect(verdictOf(verdicts, "TR_EIN_MATCH").remedies).toEqual([
      "Confirm the borrower's EIN (the return shows EIN 98-7654321; the file says 12-3456789): provide the return filed under 12-3456789, or correct extracted_entities.ein",
    ]);
    expect(verdictOf(verdicts, "TR_NAME_MATCH").missing).toEqual([
      'the return names "Acme Holdings LLC"; the file says "Acme Widgets Inc"',
    ]);
  });

  it("TR_COMPLETE: the part that is missing", async () => {
    const verdict = verdictOf(
      await judge(TAX_METADATA, await buildForm1120({ includeScheduleL: false })),
      "TR_COMPLETE",
    );
    expect(verdict.missing).toEqual(["Schedule L (Balance Sheets per Books) of the Form 1120"]);
    expect(verdict.remedies).toEqual([
      "Provide Schedule L (Balance Sheets per Books) of the Form 1120 (return.pdf lacks it)",
    ]);
  });

  it("cites only pages that hold the excerpts, specifics or not", async () => {
    const documents = [await pdf(await buildForm1120({ signed: false, taxYear: 2021 }), "return.pdf")];
    const { verdicts } = evaluateConditions(predictConditions(TAX_METADATA).conditions, documents, {
      asOf: AS_OF,
    });
    expectValidCitations(verdicts, documents);
    expect(verdicts.filter((v) => v.status === "not_fulfilled").map((v) => v.condition_id)).toEqual([
      "TR_SIGNED",
      "TR_TAX_YEAR",
    ]);
  });
});
