// What the functions' logger really prints: Powertools writes each record as one JSON line to
// stdout, captured here, so the redaction is checked on the output, not on an intermediate value.

import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger, setLogOutput } from "../../../lambdas/runtime/logger.ts";

let lines: string[];

beforeEach(() => {
  lines = [];
  const capture = (chunk: unknown) => {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
});

afterEach(() => {
  vi.restoreAllMocks();
});

function logger() {
  const log = createLogger("rewoo-test");
  log.setLogLevel("DEBUG");
  return log;
}

/** The one record printed, parsed; its raw text too, to check that nothing leaks anywhere in it. */
function printed(): { record: Record<string, unknown>; raw: string } {
  expect(lines).toHaveLength(1);
  const raw = lines[0] as string;
  return { record: JSON.parse(raw) as Record<string, unknown>, raw };
}

describe("patterns in any string", () => {
  it.each([
    ["an SSN", "SSN on file 123-45-6789, please check", "123-45-6789", "[REDACTED:ssn]"],
    ["an SSN with spaces", "ssn 123 45 6789", "123 45 6789", "[REDACTED:ssn]"],
    ["nine digits labelled SSN", "Social Security Number: 123456789", "123456789", "[REDACTED:ssn]"],
    ["nine digits labelled TIN", "TIN #987654321 rejected", "987654321", "[REDACTED:tin]"],
    ["an EIN", "EIN 12-3456789 does not match", "12-3456789", "[REDACTED:ein]"],
    ["nine digits labelled EIN", "ein: 123456780", "123456780", "[REDACTED:ein]"],
    ["a routing number", "routing 021000021 on the check", "021000021", "[REDACTED:routing_number]"],
    ["an account number", "deposit to 004417239981 cleared", "004417239981", "[REDACTED:account_number]"],
    ["an 8-digit account number", "acct 44172399.", "44172399", "[REDACTED:account_number]"],
    [
      "an email",
      "contact jane.q.doe+loans@example.co.uk now",
      "jane.q.doe+loans@example.co.uk",
      "[REDACTED:email]",
    ],
  ])("replaces %s in the message and in nested values", (_, text, secret, marker) => {
    logger().warn(text, { detail: { notes: [text] } });
    const { record, raw } = printed();
    expect(raw).not.toContain(secret);
    expect(record.message).toBe(text.replace(secret, marker));
    expect(record.detail).toEqual({ notes: [text.replace(secret, marker)] });
  });

  it("leaves run ids, UUIDs, ARNs, dates, amounts and short numbers alone", () => {
    const text =
      "run-20250415093000-ab12cd34 request 123e4567-e89b-12d3-a456-426614174000 " +
      "arn:aws:states:us-east-1:123456789012:execution:rewoo:run-1 on 2025-04-15T09:30:00Z " +
      "amount 12345678.90 after 10000 ms, page 3 of 12, tax year 2024";
    logger().info(text);
    expect(printed().record.message).toBe(text);
  });
});

describe("fields marked sensitive by name", () => {
  it("replaces them at any depth and keeps what makes a log line useful", () => {
    const metadata = {
      loan_program: "Flex Supreme",
      classification: "1120 Corporate Tax Return",
      borrower_info: { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 },
      extracted_entities: { ein: "12-3456789", tax_year: 2024, officer_name: "John Roe", name: "Acme" },
    };
    logger().info("tool completed", {
      run_id: "run-20250415093000-ab12cd34",
      step_id: "E2",
      tool: "call_preconditions_api",
      status: "ok",
      duration_ms: 1234,
      args: { metadata },
      applicant: {
        ssn: "123456789",
        coBorrowerSsn: "987654321",
        tin: "123456789",
        account_number: 4417239981,
        routing_number: "021000021",
        date_of_birth: "1980-01-02",
        mailing_address: "1 Main St",
        phone: "555-0100",
        email: "jane@example.com",
      },
      document: { name: "1120-signed.pdf", pages: ["page one text"], text: "all of it" },
      citation: { page: 1, excerpt: "Signature of officer Jane Doe" },
      lender_response: { body: "{...}" },
    });
    const { record, raw } = printed();
    for (const secret of [
      "Jane",
      "Acme",
      "John Roe",
      "123456789",
      "12-3456789",
      "1980",
      "Main St",
      "555-0100",
    ]) {
      expect(raw).not.toContain(secret);
    }
    expect(record).toMatchObject({
      message: "tool completed",
      run_id: "run-20250415093000-ab12cd34",
      step_id: "E2",
      tool: "call_preconditions_api",
      status: "ok",
      duration_ms: 1234,
      args: {
        metadata: {
          loan_program: "Flex Supreme",
          classification: "1120 Corporate Tax Return",
          borrower_info: "[REDACTED:borrower_info]",
          extracted_entities: {
            ein: "[REDACTED:ein]",
            tax_year: 2024,
            officer_name: "[REDACTED:name]",
            name: "[REDACTED:name]",
          },
        },
      },
      applicant: {
        ssn: "[REDACTED:ssn]",
        coBorrowerSsn: "[REDACTED:ssn]",
        tin: "[REDACTED:tin]",
        account_number: "[REDACTED:account_number]",
        routing_number: "[REDACTED:routing_number]",
        date_of_birth: "[REDACTED:dob]",
        mailing_address: "[REDACTED:address]",
        phone: "[REDACTED:phone]",
        email: "[REDACTED:email]",
      },
      // Outside metadata a `name` is a file's, a tool's or an error's: kept.
      document: {
        name: "1120-signed.pdf",
        pages: "[REDACTED:document_text]",
        text: "[REDACTED:document_text]",
      },
      citation: { page: 1, excerpt: "[REDACTED:document_text]" },
      lender_response: { body: "[REDACTED:response_body]" },
    });
  });

  it("redacts a child logger's persistent keys and bytes of any field", () => {
    const child = logger().createChild({
      persistentKeys: { run_id: "run-1", borrower_info: { name: "Jane Q. Doe" } },
    });
    child.info("document read", { upload: Buffer.from("%PDF-1.7 Jane Q. Doe 123-45-6789") });
    const { record, raw } = printed();
    expect(raw).not.toContain("Jane");
    expect(record).toMatchObject({
      run_id: "run-1",
      borrower_info: "[REDACTED:borrower_info]",
      upload: "[REDACTED:bytes]",
    });
  });
});

describe("errors", () => {
  class LenderError extends Error {
    override name = "LenderError";
    constructor(
      message: string,
      readonly status: number,
      readonly body: string,
      options?: { cause?: unknown },
    ) {
      super(message, options);
    }
  }

  it("scrubs the message, the stack, the cause and the error's own fields, keeping name and location", () => {
    const cause = new Error("upstream said jane@example.com is locked");
    const error = new LenderError("lookup failed for SSN 123-45-6789", 400, '{"ssn":"123-45-6789"}', {
      cause,
    });
    logger().error("worker failed", error);
    const { record, raw } = printed();
    expect(raw).not.toContain("123-45-6789");
    expect(raw).not.toContain("jane@example.com");
    const logged = record.error as Record<string, unknown>;
    expect(logged.name).toBe("LenderError");
    expect(logged.message).toBe("lookup failed for SSN [REDACTED:ssn]");
    // Powertools' own `file:line` (the first stack frame in parentheses).
    expect(logged.location).toMatch(/\.[cm]?[jt]s:\d+$/);
    expect(String(logged.stack)).toMatch(/^LenderError: lookup failed for SSN \[REDACTED:ssn\]\n\s+at /);
    expect(logged.status).toBe(400);
    expect(logged.body).toBe("[REDACTED:response_body]");
    expect((logged.cause as Record<string, unknown>).message).toBe(
      "upstream said [REDACTED:email] is locked",
    );
  });

  it("scrubs an Error nested in the attributes", () => {
    logger().warn("tool failed", { attempts: [{ error: new Error("account 004417239981 closed") }] });
    const { record, raw } = printed();
    expect(raw).not.toContain("004417239981");
    expect(record.attempts).toEqual([
      {
        error: expect.objectContaining({
          name: "Error",
          message: "account [REDACTED:account_number] closed",
        }),
      },
    ]);
  });
});

describe("shapes that break naive serializers", () => {
  it("cuts cycles in objects and in error causes", () => {
    const run: Record<string, unknown> = { run_id: "run-1", ssn: "123-45-6789" };
    run.self = run;
    const error = new Error("loop for 123-45-6789");
    (error as { cause?: unknown }).cause = error;
    logger().error({ message: "cyclic", run }, error);
    const { record, raw } = printed();
    expect(raw).not.toContain("123-45-6789");
    expect(record.run).toEqual({ run_id: "run-1", ssn: "[REDACTED:ssn]", self: "[Circular]" });
    expect((record.error as Record<string, unknown>).cause).toBe("[Circular]");
  });

  it("cuts a huge document string and says how long it was", () => {
    const page = "Jane Q. Doe SSN 123-45-6789 account 004417239981 ".repeat(100_000);
    logger().warn("document text", { detail: page });
    const { record, raw } = printed();
    expect(raw.length).toBeLessThan(3_000);
    expect(raw).not.toContain("123-45-6789");
    expect(raw).not.toContain("004417239981");
    const detail = record.detail as string;
    expect(detail.endsWith(`… [truncated: ${page.length} chars in all]`)).toBe(true);
    expect(detail).toContain("Jane Q. Doe SSN [REDACTED:ssn] account [REDACTED:account_number]");
  });
});

describe("setLogOutput", () => {
  afterEach(() => setLogOutput(undefined));

  it("sends every logger's lines, its children's too, to the stream instead of stdout and stderr, until reset", () => {
    const sent: string[] = [];
    const stream = new PassThrough();
    stream.on("data", (chunk: Buffer) => sent.push(...chunk.toString("utf8").split("\n").filter(Boolean)));
    const log = logger();
    setLogOutput(stream);
    log.createChild({ persistentKeys: { run_id: "run-1" } }).warn("tool failed");
    logger().info("routed too");
    expect(lines).toEqual([]);
    expect(sent.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: "WARN", message: "tool failed", run_id: "run-1" }),
      expect.objectContaining({ level: "INFO", message: "routed too" }),
    ]);
    setLogOutput(undefined);
    log.error("back on stderr");
    expect(printed().record).toMatchObject({ level: "ERROR", message: "back on stderr" });
    expect(sent).toHaveLength(2);
  });
});
