// DocumentReader in isolation: the S3 side is a counting stand-in, the PDF is a real generated one.
import { NoSuchKey } from "@aws-sdk/client-s3";
import { describe, expect, it, vi } from "vitest";
import { generateSampleDocuments } from "../../../examples/samples.ts";
import type { BlobStore } from "../../../lambdas/store/blobs.ts";
import { DocumentNotFoundError, DocumentReader } from "../../../lambdas/tools/document-reader.ts";

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
