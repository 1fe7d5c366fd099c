// Which OCR engine a function reads scanned pages with (REWOO_OCR_ENGINE), and the bundle-time
// constant that links one engine only (REWOO_BUNDLED_OCR_ENGINE, set by esbuild's define): run from
// source every engine is there; a bundle asked for another engine names the redeploy that fixes it.
import {
  GetDocumentTextDetectionCommand,
  StartDocumentTextDetectionCommand,
  TextractClient,
} from "@aws-sdk/client-textract";
import { mockClient } from "aws-sdk-client-mock";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import { OcrPendingError, type OcrRequest } from "../../../lambdas/tools/ocr/engine.ts";
import { ocrEngineFor } from "../../../lambdas/tools/ocr/select.ts";

const REQUIRED = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "docs", ARTIFACTS_BUCKET: "artifacts" };
const config = (env: Record<string, string> = {}) => parseConfig({ ...REQUIRED, ...env });
const unlimited = { deadline: () => Number.POSITIVE_INFINITY };
const scan: OcrRequest = {
  document: "s3://docs/scan.pdf",
  bytes: new Uint8Array(),
  location: { bucket: "docs", key: "scan.pdf" },
  pages: [1],
  pageSizes: [{ width: 612, height: 792 }],
  requestToken: "run-1:s3://docs/scan.pdf",
};

const saved = process.env.REWOO_BUNDLED_OCR_ENGINE;
afterEach(() => {
  if (saved === undefined) delete process.env.REWOO_BUNDLED_OCR_ENGINE;
  else process.env.REWOO_BUNDLED_OCR_ENGINE = saved;
});

describe("the OCR configuration", () => {
  it("reads nothing unless told (safe for any Lambda), and needs 80 % confidence by default", () => {
    expect(config().ocr).toEqual({
      engine: "none",
      minConfidence: 80,
      textractEndpoint: undefined,
      textractSignatures: false,
      textractForms: false,
    });
    expect(
      config({
        REWOO_OCR_ENGINE: "textract",
        REWOO_OCR_MIN_CONFIDENCE: "65",
        TEXTRACT_ENDPOINT: "https://textract.eu-west-1.amazonaws.com",
        REWOO_TEXTRACT_SIGNATURES: "true",
        REWOO_TEXTRACT_FORMS: "true",
      }).ocr,
    ).toEqual({
      engine: "textract",
      minConfidence: 65,
      textractEndpoint: "https://textract.eu-west-1.amazonaws.com",
      textractSignatures: true,
      textractForms: true,
    });
  });

  it("names each invalid OCR setting and what it expects", () => {
    expect(() => config({ REWOO_OCR_ENGINE: "abbyy" })).toThrow(
      /REWOO_OCR_ENGINE: .*"textract"\|"tesseract"\|"none"/,
    );
    for (const value of ["101", "-1", "79.5", "high"]) {
      expect(() => config({ REWOO_OCR_MIN_CONFIDENCE: value }), value).toThrow(
        /REWOO_OCR_MIN_CONFIDENCE: (expected a whole number from 0 to 100|Invalid input: expected number)/,
      );
    }
    expect(() => config({ TEXTRACT_ENDPOINT: "textract" })).toThrow(/TEXTRACT_ENDPOINT: /);
  });
});

describe("ocrEngineFor", () => {
  it("gives no engine for none: such pages stay unread", () => {
    expect(ocrEngineFor(config({ REWOO_OCR_ENGINE: "none" }), unlimited)).toBeUndefined();
  });

  it("builds Textract on the configured client, waiting no longer than the deadline it is given", async () => {
    const client = new TextractClient({ region: "eu-west-1" });
    const textract = mockClient(client);
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: "job-1" });
    textract.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: "IN_PROGRESS", $metadata: {} });
    const engine = ocrEngineFor(config({ REWOO_OCR_ENGINE: "textract" }), {
      deadline: () => 1_000,
      textractClient: client,
    });

    expect(engine?.name).toBe("textract");
    await expect(engine?.recognize(scan)).rejects.toThrow(OcrPendingError);
    expect(textract.commandCalls(GetDocumentTextDetectionCommand)).toHaveLength(1);
  });

  it("builds its own Textract client in the function's region, at the endpoint override if any", async () => {
    const anyClient = mockClient(TextractClient);
    try {
      anyClient.on(StartDocumentTextDetectionCommand).resolves({ JobId: "job-2" });
      anyClient.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: "IN_PROGRESS", $metadata: {} });
      const engine = ocrEngineFor(
        config({
          AWS_REGION: "eu-west-1",
          REWOO_OCR_ENGINE: "textract",
          TEXTRACT_ENDPOINT: "http://127.0.0.1:4566",
        }),
        { deadline: () => 0 },
      );
      await expect(engine?.recognize(scan)).rejects.toThrow(OcrPendingError);
      const client = anyClient.commandCalls(StartDocumentTextDetectionCommand)[0]
        ?.thisValue as TextractClient;
      expect(await client.config.region()).toBe("eu-west-1");
      expect(await client.config.endpoint?.()).toMatchObject({ hostname: "127.0.0.1", port: 4566 });
      expect(await client.config.maxAttempts()).toBe(5);
    } finally {
      anyClient.restore();
    }
  });

  it("names tesseract without loading it: tesseract.js and MuPDF load at the first scanned page", () => {
    const engine = ocrEngineFor(config({ REWOO_OCR_ENGINE: "tesseract" }), unlimited);
    expect(engine?.name).toBe("tesseract");
  });

  it("builds only the engine a bundle was built for, and names the redeploy for another", () => {
    process.env.REWOO_BUNDLED_OCR_ENGINE = "textract";
    expect(ocrEngineFor(config({ REWOO_OCR_ENGINE: "textract" }), unlimited)?.name).toBe("textract");
    expect(ocrEngineFor(config({ REWOO_OCR_ENGINE: "none" }), unlimited)).toBeUndefined();
    expect(() => ocrEngineFor(config({ REWOO_OCR_ENGINE: "tesseract" }), unlimited)).toThrow(
      "Invalid configuration: REWOO_OCR_ENGINE=tesseract, but this function was bundled with the textract OCR engine only (REWOO_BUNDLED_OCR_ENGINE); deploy again with ocr.engine=tesseract",
    );
    process.env.REWOO_BUNDLED_OCR_ENGINE = "none";
    expect(() => ocrEngineFor(config({ REWOO_OCR_ENGINE: "textract" }), unlimited)).toThrow(
      /bundled with the none OCR engine only/,
    );
  });
});
