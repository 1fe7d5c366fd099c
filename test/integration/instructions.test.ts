// The agent does what the instructions ask, offline: the interpreter's scope shapes the plan (which
// conditions, which documents, whether anything is judged at all) and the answer, through the real
// twin — planner, worker, tools, solver.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBankStatement } from "../../examples/samples.ts";
import type { Twin } from "../../infra/local/twin.ts";
import { loanScope } from "../../lambdas/agents/loan/instructions/interpret.ts";
import type { EvaluationRequest, RunRecord } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  const bucket = twin.services.config.documentsBucket;
  // January and March of the same account: February is missing.
  for (const month of [1, 3]) {
    const bytes = await buildBankStatement({
      year: 2025,
      month,
      beginningBalance: 2500,
      transactions: [
        { day: 5, description: "Payroll Deposit - Acme Widgets", amount: 3650 },
        { day: 12, description: "Online Payment - Rent", amount: -1850 },
      ],
    });
    await twin.services.blobs.putBytes(
      { bucket, key: `rm-conditions/gap-2025-0${month}.pdf` },
      bytes,
      "application/pdf",
    );
  }
});

afterAll(async () => {
  await twin?.stop();
});

async function run(request: EvaluationRequest): Promise<RunRecord> {
  const { run_id } = await twin.startRun(request);
  const record = await twin.waitForRun(run_id);
  expect(record.status).toBe("SUCCEEDED");
  return record;
}

const signedReturn = (instructions: string) =>
  ({ ...taxReturnRequest(["rm-conditions/1120-signed.pdf"]), instructions }) as EvaluationRequest;
const judgedIds = (record: RunRecord) =>
  [...(record.result?.fulfilled_conditions ?? []), ...(record.result?.unfulfilled_conditions ?? [])]
    .map((finding) => finding.id)
    .sort();
const toolsOf = (record: RunRecord) => record.plan?.steps.map((step) => step.tool) ?? [];

describe("instructions shape the plan and the answer", () => {
  it("judges only TR_SIGNED when only the signature is asked about", async () => {
    const record = await run(signedReturn("Only check whether the tax return is signed"));
    const preconditions = record.plan?.steps.find((step) => step.tool === "call_preconditions_api");
    expect(preconditions?.args).toMatchObject({ conditions: ["TR_SIGNED"] });
    expect(toolsOf(record)).toContain("call_conditions_ai_api");
    expect(judgedIds(record)).toEqual(["TR_SIGNED"]);
    expect(record.result?.fulfilled_conditions[0]).toMatchObject({
      id: "TR_SIGNED",
      compartment: "Compliance",
      priority: "high",
    });
    expect(record.result?.interpretation).toMatch(/TR_SIGNED/);
  });

  it("lists the applicable conditions without any Conditions AI call when asked what applies", async () => {
    const record = await run(signedReturn("What conditions apply to this loan?"));
    expect(toolsOf(record)).toEqual(["call_preconditions_api"]);
    expect(record.evidence.map((item) => item.tool)).toEqual(["call_preconditions_api"]);
    expect(judgedIds(record)).toEqual([]);
    const applicable = record.result?.applicable_conditions ?? [];
    expect(applicable.map((condition) => condition.id).sort()).toEqual([
      "TR_COMPLETE",
      "TR_EIN_MATCH",
      "TR_NAME_MATCH",
      "TR_SIGNED",
      "TR_TAX_YEAR",
    ]);
    for (const condition of applicable) expect(condition.compartment).toMatch(/Compliance|Income/);
    expect(record.result?.summary).toMatch(/5 conditions apply/);
    expect(record.usage.llm_calls).toBe(2);
  });

  it("judges nothing and says why when all the instructions ask for is out of reach", async () => {
    const record = await run(signedReturn("Check that the borrower's credit score is above 700"));
    expect(toolsOf(record)).toEqual(["call_preconditions_api"]);
    expect(judgedIds(record)).toEqual([]);
    expect(loanScope(record.plan?.scope)?.unhandled).toEqual([
      {
        text: "credit score is above 700",
        reason: "not_possible",
        why: "no credit report among the documents and no condition about it",
      },
    ]);
    expect(record.result?.interpretation).toBe(
      'Judging nothing: "credit score is above 700" is not possible here (no credit report among the documents and no condition about it); the conditions that can be judged here are TR_SIGNED, TR_TAX_YEAR, TR_EIN_MATCH, TR_NAME_MATCH and TR_COMPLETE, listed without verdicts.',
    );
    expect(record.result?.applicable_conditions?.map((condition) => condition.id).sort()).toEqual([
      "TR_COMPLETE",
      "TR_EIN_MATCH",
      "TR_NAME_MATCH",
      "TR_SIGNED",
      "TR_TAX_YEAR",
    ]);
    expect(record.result?.summary).toContain(
      'None was judged: the instructions ask only for "credit score is above 700", which no condition here covers.',
    );
  });

  it("carries out every part of a question about the signature, the company and the EIN", async () => {
    const record = await run(
      signedReturn("Is the return signed and for the right company and EIN? Skip completeness"),
    );
    const preconditions = record.plan?.steps.find((step) => step.tool === "call_preconditions_api");
    expect(preconditions?.args).toMatchObject({
      conditions: ["TR_SIGNED", "TR_EIN_MATCH", "TR_NAME_MATCH"],
      exclude: ["TR_COMPLETE"],
    });
    expect(judgedIds(record)).toEqual(["TR_EIN_MATCH", "TR_NAME_MATCH", "TR_SIGNED"]);
    expect(loanScope(record.plan?.scope)?.unhandled).toBeUndefined();
    expect(record.result?.interpretation).toMatch(/TR_NAME_MATCH/);
  });

  it("leaves out what the instructions exclude", async () => {
    const record = await run(signedReturn("Evaluate everything except the EIN"));
    expect(judgedIds(record)).toEqual(["TR_COMPLETE", "TR_NAME_MATCH", "TR_SIGNED", "TR_TAX_YEAR"]);
    expect(record.result?.interpretation).toMatch(/TR_EIN_MATCH/);
  });

  it("writes different plans for different instructions, the same plan for the same request", async () => {
    const instructions = [
      "Evaluate all loan conditions for this tax return",
      "What conditions apply to this loan?",
      "Only check whether the tax return is signed",
      "Evaluate everything except the EIN",
      "Evaluate all conditions and show the condition history of similar loans",
    ];
    const plans = await Promise.all(
      instructions.map(async (text) => {
        const record = await run(signedReturn(text));
        return JSON.stringify(record.plan?.steps.map((step) => [step.tool, step.args]));
      }),
    );
    expect(new Set(plans).size).toBe(instructions.length);
    const again = await run(signedReturn(instructions[2] as string));
    expect(JSON.stringify(again.plan?.steps.map((step) => [step.tool, step.args]))).toBe(plans[2]);
  });

  it("names the missing month when asked whether the statements are sufficient", async () => {
    const record = await run({
      metadata: {
        loan_program: "Flex Supreme",
        classification: "Bank Statements",
        as_of_date: "2025-04-15",
        borrower_info: { name: "Jane Q. Doe", monthly_income: 8000 },
      },
      instructions: "Are these bank statements sufficient? Tell me what's missing.",
      s3_pdf_paths: ["rm-conditions/gap-2025-01.pdf", "rm-conditions/gap-2025-03.pdf"],
    });
    expect(record.result?.summary).toMatch(/^Not sufficient/);
    expect(record.result?.missing_information.join("\n")).toMatch(/2025-02/);
  });

  it("judges every condition that does not need a bad document when one of several is missing", async () => {
    const record = await run({
      ...taxReturnRequest(["rm-conditions/1120-signed.pdf", "rm-conditions/does-not-exist.pdf"]),
    } as EvaluationRequest);
    const judging = record.evidence.find((item) => item.tool === "call_conditions_ai_api");
    expect(judging?.status).toBe("ok");
    expect(record.result?.fulfilled_conditions.map((finding) => finding.id)).toContain("TR_SIGNED");
    expect(record.result?.missing_information.join("\n")).toMatch(/does-not-exist\.pdf/);
  });
});
