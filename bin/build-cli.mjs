#!/usr/bin/env node
// Builds the bundled `rewoo` into dist/cli (npm's `prepare`: `npm install` and `npm ci` run it), so
// the command starts without compiling TypeScript on every call. esbuild bundles the repository's
// own modules; every package stays in node_modules (the twin's native and wasm packages among them)
// and is loaded from there. Code splitting keeps what a command loads when it runs (cli/main.ts) in
// files of their own. bin/rewoo.mjs starts the bundle only while its sources are unchanged.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { BUNDLE_DIR, manifestFor, REPO_ROOT } from "./cli-bundle.mjs";

/** What decides how the sources are bundled, besides the sources themselves. */
const BUILD_INPUTS = ["bin/build-cli.mjs", "package.json", "tsconfig.json"];
const MANIFEST_FILE = "manifest.json";

export async function buildCli({ root = REPO_ROOT, outDir = BUNDLE_DIR } = {}) {
  const { build } = await import("esbuild");
  mkdirSync(dirname(outDir), { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const staging = mkdtempSync(join(dirname(outDir), ".cli-"));
    try {
      const started = Date.now();
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
      // The record hashes the sources after esbuild read them: one edited in between would be
      // recorded with bytes the bundle does not hold. Such a build is thrown away and made again.
      if (Object.values(manifest.inputs).some((input) => input.mtimeMs >= started)) {
        if (attempt < 3) continue;
        throw new Error(
          "the sources kept changing while they were bundled; run `node bin/build-cli.mjs` again",
        );
      }
      manifest.files = readdirSync(staging);
      writeFileSync(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
      swapIn(staging, outDir, manifest.files);
      return { outDir, inputs: Object.keys(manifest.inputs).length, metafile: result.metafile };
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
}

/**
 * Moves a build into `outDir` while commands may be running from the one before: its split files
 * first (named by their content, so a name already there holds the same bytes), then the entry, then
 * the record, so a command starting meanwhile finds either build whole. The previous build's files
 * stay (a running `rewoo dev` may still load one of them); older ones go.
 */
function swapIn(staging, outDir, files) {
  mkdirSync(outDir, { recursive: true });
  const previous = readManifestFiles(join(outDir, MANIFEST_FILE));
  const last = ["rewoo.mjs.map", "rewoo.mjs"];
  for (const file of [...files.filter((f) => !last.includes(f)), ...last.filter((f) => files.includes(f))]) {
    renameSync(join(staging, file), join(outDir, file));
  }
  renameSync(join(staging, MANIFEST_FILE), join(outDir, MANIFEST_FILE));
  const keep = new Set([...files, MANIFEST_FILE, ...previous]);
  for (const file of readdirSync(outDir)) {
    if (!keep.has(file)) rmSync(join(outDir, file), { recursive: true, force: true });
  }
}

function readManifestFiles(path) {
  try {
    const { files } = JSON.parse(readFileSync(path, "utf8"));
    return Array.isArray(files) ? files.filter((file) => typeof file === "string") : [];
  } catch {
    return [];
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
