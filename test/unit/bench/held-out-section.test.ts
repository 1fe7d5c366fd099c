// The report's held-out section: the corpus as text only, and, when measured, the same corpus with the
// offline OCR engine reading its image-only pages as the agent does.
import { describe, expect, it } from "vitest";
import type { HeldOutScore } from "../../../bench/held-out-documents.ts";
import { heldOutHeadline, heldOutSection } from "../../../bench/report-sections.ts";

const tally = { verdicts: 10, right: 0, false_fulfilled: 0, wrong_not_fulfilled: 0, insufficient: 10 };
const textOnly: HeldOutScore = {
  files: 2,
  verdicts: 10,
  right: 0,
  false_fulfilled: 0,
  wrong_not_fulfilled: 0,
  insufficient: 10,
  by_condition: { BS_TWO_MONTHS: { verdicts: 2, right: 0 } },
  by_source: { "image-only-statement": tally },
  by_batch: { "held-out-2": tally },
  misses: [],
  elapsed_ms: 1200,
  pages_ocr: 0,
};

describe("the held-out section", () => {
  it("says nothing of OCR when the corpus was judged as text only", () => {
    expect(heldOutSection(textOnly).join("\n")).not.toContain("With the offline OCR engine");
    expect(heldOutHeadline(textOnly)[0]).toMatch(
      /0\/10 verdicts right \(0\.0 %\), 0 false fulfilled, 0 wrong not_fulfilled\.$/,
    );
  });

  it("gives the OCR reading's score beside the text-only one when it was measured", () => {
    const read: HeldOutScore = {
      ...textOnly,
      with_ocr: {
        files: 2,
        verdicts: 10,
        right: 9,
        false_fulfilled: 0,
        wrong_not_fulfilled: 0,
        insufficient: 1,
        elapsed_ms: 30500,
        pages_ocr: 2,
        image_only: { verdicts: 10, right: 9 },
      },
    };
    const section = heldOutSection(read);
    expect(section).toContain(
      "With the offline OCR engine (`createTesseractEngine`, as the agent reads a page without a text layer) reading the 2 image-only pages: **9/10** right, 0 false fulfilled, 0 wrong not_fulfilled, 1 insufficient_evidence; the image-only statements (a scan and a phone photo built by the corpus's authors, never by the engine's) 9/10. 30.5 s. Only this: `npx tsx bench/held-out-documents.ts --ocr`.",
    );
    expect(heldOutHeadline(read)[0]).toContain(
      "; with the offline OCR engine reading the image-only pages, as the agent does: 9/10 (its image-only statements 9/10).",
    );
  });
});
