// Form 1120 layout 1: tax software's print, the header as a table; and its labelled variants.
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
  SIGNED,
  scheduleK,
  scheduleL,
  type Variant,
  WHOLE,
} from "./print.ts";

/**
 * A tax-software print: a filing-instructions cover letter, then page 1 with the identification as a
 * table (headings "Name of corporation | Employer identification number | Tax year ended", values in
 * the row below), the signature block as a table with its values under the captions, and every
 * continuation page headed with the name and EIN.
 */
export async function softwareHeaderTable(facts: ReturnFacts): Promise<Uint8Array> {
  const year = facts.taxYear;
  const yearEnd = facts.fiscal?.ends ?? `12/31/${year}`;
  const pageHeader = (page: number): Mark[] => [
    { text: `Form 1120 (${year})`, x: 36, y: 760, size: 8 },
    { text: facts.name, x: 200, y: 760, size: 8 },
    { text: facts.ein, x: 420, y: 760, size: 8 },
    { text: `Page ${page}`, x: 576, y: 760, size: 8, right: true },
  ];
  const cover: PageDrawing = {
    marks: [
      { text: "ORTIZ & ASSOCIATES CPAS LLC", x: 36, y: 750, size: 11, face: "bold" },
      { text: "Firm's EIN 98-7654321", x: 576, y: 750, size: 8, right: true },
      { text: "400 Main Street, Springfield, IL 62701", x: 36, y: 738, size: 8 },
      { text: "(217) 555-0142", x: 576, y: 738, size: 8, right: true },
      { text: `${year} Filing Instructions`, x: 36, y: 700, size: 14, face: "bold" },
      { text: "U.S. Corporation Income Tax Return (Form 1120)", x: 36, y: 684, size: 10 },
      { text: "Prepared for:", x: 36, y: 660, size: 9 },
      { text: facts.name, x: 160, y: 660, size: 9 },
      { text: "Prepared by:", x: 36, y: 646, size: 9 },
      { text: "Linda M. Ortiz, CPA", x: 160, y: 646, size: 9 },
      { text: "Date:", x: 380, y: 646, size: 9 },
      { text: "03/08/2025", x: 420, y: 646, size: 9 },
      { text: "Name of person to contact:", x: 36, y: 632, size: 9 },
      { text: "Linda M. Ortiz", x: 160, y: 632, size: 9 },
      { text: "Tax year ended:", x: 36, y: 618, size: 9 },
      { text: yearEnd, x: 160, y: 618, size: 9 },
      { text: "Overpayment:", x: 36, y: 604, size: 9 },
      { text: "$3,541 credited to next year's estimated tax", x: 160, y: 604, size: 9 },
      { text: "Forms included:", x: 36, y: 580, size: 9 },
      {
        text: "Form 1120; Form 1125-A; Schedule L - Balance Sheets per Books; Schedule M-1",
        x: 160,
        y: 580,
        size: 9,
      },
      { text: "Signing:", x: 36, y: 556, size: 9 },
      {
        text: "An officer must sign and date the return where indicated:",
        x: 160,
        y: 556,
        size: 9,
      },
      { text: "Signature of officer", x: 160, y: 544, size: 9 },
      { text: "Date", x: 300, y: 544, size: 9 },
      { text: "Mail to:", x: 36, y: 520, size: 9 },
      { text: "Department of the Treasury", x: 160, y: 520, size: 9 },
      { text: "Internal Revenue Service Center", x: 160, y: 508, size: 9 },
      { text: "Ogden, UT 84201-0012", x: 160, y: 496, size: 9 },
      { text: "Mail by:", x: 36, y: 480, size: 9 },
      { text: "April 15, 2025", x: 160, y: 480, size: 9 },
    ],
  };
  const pages: PageDrawing[] = [cover];
  if (facts.includePageOne) {
    const marks: Mark[] = [
      { text: "Form 1120", x: 36, y: 760, size: 14, face: "bold" },
      { text: "U.S. Corporation Income Tax Return", x: 200, y: 762, size: 12, face: "bold" },
      { text: String(year), x: 576, y: 760, size: 14, right: true, face: "bold" },
      { text: "Department of the Treasury - Internal Revenue Service", x: 36, y: 746, size: 6 },
      { text: calendarLine(facts), x: 200, y: 746, size: 7 },
      { text: "Name of corporation", x: 36, y: 722, size: 7 },
      { text: "Employer identification number", x: 330, y: 722, size: 7 },
      { text: "Tax year ended", x: 490, y: 722, size: 7 },
      { text: facts.name, x: 36, y: 709, size: 10 },
      { text: facts.ein, x: 330, y: 709, size: 10 },
      { text: yearEnd, x: 490, y: 709, size: 10 },
      { text: "Number, street, and room or suite no.", x: 36, y: 694, size: 7 },
      { text: "Date incorporated", x: 330, y: 694, size: 7 },
      { text: "Total assets", x: 490, y: 694, size: 7 },
      { text: "1250 INDUSTRIAL PKWY", x: 36, y: 681, size: 10 },
      { text: "03/15/2009", x: 330, y: 681, size: 10 },
      { text: "1,284,500", x: 490, y: 681, size: 10 },
      { text: "City or town, state, and ZIP code", x: 36, y: 666, size: 7 },
      { text: "Business activity code", x: 330, y: 666, size: 7 },
      { text: "SPRINGFIELD IL 62704", x: 36, y: 653, size: 10 },
      { text: "332900", x: 330, y: 653, size: 10 },
      {
        text: "Check if:   Initial return    Final return    Name change    Address change",
        x: 36,
        y: 636,
        size: 7,
      },
      ...incomeLines(616, 14, "software"),
      { text: "Sign Here", x: 36, y: 252, size: 10, face: "bold" },
      { text: PERJURY[0] ?? "", x: 90, y: 254, size: 5 },
      { text: PERJURY[1] ?? "", x: 90, y: 246, size: 5 },
      { text: "Signature of officer", x: 90, y: 230, size: 7 },
      { text: "Date", x: 300, y: 230, size: 7 },
      { text: "Title", x: 380, y: 230, size: 7 },
      { text: "May the IRS discuss this return with the preparer? Yes", x: 460, y: 230, size: 5 },
      ...preparerBlock(190, false),
      ...footer(year),
    ];
    if (facts.signer) marks.push({ text: facts.signer, x: 90, y: 216, size: 10 });
    if (facts.signDate) marks.push({ text: facts.signDate, x: 300, y: 216, size: 10 });
    if (facts.signer || facts.signDate) marks.push({ text: facts.officerTitle, x: 380, y: 216, size: 10 });
    pages.push({
      marks,
      rules: [
        [36, 728, 576, 728],
        [36, 702, 576, 702],
        [36, 238, 576, 238],
        [36, 210, 576, 210],
      ],
    });
  }
  pages.push(scheduleK(facts, null, pageHeader(4)));
  if (facts.includeScheduleL) {
    pages.push(
      scheduleL(
        facts,
        { text: "SCHEDULE L - BALANCE SHEETS PER BOOKS", x: 36, y: 736, size: 10, face: "bold" },
        pageHeader(6),
      ),
    );
  }
  return render(`Form 1120 (${year}) - ${facts.name}`, pages);
}

// ---------------------------------------------------------------- its labelled variants

export function softwareVariants(): Variant[] {
  const ours = { name: "ACME WIDGETS INC", ein: "12 3456789", taxYear: 2024 };
  return [
    {
      slug: "signed-complete",
      description: "all-caps name and a space-separated EIN in the header table; signed under the captions",
      facts: { ...ours, ...SIGNED, signDate: "03/10/2025", ...WHOLE },
      metadata: metadata("2025-04-15", "Acme Widgets, Inc.", { ein: "12-3456789", tax_year: 2024 }),
      labels: ALL_FULFILLED,
    },
    {
      slug: "unsigned-other-corporation",
      description:
        "another corporation's 2023 return, officer box blank under a filled preparer block, no Schedule L (the cover letter still lists it)",
      facts: {
        name: "ACME GADGETS INC",
        ein: "12 3456780",
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
      slug: "signed-undated",
      description: "the officer signed but left the date blank; no EIN or tax year in the file's metadata",
      facts: { ...ours, ...SIGNED, signDate: null, ...WHOLE },
      metadata: metadata("2025-04-15", "Acme Widgets Incorporated", {}),
      labels: {
        TR_SIGNED: "not_fulfilled",
        TR_TAX_YEAR: "fulfilled",
        TR_EIN_MATCH: "insufficient_evidence",
        TR_NAME_MATCH: "fulfilled",
        TR_COMPLETE: "fulfilled",
      },
    },
    {
      slug: "schedules-only",
      description: "the cover letter and schedules without page 1",
      facts: { ...ours, ...SIGNED, signDate: "03/10/2025", includePageOne: false, includeScheduleL: true },
      metadata: metadata("2025-04-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: { TR_SIGNED: "insufficient_evidence", TR_COMPLETE: "not_fulfilled" },
    },
  ];
}
