// Second held-out Form 1120 print 1: a tax package's landscape "two-up" print, two form pages side by
// side, so extracted lines interleave both halves.
import type { Item } from "../../samples.ts";
import { LANDSCAPE, type Page, render, whole } from "./pages.ts";

export interface ReturnSpec {
  name: string;
  ein: string;
  year: number;
  /** Officer's name, date, title in the Sign Here block; undefined leaves it blank. */
  signature?: { name: string; date: string; title: string };
  pageOne: boolean;
  scheduleL: boolean;
}

export const INCOME_LINES: Array<[string, string, number]> = [
  ["1a", "Gross receipts or sales", 1_864_200],
  ["1b", "Returns and allowances", 9_800],
  ["1c", "Balance. Subtract line 1b from line 1a", 1_854_400],
  ["2", "Cost of goods sold (attach Form 1125-A)", 1_020_300],
  ["3", "Gross profit. Subtract line 2 from line 1c", 834_100],
  ["4", "Dividends and inclusions (Schedule C, line 23)", 1_240],
  ["5", "Interest", 3_310],
  ["10", "Other income (attach statement)", 4_120],
  ["11", "Total income. Add lines 3 through 10", 842_770],
];

export const DEDUCTION_LINES: Array<[string, string, number]> = [
  ["12", "Compensation of officers (see instructions - attach Form 1125-E)", 240_000],
  ["13", "Salaries and wages (less employment credits)", 281_450],
  ["16", "Rents", 48_000],
  ["17", "Taxes and licenses", 39_870],
  ["20", "Depreciation from Form 4562 not claimed on Form 1125-A", 22_410],
  ["26", "Other deductions (attach statement)", 61_940],
  ["27", "Total deductions. Add lines 12 through 26", 693_670],
  ["28", "Taxable income before NOL deduction and special deductions", 149_100],
  ["30", "Taxable income. Subtract line 29c from line 28", 149_100],
  ["31", "Total tax (Schedule J, Part I, line 11)", 31_311],
  ["33", "Total payments and credits (Schedule J, Part III, line 23)", 34_000],
  ["35", "Amount owed. If line 33 is smaller than the total of lines 31, 32 and 34", 0],
  ["36", "Overpayment. If line 33 is larger than the total of lines 31, 32 and 34", 2_689],
];

export const SCHEDULE_L_LINES: Array<[string, string, number, number]> = [
  ["1", "Cash", 61_204, 88_915],
  ["2a", "Trade notes and accounts receivable", 142_300, 151_880],
  ["3", "Inventories", 96_450, 101_200],
  ["10a", "Buildings and other depreciable assets", 310_000, 334_500],
  ["15", "Total assets", 609_954, 676_495],
  ["16", "Accounts payable", 58_210, 61_033],
  ["22", "Capital stock: common stock", 10_000, 10_000],
  ["25", "Retained earnings - Unappropriated", 541_744, 605_462],
  ["28", "Total liabilities and shareholders' equity", 609_954, 676_495],
];

/**
 * A tax package's landscape two-up print: the left half carries the top of page 1 and the income
 * lines, the right half the deductions, tax and the Sign Here block; the second sheet puts
 * Schedules J/K beside Schedule L. Rows of both halves share baselines, so a text layer
 * interleaves them ("Name   12 Compensation of officers ...").
 */
export async function twoUpReturn(spec: ReturnSpec): Promise<Uint8Array> {
  const pages: Page[] = [];
  if (spec.pageOne) {
    const items: Item[] = [
      { text: "Form 1120", x: 24, y: 580, size: 13 },
      { text: "U.S. Corporation Income Tax Return", x: 96, y: 581, size: 9 },
      { text: String(spec.year), x: 378, y: 580, size: 13, right: true },
      { text: `Form 1120 (${spec.year})   Page 1 (continued)`, x: 410, y: 580, size: 7 },
      { text: "Dept. of the Treasury - Internal Revenue Service", x: 24, y: 568, size: 5 },
      {
        text: `For calendar year ${spec.year} or tax year beginning            , ${spec.year}, ending            , 20`,
        x: 24,
        y: 558,
        size: 6,
      },
      { text: "Name", x: 70, y: 544, size: 6 },
      { text: "B Employer identification number", x: 270, y: 544, size: 6 },
      { text: spec.name, x: 70, y: 534, size: 9 },
      { text: spec.ein, x: 270, y: 534, size: 9 },
      { text: "Number, street, and room or suite no.", x: 70, y: 520, size: 6 },
      { text: "C Date incorporated", x: 270, y: 520, size: 6 },
      { text: "88 Wharf Road, Suite 4", x: 70, y: 510, size: 9 },
      { text: "06/02/2011", x: 270, y: 510, size: 9 },
      { text: "City or town, state, and ZIP code", x: 70, y: 496, size: 6 },
      { text: "D Total assets", x: 270, y: 496, size: 6 },
      { text: "Portland, ME 04101", x: 70, y: 486, size: 9 },
      { text: "$ 676,495", x: 270, y: 486, size: 9 },
      { text: "A Check if: 1a Consolidated return   2 Personal holding co.", x: 24, y: 472, size: 5 },
    ];
    let y = 456;
    for (const [number, label, value] of INCOME_LINES) {
      items.push(
        { text: number, x: 30, y, size: 6 },
        { text: label, x: 46, y, size: 6 },
        { text: whole(value), x: 378, y, size: 7, right: true },
      );
      y -= 13;
    }
    y = 556;
    for (const [number, label, value] of DEDUCTION_LINES) {
      items.push(
        { text: number, x: 414, y, size: 6 },
        { text: label, x: 432, y, size: 6 },
        { text: value === 0 ? "" : whole(value), x: 768, y, size: 7, right: true },
      );
      y -= 13;
    }
    items.push(
      { text: "Sign", x: 410, y: 330, size: 9 },
      {
        text: "Under penalties of perjury, I declare that I have examined this return, including accompanying",
        x: 444,
        y: 332,
        size: 5,
      },
      { text: "Here", x: 410, y: 320, size: 9 },
      {
        text: "schedules and statements, and to the best of my knowledge and belief, it is true, correct, and complete.",
        x: 444,
        y: 324,
        size: 5,
      },
      { text: "Signature of officer", x: 444, y: 296, size: 6 },
      { text: "Date", x: 590, y: 296, size: 6 },
      { text: "Title", x: 660, y: 296, size: 6 },
      { text: "May the IRS discuss this return with the preparer? Yes", x: 444, y: 286, size: 5 },
    );
    if (spec.signature) {
      items.push(
        { text: spec.signature.name, x: 444, y: 306, size: 9 },
        { text: spec.signature.date, x: 590, y: 306, size: 9 },
        { text: spec.signature.title, x: 660, y: 306, size: 9 },
      );
    }
    items.push(
      { text: "Paid Preparer Use Only", x: 410, y: 266, size: 7 },
      { text: "Print/Type preparer's name", x: 444, y: 254, size: 5 },
      { text: "Preparer's signature", x: 540, y: 254, size: 5 },
      { text: "Date", x: 630, y: 254, size: 5 },
      { text: "PTIN", x: 700, y: 254, size: 5 },
      { text: "Dana K. Ruiz", x: 444, y: 244, size: 8 },
      { text: "Dana K. Ruiz", x: 540, y: 244, size: 8 },
      { text: "02/26/2025", x: 630, y: 244, size: 8 },
      { text: "P00998877", x: 700, y: 244, size: 8 },
      { text: "Firm's name", x: 444, y: 232, size: 5 },
      { text: "Ruiz Tax & Accounting LLC", x: 480, y: 232, size: 8 },
      { text: "Firm's EIN", x: 640, y: 232, size: 5 },
      { text: "45-6789012", x: 680, y: 232, size: 8 },
      { text: "For Paperwork Reduction Act Notice, see separate instructions.", x: 24, y: 20, size: 5 },
      { text: `Form 1120 (${spec.year})`, x: 768, y: 20, size: 6, right: true },
    );
    pages.push({ size: LANDSCAPE, items });
  }
  // Second sheet: Schedules J/K on the left (they name Schedule L without being it), Schedule L right.
  const items: Item[] = [
    { text: `Form 1120 (${spec.year})`, x: 24, y: 580, size: 7 },
    { text: "Page 3", x: 378, y: 580, size: 7, right: true },
    { text: "Schedule J   Tax Computation and Payment", x: 24, y: 562, size: 8 },
    { text: "1 Income tax. See instructions", x: 30, y: 546, size: 6 },
    { text: "31,311", x: 378, y: 546, size: 7, right: true },
    { text: "Schedule K   Other Information (see instructions)", x: 24, y: 520, size: 8 },
    { text: "2a Business activity code no. 423910   b Business activity: Wholesale", x: 30, y: 504, size: 6 },
    {
      text: "13 Are the corporation's total receipts and total assets at the end of the tax year",
      x: 30,
      y: 490,
      size: 6,
    },
    {
      text: "less than $250,000? If Yes, the corporation is not required to complete Schedules L, M-1, and M-2.",
      x: 30,
      y: 480,
      size: 6,
    },
    { text: "No", x: 378, y: 480, size: 7, right: true },
  ];
  if (spec.scheduleL) {
    items.push(
      { text: `Form 1120 (${spec.year})`, x: 410, y: 580, size: 7 },
      { text: "Page 4", x: 768, y: 580, size: 7, right: true },
      { text: "Schedule L   Balance Sheets per Books", x: 410, y: 562, size: 8 },
      { text: "Beginning of tax year", x: 620, y: 548, size: 6 },
      { text: "End of tax year", x: 710, y: 548, size: 6 },
    );
    let y = 534;
    for (const [number, label, begin, end] of SCHEDULE_L_LINES) {
      items.push(
        { text: number, x: 414, y, size: 6 },
        { text: label, x: 432, y, size: 6 },
        { text: whole(begin), x: 680, y, size: 7, right: true },
        { text: whole(end), x: 768, y, size: 7, right: true },
      );
      y -= 13;
    }
  }
  pages.push({ size: LANDSCAPE, items });
  return render(`Form 1120 (${spec.year}) two-up - ${spec.name}`, pages);
}
