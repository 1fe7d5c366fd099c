// Form 1120 prints in layouts the sample generator does not make, labelled from how each file was
// generated. Each layout carries the traps real prints have: the paid preparer's own name, date,
// signature and EIN; a filing-instructions cover letter that names the return, the IRS service
// center's address and "Signature of officer"; Schedule K's "name and EIN of the parent
// corporation"; Form 1125-A's header; prior-year columns; a blank officer box under a filled
// preparer block.
import { type PDFFont, StandardFonts } from "pdf-lib";
import { drawItems, type Item, LETTER, newDocument, type SampleDocument, save } from "../samples.ts";
import type { Label, LabelledCase } from "./cases.ts";

// ---------------------------------------------------------------- what a print shows

/** The facts one generated return prints; labels are derived from these, never from the engine. */
export interface ReturnFacts {
  /** The corporation's name as printed. */
  name: string;
  /** A "doing business as" line printed under the name, if any. */
  dba?: string;
  /** The EIN as printed (with a hyphen, a space or neither). */
  ein: string;
  /** The form's year: the calendar year, or the year a fiscal year begins. */
  taxYear: number;
  /** A fiscal year's first and last day, printed in the layout's date style. */
  fiscal?: { begins: string; ends: string };
  /** The officer's signature as written; null leaves the box blank. */
  signer: string | null;
  /** The date beside the officer's signature; null leaves it blank. */
  signDate: string | null;
  officerTitle: string;
  includePageOne: boolean;
  includeScheduleL: boolean;
}

type Face = "regular" | "bold" | "script";

interface Mark extends Item {
  face?: Face;
}

interface PageDrawing {
  marks: Mark[];
  /** Ruled lines [x1, y1, x2, y2], as the form's boxes. */
  rules?: Array<[number, number, number, number]>;
  /** Fillable text fields typed into, as the IRS's own PDF is filled in (values live in widgets, not in the page). */
  fields?: Array<{ value: string; x: number; y: number; width: number; height: number }>;
}

async function render(title: string, pages: PageDrawing[]): Promise<Uint8Array> {
  const { pdf, font } = await newDocument(title);
  const faces: Record<Face, PDFFont> = {
    regular: font,
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
    // The closest standard font to handwriting: slanted, with a different build from the print.
    script: await pdf.embedFont(StandardFonts.TimesRomanItalic),
  };
  const form = pdf.getForm();
  for (const [pageIndex, drawing] of pages.entries()) {
    const page = pdf.addPage(LETTER);
    for (const [fieldIndex, field] of (drawing.fields ?? []).entries()) {
      if (field.value === "") continue;
      const widget = form.createTextField(`page${pageIndex + 1}.field${fieldIndex + 1}`);
      widget.setText(field.value);
      widget.addToPage(page, { x: field.x, y: field.y, width: field.width, height: field.height, font });
    }
    for (const [x1, y1, x2, y2] of drawing.rules ?? []) {
      page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.5 });
    }
    for (const face of ["regular", "bold", "script"] as const) {
      drawItems(
        page,
        faces[face],
        drawing.marks.filter((mark) => (mark.face ?? "regular") === face),
      );
    }
  }
  return save(pdf);
}

const PERJURY = [
  "Under penalties of perjury, I declare that I have examined this return, including accompanying schedules and statements, and to the best of my",
  "knowledge and belief, it is true, correct, and complete. Declaration of preparer (other than taxpayer) is based on all information of which preparer has any knowledge.",
];

const INCOME_LINES: Array<[string, string, string]> = [
  ["1a", "Gross receipts or sales", "2,450,000"],
  ["1b", "Returns and allowances", "12,000"],
  ["1c", "Balance. Subtract line 1b from line 1a", "2,438,000"],
  ["2", "Cost of goods sold (attach Form 1125-A)", "1,310,000"],
  ["3", "Gross profit. Subtract line 2 from line 1c", "1,128,000"],
  ["11", "Total income. Add lines 3 through 10", "1,141,250"],
  ["12", "Compensation of officers (see instructions - attach Form 1125-E)", "180,000"],
  ["13", "Salaries and wages (less employment credits)", "412,600"],
  ["27", "Total deductions. Add lines 12 through 26", "872,400"],
  ["28", "Taxable income before net operating loss deduction and special deductions", "268,850"],
  ["30", "Taxable income. Subtract line 29c from line 28", "268,850"],
  ["31", "Total tax (Schedule J, Part I, line 11)", "56,459"],
  ["35", "Amount owed. If line 33 is smaller than the total of lines 31 and 34, enter amount owed", "0"],
];

const BALANCE_SHEET: Array<[string, string, string, string]> = [
  ["1", "Cash", "182,300", "214,750"],
  ["2a", "Trade notes and accounts receivable", "311,400", "336,900"],
  ["3", "Inventories", "402,150", "388,600"],
  ["15", "Total assets", "1,198,350", "1,284,500"],
  ["16", "Accounts payable", "144,800", "132,250"],
  ["25", "Retained earnings - Unappropriated", "893,550", "992,250"],
  ["28", "Total liabilities and shareholders' equity", "1,198,350", "1,284,500"],
];

function incomeLines(top: number, step: number, style: "irs" | "software"): Mark[] {
  return INCOME_LINES.flatMap(([number, label, amount], index): Mark[] => {
    const y = top - index * step;
    return style === "irs"
      ? [
          { text: number, x: 60, y, size: 7 },
          { text: label, x: 78, y, size: 7 },
          { text: number, x: 500, y, size: 7 },
          { text: amount, x: 576, y, size: 8, right: true },
        ]
      : [
          { text: `${number}  ${label}`, x: 40, y, size: 8 },
          { text: amount, x: 576, y, size: 9, right: true },
        ];
  });
}

function balanceSheetRows(top: number): Mark[] {
  return BALANCE_SHEET.flatMap(([number, label, begin, end], index): Mark[] => {
    const y = top - index * 14;
    return [
      { text: number, x: 40, y, size: 7 },
      { text: label, x: 60, y, size: 7 },
      { text: begin, x: 420, y, size: 8, right: true },
      { text: end, x: 576, y, size: 8, right: true },
    ];
  });
}

/** The paid preparer's block, always filled: its name, signature, date and EIN are the traps. */
function preparerBlock(top: number, script: boolean): Mark[] {
  return [
    { text: "Paid", x: 36, y: top, size: 9, face: "bold" },
    { text: "Print/Type preparer's name", x: 90, y: top, size: 6 },
    { text: "Preparer's signature", x: 220, y: top, size: 6 },
    { text: "Date", x: 340, y: top, size: 6 },
    { text: "Check if self-employed", x: 400, y: top, size: 6 },
    { text: "PTIN", x: 500, y: top, size: 6 },
    { text: "Preparer", x: 36, y: top - 12, size: 9, face: "bold" },
    { text: "Linda M. Ortiz, CPA", x: 90, y: top - 12, size: 9 },
    script
      ? { text: "Linda M. Ortiz", x: 220, y: top - 11, size: 12, face: "script" }
      : { text: "Linda M. Ortiz", x: 220, y: top - 12, size: 9 },
    { text: "03/08/2025", x: 340, y: top - 12, size: 9 },
    { text: "P01234567", x: 500, y: top - 12, size: 9 },
    { text: "Use Only", x: 36, y: top - 24, size: 9, face: "bold" },
    { text: "Firm's name", x: 90, y: top - 24, size: 6 },
    { text: "ORTIZ & ASSOCIATES CPAS LLC", x: 150, y: top - 24, size: 9 },
    { text: "Firm's EIN", x: 400, y: top - 24, size: 6 },
    { text: "98-7654321", x: 450, y: top - 24, size: 9 },
    { text: "Firm's address", x: 90, y: top - 36, size: 6 },
    { text: "400 Main Street, Springfield, IL 62701", x: 150, y: top - 36, size: 9 },
    { text: "Phone no.", x: 400, y: top - 36, size: 6 },
    { text: "(217) 555-0142", x: 450, y: top - 36, size: 9 },
  ];
}

function footer(year: number): Mark[] {
  return [
    { text: "For Paperwork Reduction Act Notice, see separate instructions.", x: 36, y: 40, size: 7 },
    { text: "Cat. No. 11450Q", x: 300, y: 40, size: 7 },
    { text: `Form 1120 (${year})`, x: 576, y: 40, size: 7, right: true },
  ];
}

function calendarLine(facts: ReturnFacts): string {
  return facts.fiscal
    ? `For calendar year ${facts.taxYear} or tax year beginning ${facts.fiscal.begins}, ending ${facts.fiscal.ends}`
    : `For calendar year ${facts.taxYear} or tax year beginning            , ${facts.taxYear}, ending            , 20`;
}

function scheduleK(
  facts: ReturnFacts,
  parent: { name: string; ein: string } | null,
  header: Mark[],
): PageDrawing {
  return {
    marks: [
      ...header,
      { text: "Schedule K   Other Information (see instructions)", x: 36, y: 736, size: 10, face: "bold" },
      { text: "1", x: 40, y: 720, size: 7 },
      {
        text: "Check accounting method:   a  Cash   b  Accrual   c  Other (specify)",
        x: 56,
        y: 720,
        size: 7,
      },
      { text: "3", x: 40, y: 706, size: 7 },
      {
        text: "Is the corporation a subsidiary in an affiliated group or a parent-subsidiary controlled group?",
        x: 56,
        y: 706,
        size: 7,
      },
      { text: parent ? "Yes" : "No", x: 560, y: 706, size: 7 },
      { text: 'If "Yes," enter name and EIN of the parent corporation', x: 56, y: 694, size: 7 },
      ...(parent
        ? [
            { text: parent.name, x: 300, y: 694, size: 8 },
            { text: parent.ein, x: 480, y: 694, size: 8 },
          ]
        : []),
      { text: "13", x: 40, y: 680, size: 7 },
      {
        text: "Are the corporation's total receipts and its total assets at the end of the tax year less than $250,000?",
        x: 56,
        y: 680,
        size: 7,
      },
      { text: "No", x: 560, y: 680, size: 7 },
      {
        text: 'If "Yes," the corporation is not required to complete Schedules L, M-1, and M-2.',
        x: 56,
        y: 670,
        size: 7,
      },
      { text: `Form 1120 (${facts.taxYear})`, x: 576, y: 40, size: 7, right: true },
    ],
  };
}

function scheduleL(facts: ReturnFacts, heading: Mark, header: Mark[]): PageDrawing {
  return {
    marks: [
      ...header,
      heading,
      { text: "Beginning of tax year", x: 330, y: 722, size: 7 },
      { text: "End of tax year", x: 470, y: 722, size: 7 },
      { text: "Assets", x: 36, y: 710, size: 8 },
      ...balanceSheetRows(696),
      { text: `Form 1120 (${facts.taxYear})`, x: 576, y: 40, size: 7, right: true },
    ],
  };
}

// ---------------------------------------------------------------- layout 1: tax software, header table

/**
 * A tax-software print: a filing-instructions cover letter, then page 1 with the identification as a
 * table (headings "Name of corporation | Employer identification number | Tax year ended", values in
 * the row below), the signature block as a table with its values under the captions, and every
 * continuation page headed with the name and EIN.
 */
async function softwareHeaderTable(facts: ReturnFacts): Promise<Uint8Array> {
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

// ---------------------------------------------------------------- layout 2: IRS form, split labels

/**
 * A reproduction of the IRS form where narrow boxes wrap their captions ("B Employer identification"
 * / "number"), the EIN is typed without its hyphen, a DBA line sits under the name, and the return
 * carries Schedule K naming a parent corporation with its own EIN, and Form 1125-A.
 */
async function irsSplitLabels(facts: ReturnFacts): Promise<Uint8Array> {
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

// ---------------------------------------------------------------- layout 3: signature table, script name

/**
 * A print whose identification is a label/value grid ("Corporation name", "Employer ID number") and
 * whose signature block is a table with the values in the row above the captions: the officer's
 * name in a script face floats above the row holding the date and title, as a pen signature does;
 * the preparer signed in script too.
 */
async function signatureTableScript(facts: ReturnFacts): Promise<Uint8Array> {
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

// ---------------------------------------------------------------- layout 4: fiscal year, e-signature

/**
 * An e-filed fiscal-year return printed from the filing software: the identification boxes with
 * values under their captions, an electronic "/s/" signature whose caption, date and title are each
 * a label/value row of their own, long-form dates, and a two-year comparison page whose columns
 * show the prior year beside this one.
 */
async function fiscalElectronic(facts: ReturnFacts): Promise<Uint8Array> {
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

// ---------------------------------------------------------------- layout 5: the IRS fillable PDF, typed into

/**
 * The IRS's fillable PDF typed into in a PDF editor: every value sits in a form field's widget
 * (positioned by its box, not by the printed captions' baselines), the signature is stamped in a
 * script face, and the preparer's fields are filled like the officer's.
 */
async function fillableForm(facts: ReturnFacts): Promise<Uint8Array> {
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

// ---------------------------------------------------------------- the labelled cases

type Builder = (facts: ReturnFacts) => Promise<Uint8Array>;

interface Variant {
  slug: string;
  description: string;
  facts: ReturnFacts;
  metadata: Record<string, unknown>;
  labels: Record<string, Label>;
}

const BORROWER = { name: "Jane Q. Doe", monthly_income: 8000 };

function metadata(
  asOf: string,
  businessName: string | null,
  entities: Record<string, unknown>,
): Record<string, unknown> {
  return {
    loan_program: "Flex Supreme",
    classification: "1120 Corporate Tax Return",
    as_of_date: asOf,
    borrower_info: businessName === null ? BORROWER : { ...BORROWER, business_name: businessName },
    extracted_entities: entities,
  };
}

const SIGNED = { signer: "Robert J. Tanner", officerTitle: "President" };
const WHOLE = { includePageOne: true, includeScheduleL: true };
const ALL_FULFILLED: Record<string, Label> = {
  TR_SIGNED: "fulfilled",
  TR_TAX_YEAR: "fulfilled",
  TR_EIN_MATCH: "fulfilled",
  TR_NAME_MATCH: "fulfilled",
  TR_COMPLETE: "fulfilled",
};
const ALL_NOT_FULFILLED: Record<string, Label> = {
  TR_SIGNED: "not_fulfilled",
  TR_TAX_YEAR: "not_fulfilled",
  TR_EIN_MATCH: "not_fulfilled",
  TR_NAME_MATCH: "not_fulfilled",
  TR_COMPLETE: "not_fulfilled",
};

function softwareVariants(): Variant[] {
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

function irsVariants(): Variant[] {
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

function scriptVariants(): Variant[] {
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

function fiscalVariants(): Variant[] {
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

function fillableVariants(): Variant[] {
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

const LAYOUTS: Array<{ layout: string; build: Builder; variants: () => Variant[] }> = [
  { layout: "1120-software-header-table", build: softwareHeaderTable, variants: softwareVariants },
  { layout: "1120-irs-split-labels", build: irsSplitLabels, variants: irsVariants },
  { layout: "1120-signature-table-script", build: signatureTableScript, variants: scriptVariants },
  { layout: "1120-fiscal-e-signature", build: fiscalElectronic, variants: fiscalVariants },
  { layout: "1120-fillable-form", build: fillableForm, variants: fillableVariants },
];

export const FORM_1120_LAYOUTS: ReadonlyArray<string> = LAYOUTS.map((entry) => entry.layout);

/** Every layout's variants: each TR_ condition fulfilled and not fulfilled on every layout. */
export async function form1120Cases(): Promise<LabelledCase[]> {
  const cases: LabelledCase[] = [];
  for (const { layout, build, variants } of LAYOUTS) {
    for (const variant of variants()) {
      const document: SampleDocument = {
        key: `layouts/${layout}/${variant.slug}.pdf`,
        bytes: await build(variant.facts),
        description: variant.description,
      };
      cases.push({
        layout,
        description: `${variant.slug}: ${variant.description}`,
        documents: [document],
        metadata: variant.metadata,
        labels: variant.labels,
      });
    }
  }
  return cases;
}
