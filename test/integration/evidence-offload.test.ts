// Evidence above the inline limit lives in S3; the item keeps an output_ref, and every reader
// (placeholder substitution, the solver) resolves it. A tiny limit makes every output large.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples({ REWOO_EVIDENCE_INLINE_LIMIT: "256" });
});

afterAll(async () => {
  await twin?.stop();
});

describe("large evidence", () => {
  it("is stored in S3 by reference and still feeds the dependent steps and the solver", async () => {
    const { run_id } = await twin.startRun(taxReturnRequest(["rm-conditions/1120-unsigned.pdf"]));
    const run = await twin.waitForRun(run_id);
    expect(run.status).toBe("SUCCEEDED");

    for (const evidence of run.evidence) {
      expect(evidence.status, evidence.error).toBe("ok");
      expect(evidence.output).toBeUndefined();
      expect(evidence.output_ref).toMatch(
        new RegExp(`^s3://rewoo-artifacts/runs/${run_id}/evidence/E\\d+\\.json$`),
      );
    }
    const preconditions = run.evidence.find((e) => e.tool === "call_preconditions_api");
    const stored = (await twin.services.blobs.getJson(preconditions?.output_ref ?? "")) as {
      conditions: { id: string }[];
    };
    expect(stored.conditions.map((c) => c.id)).toContain("TR_SIGNED");

    // The Conditions AI step received E1.conditions from S3 and judged the unsigned return.
    expect(run.result?.unfulfilled_conditions.map((c) => c.id)).toContain("TR_SIGNED");
    expect(run.result?.fulfilled_conditions.map((c) => c.id)).toContain("TR_EIN_MATCH");
  });
});
