// Portfolio batches through the twin: POST /v1/batches → statemachine/batch.asl.json (the Distributed
// Map emulated by infra/local/distributed-map.ts) → one run of statemachine/rewoo.asl.json per line as
// a child execution. Every line's result, the counts, the ResultWriter's files, the child executions in
// the Step Functions API, a stopped batch, and the API's refusals.
import { readFileSync } from "node:fs";
import {
  ListExecutionsCommand,
  type ListExecutionsCommandOutput,
  SFNClient,
  StopExecutionCommand,
} from "@aws-sdk/client-sfn";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBatchBench } from "../../bench/batch.ts";
import type { Twin } from "../../infra/local/twin.ts";
import { recordLine, startLine } from "../../lambdas/batch/lines.ts";
import { runIdForLine } from "../../lambdas/core/batch.ts";
import type { RunResult } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, post } from "./twin-fixture.ts";

const sample = (name: string) =>
  JSON.parse(readFileSync(`examples/${name}.json`, "utf8")) as Record<string, unknown>;
const TAX_RETURN = sample("sample-tax-return");
const UNSIGNED = sample("sample-unsigned-return");
const BANK = sample("sample-bank-statements");
const LARGE_DEPOSIT = sample("sample-large-deposit");

let twin: Twin;
let sfn: SFNClient;

beforeAll(async () => {
  twin = await bootTwinWithSamples({ REWOO_TOOL_LATENCY_MS: "*=0" }, { retryIntervalOverrides: {} });
  sfn = new SFNClient({
    region: "us-east-1",
    endpoint: `${twin.gateway.urls.stepFunctions}`,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
}, 120_000);

afterAll(async () => {
  sfn?.destroy();
  await twin?.stop();
});

interface BatchView {
  batch_id: string;
  status: string;
  total: number;
  processed: number;
  counts: Record<string, number>;
  error?: { error: string; cause: string };
  results: { url: string; s3_prefix: string; s3_manifest?: string };
  finished_at?: string;
}

interface LineView {
  line: number;
  file?: string;
  documents?: string[];
  status: string;
  run_id?: string;
  verdicts?: { fulfilled: number; not_fulfilled: number; insufficient_evidence: number };
  error?: { code: string; message: string; fields?: Array<{ field: string; message: string }> };
}

async function getJson<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, twin.urls.api));
  return { status: response.status, body: (await response.json()) as T };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let attempt = 0; attempt < 1_500; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function resultsOf(batchId: string): Promise<{ contentType: string | null; lines: LineView[] }> {
  const response = await fetch(new URL(`/v1/batches/${batchId}/results`, twin.urls.api));
  expect(response.status).toBe(200);
  const text = await response.text();
  return {
    contentType: response.headers.get("content-type"),
    lines: text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LineView),
  };
}

async function rewooExecutions(): Promise<NonNullable<ListExecutionsCommandOutput["executions"]>> {
  const listed = await sfn.send(
    new ListExecutionsCommand({ stateMachineArn: twin.stepFunctions.stateMachineArn }),
  );
  return listed.executions ?? [];
}

describe("a batch of 20 loan files from a manifest", () => {
  // Line numbers as an editor shows them: line 7 is blank (skipped, still counted), so the manifest
  // has 21 lines and 20 requests.
  const lines: string[] = [
    JSON.stringify(TAX_RETURN), // 1
    JSON.stringify(UNSIGNED), // 2
    JSON.stringify(BANK), // 3
    JSON.stringify(LARGE_DEPOSIT), // 4
    '{"metadata": {"loan_program": "Flex Supreme"', // 5: not JSON
    JSON.stringify({ ...TAX_RETURN, metadata: undefined }), // 6: no metadata
    "", // 7: blank
    JSON.stringify({ ...TAX_RETURN, s3_pdf_paths: ["s3://someone-elses-bucket/1120.pdf"] }), // 8: outside
    JSON.stringify({ ...TAX_RETURN, session_id: "sess-1" }), // 9: sessions are not for batches
    ...Array.from({ length: 12 }, (_, index) => {
      const base = [TAX_RETURN, UNSIGNED, BANK, LARGE_DEPOSIT][index % 4] as Record<string, unknown>;
      const metadata = base.metadata as Record<string, unknown>;
      // Varied metadata, as a portfolio's files are: each its own loan.
      return JSON.stringify({ ...base, metadata: { ...metadata, loan_id: `loan-${index + 10}` } });
    }), // 10–21
  ];
  const manifestKey = "portfolios/q1.jsonl";
  let batchId: string;
  let finished: BatchView;

  beforeAll(async () => {
    await twin.services.blobs.putBytes(
      { bucket: twin.services.config.documentsBucket, key: manifestKey },
      new TextEncoder().encode(lines.join("\n")),
      "application/x-ndjson",
    );
    const started = await post(twin.urls.api, "/v1/batches", {
      manifest: `s3://${twin.services.config.documentsBucket}/${manifestKey}`,
      max_concurrency: 4,
      name: "Q1 guideline change",
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: "RUNNING", total: 20, name: "Q1 guideline change" });
    expect(started.body.status_url).toBe(`${twin.urls.api}/v1/batches/${started.body.batch_id}`);
    expect(started.body.results_url).toBe(`${twin.urls.api}/v1/batches/${started.body.batch_id}/results`);
    batchId = started.body.batch_id;
    finished = (
      await until(
        () => getJson<BatchView>(`/v1/batches/${batchId}`),
        (read) => read.body.status !== "RUNNING",
        "the batch to end",
      )
    ).body;
  }, 240_000);

  it("ends SUCCEEDED with every line processed and counted once, by status", async () => {
    expect(finished.status).toBe("SUCCEEDED");
    expect(finished.total).toBe(20);
    expect(finished.processed).toBe(20);
    expect(finished.counts.INVALID).toBe(4);
    const { lines: results } = await resultsOf(batchId);
    const byStatus: Record<string, number> = {};
    for (const line of results) byStatus[line.status] = (byStatus[line.status] ?? 0) + 1;
    expect(finished.counts).toEqual(byStatus);
    expect(Object.values(finished.counts).reduce((sum, n) => sum + n, 0)).toBe(20);
    expect(finished.finished_at).toBeDefined();
  });

  it("answers one JSON line per manifest line, numbered as in the file, each invalid line naming its field", async () => {
    const { contentType, lines: results } = await resultsOf(batchId);
    expect(contentType).toBe("application/x-ndjson");
    expect(results.map((line) => line.line)).toEqual([
      1,
      2,
      3,
      4,
      5,
      6,
      8,
      9,
      ...Array.from({ length: 12 }, (_, i) => i + 10),
    ]);
    const line = (n: number) => results.find((result) => result.line === n) as LineView;
    expect(line(5)).toMatchObject({ status: "INVALID", error: { code: "invalid_json" } });
    expect(line(5).error?.fields?.[0]?.field).toBe("(line)");
    expect(line(5).run_id).toBeUndefined();
    expect(line(6)).toMatchObject({ status: "INVALID", error: { code: "invalid_request" } });
    expect(line(6).error?.fields?.map((problem) => problem.field)).toEqual(["metadata"]);
    expect(line(8).error?.fields?.[0]).toMatchObject({ field: "s3_pdf_paths[0]" });
    expect(line(8).error?.fields?.[0]?.message).toContain("outside the allowed document locations");
    expect(line(9)).toMatchObject({ status: "INVALID", error: { code: "session_not_allowed" } });
    expect(line(9).error?.fields?.[0]?.field).toBe("session_id");
  });

  it("runs every valid line as a run of its own, whose record says what its line says", async () => {
    const { lines: results } = await resultsOf(batchId);
    const valid = results.filter((line) => line.status !== "INVALID");
    expect(valid).toHaveLength(16);
    for (const line of valid) {
      expect(line.run_id).toBe(`run-${batchId.replace(/^batch-/, "")}-${line.line}`);
      const run = await getJson<{
        status: string;
        request: { metadata: Record<string, unknown>; s3_pdf_paths: string[] };
        result: RunResult;
      }>(`/v1/runs/${line.run_id}`);
      expect(run.status).toBe(200);
      expect(run.body.status).toBe(line.status);
      // The line says which loan it is (its documents) and how its run judged the conditions.
      expect(line.documents).toEqual(run.body.request.s3_pdf_paths.map((path) => path.split("/").at(-1)));
      const unfulfilled = run.body.result.unfulfilled_conditions;
      expect(line.verdicts).toEqual({
        fulfilled: run.body.result.fulfilled_conditions.length,
        not_fulfilled: unfulfilled.filter((condition) => condition.status === "not_fulfilled").length,
        insufficient_evidence: unfulfilled.filter((condition) => condition.status === "insufficient_evidence")
          .length,
      });
      expect(["SUCCEEDED", "NEEDS_REVIEW"]).toContain(line.status);
      if (line.line >= 10) expect(run.body.request.metadata.loan_id).toBe(`loan-${line.line}`);
    }
  });

  it("shows each line's run as a child execution of the evaluation workflow in the Step Functions API", async () => {
    const { lines: results } = await resultsOf(batchId);
    const executions = await rewooExecutions();
    for (const line of results.filter((result) => result.run_id)) {
      const execution = executions.find((candidate) => candidate.name === line.run_id);
      expect(execution?.status, line.run_id).toBe("SUCCEEDED");
      expect(execution?.stateMachineArn).toBe(twin.stepFunctions.stateMachineArn);
    }
    // The Distributed Map's child workflow executions are listed under the item processor's machine.
    const itemMachine = twin.batchWorkflow.machines[1];
    const children = await sfn.send(
      new ListExecutionsCommand({ stateMachineArn: itemMachine?.stateMachineArn }),
    );
    const ofThisBatch = (children.executions ?? []).filter((execution) =>
      JSON.stringify(itemMachine?.describeExecution(execution.executionArn ?? "").input).includes(batchId),
    );
    expect(ofThisBatch).toHaveLength(20);
    expect(ofThisBatch.every((execution) => execution.status === "SUCCEEDED")).toBe(true);
  });

  it("writes the child executions' results with the ResultWriter under the batch's prefix", async () => {
    const manifestUri = finished.results.s3_manifest ?? "";
    expect(finished.results.s3_prefix).toBe(
      `s3://${twin.services.config.artifactsBucket}/batches/${batchId}/results/`,
    );
    expect(manifestUri.startsWith(finished.results.s3_prefix)).toBe(true);
    expect(manifestUri.endsWith("/manifest.json")).toBe(true);
    const manifest = (await twin.services.blobs.getJson(manifestUri)) as {
      ResultFiles: Record<string, Array<{ Key: string }>>;
    };
    expect(manifest.ResultFiles.FAILED).toEqual([]);
    const succeededKey = manifest.ResultFiles.SUCCEEDED?.[0]?.Key ?? "";
    const succeeded = (await twin.services.blobs.getJson(
      `s3://${twin.services.config.artifactsBucket}/${succeededKey}`,
    )) as Array<{ Status: string; Output: string }>;
    expect(succeeded).toHaveLength(20);
    const outputs = succeeded.map((entry) => JSON.parse(entry.Output) as { line: number; status: string });
    expect(outputs.map((output) => output.line).sort((a, b) => a - b)).toEqual([
      1,
      2,
      3,
      4,
      5,
      6,
      8,
      9,
      ...Array.from({ length: 12 }, (_, i) => i + 10),
    ]);
    expect(outputs.find((output) => output.line === 5)?.status).toBe("INVALID");
  });
});

describe("a stopped batch", () => {
  it("ends ABORTED, its runs in flight stopped with it (CANCELLED) and the lines not started NOT_RUN", async () => {
    // Plans that wait for an operator keep their lines in flight until the batch is stopped.
    const waiting = { ...TAX_RETURN, options: { approval: "required" } };
    const started = await post(twin.urls.api, "/v1/batches", {
      requests: [waiting, waiting, waiting, waiting, waiting],
      max_concurrency: 2,
    });
    expect(started.status).toBe(202);
    const batchId: string = started.body.batch_id;
    const inFlight = await until(
      () => resultsOf(batchId),
      (read) =>
        read.lines.filter((line) => line.status === "RUNNING").length === 2 &&
        read.lines.every((line) => line.status !== "RUNNING" || line.run_id !== undefined),
      "two lines in flight",
    );
    for (const line of inFlight.lines.filter((result) => result.status === "RUNNING")) {
      await until(
        () => twin.services.runs.getMeta(line.run_id ?? ""),
        (meta) => meta.status === "AWAITING_APPROVAL",
        `run ${line.run_id} to wait for approval`,
      );
    }

    await sfn.send(
      new StopExecutionCommand({
        executionArn: `${twin.batchWorkflow.root.stateMachineArn.replace(":stateMachine:", ":execution:")}:${batchId}`,
        error: "OperatorStop",
        cause: "the portfolio was re-scoped",
      }),
    );
    const batch = await until(
      () => getJson<BatchView>(`/v1/batches/${batchId}`),
      (read) => read.body.status !== "RUNNING",
      "the stopped batch to be closed",
    );
    expect(batch.body.status).toBe("ABORTED");
    expect(batch.body.error).toEqual({ error: "OperatorStop", cause: "the portfolio was re-scoped" });
    expect(batch.body.processed).toBe(0);

    const stoppedRuns = inFlight.lines
      .filter((line) => line.status === "RUNNING")
      .map((line) => line.run_id ?? "");
    for (const runId of stoppedRuns) {
      const run = await twin.waitForRun(runId);
      expect(run.status).toBe("CANCELLED");
    }
    const executions = await rewooExecutions();
    for (const runId of stoppedRuns) {
      expect(executions.find((execution) => execution.name === runId)?.status).toBe("ABORTED");
    }
    const { lines: after } = await resultsOf(batchId);
    expect(
      after
        .filter((line) => line.status === "STOPPED")
        .map((line) => line.run_id)
        .sort(),
    ).toEqual([...stoppedRuns].sort());
    expect(after.filter((line) => line.status === "NOT_RUN")).toHaveLength(3);
  }, 120_000);
});

describe("POST /v1/batches refusals", () => {
  it("names the offending field and creates nothing", async () => {
    const both = await post(twin.urls.api, "/v1/batches", {
      manifest: "s3://rewoo-documents/a.jsonl",
      requests: [{}],
    });
    expect(both.status).toBe(400);
    expect(both.body.error.fields).toEqual([
      { field: "(body)", message: "expected manifest or requests, not both" },
    ]);

    const outside = await post(twin.urls.api, "/v1/batches", {
      manifest: "s3://someone-elses-bucket/a.jsonl",
    });
    expect(outside.status).toBe(400);
    expect(outside.body.error.fields[0].field).toBe("manifest");
    expect(outside.body.error.fields[0].message).toContain("outside the allowed document locations");

    // The API may read JSON Lines objects where documents are, never a document itself.
    const notJsonLines = await post(twin.urls.api, "/v1/batches", {
      manifest: `s3://${twin.services.config.documentsBucket}/rm-conditions/1120-signed.pdf`,
    });
    expect(notJsonLines.status).toBe(400);
    expect(notJsonLines.body.error.fields).toEqual([
      { field: "manifest", message: "expected s3://bucket/key.jsonl, a JSON Lines object" },
    ]);

    const missing = await post(twin.urls.api, "/v1/batches", {
      manifest: `s3://${twin.services.config.documentsBucket}/portfolios/none.jsonl`,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual([
      { field: "manifest", message: "the manifest does not exist (no such object)" },
    ]);

    const limits = await post(twin.urls.api, "/v1/batches", {
      requests: [TAX_RETURN],
      max_concurrency: 101,
      tolerated_failure_percentage: 120,
      priority: "high",
    });
    expect(limits.status).toBe(400);
    expect(limits.body.error.fields.map((problem: { field: string }) => problem.field).sort()).toEqual([
      "max_concurrency",
      "priority",
      "tolerated_failure_percentage",
    ]);

    const lines = await post(twin.urls.api, "/v1/batches", {
      requests: [TAX_RETURN, TAX_RETURN],
      lines: [{ line: 4, file: "loan-4.json" }, { line: 2 }],
    });
    expect(lines.status).toBe(400);
    expect(lines.body.error.fields).toEqual([
      {
        field: "lines.1.line",
        message: "expected a line after 4 (lines.0.line): each request's line in the file, in file order",
      },
    ]);

    const tooMany = await post(twin.urls.api, "/v1/batches", {
      requests: Array.from({ length: 1_001 }, () => ({})),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.fields[0].field).toBe("requests");
  });

  it("answers 400 for a malformed batch id and 404 for an unknown one", async () => {
    expect((await getJson("/v1/batches/not-a-batch")).status).toBe(400);
    const unknown = await getJson<{ error: { code: string } }>("/v1/batches/batch-20260101000000-00000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("batch_not_found");
    expect(
      (await fetch(new URL("/v1/batches/batch-20260101000000-00000000/results", twin.urls.api))).status,
    ).toBe(404);
  });
});

describe("the benchmark's batch hook", () => {
  it("runs an N-file portfolio through the twin and reports its throughput and counts", async () => {
    const result = await runBatchBench(twin, { files: 8, maxConcurrency: 4, pollMs: 50 });
    expect(result.status).toBe("SUCCEEDED");
    expect(result.files).toBe(8);
    expect(result.errors).toBe(0);
    expect(Object.values(result.counts).reduce((sum, n) => sum + n, 0)).toBe(8);
    expect(result.files_per_s).toBeGreaterThan(0);
    const { lines } = await resultsOf(result.batch_id);
    const loans = await Promise.all(
      lines.map(async (line) => {
        const run = await getJson<{ request: { metadata: { loan_id: string } } }>(`/v1/runs/${line.run_id}`);
        return run.body.request.metadata.loan_id;
      }),
    );
    expect(new Set(loans).size).toBe(8);
  }, 120_000);
});

describe("the item steps, called again as a retry or a redrive would", () => {
  const deps = () => ({
    runs: twin.services.runs,
    batches: twin.services.batches,
    documentPolicy: twin.services.documentPolicy,
    resultPolicy: twin.services.resultPolicy,
  });
  const newBatch = async (batchId: string) => {
    await twin.services.batches.create({
      batch_id: batchId,
      total: 3,
      line_ranges: [[1, 3]],
      max_concurrency: 1,
      tolerated_failure_percentage: 0,
      source: "inline",
      manifest: "s3://rewoo-artifacts/batches/none/manifest.jsonl",
      results_prefix: "s3://rewoo-artifacts/batches/none/results/",
    });
  };

  it("finds the run a first attempt created, runs nothing again, and counts the line once", async () => {
    const batchId = "batch-20260101000000-retry001";
    await newBatch(batchId);
    const first = await startLine(batchId, { line: 1, request: TAX_RETURN }, deps());
    expect(first.run_id).toBe("run-20260101000000-retry001-1");
    expect(first.finished).toBeUndefined();
    await twin.startExecution(first.run_id ?? "", { run_id: first.run_id ?? "" });
    const ended = await twin.waitForRun(first.run_id ?? "");

    const again = await startLine(batchId, { line: 1, request: TAX_RETURN }, deps());
    expect(again).toEqual({
      line: 1,
      documents: ["1120-signed.pdf"],
      run_id: first.run_id,
      finished: ended.status,
    });
    const recorded = await recordLine(batchId, again, { skipped: true }, deps());
    const recordedAgain = await recordLine(batchId, again, { skipped: true }, deps());
    expect(recordedAgain).toEqual(recorded);
    expect(recorded).toMatchObject({ line: 1, status: ended.status, failed: false });
    const batch = await twin.services.batches.get(batchId);
    expect(batch.processed).toBe(1);
    expect(batch.counts).toEqual({ [ended.status]: 1 });
  });

  it("refuses a line with bad loan metadata as the API refuses the same request, in the same words, and creates no run", async () => {
    const batchId = "batch-20260101000000-invalid1";
    await newBatch(batchId);
    const request = {
      ...TAX_RETURN,
      metadata: {
        ...(TAX_RETURN.metadata as Record<string, unknown>),
        loan_program: "",
        classification: "1040 Personal Tax Return",
        as_of_date: "2025-13-45",
        borrower_info: { monthly_income: -5 },
      },
    };
    const started = await startLine(batchId, { line: 1, request }, deps());
    expect(started.run_id).toBeUndefined();
    const api = await post(twin.urls.api, "/v1/evaluate-conditions", request);
    expect(api.status).toBe(400);
    expect(started.invalid).toEqual({
      code: "invalid_request",
      message: api.body.error.message,
      fields: api.body.error.fields,
    });
    expect(started.invalid?.fields?.map((problem) => problem.field).sort()).toEqual([
      "metadata.as_of_date",
      "metadata.borrower_info.monthly_income",
      "metadata.classification",
      "metadata.loan_program",
    ]);
    await expect(twin.services.runs.getMeta(runIdForLine(batchId, 1))).rejects.toMatchObject({
      name: "RunNotFoundError",
    });
  });

  it("reports a line whose run could not be created, or whose execution ended before its run, as FAILED", async () => {
    const batchId = "batch-20260101000000-failed01";
    await newBatch(batchId);
    const notStarted = await recordLine(
      batchId,
      { line: 2 },
      { Error: "Rewoo.TransientError", Cause: "DynamoDB throttled" },
      deps(),
    );
    expect(notStarted).toMatchObject({ status: "FAILED", failed: true, error: { code: "start_failed" } });

    const started = await startLine(batchId, { line: 3, request: TAX_RETURN }, deps());
    const cutShort = await recordLine(
      batchId,
      started,
      { Error: "States.TaskFailed", Cause: '{"Status":"ABORTED"}' },
      deps(),
    );
    expect(cutShort).toMatchObject({
      line: 3,
      run_id: started.run_id,
      status: "FAILED",
      failed: true,
      error: { code: "execution_failed" },
    });
    const batch = await twin.services.batches.get(batchId);
    expect(batch.counts).toEqual({ FAILED: 2 });
  });
});
