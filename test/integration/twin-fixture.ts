// Boots one local twin per test file (each vitest file runs in its own process, like a Lambda
// container has its own configuration) with the sample documents uploaded.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin, type TwinOptions } from "../../infra/local/twin.ts";
import type { RunRecord, RunResult, RunStatus } from "../../lambdas/core/types.ts";

export async function bootTwinWithSamples(
  env: Record<string, string> = {},
  options: Omit<TwinOptions, "env" | "persist"> = {},
): Promise<Twin> {
  const twin = await startTwin({ persist: false, env, ...options });
  const bucket = twin.services.config.documentsBucket;
  for (const document of await generateSampleDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
  }
  return twin;
}

/** The solver's answer of the scripted-model twins: it decides nothing, so the tests look at the plan and the steps. */
const EMPTY_ANSWER: RunResult = {
  summary: "Evaluated.",
  fulfilled_conditions: [],
  unfulfilled_conditions: [],
  missing_information: [],
  recommendations: [],
};

/**
 * A twin whose model is the scripted provider answering `responses` (the planner's, the tools'), then
 * EMPTY_ANSWER for the solver and a passing review for every reviewer.
 */
export async function bootTwinWithScriptedModel(
  responses: ReadonlyArray<Record<string, unknown>>,
  env: Record<string, string> = {},
): Promise<Twin> {
  const file = join(mkdtempSync(join(tmpdir(), "rewoo-scripted-")), "responses.json");
  writeFileSync(
    file,
    JSON.stringify([
      ...responses,
      { purpose: "solver", text: JSON.stringify(EMPTY_ANSWER) },
      {
        purpose: "review",
        text: JSON.stringify({
          criteria: { relevance: 9, completeness: 9, safety: 9, quality: 9 },
          issues: [],
        }),
      },
    ]),
  );
  return bootTwinWithSamples({ REWOO_LLM_PROVIDER: "scripted", REWOO_SCRIPTED_RESPONSES: file, ...env });
}

export const taxReturnRequest = (documents: string[], extra: Record<string, unknown> = {}) => ({
  metadata: {
    loan_program: "Flex Supreme",
    classification: "1120 Corporate Tax Return",
    as_of_date: "2025-04-15",
    borrower_info: { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 },
    extracted_entities: { ein: "12-3456789", tax_year: 2024 },
  },
  instructions: "Evaluate all loan conditions for this tax return",
  s3_pdf_paths: documents,
  ...extra,
});

const STATEMENTS = [
  "rm-conditions/statement-2025-01.pdf",
  "rm-conditions/statement-2025-02.pdf",
  "rm-conditions/statement-2025-03-nsf.pdf",
];

/** The sample bank statements, without the monthly income BS_LARGE_DEPOSITS needs. */
export const bankRequestWithoutIncome = (extra: Record<string, unknown> = {}) => ({
  metadata: {
    loan_program: "Flex Supreme",
    classification: "Bank Statements",
    as_of_date: "2025-04-15",
    borrower_info: { name: "Jane Q. Doe", business_name: "Acme Widgets Inc" },
  },
  instructions: "Check if these bank statements are sufficient for income verification.",
  s3_pdf_paths: STATEMENTS,
  ...extra,
});

/** POST JSON to the twin's REST API. */
export async function post(api: string, path: string, body: unknown) {
  const response = await fetch(new URL(path, api), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Resolves once the run is in `status`; throws if it ends first. */
export async function untilStatus(twin: Twin, runId: string, status: RunStatus): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const meta = await twin.services.runs.getMeta(runId);
    if (meta.status === status) return;
    if (
      ["SUCCEEDED", "FAILED", "CANCELLED", "INTERRUPTED", "NEEDS_REVIEW", "REJECTED"].includes(meta.status)
    ) {
      throw new Error(`run ${runId} ended ${meta.status} while waiting for ${status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`run ${runId} never reached ${status}`);
}

/**
 * Resolves once the run has an event of `stage`. A wait stores its status (and task token) before it
 * publishes the event that announces it, so a caller that saw the status follows the events for it.
 */
export async function untilEvent(twin: Twin, runId: string, stage: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await twin.services.runs.listEvents(runId)).some((event) => event.stage === stage)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`run ${runId} never published a ${stage} event`);
}

/** fulfilled, not_fulfilled or insufficient_evidence (fulfilled findings carry no status of their own). */
export const verdictOf = (record: RunRecord, id: string): string | undefined => {
  if (record.result?.fulfilled_conditions.some((finding) => finding.id === id)) return "fulfilled";
  return record.result?.unfulfilled_conditions.find((finding) => finding.id === id)?.status;
};
