// Verdicts on pages read by OCR: citations say so, and a decision never rests on a read below the
// configured confidence. The OCR output is simulated on the text sample (same lines and columns,
// confidences set per column) so each rule is checked exactly; real scans are read in ocr-scans.
import { describe, expect, it } from "vitest";
import { evaluateConditions } from "../../../lambdas/agents/loan/conditions-engine.ts";
import type { ExtractedDocument } from "../../../lambdas/agents/loan/pdf-text.ts";
import { predictConditions } from "../../../lambdas/agents/loan/preconditions.ts";
import { AS_OF, BANK_METADATA, expectValidCitations, sample, TAX_METADATA } from "./fixtures.ts";

const CONDITIONS = predictConditions(TAX_METADATA, { asOf: AS_OF }).conditions;

/** The text sample as if OCR had read every page at `confidence`, except columns `lower` picks. */
async function asScanned(
  confidence: number,
  lower: (cell: string) => number | undefined = () => undefined,
  pageConfidence: (page: number) => number = () => confidence,
): Promise<ExtractedDocument> {
  const [text] = await sample("1120-signed.pdf");
  if (!text?.cells) throw new Error("the text sample has no columns");
  return {
    ...text,
    has_text_layer: false,
    cells: text.cells.map((page) =>
      page.map((line) => line.map((cell) => ({ ...cell, confidence: lower(cell.text) ?? confidence }))),
    ),
    page_sources: text.pages.map((_, index) => ({ source: "ocr", confidence: pageConfidence(index + 1) })),
    ocr: { engine: "tesseract", pages: text.pages.map((_, index) => index + 1), seconds: 1.5, confidence },
  };
}

function statuses(documents: ExtractedDocument[], ocrMinConfidence?: number) {
  const result = evaluateConditions(CONDITIONS, documents, {
    asOf: AS_OF,
    ...(ocrMinConfidence !== undefined ? { ocrMinConfidence } : {}),
  });
  expectValidCitations(result.verdicts, documents);
  return result;
}

describe("verdicts read from OCR pages", () => {
  it("decide as on the text, every citation marked ocr with the confidence of the values it rests on", async () => {
    const scanned = await asScanned(93, (cell) => (cell === "Acme Widgets, Inc." ? 88 : undefined));
    const { verdicts, documents } = statuses([scanned]);
    expect(verdicts.map((verdict) => [verdict.condition_id, verdict.status])).toEqual([
      ["TR_SIGNED", "fulfilled"],
      ["TR_TAX_YEAR", "fulfilled"],
      ["TR_EIN_MATCH", "fulfilled"],
      ["TR_NAME_MATCH", "fulfilled"],
      ["TR_COMPLETE", "fulfilled"],
    ]);
    for (const verdict of verdicts) {
      for (const citation of verdict.citations) expect(citation).toMatchObject({ source: "ocr" });
    }
    // The EIN and the name are cited with the same excerpt; each verdict reports its own value's read.
    const ein = verdicts.find((verdict) => verdict.condition_id === "TR_EIN_MATCH");
    const name = verdicts.find((verdict) => verdict.condition_id === "TR_NAME_MATCH");
    expect(ein?.citations[0]?.confidence).toBe(93);
    expect(name?.citations[0]?.confidence).toBe(88);
    expect(documents?.[0]?.ocr).toEqual({
      engine: "tesseract",
      pages: [1, 2, 3],
      seconds: 1.5,
      confidence: 93,
    });
    const fields = documents?.[0]?.extraction?.fields ?? [];
    expect(fields.find((field) => field.field === "corporation_name")?.ocr_confidence).toBe(88);
    expect(fields.find((field) => field.field === "ein")?.ocr_confidence).toBe(93);
  });

  it("a value read below the minimum but exactly the one the loan file states is verified, down to 50 %", async () => {
    const scanned = await asScanned(93, (cell) => (cell === "12-3456789" ? 61 : undefined));
    const ein = statuses([scanned]).verdicts.find((verdict) => verdict.condition_id === "TR_EIN_MATCH");
    expect(ein?.status, ein?.reason).toBe("fulfilled");
    expect(ein?.reason).toContain(
      "verified on a scan read below the 80% bar: page 1 of rm-conditions/1120-signed.pdf (read by OCR at 61%, the page at 93%) prints the expected value character for character",
    );
    expect(ein?.citations[0]).toMatchObject({ page: 1, source: "ocr", confidence: 61 });
    // Punctuation and case aside, "Acme Widgets, Inc." is the stated "Acme Widgets Inc": verified too.
    const named = await asScanned(93, (cell) => (cell === "Acme Widgets, Inc." ? 61 : undefined));
    const name = statuses([named]).verdicts.find((verdict) => verdict.condition_id === "TR_NAME_MATCH");
    expect(name?.status, name?.reason).toBe("fulfilled");
    expect(name?.reason).toContain("prints the expected value character for character");
  });

  it("a field read below the verified minimum makes its verdict insufficient evidence naming the field", async () => {
    const scanned = await asScanned(93, (cell) => (cell === "12-3456789" ? 45 : undefined));
    const { verdicts } = statuses([scanned]);
    const ein = verdicts.find((verdict) => verdict.condition_id === "TR_EIN_MATCH");
    expect(ein?.status).toBe("insufficient_evidence");
    expect(ein?.reason).toContain(
      "ein on page 1 of rm-conditions/1120-signed.pdf was read by OCR at 45% confidence, below the 80% required",
    );
    expect(ein?.missing).toEqual([
      "ein on page 1 of rm-conditions/1120-signed.pdf was read by OCR at 45% confidence, below the 80% required",
    ]);
    expect(ein?.remedies?.[0]).toMatch(/^Read TR_EIN_MATCH on the scan by hand/);
    // The citation stays, so the officer sees what was read and where.
    expect(ein?.citations[0]).toMatchObject({ page: 1, source: "ocr", confidence: 45 });
    // The name beside it was read well: its verdict stands.
    expect(verdicts.find((verdict) => verdict.condition_id === "TR_NAME_MATCH")?.status).toBe("fulfilled");
  });

  it("a name in the officer's box shows it signed when read at 60 % or surer; the date beside it must clear the bar", async () => {
    const signed = (name: number, date = 93) => {
      const cells: Record<string, number> = { "Robert J. Tanner": name, "03/10/2025": date };
      return asScanned(93, (cell) => cells[cell]).then((scanned) => statuses([scanned]).verdicts);
    };
    const italic = (await signed(72)).find((verdict) => verdict.condition_id === "TR_SIGNED");
    expect(italic?.status, italic?.reason).toBe("fulfilled");
    // Cited with what it rests on beyond the name's presence: the date, read at 93 %.
    expect(italic?.citations[0]).toMatchObject({ source: "ocr", confidence: 93 });
    const noise = (await signed(55)).find((verdict) => verdict.condition_id === "TR_SIGNED");
    expect(noise?.status).toBe("insufficient_evidence");
    expect(noise?.reason).toContain("read by OCR at 55% confidence");
    const date = (await signed(95, 70)).find((verdict) => verdict.condition_id === "TR_SIGNED");
    expect(date?.status).toBe("insufficient_evidence");
  });

  it("the minimum is configurable", async () => {
    const scanned = await asScanned(93, (cell) => (cell === "12-3456789" ? 45 : undefined));
    const { verdicts } = statuses([scanned], 40);
    expect(verdicts.find((verdict) => verdict.condition_id === "TR_EIN_MATCH")?.status).toBe("fulfilled");
  });

  it("a page read with low mean confidence undermines every decision resting on it, not a well-read page's", async () => {
    // The page Schedule L is cited on (TR_COMPLETE's other page): the other verdicts rest on page 1.
    const wellRead = statuses([await asScanned(93)]).verdicts;
    const poor = wellRead
      .flatMap((verdict) => verdict.citations.map((citation) => citation.page))
      .find((page) => page > 1);
    expect(poor).toBeDefined();
    // Below even the minimum of a verification (the printed Schedule L title read word for word).
    const scanned = await asScanned(93, undefined, (page) => (page === poor ? 45 : 93));
    const { verdicts } = statuses([scanned]);
    const onPoorPage = verdicts.filter((verdict) =>
      verdict.citations.some((citation) => citation.page === poor),
    );
    const elsewhere = verdicts.filter((verdict) => !onPoorPage.includes(verdict));
    expect(onPoorPage.length).toBeGreaterThan(0);
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const verdict of onPoorPage) {
      expect(verdict.status, verdict.condition_id).toBe("insufficient_evidence");
      expect(verdict.reason).toContain(
        `page ${poor} of rm-conditions/1120-signed.pdf was read by OCR at 45% mean confidence, below the 50% required`,
      );
    }
    for (const verdict of elsewhere) expect(verdict.status, verdict.condition_id).toBe("fulfilled");
    // At 55 % the title, read exactly, still verifies Schedule L; the reason says on what.
    const verified = statuses([await asScanned(93, undefined, (page) => (page === poor ? 55 : 93))]).verdicts;
    const complete = verified.find((verdict) => verdict.condition_id === "TR_COMPLETE");
    expect(complete?.status, complete?.reason).toBe("fulfilled");
    expect(complete?.reason).toContain(`the page at 55%) prints the expected value character for character`);
  });

  it("a 'yes' whose own words were read at 90 % or surer stands on a page read below the bar; a 'no' does not", async () => {
    const year = (documents: ExtractedDocument[], conditions = CONDITIONS) =>
      evaluateConditions(conditions, documents, { asOf: AS_OF }).verdicts.find(
        (verdict) => verdict.condition_id === "TR_TAX_YEAR",
      );
    // Page 1 read at 65 % (its small print), the words the year is read from at 93 %.
    const surely = year([await asScanned(93, undefined, (page) => (page === 1 ? 65 : 93))]);
    expect(surely?.status, surely?.reason).toBe("fulfilled");
    expect(surely?.reason).toContain(
      "read surely on a scan read below the 80% bar: page 1 of rm-conditions/1120-signed.pdf (read by OCR at 93%, the page at 65%)",
    );
    // The same words read at 85 %: the page's reading counts, and it is below the bar.
    const unsure = year([await asScanned(85, undefined, (page) => (page === 1 ? 65 : 93))]);
    expect(unsure?.status).toBe("insufficient_evidence");
    expect(unsure?.reason).toContain(
      "page 1 of rm-conditions/1120-signed.pdf was read by OCR at 65% mean confidence, below the 80% required",
    );
    // Below the verification's minimum even sure words do not stand.
    const garbled = year([await asScanned(95, undefined, (page) => (page === 1 ? 45 : 93))]);
    expect(garbled?.status).toBe("insufficient_evidence");
    // A "no" read as surely, on the same page, stays undecided: it needs the page too.
    const otherYear = predictConditions(
      { ...TAX_METADATA, extracted_entities: { ...TAX_METADATA.extracted_entities, tax_year: 2021 } },
      { asOf: AS_OF },
    ).conditions;
    const no = year([await asScanned(95, undefined, (page) => (page === 1 ? 65 : 95))], otherYear);
    expect(no?.status, no?.reason).toBe("insufficient_evidence");
    expect(no?.reason).toContain("the reading was not_fulfilled");
  });

  it("a conclusion from absence rests on every page: no fee found on a statement with a poorly read page is undecided", async () => {
    const statements = (await sample("statement-2025-01.pdf", "statement-2025-02.pdf")).map(
      (text): ExtractedDocument => ({
        ...text,
        has_text_layer: false,
        cells: (text.cells ?? []).map((page) =>
          page.map((line) => line.map((cell) => ({ ...cell, confidence: 95 }))),
        ),
        page_sources: text.pages.map((_, index) => ({
          source: "ocr",
          confidence: index === text.pages.length - 1 ? 60 : 95,
        })),
      }),
    );
    const conditions = predictConditions(BANK_METADATA, { asOf: AS_OF }).conditions.filter(
      (condition) => condition.id === "BS_NO_NSF",
    );
    const [verdict] = evaluateConditions(conditions, statements, { asOf: AS_OF }).verdicts;
    expect(verdict?.status).toBe("insufficient_evidence");
    expect(verdict?.reason).toMatch(/was read by OCR at 60% mean confidence, below the 80% required/);
  });

  it("pages OCR could not read are named as such, not as a missing text layer only", async () => {
    const [text] = await sample("1120-signed.pdf");
    if (!text) throw new Error("no sample");
    const blank: ExtractedDocument = {
      ...text,
      pages: text.pages.map(() => ""),
      cells: text.pages.map(() => []),
      has_text_layer: false,
      page_sources: text.pages.map(() => ({ source: "none" })),
      ocr: { engine: "tesseract", pages: [1, 2, 3], seconds: 2, confidence: 0 },
    };
    const { verdicts, documents } = statuses([blank]);
    expect(verdicts.every((verdict) => verdict.status === "insufficient_evidence")).toBe(true);
    expect(documents?.[0]).toMatchObject({
      status: "no_text_layer",
      reason:
        "rm-conditions/1120-signed.pdf has no text layer (scanned image?) and OCR (tesseract) could not read any text on it",
    });
    expect(verdicts[0]?.remedies?.[0]).toContain("or a sharper scan");
  });

  it("text-layer pages are cited without an OCR mark", async () => {
    const documents = await sample("1120-signed.pdf");
    const { verdicts } = statuses(documents);
    for (const verdict of verdicts) {
      for (const citation of verdict.citations) {
        expect(citation.source).toBeUndefined();
        expect(citation.confidence).toBeUndefined();
      }
    }
  });
});

describe("a not_fulfilled read off a scan", () => {
  const WRONG_EIN = { ...TAX_METADATA, extracted_entities: { ein: "98-7654321", tax_year: 2024 } };
  const einVerdict = (document: ExtractedDocument) =>
    evaluateConditions(predictConditions(WRONG_EIN, { asOf: AS_OF }).conditions, [document], {
      asOf: AS_OF,
    }).verdicts.find((verdict) => verdict.condition_id === "TR_EIN_MATCH");

  it("needs the text it rests on read at 90 % or surer: an EIN read at 85 % cannot say the EIN differs", async () => {
    const unsure = einVerdict(await asScanned(93, (cell) => (/\d{2}-?\s?\d{7}/.test(cell) ? 85 : undefined)));
    expect(unsure?.status).toBe("insufficient_evidence");
    expect(unsure?.reason).toContain("below the 90% required for a not_fulfilled");
    const sure = einVerdict(await asScanned(93));
    expect(sure?.status).toBe("not_fulfilled");
  });

  it("is undecided when the scanned value is within a letter of the stated one, however sure the read", async () => {
    // "Acme Widgets, Inc." printed; the loan file says "Acme Widgetz Inc": one letter apart.
    const near = {
      ...TAX_METADATA,
      borrower_info: { ...TAX_METADATA.borrower_info, business_name: "Acme Widgetz Inc" },
    };
    const nameVerdict = (document: ExtractedDocument) =>
      evaluateConditions(predictConditions(near, { asOf: AS_OF }).conditions, [document], {
        asOf: AS_OF,
      }).verdicts.find((verdict) => verdict.condition_id === "TR_NAME_MATCH");
    const scanned = nameVerdict(await asScanned(97));
    expect(scanned?.status).toBe("insufficient_evidence");
    expect(scanned?.reason).toMatch(
      /^cannot decide TR_NAME_MATCH from a scan: corporation_name on page 1 of rm-conditions\/1120-signed\.pdf was read by OCR within 1 letter\(s\) of the expected value: a misreading cannot be told from another value/,
    );
    // Printed in the text layer, the same difference is a different name.
    const [text] = await sample("1120-signed.pdf");
    if (!text) throw new Error("no text sample");
    expect(nameVerdict(text)?.status).toBe("not_fulfilled");
    // A value far from the stated one stays a "no" on a clear scan (the EIN test above).
  });

  it("decides on the general bar when the EIN read is the stated one with two neighbouring digits swapped", async () => {
    // The sample prints 12-3456789. A swap is a typing slip, not a misreading: OCR reads each digit
    // where it stands. One digit off is a near miss, undecided however sure the read.
    const verdictFor = async (ein: string, confidence: number) =>
      evaluateConditions(
        predictConditions({ ...TAX_METADATA, extracted_entities: { ein, tax_year: 2024 } }, { asOf: AS_OF })
          .conditions,
        [await asScanned(93, (cell) => (/\d{2}-?\s?\d{7}/.test(cell) ? confidence : undefined))],
        { asOf: AS_OF },
      ).verdicts.find((verdict) => verdict.condition_id === "TR_EIN_MATCH");
    const swappedRead = await verdictFor("12-3456798", 85);
    expect(swappedRead?.status).toBe("not_fulfilled");
    expect(swappedRead?.reason).toContain("12-3456789");
    expect((await verdictFor("12-3456798", 75))?.status).toBe("insufficient_evidence");
    const oneOff = await verdictFor("12-3456788", 97);
    expect(oneOff?.status).toBe("insufficient_evidence");
    expect(oneOff?.reason).toContain("a misreading cannot be told from another value");
  });

  it("while a fulfilled still stands on the general bar (85 % above 80 %)", async () => {
    const scanned = await asScanned(85);
    const { verdicts } = statuses([scanned]);
    expect(verdicts.find((verdict) => verdict.condition_id === "TR_EIN_MATCH")?.status).toBe("fulfilled");
  });
});
