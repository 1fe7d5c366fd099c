import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { describe, expect, it } from "vitest";
import { type S3RequestError, verifyPresignedRequest } from "../../../infra/local/s3-presigned.ts";

const credentials = { accessKeyId: "local", secretAccessKey: "local" };
const signedAt = new Date("2026-05-01T12:00:00Z");
const s3 = new S3Client({
  region: "us-east-1",
  endpoint: "http://127.0.0.1:4569",
  forcePathStyle: true,
  credentials,
});

async function presigned() {
  const url = new URL(
    await getSignedUrl(
      s3,
      new PutObjectCommand({
        Bucket: "docs",
        Key: "uploads/0123456789abcdef/Tax (2024).pdf",
        ContentType: "application/pdf",
        ContentLength: 10,
        ChecksumSHA256: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=",
      }),
      {
        expiresIn: 900,
        signableHeaders: new Set(["content-type", "content-length"]),
        unhoistableHeaders: new Set(["x-amz-checksum-sha256"]),
        signingDate: signedAt,
      },
    ),
  );
  const headers = {
    host: url.host,
    "content-type": "application/pdf",
    "content-length": "10",
    "x-amz-checksum-sha256": "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=",
  };
  return { method: "PUT", url: `${url.pathname}${url.search}`, headers };
}

const codeOf = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return (error as S3RequestError).code;
  }
  return "accepted";
};

describe("verifyPresignedRequest (the twin's S3 checks a presigned URL as S3 does)", () => {
  it("accepts the request the SDK signed, within its lifetime", async () => {
    const request = await presigned();
    expect(codeOf(() => verifyPresignedRequest(request, credentials, new Date("2026-05-01T12:14:59Z")))).toBe(
      "accepted",
    );
  });

  it("refuses another size, type, checksum, method or key, and an expired URL", async () => {
    const request = await presigned();
    const at = new Date("2026-05-01T12:01:00Z");
    const changed = (headers: Record<string, string>) => ({
      ...request,
      headers: { ...request.headers, ...headers },
    });
    expect(codeOf(() => verifyPresignedRequest(changed({ "content-length": "11" }), credentials, at))).toBe(
      "SignatureDoesNotMatch",
    );
    expect(
      codeOf(() => verifyPresignedRequest(changed({ "content-type": "text/plain" }), credentials, at)),
    ).toBe("SignatureDoesNotMatch");
    expect(
      codeOf(() => verifyPresignedRequest(changed({ "x-amz-checksum-sha256": "AAAA" }), credentials, at)),
    ).toBe("SignatureDoesNotMatch");
    expect(codeOf(() => verifyPresignedRequest({ ...request, method: "DELETE" }, credentials, at))).toBe(
      "SignatureDoesNotMatch",
    );
    const otherKey = { ...request, url: request.url.replace("Tax", "Fax") };
    expect(codeOf(() => verifyPresignedRequest(otherKey, credentials, at))).toBe("SignatureDoesNotMatch");
    expect(codeOf(() => verifyPresignedRequest(request, credentials, new Date("2026-05-01T12:15:01Z")))).toBe(
      "AccessDenied",
    );
  });

  it("leaves requests it did not sign to s3rver (another key, or header-signed)", async () => {
    const request = await presigned();
    const other = { accessKeyId: "someone", secretAccessKey: "else" };
    expect(codeOf(() => verifyPresignedRequest(request, other, signedAt))).toBe("accepted");
    expect(
      codeOf(() => verifyPresignedRequest({ ...request, url: "/docs/a.pdf" }, credentials, signedAt)),
    ).toBe("accepted");
  });
});
