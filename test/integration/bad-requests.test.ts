// Hostile and malformed requests against the REST API of a running twin (over HTTP, through its
// gateway, as a loan system or an attacker reaches it): each one gets a 4xx that names the field,
// and none of them creates a run. Also: the largest request the API accepts runs to SUCCEEDED, and
// Finalize refuses to write a result over a document even when a run record bypassed the API.
import { Logger } from "@aws-lambda-powertools/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { MAX_JSON_DEPTH } from "../../lambdas/core/request.ts";
import {
  MAX_METADATA_DEPTH,
  REQUEST_STORAGE_BUDGET_BYTES,
  requestFootprint,
} from "../../lambdas/core/request-budget.ts";
import { finalizeRun } from "../../lambdas/finalize/finalize-run.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

const MAX_BODY_BYTES = 256 * 1024; // REWOO_MAX_BODY_BYTES's default
let twin: Twin;
let documentsBucket: string;
let artifactsBucket: string;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  documentsBucket = twin.services.config.documentsBucket;
  artifactsBucket = twin.services.config.artifactsBucket;
});

afterAll(async () => {
  await twin?.stop();
});

const JSON_TYPE = { "content-type": "application/json" };

async function post(path: string, body: string, headers: Record<string, string> = JSON_TYPE) {
  // Bytes, not a string: fetch would add `text/plain;charset=UTF-8` to a string without a type.
  const bytes = new TextEncoder().encode(body);
  const response = await fetch(new URL(path, twin.urls.api), { method: "POST", headers, body: bytes });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function runIds(): Promise<string[]> {
  const response = await fetch(new URL("/v1/runs?limit=100", twin.urls.api));
  expect(response.status).toBe(200);
  const { runs } = (await response.json()) as { runs: Array<{ run_id: string }> };
  return runs.map((run) => run.run_id).sort();
}

const valid = (extra: Record<string, unknown> = {}) =>
  taxReturnRequest(["rm-conditions/1120-signed.pdf"], extra);
const withField = (field: string, value: unknown) => JSON.stringify({ ...valid(), [field]: value });
const withMetadata = (metadata: Record<string, unknown>) =>
  JSON.stringify({ ...valid(), metadata: { ...valid().metadata, ...metadata } });

function nested(levels: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** Metadata padding that makes the request's stored footprint exactly `bytes` over the budget. */
function paddingFor(overBudget: number): string {
  const base = requestFootprint(valid({ metadata: { ...valid().metadata, notes: "" } })).total;
  // notes is stored twice (the request and the plan's copy): each character counts 2 bytes.
  return "n".repeat(Math.floor((REQUEST_STORAGE_BUDGET_BYTES - base) / 2) + overBudget);
}

interface BadInput {
  name: string;
  body: () => string;
  headers?: Record<string, string>;
  status: number;
  code: string;
  field: string;
  message: RegExp;
}

const BAD_INPUTS: BadInput[] = [
  {
    name: "text/plain body (what a cross-site form can send)",
    body: () => JSON.stringify(valid()),
    headers: { "content-type": "text/plain" },
    status: 415,
    code: "unsupported_media_type",
    field: "Content-Type",
    message: /expected application\/json, got "text\/plain"/,
  },
  {
    name: "urlencoded body (curl -d without -H)",
    body: () => JSON.stringify(valid()),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    status: 415,
    code: "unsupported_media_type",
    field: "Content-Type",
    message: /expected application\/json/,
  },
  {
    name: "no Content-Type at all",
    body: () => JSON.stringify(valid()),
    headers: {},
    status: 415,
    code: "unsupported_media_type",
    field: "Content-Type",
    message: /missing/,
  },
  {
    name: "a charset that is not UTF-8",
    body: () => JSON.stringify(valid()),
    headers: { "content-type": "application/json; charset=iso-8859-1" },
    status: 415,
    code: "unsupported_media_type",
    field: "Content-Type",
    message: /charset=utf-8/,
  },
  {
    name: "malformed JSON",
    body: () => '{"metadata": {',
    status: 400,
    code: "invalid_json",
    field: "(body)",
    message: /malformed JSON/,
  },
  {
    name: "nested 100,000 levels deep",
    // Written as text (JSON.stringify cannot serialize a value this deep), arrays to stay in 256 KiB.
    body: () =>
      withMetadata({ notes: "DEEP" }).replace('"DEEP"', `${"[".repeat(100_000)}${"]".repeat(100_000)}`),
    status: 400,
    code: "invalid_request",
    field: `metadata.notes${"[0]".repeat(MAX_JSON_DEPTH - 2)}`,
    message: /nest at most 32 levels/,
  },
  {
    name: "metadata nested deeper than its copy in the plan can be stored",
    body: () =>
      JSON.stringify({
        ...valid(),
        metadata: { ...valid().metadata, ...(nested(MAX_METADATA_DEPTH + 1) as object) },
      }),
    status: 400,
    code: "invalid_request",
    field: `metadata${".a".repeat(MAX_METADATA_DEPTH)}`,
    message: /at most 27: the run stores a copy of metadata inside its plan/,
  },
  {
    name: "body above REWOO_MAX_BODY_BYTES",
    body: () => withMetadata({ notes: "x".repeat(MAX_BODY_BYTES) }),
    status: 413,
    code: "payload_too_large",
    field: "(body)",
    message: /the limit is 262144 bytes/,
  },
  {
    name: "metadata that fits the body limit but not the run record",
    body: () => withMetadata({ notes: paddingFor(1) }),
    status: 413,
    code: "request_too_large",
    field: "metadata",
    message: /at most 278528 bytes for its request .* make metadata smaller/,
  },
  {
    name: "unknown top-level field",
    body: () => withField("callback_url", "https://attacker.example/"),
    status: 400,
    code: "invalid_request",
    field: "callback_url",
    message: /unknown field/,
  },
  {
    name: "NUL in a document key",
    body: () => withField("s3_pdf_paths", ["rm-conditions/1120-signed.pdf\u0000.txt"]),
    status: 400,
    code: "invalid_request",
    field: "s3_pdf_paths[0]",
    message: /control character U\+0000/,
  },
  {
    name: "newline in a document key",
    body: () => withField("s3_pdf_paths", ["rm-conditions/a\nb.pdf"]),
    status: 400,
    code: "invalid_request",
    field: "s3_pdf_paths[0]",
    message: /control character U\+000A/,
  },
  {
    name: "1,025-byte document key",
    body: () =>
      withField("s3_pdf_paths", ["rm-conditions/1120-signed.pdf", `rm-conditions/${"k".repeat(1011)}`]),
    status: 400,
    code: "invalid_request",
    field: "s3_pdf_paths[1]",
    message: /1025 bytes of UTF-8; S3 keys are at most 1024 bytes/,
  },
  {
    name: "unpaired surrogate in a document key",
    body: () => withField("s3_pdf_paths", ["rm-conditions/a\ud800.pdf"]),
    status: 400,
    code: "invalid_request",
    field: "s3_pdf_paths[0]",
    message: /unpaired UTF-16 surrogate/,
  },
  {
    name: "s3:// URI of another bucket for a document",
    body: () => withField("s3_pdf_paths", ["s3://someone-elses-bucket/1120.pdf"]),
    status: 400,
    code: "invalid_request",
    field: "s3_pdf_paths[0]",
    message: /outside the allowed document locations/,
  },
  {
    name: "empty document list",
    body: () => withField("s3_pdf_paths", []),
    status: 400,
    code: "invalid_request",
    field: "s3_pdf_paths",
    message: /at least one document path/,
  },
  {
    name: "blank document path",
    body: () => withField("s3_pdf_paths", ["   "]),
    status: 400,
    code: "invalid_request",
    field: "s3_pdf_paths[0]",
    message: /non-empty document path/,
  },
  {
    name: "destination in the documents bucket",
    body: () => withField("output_destination", `s3://${documentsBucket}/results/`),
    status: 400,
    code: "invalid_request",
    field: "output_destination",
    message: /inside the document location .* results are never written where documents are read/,
  },
  {
    name: "destination equal to a document of the request",
    body: () => withField("output_destination", `s3://${documentsBucket}/rm-conditions/1120-signed.pdf`),
    status: 400,
    code: "invalid_request",
    field: "output_destination",
    message: /one of this request's documents/,
  },
  {
    name: "destination in a bucket nobody configured",
    body: () => withField("output_destination", "s3://bucket-that-does-not-exist/results/"),
    status: 400,
    code: "invalid_request",
    field: "output_destination",
    message: /outside the allowed result locations \(s3:\/\/rewoo-artifacts\/results\/\)/,
  },
  {
    name: "destination over the run evidence in the artifacts bucket",
    body: () => withField("output_destination", `s3://${artifactsBucket}/runs/`),
    status: 400,
    code: "invalid_request",
    field: "output_destination",
    message: /outside the allowed result locations/,
  },
  {
    name: "destination escaping results/ with ..",
    body: () => withField("output_destination", `s3://${artifactsBucket}/results/../runs/x.json`),
    status: 400,
    code: "invalid_request",
    field: "output_destination",
    message: /"\.\." segments/,
  },
  {
    name: "NUL in the destination",
    body: () => withField("output_destination", `s3://${artifactsBucket}/results/a\u0000.json`),
    status: 400,
    code: "invalid_request",
    field: "output_destination",
    message: /control character U\+0000/,
  },
  {
    name: "destination prefix with no room left for <run_id>.json",
    body: () => withField("output_destination", `s3://${artifactsBucket}/results/${"p".repeat(900)}/`),
    status: 400,
    code: "invalid_request",
    field: "output_destination",
    message: /a prefix keeps 128 bytes for <run_id>\.json/,
  },
  {
    name: "destination that is not s3://",
    body: () => withField("output_destination", "https://attacker.example/collect"),
    status: 400,
    code: "invalid_request",
    field: "output_destination",
    message: /expected s3:\/\/bucket\/prefix\/ or s3:\/\/bucket\/key\.json/,
  },
  {
    name: "a classification the catalog does not know (a personal return)",
    body: () => withMetadata({ classification: "1040 Personal Tax Return" }),
    status: 400,
    code: "invalid_request",
    field: "metadata.classification",
    message:
      /^unknown classification "1040 Personal Tax Return": expected one of "1120 Corporate Tax Return", "Bank Statements"/,
  },
  {
    name: "a classification the catalog does not know (pay stubs)",
    body: () => withMetadata({ classification: "Pay Stubs" }),
    status: 400,
    code: "invalid_request",
    field: "metadata.classification",
    message:
      /^unknown classification "Pay Stubs": expected one of "1120 Corporate Tax Return", "Bank Statements"/,
  },
  {
    name: "an as-of date that is no day of the calendar",
    body: () => withMetadata({ as_of_date: "2025-13-45" }),
    status: 400,
    code: "invalid_request",
    field: "metadata.as_of_date",
    message: /^expected a date, YYYY-MM-DD, e\.g\. 2025-04-15$/,
  },
  {
    name: "an empty loan program",
    body: () => withMetadata({ loan_program: "" }),
    status: 400,
    code: "invalid_request",
    field: "metadata.loan_program",
    message: /^required: the loan program/,
  },
  {
    name: "a negative monthly income",
    body: () => withMetadata({ borrower_info: { ...valid().metadata.borrower_info, monthly_income: -8000 } }),
    status: 400,
    code: "invalid_request",
    field: "metadata.borrower_info.monthly_income",
    message: /^expected a positive amount in US dollars/,
  },
  {
    name: "an infinite monthly income (1e999)",
    body: () =>
      withMetadata({ borrower_info: { ...valid().metadata.borrower_info, monthly_income: 0 } }).replace(
        '"monthly_income":0',
        '"monthly_income":1e999',
      ),
    status: 400,
    code: "invalid_request",
    field: "metadata.borrower_info.monthly_income",
    message: /^expected a positive amount in US dollars/,
  },
  {
    name: "JSON array instead of an object",
    body: () => "[]",
    status: 400,
    code: "invalid_request",
    field: "(body)",
    message: /expected object/,
  },
];

describe("bad requests over the REST API of the twin", () => {
  const answered: string[] = [];

  it(`has at least 20 distinct bad inputs (${BAD_INPUTS.length})`, () => {
    expect(new Set(BAD_INPUTS.map((input) => input.name)).size).toBe(BAD_INPUTS.length);
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(20);
  });

  it.each(BAD_INPUTS)("$name → $status naming $field, no run", async (input) => {
    const before = await runIds();
    for (const path of ["/v1/evaluate-conditions", "/v1/evaluate-loan-conditions"]) {
      const result = await post(path, input.body(), input.headers);
      expect(result.status, `${path}: ${JSON.stringify(result.body)?.slice(0, 300)}`).toBe(input.status);
      expect(result.body.error.code).toBe(input.code);
      expect(result.body.error.fields).toEqual([
        { field: input.field, message: expect.stringMatching(input.message) },
      ]);
    }
    expect(await runIds()).toEqual(before);
    answered.push(input.name);
  });

  it("answered every bad input with a clear 4xx", () => {
    expect(answered.length).toBe(BAD_INPUTS.length);
  });

  it("names every problem of a request in one 400: options, documents, destination and metadata", async () => {
    const before = await runIds();
    const body = JSON.stringify({
      ...valid(),
      metadata: {
        ...valid().metadata,
        loan_program: "",
        classification: "Pay Stubs",
        as_of_date: "2025-02-30",
        borrower_info: { ...valid().metadata.borrower_info, monthly_income: -1 },
      },
      s3_pdf_paths: ["s3://someone-elses-bucket/1120.pdf", "rm-conditions/1120-signed.pdf"],
      output_destination: "s3://bucket-that-does-not-exist/results/",
      options: { max_steps: 0, approval: "maybe" },
    });
    for (const path of ["/v1/evaluate-conditions", "/v1/evaluate-loan-conditions"]) {
      const result = await post(path, body);
      expect(result.status, JSON.stringify(result.body)).toBe(400);
      expect(result.body.error.code).toBe("invalid_request");
      const fields = result.body.error.fields as Array<{ field: string; message: string }>;
      expect(fields.map((problem) => problem.field).sort()).toEqual(
        [
          "metadata.as_of_date",
          "metadata.borrower_info.monthly_income",
          "metadata.classification",
          "metadata.loan_program",
          "options.approval",
          "options.max_steps",
          "output_destination",
          "s3_pdf_paths[0]",
        ].sort(),
      );
      for (const { field, message } of fields)
        expect(result.body.error.message).toContain(`${field}: ${message}`);
    }
    expect(await runIds()).toEqual(before);
  });
});

describe("the limits are what a run can really store", () => {
  it("runs the largest request the API accepts to SUCCEEDED", async () => {
    const largest = withMetadata({ notes: paddingFor(0) });
    expect(Buffer.byteLength(largest)).toBeLessThan(MAX_BODY_BYTES);
    const started = await post("/v1/evaluate-conditions", largest);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const run = await twin.waitForRun(started.body.run_id);
    expect(run.status, JSON.stringify(run.error)).toBe("SUCCEEDED");
    // The plan did copy the metadata: that copy is what the budget is for.
    const preconditions = run.plan?.steps.find((step) => step.tool === "call_preconditions_api");
    const copied = preconditions?.args.metadata as { notes?: string } | undefined;
    expect(copied?.notes?.length).toBe(paddingFor(0).length);
  });

  it("runs the deepest metadata the API accepts to SUCCEEDED", async () => {
    const started = await post(
      "/v1/evaluate-conditions",
      JSON.stringify({ ...valid(), metadata: { ...valid().metadata, deep: nested(MAX_METADATA_DEPTH - 1) } }),
    );
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect((await twin.waitForRun(started.body.run_id)).status).toBe("SUCCEEDED");
  });

  it("accepts a destination inside the allowed results location and writes there", async () => {
    const started = await post(
      "/v1/evaluate-conditions",
      withField("output_destination", `s3://${artifactsBucket}/results/loan-42/`),
    );
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const run = await twin.waitForRun(started.body.run_id);
    expect(run.status).toBe("SUCCEEDED");
    const written = (await twin.services.blobs.getJson(
      `s3://${artifactsBucket}/results/loan-42/${run.run_id}.json`,
    )) as { run_id: string };
    expect(written.run_id).toBe(run.run_id);
  });
});

describe("Finalize checks the destination again before writing", () => {
  it("fails a run whose record names a document as its destination and leaves the document alone", async () => {
    const documentKey = "rm-conditions/1120-signed.pdf";
    const before = await twin.services.blobs.getBytes({ bucket: documentsBucket, key: documentKey });
    // A record that never went through the API (written by an older version, or by hand).
    const runId = `run-bypass-${Date.now()}`;
    const destination = `s3://${documentsBucket}/${documentKey}`;
    await twin.services.runs.createRun(runId, { ...valid(), output_destination: destination });
    await twin.startExecution(runId, { run_id: runId });
    const run = await twin.waitForRun(runId);

    expect(run.status).toBe("FAILED");
    expect(run.error).toEqual({
      error: "ResultDestinationError",
      cause: expect.stringContaining(`"${destination}" is one of this request's documents`),
    });
    const after = await twin.services.blobs.getBytes({ bucket: documentsBucket, key: documentKey });
    expect(Buffer.from(after).equals(Buffer.from(before))).toBe(true);
  });
});

describe("results are never overwritten", () => {
  const resultBytes = (key: string) => twin.services.blobs.getBytes({ bucket: artifactsBucket, key });

  it("refuses a second run pointing at an existing result with 409 naming output_destination, and starts nothing", async () => {
    const destination = `s3://${artifactsBucket}/results/loan-77/result.json`;
    const first = await post("/v1/evaluate-conditions", withField("output_destination", destination));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect((await twin.waitForRun(first.body.run_id)).status).toBe("SUCCEEDED");
    const written = await resultBytes("results/loan-77/result.json");
    expect(JSON.parse(new TextDecoder().decode(written)).run_id).toBe(first.body.run_id);

    const before = await runIds();
    for (const path of ["/v1/evaluate-conditions", "/v1/evaluate-loan-conditions"]) {
      const second = await post(path, withField("output_destination", destination));
      expect(second.status, JSON.stringify(second.body)).toBe(409);
      expect(second.body.error.code).toBe("destination_exists");
      expect(second.body.error.fields).toEqual([
        {
          field: "output_destination",
          message: `${destination} already holds an object; results are never overwritten: name a new key, or a prefix ending in / (each run writes <prefix><run_id>.json)`,
        },
      ]);
    }
    expect(await runIds()).toEqual(before);
    expect(Buffer.from(await resultBytes("results/loan-77/result.json")).equals(Buffer.from(written))).toBe(
      true,
    );
  });

  it("fails a run whose destination was taken after it started, and leaves the other result byte for byte", async () => {
    const key = "results/taken-meanwhile.json";
    const otherResult = new TextEncoder().encode('{"run_id":"run-of-someone-else"}');
    // A record that never went through the API's check (the key taken between its start and its end).
    const runId = `run-taken-${Date.now()}`;
    await twin.services.runs.createRun(runId, {
      ...valid(),
      output_destination: `s3://${artifactsBucket}/${key}`,
    });
    await twin.services.blobs.putBytes({ bucket: artifactsBucket, key }, otherResult, "application/json");
    await twin.startExecution(runId, { run_id: runId });
    const run = await twin.waitForRun(runId);

    expect(run.status).toBe("FAILED");
    expect(run.error).toEqual({
      error: "ResultExistsError",
      cause: `s3://${artifactsBucket}/${key} already holds an object that this run did not write; results are never overwritten, so run ${runId} wrote nothing there`,
    });
    expect(Buffer.from(await resultBytes(key)).equals(Buffer.from(otherResult))).toBe(true);
  });

  it("lets a retried Finalize of the same run find its own result and succeed, the result unchanged", async () => {
    const started = await post(
      "/v1/evaluate-conditions",
      withField("output_destination", `s3://${artifactsBucket}/results/retried.json`),
    );
    expect(started.status).toBe(202);
    expect((await twin.waitForRun(started.body.run_id)).status).toBe("SUCCEEDED");
    const written = await resultBytes("results/retried.json");

    const again = await finalizeRun(
      { run_id: started.body.run_id, mode: "success" },
      twin.services,
      new Logger({ logLevel: "SILENT" }),
    );
    expect(again).toEqual({ status: "SUCCEEDED" });
    expect(Buffer.from(await resultBytes("results/retried.json")).equals(Buffer.from(written))).toBe(true);
  });
});
