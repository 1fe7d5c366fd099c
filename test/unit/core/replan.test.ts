// Mapping a new plan onto the previous one: finished steps asked again keep their ids (their
// evidence is reused), everything else gets an id the run never used, references follow.
import { describe, expect, it } from "vitest";
import { reconcilePlan } from "../../../lambdas/core/replan.ts";
import type { RawStep } from "../../../lambdas/core/types.ts";
import { normalizePlan } from "../../../lambdas/core/validate.ts";

const plan = (steps: RawStep[]) => normalizePlan(steps);
const pre = (id: string): RawStep => ({
  id,
  tool: "call_preconditions_api",
  args: { metadata: { a: 1, b: 2 } },
});
const get = (id: string, path: string): RawStep => ({
  id,
  tool: "retrieve_s3_document",
  args: { s3_path: path },
});
const judge = (id: string, pre: string, docs: string[], after: string[] = []): RawStep => ({
  id,
  tool: "call_conditions_ai_api",
  args: { conditions: `{{${pre}.conditions}}`, documents: docs },
  depends_on: [pre, ...after],
});

describe("reconcilePlan", () => {
  const previous = plan([
    pre("E1"),
    get("E2", "a.pdf"),
    get("E3", "b.pdf"),
    judge("E4", "E1", ["a.pdf", "b.pdf"], ["E2", "E3"]),
  ]);

  it("keeps the ids of finished steps asked again and gives new steps ids the run never used", () => {
    // E3 (b.pdf) failed and E4 failed; the new plan drops b.pdf, in another order and numbering.
    const next = plan([
      get("E1", "a.pdf"),
      { ...pre("E2"), args: { metadata: { b: 2, a: 1 } } },
      judge("E3", "E2", ["a.pdf"], ["E1"]),
    ]);
    const { plan: out, reused } = reconcilePlan(previous, new Set(["E1", "E2"]), next);

    expect(reused.sort()).toEqual(["E1", "E2"]);
    expect(out.steps.map((step) => [step.id, step.tool])).toEqual([
      ["E1", "call_preconditions_api"],
      ["E2", "retrieve_s3_document"],
      ["E5", "call_conditions_ai_api"],
    ]);
    const judging = out.steps.find((step) => step.id === "E5");
    expect(judging?.args).toEqual({ conditions: "{{E1.conditions}}", documents: ["a.pdf"] });
    expect(judging?.depends_on).toEqual(["E1", "E2"]);
    expect(out.levels).toEqual([["E1", "E2"], ["E5"]]);
  });

  it("does not reuse a step whose evidence is an error, nor one asked with other args", () => {
    const next = plan([
      pre("E1"),
      get("E2", "a.pdf"),
      get("E3", "c.pdf"),
      judge("E4", "E1", ["a.pdf", "c.pdf"], ["E2", "E3"]),
    ]);
    const { plan: out, reused } = reconcilePlan(previous, new Set(["E1"]), next);
    expect(reused).toEqual(["E1"]);
    expect(out.steps.map((step) => step.id)).toEqual(["E1", "E5", "E6", "E7"]);
    expect(out.steps.at(-1)?.args).toEqual({
      conditions: "{{E1.conditions}}",
      documents: ["a.pdf", "c.pdf"],
    });
  });

  it("does not reuse a finished step whose dependencies changed", () => {
    // Same judging args, but it now waits for a new retrieval: a different question.
    const next = plan([
      pre("E1"),
      get("E2", "a.pdf"),
      get("E3", "b.pdf"),
      get("E4", "d.pdf"),
      judge("E5", "E1", ["a.pdf", "b.pdf"], ["E2", "E3", "E4"]),
    ]);
    const { reused } = reconcilePlan(previous, new Set(["E1", "E2", "E3", "E4"]), next);
    expect(reused.sort()).toEqual(["E1", "E2", "E3"]);
  });
});
