// `rewoo batch` without a twin: reading folders and manifests into batch lines, staging PDFs from
// disk, and the command against a stub of the batch API (what is sent, how lines map back to files,
// the summary, --out, --json, waiting runs, Ctrl-C, refusals and exit codes), and the progress text.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import type { BatchRecordView } from "../../../cli/api-client.ts";
import { type BatchCommandOptions, describeLineError, runBatch } from "../../../cli/batch.ts";
import {
  type BatchInput,
  BatchInputError,
  readBatchInput,
  stageBatchDocuments,
} from "../../../cli/batch-input.ts";
import { countsText, PlainBatchView, progressBar, progressText } from "../../../cli/batch-view.ts";

const strip = (text: string) => stripVTControlCharacters(text);
const tempDir = () => mkdtempSync(join(tmpdir(), "rewoo-batch-unit-"));
const REQUEST = { metadata: { loan_program: "Flex Supreme" }, s3_pdf_paths: ["rm-conditions/a.pdf"] };

describe("readBatchInput", () => {
  it("a folder: every *.json file in name order (loan-2 before loan-10), one line each; other files ignored", () => {
    const dir = tempDir();
    for (const name of ["loan-10.json", "loan-2.json", "loan-1.json"]) {
      writeFileSync(join(dir, name), JSON.stringify({ ...REQUEST, name }));
    }
    writeFileSync(join(dir, "notes.txt"), "not a request");
    mkdirSync(join(dir, "nested.json"));
    const input = readBatchInput(dir);
    expect(input.kind).toBe("folder");
    expect(input.lines.map((line) => [line.line, line.file])).toEqual([
      [1, "loan-1.json"],
      [2, "loan-2.json"],
      [3, "loan-10.json"],
    ]);
    expect(input.lines[2]?.request).toEqual({ ...REQUEST, name: "loan-10.json" });
  });

  it("a folder file that is not JSON is that line's error, naming the file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.json"), JSON.stringify(REQUEST));
    writeFileSync(join(dir, "b.json"), '{"metadata": ');
    const [, broken] = readBatchInput(dir).lines;
    expect(broken?.request).toBeUndefined();
    expect(broken?.error).toMatchObject({ code: "invalid_json", fields: [{ field: "(file)" }] });
    expect(broken?.error?.message).toMatch(/^b\.json is not JSON: /);
  });

  it("a manifest: one request per line, numbered as an editor numbers them (blank lines skipped, still counted)", () => {
    const dir = tempDir();
    const file = join(dir, "portfolio.jsonl");
    writeFileSync(
      file,
      [JSON.stringify(REQUEST), "", "  ", "{not json", `${JSON.stringify(REQUEST)}\r`, ""].join("\n"),
    );
    const input = readBatchInput(file);
    expect(input.kind).toBe("manifest");
    expect(input.lines.map((line) => [line.line, line.request !== undefined])).toEqual([
      [1, true],
      [4, false],
      [5, true],
    ]);
    expect(input.lines[1]?.error).toMatchObject({ code: "invalid_json", fields: [{ field: "(line)" }] });
    expect(input.lines[1]?.error?.message).toMatch(/^line 4 is not JSON: /);
  });

  it("refuses what is no batch at all, naming the input and what was expected", () => {
    const dir = tempDir();
    expect(() => readBatchInput(join(dir, "missing"))).toThrow(/cannot read .*missing: ENOENT/);
    writeFileSync(join(dir, "one.json"), JSON.stringify(REQUEST));
    expect(() => readBatchInput(join(dir, "one.json"))).toThrow(
      /neither a folder of request files \(\*\.json\) nor a JSON Lines manifest \(\*\.jsonl\)/,
    );
    const empty = join(dir, "empty");
    mkdirSync(empty);
    expect(() => readBatchInput(empty)).toThrow(/has no request file/);
    writeFileSync(join(dir, "blank.jsonl"), "\n\n");
    expect(() => readBatchInput(join(dir, "blank.jsonl"))).toThrow(BatchInputError);
  });
});

describe("stageBatchDocuments", () => {
  it("uploads a PDF on disk once however many lines name it; a missing one is its line's error", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "return.pdf"), "%PDF-1.7 a return");
    const input: BatchInput = {
      source: dir,
      kind: "folder",
      baseDir: dir,
      lines: [
        { line: 1, file: "a.json", request: { ...REQUEST, s3_pdf_paths: ["./return.pdf"] } },
        {
          line: 2,
          file: "b.json",
          request: { ...REQUEST, s3_pdf_paths: ["return.pdf", "rm-conditions/x.pdf"] },
        },
        { line: 3, file: "c.json", request: { ...REQUEST, s3_pdf_paths: ["./gone.pdf"] } },
      ],
    };
    const { input: staged, staged: documents } = stageBatchDocuments(input);
    expect(documents).toHaveLength(1);
    expect(documents[0]?.key).toMatch(/^uploads\/[0-9a-f]{16}\/return\.pdf$/);
    const pathsOf = (index: number) =>
      (staged.lines[index]?.request as typeof REQUEST | undefined)?.s3_pdf_paths;
    expect(pathsOf(0)).toEqual([documents[0]?.key]);
    expect(pathsOf(1)).toEqual([documents[0]?.key, "rm-conditions/x.pdf"]);
    expect(staged.lines[2]?.request).toBeUndefined();
    expect(staged.lines[2]?.error).toMatchObject({
      code: "invalid_request",
      fields: [{ field: "s3_pdf_paths[0]", message: expect.stringMatching(/gone\.pdf does not exist/) }],
    });
  });
});

// ------------------------------------------------------------------------------------------------
// A stand-in for the batch API: the POST is recorded, each GET of the batch answers the next record
// of a script (the last one repeats), the results and runs are fixed.

interface BatchStub {
  url: string;
  posts: unknown[];
  batchReads: number;
  close(): Promise<void>;
}

interface StubScript {
  start?: { status: number; body: unknown };
  records?: Array<Partial<BatchRecordView>>;
  results?: unknown[];
  runs?: Record<string, string>;
}

let stub: BatchStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const BATCH_ID = "batch-20260101120000-abcdef12";

function record(overrides: Partial<BatchRecordView>): BatchRecordView {
  return {
    batch_id: BATCH_ID,
    status: "RUNNING",
    total: 3,
    processed: 0,
    counts: {},
    max_concurrency: 10,
    tolerated_failure_percentage: 10,
    created_at: "2026-01-01T12:00:00.000Z",
    updated_at: "2026-01-01T12:00:01.000Z",
    ...overrides,
  };
}

async function startBatchStub(script: StubScript): Promise<BatchStub> {
  const state = { posts: [] as unknown[], batchReads: 0 };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? "/", "http://stub");
    const send = (status: number, body: unknown, type = "application/json") => {
      response.writeHead(status, { "content-type": type });
      response.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (request.method === "POST" && url.pathname === "/v1/batches") {
      state.posts.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      const start = script.start ?? {
        status: 202,
        body: {
          batch_id: BATCH_ID,
          status: "RUNNING",
          total: 3,
          status_url: `x/${BATCH_ID}`,
          results_url: "x",
        },
      };
      return send(start.status, start.body);
    }
    if (url.pathname === `/v1/batches/${BATCH_ID}`) {
      const records = script.records ?? [{ status: "SUCCEEDED", processed: 3, counts: { SUCCEEDED: 3 } }];
      const next = records[Math.min(state.batchReads++, records.length - 1)] ?? {};
      return send(200, record(next));
    }
    if (url.pathname === `/v1/batches/${BATCH_ID}/results`) {
      const lines = script.results ?? [];
      return send(200, lines.map((line) => `${JSON.stringify(line)}\n`).join(""), "application/x-ndjson");
    }
    const runMatch = /^\/v1\/runs\/([^/]+)$/.exec(url.pathname);
    if (runMatch)
      return send(200, { run_id: runMatch[1], status: script.runs?.[runMatch[1] as string] ?? "RUNNING" });
    send(404, { error: { code: "not_found", message: "no route" } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get posts() {
      return state.posts;
    },
    get batchReads() {
      return state.batchReads;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Three files: a.json and c.json are requests, b.json is not JSON (not sent). */
function folderInput(): BatchInput {
  return {
    source: "portfolio",
    kind: "folder",
    baseDir: "/nowhere",
    lines: [
      { line: 1, file: "a.json", request: { ...REQUEST, loan: "a" } },
      {
        line: 2,
        file: "b.json",
        error: {
          code: "invalid_json",
          message: "b.json is not JSON: x",
          fields: [{ field: "(file)", message: "b.json is not JSON: x" }],
        },
      },
      { line: 3, file: "c.json", request: { ...REQUEST, loan: "c" } },
    ],
  };
}

async function batch(script: StubScript, options: Partial<BatchCommandOptions> = {}, input = folderInput()) {
  stub = await startBatchStub(script);
  let stdout = "";
  let stderr = "";
  const code = await runBatch(input, {
    api: stub.url,
    json: false,
    pollIntervalMs: 1,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    ...options,
  });
  return { code, stdout: strip(stdout), stderr: strip(stderr), stub };
}

/** The API numbers the lines as they were sent (`lines`): the files' lines, 1 and 3. */
const API_RESULTS_OK = [
  {
    line: 1,
    file: "a.json",
    status: "SUCCEEDED",
    run_id: "run-x-1",
    verdicts: { fulfilled: 5, not_fulfilled: 0, insufficient_evidence: 0 },
  },
  {
    line: 3,
    file: "c.json",
    status: "SUCCEEDED",
    run_id: "run-x-3",
    verdicts: { fulfilled: 3, not_fulfilled: 1, insufficient_evidence: 1 },
  },
];

describe("rewoo batch (against the API)", () => {
  it("sends the requests inline with their lines and files and the options, and exits 5 for the file it could not send", async () => {
    const { code, stdout, stub } = await batch(
      {
        records: [
          { processed: 0 },
          { processed: 1, counts: { SUCCEEDED: 1 } },
          { status: "SUCCEEDED", total: 2, processed: 2, counts: { SUCCEEDED: 2 } },
        ],
        results: API_RESULTS_OK,
      },
      { maxConcurrency: 4, toleratedFailurePercentage: 0, name: "Q1" },
    );
    expect(stub.posts).toEqual([
      {
        requests: [
          { ...REQUEST, loan: "a" },
          { ...REQUEST, loan: "c" },
        ],
        lines: [
          { line: 1, file: "a.json" },
          { line: 3, file: "c.json" },
        ],
        max_concurrency: 4,
        tolerated_failure_percentage: 0,
        name: "Q1",
      },
    ]);
    expect(code).toBe(5);
    expect(stdout).toMatch(
      /^BATCH {3}batch-20260101120000-abcdef12 \(portfolio\): 2 lines sent, 1 not sent/m,
    );
    expect(stdout).toContain("3 lines: SUCCEEDED 2 · INVALID 1");
    expect(stdout).toContain("1 line was not sent: rewoo batch found it invalid");
    const rows = stdout.split("\n").filter((line) => /^\d+ {2}/.test(line));
    expect(rows.map((row) => row.split(/ {2,}/))).toEqual([
      ["1", "a.json", "run-x-1", "SUCCEEDED", "5/0/0"],
      ["2", "b.json", "-", "INVALID", "b.json is not JSON: x"],
      ["3", "c.json", "run-x-3", "SUCCEEDED", "3/1/1"],
    ]);
    expect(stdout).toMatch(/^line {2}file {4}run_id {3}status {5}verdicts F\/N\/I {2}error$/m);
    expect(stdout).toContain(
      "verdicts F/N/I: conditions fulfilled / not fulfilled / insufficient evidence in the line's result",
    );
  });

  it("exits 0 when every line SUCCEEDED, and writes --out as JSON Lines", async () => {
    const dir = tempDir();
    const out = join(dir, "results.jsonl");
    const input = folderInput();
    input.lines.splice(1, 1);
    const { code } = await batch({ results: API_RESULTS_OK }, { out }, input);
    expect(code).toBe(0);
    expect(
      readFileSync(out, "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual(API_RESULTS_OK);
  });

  it("--json prints only the summary on stdout; an invalid line's error names its field", async () => {
    const invalid = {
      line: 3,
      file: "c.json",
      status: "INVALID",
      error: {
        code: "invalid_request",
        message: "invalid request: metadata: required",
        fields: [{ field: "metadata", message: "required" }],
      },
    };
    const { code, stdout } = await batch({ results: [API_RESULTS_OK[0], invalid] }, { json: true });
    expect(code).toBe(5);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({
      batch_id: BATCH_ID,
      status: "SUCCEEDED",
      source: "portfolio",
      total: 3,
      counts: { SUCCEEDED: 1, INVALID: 2 },
    });
    expect(
      summary.results.map((line: { line: number; file: string; status: string }) => [
        line.line,
        line.file,
        line.status,
      ]),
    ).toEqual([
      [1, "a.json", "SUCCEEDED"],
      [2, "b.json", "INVALID"],
      [3, "c.json", "INVALID"],
    ]);
    expect(summary.results[1].not_sent).toBe(true);
    expect(summary.results[2].not_sent).toBeUndefined();
    expect(describeLineError(summary.results[2].error)).toBe("metadata: required");
  });

  it("exits 1 when the batch itself FAILED (too many failed lines), and says why", async () => {
    const { code, stdout } = await batch({
      records: [
        {
          status: "FAILED",
          total: 2,
          processed: 1,
          counts: { FAILED: 1 },
          error: { error: "States.ExceedToleratedFailureThreshold", cause: "too many lines failed" },
        },
      ],
      results: [
        {
          line: 1,
          status: "FAILED",
          run_id: "run-x-1",
          error: { code: "run_failed", message: "WorkerError: boom" },
        },
        { line: 3, status: "NOT_RUN" },
      ],
    });
    expect(code).toBe(1);
    expect(stdout).toContain("States.ExceedToleratedFailureThreshold: too many lines failed");
    expect(stdout).toMatch(/run_failed|WorkerError: boom/);
    expect(stdout).toContain("npx rewoo runs show <run_id> --api");
  });

  it("exits 2 naming each field the API refused, and 1 when the API cannot be reached", async () => {
    const refused = await batch({
      start: {
        status: 400,
        body: {
          error: {
            code: "invalid_request",
            message: "invalid batch",
            fields: [{ field: "name", message: "expected letters, digits, spaces" }],
          },
        },
      },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("the API refused to start the batch (portfolio)");
    expect(refused.stderr).toContain("  name: expected letters, digits, spaces");

    const unreachable = await runBatch(folderInput(), {
      api: "http://127.0.0.1:9",
      json: false,
      stdout: () => undefined,
      stderr: () => undefined,
    });
    expect(unreachable).toBe(1);
  });

  it("sends nothing when no line is a request, or when there are more than the API takes inline", async () => {
    const none: BatchInput = {
      ...folderInput(),
      lines: [folderInput().lines[1] as BatchInput["lines"][number]],
    };
    const nothing = await batch({}, {}, none);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("b.json: b.json is not JSON: x");
    expect(nothing.stub.posts).toHaveLength(0);
    await nothing.stub.close();
    stub = undefined;

    const many: BatchInput = {
      ...folderInput(),
      lines: Array.from({ length: 1001 }, (_, i) => ({ line: i + 1, request: REQUEST })),
    };
    const tooMany = await batch({}, {}, many);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain("input: 1001 requests; a batch sent by rewoo batch holds at most 1000");
    expect(tooMany.stub.posts).toHaveLength(0);
  });

  it("says once which line's run waits for a person when the batch stalls, with the command that shows it", async () => {
    const { stdout } = await batch(
      {
        records: [
          { processed: 1, counts: { SUCCEEDED: 1 } },
          { processed: 1, counts: { SUCCEEDED: 1 } },
          { processed: 1, counts: { SUCCEEDED: 1 } },
          { processed: 1, counts: { SUCCEEDED: 1 } },
          { processed: 1, counts: { SUCCEEDED: 1 } },
          { status: "SUCCEEDED", total: 2, processed: 2, counts: { SUCCEEDED: 2 } },
        ],
        results: [
          { line: 1, status: "SUCCEEDED", run_id: "run-x-1" },
          { line: 3, status: "RUNNING", run_id: "run-x-3" },
        ],
        runs: { "run-x-3": "AWAITING_INPUT" },
      },
      { stallPolls: 2, address: { local: true } },
    );
    const notes = stdout.split("\n").filter((line) => line.includes("waits for"));
    expect(notes).toEqual([
      "c.json: run run-x-3 waits for an answer, and the batch with it: npx rewoo runs show run-x-3 --local",
    ]);
  });

  it("stops following on Ctrl-C (exit 130) and says how to see the batch later", async () => {
    const controller = new AbortController();
    const { code, stderr, stub } = await batch(
      { records: [{ processed: 0 }] },
      {
        signal: controller.signal,
        pollIntervalMs: 5,
        view: {
          update: () => controller.abort(),
          note: () => undefined,
          finish: async () => undefined,
        },
      },
    );
    expect(code).toBe(130);
    expect(stub.batchReads).toBe(1);
    expect(stderr).toContain(
      `stopped following ${BATCH_ID} at 0/3 lines: it goes on; npx rewoo batches show ${BATCH_ID} --api ${stub.url}`,
    );
  });
});

describe("batch progress text", () => {
  it("a bar and the counts in words, statuses in reading order", () => {
    expect(progressBar(0, 200, 10)).toBe("[░░░░░░░░░░]");
    expect(progressBar(57, 200, 10)).toBe("[███░░░░░░░]");
    expect(progressBar(200, 200, 10)).toBe("[██████████]");
    expect(strip(countsText({ INVALID: 2, SUCCEEDED: 50, FAILED: 1, NEEDS_REVIEW: 0 }))).toBe(
      "SUCCEEDED 50 · FAILED 1 · INVALID 2",
    );
    expect(strip(progressText({ processed: 57, total: 200, counts: { SUCCEEDED: 55, INVALID: 2 } }))).toBe(
      "57/200 lines processed (28%) · SUCCEEDED 55 · INVALID 2",
    );
  });

  it("plain lines: when the counts change, at most once per interval, and always the batch's end", () => {
    let now = 0;
    const said: string[] = [];
    const view = new PlainBatchView((line) => said.push(strip(line)), { everyMs: 1000, now: () => now });
    view.update(record({ processed: 0 }));
    view.update(record({ processed: 0 }));
    now = 10;
    view.update(record({ processed: 1, counts: { SUCCEEDED: 1 } }));
    now = 1500;
    view.update(record({ processed: 2, counts: { SUCCEEDED: 2 } }));
    now = 1600;
    view.update(record({ status: "SUCCEEDED", processed: 3, counts: { SUCCEEDED: 3 } }));
    expect(said).toEqual([
      "BATCH   0/3 lines processed (0%)",
      "BATCH   2/3 lines processed (66%) · SUCCEEDED 2",
      "BATCH   3/3 lines processed (100%) · SUCCEEDED 3",
    ]);
  });
});
