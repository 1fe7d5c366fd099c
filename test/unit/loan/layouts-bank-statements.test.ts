// The labelled matrix of bank-statement layouts the engine was not written against: every BS_
// condition both ways on six layouts. The labels come from how each file was generated, so a
// failure here is the engine misreading a layout, never the test repeating the engine.
import { describe, expect, it } from "vitest";
import { bankStatementCases } from "../../../examples/layouts/bank-statements.ts";
import type { LabelledCase } from "../../../examples/layouts/cases.ts";
import type { Verdict } from "../../../lambdas/tools/loan/conditions-engine.ts";
import { extractPdfText } from "../../../lambdas/tools/loan/pdf-text.ts";
import { evaluate } from "./fixtures.ts";

const cases = await bankStatementCases();

const verdicts = new Map<LabelledCase, Promise<Map<string, Verdict>>>();

/** Extracts a case's PDFs and evaluates them once, as the agent would (PreConditions, then Conditions AI). */
function verdictsOf(labelled: LabelledCase): Promise<Map<string, Verdict>> {
  let result = verdicts.get(labelled);
  if (!result) {
    result = Promise.all(
      labelled.documents.map((document) => extractPdfText(document.bytes, document.key)),
    ).then((documents) => evaluate(labelled.metadata, documents));
    verdicts.set(labelled, result);
  }
  return result;
}

describe("bank statements in layouts the engine was not written against", () => {
  it("covers every BS_ condition both ways on at least six layouts", () => {
    const layouts = [...new Set(cases.map((labelled) => labelled.layout))];
    expect(layouts.length).toBeGreaterThanOrEqual(6);
    for (const layout of layouts) {
      for (const condition of [
        "BS_TWO_MONTHS",
        "BS_NAME_MATCH",
        "BS_SAME_ACCOUNT",
        "BS_NO_NSF",
        "BS_LARGE_DEPOSITS",
      ]) {
        const labels = cases
          .filter((labelled) => labelled.layout === layout)
          .map((labelled) => labelled.labels[condition]);
        expect(labels, `${layout} ${condition}`).toContain("fulfilled");
        expect(labels, `${layout} ${condition}`).toContain("not_fulfilled");
      }
    }
  });

  it.each(cases.map((labelled) => [`${labelled.layout} — ${labelled.description}`, labelled] as const))(
    "%s",
    async (_name, labelled) => {
      const found = await verdictsOf(labelled);
      const wrong = Object.entries(labelled.labels).flatMap(([condition, label]) => {
        const verdict = found.get(condition);
        return verdict?.status === label
          ? []
          : [
              `${condition}: expected ${label}, got ${verdict?.status ?? "no verdict"} (${verdict?.reason ?? ""})`,
            ];
      });
      expect(wrong, `${labelled.layout}: ${labelled.description}`).toEqual([]);
    },
  );

  it("never says fulfilled where the truth is otherwise, on any layout", async () => {
    const falseFulfilled: string[] = [];
    for (const labelled of cases) {
      const found = await verdictsOf(labelled);
      for (const [condition, label] of Object.entries(labelled.labels)) {
        if (label !== "fulfilled" && found.get(condition)?.status === "fulfilled") {
          falseFulfilled.push(`${labelled.layout} (${labelled.description}): ${condition}`);
        }
      }
    }
    expect(falseFulfilled).toEqual([]);
  });
});
