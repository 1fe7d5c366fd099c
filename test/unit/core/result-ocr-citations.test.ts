// A citation of a page read by OCR keeps `source: "ocr"` and the engine's confidence all the way to
// the run's result (the solver's answer, its short form, the offline solver), because the CLI and
// the dashboard mark such citations for people. Text pages' citations stay exactly as they were.
import { describe, expect, it } from "vitest";
import { renderLoanSolverPrompt } from "../../../lambdas/agents/loan/prompts.ts";
import {
  parseSolverOutput,
  RunResultSchema,
  shortSolverAnswer,
} from "../../../lambdas/agents/loan/solver-answer.ts";
import type { Evidence, Plan } from "../../../lambdas/core/types.ts";
import { RuleBasedProvider } from "../../../lambdas/llm/rule-based.ts";
import { ok, planOf, taxReturnRequest } from "../llm/fixtures.ts";

const SCAN = "rm-conditions/scanned/1120-signed.pdf";
const ocrCitation = {
  document: SCAN,
  page: 3,
  excerpt: "Signature of officer Robert J. Tanner",
  source: "ocr",
  confidence: 87,
};
const textCitation = {
  document: "rm-conditions/1120-signed.pdf",
  page: 1,
  excerpt: "For calendar year 2025",
};

const verdicts: Evidence = ok("E3", "call_conditions_ai_api", {
  verdicts: [
    {
      condition_id: "TR_SIGNED",
      title: "Signed and dated by an officer",
      status: "fulfilled",
      reason: "signed by Robert J. Tanner",
      citations: [ocrCitation],
    },
    {
      condition_id: "TR_TAX_YEAR",
      title: "Most recent tax year",
      status: "fulfilled",
      reason: "Return is for 2025",
      citations: [textCitation],
    },
  ],
});
const plan: Plan = planOf(
  [{ id: "E3", tool: "call_conditions_ai_api", args: { conditions: [], documents: [SCAN] } }],
  [["E3"]],
);
const input = { plan, evidence: [verdicts] };

describe("OCR citations in the solver's answer", () => {
  it("keeps source and confidence of a citation written in full, and leaves text citations as they were", () => {
    const { result, warnings } = parseSolverOutput(
      JSON.stringify({
        summary: "2 of 2 fulfilled",
        fulfilled_conditions: [
          {
            id: "TR_SIGNED",
            reason: "signed",
            citations: [{ ...ocrCitation, confidence: 86.6 }, textCitation],
          },
        ],
        unfulfilled_conditions: [],
        missing_information: [],
        recommendations: [],
      }),
    );
    expect(warnings).toEqual([]);
    expect(result.fulfilled_conditions[0]?.citations).toEqual([ocrCitation, textCitation]);
    expect(RunResultSchema.safeParse(result).success).toBe(true);
  });

  it("drops what is not an OCR mark: another source, a confidence out of range, a source alone", () => {
    const { result } = parseSolverOutput(
      JSON.stringify({
        summary: "",
        fulfilled_conditions: [
          {
            id: "TR_SIGNED",
            citations: [
              { document: "a.pdf", page: 1, source: "text", confidence: 90 },
              { document: "b.pdf", page: 2, source: "ocr", confidence: 140 },
              { document: "c.pdf", page: 3, confidence: 90 },
              // `source` may name the document in a model's answer, but "ocr" is never a document.
              { source: "ocr", page: 4 },
              { source: "d.pdf", page: 5 },
            ],
          },
        ],
      }),
    );
    expect(result.fulfilled_conditions[0]?.citations).toEqual([
      { document: "a.pdf", page: 1 },
      { document: "b.pdf", page: 2, source: "ocr" },
      { document: "c.pdf", page: 3 },
      { document: "d.pdf", page: 5 },
    ]);
  });

  it("a bare id adopts the verdict's OCR citation, and the short form gives the same result back", () => {
    const { result, warnings } = parseSolverOutput(
      JSON.stringify({
        summary: "2 of 2 fulfilled",
        fulfilled_conditions: ["TR_SIGNED", "TR_TAX_YEAR"],
        unfulfilled_conditions: [],
        missing_information: [],
        recommendations: [],
      }),
      input,
    );
    expect(warnings).toEqual([]);
    expect(result.fulfilled_conditions.map((c) => c.citations)).toEqual([[ocrCitation], [textCitation]]);
    const short = shortSolverAnswer(result, input);
    expect(short.fulfilled_conditions).toEqual(["TR_SIGNED", "TR_TAX_YEAR"]);
    expect(parseSolverOutput(JSON.stringify(short), input).result).toEqual(result);
  });
});

describe("OCR citations through the offline solver", () => {
  it("carries the engine's OCR citation into the run's result", async () => {
    const request = taxReturnRequest({ s3_pdf_paths: [SCAN] });
    const { system, prompt } = renderLoanSolverPrompt({ request, plan, evidence: [verdicts] });
    const completion = await new RuleBasedProvider().complete({
      system,
      prompt,
      context: { purpose: "solver", request, plan, evidence: [verdicts] },
    });
    const { result, warnings } = parseSolverOutput(completion.text, input);
    expect(warnings).toEqual([]);
    const signed = result.fulfilled_conditions.find((c) => c.id === "TR_SIGNED");
    expect(signed?.citations).toEqual([ocrCitation]);
    const year = result.fulfilled_conditions.find((c) => c.id === "TR_TAX_YEAR");
    expect(year?.citations).toEqual([textCitation]);
  });
});
