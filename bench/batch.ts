// A portfolio batch through a booted twin, for the benchmark report: N loan files built from the sample
// requests of examples/ (each its own loan: a loan id, a portfolio tag), written as a JSON Lines manifest
// in the documents bucket, posted to POST /v1/batches and followed on GET /v1/batches/{id} until it ends.
import { readFileSync } from "node:fs";
import type { Twin } from "../infra/local/twin.ts";

export interface BatchBenchOptions {
  files: number;
  /** Lines evaluated at once (the Distributed Map's MaxConcurrency); default 10. */
  maxConcurrency?: number;
  toleratedFailurePercentage?: number;
  /** Gives up (and says so in `status`) after this long; default 2 hours. */
  timeoutMs?: number;
  /** How often the batch is read while it runs; default 250 ms. */
  pollMs?: number;
}

export interface BatchBenchResult {
  batch_id: string;
  /** The batch's final status (or RUNNING when the timeout came first). */
  status: string;
  files: number;
  /** From the POST to the batch's end, as the API reports it ended. */
  wall_ms: number;
  files_per_s: number;
  /** Lines that did not produce an evaluation: INVALID, FAILED or INTERRUPTED runs, lines never processed. */
  errors: number;
  counts: Record<string, number>;
  error?: { error: string; cause: string };
}

const SAMPLES = [
  "sample-tax-return",
  "sample-unsigned-return",
  "sample-bank-statements",
  "sample-large-deposit",
] as const;

/** N loan files: the samples in turn, each with a loan id of its own; none waits for a person. */
export function portfolioRequests(files: number): Record<string, unknown>[] {
  const samples = SAMPLES.map(
    (name) =>
      JSON.parse(readFileSync(new URL(`../examples/${name}.json`, import.meta.url), "utf8")) as Record<
        string,
        unknown
      >,
  );
  return Array.from({ length: files }, (_, index) => {
    const sample = samples[index % samples.length] as Record<string, unknown>;
    return {
      ...sample,
      metadata: {
        ...(sample.metadata as Record<string, unknown>),
        loan_id: `bench-loan-${String(index + 1).padStart(5, "0")}`,
        portfolio: "bench",
      },
      options: { ...(sample.options as Record<string, unknown> | undefined), clarification: "never" },
    };
  });
}

export async function runBatchBench(twin: Twin, options: BatchBenchOptions): Promise<BatchBenchResult> {
  const { documentsBucket } = twin.services.config;
  const key = `portfolios/bench-${options.files}-${Date.now()}.jsonl`;
  const manifest = portfolioRequests(options.files)
    .map((request) => JSON.stringify(request))
    .join("\n");
  await twin.services.blobs.putBytes(
    { bucket: documentsBucket, key },
    new TextEncoder().encode(manifest),
    "application/x-ndjson",
  );

  const started = performance.now();
  const response = await fetch(new URL("/v1/batches", twin.urls.api), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      manifest: `s3://${documentsBucket}/${key}`,
      max_concurrency: options.maxConcurrency ?? 10,
      ...(options.toleratedFailurePercentage !== undefined
        ? { tolerated_failure_percentage: options.toleratedFailurePercentage }
        : {}),
      name: `bench ${options.files} files`,
    }),
  });
  const body = (await response.json()) as { batch_id?: string; error?: { message: string } };
  if (response.status !== 202 || !body.batch_id) {
    throw new Error(`POST /v1/batches answered ${response.status}: ${body.error?.message ?? "no batch id"}`);
  }
  const batchId = body.batch_id;
  const deadline = started + (options.timeoutMs ?? 2 * 3600_000);
  let batch: {
    status: string;
    processed: number;
    counts: Record<string, number>;
    error?: { error: string; cause: string };
  };
  for (;;) {
    batch = (await (await fetch(new URL(`/v1/batches/${batchId}`, twin.urls.api))).json()) as typeof batch;
    if (batch.status !== "RUNNING" || performance.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
  const wallMs = performance.now() - started;
  const evaluated = Object.entries(batch.counts)
    .filter(([status]) => !["INVALID", "FAILED", "INTERRUPTED"].includes(status))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    batch_id: batchId,
    status: batch.status,
    files: options.files,
    wall_ms: Math.round(wallMs),
    files_per_s: Math.round((batch.processed / (wallMs / 1000)) * 100) / 100,
    errors: options.files - evaluated,
    counts: batch.counts,
    ...(batch.error ? { error: batch.error } : {}),
  };
}
