// `rewoo eval` without a twin, its batch a stub: what is sent (the labels stripped), how a manifest's
// lines are named, which runs are read, the exit codes (6 below a threshold, the batch's own when it
// did not end, 2 for labels and options refused before anything runs, 1 when the runs cannot be read),
// and --out / --compare checked up front.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { type ApiClient, ApiRequestError } from "../../../cli/api-client.ts";
import type { BatchCommandOptions, BatchSummary } from "../../../cli/batch.ts";
import type { BatchInput } from "../../../cli/batch-input.ts";
import { type EvalCommandOptions, runEval } from "../../../cli/eval.ts";
import type { EvalSummary } from "../../../cli/eval-score.ts";
import type { RunRecord } from "../../../lambdas/core/types.ts";

const tempDir = () => mkdtempSync(join(tmpdir(), "rewoo-eval-unit-"));
const REQUEST = {
  metadata: { loan_program: "Flex Supreme", classification: "Form 1120" },
  s3_pdf_paths: ["rm-conditions/1120-signed.pdf"],
};

/** A stub of `rewoo batch`: every sent line SUCCEEDED with run run-<line>, whose result says TR_SIGNED `got`. */
function stubBatch(
  got: Record<number, "fulfilled" | "not_fulfilled">,
  calls: { sent?: BatchInput; reads: string[] },
) {
  const client = {
    getRun: async (runId: string) => {
      calls.reads.push(runId);
      const line = Number(runId.split("-")[1]);
      const fulfilled = got[line] === "fulfilled";
      return {
        run_id: runId,
        status: "SUCCEEDED",
        result: {
          summary: "",
          fulfilled_conditions: fulfilled ? [{ id: "TR_SIGNED" }] : [],
          unfulfilled_conditions: fulfilled ? [] : [{ id: "TR_SIGNED", reason: "blank signature" }],
          missing_information: [],
          recommendations: [],
        },
        result_review: { approved: true, score: 8, criteria: {}, issues: [] },
      } as unknown as RunRecord;
    },
  } as unknown as ApiClient;
  return async (input: BatchInput, options: BatchCommandOptions) => {
    calls.sent = input;
    const summary: BatchSummary = {
      batch_id: "batch-unit",
      status: "SUCCEEDED",
      source: input.source,
      total: input.lines.length,
      counts: { SUCCEEDED: input.lines.length },
      results: input.lines.map((line) => ({
        line: line.line,
        status: "SUCCEEDED",
        run_id: `run-${line.line}`,
      })),
    };
    await options.onEnded?.(summary, client);
    return 0;
  };
}

function capture(options: Partial<EvalCommandOptions> = {}) {
  const out = { stdout: "", stderr: "" };
  const base: EvalCommandOptions = {
    api: "http://127.0.0.1:9/",
    json: true,
    maxFalseFulfilled: 0,
    // Colours come and go with the terminal and the CI variable (picocolors); the text is what is asserted.
    stdout: (text) => {
      out.stdout += stripVTControlCharacters(text);
    },
    stderr: (text) => {
      out.stderr += stripVTControlCharacters(text);
    },
    now: () => new Date("2026-11-28T12:00:00Z"),
    ...options,
  };
  return { out, options: base };
}

describe("rewoo eval (its batch a stub)", () => {
  it("a manifest: sends the requests without their labels, names each line, reads only the runs with a result", async () => {
    const dir = tempDir();
    const manifest = join(dir, "loans.jsonl");
    writeFileSync(
      manifest,
      [
        JSON.stringify({ ...REQUEST, expected: { TR_SIGNED: "fulfilled" } }),
        "",
        JSON.stringify({ ...REQUEST, expected: { tr_signed: "fulfilled" } }),
      ].join("\n"),
    );
    const calls: { sent?: BatchInput; reads: string[] } = { reads: [] };
    const { out, options } = capture({ runBatch: stubBatch({ 1: "fulfilled", 3: "not_fulfilled" }, calls) });
    expect(await runEval(manifest, options)).toBe(0);
    expect(calls.sent?.lines.map((line) => line.request)).toEqual([REQUEST, REQUEST]);
    expect(calls.reads).toEqual(["run-1", "run-3"]);
    const summary = JSON.parse(out.stdout) as EvalSummary;
    expect(summary).toMatchObject({
      total: 2,
      right: 1,
      false_fulfilled: 0,
      passed: true,
      api: "http://127.0.0.1:9",
    });
    expect(summary.mismatches).toEqual([
      {
        file: "line 3",
        condition: "TR_SIGNED",
        expected: "fulfilled",
        got: "not_fulfilled",
        run_id: "run-3",
        run_status: "SUCCEEDED",
        reason: "blank signature",
      },
    ]);
    // "Form 1120" is an alias of the catalog's classification: its document kind.
    expect(Object.keys(summary.by_document_kind)).toEqual(["form_1120"]);
    expect(summary.verdicts[0]?.review_score).toBe(8);
  });

  it("exits 6 below a threshold, and writes the report the extension names", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "a.json"),
      JSON.stringify({ ...REQUEST, expected: { TR_SIGNED: "not_fulfilled" } }),
    );
    const report = join(dir, "report.html");
    const { out, options } = capture({
      json: false,
      out: report,
      runBatch: stubBatch({ 1: "fulfilled" }, { reads: [] }),
    });
    expect(await runEval(dir, options)).toBe(6);
    expect(out.stdout).toContain('FAILED: 1 false "fulfilled" verdict exceeds --max-false-fulfilled 0');
    expect(out.stdout).toContain(`report written to ${report}`);
    expect(readFileSync(report, "utf8")).toMatch(/^<!doctype html>[\s\S]*<h3>a\.json: TR_SIGNED<\/h3>/);
  });

  it("a batch that did not end: its exit code; runs that cannot be read: 1", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.json"), JSON.stringify({ ...REQUEST, expected: { TR_SIGNED: "fulfilled" } }));
    const stopped = capture({ runBatch: async () => 130 });
    expect(await runEval(dir, stopped.options)).toBe(130);
    expect(stopped.out.stdout).toBe("");
    const unreadable = capture({
      runBatch: async (input, options) => {
        const client = {
          getRun: async () => {
            throw new ApiRequestError("GET /v1/runs/run-1: 403 forbidden", 403, "forbidden");
          },
        } as unknown as ApiClient;
        await options.onEnded?.(
          {
            batch_id: "batch-unit",
            status: "SUCCEEDED",
            source: input.source,
            total: 1,
            counts: {},
            results: [{ line: 1, status: "SUCCEEDED", run_id: "run-1" }],
          },
          client,
        );
        return 0;
      },
    });
    expect(await runEval(dir, unreadable.options)).toBe(1);
    expect(unreadable.out.stderr).toContain(
      "cannot read the runs' results: GET /v1/runs/run-1: 403 forbidden",
    );
    expect(unreadable.out.stdout).toBe("");
  });

  it("refuses labels, --out and --compare before anything runs, naming each", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.json"), JSON.stringify({ ...REQUEST, expected: { TR_SIGNED: "yes" } }));
    writeFileSync(join(dir, "b.json"), "{oops");
    let ran = false;
    const runBatch = async () => {
      ran = true;
      return 0;
    };
    const labels = capture({ runBatch });
    expect(await runEval(dir, labels.options)).toBe(2);
    expect(labels.out.stderr).toContain(
      'a.json expected.TR_SIGNED: expected "fulfilled", "not_fulfilled" or "insufficient_evidence", got "yes"',
    );
    expect(labels.out.stderr).toMatch(/ {2}b\.json: b\.json is not JSON: /);

    const good = tempDir();
    writeFileSync(join(good, "a.json"), JSON.stringify({ ...REQUEST, expected: { TR_SIGNED: "fulfilled" } }));
    const previous = join(tempDir(), "previous.json");
    writeFileSync(
      previous,
      JSON.stringify({ total: 1, right: 1, accuracy: 1, by_condition: {}, verdicts: [{ file: "a.json" }] }),
    );
    const options = capture({ runBatch, out: join(good, "report.pdf"), compare: previous });
    expect(await runEval(good, options.options)).toBe(2);
    expect(options.out.stderr).toContain("--out: expected a .md or .html file, got");
    expect(options.out.stderr).toContain("--compare verdicts.0.condition: ");
    expect(ran).toBe(false);
  });
});
