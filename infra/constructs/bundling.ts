// How each function is bundled by esbuild, in one place without CDK: the stack (defaults.ts,
// rewoo-function.ts), the bundle benchmark (bench/bundles.ts) and the bundle-composition test read
// it, so what is measured and tested is what is deployed.

/** The Lambda runtime's Node.js (NODEJS_22_X). */
export const BUNDLE_TARGET = "node22";

/** ESM packages (unpdf) publish `module`; prefer it over a CommonJS `main`. */
export const BUNDLE_MAIN_FIELDS = ["module", "main"];

/** CommonJS dependencies bundled into ESM still call require() for Node built-ins. */
export const BUNDLE_BANNER =
  "import { createRequire as __rewooCreateRequire } from 'node:module'; const require = __rewooCreateRequire(import.meta.url);";

/**
 * Modules replaced in every bundle (esbuild `alias`, paths from the repository root), each to spare
 * every cold start work no function needs: `node:http` through require, without the undici load
 * Node's ES module view of it costs (lambdas/runtime/node-http.ts); `node:http2`, which only
 * Bedrock Runtime's client sends with, loaded by its first request (lambdas/runtime/node-http2.ts);
 * the SDK's default credential chain by the environment credentials Lambda provides
 * (lambdas/runtime/lambda-credentials.ts), and its bearer-token chain by the environment alone,
 * without SSO (lambdas/runtime/lambda-tokens.ts).
 */
export const BUNDLE_ALIAS: Readonly<Record<string, string>> = {
  "node:http": "./lambdas/runtime/node-http.ts",
  "node:http2": "./lambdas/runtime/node-http2.ts",
  "@aws-sdk/credential-provider-node": "./lambdas/runtime/lambda-credentials.ts",
  "@aws-sdk/token-providers": "./lambdas/runtime/lambda-tokens.ts",
};

/**
 * The settings above as esbuild's own build options (minified ESM for the runtime's Node.js): what
 * the bundle benchmark and the bundle tests build with, outside CDK.
 */
export const ESBUILD_BUNDLE_OPTIONS = {
  bundle: true,
  platform: "node",
  target: BUNDLE_TARGET,
  format: "esm",
  mainFields: BUNDLE_MAIN_FIELDS,
  banner: { js: BUNDLE_BANNER },
  alias: { ...BUNDLE_ALIAS },
  minify: true,
} as const;

/**
 * Package files a bundle leaves out (esbuild `external`) and loads only when it first needs them,
 * shipped beside it under node_modules: unpdf's build of pdf.js (1.6 MB), which unpdf imports when
 * the first PDF is read. The worker is the one bundle that reaches it; its cold start then parses
 * about 1.1 MB instead of 2.7 MB, and the tools that read no PDF never load it.
 */
export const BUNDLE_DEFERRED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  "unpdf/pdfjs": ["node_modules/unpdf/package.json", "node_modules/unpdf/dist/pdfjs.mjs"],
};

/**
 * Shell commands, run after esbuild (CDK's afterBundling hook), that copy the files of each deferred
 * import the bundle still names from the project (`inputDir`) to the asset (`outputDir`); a bundle
 * that never reaches one gets none of its files.
 */
export function deferredImportCommands(
  inputDir: string,
  outputDir: string,
  bundleFile = "index.mjs",
): string[] {
  return Object.entries(BUNDLE_DEFERRED_IMPORTS).map(([specifier, files]) => {
    const copies = files.map((file) => {
      const folder = file.slice(0, file.lastIndexOf("/"));
      return `mkdir -p "${outputDir}/${folder}" && cp "${inputDir}/${file}" "${outputDir}/${file}"`;
    });
    return `if grep -q '"${specifier}"' "${outputDir}/${bundleFile}"; then ${copies.join(" && ")}; fi`;
  });
}

/** The compile-time constant lambdas/llm/index.ts reads to link one provider only. */
export const BUNDLED_LLM_PROVIDER_DEFINE = "process.env.REWOO_BUNDLED_LLM_PROVIDER";

/** The compile-time constant lambdas/tools/ocr/select.ts reads to link one OCR engine only. */
export const BUNDLED_OCR_ENGINE_DEFINE = "process.env.REWOO_BUNDLED_OCR_ENGINE";

/**
 * esbuild `define`s for a function with this environment. A function whose environment names its
 * LLM provider (REWOO_LLM_PROVIDER) is bundled with that provider only: Bedrock functions then carry
 * neither the other providers nor the tokenizer they load. Likewise its OCR engine (REWOO_OCR_ENGINE,
 * the worker's only): a Textract worker carries neither tesseract.js nor MuPDF. Each pair comes from
 * the same value, so a bundle always matches its environment; changing either is a redeploy.
 */
export function bundleDefines(environment: Readonly<Record<string, string>> = {}): Record<string, string> {
  const provider = environment.REWOO_LLM_PROVIDER;
  const ocrEngine = environment.REWOO_OCR_ENGINE;
  return {
    ...(provider ? { [BUNDLED_LLM_PROVIDER_DEFINE]: JSON.stringify(provider) } : {}),
    ...(ocrEngine ? { [BUNDLED_OCR_ENGINE_DEFINE]: JSON.stringify(ocrEngine) } : {}),
  };
}
