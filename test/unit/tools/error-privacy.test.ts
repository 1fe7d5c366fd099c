// Errors that become evidence (stored on the run, shown to the loan officer) and log lines: they
// name the service or document, the HTTP status and a short scrubbed reason, never a lender's raw
// body nor a document's bytes. The lender is a real HTTP server on loopback.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createLoanTools } from "../../../lambdas/agents/loan/loan-tools.ts";
import { DocumentError, extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import type { LlmProvider } from "../../../lambdas/llm/types.ts";
import { createLogger } from "../../../lambdas/runtime/logger.ts";
import type { RunStore } from "../../../lambdas/store/runs.ts";
import type { DocumentReader } from "../../../lambdas/tools/document-reader.ts";
import {
  createLenderCalls,
  LenderServiceClient,
  LenderServiceError,
  preconditionsResponseSchema,
} from "../../../lambdas/tools/lender-client.ts";
import {
  type RecordingServer,
  type StubReply,
  startRecordingServer,
} from "../../support/recording-server.ts";

const SSN = "123-45-6789";
const ACCOUNT = "004417239981";
const NAME = "Jane Q. Doe";

let stub: RecordingServer;
let script: StubReply[] = [];

beforeAll(async () => {
  stub = await startRecordingServer(() => script.shift() ?? { status: 500, body: "{}" });
});
afterAll(() => stub.close());
beforeEach(() => {
  script = [];
  stub.received.length = 0;
});

function client(): LenderServiceClient {
  return new LenderServiceClient({
    service: "PreConditions",
    baseUrl: `${stub.origin}/lender`,
    maxAttempts: 2,
    sleep: async () => undefined,
  });
}

async function failure(): Promise<LenderServiceError> {
  const error = await client()
    .post("/v1/preconditions", {}, preconditionsResponseSchema())
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(LenderServiceError);
  return error as LenderServiceError;
}

const echoingBody = JSON.stringify({
  message: `no borrower with SSN ${SSN} and account ${ACCOUNT}`,
  request: { borrower_info: { name: NAME, ssn: SSN } },
});

describe("lender service errors", () => {
  it("quote the body's message scrubbed, and nothing else of the body", async () => {
    script = [{ status: 400, body: echoingBody }];
    const error = await failure();
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      "PreConditions POST /lender/v1/preconditions failed with HTTP 400: " +
        "no borrower with SSN [REDACTED:ssn] and account [REDACTED:account_number]",
    );
  });

  it("do the same after the retries run out", async () => {
    script = [
      { status: 503, body: echoingBody },
      { status: 500, body: echoingBody },
    ];
    const error = await failure();
    expect(stub.received).toHaveLength(2);
    expect(error.message).toContain(
      "after 2 attempts; last response HTTP 500: no borrower with SSN [REDACTED:ssn]",
    );
    expect(error.message).not.toContain(NAME);
  });

  it("describe a JSON body without a message instead of quoting it", async () => {
    const body = JSON.stringify({ borrower: { name: NAME, ssn: SSN }, code: 17 });
    script = [{ status: 422, body }];
    const error = await failure();
    expect(error.message).toBe(
      `PreConditions POST /lender/v1/preconditions failed with HTTP 422: a JSON body without a message (${body.length} bytes, not shown)`,
    );
  });

  it("describe a plain-text body by its type and size", async () => {
    const body = `Borrower ${NAME}, SSN ${SSN}: record locked`;
    script = [{ status: 409, body, headers: { "content-type": "text/plain; charset=utf-8" } }];
    const error = await failure();
    expect(error.message).toBe(
      `PreConditions POST /lender/v1/preconditions failed with HTTP 409: a text/plain body (${body.length} bytes, not shown)`,
    );
  });

  it("describe a 200 answer that is not JSON without quoting it", async () => {
    script = [{ status: 200, body: `${NAME} ${SSN}`, headers: { "content-type": "text/plain" } }];
    const error = await failure();
    expect(error.message).toBe("PreConditions response is not JSON: a text/plain body (23 bytes, not shown)");
  });

  it("keep the SSN out of the tool's error and out of the log line that reports it", async () => {
    script = [{ status: 400, body: echoingBody }];
    const lender = createLenderCalls(
      { preconditionsUrl: `${stub.origin}/pre`, timeoutMs: 1_000 },
      { sleep: async () => undefined },
    );
    const unused = {} as never;
    const tool = createLoanTools(() => ({
      documents: unused as DocumentReader,
      runs: unused as RunStore,
      llm: { provider: unused as LlmProvider },
      now: () => new Date("2025-03-01T00:00:00Z"),
      ...(lender ? { lender } : {}),
    })).find((candidate) => candidate.name === "call_preconditions_api");
    const metadata = { classification: "W-2", borrower_info: { name: NAME } };
    const error = await tool
      ?.run(tool.args.parse({ metadata }), {
        run_id: "run-1",
        step_id: "E1",
        signal: new AbortController().signal,
        recordLlmUsage: () => {},
      })
      .catch((caught: unknown) => caught as Error);
    expect(stub.received[0]?.body).toEqual({ metadata });
    expect((error as Error).message).toContain("HTTP 400: no borrower with SSN [REDACTED:ssn]");

    // Powertools prints warnings and errors through console.warn/error: stderr.
    const lines: string[] = [];
    const capture = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, "write").mockImplementation(capture);
    vi.spyOn(process.stderr, "write").mockImplementation(capture);
    try {
      const log = createLogger("rewoo-worker");
      log.setLogLevel("WARN");
      log.warn("tool failed", { tool: "call_preconditions_api", error: (error as Error).message });
      log.error("worker failed", error as Error);
    } finally {
      vi.restoreAllMocks();
    }
    const output = lines.join("");
    expect(output).toContain('"tool":"call_preconditions_api"');
    expect(output).toContain("HTTP 400");
    for (const secret of [SSN, ACCOUNT, NAME]) expect(output).not.toContain(secret);
  });
});

describe("document errors", () => {
  it("say what a non-PDF file is without quoting its first bytes", async () => {
    const bytes = new TextEncoder().encode(`${NAME}\nSSN ${SSN}\n`);
    const error = await extractPdfText(bytes, "rm-conditions/notes.pdf").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DocumentError);
    expect((error as Error).message).toBe(
      `rm-conditions/notes.pdf is not a readable PDF: expected a PDF file (starting with %PDF-), got plain text of ${bytes.byteLength} bytes`,
    );
  });

  it("recognise common formats by their signature", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    await expect(extractPdfText(png, "scan.pdf")).rejects.toThrow(
      "scan.pdf is not a readable PDF: expected a PDF file (starting with %PDF-), got a PNG image of 12 bytes",
    );
  });
});
