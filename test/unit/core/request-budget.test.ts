import { describe, expect, it } from "vitest";
import { s3KeyProblem, utf8Length } from "../../../lambdas/core/documents.ts";
import {
  dynamoValueBytes,
  findTooDeep,
  REQUEST_STORAGE_BUDGET_BYTES,
  requestFootprint,
} from "../../../lambdas/core/request-budget.ts";

describe("dynamoValueBytes", () => {
  it("sizes values the way DynamoDB documents item size", () => {
    expect(dynamoValueBytes("abc")).toBe(3);
    expect(dynamoValueBytes("é")).toBe(2);
    expect(dynamoValueBytes(true)).toBe(1);
    expect(dynamoValueBytes(null)).toBe(1);
    expect(dynamoValueBytes(12345)).toBe(4); // 5 significant digits: ceil(5/2) + 1
    expect(dynamoValueBytes([])).toBe(3);
    expect(dynamoValueBytes({})).toBe(3);
    // map: 3 + ("ab" 2 + 1 + "xyz" 3) ; list: 3 + 2 elements (1 each) + 1 + 1
    expect(dynamoValueBytes({ ab: "xyz" })).toBe(9);
    expect(dynamoValueBytes([true, false])).toBe(7);
  });

  it("walks 100,000 levels without recursion", () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(dynamoValueBytes(value)).toBe(100_000 * 4 + 2);
  });
});

describe("requestFootprint", () => {
  it("counts metadata twice and document paths four times (the plan's copies)", () => {
    const small = requestFootprint({ metadata: {}, s3_pdf_paths: [] });
    const grown = requestFootprint({
      metadata: { notes: "x".repeat(1000) },
      s3_pdf_paths: ["y".repeat(1000)],
    });
    expect((grown.byField.metadata ?? 0) - (small.byField.metadata ?? 0)).toBe(
      2 * (1000 + "notes".length + 1),
    );
    expect((grown.byField.s3_pdf_paths ?? 0) - (small.byField.s3_pdf_paths ?? 0)).toBe(4 * (1000 + 1));
    expect(REQUEST_STORAGE_BUDGET_BYTES).toBe(272 * 1024);
  });
});

describe("findTooDeep", () => {
  it("finds the first container past the limit and its path", () => {
    expect(findTooDeep({ a: [{ b: {} }] }, 3)).toEqual({ path: "a[0].b", depth: 4 });
    expect(findTooDeep({ a: [{ b: {} }] }, 4)).toBeUndefined();
    expect(findTooDeep("scalar", 0)).toBeUndefined();
    expect(findTooDeep({ x: { y: {} } }, 2, "metadata")).toEqual({ path: "metadata.x.y", depth: 3 });
  });

  it("shortens very long keys in the path", () => {
    const key = "k".repeat(500);
    expect(findTooDeep({ [key]: {} }, 1)?.path).toBe(`${"k".repeat(37)}...`);
  });
});

describe("S3 key rules", () => {
  it("measures UTF-8 without encoding", () => {
    for (const text of ["", "abc", "é", "漢字", "\u{1F600}", "a\ud800b", "\udc00"]) {
      expect(utf8Length(text), JSON.stringify(text)).toBe(Buffer.byteLength(text, "utf8"));
    }
  });

  it("accepts ordinary keys and names the rule a bad key breaks", () => {
    expect(s3KeyProblem("rm-conditions/doc 1 (final).pdf")).toBeUndefined();
    expect(s3KeyProblem("x".repeat(1024))).toBeUndefined();
    expect(s3KeyProblem("x".repeat(1025))).toBe(
      "the object key is 1025 bytes of UTF-8; S3 keys are at most 1024 bytes",
    );
    expect(s3KeyProblem("a\tb")).toMatch(/control character U\+0009 at position 1/);
    expect(s3KeyProblem("a\u001fb")).toMatch(/U\+001F/);
    expect(s3KeyProblem("a\udc00")).toMatch(/unpaired UTF-16 surrogate/);
  });
});
