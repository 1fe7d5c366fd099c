// The worker's OCR of scanned pages in a deployment (infra/config.ts `ocr`): with Textract, the worker
// alone may start and read Textract jobs and is told the engine and the confidence threshold, and its
// bundle is built for that engine; with none, no Textract access at all. tesseract is refused: it
// runs offline only.
import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, validateConfig } from "../../infra/config.ts";
import { BUNDLED_OCR_ENGINE_DEFINE } from "../../infra/constructs/bundling.ts";
import {
  configWith,
  functionAccess,
  resourcesOf,
  resourcesOfStatement,
  SERVICES,
  type Synthesized,
  synthesize,
} from "./synth.ts";

const TEXTRACT_ACTIONS = ["textract:StartDocumentTextDetection", "textract:GetDocumentTextDetection"];
const context = (values: Record<string, unknown>) => (key: string) => values[key];

describe("OCR with Textract (every environment's default)", () => {
  let dev: Synthesized;
  beforeAll(() => {
    dev = synthesize({
      config: configWith("dev", () => ({
        ocr: { engine: "textract", minConfidence: 72, textractSignatures: false },
      })),
    });
  });

  it("lets the worker, and only the worker, start Textract jobs and read their results", () => {
    for (const service of SERVICES) {
      const access = functionAccess(dev.serviceTemplate, service);
      for (const action of TEXTRACT_ACTIONS) {
        expect(access.allowing(action), `${service} ${action}`).toEqual(
          service === "rewoo-worker" ? ["*"] : [],
        );
      }
    }
  });

  it("relies on the worker's own document reads: Textract reads the S3 object with the worker's credentials", () => {
    const worker = functionAccess(dev.serviceTemplate, "rewoo-worker");
    expect(worker.allowing("s3:GetObject")).toContain("Rewoo-dev-Data-DocumentsBucketArn/*");
    // The documents bucket this app creates is encrypted with S3-managed keys: no KMS grant to add.
    const textract = worker.statements.filter((statement) =>
      TEXTRACT_ACTIONS.some((action) => (statement.Action as string[]).includes(action)),
    );
    expect(textract.flatMap(resourcesOfStatement)).toEqual(["*"]);
    const documentsBucket = Object.entries(resourcesOf(dev.dataTemplate, "AWS::S3::Bucket")).find(([id]) =>
      id.startsWith("DocumentsBucket"),
    )?.[1];
    expect(
      documentsBucket?.Properties?.BucketEncryption.ServerSideEncryptionConfiguration[0]
        .ServerSideEncryptionByDefault,
    ).toEqual({ SSEAlgorithm: "AES256" });
    expect(JSON.stringify(worker.statements)).not.toContain("kms:Decrypt");
  });

  it("tells the worker alone which engine reads scans and how sure a read must be", () => {
    for (const service of SERVICES) {
      const { environment } = functionAccess(dev.serviceTemplate, service);
      if (service === "rewoo-worker") {
        expect(environment).toMatchObject({ REWOO_OCR_ENGINE: "textract", REWOO_OCR_MIN_CONFIDENCE: "72" });
      } else {
        expect(environment.REWOO_OCR_ENGINE, service).toBeUndefined();
        expect(environment.REWOO_OCR_MIN_CONFIDENCE, service).toBeUndefined();
      }
    }
  });

  it("bundles the worker with Textract alone", () => {
    expect(dev.service.functions.worker.bundleDefines[BUNDLED_OCR_ENGINE_DEFINE]).toBe('"textract"');
    for (const [name, fn] of Object.entries(dev.service.functions)) {
      if (name !== "worker") expect(fn.bundleDefines[BUNDLED_OCR_ENGINE_DEFINE], name).toBeUndefined();
    }
  });
});

describe("OCR turned off (-c ocrEngine=none)", () => {
  let off: Synthesized;
  beforeAll(() => {
    off = synthesize({ context: { ocrEngine: "none" } });
  });

  it("grants no Textract access to any function, and tells and bundles the worker so", () => {
    for (const service of SERVICES) {
      const access = functionAccess(off.serviceTemplate, service);
      for (const action of TEXTRACT_ACTIONS)
        expect(access.allowing(action), `${service} ${action}`).toEqual([]);
      expect(JSON.stringify(access.statements), service).not.toContain("textract:");
    }
    expect(functionAccess(off.serviceTemplate, "rewoo-worker").environment).toMatchObject({
      REWOO_OCR_ENGINE: "none",
      REWOO_OCR_MIN_CONFIDENCE: "80",
    });
    expect(off.service.functions.worker.bundleDefines[BUNDLED_OCR_ENGINE_DEFINE]).toBe('"none"');
  });
});

describe("the OCR configuration of an environment", () => {
  it("reads scans with Textract everywhere unless told otherwise, at 80 % confidence", () => {
    for (const env of ["dev", "staging", "prod"]) {
      expect(resolveConfig(context({ env })).ocr, env).toEqual({
        engine: "textract",
        minConfidence: 80,
        textractSignatures: true,
        textractForms: true,
      });
    }
    expect(resolveConfig(context({ env: "prod", ocrEngine: "none" })).ocr.engine).toBe("none");
  });

  it("refuses tesseract in a deployment, saying why, and names other bad values", () => {
    expect(() => resolveConfig(context({ ocrEngine: "tesseract" }))).toThrow(
      /ocrEngine "tesseract": runs offline only \(the local twin\); in Lambda its 10 MB of language data and minutes of CPU per scanned document/,
    );
    expect(() => resolveConfig(context({ ocrEngine: "abbyy" }))).toThrow(
      /ocrEngine "abbyy": expected textract or none/,
    );
    for (const minConfidence of [101, -1, 79.5]) {
      expect(() =>
        validateConfig(
          configWith("dev", () => ({ ocr: { engine: "textract", minConfidence, textractSignatures: true } })),
        ),
      ).toThrow(`ocr.minConfidence ${minConfidence}: expected an integer from 0 to 100`);
    }
  });
});

describe("Textract's document analysis with SIGNATURES, FORMS and TABLES (the default with Textract)", () => {
  const ANALYSIS = ["textract:StartDocumentAnalysis", "textract:GetDocumentAnalysis"];
  let prod: Synthesized;
  beforeAll(() => {
    prod = synthesize({ config: configWith("dev", (base) => ({ ocr: base.ocr })) });
  });

  it("lets the worker alone start document analyses instead of text detections, and tells it so", () => {
    for (const service of SERVICES) {
      const access = functionAccess(prod.serviceTemplate, service);
      for (const action of ANALYSIS) {
        expect(access.allowing(action), `${service} ${action}`).toEqual(
          service === "rewoo-worker" ? ["*"] : [],
        );
      }
      for (const action of TEXTRACT_ACTIONS)
        expect(access.allowing(action), `${service} ${action}`).toEqual([]);
      expect(access.environment.REWOO_TEXTRACT_SIGNATURES, service).toBe(
        service === "rewoo-worker" ? "true" : undefined,
      );
      expect(access.environment.REWOO_TEXTRACT_FORMS, service).toBe(
        service === "rewoo-worker" ? "true" : undefined,
      );
    }
  });
});
