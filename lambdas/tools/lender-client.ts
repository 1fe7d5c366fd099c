// Clients for the lender's own PreConditions and Conditions AI services (docs/lender-services.md,
// contract in docs/lender-services.openapi.yaml). They return exactly what the reference engines
// return, so the planner, the solver and stored evidence do not depend on which one ran.

import * as z from "zod";
import { findCondition } from "../agents/loan/catalog.ts";
import type { ConditionInput, ConditionsResult, Verdict } from "../agents/loan/conditions-engine.ts";
import type { PreconditionsResult } from "../agents/loan/preconditions.ts";
import { fromJsDate, isoDate, parseIsoOrUsDate } from "../agents/loan/text.ts";
import { abortableSleep } from "../core/abortable-sleep.ts";
import { lazily } from "../core/lazy.ts";
import { scrubSensitiveText } from "../core/redaction.ts";
import { MAX_QUOTED_REASON_CHARS } from "../core/sensitive-data.ts";
import { secretReader } from "../secrets/reader.ts";

export const DEFAULT_LENDER_TIMEOUT_MS = 10_000;
export const DEFAULT_LENDER_MAX_ATTEMPTS = 4;
export const DEFAULT_LENDER_BASE_DELAY_MS = 200;
/** Caps both the backoff and a server's Retry-After: the tool's own timeout bounds the whole call. */
export const DEFAULT_LENDER_MAX_DELAY_MS = 10_000;

export interface LenderServiceClientOptions {
  /** Named in every error ("PreConditions", "Conditions AI"); defaults to the URL's host. */
  service?: string;
  baseUrl: string;
  /** Sent as a bearer token (or read from a secret on first use). Never included in errors or logs. */
  token?: string | (() => Promise<string>);
  /** Per attempt, including reading the response body. */
  timeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  fetch?: typeof fetch;
  /** Injected by tests so retries do not wait; the default one stops waiting when the caller aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export class LenderServiceError extends Error {
  override name = "LenderServiceError";
  constructor(
    message: string,
    readonly service: string,
    /** The last HTTP status, or undefined when no response arrived (network error, timeout). */
    readonly status: number | undefined,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

type Attempt =
  | { kind: "response"; status: number; raw: string; contentType: string; retryAfterMs?: number }
  | { kind: "failure"; detail: string; cause: unknown };

export class LenderServiceClient {
  readonly service: string;
  private readonly baseUrl: string;
  private readonly token?: string | (() => Promise<string>);
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;

  constructor(options: LenderServiceClientOptions) {
    const parsed = new URL(options.baseUrl);
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.service = options.service ?? parsed.host;
    this.token = options.token || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_LENDER_TIMEOUT_MS;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_LENDER_MAX_ATTEMPTS);
    this.baseDelayMs = options.baseDelayMs ?? DEFAULT_LENDER_BASE_DELAY_MS;
    this.maxDelayMs = options.maxDelayMs ?? DEFAULT_LENDER_MAX_DELAY_MS;
    // Resolved per call when not injected, so a test (or polyfill) replacing globalThis.fetch is honoured.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.sleep = options.sleep ?? abortableSleep;
    this.random = options.random ?? Math.random;
  }

  async post<T>(path: string, body: unknown, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
    const url = `${this.baseUrl}/${path.replace(/^\/+/, "")}`;
    // Errors name the path, not the full URL: hosts and query strings of a lender's endpoints
    // end up in evidence and run results that loan officers read.
    const where = `${this.service} POST ${new URL(url).pathname}`;
    const payload = JSON.stringify(body);
    let last: Attempt | undefined;

    for (let attempt = 1; attempt <= this.maxAttempts; attempt += 1) {
      if (attempt > 1) {
        await this.sleep(this.delayMs(attempt - 1, last), signal);
        this.throwIfCancelled(signal, where, last, attempt - 1);
      }
      last = await this.attempt(url, payload, signal);
      this.throwIfCancelled(signal, where, last, attempt);

      if (last.kind === "response") {
        if (last.status >= 200 && last.status < 300) {
          return this.parse(last.raw, last.contentType, schema, attempt);
        }
        if (!retryable(last.status)) {
          throw new LenderServiceError(
            `${where} failed with HTTP ${last.status}: ${errorReason(last.raw, last.contentType)}`,
            this.service,
            last.status,
            attempt,
          );
        }
      }
    }

    const outcome =
      last?.kind === "response"
        ? `last response HTTP ${last.status}: ${errorReason(last.raw, last.contentType)}`
        : `last error: ${last?.detail ?? "none"}`;
    throw new LenderServiceError(
      `${where} failed after ${this.maxAttempts} attempt${this.maxAttempts === 1 ? "" : "s"}; ${outcome}`,
      this.service,
      last?.kind === "response" ? last.status : undefined,
      this.maxAttempts,
      last?.kind === "failure" ? { cause: last.cause } : undefined,
    );
  }

  private async attempt(url: string, payload: string, signal: AbortSignal | undefined): Promise<Attempt> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const token = typeof this.token === "function" ? await this.token() : this.token;
      const response = await this.fetchImpl(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: payload,
        signal: combined,
      });
      const raw = await response.text();
      const retryAfterMs =
        response.status === 429 || response.status === 503
          ? parseRetryAfter(response.headers.get("retry-after"))
          : undefined;
      return {
        kind: "response",
        status: response.status,
        raw,
        contentType: response.headers.get("content-type") ?? "",
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    } catch (error) {
      if (timeout.aborted && !signal?.aborted) {
        return { kind: "failure", detail: `timed out after ${this.timeoutMs} ms`, cause: error };
      }
      return { kind: "failure", detail: networkDetail(error), cause: error };
    }
  }

  private throwIfCancelled(
    signal: AbortSignal | undefined,
    where: string,
    last: Attempt | undefined,
    attempts: number,
  ): void {
    if (!signal?.aborted) return;
    throw new LenderServiceError(
      `${where} was cancelled after ${attempts} attempt${attempts === 1 ? "" : "s"} (the tool's time budget ran out or the run stopped)`,
      this.service,
      last?.kind === "response" ? last.status : undefined,
      attempts,
      { cause: signal.reason },
    );
  }

  /** Full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"), unless the server said when. */
  private delayMs(retry: number, last: Attempt | undefined): number {
    if (last?.kind === "response" && last.retryAfterMs !== undefined) {
      return Math.min(last.retryAfterMs, this.maxDelayMs);
    }
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (retry - 1));
    return Math.floor(this.random() * ceiling);
  }

  private parse<T>(raw: string, contentType: string, schema: z.ZodType<T>, attempts: number): T {
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      throw new LenderServiceError(
        `${this.service} response is not JSON: ${describeBody(raw, contentType)}`,
        this.service,
        200,
        attempts,
      );
    }
    const result = schema.safeParse(data);
    if (result.success) return result.data;
    const [first, ...rest] = result.error.issues;
    const problem = first
      ? `${formatPath(first.path)}: ${quoteReason(first.message.replace(/^Invalid input: /, ""))}`
      : "invalid";
    throw new LenderServiceError(
      `${this.service} response: ${problem}${rest.length ? ` (and ${rest.length} more issue${rest.length === 1 ? "" : "s"})` : ""}`,
      this.service,
      200,
      attempts,
    );
  }
}

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Seconds or an HTTP date; anything else is ignored and the backoff applies. */
function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function networkDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND…) in `cause`.
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const reason =
    typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : "";
  return reason ? `${error.message} (${reason})` : error.message;
}

/**
 * Why the service refused, for an error that becomes evidence a loan officer reads and that is
 * logged: the body's own message (`{"message"}`, `{"error"}`, `{"error": {"message"}}`,
 * `{"detail"}`), scrubbed and short, never the body itself. A lender's error body may echo the
 * borrower's data it was sent (names, SSN, account numbers).
 */
function errorReason(raw: string, contentType: string): string {
  const text = raw.trim();
  if (text === "") return "(empty body)";
  try {
    const body = JSON.parse(text) as Record<string, unknown> | null;
    if (body && typeof body === "object") {
      const nested = body.error as { message?: unknown } | undefined;
      for (const candidate of [body.message, body.error, nested?.message, body.detail]) {
        if (typeof candidate === "string" && candidate.trim() !== "") return quoteReason(candidate);
      }
    }
  } catch {
    // Not JSON (proxies and gateways answer in HTML or plain text): described, not quoted.
  }
  return describeBody(text, contentType);
}

/** What a body was, without its content; an HTML page's title says which gateway or proxy answered. */
function describeBody(raw: string, contentType: string): string {
  const text = raw.trim();
  if (text === "") return "(empty body)";
  const size = `${Buffer.byteLength(text)} bytes`;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  if (title) return `an HTML page titled "${quoteReason(title)}" (${size})`;
  if (/^\s*<(?:!doctype html|html)/i.test(text)) return `an HTML page (${size}, not shown)`;
  if (/^[[{]/.test(text)) return `a JSON body without a message (${size}, not shown)`;
  const type = contentType.split(";")[0]?.trim() || "unknown content type";
  return `a ${type} body (${size}, not shown)`;
}

function quoteReason(text: string): string {
  return scrubSensitiveText(text.replace(/\s+/g, " ").trim(), { maxLength: MAX_QUOTED_REASON_CHARS });
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out || "(body)";
}

// ---------------------------------------------------------------------------------------------
// PreConditions: POST /v1/preconditions {metadata}

/**
 * A PreConditions answer's schema, built at the first answer read (lambdas/core/lazy.ts): a deployment
 * without the lender's services never reads one.
 */
export const preconditionsResponseSchema = /* @__PURE__ */ lazily(() => {
  const Priority = z.union([z.enum(["high", "medium", "low"]), z.literal(1), z.literal(2), z.literal(3)]);

  return z.object({
    loan_program: z.string().nullish(),
    classification: z.string().min(1),
    as_of_date: z.string().optional(),
    conditions: z.array(
      z.object({
        id: z.string().min(1),
        title: z.string(),
        compartment: z.string(),
        priority: Priority,
        reason: z.string(),
        verifiable: z.boolean().optional(),
        expected: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
  });
});

export type PreconditionsCall = (
  metadata: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<PreconditionsResult>;

export function createPreconditionsHttp(
  client: LenderServiceClient,
  options: { now?: () => Date } = {},
): PreconditionsCall {
  const now = options.now ?? (() => new Date());
  return async (metadata, signal) => {
    const response = await client.post(
      "/v1/preconditions",
      { metadata },
      preconditionsResponseSchema(),
      signal,
    );
    // The solver reports the as-of date; when the service leaves it out, it is the one the
    // reference engine would have used (metadata's, else today).
    const asOf =
      (response.as_of_date ? parseIsoOrUsDate(response.as_of_date) : null) ??
      parseIsoOrUsDate(metadata.as_of_date) ??
      fromJsDate(now());
    return {
      loan_program: response.loan_program ?? null,
      classification: response.classification,
      as_of_date: isoDate(asOf),
      conditions: response.conditions.map((condition) => ({
        id: condition.id,
        title: condition.title,
        compartment: condition.compartment,
        priority: condition.priority,
        reason: condition.reason,
        verifiable: condition.verifiable ?? true,
        expected: condition.expected ?? {},
      })),
    };
  };
}

// ---------------------------------------------------------------------------------------------
// Conditions AI: POST /v1/evaluations {conditions, documents: [{path, uri}]}

/** A Conditions AI answer's schema, built at the first answer read, as the one above. */
export const evaluationsResponseSchema = /* @__PURE__ */ lazily(() => {
  const CitationSchema = z.object({
    document: z.string().min(1),
    page: z.number().int().min(1),
    excerpt: z.string(),
    /** A lender's service that OCRs scans marks those citations like the reference engine does. */
    source: z.literal("ocr").optional(),
    confidence: z.number().min(0).max(100).optional(),
  });

  return z.object({
    verdicts: z.array(
      z.object({
        condition_id: z.string().min(1),
        title: z.string().optional(),
        compartment: z.string().optional(),
        status: z.enum(["fulfilled", "not_fulfilled", "insufficient_evidence"]),
        reason: z.string(),
        citations: z.array(CitationSchema).default([]),
        letters_of_explanation: z
          .array(
            z.object({
              document: z.string(),
              page: z.number().int().min(1),
              date: z.string().nullable(),
              amount: z.number(),
              description: z.string(),
              excerpt: z.string(),
              reason: z.string(),
            }),
          )
          .optional(),
        observed: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
  });
});

export interface DocumentRef {
  /** As the plan named it: citations are reported against it, like the reference engine does. */
  path: string;
  /** The resolved s3:// URI the lender's service reads. */
  uri: string;
}

export type ConditionsAiCall = (
  conditions: ReadonlyArray<ConditionInput>,
  documents: ReadonlyArray<DocumentRef>,
  signal?: AbortSignal,
) => Promise<ConditionsResult>;

export function createConditionsAiHttp(client: LenderServiceClient): ConditionsAiCall {
  return async (conditions, documents, signal) => {
    const response = await client.post(
      "/v1/evaluations",
      { conditions, documents: documents.map(({ path, uri }) => ({ path, uri })) },
      evaluationsResponseSchema(),
      signal,
    );
    const pathOf = new Map(documents.map((document) => [document.uri, document.path]));
    const requested = conditions.map(describeInput).filter((entry) => entry.id !== "");
    const byId = new Map(requested.map((entry) => [entry.id, entry]));

    const verdicts: Verdict[] = response.verdicts.map((verdict) => {
      const id = verdict.condition_id.trim().toUpperCase();
      const input = byId.get(id);
      const catalog = findCondition(id);
      const citations = verdict.citations.map((citation) => ({
        ...citation,
        document: pathOf.get(citation.document) ?? citation.document,
      }));
      // The same rule as the reference engine: a decision must rest on a cited page.
      const uncited = verdict.status !== "insufficient_evidence" && citations.length === 0;
      return {
        condition_id: id,
        title: verdict.title ?? input?.title ?? catalog?.title ?? id,
        compartment: verdict.compartment ?? input?.compartment ?? catalog?.compartment ?? "Unknown",
        status: uncited ? "insufficient_evidence" : verdict.status,
        reason: uncited ? `${verdict.reason} (no citation from ${client.service})` : verdict.reason,
        citations,
        ...(verdict.letters_of_explanation
          ? {
              letters_of_explanation: verdict.letters_of_explanation.map((letter) => ({
                ...letter,
                document: pathOf.get(letter.document) ?? letter.document,
              })),
            }
          : {}),
        ...(verdict.observed ? { observed: verdict.observed } : {}),
      };
    });

    // One verdict per requested condition, as the reference engine guarantees.
    const answered = new Set(verdicts.map((verdict) => verdict.condition_id));
    for (const entry of requested) {
      if (answered.has(entry.id)) continue;
      answered.add(entry.id);
      const catalog = findCondition(entry.id);
      verdicts.push({
        condition_id: entry.id,
        title: entry.title ?? catalog?.title ?? entry.id,
        compartment: entry.compartment ?? catalog?.compartment ?? "Unknown",
        status: "insufficient_evidence",
        reason: `${client.service} returned no verdict for ${entry.id}`,
        citations: [],
      });
    }
    return { verdicts };
  };
}

function describeInput(input: ConditionInput): { id: string; title?: string; compartment?: string } {
  if (typeof input === "string") return { id: input.trim().toUpperCase() };
  if (input === null || typeof input !== "object") return { id: "" };
  return {
    id: (input.id ?? input.condition_id ?? "").trim().toUpperCase(),
    ...(typeof input.title === "string" ? { title: input.title } : {}),
    ...(typeof input.compartment === "string" ? { compartment: input.compartment } : {}),
  };
}

// ---------------------------------------------------------------------------------------------

export interface LenderSettings {
  preconditionsUrl?: string | undefined;
  conditionsAiUrl?: string | undefined;
  token?: string | undefined;
  /** In AWS the token lives in Secrets Manager; it is read on first use and reused for an hour. */
  tokenSecretArn?: string | undefined;
  timeoutMs: number;
}

export interface LenderCalls {
  preconditions?: PreconditionsCall;
  conditionsAi?: ConditionsAiCall;
}

/** The HTTP calls for the services whose URL is configured; the others stay on the reference engines. */
export function createLenderCalls(
  settings: LenderSettings,
  options: Omit<LenderServiceClientOptions, "baseUrl" | "service" | "token" | "timeoutMs"> & {
    now?: () => Date;
    region?: string;
  } = {},
): LenderCalls | undefined {
  const { now, region, ...clientOptions } = options;
  const token =
    settings.token ||
    (settings.tokenSecretArn
      ? secretReader({
          secretId: settings.tokenSecretArn,
          region: region ?? "us-east-1",
          what: "the lender API token",
        })
      : undefined);
  const client = (service: string, baseUrl: string) =>
    new LenderServiceClient({
      ...clientOptions,
      service,
      baseUrl,
      timeoutMs: settings.timeoutMs,
      ...(token ? { token } : {}),
    });
  const calls: LenderCalls = {};
  if (settings.preconditionsUrl) {
    calls.preconditions = createPreconditionsHttp(
      client("PreConditions", settings.preconditionsUrl),
      now ? { now } : {},
    );
  }
  if (settings.conditionsAiUrl) {
    calls.conditionsAi = createConditionsAiHttp(client("Conditions AI", settings.conditionsAiUrl));
  }
  return calls.preconditions || calls.conditionsAi ? calls : undefined;
}
