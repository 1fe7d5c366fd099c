// Scans as loan officers receive them, per degradation: loan files scanned with one profile of
// examples/scanned.ts (SCAN_PROFILES: mild, harsh, fax, phone, turned-90, turned-180), read by the
// offline OCR engine with a chosen preparation (lambdas/tools/ocr/prepare.ts), and judged against
// their labels. Sources: a few hand-labelled held-out loan files (test/fixtures/held-out-documents)
// and a few generated held-out layouts. Scanning does not change what a label says, except that an
// unsigned return whose signature box cannot be read may be `insufficient_evidence` as well as
// `not_fulfilled`. A false "fulfilled" is the error that must never happen.
//
// npx tsx bench/scans.ts --profile harsh [--prepare default|none|STEP,STEP…] [--fixtures ids]
//   [--layouts n] [--dpi n] [--psm n] [--workers n] [--json]
import { readFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Command, InvalidArgumentError, Option } from "commander";
import type { LabelledCase } from "../examples/layouts/cases.ts";
import { holdoutCases } from "../examples/layouts/holdout.ts";
import { holdoutCases2 } from "../examples/layouts/holdout-2.ts";
import type { SampleDocument } from "../examples/samples.ts";
import { SCAN_PROFILES, scanDocumentCached } from "../examples/scanned.ts";
import { DEFAULT_OCR_MIN_CONFIDENCE } from "../lambdas/agents/loan/conditions-engine.ts";
import { type ExtractedDocument, extractPdfText } from "../lambdas/agents/loan/pdf-text.ts";
import { DEFAULT_PREPARE, type PrepareOptions } from "../lambdas/tools/ocr/prepare.ts";
import { createTesseractEngine } from "../lambdas/tools/ocr/tesseract.ts";
import { scoreCase } from "./layouts.ts";

const CORPUS = fileURLToPath(new URL("../test/fixtures/held-out-documents/", import.meta.url));

/**
 * The default hand-labelled files: signed and unsigned returns, an EIN, a name and a year that do
 * not match, no EIN given, and statements. The returns share two scanned documents (the OCR cache
 * reads each page once), so the set stays small on a shared machine.
 */
export const DEFAULT_FIXTURES = ["tr-01", "tr-04", "tr-10", "tr-11", "tr-13", "tr-15", "bs-01", "bs-03"];

export interface ScanBenchOptions {
  profile: string;
  /** `false`: no preparation (tesseract's own skew estimate only). */
  prepare: PrepareOptions | false;
  /** Manifest ids (file name prefixes) of the held-out documents to scan. */
  fixtures?: string[];
  /** Generated held-out layouts per set (default 1), of at most 2 pages each. */
  layouts?: number;
  dpi?: number;
  pageSegmentation?: number;
  workers?: number;
  log?: (line: string) => void;
}

export interface ScanBenchResult {
  profile: string;
  prepare: PrepareOptions | false;
  /** "scan": the engine's default (a scan of 100-200 dpi at its own resolution, at least 150; else 300). */
  dpi: number | "scan";
  loan_files: number;
  documents: number;
  /**
   * Pages OCR read (each distinct page once: the engine's cache answers repeats), whole or, for a
   * Form 1120 page no condition reads, by its top band only (`pages_skimmed` of them).
   */
  pages_read: number;
  pages_skimmed: number;
  /** Lines read a second time (cropped and enlarged), and pages whose unsure lines were not. */
  lines_reread: number;
  pages_not_reread: number;
  verdicts: number;
  right: number;
  false_fulfilled: number;
  /** not_fulfilled where the label is fulfilled or insufficient_evidence. */
  wrong_not_fulfilled: number;
  insufficient: number;
  mean_confidence: number;
  /** Pages read below the confidence a decision needs (every verdict citing their document is undecided). */
  pages_below_bar: number;
  ocr_seconds: number;
  seconds_per_page: number;
  /**
   * CPU seconds per page read (this process: the main thread's rendering and preparation and the
   * tesseract worker threads): on a shared machine, wall time says more about the neighbours.
   */
  cpu_seconds_per_page: number;
  /** The 1-minute load average when the measure started and ended. */
  load_average: [number, number];
  misses: string[];
}

interface ManifestLine {
  file: string;
  request: { metadata: Record<string, unknown>; s3_pdf_paths: string[] };
  expected: LabelledCase["labels"];
  documents: Record<string, string>;
}

async function fixtureCases(ids: string[]): Promise<LabelledCase[]> {
  const lines = (await readFile(`${CORPUS}manifest.jsonl`, "utf8"))
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as ManifestLine);
  const cases: LabelledCase[] = [];
  const loaded = new Map<string, Uint8Array>();
  for (const id of ids) {
    const line = lines.find((item) => item.file.startsWith(`requests/${id}`));
    if (!line) throw new Error(`--fixtures: no held-out request ${id} in manifest.jsonl`);
    const documents: SampleDocument[] = [];
    for (const key of line.request.s3_pdf_paths) {
      const path = line.documents[key];
      if (!path) throw new Error(`manifest ${line.file}: no document for ${key}`);
      let bytes = loaded.get(path);
      if (!bytes) {
        bytes = new Uint8Array(await readFile(`${CORPUS}${path}`));
        loaded.set(path, bytes);
      }
      documents.push({ key, bytes, description: path });
    }
    cases.push({
      layout: id,
      description: line.file,
      documents,
      metadata: line.request.metadata,
      labels: line.expected,
    });
  }
  return cases;
}

async function layoutCases(perSet: number): Promise<LabelledCase[]> {
  const cases: LabelledCase[] = [];
  for (const load of [holdoutCases, holdoutCases2]) {
    let taken = 0;
    for (const labelled of await load()) {
      if (taken >= perSet) break;
      let pages = 0;
      for (const document of labelled.documents)
        pages += (await extractPdfText(document.bytes, "count")).page_count;
      if (pages > 2) continue;
      cases.push(labelled);
      taken++;
    }
  }
  return cases;
}

export async function measureScans(options: ScanBenchOptions): Promise<ScanBenchResult> {
  const profile = SCAN_PROFILES[options.profile];
  if (!profile) {
    throw new Error(
      `--profile: expected one of ${Object.keys(SCAN_PROFILES).join(", ")}, got ${options.profile}`,
    );
  }
  const log = options.log ?? (() => undefined);
  const cases = [
    ...(await fixtureCases(options.fixtures ?? DEFAULT_FIXTURES)),
    ...(await layoutCases(options.layouts ?? 1)),
  ];
  const dpi = options.dpi;
  const engine = createTesseractEngine({
    workers: Math.max(1, options.workers ?? availableParallelism()),
    ...(dpi === undefined ? {} : { dpi }),
    prepare: options.prepare,
    ...(options.pageSegmentation === undefined ? {} : { pageSegmentation: options.pageSegmentation }),
  });
  const result: ScanBenchResult = {
    profile: options.profile,
    prepare: options.prepare,
    dpi: dpi ?? "scan",
    loan_files: cases.length,
    documents: 0,
    pages_read: 0,
    pages_skimmed: 0,
    lines_reread: 0,
    pages_not_reread: 0,
    verdicts: 0,
    right: 0,
    false_fulfilled: 0,
    wrong_not_fulfilled: 0,
    insufficient: 0,
    mean_confidence: 0,
    pages_below_bar: 0,
    ocr_seconds: 0,
    seconds_per_page: 0,
    cpu_seconds_per_page: 0,
    load_average: [Math.round((loadavg()[0] ?? 0) * 100) / 100, 0],
    misses: [],
  };
  const scans = new Map<Uint8Array, Uint8Array>();
  const read = new Map<Uint8Array, ExtractedDocument>();
  let confidenceSum = 0;
  let cpuSeconds = 0;
  let confidencePages = 0;
  for (const labelled of cases) {
    log(`${labelled.layout}: scanning and reading ${labelled.documents.length} document(s)…`);
    const extracted: ExtractedDocument[] = [];
    for (const document of labelled.documents) {
      let scanned = scans.get(document.bytes);
      if (!scanned) {
        scanned = await scanDocumentCached(document.bytes, profile);
        scans.set(document.bytes, scanned);
      }
      // A document shared by several loan files is read once, as a warm engine's cache would answer.
      let text = read.get(document.bytes);
      if (!text) {
        const begun = performance.now();
        const cpuBefore = process.cpuUsage();
        text = await extractPdfText(scanned, document.key, { ocr: engine });
        result.ocr_seconds += (performance.now() - begun) / 1000;
        const cpu = process.cpuUsage(cpuBefore);
        cpuSeconds += (cpu.user + cpu.system) / 1e6;
        read.set(document.bytes, text);
        result.documents += 1;
        const confidences: number[] = [];
        for (const source of text.page_sources ?? []) {
          if (source.source === "ocr") {
            confidenceSum += source.confidence;
            confidencePages += 1;
            confidences.push(source.confidence);
            if (source.confidence < DEFAULT_OCR_MIN_CONFIDENCE) result.pages_below_bar += 1;
          }
        }
        log(`  ${document.key}: page confidence ${confidences.join(", ")}`);
      }
      extracted.push({ ...text, document: document.key });
    }
    const judged = scoreCase(labelled, extracted);
    for (const [condition, label] of Object.entries(labelled.labels)) {
      const status = judged.judged.find((verdict) => verdict.condition_id === condition)?.status ?? "missing";
      // A blank signature box that could not be read is not a decision either way.
      const right =
        status === label ||
        (condition === "TR_SIGNED" && label === "not_fulfilled" && status === "insufficient_evidence");
      result.verdicts += 1;
      if (right) result.right += 1;
      else result.misses.push(`${labelled.layout} ${condition}: ${label} → ${status}`);
      if (status === "fulfilled" && label !== "fulfilled") result.false_fulfilled += 1;
      if (status === "not_fulfilled" && label !== "not_fulfilled") result.wrong_not_fulfilled += 1;
      if (status === "insufficient_evidence") result.insufficient += 1;
    }
  }
  result.pages_read = engine.stats.pagesRead + engine.stats.pagesSkimmed;
  result.pages_skimmed = engine.stats.pagesSkimmed;
  result.lines_reread = engine.stats.linesReread;
  result.pages_not_reread = engine.stats.pagesNotReread;
  result.mean_confidence = confidencePages ? Math.round((10 * confidenceSum) / confidencePages) / 10 : 0;
  result.ocr_seconds = Math.round(result.ocr_seconds * 100) / 100;
  result.seconds_per_page = result.pages_read
    ? Math.round((100 * result.ocr_seconds) / result.pages_read) / 100
    : 0;
  result.cpu_seconds_per_page = result.pages_read
    ? Math.round((100 * cpuSeconds) / result.pages_read) / 100
    : 0;
  result.load_average[1] = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  return result;
}

const STEPS = ["perspective", "evenLight", "orientation", "deskew", "median", "binarise"] as const;

/** `default`, `none`, or the steps to switch on, comma-separated (the others off). */
export function parsePrepare(value: string): PrepareOptions | false {
  if (value === "none") return false;
  if (value === "default") return { ...DEFAULT_PREPARE };
  const steps = value.split(",").map((step) => step.trim());
  for (const step of steps) {
    if (!(STEPS as readonly string[]).includes(step)) {
      throw new InvalidArgumentError(`expected default, none or some of ${STEPS.join(", ")}; got ${step}`);
    }
  }
  return Object.fromEntries(STEPS.map((step) => [step, steps.includes(step)])) as PrepareOptions;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number");
  return n;
}

async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("bench/scans")
    .description(
      "verdicts on loan files scanned with one degradation profile, read by the offline OCR engine",
    )
    .addOption(
      new Option("--profile <name>", "scan profile").choices(Object.keys(SCAN_PROFILES)).default("harsh"),
    )
    .option(
      "--prepare <steps>",
      "default, none, or steps to switch on: orientation,deskew,median,binarise",
      parsePrepare,
    )
    .option("--fixtures <ids>", "held-out request ids, comma-separated", (v: string) => v.split(","))
    .option("--layouts <n>", "generated held-out layouts per set (default 1)", positiveInt)
    .option(
      "--dpi <n>",
      "rendering resolution for OCR (default: a scan of 100-200 dpi at its own, at least 150; else 300)",
      positiveInt,
    )
    .option("--psm <n>", "tesseract page segmentation mode (default 6)", positiveInt)
    .option("--workers <n>", "tesseract workers (default: the cores)", positiveInt)
    .option("--json", "print the result as JSON")
    .parse(argv);
  const opts = program.opts<{
    profile: string;
    prepare?: PrepareOptions | false;
    fixtures?: string[];
    layouts?: number;
    dpi?: number;
    psm?: number;
    workers?: number;
    json?: boolean;
  }>();
  const started = Date.now();
  const result = await measureScans({
    profile: opts.profile,
    prepare: opts.prepare ?? { ...DEFAULT_PREPARE },
    ...(opts.fixtures ? { fixtures: opts.fixtures } : {}),
    ...(opts.layouts === undefined ? {} : { layouts: opts.layouts }),
    ...(opts.dpi ? { dpi: opts.dpi } : {}),
    ...(opts.psm === undefined ? {} : { pageSegmentation: opts.psm }),
    ...(opts.workers ? { workers: opts.workers } : {}),
    log: (line) => console.error(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`),
  });
  if (opts.json) {
    console.log(JSON.stringify(result));
    return;
  }
  const steps = result.prepare;
  const prepare =
    steps === false
      ? "none"
      : STEPS.filter((step) => steps[step])
          .map((step) => (steps[step] === "auto" ? `${step} (auto)` : step))
          .join("+");
  console.log(
    `| ${result.profile} | ${prepare} | ${result.dpi} | ${result.loan_files} | ${result.pages_read} (${result.pages_skimmed}) | ${result.right}/${result.verdicts} (${((100 * result.right) / result.verdicts).toFixed(1)} %) | ${result.false_fulfilled} | ${result.wrong_not_fulfilled} | ${result.insufficient} | ${result.mean_confidence} | ${result.pages_below_bar} | ${result.seconds_per_page} | ${result.cpu_seconds_per_page} | ${result.load_average.join(" → ")} |`,
  );
  for (const miss of result.misses) console.error(`  miss: ${miss}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv).then(
    // tesseract's workers are released on an idle timer; the work is done.
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
