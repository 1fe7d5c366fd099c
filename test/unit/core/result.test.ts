import { describe, expect, it } from "vitest";
import {
  parseSolverOutput,
  RunResultSchema,
  shortSolverAnswer,
} from "../../../lambdas/agents/loan/solver-answer.ts";
import type { Evidence, Plan, RunResult } from "../../../lambdas/core/types.ts";

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

// ------------------------------------------------------------------------------------------------
// The short form: a bare id adopts what the evidence the solver read says of the condition

function evidenceOf(step_id: string, tool: string, output: unknown, status: "ok" | "error" = "ok"): Evidence {
  return {
    step_id,
    tool,
    status,
    ...(status === "ok" ? { output } : { error: "down" }),
    upstream_errors: [],
    started_at: "2025-01-01T00:00:00.000Z",
    finished_at: "2025-01-01T00:00:00.010Z",
    duration_ms: 10,
  };
}

const signedCitation = { document: "a.pdf", page: 1, excerpt: "Robert J. Tanner  03/10/2025  President" };
const predictions = evidenceOf("E1", "call_preconditions_api", {
  conditions: [
    {
      id: "TR_SIGNED",
      title: "Signed (catalog)",
      compartment: "Compliance",
      priority: "high",
      reason: "verify the signature",
    },
    {
      id: "TR_EIN_MATCH",
      title: "EIN matches",
      compartment: "Compliance",
      priority: "high",
      reason: "verify the EIN",
    },
    {
      id: "TR_COMPLETE",
      title: "Complete",
      compartment: "Income",
      priority: 2,
      reason: "verify page 1 and Schedule L",
    },
  ],
});
const judgements = evidenceOf("E3", "call_conditions_ai_api", {
  verdicts: [
    {
      condition_id: "TR_SIGNED",
      title: "Signed and dated by an officer",
      status: "fulfilled",
      reason: "signed by Robert J. Tanner",
      citations: [{ ...signedCitation, note: "not a citation field" }, { page: 2 }],
      observed: { signer: "Robert J. Tanner" },
    },
    {
      condition_id: "TR_EIN_MATCH",
      status: "Not Fulfilled",
      reason: "EIN 98-7654321 differs",
      citations: [{ document: "a.pdf", page: 1 }],
    },
    { condition_id: "TR_COMPLETE", status: "pending" },
  ],
});
const shortInput = {
  plan: { scope: { interpretation: "Judging every applicable condition." } } as Pick<Plan, "scope">,
  evidence: [predictions, evidenceOf("E2", "retrieve_s3_document", undefined, "error"), judgements],
};

describe("parseSolverOutput: the short form", () => {
  it("completes a bare id from the verdict it adopts, labels from the verdict over the prediction", () => {
    const { result: parsed, warnings } = parseSolverOutput(
      JSON.stringify({
        summary: "1 of 3 fulfilled.",
        fulfilled_conditions: ["TR_SIGNED"],
        unfulfilled_conditions: [
          "TR_EIN_MATCH",
          { id: "TR_COMPLETE", status: "insufficient_evidence", reason: "Conditions AI said pending" },
        ],
        missing_information: [],
        recommendations: ["Correct the EIN"],
      }),
      shortInput,
    );

    expect(warnings).toEqual([]);
    expect(parsed).toEqual({
      summary: "1 of 3 fulfilled.",
      fulfilled_conditions: [
        {
          id: "TR_SIGNED",
          title: "Signed and dated by an officer",
          compartment: "Compliance",
          priority: "high",
          reason: "signed by Robert J. Tanner",
          citations: [signedCitation],
        },
      ],
      unfulfilled_conditions: [
        {
          id: "TR_EIN_MATCH",
          title: "EIN matches",
          compartment: "Compliance",
          priority: "high",
          status: "not_fulfilled",
          reason: "EIN 98-7654321 differs",
          citations: [{ document: "a.pdf", page: 1 }],
        },
        { id: "TR_COMPLETE", status: "insufficient_evidence", reason: "Conditions AI said pending" },
      ],
      missing_information: [],
      recommendations: ["Correct the EIN"],
      interpretation: "Judging every applicable condition.",
    });
  });

  it("does not lend a verdict to a list it contradicts, and says so", () => {
    const { result: parsed, warnings } = parseSolverOutput(
      JSON.stringify({
        summary: "s",
        fulfilled_conditions: ["TR_EIN_MATCH", "TR_COMPLETE", "TR_UNKNOWN"],
        unfulfilled_conditions: ["TR_SIGNED"],
        missing_information: [],
        recommendations: [],
        interpretation: "The solver's own reading",
      }),
      shortInput,
    );

    expect(parsed.fulfilled_conditions).toEqual([
      { id: "TR_EIN_MATCH", title: "EIN matches", compartment: "Compliance", priority: "high" },
      { id: "TR_COMPLETE", title: "Complete", compartment: "Income", priority: 2 },
      { id: "TR_UNKNOWN" },
    ]);
    expect(parsed.unfulfilled_conditions).toEqual([
      {
        id: "TR_SIGNED",
        title: "Signed and dated by an officer",
        compartment: "Compliance",
        priority: "high",
      },
    ]);
    expect(parsed.interpretation).toBe("The solver's own reading");
    expect(warnings).toEqual([
      "fulfilled_conditions[0] TR_EIN_MATCH: the call_conditions_ai_api verdict is not_fulfilled; kept the id without its reason and citations",
      "fulfilled_conditions[1] TR_COMPLETE: the call_conditions_ai_api verdict is pending; kept the id without its reason and citations",
      "unfulfilled_conditions[0] TR_SIGNED: the call_conditions_ai_api verdict is fulfilled; kept the id without its reason and citations",
    ]);
  });

  it("completes applicable conditions from PreConditions' predictions", () => {
    const { result: parsed } = parseSolverOutput(
      '{"summary":"2 apply.","fulfilled_conditions":[],"unfulfilled_conditions":[],"applicable_conditions":["TR_SIGNED","TR_EIN_MATCH"],"missing_information":[],"recommendations":[]}',
      { plan: {}, evidence: [predictions] },
    );

    expect(parsed.applicable_conditions).toEqual([
      {
        id: "TR_SIGNED",
        title: "Signed (catalog)",
        compartment: "Compliance",
        priority: "high",
        reason: "verify the signature",
      },
      {
        id: "TR_EIN_MATCH",
        title: "EIN matches",
        compartment: "Compliance",
        priority: "high",
        reason: "verify the EIN",
      },
    ]);
    expect(parsed.interpretation).toBeUndefined();
  });

  it("takes the first verdict of a condition in evidence order, and no verdict from failed evidence", () => {
    const later = evidenceOf("E5", "call_conditions_ai_api", {
      verdicts: [{ condition_id: "TR_SIGNED", status: "not_fulfilled", reason: "later" }],
    });
    const failedJudging = evidenceOf("E4", "call_conditions_ai_api", undefined, "error");
    const { result: parsed } = parseSolverOutput(
      '{"summary":"s","fulfilled_conditions":["TR_SIGNED"],"unfulfilled_conditions":[],"missing_information":[],"recommendations":[]}',
      { plan: {}, evidence: [failedJudging, judgements, later] },
    );

    expect(parsed.fulfilled_conditions[0]?.reason).toBe("signed by Robert J. Tanner");
  });

  it("shortens exactly the findings whose bare id gives them back, so the parsed short form is the whole answer", () => {
    const whole: RunResult = {
      summary: "1 of 3 conditions fulfilled.",
      fulfilled_conditions: [
        {
          id: "TR_SIGNED",
          title: "Signed and dated by an officer",
          compartment: "Compliance",
          priority: "high",
          reason: "signed by Robert J. Tanner",
          citations: [signedCitation],
        },
      ],
      unfulfilled_conditions: [
        {
          id: "TR_EIN_MATCH",
          title: "EIN matches",
          compartment: "Compliance",
          priority: "high",
          status: "not_fulfilled",
          reason: "the EIN differs: 98-7654321 on page 1",
          citations: [{ document: "a.pdf", page: 1 }],
        },
        {
          id: "TR_COMPLETE",
          title: "Complete",
          compartment: "Income",
          priority: 2,
          status: "insufficient_evidence",
          reason: 'Conditions AI returned status "pending"',
          citations: [],
        },
      ],
      missing_information: ["E2 retrieve_s3_document failed: down"],
      recommendations: ["Correct the EIN"],
      interpretation: "Judging every applicable condition.",
    };

    const short = shortSolverAnswer(whole, shortInput);

    expect(short).toEqual({
      summary: "1 of 3 conditions fulfilled.",
      fulfilled_conditions: ["TR_SIGNED"],
      unfulfilled_conditions: [whole.unfulfilled_conditions[0], whole.unfulfilled_conditions[1]],
      missing_information: ["E2 retrieve_s3_document failed: down"],
      recommendations: ["Correct the EIN"],
    });
    expect(parseSolverOutput(JSON.stringify(short), shortInput)).toEqual({ result: whole, warnings: [] });
    expect(
      shortSolverAnswer({ ...whole, interpretation: "another reading" }, shortInput).interpretation,
    ).toBe("another reading");
  });

  it("keeps a bare id bare without the evidence, as before", () => {
    expect(
      parseSolverOutput('{"summary":"s","fulfilled_conditions":["TR_SIGNED"]}').result.fulfilled_conditions,
    ).toEqual([{ id: "TR_SIGNED" }]);
  });
});

describe("parseSolverOutput: documents of the wrong kind", () => {
  const note =
    "rm/1120s.pdf is a Form 1120-S (U.S. Income Tax Return for an S Corporation), not a Form 1120: no condition was judged on it";
  const input = {
    plan: {} as Pick<Plan, "scope">,
    evidence: [
      evidenceOf("E3", "call_conditions_ai_api", {
        verdicts: [{ condition_id: "TR_COMPLETE", status: "not_fulfilled", reason: "not a Form 1120" }],
        documents: [
          { document: "rm/1120.pdf", status: "read" },
          { document: "rm/1120s.pdf", status: "read", kind_note: note },
        ],
      }),
    ],
  };

  it("names a document the solver left out, saying so in a warning", () => {
    const { result: parsed, warnings } = parseSolverOutput(
      JSON.stringify({ summary: "s", missing_information: ["page 2 is blurred"] }),
      input,
    );
    expect(parsed.missing_information).toEqual(["page 2 is blurred", note]);
    expect(warnings).toContain(`solver output did not name a document of the wrong kind; added: ${note}`);
  });

  it("adds nothing when the solver named it, in its own sentence", () => {
    const { result: parsed, warnings } = parseSolverOutput(
      JSON.stringify({ summary: "s", missing_information: [`Documents: ${note}.`] }),
      input,
    );
    expect(parsed.missing_information).toEqual([`Documents: ${note}.`]);
    expect(warnings.some((warning) => warning.includes("wrong kind"))).toBe(false);
  });
});
