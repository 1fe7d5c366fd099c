import { describe, expect, it } from "vitest";
import { resolveDocumentPath } from "../../../lambdas/core/documents.ts";

const policy = { documentsBucket: "loan-docs", allowedPrefixes: ["loan-docs", "shared-bucket/incoming/"] };

describe("resolveDocumentPath", () => {
  it("reads a relative key from the documents bucket, as the original loan-agent plan writes them", () => {
    expect(resolveDocumentPath("rm-conditions/doc1.pdf", policy)).toEqual({
      bucket: "loan-docs",
      key: "rm-conditions/doc1.pdf",
    });
  });

  it("accepts an s3:// URI under an allowed prefix", () => {
    expect(resolveDocumentPath("s3://shared-bucket/incoming/a.pdf", policy)).toEqual({
      bucket: "shared-bucket",
      key: "incoming/a.pdf",
    });
  });

  it.each([
    [
      "s3://other-bucket/a.pdf",
      /outside the allowed document locations \(s3:\/\/loan-docs, s3:\/\/shared-bucket\/incoming\/\)/,
    ],
    ["s3://shared-bucket/private/a.pdf", /outside the allowed/],
    ["rm-conditions/../secrets/a.pdf", /"\.\." segments/],
    ["s3://loan-docs/", /has no object key/],
    ["", /document path is empty/],
    ["   ", /document path is empty/],
    ["https://example.com/a.pdf", /unsupported scheme/],
    ["s3://", /not an S3 URI/],
  ])("rejects %j", (path, message) => {
    expect(() => resolveDocumentPath(path, policy)).toThrow(message);
  });
});
