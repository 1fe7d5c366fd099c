// `rewoo eval` as a lender runs it, in separate processes, through one twin serving the data folder
// (as `rewoo dev` does): the committed example folder (examples/eval, labels right) and a copy with
// labels deliberately wrong, plus a loan file the API refuses. The wrong labels, and only those, are
// the mismatches, the false "fulfilled" is counted, and the thresholds decide the exit code; a second
// report compared with the first lists what changed; the reviewer's reports name every mismatch.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalSummary } from "../../cli/eval-score.ts";
import { publishTwinApi } from "../../cli/twin-address.ts";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const EXAMPLES = join(root, "examples/eval");

async function rewoo(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run("node", ["bin/rewoo.mjs", ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const dataDir = mkdtempSync(join(tmpdir(), "rewoo-eval-data-"));
const work = mkdtempSync(join(tmpdir(), "rewoo-eval-"));
const wrong = mkdtempSync(join(tmpdir(), "rewoo-eval-wrong-"));
const env = { REWOO_DATA_DIR: dataDir };
let twin: Twin;
let unpublish: () => Promise<void>;

/** The committed example with these labels changed (null: removed), as a copy in `wrong`. */
function relabel(file: string, changes: Record<string, string | null>): void {
  const request = JSON.parse(readFileSync(join(EXAMPLES, file), "utf8"));
  for (const [id, label] of Object.entries(changes)) {
    if (label === null) delete request.expected[id];
    else request.expected[id] = label;
  }
  writeFileSync(join(wrong, file), JSON.stringify(request, null, 2));
}

beforeAll(async () => {
  twin = await startTwin({ dataDir, port: 0 });
  const bucket = twin.services.config.documentsBucket;
  for (const document of await generateSampleDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
  }
  unpublish = await publishTwinApi(dataDir, twin.urls.api, "serving", {
    s3_endpoint: twin.emulators.s3Endpoint,
    bucket,
  });
  // The signed return called unsigned (the run says fulfilled: a false "fulfilled"), and labelled for a
  // bank-statement condition its run does not judge; the unsigned return called signed; the NSF fee
  // called insufficient evidence.
  relabel("loan-1-signed-return.json", { TR_SIGNED: "not_fulfilled", BS_NO_NSF: "fulfilled" });
  relabel("loan-2-unsigned-return.json", { TR_SIGNED: "fulfilled" });
  relabel("loan-3-bank-statements.json", { BS_NO_NSF: "insufficient_evidence" });
  // A loan file the API refuses (no documents): its label is a mismatch, never dropped.
  const refused = JSON.parse(readFileSync(join(EXAMPLES, "loan-2-unsigned-return.json"), "utf8"));
  writeFileSync(join(wrong, "loan-4-no-documents.json"), JSON.stringify({ ...refused, s3_pdf_paths: [] }));
}, 120_000);

afterAll(async () => {
  await unpublish?.();
  await twin?.stop();
});

const key = (entry: { file: string; condition: string }) => `${entry.file} ${entry.condition}`;

describe("rewoo eval", () => {
  let first: EvalSummary;
  let firstJson: string;

  it("reports exactly the wrong labels as mismatches, counts the false fulfilled, and exits 6", async () => {
    const report = join(work, "first.html");
    const result = await rewoo(["eval", wrong, "--local", "--json", "--out", report], env);
    expect(result.code, result.stderr).toBe(6);
    firstJson = join(work, "first.json");
    writeFileSync(firstJson, result.stdout);
    first = JSON.parse(result.stdout) as EvalSummary;
    expect(first.mismatches.map((mismatch) => [key(mismatch), mismatch.expected, mismatch.got])).toEqual([
      ["loan-1-signed-return.json TR_SIGNED", "not_fulfilled", "fulfilled"],
      ["loan-1-signed-return.json BS_NO_NSF", "fulfilled", "missing"],
      ["loan-2-unsigned-return.json TR_SIGNED", "fulfilled", "not_fulfilled"],
      ["loan-3-bank-statements.json BS_NO_NSF", "insufficient_evidence", "not_fulfilled"],
      ["loan-4-no-documents.json TR_SIGNED", "not_fulfilled", "run_failed"],
      ["loan-4-no-documents.json TR_TAX_YEAR", "fulfilled", "run_failed"],
      ["loan-4-no-documents.json TR_EIN_MATCH", "fulfilled", "run_failed"],
    ]);
    // 6 + 3 + 3 + 3 labels; the refused file's labels are counted, and wrong.
    expect(first).toMatchObject({ files: 4, total: 15, right: 8, false_fulfilled: 1, passed: false });
    expect(first.accuracy).toBeCloseTo(8 / 15);
    expect(first.failed_thresholds).toEqual(['1 false "fulfilled" verdict exceeds --max-false-fulfilled 0']);
    expect(first.by_condition.TR_SIGNED).toMatchObject({
      total: 3,
      right: 0,
      false_fulfilled: 1,
      confusion: { not_fulfilled: { fulfilled: 1, run_failed: 1 }, fulfilled: { not_fulfilled: 1 } },
    });
    expect(first.by_document_kind.bank_statement).toMatchObject({ total: 3, right: 2 });
    expect(first.by_document_kind.form_1120).toMatchObject({ total: 12, right: 6 });
    // Each mismatch names its run, with the run's own reason and citations where it judged.
    const signed = first.mismatches[0];
    expect(signed?.run_id).toMatch(/^run-[\w-]+-1$/);
    expect(signed?.citations?.[0]).toMatchObject({
      document: "rm-conditions/1120-signed.pdf",
      page: expect.any(Number),
    });
    const refused = first.mismatches[4];
    expect(refused?.run_status).toBe("INVALID");
    expect(refused?.reason).toMatch(/^the line ended INVALID: s3_pdf_paths: /);
    // The runs are the twin's: what the summary says the run judged is what its record holds.
    const record = await twin.services.runs.getRun(signed?.run_id as string);
    expect(record?.result?.fulfilled_conditions.map((finding) => finding.id)).toContain("TR_SIGNED");
    expect(record?.request).not.toHaveProperty("expected");

    const html = readFileSync(report, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    for (const mismatch of first.mismatches) {
      expect(html).toContain(`<h3>${mismatch.file}: ${mismatch.condition}</h3>`);
      // A refused file has no run: its reason says why.
      expect(html).toContain(
        mismatch.run_id
          ? `<li>Run: <code>${mismatch.run_id}</code> (SUCCEEDED)</li>`
          : "<li>Run: - (INVALID)</li>",
      );
    }
    expect(html).toContain(signed?.citations?.[0]?.excerpt?.replaceAll("&", "&amp;").replaceAll("<", "&lt;"));
  }, 180_000);

  it("with the right labels through the API: no mismatch, exit 0, and what changed since the first report", async () => {
    const report = join(work, "second.md");
    const result = await rewoo(
      [
        "eval",
        EXAMPLES,
        "--api",
        twin.urls.api,
        "--json",
        "--min-accuracy",
        "1",
        "--compare",
        firstJson,
        "--out",
        report,
      ],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const second = JSON.parse(result.stdout) as EvalSummary;
    expect(second).toMatchObject({
      files: 3,
      total: 11,
      right: 11,
      accuracy: 1,
      false_fulfilled: 0,
      passed: true,
    });
    expect(second.mismatches).toEqual([]);
    const compare = second.compare;
    expect(compare?.regressions).toEqual([]);
    // Each first-report mismatch the right labels fix, relabelled (the runs judged alike both times).
    expect(
      compare?.fixes.map((change) => [key(change), change.before, change.after, change.expected_before]),
    ).toEqual([
      ["loan-1-signed-return.json TR_SIGNED", "fulfilled", "fulfilled", "not_fulfilled"],
      ["loan-2-unsigned-return.json TR_SIGNED", "not_fulfilled", "not_fulfilled", "fulfilled"],
      ["loan-3-bank-statements.json BS_NO_NSF", "not_fulfilled", "not_fulfilled", "insufficient_evidence"],
    ]);
    expect(compare?.removed.map(key).sort()).toEqual([
      "loan-1-signed-return.json BS_NO_NSF",
      "loan-4-no-documents.json TR_EIN_MATCH",
      "loan-4-no-documents.json TR_SIGNED",
      "loan-4-no-documents.json TR_TAX_YEAR",
    ]);
    expect(compare?.added).toEqual([]);
    expect(compare?.accuracy.before).toBeCloseTo(8 / 15);
    expect(compare?.by_condition.find((entry) => entry.condition === "TR_SIGNED")).toMatchObject({
      before: { total: 3, right: 0 },
      after: { total: 2, right: 2 },
      delta: 1,
    });
    const markdown = readFileSync(report, "utf8");
    expect(markdown).toContain("## Mismatches (0)");
    expect(markdown).toContain("### Fixes: wrong → right (3)");
    expect(markdown).toContain(`- Runs: behind ${twin.urls.api.replace(/\/+$/, "")}`);
  }, 180_000);

  it("prints a human summary, and exits 0 with wrong labels when the thresholds allow them", async () => {
    const result = await rewoo(
      [
        "eval",
        wrong,
        "--local",
        "--max-false-fulfilled",
        "1",
        "--min-accuracy",
        "0.5",
        "--compare",
        firstJson,
      ],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^Evaluation of .*rewoo-eval-wrong-\S+ \(batch batch-\S+\): 15 labelled verdicts in 4 files$/m,
    );
    expect(result.stdout).toContain('right 8/15 (53.3%) · false "fulfilled" 1 · mismatches 7');
    expect(result.stdout).toContain(
      "  loan-1-signed-return.json  TR_SIGNED: expected not_fulfilled, got fulfilled",
    );
    expect(result.stdout).toMatch(/^PASSED: accuracy 53\.3% ≥ 0\.5, false "fulfilled" 1 ≤ 1$/m);
    // The same files, the same runs' verdicts: nothing changed.
    expect(result.stdout).toContain("regressions (right → wrong): none");
    expect(result.stdout).toContain("fixes (wrong → right): none");
  }, 180_000);

  it("refuses labels that are not labels before anything runs, naming the file and the field", async () => {
    const invalid = mkdtempSync(join(tmpdir(), "rewoo-eval-invalid-"));
    const request = JSON.parse(readFileSync(join(EXAMPLES, "loan-2-unsigned-return.json"), "utf8"));
    writeFileSync(join(invalid, "a.json"), JSON.stringify({ ...request, expected: { TR_SIGNED: "signed" } }));
    writeFileSync(join(invalid, "b.json"), JSON.stringify({ ...request, expected: undefined }));
    const result = await rewoo(["eval", invalid, "--local"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'a.json expected.TR_SIGNED: expected "fulfilled", "not_fulfilled" or "insufficient_evidence", got "signed"',
    );
    expect(result.stderr).toContain("b.json expected: required: an object");
    expect(readdirSync(invalid).sort()).toEqual(["a.json", "b.json"]);
  }, 60_000);
});
