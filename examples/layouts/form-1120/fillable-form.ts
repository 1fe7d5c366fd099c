// Form 1120 layout 5: the IRS fillable PDF, typed into; and its labelled variants.
import {
  ALL_FULFILLED,
  ALL_NOT_FULFILLED,
  footer,
  INCOME_LINES,
  type Mark,
  metadata,
  type PageDrawing,
  PERJURY,
  type ReturnFacts,
  render,
  scheduleK,
  scheduleL,
  type Variant,
  WHOLE,
} from "./print.ts";

/**
 * The IRS's fillable PDF typed into in a PDF editor: every value sits in a form field's widget
 * (positioned by its box, not by the printed captions' baselines), the signature is stamped in a
 * script face, and the preparer's fields are filled like the officer's.
 */
export async function fillableForm(facts: ReturnFacts): Promise<Uint8Array> {
  const year = facts.taxYear;
  const pages: PageDrawing[] = [];
  if (facts.includePageOne) {
    const marks: Mark[] = [
      { text: "Form 1120", x: 36, y: 756, size: 16, face: "bold" },
      { text: "U.S. Corporation Income Tax Return", x: 190, y: 758, size: 13, face: "bold" },
      { text: "OMB No. 1545-0123", x: 576, y: 760, size: 7, right: true },
      { text: `For calendar year ${year} or tax year beginning`, x: 170, y: 744, size: 7 },
      { text: ", ending", x: 400, y: 744, size: 7 },
      { text: String(year), x: 576, y: 740, size: 16, right: true, face: "bold" },
      { text: "Department of the Treasury  Internal Revenue Service", x: 36, y: 734, size: 6 },
      { text: "A Check if:", x: 36, y: 716, size: 7 },
      { text: "Name", x: 120, y: 716, size: 6 },
      { text: "B Employer identification number", x: 450, y: 716, size: 7 },
      {
        text: "Number, street, and room or suite no. If a P.O. box, see instructions.",
        x: 120,
        y: 690,
        size: 6,
      },
      { text: "C Date incorporated", x: 450, y: 690, size: 7 },
      {
        text: "City or town, state or province, country, and ZIP or foreign postal code",
        x: 120,
        y: 664,
        size: 6,
      },
      { text: "D Total assets (see instructions)", x: 450, y: 664, size: 7 },
      ...INCOME_LINES.flatMap(([number, label], index): Mark[] => [
        { text: number, x: 60, y: 616 - index * 14, size: 7 },
        { text: label, x: 78, y: 616 - index * 14, size: 7 },
        { text: number, x: 488, y: 616 - index * 14, size: 7 },
      ]),
      { text: "Sign", x: 36, y: 232, size: 10, face: "bold" },
      { text: PERJURY[0] ?? "", x: 80, y: 234, size: 5 },
      { text: "Here", x: 36, y: 222, size: 10, face: "bold" },
      { text: PERJURY[1] ?? "", x: 80, y: 224, size: 5 },
      { text: "Signature of officer", x: 84, y: 190, size: 7 },
      { text: "Date", x: 300, y: 190, size: 7 },
      { text: "Title", x: 380, y: 190, size: 7 },
      { text: "May the IRS discuss this return with the preparer shown below?", x: 450, y: 190, size: 5 },
      { text: "Paid", x: 36, y: 168, size: 9, face: "bold" },
      { text: "Print/Type preparer's name", x: 90, y: 170, size: 6 },
      { text: "Preparer's signature", x: 220, y: 170, size: 6 },
      { text: "Date", x: 340, y: 170, size: 6 },
      { text: "PTIN", x: 500, y: 170, size: 6 },
      { text: "Preparer", x: 36, y: 156, size: 9, face: "bold" },
      { text: "Use Only", x: 36, y: 144, size: 9, face: "bold" },
      { text: "Firm's name", x: 90, y: 144, size: 6 },
      { text: "Firm's EIN", x: 400, y: 144, size: 6 },
      ...footer(year),
    ];
    if (facts.signer) marks.push({ text: facts.signer, x: 90, y: 203, size: 14, face: "script" });
    const fields: NonNullable<PageDrawing["fields"]> = [
      { value: facts.fiscal?.begins ?? "", x: 320, y: 740, width: 78, height: 11 },
      { value: facts.fiscal?.ends ?? "", x: 432, y: 740, width: 78, height: 11 },
      { value: facts.name, x: 120, y: 699, width: 320, height: 14 },
      { value: facts.ein, x: 450, y: 699, width: 120, height: 14 },
      { value: "1250 Industrial Parkway", x: 120, y: 673, width: 320, height: 14 },
      { value: "03/15/2009", x: 450, y: 673, width: 120, height: 14 },
      { value: "Springfield, IL 62704", x: 120, y: 647, width: 320, height: 14 },
      { value: "1,284,500", x: 450, y: 647, width: 120, height: 14 },
      ...INCOME_LINES.map(([, , amount], index) => ({
        value: amount,
        x: 506,
        y: 613 - index * 14,
        width: 70,
        height: 11,
      })),
      { value: facts.signDate ?? "", x: 300, y: 199, width: 70, height: 12 },
      { value: facts.officerTitle, x: 380, y: 199, width: 66, height: 12 },
      { value: "Linda M. Ortiz, CPA", x: 90, y: 154, width: 120, height: 12 },
      { value: "03/08/2025", x: 340, y: 154, width: 60, height: 12 },
      { value: "P01234567", x: 500, y: 154, width: 70, height: 12 },
      { value: "Ortiz & Associates CPAs LLC", x: 140, y: 142, width: 200, height: 12 },
      { value: "98-7654321", x: 450, y: 142, width: 100, height: 12 },
    ];
    pages.push({ marks, fields });
  }
  pages.push(
    scheduleK(facts, null, [
      { text: `Form 1120 (${year})`, x: 36, y: 760, size: 8 },
      { text: "Page 4", x: 576, y: 760, size: 8, right: true },
    ]),
  );
  if (facts.includeScheduleL) {
    pages.push(
      scheduleL(
        facts,
        { text: "Schedule L    Balance Sheets per Books", x: 36, y: 736, size: 10, face: "bold" },
        [
          { text: `Form 1120 (${year})`, x: 36, y: 760, size: 8 },
          { text: "Page 6", x: 576, y: 760, size: 8, right: true },
        ],
      ),
    );
  }
  return render(`Form 1120 (${year}) - ${facts.name}`, pages);
}

// ---------------------------------------------------------------- its labelled variants

export function fillableVariants(): Variant[] {
  const ours = { name: "Acme Widgets, Inc.", ein: "12-3456789", taxYear: 2024 };
  return [
    {
      slug: "signed-complete",
      description: "values typed into the form's fields, signature stamped in script",
      facts: {
        ...ours,
        signer: "Robert J Tanner",
        signDate: "03/10/2025",
        officerTitle: "President",
        ...WHOLE,
      },
      metadata: metadata("2025-04-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: ALL_FULFILLED,
    },
    {
      slug: "unsigned-other-corporation",
      description: "another corporation's 2023 return: title typed, signature and date blank, no Schedule L",
      facts: {
        name: "Acme Gadgets, Inc.",
        ein: "12-3456780",
        taxYear: 2023,
        signer: null,
        signDate: null,
        officerTitle: "President",
        includePageOne: true,
        includeScheduleL: false,
      },
      metadata: metadata("2025-04-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: ALL_NOT_FULFILLED,
    },
    {
      slug: "fiscal-undated",
      description:
        "fiscal year 10/01/2024 - 09/30/2025 typed into the heading's fields; signed, date left blank; no tax year in metadata",
      facts: {
        ...ours,
        fiscal: { begins: "10/01/2024", ends: "09/30/2025" },
        signer: "Robert J Tanner",
        signDate: null,
        officerTitle: "President",
        ...WHOLE,
      },
      metadata: metadata("2026-01-20", "ACME WIDGETS", { ein: "12 3456789" }),
      labels: {
        TR_SIGNED: "not_fulfilled",
        TR_TAX_YEAR: "fulfilled",
        TR_EIN_MATCH: "fulfilled",
        TR_NAME_MATCH: "fulfilled",
        TR_COMPLETE: "fulfilled",
      },
    },
    {
      slug: "schedules-only",
      description: "Schedules K and L without page 1",
      facts: {
        ...ours,
        signer: "Robert J Tanner",
        signDate: "03/10/2025",
        officerTitle: "President",
        includePageOne: false,
        includeScheduleL: true,
      },
      metadata: metadata("2025-04-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: { TR_SIGNED: "insufficient_evidence", TR_COMPLETE: "not_fulfilled" },
    },
  ];
}
