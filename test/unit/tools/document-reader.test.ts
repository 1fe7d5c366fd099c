// DocumentReader in isolation: the S3 side is a counting stand-in, the PDF is a real generated one.
import { NoSuchKey } from "@aws-sdk/client-s3";
import { describe, expect, it, vi } from "vitest";
import { generateSampleDocuments } from "../../../examples/samples.ts";
import { extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import type { BlobStore } from "../../../lambdas/store/blobs.ts";
import { DocumentNotFoundError, DocumentReader } from "../../../lambdas/tools/document-reader.ts";

// The real extraction, counted: the content-hash cache must spare the parse, not change its result.
vi.mock("../../../lambdas/agents/loan/pdf-text.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../lambdas/agents/loan/pdf-text.ts")>();
  return { ...original, extractPdfText: vi.fn(original.extractPdfText) };
});

const policy = { documentsBucket: "docs", allowedPrefixes: ["docs"] };

async function readerWith(getObject: BlobStore["getObject"]) {
  return new DocumentReader({ getObject } as unknown as BlobStore, policy);
}

describe("DocumentReader", async () => {
  const sample = (await generateSampleDocuments()).find((d) => d.key.endsWith("1120-signed.pdf"));
  const bytes = sample?.bytes ?? new Uint8Array();

  it("downloads and parses a document once per run, however many steps read it", async () => {
    const getObject = vi.fn(async () => ({ bytes: bytes.slice(), size: bytes.byteLength }));
    const reader = await readerWith(getObject);
    const [a, b] = await Promise.all([
      reader.read("run-1", "rm/a.pdf"),
      reader.read("run-1", "s3://docs/rm/a.pdf"),
    ]);
    await reader.read("run-1", "rm/a.pdf");
    expect(getObject).toHaveBeenCalledTimes(1);
    expect(a).toBe(b);
    expect(a.extracted.page_count).toBeGreaterThan(1);

    await reader.read("run-2", "rm/a.pdf");
    expect(getObject).toHaveBeenCalledTimes(2);
  });

  it("parses the same bytes once across runs and paths, bounded by maxEntries", async () => {
    const getObject = vi.fn(async () => ({ bytes: bytes.slice(), size: bytes.byteLength }));
    const reader = new DocumentReader({ getObject } as unknown as BlobStore, policy, { maxEntries: 1 });
    const parses = vi.mocked(extractPdfText);
    parses.mockClear();
    const first = await reader.read("run-1", "rm/a.pdf");
    const again = await reader.read("run-2", "rm/copy.pdf");
    expect(getObject).toHaveBeenCalledTimes(2);
    expect(parses).toHaveBeenCalledTimes(1);
    expect(again.extracted.pages).toEqual(first.extracted.pages);
    expect(again.extracted.document).toBe("rm/copy.pdf");
    expect(first.extracted.document).toBe("rm/a.pdf");

    // Other bytes evict the only entry: the first document is parsed again.
    const other = (await generateSampleDocuments()).find((d) => d.key !== sample?.key)?.bytes;
    if (!other) throw new Error("the samples have a second document");
    getObject.mockResolvedValueOnce({ bytes: other.slice(), size: other.byteLength });
    await reader.read("run-3", "rm/other.pdf");
    await reader.read("run-4", "rm/a.pdf");
    expect(parses).toHaveBeenCalledTimes(3);
  });

  it("does not remember a failure, so a retried step can read a document uploaded late", async () => {
    const missing = new NoSuchKey({ message: "The specified key does not exist.", $metadata: {} });
    const getObject = vi
      .fn<BlobStore["getObject"]>()
      .mockRejectedValueOnce(missing)
      .mockResolvedValueOnce({ bytes: bytes.slice(), size: bytes.byteLength });
    const reader = await readerWith(getObject);
    const first = reader.read("run-1", "rm/late.pdf");
    await expect(first).rejects.toBeInstanceOf(DocumentNotFoundError);
    await expect(first).rejects.toThrow(
      'document s3://docs/rm/late.pdf does not exist (requested as "rm/late.pdf")',
    );
    await expect(reader.read("run-1", "rm/late.pdf")).resolves.toMatchObject({
      uri: "s3://docs/rm/late.pdf",
    });
  });

  it("rejects a path outside the allowed locations before touching S3", async () => {
    const getObject = vi.fn();
    const reader = await readerWith(getObject);
    expect(() => reader.read("run-1", "s3://elsewhere/a.pdf")).toThrow(/outside the allowed/);
    expect(getObject).not.toHaveBeenCalled();
  });
});
