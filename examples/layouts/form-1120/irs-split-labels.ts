// Form 1120 layout 2: the IRS form, labels split over lines; and its labelled variants.
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
 * A reproduction of the IRS form where narrow boxes wrap their captions ("B Employer identification"
 * / "number"), the EIN is typed without its hyphen, a DBA line sits under the name, and the return
 * carries Schedule K naming a parent corporation with its own EIN, and Form 1125-A.
 */
export async function irsSplitLabels(facts: ReturnFacts): Promise<Uint8Array> {
  const year = facts.taxYear;
  const pages: PageDrawing[] = [];
  if (facts.includePageOne) {
    const marks: Mark[] = [
      { text: "Form", x: 36, y: 766, size: 7 },
      { text: "1120", x: 36, y: 748, size: 20, face: "bold" },
      { text: "U.S. Corporation Income Tax Return", x: 200, y: 762, size: 12, face: "bold" },
      { text: "OMB No. 1545-0123", x: 576, y: 766, size: 6, right: true },
      { text: calendarLine(facts), x: 170, y: 748, size: 7 },
      { text: String(year), x: 576, y: 746, size: 18, right: true, face: "bold" },
      { text: "Department of the Treasury", x: 36, y: 736, size: 6 },
      {
        text: "Go to www.irs.gov/Form1120 for instructions and the latest information.",
        x: 190,
        y: 736,
        size: 6,
      },
      { text: "Internal Revenue Service", x: 36, y: 728, size: 6 },
      { text: "A Check if:", x: 36, y: 716, size: 7 },
      { text: "Name", x: 120, y: 716, size: 6 },
      { text: "B Employer identification", x: 450, y: 716, size: 7 },
      { text: "1a Consolidated return", x: 36, y: 707, size: 6 },
      { text: "number", x: 458, y: 707, size: 7 },
      { text: facts.name, x: 120, y: 697, size: 10 },
      { text: facts.ein, x: 452, y: 697, size: 10 },
      { text: "b Life/nonlife consolidated", x: 36, y: 685, size: 6 },
      { text: "C Date incorporated", x: 450, y: 685, size: 7 },
      { text: "2 Personal holding co.", x: 36, y: 674, size: 6 },
      {
        text: "Number, street, and room or suite no. If a P.O. box, see instructions.",
        x: 120,
        y: 674,
        size: 6,
      },
      { text: "03/15/2009", x: 452, y: 674, size: 10 },
      { text: "1250 Industrial Parkway, Suite 200", x: 120, y: 663, size: 10 },
      { text: "D Total assets (see instructions)", x: 450, y: 663, size: 7 },
      { text: "3 Personal service corp.", x: 36, y: 652, size: 6 },
      {
        text: "City or town, state or province, country, and ZIP or foreign postal code",
        x: 120,
        y: 652,
        size: 6,
      },
      { text: "Springfield, IL 62704", x: 120, y: 641, size: 10 },
      { text: "$ 1,284,500", x: 452, y: 641, size: 10 },
      { text: "TYPE OR PRINT", x: 112, y: 650, size: 6, vertical: true },
      {
        text: "E Check if: (1) Initial return   (2) Final return   (3) Name change   (4) Address change",
        x: 36,
        y: 626,
        size: 7,
      },
      ...incomeLines(606, 14, "irs"),
      { text: "Income", x: 46, y: 560, size: 7, vertical: true },
      { text: "Sign", x: 36, y: 232, size: 10, face: "bold" },
      { text: PERJURY[0] ?? "", x: 80, y: 234, size: 5 },
      { text: "Here", x: 36, y: 222, size: 10, face: "bold" },
      { text: PERJURY[1] ?? "", x: 80, y: 224, size: 5 },
      { text: "May the IRS discuss this return", x: 450, y: 206, size: 6 },
      { text: "Signature of officer", x: 84, y: 192, size: 7 },
      { text: "Date", x: 300, y: 192, size: 7 },
      { text: "Title", x: 380, y: 192, size: 7 },
      { text: "with the preparer shown below?", x: 450, y: 192, size: 6 },
      { text: "Yes", x: 550, y: 192, size: 6 },
      ...preparerBlock(170, false),
      ...footer(year),
    ];
    if (facts.dba) marks.push({ text: facts.dba, x: 120, y: 688, size: 9 });
    if (facts.signer) marks.push({ text: facts.signer, x: 84, y: 203, size: 10 });
    if (facts.signDate) marks.push({ text: facts.signDate, x: 300, y: 203, size: 10 });
    if (facts.signer || facts.signDate) marks.push({ text: facts.officerTitle, x: 380, y: 203, size: 10 });
    pages.push({
      marks,
      rules: [
        [116, 724, 116, 636],
        [446, 724, 446, 636],
        [80, 200, 446, 200],
      ],
    });
  }
  const header: Mark[] = [
    { text: `Form 1120 (${year})`, x: 36, y: 760, size: 8 },
    { text: "Page 4", x: 576, y: 760, size: 8, right: true },
  ];
  pages.push(scheduleK(facts, { name: "TANNER HOLDINGS LLC", ein: "45-6789012" }, header));
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
  // Form 1125-A repeats the name and EIN in a header of its own, hyphenated this time.
  pages.push({
    marks: [
      { text: "Form 1125-A", x: 36, y: 756, size: 12, face: "bold" },
      { text: "Cost of Goods Sold", x: 220, y: 758, size: 12, face: "bold" },
      { text: "Attach to Form 1120, 1120-C, 1120-F, 1120S, or 1065.", x: 200, y: 744, size: 7 },
      { text: "Name", x: 36, y: 724, size: 7 },
      { text: "Employer identification number", x: 430, y: 724, size: 7 },
      { text: facts.name, x: 36, y: 712, size: 10 },
      { text: `${facts.ein.slice(0, 2)}-${facts.ein.replace(/\D/g, "").slice(2)}`, x: 430, y: 712, size: 10 },
      { text: "1", x: 40, y: 690, size: 7 },
      { text: "Inventory at beginning of year", x: 56, y: 690, size: 7 },
      { text: "402,150", x: 576, y: 690, size: 8, right: true },
      { text: "8", x: 40, y: 676, size: 7 },
      { text: "Cost of goods sold. Subtract line 7 from line 6", x: 56, y: 676, size: 7 },
      { text: "1,310,000", x: 576, y: 676, size: 8, right: true },
      { text: "Form 1125-A (Rev. 11-2018)", x: 576, y: 40, size: 7, right: true },
    ],
  });
  return render(`Form 1120 (${year}) - ${facts.name}`, pages);
}

// ---------------------------------------------------------------- its labelled variants

export function irsVariants(): Variant[] {
  const ours = {
    name: "Acme Widgets Incorporated",
    dba: "DBA Acme Industrial Supply",
    ein: "123456789",
    taxYear: 2024,
  };
  return [
    {
      slug: "signed-complete",
      description: "EIN caption over two lines and typed without its hyphen, a DBA line, dated 3/10/25",
      facts: {
        ...ours,
        signer: "Robert J. Tanner",
        signDate: "3/10/25",
        officerTitle: "Treasurer",
        ...WHOLE,
      },
      metadata: metadata("2025-04-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: ALL_FULFILLED,
    },
    {
      slug: "unsigned-other-corporation",
      description: "another corporation's 2023 return with a blank officer box and no Schedule L",
      facts: {
        name: "Acme Gadgets Incorporated",
        ein: "123456780",
        taxYear: 2023,
        signer: null,
        signDate: null,
        officerTitle: "Treasurer",
        includePageOne: true,
        includeScheduleL: false,
      },
      metadata: metadata("2025-04-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: ALL_NOT_FULFILLED,
    },
    {
      slug: "dated-unsigned",
      description:
        "dated and titled but the signature left blank; metadata EIN without hyphen and no tax year",
      facts: { ...ours, signer: null, signDate: "3/10/25", officerTitle: "Treasurer", ...WHOLE },
      metadata: metadata("2025-04-15", "ACME WIDGETS INC.", { ein: "123456789" }),
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
      description: "Schedules K and L and Form 1125-A without page 1",
      facts: { ...ours, ...SIGNED, signDate: "3/10/25", includePageOne: false, includeScheduleL: true },
      metadata: metadata("2025-04-15", "Acme Widgets Inc", { ein: "12-3456789", tax_year: 2024 }),
      labels: { TR_SIGNED: "insufficient_evidence", TR_COMPLETE: "not_fulfilled" },
    },
  ];
}
