#!/usr/bin/env node
// Builds the bundled `rewoo` into dist/cli (npm's `prepare`: `npm install` and `npm ci` run it), so
// the command starts without compiling TypeScript on every call. esbuild bundles the repository's
// own modules; every package stays in node_modules (the twin's native and wasm packages among them)
// and is loaded from there. Code splitting keeps what a command loads when it runs (cli/main.ts) in
// files of their own. bin/rewoo.mjs starts the bundle only while its sources are unchanged.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { BUNDLE_DIR, manifestFor, REPO_ROOT } from "./cli-bundle.mjs";

/** What decides how the sources are bundled, besides the sources themselves. */
const BUILD_INPUTS = ["bin/build-cli.mjs", "package.json", "tsconfig.json"];

export async function buildCli({ root = REPO_ROOT, outDir = BUNDLE_DIR } = {}) {
  const { build } = await import("esbuild");
  // Built beside the old bundle and swapped in whole: a command starting meanwhile sees one or the
  // other (or none, and runs the sources), never a mix.
  mkdirSync(dirname(outDir), { recursive: true });
  const staging = mkdtempSync(join(dirname(outDir), ".cli-"));
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: { rewoo: "cli/main.ts" },
      outdir: staging,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node22",
      packages: "external",
      outExtension: { ".js": ".mjs" },
      // Flat beside the entry: modules resolve the repository root two folders up (infra/local/repo-root.ts).
      chunkNames: "[name]-[hash]",
      sourcemap: "linked",
      metafile: true,
      logLevel: "warning",
    });
    const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith(".."));
    const manifest = manifestFor(root, [...inputs, ...BUILD_INPUTS]);
    writeFileSync(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    rmSync(outDir, { recursive: true, force: true });
    renameSync(staging, outDir);
    return { outDir, inputs: Object.keys(manifest.inputs).length };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  try {
    const { outDir, inputs } = await buildCli();
    const ms = Math.round(performance.now() - started);
    process.stdout.write(
      `rewoo: bundled ${inputs} sources into ${relative(REPO_ROOT, outDir)} in ${ms} ms\n`,
    );
  } catch (error) {
    // An install without dev dependencies has no esbuild: `rewoo` then runs the sources, as before.
    if (error?.code === "ERR_MODULE_NOT_FOUND" && /esbuild/.test(error.message)) {
      process.stdout.write("rewoo: esbuild is not installed; the command runs the TypeScript sources\n");
    } else {
      throw error;
    }
  }
}
