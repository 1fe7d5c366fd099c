// POST /v1/evaluate-conditions (ReWOO) and POST /v1/evaluate-loan-conditions (the legacy endpoint's fixed
// plan: docs/architecture.md, "Where this project comes from"): check the body, honour Idempotency-Key,
// create the run and start its execution, answer 202 with where to follow it.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { checkLoanMetadata } from "../agents/loan/request-catalog.ts";
import { mintToken, type TokenKeyring } from "../auth/tokens.ts";
import type { StartedRun } from "../contracts/api-types.ts";
import { resultObjectLocation } from "../core/destinations.ts";
import {
  InvalidRequestError,
  RequestTooLargeError,
  type ValidatedRequest,
  validateRequest,
} from "../core/request.ts";
import type { RunStatus } from "../core/types.ts";
import { newRunId, StartExecutionError, startRun } from "../runs/start-run.ts";
import { isTransient } from "../runtime/transient.ts";
import type { IdempotencyRecord, RunMode } from "../store/runs.ts";
import type { ApiContext } from "./context.ts";
import { HttpError, json, jsonBody, publicBaseUrl } from "./http.ts";
import { hashKey, IDEMPOTENCY_TTL_SECONDS, idempotencyKeyOf, requestHash } from "./idempotency.ts";
import { makeRoom, sessionRequest } from "./sessions.ts";
import { WorkflowNotConfiguredError } from "./sfn.ts";

/** A claim whose run record has not appeared after this long belongs to a request that died. */
const STALE_CLAIM_MS = 60_000;
/** How long a replay waits for a concurrent first request to create its run record. */
const REPLAY_WAIT_MS = 2_000;

export async function startEvaluation(
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
  mode: RunMode,
): Promise<APIGatewayProxyResult> {
  const { config, runs, sessions, documentPolicy, resultPolicy, publisher } = ctx.services;
  const raw = jsonBody(event, config.api.maxBodyBytes, "a JSON object with metadata and s3_pdf_paths");
  const key = idempotencyKeyOf(event);
  // A follow-up in a session inherits its metadata and documents; the merged request is validated.
  const session = await sessionRequest(raw, ctx);
  const body = session.body;
  let request: ValidatedRequest;
  try {
    request = validateRequest(body, {
      documents: documentPolicy,
      results: resultPolicy,
      metadataProblems: checkLoanMetadata,
    });
  } catch (error) {
    if (error instanceof RequestTooLargeError) {
      throw new HttpError(413, "request_too_large", error.message, error.problems);
    }
    if (error instanceof InvalidRequestError) {
      throw new HttpError(400, "invalid_request", error.message, error.problems);
    }
    throw error;
  }
  // Configuration problems surface before anything is created: no run that can never start.
  if (!config.stateMachineArn) throw new WorkflowNotConfiguredError();
  const keys = await ctx.tokenKeys(["run"]);

  const runId = newRunId(ctx.services.now());
  const claim = key === undefined ? undefined : await claimKey(key, requestHash(mode, raw), runId, ctx);
  if (claim?.replayOf) {
    const { status, session_id } = await runs.getMeta(claim.replayOf);
    return json(202, startedRun(event, ctx, keys, claim.replayOf, status, session_id), {
      "Idempotent-Replay": "true",
    });
  }
  try {
    await refuseTakenDestination(request, runId, ctx);
    await makeRoom(session.session, ctx);
  } catch (error) {
    if (claim) await runs.releaseIdempotencyKey(claim.keyHash, runId);
    throw error;
  }

  try {
    await startRun(
      request,
      { runs, publisher, startExecution: ctx.workflow.start },
      { runId, mode, sessionId: session.session_id },
    );
  } catch (error) {
    // The client will retry; with its key that retry must start a run, not replay this failure.
    if (claim) await runs.releaseIdempotencyKey(claim.keyHash, runId);
    if (error instanceof StartExecutionError) throw startFailure(error);
    throw error;
  }
  await sessions.recordRequest(session.session_id, runId, request as unknown as Record<string, unknown>);
  ctx.logger.info("run started", {
    run_id: runId,
    session_id: session.session_id,
    mode,
    idempotent: key !== undefined,
  });
  return json(202, startedRun(event, ctx, keys, runId, "PLANNING", session.session_id));
}

/**
 * A destination that already holds an object is refused before anything starts: a result never
 * replaces another (Finalize also writes only where no object is, for a key taken meanwhile).
 */
async function refuseTakenDestination(request: ValidatedRequest, runId: string, ctx: ApiContext) {
  const destination = request.output_destination;
  if (destination === undefined) return;
  const { blobs, resultPolicy, documentPolicy } = ctx.services;
  const target = resultObjectLocation(destination, runId, resultPolicy, documentPolicy, request.s3_pdf_paths);
  if (!(await blobs.exists(target))) return;
  const message = `s3://${target.bucket}/${target.key} already holds an object; results are never overwritten: name a new key, or a prefix ending in / (each run writes <prefix><run_id>.json)`;
  throw new HttpError(409, "destination_exists", `output_destination: ${message}`, [
    { field: "output_destination", message },
  ]);
}

/**
 * Claims the key for `runId`, or finds the run an earlier request with the same key and body
 * started. Concurrent requests with one key: the conditional put lets exactly one start a run.
 */
async function claimKey(
  key: string,
  hash: string,
  runId: string,
  ctx: ApiContext,
): Promise<{ keyHash: string; replayOf?: string }> {
  const { runs, now } = ctx.services;
  const keyHash = hashKey(key);
  const at = now();
  const record: IdempotencyRecord = {
    key_hash: keyHash,
    run_id: runId,
    request_hash: hash,
    created_at: at.toISOString(),
    expires_at: Math.floor(at.getTime() / 1000) + IDEMPOTENCY_TTL_SECONDS,
  };
  let result = await runs.claimIdempotencyKey(record);
  if (result.claimed) return { keyHash };
  const existing = result.existing;
  if (existing.request_hash !== hash) {
    throw new HttpError(
      409,
      "idempotency_key_conflict",
      `this Idempotency-Key was already used with a different request (run ${existing.run_id}); use a new key for a new request`,
      [{ field: "Idempotency-Key", message: "already used with a different request body or endpoint" }],
    );
  }
  if (await waitForRunRecord(existing.run_id, ctx)) return { keyHash, replayOf: existing.run_id };
  if (now().getTime() - Date.parse(existing.created_at) > STALE_CLAIM_MS) {
    // The request that claimed the key died before creating its run: this one takes over.
    result = await runs.claimIdempotencyKey(record, { replacing: existing.run_id });
    if (result.claimed) return { keyHash };
  }
  throw new HttpError(
    409,
    "idempotency_key_in_progress",
    "a request with this Idempotency-Key is still being processed; retry shortly",
    undefined,
    { "Retry-After": "1" },
  );
}

async function waitForRunRecord(runId: string, ctx: ApiContext): Promise<boolean> {
  const deadline = Date.now() + REPLAY_WAIT_MS;
  for (;;) {
    try {
      await ctx.services.runs.getMeta(runId);
      return true;
    } catch (error) {
      if ((error as Error).name !== "RunNotFoundError") throw error;
    }
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function startedRun(
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
  keys: TokenKeyring,
  runId: string,
  status: RunStatus,
  sessionId: string | undefined,
): StartedRun {
  const { api } = ctx.services.config;
  const base = publicBaseUrl(event, api.publicApiUrl);
  return {
    run_id: runId,
    ...(sessionId ? { session_id: sessionId } : {}),
    status,
    status_url: `${base}/v1/runs/${runId}`,
    events_url: `${base}/v1/runs/${runId}/events`,
    websocket_url: api.websocketUrl ?? null,
    subscribe_token: mintToken(
      keys,
      { kind: "run", run_id: runId },
      api.subscribeTokenTtlSeconds,
      ctx.services.now(),
    ),
  };
}

/** Throttling and outages are worth a retry (503); a rejected start is a fault on our side (502). */
export function startFailure(error: StartExecutionError): HttpError {
  const cause = error.cause as { name?: string; message?: string };
  const transient = isTransient(cause);
  const outcome = error.markedFailed
    ? `run ${error.runId} has been marked FAILED`
    : `run ${error.runId} was not started`;
  const advice = transient
    ? "Retry the request (with the same Idempotency-Key, if any: it starts exactly one run)."
    : "The API cannot start workflows (state machine or permissions); retrying will not help until that is fixed.";
  return new HttpError(
    transient ? 503 : 502,
    transient ? "workflow_unavailable" : "workflow_start_failed",
    `the workflow could not be started (${cause?.name ?? "Error"}: ${cause?.message ?? String(cause)}); ${outcome}. ${advice}`,
    undefined,
    transient ? { "Retry-After": "1" } : {},
  );
}
