// HTTP client of the REST API (docs/api.openapi.yaml) for `rewoo evaluate --api`. Plain fetch: the
// CLI talks to the local twin's gateway or to a deployed API through the same calls.
import { randomUUID } from "node:crypto";
import * as z from "zod";
import type {
  BatchStarted,
  DocumentUpload,
  DocumentUploadRequest,
  EventsPage,
  InputAccepted,
  PlanDecided,
  ResumedRun,
  RunList,
  StartedRun,
} from "../lambdas/contracts/api-types.ts";
import type { RequestProblem } from "../lambdas/core/request.ts";
import type { RunRecord } from "../lambdas/core/types.ts";

/** GET /v1/runs's query parameters (docs/api.openapi.yaml), all optional. */
export interface RunListParams {
  /** Comma-separated run statuses. */
  status?: string;
  loan_program?: string;
  classification?: string;
  /** UTC creation days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  /** A run id or a loan number. */
  q?: string;
  limit?: number;
  cursor?: string;
}

/** An operator's decision on a plan that waits for approval (POST /v1/runs/{run_id}/approval). */
export type PlanDecision =
  | { decision: "approve"; reason?: string }
  | { decision: "reject"; reason?: string }
  | { decision: "edit"; plan: unknown; reason?: string };

/** The body of POST /v1/batches as the CLI sends it: the requests inline, one per batch line. */
export interface BatchSubmission {
  requests: unknown[];
  /** Each request's line in the caller's file (and the file it came from), in the same order. */
  lines?: Array<{ line: number; file?: string }>;
  max_concurrency?: number;
  tolerated_failure_percentage?: number;
  name?: string;
}

const BatchLineError = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/** GET /v1/batches/{batch_id} (docs/api.openapi.yaml BatchRecord), as far as the CLI reads it. */
const BatchRecordAnswer = z.object({
  batch_id: z.string(),
  name: z.string().optional(),
  status: z.enum(["RUNNING", "SUCCEEDED", "FAILED", "ABORTED"]),
  total: z.number().int().nonnegative(),
  processed: z.number().int().nonnegative(),
  counts: z.record(z.string(), z.number().int().nonnegative()),
  max_concurrency: z.number().int().positive(),
  tolerated_failure_percentage: z.number(),
  error: z.object({ error: z.string(), cause: z.string() }).optional(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().optional(),
});
export type BatchRecordView = z.infer<typeof BatchRecordAnswer>;

/** One line of GET /v1/batches/{batch_id}/results (BatchLineResult). */
const BatchLineAnswer = z.object({
  line: z.number().int().positive(),
  file: z.string().optional(),
  documents: z.array(z.string()).optional(),
  status: z.string(),
  run_id: z.string().optional(),
  verdicts: z
    .object({
      fulfilled: z.number().int().nonnegative(),
      not_fulfilled: z.number().int().nonnegative(),
      insufficient_evidence: z.number().int().nonnegative(),
    })
    .optional(),
  error: BatchLineError.optional(),
});
export type BatchLineView = z.infer<typeof BatchLineAnswer>;

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
  resume(runId: string): Promise<ResumedRun> {
    return this.call("POST", `/v1/runs/${encodeURIComponent(runId)}/resume`, {
      headers: { "content-type": "application/json" },
    });
  }

  /** POST /v1/runs/{run_id}/input: the answers to the question of a run in AWAITING_INPUT. */
  answer(runId: string, answers: Record<string, unknown>): Promise<InputAccepted> {
    return this.call("POST", `/v1/runs/${encodeURIComponent(runId)}/input`, {
      body: JSON.stringify({ answers }),
      headers: { "content-type": "application/json" },
    });
  }

  /** POST /v1/runs/{run_id}/approval: approve, reject or edit the plan of a run in AWAITING_APPROVAL. */
  decide(runId: string, decision: PlanDecision): Promise<PlanDecided> {
    return this.call("POST", `/v1/runs/${encodeURIComponent(runId)}/approval`, {
      body: JSON.stringify(decision),
      headers: { "content-type": "application/json" },
    });
  }

  /** GET /v1/runs: runs newest first, filtered, one page (next_cursor → `cursor` for the next). */
  listRuns(params: RunListParams = {}): Promise<RunList> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined) query.set(name, String(value));
    }
    const text = query.toString();
    return this.call("GET", `/v1/runs${text ? `?${text}` : ""}`);
  }

  /**
   * POST /v1/batches. Sent once: the API keeps no idempotency key for batches, so a retry after a
   * lost answer could start the portfolio twice.
   */
  startBatch(submission: BatchSubmission): Promise<BatchStarted> {
    return this.call<BatchStarted>("POST", "/v1/batches", {
      body: JSON.stringify(submission),
      headers: { "content-type": "application/json" },
    });
  }

  /** GET /v1/batches/{batch_id}: status and counts by line status. */
  async getBatch(batchId: string): Promise<BatchRecordView> {
    const path = `/v1/batches/${encodeURIComponent(batchId)}`;
    return checked(BatchRecordAnswer, await this.call<unknown>("GET", path), `GET ${path}`);
  }

  /** GET /v1/batches/{batch_id}/results: one result per batch line (JSON Lines), in line order. */
  async batchResults(batchId: string): Promise<BatchLineView[]> {
    const path = `/v1/batches/${encodeURIComponent(batchId)}/results`;
    const text = await this.call<string>("GET", path, { accept: "application/x-ndjson" });
    return text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line, index) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          throw badResponse(`GET ${path}`, `line ${index + 1} of the answer is not JSON`);
        }
        return checked(BatchLineAnswer, parsed, `GET ${path}: line ${index + 1}`);
      });
  }

  /** POST /v1/documents: where and how to PUT one PDF (a presigned URL), and its s3_pdf_path. */
  createDocumentUpload(request: DocumentUploadRequest): Promise<DocumentUpload> {
    return this.call("POST", "/v1/documents", {
      body: JSON.stringify(request),
      headers: { "content-type": "application/json" },
    });
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
    init: { body?: string; headers?: Record<string, string>; accept?: "application/x-ndjson" } = {},
  ): Promise<T> {
    const url = `${this.baseUrl}${path}`;
    let response: Response;
    try {
      response = await this.fetch(url, {
        method,
        headers: { accept: init.accept ?? "application/json", ...init.headers },
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
    // JSON Lines are read by the caller, line by line; an error answer is JSON all the same.
    if (response.ok && init.accept === "application/x-ndjson") return text as T;
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

/** An answer that is not what docs/api.openapi.yaml says: named by the first field that is not. */
function checked<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.map(String).join(".") : "(body)";
  throw badResponse(what, `${field}: ${issue?.message ?? "unexpected answer"}`);
}

function badResponse(what: string, problem: string): ApiRequestError {
  return new ApiRequestError(`${what}: unexpected answer (${problem})`, 200, "bad_response");
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
