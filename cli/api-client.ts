// HTTP client of the REST API (docs/api.openapi.yaml) for `rewoo evaluate --api`. Plain fetch: the
// CLI talks to the local twin's gateway or to a deployed API through the same calls.
import { randomUUID } from "node:crypto";
import type { EventsPage } from "../lambdas/api/runs.ts";
import type { StartedRun } from "../lambdas/api/start.ts";
import type { RequestProblem } from "../lambdas/core/request.ts";
import type { Approval, Clarification, Plan, Review, RunRecord } from "../lambdas/core/types.ts";
import type { RunSummary } from "../lambdas/store/runs.ts";

/** An operator's decision on a plan that waits for approval (POST /v1/runs/{run_id}/approval). */
export type PlanDecision =
  | { decision: "approve"; reason?: string }
  | { decision: "reject"; reason?: string }
  | { decision: "edit"; plan: unknown; reason?: string };

/** The API answered with an error (its {error: {code, message, fields}} body), or not at all. */
export class ApiRequestError extends Error {
  override name = "ApiRequestError";
  constructor(
    message: string,
    /** HTTP status; undefined when the API could not be reached. */
    readonly status: number | undefined,
    readonly code: string,
    readonly fields: RequestProblem[] = [],
  ) {
    super(message);
  }
}

export interface ApiClientOptions {
  fetch?: typeof fetch;
  /** Per request. */
  timeoutMs?: number;
  /** Attempts of the start request (network errors, 429, 503); the Idempotency-Key keeps them to one run. */
  startAttempts?: number;
  retryDelayMs?: number;
}

export class ApiClient {
  readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly startAttempts: number;
  private readonly retryDelayMs: number;

  constructor(baseUrl: string, options: ApiClientOptions = {}) {
    if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
      throw new ApiRequestError(`--api expects an http(s) URL, got "${baseUrl}"`, undefined, "invalid_url");
    }
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.startAttempts = options.startAttempts ?? 4;
    this.retryDelayMs = options.retryDelayMs ?? 500;
  }

  /**
   * POST /v1/evaluate-conditions. Retries what is worth retrying under one Idempotency-Key, so a
   * response lost on the way back never starts a second run.
   */
  async start(request: unknown, options: { idempotencyKey?: string } = {}): Promise<StartedRun> {
    const key = options.idempotencyKey ?? `rewoo-cli-${randomUUID()}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.call<StartedRun>("POST", "/v1/evaluate-conditions", {
          body: JSON.stringify(request),
          headers: { "content-type": "application/json", "idempotency-key": key },
        });
      } catch (error) {
        const retryable =
          error instanceof ApiRequestError &&
          (error.status === undefined || error.status === 429 || error.status === 503);
        if (!retryable || attempt >= this.startAttempts) throw error;
        await sleep(this.retryDelayMs * 2 ** (attempt - 1));
      }
    }
  }

  /** POST /v1/runs/{run_id}/resume: a FAILED or INTERRUPTED run continues from where it stopped. */
  resume(
    runId: string,
  ): Promise<{ run_id: string; attempt: number; execution_name: string; status: string }> {
    return this.call("POST", `/v1/runs/${encodeURIComponent(runId)}/resume`, {
      headers: { "content-type": "application/json" },
    });
  }

  /** POST /v1/runs/{run_id}/input: the answers to the question of a run in AWAITING_INPUT. */
  answer(
    runId: string,
    answers: Record<string, unknown>,
  ): Promise<{ run_id: string; status: string; clarification: Clarification }> {
    return this.call("POST", `/v1/runs/${encodeURIComponent(runId)}/input`, {
      body: JSON.stringify({ answers }),
      headers: { "content-type": "application/json" },
    });
  }

  /** POST /v1/runs/{run_id}/approval: approve, reject or edit the plan of a run in AWAITING_APPROVAL. */
  decide(
    runId: string,
    decision: PlanDecision,
  ): Promise<{ run_id: string; status: string; approval: Approval; plan?: Plan; plan_review?: Review }> {
    return this.call("POST", `/v1/runs/${encodeURIComponent(runId)}/approval`, {
      body: JSON.stringify(decision),
      headers: { "content-type": "application/json" },
    });
  }

  /** GET /v1/runs: the most recent runs, newest first. */
  listRuns(limit: number): Promise<{ runs: RunSummary[] }> {
    return this.call("GET", `/v1/runs?limit=${limit}`);
  }

  getRun(runId: string): Promise<RunRecord> {
    return this.call<RunRecord>("GET", `/v1/runs/${encodeURIComponent(runId)}`);
  }

  events(runId: string, afterSeq: number): Promise<EventsPage> {
    return this.call<EventsPage>("GET", `/v1/runs/${encodeURIComponent(runId)}/events?after_seq=${afterSeq}`);
  }

  private async call<T>(
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string> } = {},
  ): Promise<T> {
    const url = `${this.baseUrl}${path}`;
    let response: Response;
    try {
      response = await this.fetch(url, {
        method,
        headers: { accept: "application/json", ...init.headers },
        body: init.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new ApiRequestError(`cannot reach ${url}: ${cause}`, undefined, "unreachable");
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const error = (body as { error?: { code?: string; message?: string; fields?: RequestProblem[] } })
        ?.error;
      throw new ApiRequestError(
        `${method} ${path}: ${response.status} ${error?.message ?? (text.slice(0, 200) || response.statusText)}`,
        response.status,
        error?.code ?? `http_${response.status}`,
        error?.fields ?? [],
      );
    }
    if (body === undefined) {
      throw new ApiRequestError(`${method} ${path}: the answer is not JSON`, response.status, "bad_response");
    }
    return body as T;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
