// Form 1120 layout 3: a signature table with the officer's name in script; and its labelled variants.
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
  scheduleK,
  scheduleL,
  type Variant,
  WHOLE,
} from "./print.ts";

/**
 * A print whose identification is a label/value grid ("Corporation name", "Employer ID number") and
 * whose signature block is a table with the values in the row above the captions: the officer's
 * name in a script face floats above the row holding the date and title, as a pen signature does;
 * the preparer signed in script too.
 */
export async function signatureTableScript(facts: ReturnFacts): Promise<Uint8Array> {
  const year = facts.taxYear;
  const pages: PageDrawing[] = [];
  if (facts.includePageOne) {
    const marks: Mark[] = [
      { text: "Form 1120", x: 36, y: 758, size: 14, face: "bold" },
      { text: "U.S. Corporation Income Tax Return", x: 190, y: 760, size: 12, face: "bold" },
      { text: `Tax Year ${year}`, x: 576, y: 760, size: 10, right: true, face: "bold" },
      { text: calendarLine(facts), x: 190, y: 746, size: 7 },
      { text: "Corporation name", x: 36, y: 720, size: 7 },
      { text: facts.name, x: 150, y: 720, size: 10 },
      { text: "Employer ID number", x: 380, y: 720, size: 7 },
      { text: facts.ein, x: 470, y: 720, size: 10 },
      { text: "Street address", x: 36, y: 706, size: 7 },
      { text: "1250 Industrial Parkway", x: 150, y: 706, size: 10 },
      { text: "Date incorporated", x: 380, y: 706, size: 7 },
      { text: "03/15/2009", x: 470, y: 706, size: 10 },
      { text: "City, state, ZIP", x: 36, y: 692, size: 7 },
      { text: "Springfield, IL 62704", x: 150, y: 692, size: 10 },
      { text: "Total assets", x: 380, y: 692, size: 7 },
      { text: "$1,284,500", x: 470, y: 692, size: 10 },
      ...incomeLines(660, 15, "software"),
      { text: "Sign Here", x: 36, y: 236, size: 10, face: "bold" },
      { text: PERJURY[0] ?? "", x: 90, y: 238, size: 5 },
      { text: PERJURY[1] ?? "", x: 90, y: 230, size: 5 },
      { text: "Signature of officer", x: 90, y: 194, size: 7 },
      { text: "Date", x: 300, y: 194, size: 7 },
      { text: "Title", x: 390, y: 194, size: 7 },
      ...preparerBlock(166, true),
      ...footer(year),
    ];
    if (facts.signer) marks.push({ text: facts.signer, x: 96, y: 214, size: 16, face: "script" });
    if (facts.signDate) marks.push({ text: facts.signDate, x: 300, y: 205, size: 10 });
    if (facts.signer || facts.signDate) marks.push({ text: facts.officerTitle, x: 390, y: 205, size: 10 });
    pages.push({
      marks,
      rules: [
        [36, 728, 576, 728],
        [36, 686, 576, 686],
        [86, 224, 576, 224],
        [86, 201, 576, 201],
        [290, 224, 290, 190],
        [380, 224, 380, 190],
      ],
    });
  }
  if (facts.includeScheduleL) {
    pages.push(
      scheduleL(
        facts,
        { text: "Schedule L - Balance Sheets per Books", x: 36, y: 736, size: 10, face: "bold" },
        [
          { text: `${facts.name}   ${facts.ein}`, x: 36, y: 760, size: 8 },
          { text: `Form 1120 (${year})   Page 6`, x: 576, y: 760, size: 8, right: true },
        ],
      ),
    );
  }
  pages.push(
    scheduleK(facts, null, [
      { text: `${facts.name}   ${facts.ein}`, x: 36, y: 760, size: 8 },
      { text: `Form 1120 (${year})   Page 4`, x: 576, y: 760, size: 8, right: true },
    ]),
  );
  return render(`Form 1120 (${year}) - ${facts.name}`, pages);
}

// ---------------------------------------------------------------- its labelled variants

export function scriptVariants(): Variant[] {
  const ours = { name: "ACME WIDGETS CORP.", ein: "12-3456789", taxYear: 2024 };
  return [
    {
      slug: "signed-complete",
      description: "script signature floating above the date and title row; 'Corp.' against 'Incorporated'",
      facts: {
        ...ours,
        signer: "Robert J. Tanner",
        signDate: "March 10, 2025",
        officerTitle: "Chief Financial Officer",
        ...WHOLE,
      },
      metadata: metadata("2025-04-15", "ACME WIDGETS INCORPORATED", { ein: "12-3456789", tax_year: 2024 }),
      labels: ALL_FULFILLED,
    },
    {
      slug: "unsigned-other-corporation",
      description: "another corporation's 2023 return: only the preparer signed (in script), no Schedule L",
      facts: {
        name: "ACME GADGETS CORP.",
        ein: "12-3456780",
        taxYear: 2023,
        signer: null,
        signDate: null,
        officerTitle: "Chief Financial Officer",
        includePageOne: true,
        includeScheduleL: false,
      },
      metadata: metadata("2025-04-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: ALL_NOT_FULFILLED,
    },
    {
      slug: "signed-other-business",
      description:
        "signed and complete, but the file names a related business ('Acme Widgets Holdings') and expects tax year 2023",
      facts: {
        ...ours,
        signer: "Robert J. Tanner",
        signDate: "March 10, 2025",
        officerTitle: "Chief Financial Officer",
        ...WHOLE,
      },
      metadata: metadata("2025-04-15", "Acme Widgets Holdings Inc", { ein: "12-3456789", tax_year: 2023 }),
      labels: {
        TR_SIGNED: "fulfilled",
        TR_TAX_YEAR: "not_fulfilled",
        TR_EIN_MATCH: "fulfilled",
        TR_NAME_MATCH: "not_fulfilled",
        TR_COMPLETE: "fulfilled",
      },
    },
    {
      slug: "page-one-only",
      description: "page 1 and Schedule K without Schedule L; no business name in metadata",
      facts: {
        ...ours,
        signer: "Robert J. Tanner",
        signDate: "March 10, 2025",
        officerTitle: "Chief Financial Officer",
        includePageOne: true,
        includeScheduleL: false,
      },
      metadata: metadata("2025-04-15", null, { ein: "12-3456789", tax_year: 2024 }),
      labels: {
        TR_SIGNED: "fulfilled",
        TR_NAME_MATCH: "insufficient_evidence",
        TR_COMPLETE: "not_fulfilled",
      },
    },
  ];
}
