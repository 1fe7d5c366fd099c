// `rewoo batch` as a user runs it: a separate process over a folder of 200 generated loan files
// through the local twin it boots (tool latency unset), then, in this process, the same data folder's
// twin serving a JSON Lines manifest sent by `rewoo batch --local` from another process (uploads
// through the serving twin's S3, blank, comment and broken lines numbered as in the file by the CLI,
// `rewoo batches show`, the API's results and the runs' ids alike).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishTwinApi } from "../../cli/twin-address.ts";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const FILES = 200;
const TERMINAL = ["SUCCEEDED", "FAILED", "CANCELLED", "INTERRUPTED", "NEEDS_REVIEW", "REJECTED", "INVALID"];

async function rewoo(args: string[], env: Record<string, string>) {
  // The acceptance run is with tool latency unset, whatever the shell running the tests has set.
  const { REWOO_TOOL_LATENCY_MS: _unset, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await run("node", ["bin/rewoo.mjs", ...args], {
      cwd: root,
      env: { ...inherited, NO_COLOR: "1", ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

interface Outcome {
  line: number;
  file?: string;
  status: string;
  run_id?: string;
  error?: { code: string; message: string; fields?: Array<{ field: string; message: string }> };
  not_sent?: boolean;
}

interface Summary {
  batch_id: string;
  name?: string;
  status: string;
  total: number;
  counts: Record<string, number>;
  results: Outcome[];
}

const sample = (name: string) =>
  JSON.parse(readFileSync(join(root, `examples/${name}.json`), "utf8")) as {
    metadata: Record<string, unknown> & { borrower_info: Record<string, unknown> };
    s3_pdf_paths: string[];
  };
const SAMPLES = [
  "sample-tax-return",
  "sample-unsigned-return",
  "sample-bank-statements",
  "sample-large-deposit",
];
const FIRST_NAMES = [
  "Jane Q. Doe",
  "Ana Lopez",
  "Sam Okafor",
  "Mei Chen",
  "Luca Rossi",
  "Priya Nair",
  "Tom Baker",
];

const fileName = (n: number) => `loan-${String(n).padStart(3, "0")}.json`;
const loanId = (n: number) => `LN-2026-${String(n).padStart(4, "0")}`;
/** The loan files that are not valid requests, each for a different reason. */
const NOT_JSON = 50;
const NO_METADATA = 120;
const MISSING_PDF = 180;
/** Loan files that name a PDF on disk (uploaded once, whoever names it). */
const FROM_DISK = [7, 77, 177];

const dataDir = mkdtempSync(join(tmpdir(), "rewoo-batch-data-"));
const folder = mkdtempSync(join(tmpdir(), "rewoo-batch-files-"));
const outFile = join(folder, "..", `${folder.split("/").pop()}-results.jsonl`);
let result: { code: number; stdout: string; stderr: string };
let summary: Summary;

beforeAll(async () => {
  const documents = await generateSampleDocuments();
  const signed = documents.find((document) => document.key.endsWith("1120-signed.pdf"));
  mkdirSync(join(folder, "scans"));
  writeFileSync(join(folder, "scans", "acme 1120.pdf"), signed?.bytes ?? new Uint8Array());
  writeFileSync(join(folder, "README.txt"), "not a request: only *.json files are batch lines");
  for (let n = 1; n <= FILES; n++) {
    const request = sample(SAMPLES[n % SAMPLES.length] as string);
    // Each file its own loan and borrower, as a portfolio's files are.
    request.metadata.loan_id = loanId(n);
    request.metadata.borrower_info.name = FIRST_NAMES[n % FIRST_NAMES.length];
    if (FROM_DISK.includes(n)) {
      Object.assign(request, sample("sample-tax-return"), { s3_pdf_paths: ["./scans/acme 1120.pdf"] });
      request.metadata.loan_id = loanId(n);
    }
    let text = JSON.stringify(request, null, 2);
    if (n === NOT_JSON) text = text.slice(0, 80);
    if (n === NO_METADATA) text = JSON.stringify({ ...request, metadata: undefined });
    if (n === MISSING_PDF) text = JSON.stringify({ ...request, s3_pdf_paths: ["./scans/missing.pdf"] });
    writeFileSync(join(folder, fileName(n)), text);
  }
  result = await rewoo(
    [
      "batch",
      folder,
      "--local",
      "--json",
      "--out",
      outFile,
      "--name",
      "Q1 portfolio",
      "--max-concurrency",
      "10",
    ],
    { REWOO_DATA_DIR: dataDir },
  );
  summary = JSON.parse(result.stdout) as Summary;
}, 900_000);

describe("rewoo batch <folder of 200 loan files> --local", () => {
  it("finishes with every file's result, in name order, and the counts by status", () => {
    expect(summary.status).toBe("SUCCEEDED");
    expect(summary.name).toBe("Q1 portfolio");
    expect(summary.total).toBe(FILES);
    expect(summary.results.map((outcome) => [outcome.line, outcome.file])).toEqual(
      Array.from({ length: FILES }, (_, i) => [i + 1, fileName(i + 1)]),
    );
    const tally: Record<string, number> = {};
    for (const outcome of summary.results) tally[outcome.status] = (tally[outcome.status] ?? 0) + 1;
    expect(summary.counts).toEqual(tally);
    expect(Object.keys(summary.counts).every((status) => TERMINAL.includes(status))).toBe(true);
    expect(summary.counts.INVALID).toBe(3);
  });

  it("reports each invalid file as its line's error, whoever found it, and runs the rest", () => {
    const line = (n: number) => summary.results[n - 1] as Outcome;
    // Not JSON: the CLI cannot send it (the batch goes inline, as JSON), so it reports it itself.
    expect(line(NOT_JSON)).toMatchObject({
      status: "INVALID",
      not_sent: true,
      error: { code: "invalid_json" },
    });
    expect(line(NOT_JSON).error?.fields?.[0]?.field).toBe("(file)");
    expect(line(NOT_JSON).error?.message).toMatch(/^loan-050\.json is not JSON: /);
    // Not a valid request: the API's line result, naming the field.
    expect(line(NO_METADATA)).toMatchObject({ status: "INVALID", error: { code: "invalid_request" } });
    expect(line(NO_METADATA).not_sent).toBeUndefined();
    expect(line(NO_METADATA).error?.fields?.map((problem) => problem.field)).toEqual(["metadata"]);
    // A PDF on disk that is not there: found while uploading, as `rewoo evaluate --local` finds it.
    expect(line(MISSING_PDF)).toMatchObject({
      status: "INVALID",
      not_sent: true,
      error: { code: "invalid_request" },
    });
    expect(line(MISSING_PDF).error?.fields?.[0]?.field).toBe("s3_pdf_paths[0]");
    expect(line(MISSING_PDF).error?.fields?.[0]?.message).toMatch(/missing\.pdf does not exist/);
    for (const outcome of summary.results) {
      if ([NOT_JSON, NO_METADATA, MISSING_PDF].includes(outcome.line)) {
        expect(outcome.run_id).toBeUndefined();
        continue;
      }
      expect(outcome.run_id, outcome.file).toMatch(/^run-/);
      expect(["SUCCEEDED", "NEEDS_REVIEW"], outcome.file).toContain(outcome.status);
    }
    // Some lines did not succeed (the invalid ones): the documented exit code for that.
    expect(result.code).toBe(5);
  });

  it("writes the same results to --out as JSON Lines", () => {
    const written = readFileSync(outFile, "utf8").trimEnd().split("\n");
    expect(written).toHaveLength(FILES);
    expect(written.map((text) => JSON.parse(text))).toEqual(summary.results);
  });
});

describe("the batch's runs, read back from the same data folder", () => {
  let twin: Twin;

  beforeAll(async () => {
    twin = await startTwin({ dataDir, port: 0 });
  }, 120_000);

  afterAll(async () => {
    await twin?.stop();
  });

  it("are each file's own run: its loan id, and the PDF from disk uploaded once under uploads/", async () => {
    const keys = new Set<string>();
    for (const outcome of summary.results.filter((candidate) => candidate.run_id)) {
      const meta = await twin.services.runs.getMeta(outcome.run_id as string);
      expect(meta.status, outcome.file).toBe(outcome.status);
      expect(meta.request.metadata.loan_id, outcome.file).toBe(loanId(outcome.line));
      if (FROM_DISK.includes(outcome.line)) {
        const [path] = meta.request.s3_pdf_paths;
        expect(path).toMatch(/^uploads\/[0-9a-f]{16}\/acme 1120\.pdf$/);
        keys.add(path as string);
      }
    }
    expect(keys.size).toBe(1);
  });

  it("a manifest through the twin serving the folder: numbered as in the file by the CLI, the API and the runs' ids alike, each line with its documents and verdicts", async () => {
    const unpublish = await publishTwinApi(dataDir, twin.urls.api, "serving", {
      s3_endpoint: twin.emulators.s3Endpoint,
      bucket: twin.services.config.documentsBucket,
    });
    try {
      const manifest = join(folder, "follow-ups.jsonl");
      const outFile = join(folder, "..", `${folder.split("/").pop()}-follow-ups.jsonl`);
      const request = sample("sample-unsigned-return");
      writeFileSync(
        manifest,
        [
          JSON.stringify({ ...request, metadata: { ...request.metadata, loan_id: "LN-FU-1" } }), // 1
          "", // 2: blank, still counted
          "# follow-ups after the guideline change", // 3: a comment is not JSON: not sent
          '{"metadata": {"loan_program": "Flex Supreme"', // 4: not JSON
          JSON.stringify({ ...request, s3_pdf_paths: ["./scans/acme 1120.pdf"] }), // 5: a PDF on disk
          JSON.stringify({ ...request, session_id: "s-1" }), // 6: refused by the API
        ].join("\n"),
      );
      const sent = await rewoo(["batch", manifest, "--local", "--max-concurrency", "2", "--out", outFile], {
        REWOO_DATA_DIR: dataDir,
      });
      expect(sent.code, sent.stderr).toBe(5);
      expect(sent.stdout).toContain(`through the twin serving ${dataDir}`);
      expect(sent.stdout).toMatch(/uploaded .*acme 1120\.pdf to s3:\/\/rewoo-documents\/uploads\//);
      // Plain lines (not a terminal): the batch, its progress, then the summary and one row per line.
      expect(sent.stdout).toMatch(/^BATCH {3}batch-\S+ \(.*follow-ups\.jsonl\): 3 lines sent, 2 not sent/m);
      expect(sent.stdout).toMatch(/^BATCH {3}3\/3 lines processed \(100%\)/m);
      expect(sent.stdout).toMatch(/^5 lines: SUCCEEDED 2 · INVALID 3$/m);
      expect(sent.stdout).toMatch(/^line {2}documents {2,}run_id {2,}status {2,}verdicts F\/N\/I {2}error$/m);
      const rows = sent.stdout.split("\n").filter((line) => /^\d+ {2}/.test(line));
      expect(rows.map((row) => [Number(row.split(" ")[0]), /SUCCEEDED|INVALID/.exec(row)?.[0]])).toEqual([
        [1, "SUCCEEDED"],
        [3, "INVALID"],
        [4, "INVALID"],
        [5, "SUCCEEDED"],
        [6, "INVALID"],
      ]);
      expect(rows[0]).toMatch(/^1 +1120-unsigned\.pdf .* 4\/1\/0$/);
      expect(rows[1]).toMatch(/line 3 is not JSON: /);
      expect(rows[4]).toMatch(/session_id: a batch line may not name a session/);
      const cli = readFileSync(outFile, "utf8")
        .trimEnd()
        .split("\n")
        .map((text) => JSON.parse(text) as Outcome & { documents?: string[]; verdicts?: unknown });

      const batchId = /^BATCH {3}(batch-\S+)/m.exec(sent.stdout)?.[1] as string;
      const shown = await rewoo(["batches", "show", batchId, "--local", "--json"], {
        REWOO_DATA_DIR: dataDir,
      });
      expect(shown.code, shown.stderr).toBe(0);
      const record = JSON.parse(shown.stdout) as Summary & { processed: number };
      // The API's view: the three lines it received, numbered as in the file, as the CLI numbered them.
      expect(record).toMatchObject({ batch_id: batchId, status: "SUCCEEDED", total: 3, processed: 3 });
      expect(record.counts).toEqual({ SUCCEEDED: 2, INVALID: 1 });
      const response = await fetch(`${twin.urls.api}/v1/batches/${batchId}/results`);
      const api = (await response.text())
        .trimEnd()
        .split("\n")
        .map((text) => JSON.parse(text) as Outcome & { documents?: string[]; verdicts?: unknown });
      expect(api.map((line) => [line.line, line.status])).toEqual([
        [1, "SUCCEEDED"],
        [5, "SUCCEEDED"],
        [6, "INVALID"],
      ]);
      expect(record.results).toEqual(api);
      expect(cli.filter((line) => !line.not_sent)).toEqual(api);
      expect(cli.filter((line) => line.not_sent).map((line) => line.line)).toEqual([3, 4]);
      // Each run is named after its line, and each line says which loan it is and how it came out.
      for (const line of api.filter((candidate) => candidate.run_id)) {
        expect(line.run_id).toBe(`run-${batchId.replace(/^batch-/, "")}-${line.line}`);
      }
      expect(api.map((line) => line.documents)).toEqual([
        ["1120-unsigned.pdf"],
        ["acme 1120.pdf"],
        ["1120-unsigned.pdf"],
      ]);
      const unsigned = await twin.services.runs.getRun(api[0]?.run_id as string);
      expect(unsigned?.result?.unfulfilled_conditions.map((condition) => condition.id)).toEqual([
        "TR_SIGNED",
      ]);
      expect(api[0]?.verdicts).toEqual({
        fulfilled: unsigned?.result?.fulfilled_conditions.length,
        not_fulfilled: 1,
        insufficient_evidence: 0,
      });
      expect(api[1]?.verdicts).toMatchObject({ not_fulfilled: expect.any(Number) });
      expect(api[2]?.verdicts).toBeUndefined();
      const fromDisk = await twin.services.runs.getMeta(api[1]?.run_id as string);
      expect(fromDisk.request.s3_pdf_paths[0]).toMatch(/^uploads\/[0-9a-f]{16}\/acme 1120\.pdf$/);
    } finally {
      await unpublish();
    }
  }, 300_000);
});
