// REST client for docs/api.openapi.yaml: the run record, its stored events, starting and cancelling runs,
// answering a run's question and deciding on its plan, the list of recent runs (optional: older
// API versions answer 404 and the page degrades), and a portfolio batch with its lines' results.
import { apiFetch } from "./auth.js";

export class ApiError extends Error {
  constructor(status, body, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  /** The API's `code` (e.g. "invalid_answer", "not_waiting"), or "" when the body has none. */
  get code() {
    const code = this.body?.error?.code;
    return typeof code === "string" ? code : "";
  }

  /** What a 400 names: `[{field, message}]` (e.g. `answers.borrower_info.monthly_income`). */
  get fields() {
    const fields = this.body?.error?.fields;
    return Array.isArray(fields)
      ? fields
          .filter((f) => f && typeof f.field === "string")
          .map((f) => ({ field: f.field, message: String(f.message ?? "") }))
      : [];
  }
}

export class ApiClient {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
  }

  getRun(runId) {
    return this.#request("GET", `/v1/runs/${encodeURIComponent(runId)}`);
  }

  getEvents(runId, afterSeq) {
    return this.#request("GET", `/v1/runs/${encodeURIComponent(runId)}/events?after_seq=${afterSeq}`);
  }

  /** `null` when the API has no run list (404/405): the caller shows "open a run id" instead. */
  async listRuns(limit = 20) {
    try {
      return await this.#request("GET", `/v1/runs?limit=${limit}`);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return null;
      throw error;
    }
  }

  /**
   * GET /v1/runs filtered and paged (RunList `{runs, next_cursor}`): `query` in the API's names
   * (status, loan_program, classification, from, to, q, limit, cursor); see run-finder.js.
   */
  findRuns(query) {
    return this.#request("GET", `/v1/runs?${new URLSearchParams(query)}`);
  }

  /** getCatalog, or `null` where the API has none (404, 501): the finder falls back to text inputs. */
  async catalogIfBuilt() {
    try {
      return await this.getCatalog();
    } catch (error) {
      if (error instanceof ApiError && [404, 405, 501].includes(error.status)) return null;
      throw error;
    }
  }

  /** POST /v1/runs/{run_id}/resume: a FAILED or INTERRUPTED run continues (409 when it cannot). */
  resume(runId) {
    return this.#request("POST", `/v1/runs/${encodeURIComponent(runId)}/resume`);
  }

  evaluate(request) {
    return this.#request("POST", "/v1/evaluate-conditions", request);
  }

  /** GET /v1/catalog (CatalogView): classifications, their conditions and the metadata fields they read. */
  getCatalog() {
    return this.#request("GET", "/v1/catalog");
  }

  /**
   * POST /v1/documents (DocumentUploadRequest → DocumentUpload): where to PUT one PDF and the headers to
   * send; the PUT itself is uploads.js's.
   */
  createDocumentUpload(request) {
    return this.#request("POST", "/v1/documents", request);
  }

  cancel(runId) {
    return this.#request("POST", `/v1/runs/${encodeURIComponent(runId)}/cancel`);
  }

  /** Answers the question of a run in AWAITING_INPUT: `{"<asked field>": value}`. */
  answer(runId, answers) {
    return this.#request("POST", `/v1/runs/${encodeURIComponent(runId)}/input`, { answers });
  }

  /**
   * Decides on the plan of a run in AWAITING_APPROVAL: `{decision: "approve"}`,
   * `{decision: "reject", reason}` or `{decision: "edit", plan, reason?}`.
   */
  decide(runId, decision) {
    return this.#request("POST", `/v1/runs/${encodeURIComponent(runId)}/approval`, decision);
  }

  /** GET /v1/batches/{batch_id}: status, total, processed, counts by line status. */
  getBatch(batchId) {
    return this.#request("GET", `/v1/batches/${encodeURIComponent(batchId)}`);
  }

  /** GET /v1/batches/{batch_id}/results: the JSON Lines text, one result per line (see batches.js). */
  getBatchResults(batchId) {
    return this.#request("GET", `/v1/batches/${encodeURIComponent(batchId)}/results`, undefined, {
      accept: "application/x-ndjson",
    });
  }

  /** GET /v1/runs/{run_id}/documents: each document of the run with a presigned GET URL (the PDF viewer). */
  getRunDocuments(runId) {
    return this.#request("GET", `/v1/runs/${encodeURIComponent(runId)}/documents`);
  }

  async #request(method, path, body, { accept = "application/json" } = {}) {
    const init = { method, headers: { accept }, cache: "no-store" };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      // apiFetch: signed with the officer's credentials on the deployed site (auth.js), plain otherwise.
      response = await apiFetch(`${this.baseUrl}${path}`, init);
    } catch (error) {
      // fetch rejects only when the server is unreachable (e.g. restarting): status 0.
      throw new ApiError(0, null, `cannot reach the API (${error.message})`);
    }
    const text = await response.text();
    // JSON Lines are the caller's to read line by line; an error answer is JSON all the same.
    if (response.ok && accept !== "application/json") return text;
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { message: text };
    }
    if (!response.ok) throw new ApiError(response.status, parsed, describeError(response.status, parsed));
    return parsed;
  }
}

/** Errors are `{error: {code, message, fields?: [{field, message}]}}`; a 400 names every offending field. */
function describeError(status, body) {
  const error = body?.error;
  if (error && typeof error === "object") {
    const fields = Array.isArray(error.fields) ? error.fields.map((f) => `${f.field}: ${f.message}`) : [];
    return [`${status} ${error.message ?? error.code ?? "request failed"}`, ...fields].join("; ");
  }
  return `${status} ${body?.message ?? (typeof error === "string" ? error : "request failed")}`;
}
