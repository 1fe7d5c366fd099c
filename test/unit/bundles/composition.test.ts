// What each Lambda bundle is made of, bundled exactly as the stack bundles it (bench/bundles.ts with
// infra/constructs/bundling.ts): the heavy dependencies stay where they are needed. The tokenizer
// (gpt-tokenizer, ~2.7 MiB) only where a provider counts tokens itself, the PDF library (unpdf,
// ~1.6 MiB), the reference engines and the lender's clients only in the worker, one LLM provider per bundle, and zod without
// its ~250 KiB of locales (`import * as z from "zod"` everywhere). Structure and sizes only.
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import {
  BUNDLE_TARGETS,
  type Built,
  bundleFunctions,
  type DeployedFunction,
  targetsFor,
} from "../../../bench/bundles.ts";
import { bundleDefines } from "../../../infra/constructs/bundling.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const bedrock = bundleDefines({ REWOO_LLM_PROVIDER: "bedrock" });
const ruleBased = bundleDefines({ REWOO_LLM_PROVIDER: "rule-based" });
/** The deployed worker: Bedrock, and Textract for pages without a text layer. */
const deployedWorker = bundleDefines({ REWOO_LLM_PROVIDER: "bedrock", REWOO_OCR_ENGINE: "textract" });

const FUNCTIONS: DeployedFunction[] = [
  { name: "api", entry: "lambdas/api/index.ts", defines: {} },
  { name: "websocket", entry: "lambdas/ws/index.ts", defines: {} },
  { name: "stream", entry: "lambdas/stream/index.ts", defines: {} },
  { name: "authorizer", entry: "lambdas/ws/authorizer.ts", defines: {} },
  { name: "push", entry: "lambdas/ws/push.ts", defines: {} },
  { name: "batch", entry: "lambdas/batch/index.ts", defines: {} },
  { name: "finalize", entry: "lambdas/finalize/index.ts", defines: bedrock },
  { name: "planner", entry: "lambdas/planner/index.ts", defines: bedrock },
  { name: "solver", entry: "lambdas/solver/index.ts", defines: bedrock },
  { name: "worker", entry: "lambdas/worker/index.ts", defines: deployedWorker },
  { name: "planner-rule-based", entry: "lambdas/planner/index.ts", defines: ruleBased },
];
const LIGHT = ["api", "stream", "websocket", "authorizer", "push", "batch", "finalize", "planner", "solver"];
const WITHOUT_MODELS = ["api", "websocket", "authorizer", "push", "batch"];

let bundles: Map<string, Built | Error>;

function bundle(name: string): Built {
  const built = bundles.get(name);
  if (!built || built instanceof Error) throw new Error(`${name} did not bundle: ${String(built)}`);
  return built;
}

/** The input files of a bundle that match, with the bytes each contributes. */
function inputsMatching(name: string, pattern: RegExp): string[] {
  return Object.keys(bundle(name).inputs).filter((file) => pattern.test(file));
}

const TOKENIZER = /node_modules\/gpt-tokenizer\/|lambdas\/llm\/tokenizer\.ts$/;
const PDF =
  /node_modules\/unpdf\/|lambdas\/(tools\/document-reader|agents\/loan\/pdf-text|documents\/[\w-]+)\.ts$/;
const LENDER = /lambdas\/tools\/lender-client\.ts$/;
/** What the tools do (lambdas/agents/loan/loan-tools.ts and the reference engines): the worker's alone. */
const ENGINES =
  /lambdas\/agents\/loan\/(loan-tools|conditions-engine|tax-return|tax-return-fields|officer-signature|bank-statements|statement-fields|statement-holders|statement-transactions|statement-activity)\.ts$/;
const ZOD_LOCALES = /node_modules\/zod\/v4\/locales\/(?!en\.js$)/;

beforeAll(async () => {
  bundles = await bundleFunctions(ROOT, FUNCTIONS);
});

describe("Lambda bundles", () => {
  it("keep the tokenizer, PDF reading, the tools' engines, the lender's clients and zod's locales out of every function but the worker", () => {
    for (const name of LIGHT) {
      expect(inputsMatching(name, TOKENIZER), name).toEqual([]);
      expect(inputsMatching(name, PDF), name).toEqual([]);
      expect(inputsMatching(name, LENDER), name).toEqual([]);
      expect(inputsMatching(name, ENGINES), name).toEqual([]);
      expect(inputsMatching(name, ZOD_LOCALES), name).toEqual([]);
    }
  });

  it("carry of the Secrets Manager client only the command they send (a dynamic import of Powertools Parameters made esbuild keep, and evaluate at import, every command)", () => {
    for (const name of ["api", "authorizer", "worker"]) {
      expect(
        inputsMatching(name, /client-secrets-manager\/dist-es\/commands\/GetSecretValueCommand\.js$/),
        name,
      ).toHaveLength(1);
      expect(
        inputsMatching(
          name,
          /client-secrets-manager\/dist-es\/(SecretsManager\.js|commands\/(?!GetSecretValueCommand))/,
        ),
        name,
      ).toEqual([]);
    }
  });

  it("load node:http2 when Bedrock's client first sends, never when they are imported", () => {
    for (const name of ["planner", "solver", "worker"]) {
      const code = new TextDecoder().decode(bundle(name).code);
      expect(code, name).not.toMatch(/from\s*["']node:http2["']|import\(\s*["']node:http2["']\s*\)/);
      expect(inputsMatching(name, /lambdas\/runtime\/node-http2\.ts$/), name).toHaveLength(1);
    }
  });

  it("load node:http through require, never as an ES module (whose view of it loads undici)", () => {
    for (const name of [...LIGHT, "worker"]) {
      const code = new TextDecoder().decode(bundle(name).code);
      expect(code, name).not.toMatch(/from\s*["']node:http["']|import\(\s*["']node:http["']\s*\)/);
      expect(inputsMatching(name, /lambdas\/runtime\/node-http\.ts$/), name).toHaveLength(1);
    }
  });

  it("carry neither the SDK's credential chain beyond the environment nor its SSO token chain", () => {
    const CHAINS =
      /node_modules\/@aws-sdk\/(credential-provider-(node|ini|sso|process|web-identity|login|http)|nested-clients|token-providers)\//;
    for (const name of [...LIGHT, "worker", "planner-rule-based"]) {
      expect(inputsMatching(name, CHAINS), name).toEqual([]);
      expect(inputsMatching(name, /lambdas\/runtime\/lambda-credentials\.ts$/), name).toHaveLength(1);
    }
    for (const name of ["planner", "solver", "worker"]) {
      expect(inputsMatching(name, /lambdas\/runtime\/lambda-tokens\.ts$/), name).toHaveLength(1);
    }
  });

  it("stay within their byte budgets, the worker (which reads documents) within its own", () => {
    for (const name of [...LIGHT, "worker"]) {
      expect(bundle(name).code.byteLength, name).toBeLessThanOrEqual(targetsFor(name).bytes);
    }
    expect(targetsFor("worker").bytes).toBeGreaterThan(BUNDLE_TARGETS.bytes);
  });

  it("link only the provider the function was bundled for", () => {
    for (const name of ["planner", "solver", "finalize", "worker"]) {
      expect(inputsMatching(name, /lambdas\/llm\/(rule-based|openai)\.ts$/), name).toEqual([]);
    }
    expect(inputsMatching("planner", /lambdas\/llm\/bedrock\.ts$/)).toHaveLength(1);
    expect(inputsMatching("planner-rule-based", /lambdas\/llm\/bedrock\.ts$|client-bedrock-runtime/)).toEqual(
      [],
    );
    expect(inputsMatching("planner-rule-based", /lambdas\/llm\/rule-based\.ts$/)).toHaveLength(1);
    // The rule-based provider counts tokens itself: its bundle carries the tokenizer.
    expect(inputsMatching("planner-rule-based", /node_modules\/gpt-tokenizer\//).length).toBeGreaterThan(0);
  });

  it("give the WebSocket Management API client and live delivery to the WebSocket functions alone", () => {
    const LIVE = /node_modules\/@aws-sdk\/client-apigatewaymanagementapi\/|lambdas\/live\/delivery\.ts$/;
    for (const name of ["websocket", "push"])
      expect(inputsMatching(name, LIVE).length, name).toBeGreaterThan(0);
    for (const name of ["api", "batch", "finalize", "planner", "solver"]) {
      expect(inputsMatching(name, LIVE), name).toEqual([]);
    }
  });

  it("give the S3 client only to the functions that read or write the buckets", () => {
    const S3 =
      /node_modules\/@aws-sdk\/(client-s3|middleware-sdk-s3)\/|lambdas\/store\/(blobs|evidence|batches)\.ts$/;
    for (const name of ["stream", "websocket", "push"]) {
      expect(inputsMatching(name, S3), name).toEqual([]);
      // Nor the tool catalogs and agents' modules services.ts builds at import (base-services.ts).
      expect(inputsMatching(name, /lambdas\/(agents|tools)\//), name).toEqual([]);
    }
    for (const name of ["api", "batch", "finalize", "planner", "solver", "worker"]) {
      expect(inputsMatching(name, /node_modules\/@aws-sdk\/client-s3\//).length, name).toBeGreaterThan(0);
    }
  });

  it("give the functions without models no model client at all", () => {
    for (const name of WITHOUT_MODELS) {
      expect(
        inputsMatching(name, /lambdas\/llm\/(bedrock|rule-based|openai)\.ts$|client-bedrock-runtime/),
        name,
      ).toEqual([]);
    }
  });

  it("give the worker document reading, the engines and the lender's clients, and on Bedrock no tokenizer", () => {
    expect(inputsMatching("worker", /node_modules\/unpdf\//).length).toBeGreaterThan(0);
    expect(inputsMatching("worker", /lambdas\/tools\/document-reader\.ts$/)).toHaveLength(1);
    expect(inputsMatching("worker", LENDER)).toHaveLength(1);
    expect(inputsMatching("worker", ENGINES)).toHaveLength(10);
    expect(inputsMatching("worker", TOKENIZER)).toEqual([]);
  });

  it("leave pdf.js out of the worker, which imports it from beside the bundle when it reads a PDF", () => {
    expect(inputsMatching("worker", /node_modules\/unpdf\/dist\/pdfjs\.mjs$/)).toEqual([]);
    expect(new TextDecoder().decode(bundle("worker").code)).toMatch(/import\(\s*["']unpdf\/pdfjs["']\s*\)/);
  });

  it("give the Textract worker the Textract engine and neither tesseract.js nor MuPDF", () => {
    expect(inputsMatching("worker", /lambdas\/tools\/ocr\/textract\.ts$/)).toHaveLength(1);
    expect(
      inputsMatching(
        "worker",
        /node_modules\/(tesseract\.js|tesseract\.js-core|mupdf)\/|ocr\/tesseract\.ts$/,
      ),
    ).toEqual([]);
    for (const name of LIGHT) {
      expect(inputsMatching(name, /lambdas\/tools\/ocr\/|client-textract/), name).toEqual([]);
    }
  });
});
