// The second held-out check: two Form 1120 prints and three bank layouts designed without reading
// the finders (examples/layouts/holdout-2.ts). Labels come from how each file was generated, so a
// failure here is the engine misreading a layout, never the test repeating the engine.
import { describe, expect, it } from "vitest";
import type { LabelledCase } from "../../../examples/layouts/cases.ts";
import { holdoutCases2 } from "../../../examples/layouts/holdout-2.ts";
import type { Verdict } from "../../../lambdas/tools/loan/conditions-engine.ts";
import { extractPdfText } from "../../../lambdas/tools/loan/pdf-text.ts";
import { evaluate } from "./fixtures.ts";

const cases = await holdoutCases2();

const verdicts = new Map<LabelledCase, Promise<Map<string, Verdict>>>();

/** Extracts a case's PDFs and evaluates them once, as the agent would; evaluate checks every citation. */
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

const TAX = ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"];
const BANK = ["BS_TWO_MONTHS", "BS_NAME_MATCH", "BS_SAME_ACCOUNT", "BS_NO_NSF", "BS_LARGE_DEPOSITS"];

describe("second held-out check: layouts designed without reading the finders", () => {
  it("has two Form 1120 prints and three bank layouts, every condition both ways on each", () => {
    const layouts = [...new Set(cases.map((labelled) => labelled.layout))];
    const isTax = (layout: string) =>
      cases.some((labelled) => labelled.layout === layout && "TR_SIGNED" in labelled.labels);
    expect(layouts.filter(isTax)).toHaveLength(2);
    expect(layouts.filter((layout) => !isTax(layout))).toHaveLength(3);
    for (const layout of layouts) {
      for (const condition of isTax(layout) ? TAX : BANK) {
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
