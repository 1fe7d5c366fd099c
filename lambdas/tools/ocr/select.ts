// The OCR engine of this function, built once per cold start from `config.ocr`: Amazon Textract in
// AWS, tesseract.js offline (the local twin), or none (pages without a text layer stay unread and the
// verdicts say so).
import type { TextractClient } from "@aws-sdk/client-textract";
import type { OcrEngine, OcrEngineName } from "./engine.ts";

/**
 * The engine a deployed bundle was built for, or undefined when the handlers run from source (the
 * local twin, tests, the CLI): then every engine is available. infra/constructs/bundling.ts sets it
 * with esbuild's `define` from the function's REWOO_OCR_ENGINE. Each engine is built behind a
 * condition on it, written out in full where it is tested, so that esbuild evaluates it while parsing
 * and drops the other engines' imports: a Textract bundle carries neither tesseract.js nor MuPDF
 * (about 10 MB of language data and WebAssembly), a tesseract bundle no Textract client.
 */
export const BUNDLED_OCR_ENGINE_VARIABLE = "REWOO_BUNDLED_OCR_ENGINE";

export interface OcrSelection {
  region: string;
  ocr: {
    engine: OcrEngineName;
    textractEndpoint?: string | undefined;
    textractSignatures?: boolean;
    textractForms?: boolean;
  };
}

export interface OcrEngineDeps {
  /**
   * Milliseconds the invocation may still run (lambdas/runtime/time-budget.ts): Textract stops
   * waiting for a job before it, and the state machine retries the step.
   */
  deadline: () => number;
  /** Textract's warnings about a document it read only in part. */
  onWarning?: (message: string) => void;
  /** Built from `region` and `ocr.textractEndpoint` when absent; pass one to share or mock it. */
  textractClient?: TextractClient;
  /**
   * Wraps the client this module builds (the function's Tracer captures it, so Textract calls are
   * X-Ray subsegments). A hook, not an import: tools sit below the runtime that owns the Tracer.
   */
  captureClient?: <C extends object>(client: C) => C;
}

export function ocrEngineFor(config: OcrSelection, deps: OcrEngineDeps): OcrEngine | undefined {
  switch (config.ocr.engine) {
    case "none":
      return undefined;
    case "textract":
      if (!process.env.REWOO_BUNDLED_OCR_ENGINE || process.env.REWOO_BUNDLED_OCR_ENGINE === "textract") {
        const options = {
          deadline: deps.deadline,
          ...(deps.onWarning ? { onWarning: deps.onWarning } : {}),
          ...(config.ocr.textractSignatures ? { signatures: true } : {}),
          ...(config.ocr.textractForms ? { forms: true } : {}),
        };
        // The client is built with the engine, on the first scanned page: imported here statically,
        // the SDK's Textract module would be evaluated at every cold start (esbuild keeps a module
        // that is also imported dynamically whole, all its commands with it).
        return loadedOnFirstUse("textract", () =>
          import("./textract.ts").then((module) => {
            const client =
              deps.textractClient ??
              (deps.captureClient ?? ((built) => built))(
                new module.TextractClient({
                  region: config.region,
                  // Throttling and 5xx are retried by the SDK first; what still fails goes to the step's retry.
                  maxAttempts: 5,
                  ...(config.ocr.textractEndpoint ? { endpoint: config.ocr.textractEndpoint } : {}),
                  // An emulator on loopback http (the local twin's) checks no signature, and offline the
                  // default credential chain has nothing to sign with: dummy credentials, as for the others.
                  ...(isLoopbackHttp(config.ocr.textractEndpoint)
                    ? { credentials: { accessKeyId: "local", secretAccessKey: "local" } }
                    : {}),
                }),
              );
            return module.createTextractEngine(client, options);
          }),
        );
      }
      break;
    case "tesseract":
      if (!process.env.REWOO_BUNDLED_OCR_ENGINE || process.env.REWOO_BUNDLED_OCR_ENGINE === "tesseract") {
        return loadedOnFirstUse("tesseract", () =>
          import("./tesseract.ts").then((module) => module.createTesseractEngine()),
        );
      }
      break;
    default: {
      const unknown: never = config.ocr.engine;
      throw new Error(
        `Invalid configuration: REWOO_OCR_ENGINE "${String(unknown)}" is not one of textract, tesseract, none`,
      );
    }
  }
  // Only a bundle built for another engine gets here: the environment changed without a redeploy.
  throw new Error(
    `Invalid configuration: REWOO_OCR_ENGINE=${config.ocr.engine}, but this function was bundled with the ${process.env.REWOO_BUNDLED_OCR_ENGINE} OCR engine only (${BUNDLED_OCR_ENGINE_VARIABLE}); deploy again with ocr.engine=${config.ocr.engine}`,
  );
}

/**
 * The engine's module loads when a scanned page is first read, not at every cold start of a function
 * that may never see one (tesseract.js and MuPDF: WebAssembly and the language model). Imported
 * dynamically, it is also left out of a bundle built for another engine: esbuild drops the import
 * with its branch, where a static import of a module with top-level code would stay.
 */
function loadedOnFirstUse(name: OcrEngine["name"], load: () => Promise<OcrEngine>): OcrEngine {
  let loading: Promise<OcrEngine> | undefined;
  return {
    name,
    async recognize(request) {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      return (await loading).recognize(request);
    },
  };
}

function isLoopbackHttp(endpoint: string | undefined): boolean {
  if (!endpoint) return false;
  const url = new URL(endpoint);
  return (
    url.protocol === "http:" &&
    (url.hostname === "localhost" || url.hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(url.hostname))
  );
}
