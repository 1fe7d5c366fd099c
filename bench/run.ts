// `npm run bench [-- --quick] [--out dir]`: ReWOO vs ReAct on the loan workload; writes
// <out>/results.json, <out>/*.svg, <out>/scripted/ and the Markdown report (BENCHMARKS.md).
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Command, InvalidArgumentError } from "commander";
import { REPO_ROOT, runBench } from "./bench.ts";
import { RELIABILITY_MEASURES, type ReliabilityMeasure } from "./reliability.ts";

const positiveInts = (value: string): number[] => {
  const list = value.split(",").map((part) => Number(part.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new InvalidArgumentError("expected a comma-separated list of positive integers");
  }
  return list;
};

const reliabilityMeasures = (value: string): ReliabilityMeasure[] => {
  const list = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = list.filter((name) => !(RELIABILITY_MEASURES as readonly string[]).includes(name));
  if (unknown.length || list.length === 0) {
    throw new InvalidArgumentError(
      `expected a comma-separated list of ${RELIABILITY_MEASURES.join(", ")}${unknown.length ? `; unknown: ${unknown.join(", ")}` : ""}`,
    );
  }
  return list as ReliabilityMeasure[];
};

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
};

const nonNegativeInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number ≥ 0");
  return n;
};

export async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("bench")
    .description(
      "ReWOO vs ReAct: tokens, latency vs the critical path, concurrency, AWS cost per run, bundle sizes; reliability and bounded cost",
    )
    .option("--quick", "smoke run: concurrency 1 and 10, one ReWOO run per scenario (< 2 minutes)", false)
    .option("--out <dir>", "directory for results.json, the charts and the scripted responses", "bench")
    .option(
      "--report <file>",
      "Markdown report (default: BENCHMARKS.md at the repository root, or <out>/BENCHMARKS.md with --out)",
    )
    .option("--scenarios <names>", "comma-separated scenario names (default: all)")
    .option("--concurrency <list>", "simultaneous evaluations, e.g. 1,10,50,100", positiveInts)
    .option("--repeats <n>", "ReWOO runs per scenario for the wall-time median", positiveInt)
    .option("--no-bundles", "skip the esbuild bundle sizes")
    .option("--no-layouts", "skip the verdicts on the labelled layouts (examples/layouts/)")
    .option(
      "--no-ocr",
      "skip the held-out layouts scanned and read by OCR (135 pages of OCR: about 20 minutes on 2 cores)",
    )
    .option(
      "--no-held-out",
      "skip the hand-labelled real documents (test/fixtures/held-out-documents/, about 10 s)",
    )
    .option("--no-banking-nlu", "skip the banking chat messages (examples/banking/, under a second)")
    .option("--no-plan-cache", "skip the plan cache stream (a twin of its own, about 10 s)")
    .option("--no-live", "skip the live-provider section even if REWOO_LLM_PROVIDER=bedrock|openai")
    .option(
      "--reliability <measures>",
      `reliability measures to take (default: all of ${RELIABILITY_MEASURES.join(", ")})`,
      reliabilityMeasures,
    )
    .option("--no-reliability", "skip the reliability and bounded-cost section")
    .option(
      "--batch-files <n>",
      "loan files of the portfolio batch measure (default: quick 50, full 1000; 0: none)",
      nonNegativeInt,
    )
    .option(
      "--memory-runs <n>",
      "sequential runs of the memory measure (default: quick 100, full 1000)",
      positiveInt,
    )
    .parse(argv);
  const opts = program.opts<{
    quick: boolean;
    out: string;
    report?: string;
    scenarios?: string;
    concurrency?: number[];
    repeats?: number;
    bundles: boolean;
    layouts: boolean;
    heldOut: boolean;
    ocr: boolean;
    bankingNlu: boolean;
    planCache: boolean;
    live: boolean;
    reliability?: ReliabilityMeasure[] | boolean;
    memoryRuns?: number;
    batchFiles?: number;
  }>();
  const outGiven = program.getOptionValueSource("out") !== "default";
  const out = resolve(opts.out === "bench" && !outGiven ? join(REPO_ROOT, "bench") : opts.out);
  const report = resolve(
    opts.report ?? (outGiven ? join(out, "BENCHMARKS.md") : join(REPO_ROOT, "BENCHMARKS.md")),
  );
  const args = argv.slice(2);
  await runBench({
    quick: opts.quick,
    out,
    report,
    ...(opts.scenarios
      ? {
          scenarios: opts.scenarios
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : {}),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    ...(opts.repeats ? { repeats: opts.repeats } : {}),
    bundles: opts.bundles,
    layouts: opts.layouts,
    heldOut: opts.heldOut,
    ocr: opts.ocr,
    bankingNlu: opts.bankingNlu,
    planCache: opts.planCache,
    live: opts.live,
    reliability: Array.isArray(opts.reliability)
      ? opts.reliability
      : opts.reliability === false
        ? []
        : RELIABILITY_MEASURES,
    ...(opts.memoryRuns ? { reliabilitySizes: { memoryRuns: opts.memoryRuns } } : {}),
    ...(opts.batchFiles !== undefined ? { batchFiles: opts.batchFiles } : {}),
    command: `npm run bench${args.length ? ` -- ${args.join(" ")}` : ""}`,
  });
  console.log(`report: ${relative(process.cwd(), report) || report}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv).then(
    // dynalite/s3rver sockets may linger for a moment after stop(); the work is done.
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
