// What every Form 1120 print layout draws the same way (the return's facts, its income lines, Schedule
// K and L, the preparer block), and what the labelled cases share (the borrower, the labels).

import { type PDFFont, StandardFonts } from "pdf-lib";
import { drawItems, type Item, LETTER, newDocument, save } from "../../samples.ts";
import type { Label } from "../cases.ts";

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

export interface Mark extends Item {
  face?: Face;
}

export interface PageDrawing {
  marks: Mark[];
  /** Ruled lines [x1, y1, x2, y2], as the form's boxes. */
  rules?: Array<[number, number, number, number]>;
  /** Fillable text fields typed into, as the IRS's own PDF is filled in (values live in widgets, not in the page). */
  fields?: Array<{ value: string; x: number; y: number; width: number; height: number }>;
}

export async function render(title: string, pages: PageDrawing[]): Promise<Uint8Array> {
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

export const PERJURY = [
  "Under penalties of perjury, I declare that I have examined this return, including accompanying schedules and statements, and to the best of my",
  "knowledge and belief, it is true, correct, and complete. Declaration of preparer (other than taxpayer) is based on all information of which preparer has any knowledge.",
];

export const INCOME_LINES: Array<[string, string, string]> = [
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

export function incomeLines(top: number, step: number, style: "irs" | "software"): Mark[] {
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
export function preparerBlock(top: number, script: boolean): Mark[] {
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

export function footer(year: number): Mark[] {
  return [
    { text: "For Paperwork Reduction Act Notice, see separate instructions.", x: 36, y: 40, size: 7 },
    { text: "Cat. No. 11450Q", x: 300, y: 40, size: 7 },
    { text: `Form 1120 (${year})`, x: 576, y: 40, size: 7, right: true },
  ];
}

export function calendarLine(facts: ReturnFacts): string {
  return facts.fiscal
    ? `For calendar year ${facts.taxYear} or tax year beginning ${facts.fiscal.begins}, ending ${facts.fiscal.ends}`
    : `For calendar year ${facts.taxYear} or tax year beginning            , ${facts.taxYear}, ending            , 20`;
}

export function scheduleK(
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

export function scheduleL(facts: ReturnFacts, heading: Mark, header: Mark[]): PageDrawing {
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

// ---------------------------------------------------------------- what the labelled cases share

export type Builder = (facts: ReturnFacts) => Promise<Uint8Array>;

export interface Variant {
  slug: string;
  description: string;
  facts: ReturnFacts;
  metadata: Record<string, unknown>;
  labels: Record<string, Label>;
}

const BORROWER = { name: "Jane Q. Doe", monthly_income: 8000 };

export function metadata(
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

export const SIGNED = { signer: "Robert J. Tanner", officerTitle: "President" };

export const WHOLE = { includePageOne: true, includeScheduleL: true };

export const ALL_FULFILLED: Record<string, Label> = {
  TR_SIGNED: "fulfilled",
  TR_TAX_YEAR: "fulfilled",
  TR_EIN_MATCH: "fulfilled",
  TR_NAME_MATCH: "fulfilled",
  TR_COMPLETE: "fulfilled",
};

export const ALL_NOT_FULFILLED: Record<string, Label> = {
  TR_SIGNED: "not_fulfilled",
  TR_TAX_YEAR: "not_fulfilled",
  TR_EIN_MATCH: "not_fulfilled",
  TR_NAME_MATCH: "not_fulfilled",
  TR_COMPLETE: "not_fulfilled",
};
