// Verdicts on documents nobody who writes the engines designed: the hand-labelled loan files of
// test/fixtures/held-out-documents/ (official IRS Form 1120 and 1120-S PDFs filled through their own
// fields and flattened, US, UK and Australian bank statements), judged as the agent judges them
// (PreConditions, then Conditions AI over the extracted text) and scored against their labels. The
// corpus is measured, never tuned on: only its numbers say how the rules fare on what users bring.
// Run: npx tsx bench/held-out-documents.ts [--ocr] [--misses] [--section] (--section prints the
// report's section; `npm run bench` writes it into BENCHMARKS.md with the rest). With --ocr the pages
// that have no text layer (the image-only statements) are read by the offline OCR engine, as the
// agent reads them.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { LabelledCase } from "../examples/layouts/cases.ts";
import { extractPdfText } from "../lambdas/agents/loan/pdf-text.ts";
import type { OcrEngine } from "../lambdas/tools/ocr/engine.ts";
import { createTesseractEngine } from "../lambdas/tools/ocr/tesseract.ts";
import { scoreCase } from "./layouts.ts";
import { heldOutSection } from "./report-sections.ts";

const CORPUS = fileURLToPath(new URL("../test/fixtures/held-out-documents/", import.meta.url));

interface ManifestLine {
  file: string;
  request: { metadata: Record<string, unknown>; s3_pdf_paths: string[] };
  expected: LabelledCase["labels"];
  notes: string;
  documents: Record<string, string>;
  /** Where the documents come from ("irs-official-form", "us-bank-statement", …); see the corpus README. */
  source?: string;
  /** Which author's batch (held-out-1, -2, -3): each was built by someone who never read the engine. */
  batch?: string;
}

interface Tally {
  verdicts: number;
  right: number;
  false_fulfilled: number;
  wrong_not_fulfilled: number;
  insufficient: number;
}

export interface HeldOutScore {
  files: number;
  verdicts: number;
  right: number;
  false_fulfilled: number;
  /** not_fulfilled where the label is fulfilled or insufficient_evidence (a wrong decided "no"). */
  wrong_not_fulfilled: number;
  insufficient: number;
  by_condition: Record<string, { verdicts: number; right: number }>;
  by_source: Record<string, Tally>;
  by_batch: Record<string, Tally>;
  misses: string[];
  elapsed_ms: number;
  /** Pages read by OCR (0 when no engine was given: image-only pages are then not read). */
  pages_ocr: number;
  /** The same corpus with the offline OCR engine reading the pages without a text layer, when measured. */
  with_ocr?: Omit<HeldOutScore, "with_ocr" | "by_condition" | "by_source" | "by_batch" | "misses"> & {
    image_only: { verdicts: number; right: number };
  };
}

function tally(into: Record<string, Tally>, key: string): Tally {
  into[key] ??= { verdicts: 0, right: 0, false_fulfilled: 0, wrong_not_fulfilled: 0, insufficient: 0 };
  return into[key];
}

export async function measureHeldOutDocuments(options: { ocr?: OcrEngine } = {}): Promise<HeldOutScore> {
  const lines = (await readFile(`${CORPUS}manifest.jsonl`, "utf8"))
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as ManifestLine);
  const score: HeldOutScore = {
    files: lines.length,
    verdicts: 0,
    right: 0,
    false_fulfilled: 0,
    wrong_not_fulfilled: 0,
    insufficient: 0,
    by_condition: {},
    by_source: {},
    by_batch: {},
    misses: [],
    elapsed_ms: 0,
    pages_ocr: 0,
  };
  const started = performance.now();
  for (const line of lines) {
    const documents = await Promise.all(
      line.request.s3_pdf_paths.map(async (key) => ({
        key,
        bytes: new Uint8Array(await readFile(`${CORPUS}${line.documents[key]}`)),
      })),
    );
    const labelled: LabelledCase = {
      layout: line.file,
      description: line.file,
      documents: documents as LabelledCase["documents"],
      metadata: line.request.metadata,
      labels: line.expected,
    };
    const extracted = await Promise.all(
      documents.map((item) => extractPdfText(item.bytes, item.key, options.ocr ? { ocr: options.ocr } : {})),
    );
    score.pages_ocr += extracted.reduce((sum, document) => sum + (document.ocr?.pages.length ?? 0), 0);
    const judged = scoreCase(labelled, extracted);
    score.verdicts += judged.verdicts;
    score.right += judged.right;
    score.false_fulfilled += judged.false_fulfilled;
    score.insufficient += judged.insufficient;
    const tallies = [
      tally(score.by_source, line.source ?? "unlabelled source"),
      tally(score.by_batch, line.batch ?? "unlabelled batch"),
    ];
    for (const [condition, label] of Object.entries(line.expected)) {
      const verdict = judged.judged.find((candidate) => candidate.condition_id === condition);
      const got = verdict?.status;
      const entry = score.by_condition[condition] ?? { verdicts: 0, right: 0 };
      score.by_condition[condition] = entry;
      entry.verdicts += 1;
      if (got === label) entry.right += 1;
      else
        score.misses.push(
          `${condition}: ${label} → ${got ?? "no verdict"} (${line.file}): ${verdict?.reason ?? ""}`,
        );
      if (got === "not_fulfilled" && label !== "not_fulfilled") score.wrong_not_fulfilled += 1;
      for (const each of tallies) {
        each.verdicts += 1;
        if (got === label) each.right += 1;
        if (got === "fulfilled" && label !== "fulfilled") each.false_fulfilled += 1;
        if (got === "not_fulfilled" && label !== "not_fulfilled") each.wrong_not_fulfilled += 1;
        if (got === "insufficient_evidence") each.insufficient += 1;
      }
    }
  }
  score.elapsed_ms = Math.round(performance.now() - started);
  return score;
}

/** The corpus judged twice: as text only, then with the offline OCR engine reading image-only pages. */
export async function measureHeldOutWithOcr(): Promise<HeldOutScore> {
  const score = await measureHeldOutDocuments();
  const ocr = createTesseractEngine();
  const read = await measureHeldOutDocuments({ ocr });
  const imageOnly = read.by_source["image-only-statement"] ?? { verdicts: 0, right: 0 };
  return {
    ...score,
    with_ocr: {
      files: read.files,
      verdicts: read.verdicts,
      right: read.right,
      false_fulfilled: read.false_fulfilled,
      wrong_not_fulfilled: read.wrong_not_fulfilled,
      insufficient: read.insufficient,
      elapsed_ms: read.elapsed_ms,
      pages_ocr: read.pages_ocr,
      image_only: { verdicts: imageOnly.verdicts, right: imageOnly.right },
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const score = process.argv.includes("--ocr")
    ? await measureHeldOutWithOcr()
    : await measureHeldOutDocuments();
  const pct = (right: number, total: number) => `${right}/${total} (${((100 * right) / total).toFixed(1)} %)`;
  console.log(
    `held-out documents: ${score.files} loan files, ${pct(score.right, score.verdicts)} labelled verdicts right`,
  );
  console.log(
    `false fulfilled: ${score.false_fulfilled}, wrong not_fulfilled: ${score.wrong_not_fulfilled}, insufficient_evidence given: ${score.insufficient}`,
  );
  for (const [condition, entry] of Object.entries(score.by_condition).sort()) {
    console.log(`  ${condition.padEnd(20)} ${pct(entry.right, entry.verdicts)}`);
  }
  for (const [name, entry] of [
    ...Object.entries(score.by_batch),
    ...Object.entries(score.by_source),
  ].sort()) {
    console.log(
      `  ${name.padEnd(28)} ${pct(entry.right, entry.verdicts)}, false fulfilled ${entry.false_fulfilled}, wrong not_fulfilled ${entry.wrong_not_fulfilled}, insufficient ${entry.insufficient}`,
    );
  }
  const o = score.with_ocr;
  if (o) {
    console.log(
      `with the offline OCR engine (${o.pages_ocr} image-only pages read): ${pct(o.right, o.verdicts)} right, false fulfilled ${o.false_fulfilled}, wrong not_fulfilled ${o.wrong_not_fulfilled}; image-only statements ${pct(o.image_only.right, o.image_only.verdicts)}`,
    );
  }
  if (process.argv.includes("--section")) console.log(`\n${heldOutSection(score).join("\n")}`);
  if (process.argv.includes("--misses")) for (const miss of score.misses) console.log(`  miss: ${miss}`);
  // The OCR workers would otherwise stay up until their idle timeout.
  process.exit(0);
}
