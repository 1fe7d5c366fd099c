// `rewoo upload <file.pdf>...`: puts PDFs into the documents bucket as the dashboard does, through the
// API alone (POST /v1/documents, then the presigned PUT), and prints each one's s3_pdf_path for a
// request's s3_pdf_paths. No S3 credentials: the API chooses the key and signs the upload.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { DocumentUpload } from "../lambdas/contracts/api-types.ts";
import type { RequestProblem } from "../lambdas/core/request.ts";
import { ApiClient, ApiRequestError } from "./api-client.ts";
import { EXIT_RUN_FAILED, EXIT_SUCCEEDED, reportProblems } from "./output.ts";

export interface UploadOptions {
  json: boolean;
  fetch?: typeof fetch;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

interface Uploaded {
  file: string;
  s3_pdf_path: string;
}

/** Uploads every file (all checked first: nothing is sent when one is not a readable PDF); the exit code. */
export async function uploadFiles(
  api: string,
  files: readonly string[],
  options: UploadOptions,
): Promise<number> {
  const stdout = options.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = options.stderr ?? ((text: string) => process.stderr.write(text));
  const problems: RequestProblem[] = [];
  const documents = files.map((file, index) => {
    const path = resolve(file);
    const field = `files[${index}]`;
    try {
      if (!statSync(path).isFile()) throw new Error("not a file");
    } catch {
      problems.push({ field, message: `${path} is not a readable file` });
      return undefined;
    }
    const bytes = new Uint8Array(readFileSync(path));
    if (Buffer.from(bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") {
      problems.push({ field, message: `${path} is not a PDF (it does not start with %PDF-)` });
      return undefined;
    }
    return { file, bytes };
  });
  if (problems.length > 0) return reportProblems(problems, "rewoo upload", stderr, "cannot upload");

  const client = new ApiClient(api, options.fetch ? { fetch: options.fetch } : {});
  const doFetch = options.fetch ?? fetch;
  const uploaded: Uploaded[] = [];
  for (const document of documents) {
    if (!document) continue;
    const { file, bytes } = document;
    let upload: DocumentUpload;
    try {
      upload = await client.createDocumentUpload({
        filename: basename(file),
        content_type: "application/pdf",
        size_bytes: bytes.byteLength,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
    } catch (error) {
      if (error instanceof ApiRequestError && error.fields.length > 0) {
        return reportProblems(error.fields, `rewoo upload ${file}`, stderr, "upload refused");
      }
      stderr(`${file}: ${(error as Error).message}\n`);
      return EXIT_RUN_FAILED;
    }
    // Content-Length is the body's own (fetch sets it); the other signed headers are sent as given.
    const headers = Object.fromEntries(
      Object.entries(upload.upload.headers).filter(([name]) => name.toLowerCase() !== "content-length"),
    );
    const response = await doFetch(upload.upload.url, { method: upload.upload.method, headers, body: bytes });
    if (!response.ok) {
      const text = await response.text();
      const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? response.statusText;
      stderr(`${file}: the storage refused the upload (${response.status} ${code})\n`);
      return EXIT_RUN_FAILED;
    }
    uploaded.push({ file, s3_pdf_path: upload.s3_pdf_path });
    if (!options.json) stdout(`${upload.s3_pdf_path}\n`);
  }
  if (options.json) stdout(`${JSON.stringify({ documents: uploaded }, null, 2)}\n`);
  return EXIT_SUCCEEDED;
}
