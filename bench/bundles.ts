// Lambda bundle sizes (a cold-start proxy): every `lambdas/*/index.ts` that exports a handler, plus
// `lambdas/ws/authorizer.ts`, bundled with esbuild the way infra/constructs/defaults.ts has CDK do it
// (platform node, target node22, ESM, minified, the createRequire banner, main fields module/main), once
// with everything bundled (what the CDK stack deploys: bundleAwsSDK) and once with `@aws-sdk/*`
// external (provided by the Node.js 22 Lambda runtime). Also: gzip size (≈ the deployment zip) and
// the time a fresh `node` takes to import the full bundle (module evaluation, no handler call).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { type BuildOptions, build, type Metafile } from "esbuild";
import { median } from "./measure.ts";

const run = promisify(execFile);

export interface BundleResult {
  function: string;
  entry: string;
  /** Minified, everything bundled (the CDK stack's setting). */
  bytes: number;
  gzip_bytes: number;
  /** Minified, `@aws-sdk/*` left to the Lambda runtime. */
  bytes_sdk_external: number;
  gzip_bytes_sdk_external: number;
  /** Median of fresh `node` processes importing the full bundle. */
  import_ms?: number;
  /** The largest contributors to the full bundle (bytes in output). */
  top_inputs: Array<{ name: string; bytes: number }>;
  error?: string;
}

const BANNER =
  "import { createRequire as __rewooCreateRequire } from 'node:module'; const require = __rewooCreateRequire(import.meta.url);";

export async function findLambdaEntries(root: string): Promise<Array<{ name: string; entry: string }>> {
  const lambdas = join(root, "lambdas");
  const entries: Array<{ name: string; entry: string }> = [];
  for (const dir of (await readdir(lambdas, { withFileTypes: true })).filter((d) => d.isDirectory())) {
    const index = join(lambdas, dir.name, "index.ts");
    if (!existsSync(index)) continue;
    // lambdas/llm/index.ts is a module index, not a function.
    if (
      !/export\s+(const|async\s+function|function)\s+handler\b|export\s*\{[^}]*\bhandler\b/.test(
        await readFile(index, "utf8"),
      )
    )
      continue;
    entries.push({ name: dir.name, entry: index });
  }
  const authorizer = join(lambdas, "ws", "authorizer.ts");
  if (existsSync(authorizer)) entries.push({ name: "ws-authorizer", entry: authorizer });
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

const BUILD_OPTIONS: BuildOptions = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "esm",
  mainFields: ["module", "main"],
  banner: { js: BANNER },
  minify: true,
  write: false,
  metafile: true,
  logLevel: "silent",
};

interface Built {
  code: Uint8Array;
  metafile: Metafile;
}

/** All entries in one esbuild call (shared parsing); per entry when one of them does not build. */
async function bundleAll(
  entries: Array<{ name: string; entry: string }>,
  external: string[],
): Promise<Map<string, Built | Error>> {
  const out = new Map<string, Built | Error>();
  try {
    const result = await build({
      ...BUILD_OPTIONS,
      entryPoints: Object.fromEntries(entries.map(({ name, entry }) => [name, entry])),
      outdir: "/bench-out",
      external,
    });
    for (const { name } of entries) {
      const file = result.outputFiles?.find((f) => f.path === `/bench-out/${name}.js`);
      const meta = Object.entries(result.metafile?.outputs ?? {}).find(([k]) =>
        k.endsWith(`bench-out/${name}.js`),
      )?.[1];
      if (!file || !meta) out.set(name, new Error("esbuild produced no output"));
      else out.set(name, { code: file.contents, metafile: { inputs: {}, outputs: { [name]: meta } } });
    }
    return out;
  } catch {
    for (const { name, entry } of entries) {
      try {
        const result = await build({ ...BUILD_OPTIONS, entryPoints: [entry], external });
        const file = result.outputFiles?.[0];
        out.set(
          name,
          file && result.metafile
            ? { code: file.contents, metafile: result.metafile }
            : new Error("esbuild produced no output"),
        );
      } catch (error) {
        out.set(name, error as Error);
      }
    }
    return out;
  }
}

function topInputs(metafile: Metafile, limit = 6): Array<{ name: string; bytes: number }> {
  const byPackage = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [file, info] of Object.entries(output.inputs)) {
      const pkg =
        /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split("/").slice(0, 2).join("/");
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + info.bytesInOutput);
    }
  }
  return [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, bytes]) => ({ name, bytes }));
}

async function importMs(file: string, samples: number): Promise<number> {
  const script =
    "const t = performance.now(); await import(process.env.BENCH_BUNDLE); process.stdout.write(String(performance.now() - t));";
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      env: {
        PATH: process.env.PATH ?? "",
        BENCH_BUNDLE: file,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      },
      timeout: 30_000,
    });
    times.push(Number(stdout));
  }
  return Math.round(median(times) * 10) / 10;
}

export async function measureBundles(
  root: string,
  options: { importSamples?: number } = {},
): Promise<BundleResult[]> {
  const entries = await findLambdaEntries(root);
  const dir = await mkdtemp(join(tmpdir(), "rewoo-bench-bundles-"));
  const results: BundleResult[] = [];
  try {
    const [full, sdkExternal] = [await bundleAll(entries, []), await bundleAll(entries, ["@aws-sdk/*"])];
    for (const { name, entry } of entries) {
      const relativeEntry = relative(root, entry);
      const a = full.get(name);
      const b = sdkExternal.get(name);
      if (!a || a instanceof Error || !b || b instanceof Error) {
        // Other work may have a function mid-edit: report it rather than lose the other sizes.
        const error = [a, b].find((x) => x instanceof Error) as Error | undefined;
        results.push({
          function: name,
          entry: relativeEntry,
          bytes: 0,
          gzip_bytes: 0,
          bytes_sdk_external: 0,
          gzip_bytes_sdk_external: 0,
          top_inputs: [],
          error: `bundle failed: ${(error?.message ?? "no output").split("\n")[0]}`,
        });
        continue;
      }
      const result: BundleResult = {
        function: name,
        entry: relativeEntry,
        bytes: a.code.byteLength,
        gzip_bytes: gzipSync(a.code).byteLength,
        bytes_sdk_external: b.code.byteLength,
        gzip_bytes_sdk_external: gzipSync(b.code).byteLength,
        top_inputs: topInputs(a.metafile),
      };
      if ((options.importSamples ?? 3) > 0) {
        const file = join(dir, `${name}.mjs`);
        await writeFile(file, a.code);
        try {
          result.import_ms = await importMs(file, options.importSamples ?? 3);
        } catch (error) {
          result.error = `import failed: ${(error as Error).message.split("\n")[0]}`;
        }
      }
      results.push(result);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return results;
}
