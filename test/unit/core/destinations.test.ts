import { describe, expect, it } from "vitest";
import {
  checkResultDestination,
  RESULT_FILE_NAME_RESERVE_BYTES,
  ResultDestinationError,
  resultObjectLocation,
} from "../../../lambdas/core/destinations.ts";

const documents = { documentsBucket: "loan-docs", allowedPrefixes: ["loan-docs", "shared/incoming/"] };
const results = { allowedDestinations: ["artifacts/results/", "shared/outgoing/"] };

describe("checkResultDestination", () => {
  it.each([
    ["s3://artifacts/results/", { bucket: "artifacts", key: "results/", isPrefix: true }],
    ["s3://artifacts/results/loan-42/", { bucket: "artifacts", key: "results/loan-42/", isPrefix: true }],
    [
      "s3://artifacts/results/loan-42.json",
      { bucket: "artifacts", key: "results/loan-42.json", isPrefix: false },
    ],
    ["s3://shared/outgoing/a.json", { bucket: "shared", key: "outgoing/a.json", isPrefix: false }],
  ])("accepts %s", (destination, expected) => {
    expect(checkResultDestination(destination, results, documents)).toEqual(expected);
  });

  it.each([
    ["https://artifacts/results/", /is not an S3 URI/],
    ["s3://artifacts", /is not an S3 URI/],
    [
      "s3://artifacts/other/x.json",
      /outside the allowed result locations \(s3:\/\/artifacts\/results\/, s3:\/\/shared\/outgoing\/\)/,
    ],
    ["s3://someone-else/results/x.json", /outside the allowed result locations/],
    ["s3://artifacts/results/../runs/x.json", /"\.\." segments/],
    ["s3://artifacts/results/a\u0000b.json", /control character U\+0000/],
    ["s3://artifacts/results/a\u007fb.json", /control character U\+007F/],
    ["s3://artifacts/results/a\ud800.json", /unpaired UTF-16 surrogate/],
    [`s3://artifacts/results/${"k".repeat(1024)}`, /1032 bytes of UTF-8; S3 keys are at most 1024 bytes/],
  ])("rejects %j", (destination, message) => {
    expect(() => checkResultDestination(destination, results, documents)).toThrow(message);
  });

  it("keeps room for <run_id>.json after a prefix", () => {
    const prefixOf = (bytes: number) => `results/${"p".repeat(bytes - "results/".length - 1)}/`;
    const longest = 1024 - RESULT_FILE_NAME_RESERVE_BYTES;
    expect(checkResultDestination(`s3://artifacts/${prefixOf(longest)}`, results, documents)).toMatchObject({
      isPrefix: true,
    });
    expect(() =>
      checkResultDestination(`s3://artifacts/${prefixOf(longest + 1)}`, results, documents),
    ).toThrow(
      /897 bytes of UTF-8; S3 keys are at most 896 bytes \(a prefix keeps 128 bytes for <run_id>\.json\)/,
    );
  });

  it("never points at a document, even when the allowed list is misconfigured to include documents", () => {
    const misconfigured = { allowedDestinations: ["loan-docs", "shared", "artifacts/results/"] };
    expect(() =>
      checkResultDestination("s3://loan-docs/rm-conditions/doc1.pdf", misconfigured, documents),
    ).toThrow(
      /inside the document location s3:\/\/loan-docs; results are never written where documents are read/,
    );
    expect(() => checkResultDestination("s3://shared/incoming/", misconfigured, documents)).toThrow(
      /inside the document location s3:\/\/shared\/incoming\//,
    );
    // Beside the documents of a shared bucket is fine when it is allowed.
    expect(checkResultDestination("s3://shared/outgoing/r.json", misconfigured, documents).key).toBe(
      "outgoing/r.json",
    );
    // The request's own document, wherever it is.
    const ownDocument = { bucket: "artifacts", key: "results/doc.pdf" };
    expect(() =>
      checkResultDestination("s3://artifacts/results/doc.pdf", results, documents, [ownDocument]),
    ).toThrow(/is one of this request's documents; a result never overwrites a document/);
  });

  it("says so when no destination is configured", () => {
    expect(() => checkResultDestination("s3://a/b.json", { allowedDestinations: [] }, documents)).toThrow(
      /\(none configured\)/,
    );
  });

  it("throws ResultDestinationError with a bounded, quoted destination", () => {
    const error = (() => {
      try {
        checkResultDestination(`s3://elsewhere/${"x".repeat(500)}`, results, documents);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(ResultDestinationError);
    expect(error?.message.length).toBeLessThan(300);
  });
});

describe("resultObjectLocation", () => {
  it("appends <run_id>.json to a prefix and keeps a key as it is", () => {
    expect(resultObjectLocation("s3://artifacts/results/", "run-1", results, documents, [])).toEqual({
      bucket: "artifacts",
      key: "results/run-1.json",
    });
    expect(resultObjectLocation("s3://artifacts/results/a.json", "run-1", results, documents, [])).toEqual({
      bucket: "artifacts",
      key: "results/a.json",
    });
  });

  it("refuses the request's own documents, resolved the way the worker reads them", () => {
    const allowsDocs = { allowedDestinations: ["loan-docs/", "artifacts/results/"] };
    expect(() =>
      resultObjectLocation("s3://loan-docs/rm-conditions/doc1.pdf", "run-1", allowsDocs, documents, [
        "rm-conditions/doc1.pdf",
      ]),
    ).toThrow(/one of this request's documents/);
  });

  it("checks the concrete key: a document location may begin inside an allowed prefix", () => {
    const narrowDocuments = { documentsBucket: "loan-docs", allowedPrefixes: ["shared/run-"] };
    const wide = { allowedDestinations: ["shared/"] };
    expect(checkResultDestination("s3://shared/", wide, narrowDocuments).isPrefix).toBe(true);
    expect(() => resultObjectLocation("s3://shared/", "run-7", wide, narrowDocuments, [])).toThrow(
      /"s3:\/\/shared\/run-7\.json" is inside the document location s3:\/\/shared\/run-/,
    );
  });
});
