import { describe, expect, it } from "vitest";
import { preview } from "../../../lambdas/core/describe.ts";
import { redactForLog, scrubbedHead, scrubSensitiveText } from "../../../lambdas/core/redaction.ts";

describe("redactForLog", () => {
  it("returns the very same object when nothing is sensitive (no copy of large records)", () => {
    const steps = Array.from({ length: 1_000 }, (_, index) => ({ id: `E${index}`, tool: "llm", ok: true }));
    const record = { run_id: "run-1", plan: { steps }, when: new Date(0) };
    expect(redactForLog(record)).toBe(record);
  });

  it("copies only the path to what it redacts and leaves the input untouched", () => {
    const untouched = { steps: [{ id: "E1" }] };
    const input = { plan: untouched, metadata: { borrower_info: { name: "Jane" }, loan_program: "Flex" } };
    const output = redactForLog(input) as typeof input;
    expect(output).not.toBe(input);
    expect(output.plan).toBe(untouched);
    expect(output.metadata).toEqual({ borrower_info: "[REDACTED:borrower_info]", loan_program: "Flex" });
    expect(input.metadata.borrower_info).toEqual({ name: "Jane" });
  });

  it("keeps empty sensitive fields, so a log still shows what was missing", () => {
    expect(redactForLog({ ssn: null, email: "", phone: undefined })).toEqual({
      ssn: null,
      email: "",
      phone: undefined,
    });
  });

  it("serializes what JSON.stringify would print (toJSON) before scrubbing it", () => {
    const url = new URL("https://lender.example/v1?contact=jane@example.com");
    expect(redactForLog({ url })).toEqual({ url: "https://lender.example/v1?contact=[REDACTED:email]" });
  });
});

describe("scrubSensitiveText", () => {
  it("replaces sensitive fields of JSON quoted inside a string", () => {
    const quoted = '{"borrower_name":"Jane Q. Doe","ssn":"123-45-6789","status":"rejected","name":"x.pdf"}';
    expect(scrubSensitiveText(`lender said ${quoted}`)).toBe(
      'lender said {"borrower_name":"[REDACTED:name]","ssn":"[REDACTED:ssn]","status":"rejected","name":"x.pdf"}',
    );
  });

  it("recognises a value that straddles the cut instead of leaving half of it", () => {
    const text = `${"x".repeat(95)}123-45-6789 and more`;
    const head = scrubbedHead(text, 100);
    expect(head).toBe("x".repeat(95));
    expect(scrubSensitiveText(text, { maxLength: 100 })).toBe(
      `${"x".repeat(95)}… [truncated: ${text.length} chars in all]`,
    );
  });
});

describe("preview (quotes of LLM output in parse errors)", () => {
  it("is scrubbed", () => {
    expect(preview("#E1 = Lookup[SSN 123-45-6789 of jane@example.com]")).toBe(
      '"#E1 = Lookup[SSN [REDACTED:ssn] of [REDACTED:email]]"',
    );
  });
});
