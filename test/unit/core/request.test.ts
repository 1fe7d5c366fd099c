import { describe, expect, it } from "vitest";
import { checkLoanMetadata } from "../../../lambdas/agents/loan/request-catalog.ts";
import {
  InvalidRequestError,
  MAX_JSON_DEPTH,
  type RequestPolicy,
  RequestTooLargeError,
  validateRequest,
} from "../../../lambdas/core/request.ts";
import {
  MAX_METADATA_DEPTH,
  REQUEST_STORAGE_BUDGET_BYTES,
  requestFootprint,
} from "../../../lambdas/core/request-budget.ts";

const policy: RequestPolicy = {
  documents: { documentsBucket: "loan-docs", allowedPrefixes: ["loan-docs"] },
  results: { allowedDestinations: ["artifacts/results/"] },
  metadataProblems: checkLoanMetadata,
};

const LOAN = { loan_program: "Flex Supreme", classification: "1120 Corporate Tax Return" };
const request = (extra: Record<string, unknown> = {}) => ({
  metadata: LOAN,
  s3_pdf_paths: ["rm-conditions/1120-signed.pdf"],
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

/** `{key: {key: ... leaf}}`, `levels` objects deep. */
function nested(levels: number, key = "a"): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = { [key]: value };
  return value;
}

describe("validateRequest", () => {
  it("accepts a request with a destination inside the allowed results location", () => {
    const accepted = validateRequest(request({ output_destination: "s3://artifacts/results/" }), policy);
    expect(accepted.output_destination).toBe("s3://artifacts/results/");
  });

  it.each([
    ["a NUL", "rm-conditions/a\u0000.pdf", /control character U\+0000 at position 15/],
    ["a newline", "rm-conditions/a\nb.pdf", /control character U\+000A/],
    ["DEL", "s3://loan-docs/a\u007f.pdf", /control character U\+007F/],
    ["1,025 bytes", `k/${"x".repeat(1023)}`, /1025 bytes of UTF-8; S3 keys are at most 1024 bytes/],
    ["1,025 bytes of UTF-8 in 513 characters", `k/${"é".repeat(511)}x`, /1025 bytes of UTF-8/],
  ])("names the document path with %s in its key", (_name, path, message) => {
    const problems = problemsOf(request({ s3_pdf_paths: ["rm-conditions/ok.pdf", path] }));
    expect(problems).toEqual([{ field: "s3_pdf_paths[1]", message: expect.stringMatching(message) }]);
  });

  it("accepts a key of exactly 1,024 bytes", () => {
    expect(() => validateRequest(request({ s3_pdf_paths: [`k/${"x".repeat(1022)}`] }), policy)).not.toThrow();
  });

  it.each([
    [
      "the documents bucket",
      "s3://loan-docs/results/out.json",
      /inside the document location s3:\/\/loan-docs/,
    ],
    [
      "one of the documents",
      "s3://loan-docs/rm-conditions/1120-signed.pdf",
      /one of this request's documents/,
    ],
    [
      "another bucket",
      "s3://elsewhere/results/",
      /outside the allowed result locations \(s3:\/\/artifacts\/results\/\)/,
    ],
    [
      "the artifacts bucket outside results/",
      "s3://artifacts/runs/x.json",
      /outside the allowed result locations/,
    ],
    ["a NUL in the key", "s3://artifacts/results/a\u0000.json", /control character U\+0000/],
    ["not s3", "https://artifacts/results/", /expected s3:\/\/bucket\/prefix\/ or s3:\/\/bucket\/key\.json/],
  ])("names output_destination pointing at %s", (_name, destination, message) => {
    expect(problemsOf(request({ output_destination: destination }))).toEqual([
      { field: "output_destination", message: expect.stringMatching(message) },
    ]);
  });

  it("reports every problem at once: documents and destination", () => {
    const problems = problemsOf(
      request({ s3_pdf_paths: ["s3://other/a.pdf"], output_destination: "s3://loan-docs/x.json" }),
    );
    expect(problems.map((p) => p.field)).toEqual(["s3_pdf_paths[0]", "output_destination"]);
  });

  it(`rejects a body nested deeper than ${MAX_JSON_DEPTH} levels, naming where, without recursion`, () => {
    // 100,000 levels: a recursive walk would overflow the stack before it could answer.
    const problems = problemsOf(request({ metadata: { ...LOAN, notes: nested(100_000) } }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.field).toBe(`metadata.notes${".a".repeat(MAX_JSON_DEPTH - 2)}`);
    expect(problems[0]?.message).toMatch(/nest at most 32 levels/);

    const array = JSON.parse(`${"[".repeat(50)}${"]".repeat(50)}`);
    expect(problemsOf(array)).toEqual([
      { field: `(body)${"[0]".repeat(MAX_JSON_DEPTH)}`, message: expect.stringMatching(/at most 32 levels/) },
    ]);
  });

  it("limits metadata nesting to what the plan's copy can store in DynamoDB", () => {
    // metadata is level 1: MAX_METADATA_DEPTH objects in all is the deepest accepted.
    const deep = (levels: number) => ({ ...LOAN, ...(nested(levels) as object) });
    expect(() => validateRequest(request({ metadata: deep(MAX_METADATA_DEPTH) }), policy)).not.toThrow();
    const problems = problemsOf(request({ metadata: deep(MAX_METADATA_DEPTH + 1) }));
    expect(problems).toEqual([
      {
        field: `metadata${".a".repeat(MAX_METADATA_DEPTH)}`,
        message: expect.stringMatching(
          /nests 28 levels deep here .* at most 27: the run stores a copy of metadata inside its plan/,
        ),
      },
    ]);
  });

  it("answers RequestTooLargeError naming metadata when the run record could not hold it", () => {
    const padding = (bytes: number) => "m".repeat(bytes);
    const sized = (bytes: number) => request({ metadata: { ...LOAN, notes: padding(bytes) } });
    // Find the largest notes that fit, by the footprint the validator uses.
    const base = requestFootprint(sized(0)).total;
    const fits = Math.floor((REQUEST_STORAGE_BUDGET_BYTES - base) / 2);
    expect(requestFootprint(sized(fits)).total).toBeLessThanOrEqual(REQUEST_STORAGE_BUDGET_BYTES);
    expect(() => validateRequest(sized(fits), policy)).not.toThrow();

    let error: unknown;
    try {
      validateRequest(sized(fits + 1), policy);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RequestTooLargeError);
    expect((error as RequestTooLargeError).problems).toEqual([
      {
        field: "metadata",
        message: expect.stringMatching(
          /^metadata takes \d+ bytes in the run record \(2 copies: the request and the plan's PreConditions step\); .* at most 278528 bytes for its request .*: make metadata smaller$/,
        ),
      },
    ]);
  });

  it("names s3_pdf_paths when the document list is what does not fit", () => {
    const paths = Array.from({ length: 50 }, (_, i) => `rm-conditions/${String(i).padStart(1000, "0")}.pdf`);
    const problems = (() => {
      try {
        validateRequest(
          request({ s3_pdf_paths: paths, metadata: { ...LOAN, notes: "n".repeat(60_000) } }),
          policy,
        );
      } catch (error) {
        return (error as RequestTooLargeError).problems;
      }
    })();
    expect(problems?.[0]?.field).toBe("s3_pdf_paths");
    expect(problems?.[0]?.message).toMatch(/up to 4 copies/);
  });
});
