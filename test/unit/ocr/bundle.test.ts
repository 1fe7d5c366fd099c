// What the OCR engine selection links into a bundle, bundled as the stack bundles a function
// (bench/bundles.ts with infra/constructs/bundling.ts): a Textract worker carries neither tesseract.js
// nor MuPDF (their WebAssembly and language data), a tesseract bundle no Textract client, and a
// bundle without OCR neither. Structure only.
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type Built, bundleFunctions } from "../../../bench/bundles.ts";
import { bundleDefines } from "../../../infra/constructs/bundling.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const ENTRY = "lambdas/tools/ocr/select.ts";

const TEXTRACT = /node_modules\/@aws-sdk\/client-textract\/|lambdas\/tools\/ocr\/textract\.ts$/;
const TESSERACT =
  /node_modules\/(tesseract\.js|tesseract\.js-core|@tesseract\.js-data|mupdf)\/|lambdas\/tools\/ocr\/tesseract\.ts$/;

let bundles: Map<string, Built | Error>;

function inputsMatching(name: string, pattern: RegExp): string[] {
  const built = bundles.get(name);
  if (!built || built instanceof Error) throw new Error(`${name} did not bundle: ${String(built)}`);
  return Object.keys(built.inputs).filter((file) => pattern.test(file));
}

beforeAll(async () => {
  bundles = await bundleFunctions(ROOT, [
    { name: "textract", entry: ENTRY, defines: bundleDefines({ REWOO_OCR_ENGINE: "textract" }) },
    { name: "tesseract", entry: ENTRY, defines: bundleDefines({ REWOO_OCR_ENGINE: "tesseract" }) },
    { name: "none", entry: ENTRY, defines: bundleDefines({ REWOO_OCR_ENGINE: "none" }) },
  ]);
});

describe("the OCR engine in a bundle", () => {
  it("is Textract alone in a Textract bundle", () => {
    expect(inputsMatching("textract", TEXTRACT).length).toBeGreaterThan(1);
    expect(inputsMatching("textract", TESSERACT)).toEqual([]);
  });

  it("is tesseract alone in a tesseract bundle", () => {
    expect(inputsMatching("tesseract", /lambdas\/tools\/ocr\/tesseract\.ts$/)).toHaveLength(1);
    expect(inputsMatching("tesseract", TEXTRACT)).toEqual([]);
  });

  it("is neither in a bundle without OCR", () => {
    expect(inputsMatching("none", TEXTRACT)).toEqual([]);
    expect(inputsMatching("none", TESSERACT)).toEqual([]);
  });
});
