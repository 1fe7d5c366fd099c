// Form 1120 layout 4: a fiscal year, signed electronically; and its labelled variants.
import {
  ALL_FULFILLED,
  ALL_NOT_FULFILLED,
  calendarLine,
  footer,
  incomeLines,
  type Mark,
  metadata,
  type PageDrawing,
  PERJURY,
  preparerBlock,
  type ReturnFacts,
  render,
  scheduleL,
  type Variant,
  WHOLE,
} from "./print.ts";

/**
 * An e-filed fiscal-year return printed from the filing software: the identification boxes with
 * values under their captions, an electronic "/s/" signature whose caption, date and title are each
 * a label/value row of their own, long-form dates, and a two-year comparison page whose columns
 * show the prior year beside this one.
 */
export async function fiscalElectronic(facts: ReturnFacts): Promise<Uint8Array> {
  const year = facts.taxYear;
  const pages: PageDrawing[] = [];
  if (facts.includePageOne) {
    const marks: Mark[] = [
      { text: "Form 1120", x: 36, y: 758, size: 14, face: "bold" },
      { text: "U.S. Corporation Income Tax Return", x: 190, y: 760, size: 12, face: "bold" },
      { text: String(year), x: 576, y: 758, size: 14, right: true, face: "bold" },
      { text: calendarLine(facts), x: 150, y: 744, size: 7 },
      { text: "Name", x: 36, y: 722, size: 7 },
      { text: "Employer identification number", x: 430, y: 722, size: 7 },
      { text: facts.name, x: 36, y: 710, size: 10 },
      { text: facts.ein, x: 430, y: 710, size: 10 },
      { text: "Number, street, and room or suite no.", x: 36, y: 696, size: 7 },
      { text: "Date incorporated", x: 430, y: 696, size: 7 },
      { text: "1250 INDUSTRIAL PARKWAY", x: 36, y: 684, size: 10 },
      { text: "March 15, 2009", x: 430, y: 684, size: 10 },
      { text: "City or town, state, and ZIP code", x: 36, y: 670, size: 7 },
      { text: "Total assets", x: 430, y: 670, size: 7 },
      { text: "SPRINGFIELD, IL 62704", x: 36, y: 658, size: 10 },
      { text: "$ 1,284,500", x: 430, y: 658, size: 10 },
      ...incomeLines(630, 14, "software"),
      { text: "Sign Here", x: 36, y: 250, size: 10, face: "bold" },
      { text: PERJURY[0] ?? "", x: 90, y: 252, size: 5 },
      { text: PERJURY[1] ?? "", x: 90, y: 244, size: 5 },
      { text: "Signature of officer", x: 90, y: 228, size: 8 },
      { text: "Date", x: 90, y: 216, size: 8 },
      { text: "Title", x: 90, y: 204, size: 8 },
      { text: "Electronic return - signature on file (Form 8879-C)", x: 380, y: 216, size: 6 },
      ...preparerBlock(176, false),
      ...footer(year),
    ];
    if (facts.signer) marks.push({ text: facts.signer, x: 200, y: 228, size: 10 });
    if (facts.signDate) marks.push({ text: facts.signDate, x: 200, y: 216, size: 10 });
    if (facts.signer || facts.signDate) marks.push({ text: facts.officerTitle, x: 200, y: 204, size: 10 });
    pages.push({ marks });
  }
  const header: Mark[] = [
    { text: `Form 1120 (${year})`, x: 36, y: 760, size: 8 },
    { text: facts.name, x: 200, y: 760, size: 8 },
  ];
  pages.push({
    marks: [
      ...header,
      { text: "Two-Year Comparison Report", x: 36, y: 736, size: 11, face: "bold" },
      { text: String(year - 1), x: 420, y: 720, size: 9, right: true, face: "bold" },
      { text: String(year), x: 520, y: 720, size: 9, right: true, face: "bold" },
      { text: "Difference", x: 576, y: 720, size: 9, right: true, face: "bold" },
      { text: "Gross receipts", x: 36, y: 706, size: 8 },
      { text: "2,210,400", x: 420, y: 706, size: 8, right: true },
      { text: "2,450,000", x: 520, y: 706, size: 8, right: true },
      { text: "239,600", x: 576, y: 706, size: 8, right: true },
      { text: "Taxable income", x: 36, y: 692, size: 8 },
      { text: "231,050", x: 420, y: 692, size: 8, right: true },
      { text: "268,850", x: 520, y: 692, size: 8, right: true },
      { text: "37,800", x: 576, y: 692, size: 8, right: true },
    ],
  });
  if (facts.includeScheduleL) {
    pages.push(
      scheduleL(
        facts,
        { text: "Schedule L     Balance Sheets per Books", x: 36, y: 736, size: 10, face: "bold" },
        [...header, { text: "Page 6", x: 576, y: 760, size: 8, right: true }],
      ),
    );
  }
  return render(`Form 1120 (${year}) - ${facts.name}`, pages);
}

// ---------------------------------------------------------------- its labelled variants

export function fiscalVariants(): Variant[] {
  const ours = {
    name: "ACME WIDGETS, INCORPORATED",
    ein: "12-3456789",
    taxYear: 2024,
    fiscal: { begins: "July 1, 2024", ends: "June 30, 2025" },
  };
  const signed = {
    signer: "/s/ Robert J. Tanner",
    signDate: "2025-09-12",
    officerTitle: "Chief Executive Officer",
  };
  return [
    {
      slug: "signed-complete",
      description: "fiscal year July 2024 - June 2025, e-signature '/s/' dated 2025-09-12",
      facts: { ...ours, ...signed, ...WHOLE },
      metadata: metadata("2025-10-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: ALL_FULFILLED,
    },
    {
      slug: "unsigned-other-corporation",
      description: "another corporation's fiscal 2022 return, no e-signature, no Schedule L",
      facts: {
        name: "ACME GADGETS, INCORPORATED",
        ein: "12-3456780",
        taxYear: 2022,
        fiscal: { begins: "July 1, 2022", ends: "June 30, 2023" },
        signer: null,
        signDate: null,
        officerTitle: "Chief Executive Officer",
        includePageOne: true,
        includeScheduleL: false,
      },
      metadata: metadata("2025-10-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: ALL_NOT_FULFILLED,
    },
    {
      slug: "signed-no-year-given",
      description:
        "no tax year in metadata (fiscal 2024 is one of the two latest before the as-of date); EIN on file differs",
      facts: { ...ours, ...signed, ...WHOLE },
      metadata: metadata("2025-10-15", "Acme Widgets Inc", { ein: "98-7654321" }),
      labels: {
        TR_SIGNED: "fulfilled",
        TR_TAX_YEAR: "fulfilled",
        TR_EIN_MATCH: "not_fulfilled",
        TR_NAME_MATCH: "fulfilled",
        TR_COMPLETE: "fulfilled",
      },
    },
    {
      slug: "older-fiscal-year",
      description:
        "fiscal 2022 return when 2024 and 2023 are the latest completed years (no tax year in metadata)",
      facts: {
        ...ours,
        ...signed,
        taxYear: 2022,
        fiscal: { begins: "July 1, 2022", ends: "June 30, 2023" },
        signDate: "2023-09-14",
        ...WHOLE,
      },
      metadata: metadata("2025-10-15", "Acme Widgets Inc", { ein: "12-3456789" }),
      labels: { TR_SIGNED: "fulfilled", TR_TAX_YEAR: "not_fulfilled", TR_COMPLETE: "fulfilled" },
    },
  ];
}
