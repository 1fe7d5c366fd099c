// Portfolio batches on the REST API: POST /v1/batches (a JSON Lines manifest in S3, or inline requests)
// numbers the lines, stores them as the batch's manifest, records the batch and starts its execution
// of the batch workflow (a Distributed Map that runs each line as a run); GET /v1/batches/{batch_id}
// reads the batch record (status and counts, kept by the workflow as lines finish); GET
// /v1/batches/{batch_id}/results answers one JSON line per manifest line.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import {
  manifestText,
  type NumberedManifest,
  numberInlineRequests,
  numberJsonLines,
} from "../batch/manifest.ts";
import { InvalidBatchError, validateBatchRequest } from "../batch/request.ts";
import type { BatchStarted } from "../contracts/api-types.ts";
import {
  BATCH_ID_PATTERN,
  type BatchExecutionInput,
  batchManifestKey,
  batchResultsPrefix,
  type LineResult,
  type LineSource,
  linesOf,
  MAX_MANIFEST_BYTES,
  MAX_MANIFEST_LINES,
} from "../core/batch.ts";
import { DocumentPathError, resolveDocumentPath } from "../core/documents.ts";
import { isTransient } from "../runtime/transient.ts";
import {
  type BatchItem,
  BatchNotFoundError,
  type LineItem,
  newBatchId,
  ObjectTooLargeError,
} from "../store/batches.ts";
import { s3Uri } from "../store/blobs.ts";
import type { ApiContext } from "./context.ts";
import { HttpError, json, jsonBody, publicBaseUrl } from "./http.ts";
import { BatchWorkflowNotConfiguredError } from "./sfn.ts";

export async function createBatch(
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  const { config, batches, now } = ctx.services;
  const body = jsonBody(
    event,
    config.batch.maxBodyBytes,
    "a JSON object with manifest (s3://bucket/key.jsonl, a JSON Lines object) or requests (an array)",
  );
  let request: ReturnType<typeof validateBatchRequest>;
  try {
    request = validateBatchRequest(body, { maxConcurrency: config.batch.maxConcurrency });
  } catch (error) {
    if (error instanceof InvalidBatchError) {
      throw new HttpError(400, "invalid_request", error.message, error.problems);
    }
    throw error;
  }
  // Configuration problems surface before anything is created: no batch that can never start.
  if (!config.batch.stateMachineArn) {
    throw new HttpError(500, "server_misconfigured", new BatchWorkflowNotConfiguredError().message);
  }
  const manifest =
    request.manifest !== undefined
      ? await readManifest(request.manifest, ctx)
      : numberInlineRequests(request.requests ?? [], request.lines);
  if (manifest.total === 0) {
    throw invalidManifest("has no line with a request (every line is blank)");
  }
  if (manifest.total > MAX_MANIFEST_LINES) {
    throw invalidManifest(
      `has ${manifest.total} lines with a request; a batch takes at most ${MAX_MANIFEST_LINES}: split the portfolio`,
    );
  }

  const batchId = newBatchId(now());
  const manifestLocation = { bucket: config.artifactsBucket, key: batchManifestKey(batchId) };
  const results = { bucket: config.artifactsBucket, prefix: batchResultsPrefix(batchId) };
  await batches.writeText(manifestLocation, manifestText(manifest), "application/x-ndjson");
  await batches.create({
    batch_id: batchId,
    ...(request.name ? { name: request.name } : {}),
    total: manifest.total,
    line_ranges: manifest.ranges,
    max_concurrency: request.max_concurrency,
    tolerated_failure_percentage: request.tolerated_failure_percentage,
    source: request.manifest ?? "inline",
    manifest: s3Uri(manifestLocation),
    results_prefix: `s3://${results.bucket}/${results.prefix}/`,
  });
  const input: BatchExecutionInput = {
    batch_id: batchId,
    manifest: manifestLocation,
    max_concurrency: request.max_concurrency,
    tolerated_failure_percentage: request.tolerated_failure_percentage,
    results,
  };
  try {
    await ctx.workflow.startBatch(batchId, input);
  } catch (error) {
    const cause = error as { name?: string; message?: string };
    const marked = await batches
      .finish(batchId, {
        status: "FAILED",
        error: {
          error: "StartExecutionFailed",
          cause: `${cause?.name ?? "Error"}: ${cause?.message ?? String(error)}`,
        },
      })
      .then(
        () => true,
        () => false,
      );
    throw startFailure(batchId, cause, marked);
  }
  ctx.logger.info("batch started", {
    batch_id: batchId,
    total: manifest.total,
    source: request.manifest === undefined ? "inline" : "manifest",
    max_concurrency: request.max_concurrency,
  });
  const base = publicBaseUrl(event, config.api.publicApiUrl);
  const started: BatchStarted = {
    batch_id: batchId,
    ...(request.name ? { name: request.name } : {}),
    status: "RUNNING",
    total: manifest.total,
    status_url: `${base}/v1/batches/${batchId}`,
    results_url: `${base}/v1/batches/${batchId}/results`,
  };
  return json(202, started);
}

export async function getBatch(
  batchId: string,
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  const batch = await readBatch(batchId, ctx);
  const base = publicBaseUrl(event, ctx.services.config.api.publicApiUrl);
  return json(200, {
    batch_id: batch.batch_id,
    ...(batch.name ? { name: batch.name } : {}),
    status: batch.status,
    total: batch.total,
    processed: batch.processed,
    counts: batch.counts,
    max_concurrency: batch.max_concurrency,
    tolerated_failure_percentage: batch.tolerated_failure_percentage,
    source: batch.source,
    manifest: batch.manifest,
    ...(batch.error ? { error: batch.error } : {}),
    created_at: batch.created_at,
    updated_at: batch.updated_at,
    ...(batch.finished_at ? { finished_at: batch.finished_at } : {}),
    results: {
      url: `${base}/v1/batches/${batch.batch_id}/results`,
      s3_prefix: batch.results_prefix,
      ...(batch.results_manifest ? { s3_manifest: batch.results_manifest } : {}),
    },
  });
}

export async function getBatchResults(batchId: string, ctx: ApiContext): Promise<APIGatewayProxyResult> {
  const batch = await readBatch(batchId, ctx);
  const stored = new Map((await ctx.services.batches.lines(batchId)).map((item) => [item.line, item]));
  const running = batch.status === "RUNNING";
  const out: string[] = [];
  for (const line of linesOf(batch.line_ranges)) {
    const item = stored.get(line);
    let result: LineResult;
    if (!item) result = { line, status: running ? "PENDING" : "NOT_RUN" };
    else if (item.status === "RUNNING") {
      result = {
        line,
        ...sourceOf(item),
        status: running ? "RUNNING" : "STOPPED",
        ...(item.run_id ? { run_id: item.run_id } : {}),
      };
    } else {
      result = {
        line,
        ...sourceOf(item),
        status: item.status,
        ...(item.run_id ? { run_id: item.run_id } : {}),
        ...(item.verdicts ? { verdicts: item.verdicts } : {}),
        ...(item.error ? { error: item.error } : {}),
      };
    }
    out.push(JSON.stringify(result));
  }
  return {
    statusCode: 200,
    headers: { "content-type": "application/x-ndjson", "cache-control": "no-store" },
    body: out.length ? `${out.join("\n")}\n` : "",
  };
}

/** The line's file and documents, known once the line has started (a line not started yet has neither). */
function sourceOf(item: LineItem): LineSource {
  return {
    ...(item.file ? { file: item.file } : {}),
    ...(item.documents?.length ? { documents: item.documents } : {}),
  };
}

async function readBatch(batchId: string, ctx: ApiContext): Promise<BatchItem> {
  if (!BATCH_ID_PATTERN.test(batchId)) {
    throw new HttpError(400, "invalid_batch_id", "invalid batch id", [
      { field: "batch_id", message: "expected batch-<letters, digits, - or _> (at most 106 characters)" },
    ]);
  }
  try {
    return await ctx.services.batches.get(batchId);
  } catch (error) {
    if (error instanceof BatchNotFoundError) throw new HttpError(404, "batch_not_found", error.message);
    throw error;
  }
}

/** The caller's manifest, read once (inside the document locations the service may read) and numbered. */
async function readManifest(uri: string, ctx: ApiContext): Promise<NumberedManifest> {
  let location: { bucket: string; key: string };
  try {
    location = resolveDocumentPath(uri, ctx.services.documentPolicy);
  } catch (error) {
    if (error instanceof DocumentPathError) throw invalidManifest(error.message, false);
    throw error;
  }
  let text: string;
  try {
    text = await ctx.services.batches.readText(location, MAX_MANIFEST_BYTES);
  } catch (error) {
    const name = (error as Error).name;
    if (error instanceof ObjectTooLargeError) {
      throw invalidManifest(
        `is ${error.size} bytes; a manifest may be at most ${error.limit} bytes: split the portfolio`,
      );
    }
    if (name === "NoSuchKey" || name === "NotFound") throw invalidManifest("does not exist (no such object)");
    // Without s3:ListBucket (the API has none), S3 answers a missing key with AccessDenied.
    if (name === "AccessDenied")
      throw invalidManifest("does not exist, or this service may not read it (AccessDenied)");
    if (error instanceof TypeError) throw invalidManifest("is not UTF-8 text");
    throw error;
  }
  return numberJsonLines(text);
}

function invalidManifest(problem: string, prefixed = true): HttpError {
  const message = prefixed ? `the manifest ${problem}` : problem;
  return new HttpError(400, "invalid_request", `invalid batch: manifest: ${message}`, [
    { field: "manifest", message },
  ]);
}

/** Throttling and outages are worth a retry (503); a refused start is a fault on our side (502). */
function startFailure(
  batchId: string,
  cause: { name?: string; message?: string },
  marked: boolean,
): HttpError {
  const transient = isTransient(cause);
  const outcome = marked ? `batch ${batchId} has been marked FAILED` : `batch ${batchId} was not started`;
  return new HttpError(
    transient ? 503 : 502,
    transient ? "workflow_unavailable" : "workflow_start_failed",
    `the batch workflow could not be started (${cause?.name ?? "Error"}: ${cause?.message ?? String(cause)}); ${outcome}.` +
      (transient ? " Retry the request." : " Retrying will not help until the deployment is fixed."),
    undefined,
    transient ? { "Retry-After": "1" } : {},
  );
}
