// The labelled-layout matrix every layout set is judged by: each case's PDFs extracted and evaluated
// once, as the agent would (`evaluate` also checks every citation is on its page); every condition
// labelled both ways on every layout; every labelled verdict right; never a false "fulfilled".
import { describe, expect, it } from "vitest";
import type { LabelledCase } from "../../../examples/layouts/cases.ts";
import type { Verdict } from "../../../lambdas/agents/loan/conditions-engine.ts";
import { extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { evaluate } from "./fixtures.ts";

export const TAX_CONDITIONS = ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"];
export const BANK_CONDITIONS = [
  "BS_TWO_MONTHS",
  "BS_NAME_MATCH",
  "BS_SAME_ACCOUNT",
  "BS_NO_NSF",
  "BS_LARGE_DEPOSITS",
];

const verdicts = new Map<LabelledCase, Promise<Map<string, Verdict>>>();

export function verdictsOf(labelled: LabelledCase): Promise<Map<string, Verdict>> {
  let result = verdicts.get(labelled);
  if (!result) {
    result = Promise.all(
      labelled.documents.map((document) => extractPdfText(document.bytes, document.key)),
    ).then((documents) => evaluate(labelled.metadata, documents));
    verdicts.set(labelled, result);
  }
  return result;
}

/** A layout set's tests: coverage (how many Form 1120 and bank layouts), each case, no false fulfilled. */
export function describeLayoutMatrix(
  title: string,
  cases: LabelledCase[],
  layouts: { form1120: number; bank: number; atLeast?: boolean },
): void {
  describe(title, () => {
    it(`has ${layouts.atLeast ? "at least " : ""}${layouts.form1120} Form 1120 and ${layouts.bank} bank layouts, every condition both ways on each`, () => {
      const names = [...new Set(cases.map((labelled) => labelled.layout))];
      const isTax = (layout: string) =>
        cases.some((labelled) => labelled.layout === layout && "TR_SIGNED" in labelled.labels);
      const count = (found: number, wanted: number) =>
        layouts.atLeast ? expect(found).toBeGreaterThanOrEqual(wanted) : expect(found).toBe(wanted);
      count(names.filter(isTax).length, layouts.form1120);
      count(names.filter((layout) => !isTax(layout)).length, layouts.bank);
      for (const layout of names) {
        for (const condition of isTax(layout) ? TAX_CONDITIONS : BANK_CONDITIONS) {
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
}
