// What the held-out Form 1120 prints share: the return's facts, Schedule K's continuation and
// Schedule L's page, and their cases' labels and metadata.
import type { Item } from "../../samples.ts";
import type { Label } from "../cases.ts";

export interface ReturnFacts {
  name: string;
  ein: string;
  /** The form year printed in the heading (for a fiscal year, the year it begins). */
  formYear: number;
  /** "JUL 1, 2024" / "JUN 30, 2025" for a fiscal year; calendar year otherwise. */
  fiscal?: { begins: string; ends: string };
  officer: string;
  title: string;
  /** The officer's signature and date are present in the Sign Here block. */
  signed: boolean;
  signDate: string;
  pageOne: boolean;
  scheduleL: boolean;
}

/** Page 5 of the form: Schedule K's question 13 names Schedule L, a trap for a completeness check. */
export function scheduleKContinued(items: Item[], year: number, top: number): void {
  const rows = [
    `Form 1120 (${year})`,
    "Schedule K     Other Information (continued from page 4)",
    "12   Enter the available NOL carryover from prior tax years (do not reduce it by any deduction reported on line 29a.)   $ 0",
    "13   Are the corporation's total receipts (page 1, line 1a, plus lines 4 through 10) for the tax year and its total",
    "     assets at the end of the tax year less than $250,000? .......................................  Yes [ ]   No [X]",
    '     If "Yes," the corporation is not required to complete Schedules L, M-1, and M-2. Instead, enter the total amount',
    "     of cash distributions and the book value of property distributions (other than cash) made during the tax year",
    "14   Is the corporation required to file Schedule UTP (Form 1120), Uncertain Tax Position Statement? ....  Yes [ ]   No [X]",
    "15a  Did the corporation make any payments in the tax year that would require it to file Form(s) 1099? ....  Yes [X]   No [ ]",
    '  b  If "Yes," did or will the corporation file required Form(s) 1099? .................................  Yes [X]   No [ ]',
    "16   During this tax year, did the corporation have an 80%-or-more change in ownership? .................  Yes [ ]   No [X]",
  ];
  rows.forEach((text, index) => {
    items.push({ text, x: 40, y: top - index * 13, size: 7 });
  });
}

export function scheduleLPage(items: Item[], year: number, top: number, totalAssets: string): void {
  const header = [
    [`Form 1120 (${year})`, 40, 7],
    ["Page 6", 540, 7],
  ] as const;
  for (const [text, x, size] of header) items.push({ text, x, y: top, size });
  items.push({ text: "Schedule L     Balance Sheets per Books", x: 40, y: top - 16, size: 9 });
  items.push({ text: "Beginning of tax year", x: 300, y: top - 30, size: 7 });
  items.push({ text: "End of tax year", x: 470, y: top - 30, size: 7 });
  items.push({ text: "Assets", x: 40, y: top - 42, size: 7 });
  for (const [text, x] of [
    ["(a)", 290],
    ["(b)", 360],
    ["(c)", 450],
    ["(d)", 530],
  ] as const) {
    items.push({ text, x, y: top - 42, size: 7 });
  }
  const lines: Array<[string, string, string]> = [
    ["1    Cash", "212,408", "298,114"],
    ["2a   Trade notes and accounts receivable", "184,220", "201,873"],
    ["3    Inventories", "96,510", "104,002"],
    ["10a  Buildings and other depreciable assets", "741,300", "812,950"],
    ["  b  Less accumulated depreciation", "(231,561)", "(132,609)"],
    ["15   Total assets", "1,102,877", totalAssets],
    ["Liabilities and Shareholders' Equity", "", ""],
    ["16   Accounts payable", "88,415", "92,660"],
    ["22   Capital stock: b Common stock", "10,000", "10,000"],
    ["25   Retained earnings - Unappropriated", "1,004,462", "1,181,670"],
    ["28   Total liabilities and shareholders' equity", "1,102,877", totalAssets],
  ];
  lines.forEach(([label, begin, end], index) => {
    const y = top - 56 - index * 13;
    items.push({ text: label, x: 40, y, size: 7 });
    if (begin) items.push({ text: begin, x: 395, y, size: 7, right: true });
    if (end) items.push({ text: end, x: 565, y, size: 7, right: true });
  });
  const m1 = top - 56 - lines.length * 13 - 16;
  items.push({
    text: "Schedule M-1     Reconciliation of Income (Loss) per Books With Income per Return",
    x: 40,
    y: m1,
    size: 9,
  });
  items.push({ text: "1    Net income (loss) per books", x: 40, y: m1 - 14, size: 7 });
  items.push({ text: "177,208", x: 300, y: m1 - 14, size: 7, right: true });
}

export const TAX_LABELS: Record<string, Label> = {
  TR_SIGNED: "fulfilled",
  TR_TAX_YEAR: "fulfilled",
  TR_EIN_MATCH: "fulfilled",
  TR_NAME_MATCH: "fulfilled",
  TR_COMPLETE: "fulfilled",
};

export function taxMetadata(
  asOf: string,
  businessName: string,
  ein: string,
  taxYear: number,
): Record<string, unknown> {
  return {
    loan_program: "Flex Supreme",
    classification: "1120 Corporate Tax Return",
    as_of_date: asOf,
    borrower_info: { name: "Maria T. Alvarez", business_name: businessName, monthly_income: 15000 },
    extracted_entities: { ein, tax_year: taxYear },
  };
}
