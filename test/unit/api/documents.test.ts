import { S3Client } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { presignUpload, validateDocumentUpload } from "../../../lambdas/api/documents.ts";
import { HttpError } from "../../../lambdas/api/http.ts";
import { safeFileName, uploadKey } from "../../../lambdas/core/documents.ts";

const SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const MiB = 1024 * 1024;
const good = {
  filename: "Tax Return 2024.PDF",
  content_type: "application/pdf",
  size_bytes: 1234,
  sha256: SHA,
};

function problemsOf(body: unknown, maxBytes = 50 * MiB) {
  try {
    validateDocumentUpload(body, maxBytes);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.status).toBe(400);
    expect(http.code).toBe("invalid_request");
    return Object.fromEntries((http.fields ?? []).map((field) => [field.field, field.message]));
  }
  throw new Error("expected a 400");
}

describe("uploadKey", () => {
  it("is <prefix><first 16 hex of the digest>/<file name>, as the CLI's local uploads were", () => {
    expect(uploadKey("uploads/", SHA, "tax-return_2024.pdf")).toBe(
      "uploads/9f86d081884c7d65/tax-return_2024.pdf",
    );
    expect(uploadKey("incoming", SHA.toUpperCase(), "a.pdf")).toBe("incoming/9f86d081884c7d65/a.pdf");
  });

  it("makes the name S3-safe: last path part, odd characters as _, no leading dots", () => {
    expect(safeFileName("../../etc/pass wd?.pdf")).toBe("pass wd_.pdf");
    expect(safeFileName("C:\\Users\\Ann\\Résumé.pdf")).toBe("R_sum_.pdf");
    expect(safeFileName("..hidden.pdf")).toBe("hidden.pdf");
    expect(safeFileName(" acme 1120 (signed).pdf")).toBe("acme 1120 (signed).pdf");
    expect(safeFileName('say "hi"\t.pdf')).toBe("say _hi__.pdf");
    expect(safeFileName("")).toBe("document.pdf");
    const long = safeFileName(`${"x".repeat(300)}.pdf`);
    expect(long).toHaveLength(200);
    expect(long.endsWith(".pdf")).toBe(true);
  });

  it("refuses a digest that is not 64 hex digits", () => {
    expect(() => uploadKey("uploads/", "abc", "a.pdf")).toThrow(/64 hexadecimal/);
  });
});

describe("validateDocumentUpload", () => {
  it("accepts a PDF within the limit", () => {
    expect(validateDocumentUpload(good, 50 * MiB)).toEqual({ ...good, filename: "Tax Return 2024.PDF" });
  });

  it("names every bad field at once", () => {
    const fields = problemsOf({
      filename: "notes.docx",
      content_type: "text/plain",
      size_bytes: 1.5,
      sha256: "xyz",
    });
    expect(Object.keys(fields).sort()).toEqual(["content_type", "filename", "sha256", "size_bytes"]);
    expect(fields.filename).toMatch(/end with \.pdf/);
    expect(fields.content_type).toMatch(/application\/pdf/);
    expect(fields.size_bytes).toMatch(/whole number/);
    expect(fields.sha256).toMatch(/64 hexadecimal/);
  });

  it("says what is missing and what the limits are", () => {
    expect(Object.keys(problemsOf({})).sort()).toEqual(["content_type", "filename", "sha256", "size_bytes"]);
    expect(problemsOf({ ...good, size_bytes: 0 }).size_bytes).toMatch(/at least 1/);
    expect(problemsOf({ ...good, size_bytes: 2 * MiB + 1 }, 2 * MiB).size_bytes).toMatch(
      /at most 2097152 bytes \(2 MiB\)/,
    );
    expect(problemsOf({ ...good, filename: "  " }).filename).toMatch(/must not be empty/);
    expect(problemsOf({ ...good, filename: `${"a".repeat(300)}.pdf` }).filename).toMatch(/at most 255/);
    expect(problemsOf([good])).toHaveProperty("(body)");
    expect(problemsOf({ ...good, sha_256: SHA }).sha_256).toMatch(/unknown field/);
  });
});

describe("presignUpload", () => {
  const s3 = new S3Client({
    region: "us-east-1",
    endpoint: "http://127.0.0.1:9",
    forcePathStyle: true,
    credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" },
  });
  const now = new Date("2026-03-01T10:00:00Z");

  it("signs Content-Type, Content-Length and the SHA-256 checksum, valid 15 minutes", async () => {
    const upload = await presignUpload(s3, validateDocumentUpload(good, 50 * MiB), {
      bucket: "docs",
      prefix: "uploads/",
      maxBytes: 50 * MiB,
      now,
    });
    expect(upload.key).toBe("uploads/9f86d081884c7d65/Tax Return 2024.PDF");
    expect(upload.s3_pdf_path).toBe(upload.key);
    expect(upload.upload.headers).toEqual({
      "Content-Type": "application/pdf",
      "Content-Length": "1234",
      "x-amz-checksum-sha256": Buffer.from(SHA, "hex").toString("base64"),
    });
    const url = new URL(upload.upload.url);
    expect(url.pathname).toBe("/docs/uploads/9f86d081884c7d65/Tax%20Return%202024.PDF");
    expect(url.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toEqual([
      "content-length",
      "content-type",
      "host",
      "x-amz-checksum-sha256",
    ]);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    // The checksum is a header the client sends, not a query parameter S3 would take instead.
    expect(url.searchParams.has("x-amz-checksum-sha256")).toBe(false);
    expect(upload.expires_at).toBe("2026-03-01T10:15:00.000Z");
    expect(upload.max_bytes).toBe(50 * MiB);
  });

  it("gives the same key for the same file (uploading twice is idempotent)", async () => {
    const options = { bucket: "docs", prefix: "uploads/", maxBytes: 50 * MiB, now };
    const first = await presignUpload(s3, good, options);
    const second = await presignUpload(s3, good, { ...options, now: new Date("2026-03-02T00:00:00Z") });
    expect(second.key).toBe(first.key);
  });
});
