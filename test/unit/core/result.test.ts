import { describe, expect, it } from "vitest";
import { parseSolverOutput, RunResultSchema } from "../../../lambdas/core/result.ts";
import type { RunResult } from "../../../lambdas/core/types.ts";

const result: RunResult = {
  summary:
    "1 of 2 conditions fulfilled for Flex Supreme / 1120 Corporate Tax Return; 1 needs attention: TR_SIGNED.",
  fulfilled_conditions: [
    {
      id: "TR_YEAR",
      title: "Most recent tax year",
      reason: "Return is for 2025",
      citations: [{ document: "rm-conditions/doc1.pdf", page: 1, excerpt: "For calendar year 2025" }],
    },
  ],
  unfulfilled_conditions: [
    {
      id: "TR_SIGNED",
      title: "Signed",
      status: "not_fulfilled",
      reason: "Signature line blank",
      citations: [],
    },
  ],
  missing_information: ["E3 retrieve_s3_document(rm-conditions/x.pdf) failed: NoSuchKey"],
  recommendations: ["Obtain a signed and dated return (TR_SIGNED)"],
};

describe("parseSolverOutput", () => {
  it("parses a bare JSON object without warnings", () => {
    expect(parseSolverOutput(JSON.stringify(result))).toEqual({ result, warnings: [] });
  });

  it("parses JSON inside markdown fences", () => {
    const text = `Here is the evaluation:\n\n\`\`\`json\n${JSON.stringify(result, null, 2)}\n\`\`\`\nLet me know.`;
    expect(parseSolverOutput(text)).toEqual({ result, warnings: [] });
  });

  it("finds the object in prose, past braces inside strings", () => {
    const text = `I checked {the evidence} carefully. ${JSON.stringify({ ...result, summary: "done } {" })} Hope this helps!`;
    expect(parseSolverOutput(text).result).toEqual({ ...result, summary: "done } {" });
  });

  it("unwraps a {results: ...} envelope", () => {
    expect(parseSolverOutput(JSON.stringify({ results: result })).result).toEqual(result);
  });

  it("fills missing arrays, turns bare ids into conditions and says what it repaired", () => {
    const { result: parsed, warnings } = parseSolverOutput(
      JSON.stringify({
        summary: "Two conditions open.",
        unfulfilled_conditions: [
          "TR_SIGNED",
          " ",
          {
            condition_id: "TR_EIN",
            status: "Insufficient Evidence",
            citations: [{ document: "d.pdf", page: "2" }, "e.pdf"],
          },
          { reason: "no id" },
        ],
        recommendations: "Get the signature",
      }),
    );

    expect(parsed).toEqual({
      summary: "Two conditions open.",
      fulfilled_conditions: [],
      unfulfilled_conditions: [
        { id: "TR_SIGNED" },
        {
          id: "TR_EIN",
          status: "insufficient_evidence",
          citations: [{ document: "d.pdf", page: 2 }, { document: "e.pdf" }],
        },
      ],
      missing_information: [],
      recommendations: ["Get the signature"],
    });
    expect(warnings).toEqual([
      'solver output had no "fulfilled_conditions"; using []',
      "unfulfilled_conditions[1] is an empty id; dropped it",
      "unfulfilled_conditions[3] has no id; dropped it",
      'solver output had no "missing_information"; using []',
      'solver "recommendations" was not an array; wrapped it',
    ]);
  });

  it("accepts trailing commas with a warning", () => {
    const { result: parsed, warnings } = parseSolverOutput('{"summary": "ok", "recommendations": ["a",],}');
    expect(parsed.summary).toBe("ok");
    expect(parsed.recommendations).toEqual(["a"]);
    expect(warnings).toContain("solver JSON had trailing commas; removed them");
  });

  it("falls back to the text as the summary when there is no JSON object", () => {
    const text = "  The documents look fine overall, but the return is unsigned.  ";
    expect(parseSolverOutput(text)).toEqual({
      result: {
        summary: "The documents look fine overall, but the return is unsigned.",
        fulfilled_conditions: [],
        unfulfilled_conditions: [],
        missing_information: [],
        recommendations: [],
      },
      warnings: ["solver output contained no result JSON object; using the whole text as the summary"],
    });
  });

  it("falls back on broken or unrelated JSON and never throws", () => {
    for (const text of ['{"summary": "cut off', '{"foo": 1}', "[1, 2]", "", "{{{{"]) {
      const { result: parsed, warnings } = parseSolverOutput(text);
      expect(parsed.summary).toBe(text.trim());
      expect(parsed.fulfilled_conditions).toEqual([]);
      expect(warnings.length).toBeGreaterThan(0);
    }
  });

  it("produces values the schema accepts", () => {
    expect(RunResultSchema.safeParse(parseSolverOutput("plain").result).success).toBe(true);
    expect(RunResultSchema.safeParse({ ...result, summary: 3 }).success).toBe(false);
  });
});
