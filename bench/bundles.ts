// Lambda bundle sizes and import times (a cold-start proxy), per function of the service stack,
// each bundled the way the stack bundles it: the functions and their esbuild settings are read from
// the synthesized app (infra/constructs/bundling.ts: platform node, target node22, ESM, minified, the
// createRequire banner, main fields module/main, and the LLM provider the function's environment
// names, linked alone). Measured on the Bedrock path (`-c llmProvider=bedrock`). Each function twice:
// with everything bundled (what the stack deploys: bundleAwsSDK) and with `@aws-sdk/*` left to the
// Node.js 22 runtime. Also: gzip size (≈ the deployment zip) and the time a fresh `node` takes to
// import each bundle (module evaluation, no handler call). The SDK-external bundle is imported from
// a folder under node_modules, so the SDK loads from its own files as the runtime's copy does.
//
// Only this measurement: `npx tsx bench/bundles.ts [--samples 5] [--provider bedrock] [--json | --section] [--check]`.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { Command, InvalidArgumentError, Option } from "commander";
import { type BuildOptions, build, type Metafile } from "esbuild";
import {
  BUNDLE_DEFERRED_IMPORTS,
  BUNDLED_LLM_PROVIDER_DEFINE,
  ESBUILD_BUNDLE_OPTIONS,
} from "../infra/constructs/bundling.ts";
import { median } from "./measure.ts";

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface DeployedFunction {
  /** The stack's name for it (ServiceStack.functions). */
  name: string;
  /** Handler file, relative to the repository root. */
  entry: string;
  /** The esbuild `define`s the stack bundles it with (the linked LLM provider). */
  defines: Readonly<Record<string, string>>;
}

/** The provider the deployed path is measured with. */
export const MEASURED_PROVIDER = "bedrock";

/**
 * The service stack's functions as `cdk synth -c env=prod -c llmProvider=<provider>` builds them
 * (bundling itself skipped: only the constructs are needed). The models are placeholders: they only
 * scope IAM.
 */
export async function deployedFunctions(provider: string = MEASURED_PROVIDER): Promise<DeployedFunction[]> {
  const [{ App }, { defineRewooApp }] = await Promise.all([
    import("aws-cdk-lib"),
    import("../infra/stacks/rewoo.ts"),
  ]);
  const models =
    provider === "bedrock"
      ? {
          plannerModel: "anthropic.claude-3-5-haiku-20241022-v1:0",
          solverModel: "anthropic.claude-3-5-haiku-20241022-v1:0",
        }
      : {};
  // cdk.json's context carries the feature flags the stacks are written against.
  const cdkJson = JSON.parse(await readFile(join(REPO_ROOT, "cdk.json"), "utf8")) as {
    context?: Record<string, unknown>;
  };
  const app = new App({
    context: {
      ...cdkJson.context,
      env: "prod",
      llmProvider: provider,
      ...models,
      "aws:cdk:bundling-stacks": [],
    },
  });
  const { service } = defineRewooApp(app);
  return Object.entries(service.functions).map(([name, fn]) => ({
    name,
    entry: fn.entry,
    defines: fn.bundleDefines,
  }));
}

/**
 * Cold-start budgets, on the full bundle (what the stack deploys): every function imports in at most
 * 100 ms; the worker, which reads documents, in 150 ms, with a byte budget of its own (pdf.js, 1.6 MB,
 * is loaded when it first reads a PDF: infra/constructs/bundling.ts, BUNDLE_DEFERRED_IMPORTS).
 */
export const BUNDLE_TARGETS = {
  // 0.95 MB: the largest, the API (943 KB), holds the banking chat's understanding, three token
  // audiences and, through the agents' registry (the waits re-review an edited plan by its agent's
  // rules), each agent's profile with its prompts.
  bytes: 950_000,
  importMs: 100,
  // The worker: 1.15 MB (1.10 MB measured): the document model's key-value and table finder, the
  // re-read of unsure OCR lines and the model-assisted transaction rows added about 25 KB to it.
  byFunction: { worker: { bytes: 1_150_000, importMs: 150 } } as Readonly<
    Record<string, { bytes: number; importMs: number }>
  >,
} as const;

/** The budgets one function is held to. */
export function targetsFor(name: string): { bytes: number; importMs: number } {
  return (
    BUNDLE_TARGETS.byFunction[name] ?? { bytes: BUNDLE_TARGETS.bytes, importMs: BUNDLE_TARGETS.importMs }
  );
}

export interface TargetCheck {
  target: "bytes" | "import_ms";
  limit: number;
  value: number;
  met: boolean;
  /** How far above the limit (0 when met). */
  over: number;
}

export interface BundleResult {
  function: string;
  entry: string;
  /** The LLM provider linked into the bundle; absent for functions without models. */
  llm_provider?: string;
  /** Minified, everything bundled (the CDK stack's setting). */
  bytes: number;
  gzip_bytes: number;
  /** Minified, `@aws-sdk/*` left to the Lambda runtime. */
  bytes_sdk_external: number;
  gzip_bytes_sdk_external: number;
  /** Median of fresh `node` processes importing the full bundle. */
  import_ms?: number;
  /** CPU time of those imports (median): less sensitive to other load on the machine than wall time. */
  import_cpu_ms?: number;
  /** The machine's 1-minute load average when the imports were timed. */
  load_average?: number;
  /** The same for the SDK-external bundle, the SDK loaded from node_modules as the runtime provides it. */
  import_ms_sdk_external?: number;
  /** The largest contributors to the full bundle (bytes in output). */
  top_inputs: Array<{ name: string; bytes: number }>;
  targets?: TargetCheck[];
  error?: string;
}

const BUILD_OPTIONS: BuildOptions = {
  ...ESBUILD_BUNDLE_OPTIONS,
  mainFields: [...ESBUILD_BUNDLE_OPTIONS.mainFields],
  write: false,
  metafile: true,
  logLevel: "silent",
};

export interface Built {
  code: Uint8Array;
  /** Input files that contribute bytes to the output, with how many. */
  inputs: Record<string, number>;
}

/**
 * Bundles functions as the stack does. One esbuild call per group of functions with the same
 * defines; per function when one of them does not build, so the others are still measured.
 */
export async function bundleFunctions(
  root: string,
  functions: readonly DeployedFunction[],
  options: { external?: string[] } = {},
): Promise<Map<string, Built | Error>> {
  const out = new Map<string, Built | Error>();
  const groups = new Map<string, DeployedFunction[]>();
  for (const fn of functions) {
    const key = JSON.stringify(fn.defines);
    groups.set(key, [...(groups.get(key) ?? []), fn]);
  }
  // The groups build at the same time (one esbuild service process runs them side by side).
  const buildGroup = async (group: DeployedFunction[]) => {
    const shared = {
      ...BUILD_OPTIONS,
      absWorkingDir: root,
      external: [...Object.keys(BUNDLE_DEFERRED_IMPORTS), ...(options.external ?? [])],
      define: { ...group[0]?.defines },
    };
    const built = (result: Awaited<ReturnType<typeof build>>, path: string): Built | Error => {
      const file = result.outputFiles?.find((f) => f.path === path);
      const meta = Object.entries(result.metafile?.outputs ?? {}).find(([k]) => join(root, k) === path)?.[1];
      return file && meta
        ? { code: file.contents, inputs: inputsOf(meta) }
        : new Error("esbuild produced no output");
    };
    const outdir = join(root, "bench-bundles-out");
    try {
      const result = await build({
        ...shared,
        entryPoints: Object.fromEntries(group.map(({ name, entry }) => [name, join(root, entry)])),
        outdir,
      });
      for (const { name } of group) out.set(name, built(result, join(outdir, `${name}.js`)));
    } catch {
      for (const { name, entry } of group) {
        try {
          const outfile = join(outdir, `${name}.js`);
          out.set(
            name,
            built(await build({ ...shared, entryPoints: [join(root, entry)], outfile }), outfile),
          );
        } catch (error) {
          out.set(name, error as Error);
        }
      }
    }
  };
  await Promise.all([...groups.values()].map(buildGroup));
  return out;
}

function inputsOf(output: Metafile["outputs"][string]): Record<string, number> {
  return Object.fromEntries(
    Object.entries(output.inputs)
      .filter(([, info]) => info.bytesInOutput > 0)
      .map(([file, info]) => [file, info.bytesInOutput]),
  );
}

/** The package (or the repository folder) an input file belongs to. */
export function packageOf(file: string): string {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split("/").slice(0, 2).join("/");
}

function topInputs(inputs: Record<string, number>, limit = 6): Array<{ name: string; bytes: number }> {
  const byPackage = new Map<string, number>();
  for (const [file, bytes] of Object.entries(inputs)) {
    const pkg = packageOf(file);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytes);
  }
  return [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, bytes]) => ({ name, bytes }));
}

/**
 * Medians over fresh `node` processes importing the bundle: wall time, and the process's CPU time
 * (user + system, all threads) during the import, which other load on the machine inflates less.
 */
async function importTimes(file: string, samples: number): Promise<{ wall: number; cpu: number }> {
  const script =
    // The Node.js runtime of Lambda defines the global `awslambda` (response streaming) before it
    // loads a handler; the stream function's bundle calls it at import.
    "globalThis.awslambda ??= { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } }; " +
    "const c = process.cpuUsage(); const t = performance.now(); await import(process.env.BENCH_BUNDLE); const w = performance.now() - t; const u = process.cpuUsage(c); process.stdout.write(JSON.stringify([w, (u.user + u.system) / 1000]));";
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < samples; i++) {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      env: {
        PATH: process.env.PATH ?? "",
        BENCH_BUNDLE: pathToFileURL(file).href,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      },
      timeout: 30_000,
    });
    const [wall, cpu] = JSON.parse(stdout) as [number, number];
    walls.push(wall);
    cpus.push(cpu);
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return { wall: round(median(walls)), cpu: round(median(cpus)) };
}

export function checkTargets(result: BundleResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const check = (target: TargetCheck["target"], limit: number, value: number) =>
    checks.push({ target, limit, value, met: value <= limit, over: Math.max(0, value - limit) });
  const budget = targetsFor(result.function);
  check("bytes", budget.bytes, result.bytes);
  if (result.import_ms !== undefined) check("import_ms", budget.importMs, result.import_ms);
  return checks;
}

export async function measureBundles(
  root: string,
  options: { importSamples?: number; provider?: string; functions?: readonly DeployedFunction[] } = {},
): Promise<BundleResult[]> {
  const functions = options.functions ?? (await deployedFunctions(options.provider));
  const samples = options.importSamples ?? 3;
  const [full, sdkExternal] = [
    await bundleFunctions(root, functions),
    await bundleFunctions(root, functions, { external: ["@aws-sdk/*"] }),
  ];
  const dir = await mkdtemp(join(tmpdir(), "rewoo-bench-bundles-"));
  // Under node_modules, so `@aws-sdk/*` resolves from the SDK-external bundles.
  const cache = join(root, "node_modules", ".cache");
  await mkdir(cache, { recursive: true });
  const sdkDir = await mkdtemp(join(cache, "rewoo-bench-bundles-"));
  const results: BundleResult[] = [];
  try {
    for (const { name, entry, defines } of functions) {
      const a = full.get(name);
      const b = sdkExternal.get(name);
      if (!a || a instanceof Error || !b || b instanceof Error) {
        // Other work may have a function mid-edit: report it rather than lose the other sizes.
        const error = [a, b].find((x) => x instanceof Error) as Error | undefined;
        results.push({
          function: name,
          entry,
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
        entry,
        ...(defines[BUNDLED_LLM_PROVIDER_DEFINE]
          ? { llm_provider: JSON.parse(defines[BUNDLED_LLM_PROVIDER_DEFINE]) as string }
          : {}),
        bytes: a.code.byteLength,
        gzip_bytes: gzipSync(a.code).byteLength,
        bytes_sdk_external: b.code.byteLength,
        gzip_bytes_sdk_external: gzipSync(b.code).byteLength,
        top_inputs: topInputs(a.inputs),
      };
      if (samples > 0) {
        const fullFile = join(dir, `${name}.mjs`);
        const externalFile = join(sdkDir, `${name}.mjs`);
        await writeFile(fullFile, a.code);
        await writeFile(externalFile, b.code);
        try {
          result.load_average = Math.round((loadavg()[0] ?? 0) * 100) / 100;
          const times = await importTimes(fullFile, samples);
          result.import_ms = times.wall;
          result.import_cpu_ms = times.cpu;
          result.import_ms_sdk_external = (await importTimes(externalFile, samples)).wall;
        } catch (error) {
          result.error = `import failed: ${(error as Error).message.split("\n")[0]}`;
        }
      }
      result.targets = checkTargets(result);
      results.push(result);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(sdkDir, { recursive: true, force: true });
  }
  return results;
}

// ---- CLI ------------------------------------------------------------------------------------------

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(2)} MB`;

/** One line per target: `≤ 1 MB met (0.88 MB)`, `≤ 150 ms missed by 23 ms (173 ms)`. */
export function describeTarget(check: TargetCheck): string {
  const limit = check.target === "bytes" ? mb(check.limit) : `${check.limit} ms`;
  const value = check.target === "bytes" ? mb(check.value) : `${check.value.toFixed(0)} ms`;
  const over = check.target === "bytes" ? mb(check.over) : `${check.over.toFixed(0)} ms`;
  return check.met ? `≤ ${limit} met (${value})` : `≤ ${limit} missed by ${over} (${value})`;
}

function printTable(results: readonly BundleResult[]): void {
  const rows = results.map((r) =>
    r.error && !r.bytes
      ? [r.function, r.error]
      : [
          r.function,
          r.llm_provider ?? "-",
          mib(r.bytes),
          mib(r.gzip_bytes),
          mib(r.bytes_sdk_external),
          r.import_ms === undefined ? "n/a" : `${r.import_ms.toFixed(0)} ms`,
          r.import_cpu_ms === undefined ? "n/a" : `${r.import_cpu_ms.toFixed(0)} ms`,
          r.import_ms_sdk_external === undefined ? "n/a" : `${r.import_ms_sdk_external.toFixed(0)} ms`,
          (r.targets ?? []).map(describeTarget).join("; "),
          r.top_inputs
            .slice(0, 3)
            .map((i) => `${i.name} ${(i.bytes / 1024).toFixed(0)} KiB`)
            .join(", "),
          r.error ?? "",
        ],
  );
  const header = [
    "function",
    "llm",
    "full",
    "gzip",
    "SDK ext.",
    "import",
    "import CPU",
    "import SDK ext.",
    "targets",
    "largest",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  for (const row of [header, ...rows]) {
    console.log(
      row
        .map((cell, i) => (cell ?? "").padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    );
  }
}

export async function main(argv: string[]): Promise<number> {
  const positive = (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number ≥ 0");
    return n;
  };
  const opts = new Command()
    .name("bundles")
    .description("Lambda bundle sizes and import times per deployed function, bundled as the stack does")
    .option("--samples <n>", "fresh node processes per import time (0: sizes only)", positive, 5)
    .addOption(
      new Option("--provider <name>", "the LLM provider the workflow functions are bundled with")
        .choices(["bedrock", "rule-based"])
        .default(MEASURED_PROVIDER),
    )
    .option("--json", "print the results as JSON", false)
    .option("--section", "print the results as BENCHMARKS.md's bundles section", false)
    .option("--check", "exit 1 when a target is missed", false)
    .parse(argv)
    .opts<{ samples: number; provider: string; json: boolean; section: boolean; check: boolean }>();
  const results = await measureBundles(REPO_ROOT, { importSamples: opts.samples, provider: opts.provider });
  if (opts.json) console.log(JSON.stringify(results, null, 2));
  else if (opts.section) {
    // Loaded here: report-sections.ts reads this module's targets.
    const { bundleSection } = await import("./report-sections.ts");
    console.log(bundleSection({ bundles: results }).join("\n"));
  } else printTable(results);
  const missed = results.flatMap((r) => (r.targets ?? []).filter((t) => !t.met).map(() => r.function));
  const failed = results.filter((r) => r.error).map((r) => r.function);
  if (!opts.json && !opts.section && (missed.length || failed.length)) {
    console.log(
      [
        missed.length ? `targets missed: ${[...new Set(missed)].join(", ")}` : "",
        failed.length ? `not measured: ${failed.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; "),
    );
  }
  return opts.check && (missed.length || failed.length) ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
