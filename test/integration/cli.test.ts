// The `rewoo` command as a user runs it: a separate process, real files, exit codes, stdout.
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { generateSampleDocuments } from "../../examples/samples.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const fixtures = fileURLToPath(new URL("../fixtures/rewoo-plans/", import.meta.url));
const run = promisify(execFile);

async function rewoo(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run("node", ["bin/rewoo.mjs", ...args], {
      cwd: root,
      // CI=true makes picocolors colour its output; tests read plain text.
      env: { ...process.env, NO_COLOR: "1", ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("rewoo plan parse", () => {
  it("prints the normalized plan of a paper fixture with exact inputs and levels", async () => {
    const { code, stdout } = await rewoo(["plan", "parse", join(fixtures, "hotpotqa_pws_base_01.txt")]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      steps: [
        { id: "E1", tool: "Wikipedia", args: { input: "Colorado orogeny" }, depends_on: [] },
        {
          id: "E2",
          tool: "LLM",
          args: {
            input:
              "What is the name of the area that eastern sector of Colorado extends into? Given context: #E1",
          },
          depends_on: ["E1"],
        },
        { id: "E3", tool: "Wikipedia", args: { input: "#E2" }, depends_on: ["E2"] },
        {
          id: "E4",
          tool: "LLM",
          args: { input: "What is elevation range for the area #E2? Given context: #E3" },
          depends_on: ["E2", "E3"],
        },
      ],
      levels: [["E1"], ["E2"], ["E3"], ["E4"]],
    });
  });

  it("truncates to --max-steps and says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rewoo-cli-"));
    const file = join(dir, "plan.txt");
    writeFileSync(file, "Plan: a #E1 = Google[x] Plan: b #E2 = Google[y] Plan: c #E3 = LLM[#E1 and #E2]");
    const { code, stdout } = await rewoo(["plan", "parse", file, "--max-steps", "2"]);
    expect(code).toBe(0);
    const plan = JSON.parse(stdout);
    expect(plan.steps.map((s: { id: string }) => s.id)).toEqual(["E1", "E2"]);
    expect(plan.levels).toEqual([["E1", "E2"]]);
    expect(plan.repairs[0].message).toMatch(/truncated to the cap of 2/);
  });

  it("reads the plan from stdin", () => {
    const result = spawnSync("node", ["bin/rewoo.mjs", "plan", "parse", "-"], {
      cwd: root,
      input: '```json\n{"steps": [{"id": "E1", "tool": "Google", "args": {"q": "x"}}]}\n```',
      encoding: "utf8",
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      steps: [{ id: "E1", tool: "Google", args: { q: "x" }, depends_on: [] }],
      levels: [["E1"]],
    });
  });

  it("exits 2 with an error naming a dangling reference", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rewoo-cli-"));
    const file = join(dir, "plan.json");
    writeFileSync(file, JSON.stringify([{ id: "E1", tool: "Google", args: { q: "{{E7}}" } }]));
    const { code, stdout } = await rewoo(["plan", "parse", file]);
    expect(code).toBe(2);
    expect(JSON.parse(stdout).error).toMatch(/E7/);
  });

  it("with --validate rejects tools the registry does not know", async () => {
    const { code, stdout } = await rewoo(["plan", "parse", join(fixtures, "gsm8k_pws_01.txt"), "--validate"]);
    expect(code).toBe(2);
    expect(JSON.parse(stdout).error).toMatch(/unknown tool "WolframAlpha".*call_preconditions_api/);
  });
});

describe("rewoo evaluate --local", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "rewoo-data-"));

  it("prints only the final run record with --json", async () => {
    const { code, stdout } = await rewoo(
      ["evaluate", "examples/sample-unsigned-return.json", "--local", "--json"],
      { REWOO_DATA_DIR: dataDir },
    );
    expect(code).toBe(0);
    const record = JSON.parse(stdout);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.plan.levels.length).toBeGreaterThanOrEqual(2);
    expect(record.evidence.map((e: { step_id: string }) => e.step_id).sort()).toEqual(
      record.plan.steps.map((s: { id: string }) => s.id).sort(),
    );
    expect(record.usage).toMatchObject({ llm_calls: 2 });
    const unfulfilled = record.result.unfulfilled_conditions.map((c: { id: string }) => c.id);
    expect(unfulfilled).toContain("TR_SIGNED");
  });

  it("--instructions replaces the request's instructions: only the signature is judged", async () => {
    const { code, stdout } = await rewoo(
      [
        "evaluate",
        "examples/sample-unsigned-return.json",
        "--local",
        "--json",
        "--instructions",
        "Only check whether the return is signed",
      ],
      { REWOO_DATA_DIR: dataDir },
    );
    expect(code).toBe(0);
    const record = JSON.parse(stdout);
    expect(record.request.instructions).toBe("Only check whether the return is signed");
    const judged = [...record.result.fulfilled_conditions, ...record.result.unfulfilled_conditions];
    expect(judged.map((c: { id: string }) => c.id)).toEqual(["TR_SIGNED"]);
    expect(record.result.unfulfilled_conditions[0]).toMatchObject({
      id: "TR_SIGNED",
      status: "not_fulfilled",
    });
    expect(record.result.interpretation).toMatch(/TR_SIGNED/);
  });

  it("evaluates PDF files from disk named in s3_pdf_paths, relative to the request file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rewoo-local-docs-"));
    const samples = await generateSampleDocuments();
    const unsigned = samples.find((s) => s.key.endsWith("1120-unsigned.pdf"));
    writeFileSync(join(dir, "my return.pdf"), unsigned?.bytes ?? new Uint8Array());
    const request = JSON.parse(readFileSync(join(root, "examples/sample-tax-return.json"), "utf8"));
    writeFileSync(join(dir, "request.json"), JSON.stringify({ ...request, s3_pdf_paths: ["my return.pdf"] }));

    const { code, stdout } = await rewoo(["evaluate", join(dir, "request.json"), "--local", "--json"], {
      REWOO_DATA_DIR: dataDir,
    });
    expect(code).toBe(0);
    const record = JSON.parse(stdout);
    expect(record.request.s3_pdf_paths).toEqual([
      expect.stringMatching(/^uploads\/[0-9a-f]{16}\/my return\.pdf$/),
    ]);
    const signed = record.result.unfulfilled_conditions.find((c: { id: string }) => c.id === "TR_SIGNED");
    expect(signed.citations[0].document).toBe(record.request.s3_pdf_paths[0]);
  });

  it("reports missing and non-PDF local files before anything starts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rewoo-local-docs-"));
    writeFileSync(join(dir, "notes.pdf"), "these are my notes");
    const request = JSON.parse(readFileSync(join(root, "examples/sample-tax-return.json"), "utf8"));
    writeFileSync(
      join(dir, "request.json"),
      JSON.stringify({ ...request, s3_pdf_paths: ["./missing.pdf", "notes.pdf"] }),
    );
    const { code, stderr } = await rewoo(["evaluate", join(dir, "request.json"), "--local"], {
      REWOO_DATA_DIR: dataDir,
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/s3_pdf_paths\[0\]: local file .*missing\.pdf does not exist/);
    expect(stderr).toMatch(/s3_pdf_paths\[1\]: local file .*notes\.pdf is not a PDF/);
  });

  it("names every problem of a request file at once, its local files' and the metadata's, before anything starts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rewoo-local-docs-"));
    const request = JSON.parse(readFileSync(join(root, "examples/sample-tax-return.json"), "utf8"));
    writeFileSync(
      join(dir, "request.json"),
      JSON.stringify({
        ...request,
        metadata: {
          ...request.metadata,
          classification: "1040 Personal Tax Return",
          as_of_date: "2025-13-45",
          borrower_info: { ...request.metadata.borrower_info, monthly_income: -8000 },
        },
        s3_pdf_paths: ["./missing.pdf", "s3://someone-elses-bucket/a.pdf"],
        options: { max_steps: 0 },
      }),
    );
    const { code, stdout, stderr } = await rewoo(["evaluate", join(dir, "request.json"), "--local"], {
      REWOO_DATA_DIR: dataDir,
    });
    expect(code).toBe(2);
    expect(stdout).not.toMatch(/RUN/);
    expect(stderr).toMatch(/s3_pdf_paths\[0\]: local file .*missing\.pdf does not exist/);
    expect(stderr).toMatch(/s3_pdf_paths\[1\]: .*outside the allowed document locations/);
    expect(stderr).toMatch(
      /metadata\.classification: unknown classification "1040 Personal Tax Return": expected one of "1120 Corporate Tax Return", "Bank Statements"/,
    );
    expect(stderr).toMatch(/metadata\.as_of_date: expected a date, YYYY-MM-DD/);
    expect(stderr).toMatch(/metadata\.borrower_info\.monthly_income: expected a positive amount/);
    expect(stderr).toMatch(/options\.max_steps: /);
  });

  it("exits 2 and names the field of an invalid request without starting a run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rewoo-cli-"));
    const file = join(dir, "request.json");
    writeFileSync(file, JSON.stringify({ metadata: {}, s3_pdf_paths: [], options: { turbo: true } }));
    const { code, stderr } = await rewoo(["evaluate", file, "--local"], { REWOO_DATA_DIR: dataDir });
    expect(code).toBe(2);
    expect(stderr).toMatch(/s3_pdf_paths: expected at least one document path/);
    expect(stderr).toMatch(/options\.turbo: unknown field/);
  });
});

describe("rewoo start", () => {
  it("with REWOO_EXIT_AFTER_SAMPLE=1 evaluates both samples and exits instead of serving", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "rewoo-data-"));
    // Without the flag `rewoo start` (npm start) keeps serving until Ctrl-C; a test must never wait on that.
    const { code, stdout } = await rewoo(["start", "--port", "0"], {
      REWOO_DATA_DIR: dataDir,
      REWOO_EXIT_AFTER_SAMPLE: "1",
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/API\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/RUN\s+run-\S+ \(examples\/sample-tax-return\.json\)/);
    expect(stdout).toMatch(/RUN\s+run-\S+ \(examples\/sample-unsigned-return\.json\)/);
    expect(stdout).toMatch(/TR_SIGNED: not_fulfilled/);
    expect(stdout).not.toMatch(/serving until Ctrl-C/);
  });
});
