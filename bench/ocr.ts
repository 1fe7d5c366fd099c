// Scanned documents (OCR): the held-out layout sets printed and scanned (image only: skewed,
// blurred, noisy, JPEG), read by the offline OCR engine (MuPDF + tesseract.js) and judged exactly as
// the layout section judges their text originals, so the two scores differ only by the reading. A
// false "fulfilled" is the error that matters: a scan read badly must become insufficient_evidence,
// never a wrong decision. Also the scanned sample documents against their text originals, and what
// the OCR costs on this machine.
//
// `npx tsx bench/ocr.ts [--out results.json] [--cases-per-set n] [--max-pages n] [--no-samples]` takes only this
// measure and prints its report section (BENCHMARKS.md and bench/results.json are left alone).
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { Command, InvalidArgumentError } from "commander";
import { PDFDocument } from "pdf-lib";
import type { LabelledCase } from "../examples/layouts/cases.ts";
import { holdoutCases } from "../examples/layouts/holdout.ts";
import { holdoutCases2 } from "../examples/layouts/holdout-2.ts";
import { generateSampleDocuments, type SampleDocument } from "../examples/samples.ts";
import {
  DEFAULT_SCAN,
  DEFAULT_SCAN_CACHE_DIRECTORY,
  generateScannedSampleDocuments,
  ILLEGIBLE_SCAN,
  SCANNED_SAMPLE_PREFIX,
  scanCacheKey,
  scanDocumentCached,
} from "../examples/scanned.ts";
import {
  DEFAULT_OCR_MIN_CONFIDENCE,
  evaluateConditions,
  type Verdict,
} from "../lambdas/agents/loan/conditions-engine.ts";
import { type ExtractedDocument, extractPdfText } from "../lambdas/agents/loan/pdf-text.ts";
import { predictConditions } from "../lambdas/agents/loan/preconditions.ts";
import type { OcrEngine } from "../lambdas/tools/ocr/engine.ts";
import { createTesseractEngine } from "../lambdas/tools/ocr/tesseract.ts";
import { formatJson } from "./json.ts";
import { type CaseScore, scoreCase } from "./layouts.ts";
import { ocrSection } from "./report.ts";
import type {
  OcrCost,
  OcrResults,
  OcrSampleResults,
  OcrSetScore,
  SampleComparison,
  ScanCost,
} from "./results.ts";

export interface OcrBenchOptions {
  /** Loan files taken from each held-out set (default: all). */
  casesPerSet?: number;
  /** Only loan files of at most this many pages (default: all); the smoke test takes one page. */
  maxPages?: number;
  /** Compare the scanned sample documents with their originals too (default: true). */
  samples?: boolean;
  /** tesseract workers (default: the engine's own default, os.availableParallelism()). */
  workers?: number;
  log?: (line: string) => void;
}

const HELD_OUT_SETS: Array<[string, () => Promise<LabelledCase[]>]> = [
  ["held-out 1 (examples/layouts/holdout.ts)", holdoutCases],
  ["held-out 2 (examples/layouts/holdout-2.ts)", holdoutCases2],
];

// The loan tests' request metadata for the sample documents, with their as-of date.
const SAMPLE_AS_OF = new Date("2025-04-15T12:00:00Z");
const BORROWER = { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 };
const TAX_METADATA = {
  loan_program: "Flex Supreme",
  classification: "1120 Corporate Tax Return",
  as_of_date: "2025-04-15",
  borrower_info: BORROWER,
  extracted_entities: { ein: "12-3456789", tax_year: 2024 },
};
const BANK_METADATA = {
  loan_program: "Flex Supreme",
  classification: "Bank Statements",
  as_of_date: "2025-04-15",
  borrower_info: BORROWER,
};
const SAMPLE_CASES: Array<[string, Record<string, unknown>, string[]]> = [
  ["signed return", TAX_METADATA, ["1120-signed.pdf"]],
  ["unsigned return", TAX_METADATA, ["1120-unsigned.pdf"]],
  ["January + February statements", BANK_METADATA, ["statement-2025-01.pdf", "statement-2025-02.pdf"]],
  ["February + NSF March", BANK_METADATA, ["statement-2025-02.pdf", "statement-2025-03-nsf.pdf"]],
  [
    "February + large-deposit March",
    BANK_METADATA,
    ["statement-2025-02.pdf", "statement-2025-03-large-deposit.pdf"],
  ],
  [
    "January + other-name February",
    BANK_METADATA,
    ["statement-2025-01.pdf", "statement-2025-02-other-name.pdf"],
  ],
];

export async function measureOcr(options: OcrBenchOptions = {}): Promise<OcrResults> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const loadAtStart = loadavg()[0] ?? Number.NaN;
  const workers = Math.max(1, options.workers ?? availableParallelism());
  // One engine for the whole measure, as one worker process keeps one: its tesseract workers start
  // once (about a second each, counted in the first document's OCR time) and are shared.
  const engine = createTesseractEngine({ workers });

  const sets: Array<{ name: string; cases: LabelledCase[] }> = [];
  for (const [name, load] of HELD_OUT_SETS) {
    const cases: LabelledCase[] = [];
    for (const labelled of await load()) {
      if (options.maxPages !== undefined && (await pageCount(labelled)) > options.maxPages) continue;
      cases.push(labelled);
    }
    sets.push({ name, cases: cases.slice(0, options.casesPerSet ?? cases.length) });
  }
  const documents = sets.flatMap((set) => set.cases.flatMap((labelled) => labelled.documents));

  log(`scanning ${documents.length} held-out documents (${describeScan()})…`);
  const { scans, cost: scanCost } = await scanAll(documents);

  const scores: OcrSetScore[] = [];
  const read: ExtractedDocument[] = [];
  for (const set of sets) {
    log(`OCR and judging ${set.name}: ${set.cases.length} loan files…`);
    const score = emptySetScore(set.name);
    for (const labelled of set.cases) {
      const text = await Promise.all(labelled.documents.map((item) => extractPdfText(item.bytes, item.key)));
      // One document after another: the engine already reads a document's pages in parallel, so the
      // OCR time of each document is its own.
      const scanned: ExtractedDocument[] = [];
      for (const item of labelled.documents) {
        const bytes = scans.get(item) as Uint8Array;
        // The scan keeps the original's name: only the bytes differ between the two judgements.
        scanned.push(await extractPdfText(bytes, item.key, { ocr: engine }));
      }
      read.push(...scanned);
      score.cases += 1;
      score.documents += labelled.documents.length;
      score.pages += text.reduce((n, document) => n + document.page_count, 0);
      add(score, "text", scoreCase(labelled, text), labelled.layout);
      add(score, "scanned", scoreCase(labelled, scanned), labelled.layout);
    }
    scores.push(score);
  }

  const samples = options.samples === false ? null : await measureSamples(engine, log);
  const total = emptySetScore("total");
  for (const score of scores) {
    for (const key of NUMERIC_KEYS) total[key] += score[key];
  }
  const {
    set: _set,
    misses_scanned: _scanned,
    miss_reasons_scanned: _reasons,
    misses_text: _text,
    ...totals
  } = total;
  return {
    scan: DEFAULT_SCAN,
    engine: "tesseract",
    workers,
    cores: cpus().length,
    load_average: [round(loadAtStart), round(loadavg()[0] ?? Number.NaN)],
    min_confidence: DEFAULT_OCR_MIN_CONFIDENCE,
    sets: scores,
    total: totals,
    cost: ocrCost(read),
    scan_cost: scanCost,
    samples,
    elapsed_ms: Math.round(performance.now() - started),
  };
}

async function pageCount(labelled: LabelledCase): Promise<number> {
  let pages = 0;
  for (const document of labelled.documents) {
    pages += (await PDFDocument.load(document.bytes, { updateMetadata: false })).getPageCount();
  }
  return pages;
}

const NUMERIC_KEYS = [
  "cases",
  "documents",
  "pages",
  "verdicts",
  "right_text",
  "right_scanned",
  "false_fulfilled_text",
  "false_fulfilled_scanned",
  "unverified_fulfilled_scanned",
  "insufficient_text",
  "insufficient_scanned",
] as const;

function emptySetScore(set: string): OcrSetScore {
  return {
    set,
    ...(Object.fromEntries(NUMERIC_KEYS.map((key) => [key, 0])) as Record<(typeof NUMERIC_KEYS)[number], 0>),
    misses_scanned: [],
    miss_reasons_scanned: [],
    misses_text: [],
  };
}

function add(
  score: OcrSetScore,
  reading: "text" | "scanned",
  judged: CaseScore & { judged: Verdict[] },
  layout: string,
): void {
  if (reading === "text") {
    score.verdicts += judged.verdicts;
    score.right_text += judged.right;
    score.false_fulfilled_text += judged.false_fulfilled;
    score.insufficient_text += judged.insufficient;
    score.misses_text.push(...judged.misses.map((miss) => `${layout}: ${miss}`));
  } else {
    score.right_scanned += judged.right;
    score.false_fulfilled_scanned += judged.false_fulfilled;
    score.unverified_fulfilled_scanned += judged.unverified_fulfilled;
    score.insufficient_scanned += judged.insufficient;
    score.misses_scanned.push(...judged.misses.map((miss) => `${layout}: ${miss}`));
    for (const miss of judged.misses) {
      const id = miss.slice(0, miss.indexOf(":"));
      const verdict = judged.judged.find((item) => item.condition_id === id);
      score.miss_reasons_scanned.push(`${id}: ${verdict?.reason ?? "no verdict"}`);
    }
  }
}

function describeScan(): string {
  const s = DEFAULT_SCAN;
  return `${s.dpi} dpi ${s.color}, ${s.rotationDegrees}° skew, ${s.blurPx} px blur, ±${s.noise} noise, JPEG ${s.jpegQuality}`;
}

/**
 * Every document through the scan cache (DEFAULT_SCAN), one after another. Whether an entry was
 * already cached is looked up first, so the time of the documents generated now (cold) is told
 * apart from the time of reading one back (warm); a second pass reads every entry back.
 */
async function scanAll(
  documents: SampleDocument[],
): Promise<{ scans: Map<SampleDocument, Uint8Array>; cost: ScanCost }> {
  const scans = new Map<SampleDocument, Uint8Array>();
  const cost: ScanCost = {
    generated_documents: 0,
    generated_pages: 0,
    generated_ms: 0,
    cached_documents: 0,
    cached_pages: 0,
    cached_ms: 0,
  };
  const pages = async (bytes: Uint8Array) => (await extractPdfText(bytes, "count")).page_count;
  for (const document of documents) {
    const cached = existsSync(
      join(DEFAULT_SCAN_CACHE_DIRECTORY, `${scanCacheKey(document.bytes, DEFAULT_SCAN)}.pdf`),
    );
    const begun = performance.now();
    const bytes = await scanDocumentCached(document.bytes, DEFAULT_SCAN);
    const ms = performance.now() - begun;
    scans.set(document, bytes);
    if (!cached) {
      cost.generated_documents += 1;
      cost.generated_pages += await pages(bytes);
      cost.generated_ms += ms;
    }
  }
  for (const document of documents) {
    const begun = performance.now();
    const bytes = await scanDocumentCached(document.bytes, DEFAULT_SCAN);
    cost.cached_ms += performance.now() - begun;
    cost.cached_documents += 1;
    cost.cached_pages += await pages(bytes);
  }
  cost.generated_ms = Math.round(cost.generated_ms);
  cost.cached_ms = Math.round(cost.cached_ms);
  return { scans, cost };
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

function ocrCost(documents: ExtractedDocument[]): OcrCost {
  const read = documents.filter((document) => document.ocr && !document.ocr.error);
  const perPage = read
    .map((document) => (document.ocr?.seconds ?? 0) / (document.ocr?.pages.length || 1))
    .sort((a, b) => a - b);
  const confidences = read.flatMap((document) =>
    (document.page_sources ?? []).flatMap((source) => (source.source === "ocr" ? [source.confidence] : [])),
  );
  const pages = read.reduce((n, document) => n + (document.ocr?.pages.length ?? 0), 0);
  const seconds = read.reduce((n, document) => n + (document.ocr?.seconds ?? 0), 0);
  return {
    documents: read.length,
    pages,
    seconds: round(seconds),
    seconds_per_page: pages ? round(seconds / pages) : Number.NaN,
    seconds_per_page_min: round(perPage[0] ?? Number.NaN),
    seconds_per_page_median: round(perPage[Math.floor((perPage.length - 1) / 2)] ?? Number.NaN),
    seconds_per_page_max: round(perPage.at(-1) ?? Number.NaN),
    mean_confidence: confidences.length
      ? round(confidences.reduce((a, b) => a + b, 0) / confidences.length, 1)
      : Number.NaN,
    min_page_confidence: confidences.length ? Math.min(...confidences) : Number.NaN,
    pages_below_minimum: confidences.filter((c) => c < DEFAULT_OCR_MIN_CONFIDENCE).length,
  };
}

async function measureSamples(engine: OcrEngine, log: (line: string) => void): Promise<OcrSampleResults> {
  const sources = await generateSampleDocuments();
  let generated = false;
  const scanStarted = performance.now();
  const scannedSamples = await generateScannedSampleDocuments({
    sources,
    onGenerate: () => {
      generated = true;
    },
  });
  const scanMs = Math.round(performance.now() - scanStarted);
  log(`OCR of the ${scannedSamples.length} scanned sample documents…`);
  const text = new Map<string, ExtractedDocument>();
  for (const source of sources) {
    text.set(source.key.replace(/^rm-conditions\//, ""), await extractPdfText(source.bytes, source.key));
  }
  const scanned = new Map<string, ExtractedDocument>();
  for (const scan of scannedSamples) {
    scanned.set(
      scan.key.slice(SCANNED_SAMPLE_PREFIX.length),
      await extractPdfText(scan.bytes, scan.key, { ocr: engine }),
    );
  }
  const pick = (from: Map<string, ExtractedDocument>, names: string[]) =>
    names.map((name) => {
      const document = from.get(name);
      if (!document) throw new Error(`no sample ${name}`);
      return document;
    });
  const compare = (
    name: string,
    metadata: Record<string, unknown>,
    originals: string[],
    copies: string[],
  ): SampleComparison => {
    const expected = judgeSample(metadata, pick(text, originals));
    const got = new Map(judgeSample(metadata, pick(scanned, copies)).map((v) => [v.condition_id, v.status]));
    const differences = expected.flatMap((verdict) =>
      got.get(verdict.condition_id) === verdict.status
        ? []
        : [`${verdict.condition_id}: ${verdict.status} → ${got.get(verdict.condition_id) ?? "missing"}`],
    );
    return {
      name,
      documents: copies,
      verdicts: expected.length,
      identical: expected.length - differences.length,
      differences,
    };
  };
  const cases = SAMPLE_CASES.map(([name, metadata, names]) => compare(name, metadata, names, names));
  const mixedName = "1120-signed-mixed.pdf";
  const mixed = {
    ...compare(
      "signed return, page 1 scanned, pages 2-3 text",
      TAX_METADATA,
      ["1120-signed.pdf"],
      [mixedName],
    ),
    page_sources: (pick(scanned, [mixedName])[0]?.page_sources ?? []).map((source) => source.source),
  };
  const [illegibleDocument] = pick(scanned, ["1120-signed-illegible.pdf"]);
  const illegibleVerdicts = judgeSample(TAX_METADATA, illegibleDocument ? [illegibleDocument] : []);
  return {
    cases,
    verdicts: cases.reduce((n, c) => n + c.verdicts, 0),
    identical: cases.reduce((n, c) => n + c.identical, 0),
    mixed,
    illegible: {
      dpi: ILLEGIBLE_SCAN.dpi ?? Number.NaN,
      verdicts: illegibleVerdicts.length,
      insufficient: illegibleVerdicts.filter((v) => v.status === "insufficient_evidence").length,
      statuses: Object.fromEntries(illegibleVerdicts.map((v) => [v.condition_id, v.status])),
      confidence: illegibleDocument?.ocr?.confidence ?? Number.NaN,
    },
    cost: ocrCost([...scanned.values()]),
    scan: { generated, ms: scanMs },
  };
}

function judgeSample(metadata: Record<string, unknown>, documents: ExtractedDocument[]): Verdict[] {
  const { conditions } = predictConditions(metadata, { asOf: SAMPLE_AS_OF });
  return evaluateConditions(conditions, documents, { asOf: SAMPLE_AS_OF }).verdicts;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("bench/ocr")
    .description("only the benchmark's scanned-documents (OCR) section; prints it as Markdown")
    .option("--out <file>", "also write the results as JSON to this file")
    .option("--cases-per-set <n>", "loan files per held-out set (default: all)", positiveInt)
    .option("--max-pages <n>", "only loan files of at most n pages (default: all)", positiveInt)
    .option("--no-samples", "skip the scanned sample documents")
    .parse(argv);
  const opts = program.opts<{ out?: string; casesPerSet?: number; maxPages?: number; samples: boolean }>();
  const started = Date.now();
  const results = await measureOcr({
    ...(opts.casesPerSet ? { casesPerSet: opts.casesPerSet } : {}),
    ...(opts.maxPages ? { maxPages: opts.maxPages } : {}),
    samples: opts.samples,
    log: (line) => console.error(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`),
  });
  if (opts.out) await writeFile(resolve(opts.out), formatJson(results));
  console.log(ocrSection(results).join("\n"));
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
