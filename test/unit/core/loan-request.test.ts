// A loan request's metadata checked against the condition catalog before a run exists, with every
// problem of the request (shape, metadata, locations) in one answer.
import { describe, expect, it } from "vitest";
import { knownClassifications, loadCatalog } from "../../../lambdas/agents/loan/catalog.ts";
import { buildCatalogView } from "../../../lambdas/agents/loan/catalog-view.ts";
import {
  amountOf,
  isCalendarDate,
  LOAN_PROGRAM_REQUIRED,
  type LoanRequestCatalog,
  loanMetadataProblems,
} from "../../../lambdas/agents/loan/loan-request.ts";
import { checkLoanMetadata, loanRequestCatalog } from "../../../lambdas/agents/loan/request-catalog.ts";
import { InvalidRequestError, type RequestPolicy, validateRequest } from "../../../lambdas/core/request.ts";

const policy: RequestPolicy = {
  documents: { documentsBucket: "loan-docs", allowedPrefixes: ["loan-docs"] },
  results: { allowedDestinations: ["artifacts/results/"] },
  metadataProblems: checkLoanMetadata,
};

const METADATA = {
  loan_program: "Flex Supreme",
  classification: "Bank Statements",
  as_of_date: "2025-04-15",
  borrower_info: { name: "Jane Q. Doe", monthly_income: 8000 },
  extracted_entities: { ein: "12-3456789", tax_year: 2024 },
};

const request = (metadata: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  metadata,
  s3_pdf_paths: ["rm-conditions/statement-2025-01.pdf"],
  ...extra,
});

function problemsOf(input: unknown): Array<{ field: string; message: string }> {
  try {
    validateRequest(input, policy);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems;
    throw error;
  }
  throw new Error("the request was accepted");
}

const CLASSIFICATIONS = '"1120 Corporate Tax Return", "Bank Statements"';
const AMOUNT = 'expected a positive amount in US dollars, e.g. 8000 or "$8,000.00"';
const DATE = "expected a date, YYYY-MM-DD, e.g. 2025-04-15";

describe("the request catalog", () => {
  it("lists the catalog's classifications and types every field GET /v1/catalog offers", () => {
    const catalog = loanRequestCatalog();
    expect(catalog.classifications).toEqual(knownClassifications());
    expect(catalog.classifications).toEqual(loadCatalog().classifications.map((entry) => entry.name));
    const offered = new Set(buildCatalogView().classifications.flatMap((c) => c.inputs.map((i) => i.field)));
    expect(new Set(catalog.fields.map((rule) => rule.field))).toEqual(offered);
    expect(Object.fromEntries(catalog.fields.map((rule) => [rule.field, rule.kind]))).toEqual({
      "extracted_entities.ein": "ein",
      "borrower_info.business_name": "text",
      "extracted_entities.tax_year": "year",
      as_of_date: "date",
      "borrower_info.name": "text",
      "borrower_info.monthly_income": "amount",
    });
  });

  it("accepts a complete request, a classification by alias and amounts as the engines read them", () => {
    expect(() => validateRequest(request(METADATA), policy)).not.toThrow();
    for (const classification of ["Form 1120", "bank statement", "MONTHLY BANK STATEMENTS"]) {
      expect(() => validateRequest(request({ ...METADATA, classification }), policy)).not.toThrow();
    }
    for (const monthly_income of ["$8,000.00", "8000", 0.01]) {
      const metadata = { ...METADATA, borrower_info: { monthly_income } };
      expect(() => validateRequest(request(metadata), policy)).not.toThrow();
    }
    // Optional values may be absent or null: the run asks for them, or uses its default.
    const { as_of_date: _date, extracted_entities: _entities, ...bare } = METADATA;
    expect(() => validateRequest(request({ ...bare, borrower_info: {} }), policy)).not.toThrow();
    expect(() => validateRequest(request({ ...bare, as_of_date: null }), policy)).not.toThrow();
  });
});

describe("bad loan metadata is refused, naming the field", () => {
  it.each([
    [
      "an unknown classification",
      { classification: "1040 Personal Tax Return" },
      "metadata.classification",
      `unknown classification "1040 Personal Tax Return": expected one of ${CLASSIFICATIONS} (GET /v1/catalog lists them with their aliases)`,
    ],
    [
      "another unknown classification",
      { classification: "Pay Stubs" },
      "metadata.classification",
      `unknown classification "Pay Stubs": expected one of ${CLASSIFICATIONS} (GET /v1/catalog lists them with their aliases)`,
    ],
    [
      "no classification",
      { classification: undefined },
      "metadata.classification",
      `required: one of ${CLASSIFICATIONS}`,
    ],
    [
      "a classification that is not a string",
      { classification: 1120 },
      "metadata.classification",
      `expected one of ${CLASSIFICATIONS}`,
    ],
    ["an empty loan program", { loan_program: "" }, "metadata.loan_program", LOAN_PROGRAM_REQUIRED],
    ["a blank loan program", { loan_program: "   " }, "metadata.loan_program", LOAN_PROGRAM_REQUIRED],
    ["no loan program", { loan_program: undefined }, "metadata.loan_program", LOAN_PROGRAM_REQUIRED],
    [
      "a loan program that is not a string",
      { loan_program: 7 },
      "metadata.loan_program",
      "expected the loan program's name as a string, e.g. Flex Supreme",
    ],
    ["month 13, day 45", { as_of_date: "2025-13-45" }, "metadata.as_of_date", DATE],
    ["February 30th", { as_of_date: "2025-02-30" }, "metadata.as_of_date", DATE],
    ["February 29th of a common year", { as_of_date: "2025-02-29" }, "metadata.as_of_date", DATE],
    ["a US date", { as_of_date: "04/15/2025" }, "metadata.as_of_date", DATE],
    ["an empty date", { as_of_date: "" }, "metadata.as_of_date", DATE],
    [
      "a negative monthly income",
      { borrower_info: { monthly_income: -8000 } },
      "metadata.borrower_info.monthly_income",
      AMOUNT,
    ],
    [
      "a negative monthly income as text",
      { borrower_info: { monthly_income: "-$8,000.00" } },
      "metadata.borrower_info.monthly_income",
      AMOUNT,
    ],
    [
      "a zero monthly income",
      { borrower_info: { monthly_income: 0 } },
      "metadata.borrower_info.monthly_income",
      AMOUNT,
    ],
    [
      "an infinite monthly income (1e999 in JSON)",
      { borrower_info: { monthly_income: JSON.parse("1e999") } },
      "metadata.borrower_info.monthly_income",
      AMOUNT,
    ],
    [
      "a monthly income in words",
      { borrower_info: { monthly_income: "eight thousand" } },
      "metadata.borrower_info.monthly_income",
      AMOUNT,
    ],
    [
      "a negative monthly income where the engine also reads it",
      { monthly_income: -1 },
      "metadata.monthly_income",
      AMOUNT,
    ],
    [
      "a two-digit tax year",
      { extracted_entities: { tax_year: 24 } },
      "metadata.extracted_entities.tax_year",
      "expected a four-digit year, e.g. 2024",
    ],
    [
      "an EIN of eight digits",
      { extracted_entities: { ein: "12-345678" } },
      "metadata.extracted_entities.ein",
      'expected nine digits in the NN-NNNNNNN form, e.g. "12-3456789"',
    ],
    [
      "borrower_info that is not an object",
      { borrower_info: "Jane" },
      "metadata.borrower_info",
      "expected an object",
    ],
  ])("%s", (_name, change, field, message) => {
    expect(problemsOf(request({ ...METADATA, ...change }))).toEqual([{ field, message }]);
  });

  it("names every problem of a request at once: shape, metadata and locations", () => {
    const problems = problemsOf(
      request(
        {
          loan_program: "",
          classification: "Pay Stubs",
          as_of_date: "2025-13-45",
          borrower_info: { monthly_income: -5 },
        },
        {
          s3_pdf_paths: ["s3://someone-elses-bucket/a.pdf", "rm-conditions/ok.pdf", ""],
          output_destination: "s3://elsewhere/results/",
          options: { max_steps: 0, turbo: true },
        },
      ),
    );
    expect(problems.map((problem) => problem.field).sort()).toEqual(
      [
        "metadata.classification",
        "metadata.loan_program",
        "metadata.as_of_date",
        "metadata.borrower_info.monthly_income",
        "s3_pdf_paths[0]",
        "s3_pdf_paths[2]",
        "output_destination",
        "options.max_steps",
        "options.turbo",
      ].sort(),
    );
    expect(problems.find((p) => p.field === "s3_pdf_paths[0]")?.message).toMatch(
      /outside the allowed document locations/,
    );
    expect(problems.find((p) => p.field === "s3_pdf_paths[2]")?.message).toBe(
      "expected a non-empty document path",
    );
    expect(problems.find((p) => p.field === "output_destination")?.message).toMatch(
      /outside the allowed result locations/,
    );
  });

  it("checks metadata even when the body has fields of the wrong shape", () => {
    const problems = problemsOf({ metadata: { classification: "W-2" }, s3_pdf_paths: "a.pdf" });
    expect(problems.map((problem) => problem.field)).toEqual([
      "s3_pdf_paths",
      "metadata.classification",
      "metadata.loan_program",
    ]);
  });
});

describe("the value rules", () => {
  it("reads amounts as the PreConditions engine does", () => {
    expect(amountOf("$8,000.00")).toBe(8000);
    expect(amountOf(" 12 500 ")).toBe(12500);
    expect(amountOf(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(amountOf("1e3")).toBeUndefined();
    expect(amountOf("-5")).toBeUndefined();
    expect(amountOf(true)).toBeUndefined();
  });

  it("knows which days exist", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2025-12-31")).toBe(true);
    expect(isCalendarDate("2025-02-29")).toBe(false);
    expect(isCalendarDate("2025-04-31")).toBe(false);
    expect(isCalendarDate("2025-00-10")).toBe(false);
    expect(isCalendarDate("2025-4-1")).toBe(false);
    expect(isCalendarDate("2025-04-15T00:00:00Z")).toBe(false);
  });

  it("works from whatever catalog it is given", () => {
    const catalog: LoanRequestCatalog = {
      classifications: ["Pay Stubs"],
      resolveClassification: (value) => (value.toLowerCase() === "pay stubs" ? "Pay Stubs" : undefined),
      fields: [{ field: "employment.start_date", kind: "date", expected: "a start date, YYYY-MM-DD" }],
    };
    expect(
      loanMetadataProblems(
        { classification: "pay stubs", loan_program: "P", employment: { start_date: "2025-02-31" } },
        catalog,
      ),
    ).toEqual([{ field: "metadata.employment.start_date", message: "expected a start date, YYYY-MM-DD" }]);
  });
});
