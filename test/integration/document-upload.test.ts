// A loan officer's upload through the twin, as the dashboard does it: POST /v1/documents, PUT the
// bytes to the presigned URL with exactly the headers it names, evaluate with the returned path, then
// read the run's documents back through presigned GETs. The twin's S3 checks what S3 checks.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadFiles } from "../../cli/upload.ts";
import { buildForm1120 } from "../../examples/samples.ts";
import type { Twin } from "../../infra/local/twin.ts";
import type { DocumentUpload, RunDocuments } from "../../lambdas/contracts/api-types.ts";
import { bootTwinWithSamples, post } from "./twin-fixture.ts";

let twin: Twin;
let pdf: Uint8Array;

const sample = JSON.parse(
  readFileSync(new URL("../../examples/sample-tax-return.json", import.meta.url), "utf8"),
);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const ORIGIN = "http://127.0.0.1:5173";

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  pdf = await buildForm1120({ signed: true });
});

afterAll(async () => {
  await twin?.stop();
});

async function requestUpload(bytes: Uint8Array, filename = "Form 1120 (signed).pdf") {
  return post(twin.urls.api, "/v1/documents", {
    filename,
    content_type: "application/pdf",
    size_bytes: bytes.byteLength,
    sha256: sha256(bytes),
  }) as Promise<{
    status: number;
    body: DocumentUpload & { error?: { code: string; fields?: { field: string }[] } };
  }>;
}

async function put(upload: DocumentUpload, body: Uint8Array, headers = upload.upload.headers) {
  // fetch sets Content-Length from the body, as a browser does; the signed value is checked against it.
  const { "Content-Length": _length, ...rest } = headers;
  const response = await fetch(upload.upload.url, { method: "PUT", headers: rest, body });
  return { status: response.status, text: await response.text() };
}

describe("POST /v1/documents and the presigned PUT", () => {
  let upload: DocumentUpload;

  beforeAll(async () => {
    const answer = await requestUpload(pdf);
    expect(answer.status).toBe(201);
    upload = answer.body;
  });

  it("answers a content-addressed key under uploads/ and the headers to send", () => {
    expect(upload.key).toBe(`uploads/${sha256(pdf).slice(0, 16)}/Form 1120 (signed).pdf`);
    expect(upload.s3_pdf_path).toBe(upload.key);
    expect(upload.bucket).toBe(twin.services.config.documentsBucket);
    expect(upload.upload.method).toBe("PUT");
    expect(new URL(upload.upload.url).origin).toBe(twin.emulators.s3Endpoint);
    expect(upload.upload.headers["Content-Length"]).toBe(String(pdf.byteLength));
    expect(upload.max_bytes).toBe(50 * 1024 * 1024);
  });

  it("refuses a PUT of another size, another body or another type", async () => {
    const longer = new Uint8Array([...pdf, 0x0a]);
    const wrongSize = await put(upload, longer);
    expect(wrongSize.status).toBe(403);
    expect(wrongSize.text).toContain("<Code>SignatureDoesNotMatch</Code>");

    const tampered = pdf.slice();
    const at = tampered.length - 2;
    tampered[at] = (tampered[at] ?? 0) ^ 0xff;
    const wrongBody = await put(upload, tampered);
    expect(wrongBody.status).toBe(400);
    expect(wrongBody.text).toContain("<Code>BadDigest</Code>");

    const wrongType = await put(upload, pdf, { ...upload.upload.headers, "Content-Type": "text/plain" });
    expect(wrongType.status).toBe(403);
    expect(wrongType.text).toContain("<Code>SignatureDoesNotMatch</Code>");

    // Nothing was stored by the refused attempts.
    await expect(twin.services.blobs.getBytes({ bucket: upload.bucket, key: upload.key })).rejects.toThrow();
  });

  it("stores the exact bytes of a PUT with the signed headers, and the same file twice gets the same key", async () => {
    expect((await put(upload, pdf)).status).toBe(200);
    const stored = await twin.services.blobs.getBytes({ bucket: upload.bucket, key: upload.key });
    expect(sha256(stored)).toBe(sha256(pdf));

    const again = await requestUpload(pdf);
    expect(again.body.key).toBe(upload.key);
    expect((await put(again.body, pdf)).status).toBe(200);
  });

  it("lets a page on a local origin preflight the PUT (CORS on the documents bucket)", async () => {
    const response = await fetch(upload.upload.url, {
      method: "OPTIONS",
      headers: {
        Origin: ORIGIN,
        "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "content-type,x-amz-checksum-sha256",
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(response.headers.get("access-control-allow-headers")).toBe("content-type, x-amz-checksum-sha256");

    const refused = await fetch(upload.upload.url, {
      method: "OPTIONS",
      headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "PUT" },
    });
    expect(refused.status).toBe(403);
  });

  it("names every bad field of a bad request", async () => {
    const answer = (await post(twin.urls.api, "/v1/documents", {
      filename: "scan.png",
      content_type: "image/png",
      size_bytes: 60 * 1024 * 1024,
      sha256: "nope",
    })) as { status: number; body: { error: { code: string; fields: { field: string }[] } } };
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
    expect(answer.body.error.fields.map((field) => field.field).sort()).toEqual([
      "content_type",
      "filename",
      "sha256",
      "size_bytes",
    ]);
  });
});

describe("an evaluation of an uploaded document, and its documents read back", () => {
  let runId: string;
  let upload: DocumentUpload;

  beforeAll(async () => {
    upload = (await requestUpload(pdf, "1120-signed.pdf")).body;
    expect((await put(upload, pdf)).status).toBe(200);
    const started = await post(twin.urls.api, "/v1/evaluate-conditions", {
      ...sample,
      s3_pdf_paths: [upload.s3_pdf_path],
    });
    expect(started.status).toBe(202);
    runId = started.body.run_id;
  });

  it("succeeds with verdicts on the uploaded PDF", async () => {
    const run = await twin.waitForRun(runId);
    expect(run.status).toBe("SUCCEEDED");
    const verdicts = [
      ...(run.result?.fulfilled_conditions ?? []),
      ...(run.result?.unfulfilled_conditions ?? []),
    ];
    expect(verdicts.map((verdict) => verdict.id)).toEqual(
      expect.arrayContaining(["TR_SIGNED", "TR_EIN_MATCH"]),
    );
    expect(run.result?.fulfilled_conditions.map((verdict) => verdict.id)).toContain("TR_SIGNED");
  });

  it("GET /v1/runs/{run_id}/documents gives a presigned GET that returns the PDF's bytes", async () => {
    const response = await fetch(new URL(`/v1/runs/${runId}/documents`, twin.urls.api));
    expect(response.status).toBe(200);
    const answer = (await response.json()) as RunDocuments;
    expect(answer.run_id).toBe(runId);
    expect(answer.documents.map((document) => [document.path, document.key])).toEqual([
      [upload.s3_pdf_path, upload.key],
    ]);
    const document = answer.documents[0];
    const pdfResponse = await fetch(document?.url ?? "", { headers: { Origin: ORIGIN } });
    expect(pdfResponse.status).toBe(200);
    expect(pdfResponse.headers.get("content-type")).toBe("application/pdf");
    expect(pdfResponse.headers.get("content-disposition")).toBe('inline; filename="1120-signed.pdf"');
    expect(pdfResponse.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(sha256(new Uint8Array(await pdfResponse.arrayBuffer()))).toBe(sha256(pdf));

    // The URL is signed for that key: pointed at another document, S3 refuses it.
    const elsewhere = new URL(document?.url ?? "");
    elsewhere.pathname = elsewhere.pathname.replace(/[^/]+$/, "other.pdf");
    expect((await fetch(elsewhere)).status).toBe(403);
  });

  it("lists only a run's own documents, and answers 404 and 400 for unknown and bad run ids", async () => {
    const other = await post(twin.urls.api, "/v1/evaluate-conditions", {
      ...sample,
      s3_pdf_paths: ["rm-conditions/1120-unsigned.pdf"],
    });
    const otherDocuments = (await (
      await fetch(new URL(`/v1/runs/${other.body.run_id}/documents`, twin.urls.api))
    ).json()) as RunDocuments;
    expect(otherDocuments.documents.map((document) => document.path)).toEqual([
      "rm-conditions/1120-unsigned.pdf",
    ]);
    await twin.waitForRun(other.body.run_id);

    const unknown = await fetch(new URL("/v1/runs/run-does-not-exist/documents", twin.urls.api));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("run_not_found");
    const bad = await fetch(new URL("/v1/runs/not%20a%20run/documents", twin.urls.api));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_run_id");
  });
});

describe("rewoo upload", () => {
  it("uploads each PDF through the API and prints its s3_pdf_path; a file that is not a PDF stops it before anything is sent", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rewoo-upload-"));
    try {
      const unsigned = await buildForm1120({ signed: false });
      writeFileSync(join(dir, "return 2024.pdf"), unsigned);
      writeFileSync(join(dir, "notes.pdf"), "not a pdf");
      const out: string[] = [];
      const err: string[] = [];
      const io = {
        json: false,
        stdout: (text: string) => out.push(text),
        stderr: (text: string) => err.push(text),
      };

      expect(await uploadFiles(twin.urls.api, [join(dir, "return 2024.pdf")], io)).toBe(0);
      const key = `uploads/${sha256(unsigned).slice(0, 16)}/return 2024.pdf`;
      expect(out.join("")).toBe(`${key}\n`);
      const stored = await twin.services.blobs.getBytes({
        bucket: twin.services.config.documentsBucket,
        key,
      });
      expect(sha256(stored)).toBe(sha256(unsigned));

      out.length = 0;
      expect(
        await uploadFiles(twin.urls.api, [join(dir, "return 2024.pdf"), join(dir, "notes.pdf")], io),
      ).toBe(2);
      expect(out).toEqual([]);
      expect(err.join("")).toMatch(/files\[1\]: .*notes\.pdf is not a PDF/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
