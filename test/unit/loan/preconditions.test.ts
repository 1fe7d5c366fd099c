import { describe, expect, it } from "vitest";
import { predictConditions } from "../../../lambdas/agents/loan/preconditions.ts";
import { AS_OF, BANK_METADATA, TAX_METADATA } from "./fixtures.ts";

describe("predictConditions", () => {
  it("predicts the tax-return conditions with what the evaluator needs from metadata", () => {
    const result = predictConditions(TAX_METADATA);
    expect(result.loan_program).toBe("Flex Supreme");
    expect(result.classification).toBe("1120 Corporate Tax Return");
    expect(result.as_of_date).toBe("2025-04-15");
    const byId = new Map(result.conditions.map((c) => [c.id, c]));
    expect([...byId.keys()]).toEqual([
      "TR_SIGNED",
      "TR_TAX_YEAR",
      "TR_EIN_MATCH",
      "TR_NAME_MATCH",
      "TR_COMPLETE",
    ]);
    expect(byId.get("TR_EIN_MATCH")).toMatchObject({
      title: "Employer identification number matches",
      compartment: "Compliance",
      priority: "high",
      reason: "verify the EIN on the return equals 12-3456789",
      verifiable: true,
      expected: { ein: "12-3456789" },
    });
    expect(byId.get("TR_TAX_YEAR")?.expected).toEqual({
      tax_year: 2024,
      as_of_date: "2025-04-15",
      accepted_tax_years: [2024, 2023],
    });
    expect(byId.get("TR_NAME_MATCH")?.expected).toEqual({ business_name: "Acme Widgets Inc" });
  });

  it("predicts the bank-statement conditions with borrower name, income threshold and as-of date", () => {
    const result = predictConditions(BANK_METADATA);
    const byId = new Map(result.conditions.map((c) => [c.id, c]));
    expect([...byId.keys()]).toEqual([
      "BS_TWO_MONTHS",
      "BS_NAME_MATCH",
      "BS_SAME_ACCOUNT",
      "BS_NO_NSF",
      "BS_LARGE_DEPOSITS",
    ]);
    expect(byId.get("BS_NAME_MATCH")?.expected).toEqual({ borrower_name: "Jane Q. Doe" });
    expect(byId.get("BS_LARGE_DEPOSITS")?.expected).toEqual({
      monthly_income: 8000,
      income_ratio: 0.5,
      threshold: 4000,
    });
    expect(byId.get("BS_LARGE_DEPOSITS")?.reason).toContain("$4,000.00");
    expect(byId.get("BS_TWO_MONTHS")?.expected).toEqual({
      as_of_date: "2025-04-15",
      min_consecutive_months: 2,
      max_days_since_period_end: 60,
    });
    expect(byId.get("BS_TWO_MONTHS")?.reason).toContain("on or after 2025-02-14");
  });

  it("says why a condition cannot be verified when metadata lacks what it needs", () => {
    const result = predictConditions(
      { classification: "1120 Corporate Tax Return", borrower_info: {}, extracted_entities: {} },
      { asOf: AS_OF },
    );
    const byId = new Map(result.conditions.map((c) => [c.id, c]));
    expect(result.loan_program).toBeNull();
    expect(byId.get("TR_EIN_MATCH")).toMatchObject({
      reason: "no EIN in metadata (extracted_entities.ein): cannot verify TR_EIN_MATCH",
      verifiable: false,
      expected: {},
    });
    expect(byId.get("TR_NAME_MATCH")?.reason).toBe(
      "no business name in metadata (borrower_info.business_name): cannot verify TR_NAME_MATCH",
    );
    expect(byId.get("TR_TAX_YEAR")?.reason).toBe(
      "no tax_year in metadata: the return must be for 2024 or 2023, the 2 most recent completed tax years before 2025-04-15",
    );
    expect(byId.get("TR_TAX_YEAR")?.expected).toEqual({
      as_of_date: "2025-04-15",
      accepted_tax_years: [2024, 2023],
    });

    const bank = predictConditions({
      classification: "Bank Statements",
      borrower_info: { monthly_income: "n/a" },
    });
    const large = bank.conditions.find((c) => c.id === "BS_LARGE_DEPOSITS");
    expect(large?.reason).toContain('monthly_income "n/a" is not a positive amount');
    expect(bank.conditions.find((c) => c.id === "BS_NAME_MATCH")?.reason).toContain(
      "no borrower name in metadata (borrower_info.name)",
    );
  });

  it("flags a malformed EIN and normalizes a bare 9-digit one", () => {
    const bad = predictConditions({ ...TAX_METADATA, extracted_entities: { ein: "123" } });
    expect(bad.conditions.find((c) => c.id === "TR_EIN_MATCH")?.reason).toContain(
      'metadata EIN "123" is not in the NN-NNNNNNN form',
    );
    const bare = predictConditions({ ...TAX_METADATA, extracted_entities: { ein: "123456789" } });
    expect(bare.conditions.find((c) => c.id === "TR_EIN_MATCH")?.expected).toEqual({ ein: "12-3456789" });
  });

  it("uses options.asOf when metadata has no as_of_date, and rejects an invalid one", () => {
    const { as_of_date: _ignored, ...withoutDate } = BANK_METADATA;
    expect(predictConditions(withoutDate, { asOf: new Date("2025-06-30T00:00:00Z") }).as_of_date).toBe(
      "2025-06-30",
    );
    expect(() => predictConditions({ ...BANK_METADATA, as_of_date: "next week" })).toThrow(
      'metadata.as_of_date "next week" is not a date: expected YYYY-MM-DD',
    );
  });

  it("accepts classification aliases", () => {
    expect(predictConditions({ ...TAX_METADATA, classification: "form 1120" }).classification).toBe(
      "1120 Corporate Tax Return",
    );
  });

  it("rejects an unknown or missing classification, listing the known ones", () => {
    expect(() => predictConditions({ ...TAX_METADATA, classification: "W-2 Wage Statement" })).toThrow(
      'unknown classification "W-2 Wage Statement": known classifications are "1120 Corporate Tax Return", "Bank Statements"',
    );
    expect(() => predictConditions({ loan_program: "Flex Supreme" })).toThrow(
      'metadata.classification is missing: expected one of "1120 Corporate Tax Return", "Bank Statements"',
    );
  });
});
