// What the New evaluation form derives without a browser: labels and value kinds from the catalog's
// inputs, the request it sends (metadata at dotted paths, money as numbers, options), the problems it
// finds first (named like the API names them, checked against the API's own validation), and where
// an API error's field is shown.
import { describe, expect, it } from "vitest";
import { buildCatalogView } from "../../../lambdas/agents/loan/catalog-view.ts";
import { checkLoanMetadata } from "../../../lambdas/agents/loan/request-catalog.ts";
import type { CatalogView } from "../../../lambdas/contracts/api-types.ts";
import { type InvalidRequestError, validateRequest } from "../../../lambdas/core/request.ts";

// The dashboard's modules are plain browser JavaScript without type declarations.
const modulePath = (name: string) => `../../../dashboard/${name}`;
type Input = CatalogView["classifications"][number]["inputs"][number];
interface Problem {
  field: string;
  message: string;
}
interface Values {
  loan_program?: string;
  classification?: string;
  loan_number?: string;
  as_of_date?: string;
  fields?: Record<string, string>;
  instructions?: string;
  parallel?: boolean;
  max_steps?: string;
  approval?: boolean;
}
const form = (await import(modulePath("new-evaluation.js"))) as {
  fieldLabel: (field: string) => string;
  inputKind: (input: Partial<Input>) => string;
  setPath: (target: Record<string, unknown>, dotted: string, value: unknown) => Record<string, unknown>;
  buildRequest: (
    values: Values,
    inputs: Input[],
    documents: { status: string; s3_pdf_path?: string }[],
    classifications?: string[],
  ) => { request: Record<string, unknown> | null; errors: Problem[] };
  errorTarget: (field: string, controls: string[]) => { control?: string; document?: number } | null;
};
const uploads = (await import(modulePath("uploads.js"))) as {
  isPdf: (file: { name: string; type: string }) => boolean;
  s3ErrorText: (status: number, body: string) => string;
  uploadRequestFor: (file: { name: string; size: number }, sha256: string) => unknown;
};

const catalog = buildCatalogView();
const inputsOf = (name: string) => catalog.classifications.find((c) => c.name === name)?.inputs ?? [];
const TAX = "1120 Corporate Tax Return";
const uploaded = [{ status: "uploaded", s3_pdf_path: "uploads/0123456789abcdef/1120-signed.pdf" }];
const policy = {
  documents: { documentsBucket: "docs", allowedPrefixes: ["docs/uploads/"] },
  results: { allowedDestinations: [] },
  metadataProblems: checkLoanMetadata,
};

describe("the classification's fields", () => {
  it("are labelled from their dotted path and typed from what the catalog expects", () => {
    expect(form.fieldLabel("borrower_info.business_name")).toBe("Business name");
    expect(form.fieldLabel("extracted_entities.ein")).toBe("EIN");
    expect(form.fieldLabel("borrower_info.monthly_income")).toBe("Monthly income");
    const kinds = Object.fromEntries(
      [...inputsOf(TAX), ...inputsOf("Bank Statements")].map((input) => [input.field, form.inputKind(input)]),
    );
    expect(kinds).toEqual({
      "extracted_entities.ein": "ein",
      "borrower_info.business_name": "text",
      "extracted_entities.tax_year": "year",
      as_of_date: "date",
      "borrower_info.name": "text",
      "borrower_info.monthly_income": "money",
    });
  });

  it("are written at their dotted paths", () => {
    expect(form.setPath({ a: 1, b: "x" }, "b.c.d", 2)).toEqual({ a: 1, b: { c: { d: 2 } } });
  });
});

describe("the request the form sends", () => {
  it("carries metadata at dotted paths, amounts and years as numbers, and the options; the API accepts it", () => {
    const { request, errors } = form.buildRequest(
      {
        loan_program: " Flex Supreme ",
        classification: "Bank Statements",
        loan_number: "LN-1001",
        as_of_date: "2025-04-15",
        fields: { "borrower_info.name": "Jane Q. Doe", "borrower_info.monthly_income": "$8,000.50" },
        instructions: "Which conditions apply?",
        parallel: false,
        max_steps: "12",
        approval: true,
      },
      inputsOf("Bank Statements"),
      uploaded,
    );
    expect(errors).toEqual([]);
    expect(request).toEqual({
      metadata: {
        loan_program: "Flex Supreme",
        classification: "Bank Statements",
        loan_number: "LN-1001",
        as_of_date: "2025-04-15",
        borrower_info: { name: "Jane Q. Doe", monthly_income: 8000.5 },
      },
      instructions: "Which conditions apply?",
      s3_pdf_paths: ["uploads/0123456789abcdef/1120-signed.pdf"],
      options: { parallel: false, max_steps: 12, approval: "required" },
    });
    expect(() => validateRequest(request, policy)).not.toThrow();
  });

  it("leaves out what is blank: no instructions, default steps, no approval", () => {
    const { request } = form.buildRequest(
      {
        loan_program: "Flex Supreme",
        classification: TAX,
        fields: { "extracted_entities.tax_year": "2024" },
      },
      inputsOf(TAX),
      uploaded,
    );
    expect(request).toEqual({
      metadata: { loan_program: "Flex Supreme", classification: TAX, extracted_entities: { tax_year: 2024 } },
      s3_pdf_paths: [uploaded[0]?.s3_pdf_path],
      options: { parallel: true },
    });
  });

  it("finds first what the API would refuse, under the API's field names", () => {
    const tooLong = "x".repeat(4001);
    const { request, errors } = form.buildRequest(
      {
        loan_program: "",
        classification: "",
        instructions: tooLong,
        max_steps: "51",
        fields: { "borrower_info.monthly_income": "-5" },
      },
      inputsOf("Bank Statements"),
      [],
    );
    expect(request).toBeNull();
    expect(errors.map((e) => e.field)).toEqual([
      "metadata.loan_program",
      "metadata.classification",
      "metadata.borrower_info.monthly_income",
      "instructions",
      "s3_pdf_paths",
      "options.max_steps",
    ]);
    // The API names the same fields for the same faults, all in one answer.
    try {
      validateRequest(
        {
          metadata: { borrower_info: { monthly_income: -5 } },
          instructions: tooLong,
          s3_pdf_paths: [],
          options: { max_steps: 51 },
        },
        policy,
      );
      expect.unreachable();
    } catch (error) {
      expect((error as InvalidRequestError).problems.map((p) => p.field).sort()).toEqual(
        errors.map((e) => e.field).sort(),
      );
    }
  });

  it("says what the API says of the same bad metadata, in the same words", () => {
    const names = catalog.classifications.map((c) => c.name);
    const bad = {
      loan_program: "",
      classification: "",
      as_of_date: "2025-13-45",
      fields: { "borrower_info.monthly_income": "-8,000" },
    };
    const { errors } = form.buildRequest(bad, inputsOf("Bank Statements"), uploaded, names);
    let api: Problem[] = [];
    try {
      validateRequest(
        {
          metadata: { as_of_date: bad.as_of_date, borrower_info: { monthly_income: "-8,000" } },
          s3_pdf_paths: ["uploads/0123456789abcdef/1120-signed.pdf"],
        },
        policy,
      );
      expect.unreachable();
    } catch (error) {
      api = (error as InvalidRequestError).problems;
    }
    const byField = (problems: Problem[]) =>
      Object.fromEntries(problems.map((problem) => [problem.field, problem.message]));
    expect(byField(errors)).toEqual(byField(api));
    expect(Object.keys(byField(errors)).sort()).toEqual([
      "metadata.as_of_date",
      "metadata.borrower_info.monthly_income",
      "metadata.classification",
      "metadata.loan_program",
    ]);
    // The same rules: a day that does not exist, an amount the engines would not read.
    for (const [as_of_date, ok] of [
      ["2024-02-29", true],
      ["2025-02-29", false],
    ] as const) {
      const built = form.buildRequest({ loan_program: "P", classification: TAX, as_of_date }, [], uploaded);
      expect(built.errors.length === 0, as_of_date).toBe(ok);
    }
    const amount = (text: string) =>
      form.buildRequest(
        {
          loan_program: "P",
          classification: "Bank Statements",
          fields: { "borrower_info.monthly_income": text },
        },
        inputsOf("Bank Statements"),
        uploaded,
      ).errors;
    expect(amount("1e3")).toHaveLength(1);
    expect(amount("$8,000.00")).toEqual([]);
  });

  it("waits for uploads, and refuses a failed one until it is retried or removed", () => {
    const base = { loan_program: "P", classification: TAX };
    expect(form.buildRequest(base, [], [{ status: "uploading" }]).errors).toEqual([
      { field: "s3_pdf_paths", message: "wait until every document is uploaded" },
    ]);
    expect(form.buildRequest(base, [], [...uploaded, { status: "failed" }]).errors[0]?.field).toBe(
      "s3_pdf_paths",
    );
  });
});

describe("where an API error is shown", () => {
  const controls = ["metadata.loan_program", "metadata.borrower_info.name", "instructions", "s3_pdf_paths"];
  it("at the control the field names, the document it counts, or the form", () => {
    expect(form.errorTarget("instructions", controls)).toEqual({ control: "instructions" });
    expect(form.errorTarget("metadata.borrower_info.name", controls)).toEqual({
      control: "metadata.borrower_info.name",
    });
    expect(form.errorTarget("metadata.borrower_info.name.first", controls)).toEqual({
      control: "metadata.borrower_info.name",
    });
    expect(form.errorTarget("s3_pdf_paths[1]", controls)).toEqual({ document: 1 });
    expect(form.errorTarget("s3_pdf_paths", controls)).toEqual({ control: "s3_pdf_paths" });
    expect(form.errorTarget("metadata", controls)).toBeNull();
    expect(form.errorTarget("output_destination", controls)).toBeNull();
  });
});

describe("uploads", () => {
  it("accept PDFs only and say what storage refused", () => {
    expect(uploads.isPdf({ name: "a.pdf", type: "application/pdf" })).toBe(true);
    expect(uploads.isPdf({ name: "a.PDF", type: "" })).toBe(true);
    expect(uploads.isPdf({ name: "a.pdf", type: "text/plain" })).toBe(false);
    expect(uploads.isPdf({ name: "notes.txt", type: "" })).toBe(false);
    expect(
      uploads.s3ErrorText(
        400,
        "<Error><Code>BadDigest</Code><Message>The checksum did not match</Message></Error>",
      ),
    ).toBe("storage refused the upload (400 BadDigest: The checksum did not match)");
    expect(uploads.uploadRequestFor({ name: "r.pdf", size: 42 }, "a".repeat(64))).toEqual({
      filename: "r.pdf",
      content_type: "application/pdf",
      size_bytes: 42,
      sha256: "a".repeat(64),
    });
  });
});
