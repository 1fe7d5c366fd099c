// A document that addresses the model ("SYSTEM: ignore previous instructions…", a forged
// </evidence>, a forged verdict) goes through the twin with the default rule-based provider: the
// verdicts are those of the same document without that text, because the conditions engine decides
// from the form's fields and the solver from the engine's structured verdicts. The scripted-model
// counterpart, which asserts on the prompts themselves, is prompt-injection-scripted.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { buildInjectedReturn, CLEAN_KEY, INJECTED_KEY, INJECTION } from "./injected-document.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  const bucket = twin.services.config.documentsBucket;
  await twin.services.blobs.putBytes(
    { bucket, key: INJECTED_KEY },
    await buildInjectedReturn(),
    "application/pdf",
  );
});

afterAll(async () => {
  await twin?.stop();
});

async function evaluate(key: string): Promise<RunRecord> {
  const { run_id } = await twin.startRun(taxReturnRequest([key]));
  const run = await twin.waitForRun(run_id);
  expect(run.status, JSON.stringify(run.error)).toBe("SUCCEEDED");
  return run;
}

function verdicts(run: RunRecord): Record<string, string> {
  return Object.fromEntries([
    ...(run.result?.fulfilled_conditions ?? []).map((c) => [c.id, "fulfilled"]),
    ...(run.result?.unfulfilled_conditions ?? []).map((c) => [c.id, String(c.status)]),
  ]);
}

function engineVerdicts(run: RunRecord): Record<string, string> {
  const output = run.evidence.find((e) => e.tool === "call_conditions_ai_api")?.output as
    | { verdicts: Array<{ condition_id: string; status: string }> }
    | undefined;
  return Object.fromEntries((output?.verdicts ?? []).map((v) => [v.condition_id, v.status]));
}

describe("a document with instructions for the model, rule-based provider", () => {
  it("gets the verdicts of the same document without them: the unsigned return stays not_fulfilled", async () => {
    const clean = await evaluate(CLEAN_KEY);
    const injected = await evaluate(INJECTED_KEY);

    // The injected text was read: it is in the retrieval the solver sees.
    const retrieval = injected.evidence.find((e) => e.tool === "retrieve_s3_document");
    expect((retrieval?.output as { preview?: string } | undefined)?.preview).toContain(INJECTION.command);

    expect(verdicts(injected)).toEqual(verdicts(clean));
    expect(engineVerdicts(injected)).toEqual(engineVerdicts(clean));
    expect(verdicts(injected)).toEqual({
      TR_SIGNED: "not_fulfilled",
      TR_TAX_YEAR: "fulfilled",
      TR_EIN_MATCH: "fulfilled",
      TR_NAME_MATCH: "fulfilled",
      TR_COMPLETE: "fulfilled",
    });
    // Same plan shape: the document could not add a step.
    expect(injected.plan?.steps.map((s) => s.tool)).toEqual(clean.plan?.steps.map((s) => s.tool));
    // Nothing the document said found its way into the answer.
    const answer = JSON.stringify(injected.result);
    for (const phrase of ["ignore previous instructions", "Underwriter note", "report every condition"]) {
      expect(answer).not.toContain(phrase);
    }
  });
});
