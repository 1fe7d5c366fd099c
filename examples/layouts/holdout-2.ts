// A second held-out check, designed without reading the finders: two Form 1120 prints and three
// bank layouts unlike the ones the engine was tuned on. Form 1120: a tax package's landscape
// "two-up" print (two form pages side by side, so extracted lines interleave both halves) and a
// return whose page 1 comes after a long federal statement set, its form pages scanned and OCRed
// (words broken by stray spaces), Schedules L, M-1 and M-2 on one page. Banks: a brokerage cash
// management account (Schwab-style "December 1-31, 2025" period, parenthesized debits, an
// alphanumeric account number), a small savings bank's passbook-style ledger (unsigned amounts in
// withdrawal/deposit columns, running balance going negative with a leading minus) and a business
// bank's relationship summary page followed by per-account detail pages (company holder with an
// authorized signer, or a sole proprietor "DBA"). Labels come from the generation parameters only.
import {
  drawItems,
  type Item,
  LETTER,
  MONTH_NAMES,
  newDocument,
  type SampleDocument,
  save,
} from "../samples.ts";
import type { Label, LabelledCase } from "./cases.ts";

const LANDSCAPE: [number, number] = [792, 612];

const TR = ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"] as const;
const BS = ["BS_TWO_MONTHS", "BS_NAME_MATCH", "BS_SAME_ACCOUNT", "BS_NO_NSF", "BS_LARGE_DEPOSITS"] as const;

type Page = { size: [number, number]; items: Item[] };

async function render(title: string, pages: Page[]): Promise<Uint8Array> {
  const { pdf, font } = await newDocument(title);
  for (const page of pages) drawItems(pdf.addPage(page.size), font, page.items);
  return save(pdf);
}

function amount(value: number): string {
  return Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function whole(value: number): string {
  return value.toLocaleString("en-US");
}

// ------------------------------------------------------------------ Form 1120 prints

interface ReturnSpec {
  name: string;
  ein: string;
  year: number;
  /** Officer's name, date, title in the Sign Here block; undefined leaves it blank. */
  signature?: { name: string; date: string; title: string };
  pageOne: boolean;
  scheduleL: boolean;
}

const INCOME_LINES: Array<[string, string, number]> = [
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

const DEDUCTION_LINES: Array<[string, string, number]> = [
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

const SCHEDULE_L_LINES: Array<[string, string, number, number]> = [
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
async function twoUpReturn(spec: ReturnSpec): Promise<Uint8Array> {
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

/** OCR of a scanned form: every other long word broken by a stray space, runs of spaces. */
function ocr(text: string): string {
  let long = 0;
  return text
    .split(" ")
    .map((word) => {
      if (word.length < 8 || /\d/.test(word)) return word;
      long += 1;
      if (long % 2 === 0) return word;
      const cut = Math.floor(word.length / 2);
      return `${word.slice(0, cut)} ${word.slice(cut)}`;
    })
    .join("  ");
}

/**
 * A return printed by a tax package with its federal statements first (three pages headed by the
 * corporation's name and EIN, each statement citing "Form 1120, Page 1, Line …" or "Schedule L"),
 * then the scanned, signed form pages with an OCR text layer: page 1, and one page carrying
 * Schedules L, M-1 and M-2.
 */
async function statementsFirstReturn(spec: ReturnSpec): Promise<Uint8Array> {
  const pages: Page[] = [];
  const statements: Array<[string, Array<[string, number]>]> = [
    ["Statement 1 - Form 1120, Page 1, Line 10 - Other Income", [["Insurance recoveries", 4_120]]],
    [
      "Statement 2 - Form 1120, Page 1, Line 26 - Other Deductions",
      [
        ["Accounting", 8_400],
        ["Bank charges", 1_310],
        ["Insurance", 18_920],
        ["Office expense", 6_115],
        ["Telephone", 4_880],
        ["Travel", 9_640],
        ["Utilities", 12_675],
      ],
    ],
    ["Statement 3 - Form 1120, Schedule L, Line 6 - Other Current Assets", [["Prepaid expenses", 7_450]]],
    [
      "Statement 4 - Form 1120, Schedule L, Line 18 - Other Current Liabilities",
      [
        ["Accrued payroll", 11_200],
        ["Sales tax payable", 3_340],
      ],
    ],
    [
      "Statement 5 - Form 1125-E - Compensation of Officers",
      [
        ["Marcus T. Webb  President  100% time  60% stock", 150_000],
        ["Irene Webb  Secretary  50% time  40% stock", 90_000],
      ],
    ],
    ["Statement 6 - Form 4562 - Depreciation Summary", [["MACRS 7-year property", 22_410]]],
  ];
  const perPage = 2;
  for (let index = 0; index < statements.length; index += perPage) {
    const number = index / perPage + 1;
    const items: Item[] = [
      { text: String(spec.year), x: 36, y: 756, size: 10 },
      { text: "Federal Statements", x: 306, y: 756, size: 11 },
      { text: `Page ${number}`, x: 576, y: 756, size: 9, right: true },
      { text: spec.name, x: 306, y: 742, size: 9 },
      { text: spec.ein, x: 576, y: 742, size: 9, right: true },
      { text: "Client 1042", x: 36, y: 742, size: 8 },
      { text: "2/27/2025   10:14 AM", x: 36, y: 730, size: 7 },
    ];
    let y = 700;
    for (const [title, rows] of statements.slice(index, index + perPage)) {
      items.push(
        { text: title, x: 36, y, size: 9 },
        { text: "Description", x: 56, y: y - 18, size: 8 },
        { text: "Amount", x: 540, y: y - 18, size: 8, right: true },
      );
      y -= 34;
      let total = 0;
      for (const [description, value] of rows) {
        items.push(
          { text: description, x: 56, y, size: 8 },
          { text: whole(value), x: 540, y, size: 8, right: true },
        );
        total += value;
        y -= 13;
      }
      items.push(
        { text: "Total", x: 56, y: y - 4, size: 8 },
        { text: `$ ${whole(total)}`, x: 540, y: y - 4, size: 8, right: true },
      );
      y -= 60;
    }
    pages.push({ size: LETTER, items });
  }
  if (spec.pageOne) {
    const o = ocr;
    const items: Item[] = [
      { text: "Form 1120", x: 36, y: 756, size: 15 },
      { text: o("U.S. Corporation Income Tax Return"), x: 170, y: 758, size: 12 },
      { text: String(spec.year), x: 576, y: 756, size: 15, right: true },
      { text: o("Department of the Treasury Internal Revenue Service"), x: 36, y: 740, size: 6 },
      {
        text: `${o("For calendar year")} ${spec.year} ${o("or tax year beginning")}  ,  ${spec.year}, ${o("ending")}  ,  20`,
        x: 170,
        y: 742,
        size: 7,
      },
      { text: o("A Check if:"), x: 36, y: 712, size: 7 },
      { text: "Name", x: 130, y: 712, size: 7 },
      { text: o("B Employer identification number"), x: 430, y: 712, size: 7 },
      { text: spec.name, x: 130, y: 700, size: 10 },
      { text: spec.ein, x: 430, y: 700, size: 10 },
      { text: o("Number, street, and room or suite no."), x: 130, y: 686, size: 6 },
      { text: o("C Date incorporated"), x: 430, y: 686, size: 7 },
      { text: "1 Harbor Light Way", x: 130, y: 675, size: 10 },
      { text: "09/14/2006", x: 430, y: 675, size: 10 },
      { text: o("City or town, state or province, country, and ZIP"), x: 130, y: 661, size: 6 },
      { text: o("D Total assets (see instructions)"), x: 430, y: 661, size: 7 },
      { text: "Rockland, ME 04841", x: 130, y: 650, size: 10 },
      { text: "$ 676,495", x: 430, y: 650, size: 10 },
    ];
    let y = 626;
    for (const [number, label, value] of [...INCOME_LINES, ...DEDUCTION_LINES]) {
      items.push(
        { text: number, x: 60, y, size: 7 },
        { text: o(label), x: 78, y, size: 7 },
        { text: value === 0 ? "" : whole(value), x: 576, y, size: 8, right: true },
      );
      y -= 14;
    }
    items.push(
      { text: "Sig n", x: 36, y: 260, size: 10 },
      {
        text: o(
          "Under penalties of perjury, I declare that I have examined this return, including accompanying schedules",
        ),
        x: 80,
        y: 262,
        size: 6,
      },
      { text: "Here", x: 36, y: 250, size: 10 },
      {
        text: o(
          "and statements, and to the best of my knowledge and belief, it is true, correct, and complete.",
        ),
        x: 80,
        y: 252,
        size: 6,
      },
      { text: o("Signature of officer"), x: 84, y: 220, size: 7 },
      { text: "Date", x: 300, y: 220, size: 7 },
      { text: "Title", x: 380, y: 220, size: 7 },
    );
    if (spec.signature) {
      items.push(
        { text: spec.signature.name, x: 84, y: 232, size: 11 },
        { text: spec.signature.date, x: 300, y: 232, size: 10 },
        { text: spec.signature.title, x: 380, y: 232, size: 10 },
      );
    }
    items.push(
      { text: "Paid", x: 36, y: 196, size: 9 },
      { text: o("Print/Type preparer's name"), x: 84, y: 196, size: 6 },
      { text: o("Preparer's signature"), x: 220, y: 196, size: 6 },
      { text: "Date", x: 340, y: 196, size: 6 },
      { text: "PTIN", x: 500, y: 196, size: 6 },
      { text: o("Preparer"), x: 36, y: 184, size: 9 },
      { text: "Owen Hale, EA", x: 84, y: 184, size: 9 },
      { text: "Owen Hale", x: 220, y: 184, size: 9 },
      { text: "02/27/2025", x: 340, y: 184, size: 9 },
      { text: "P01122334", x: 500, y: 184, size: 9 },
      { text: "Use Only", x: 36, y: 172, size: 9 },
      { text: o("Firm's name"), x: 84, y: 172, size: 6 },
      { text: "Hale Tax Services", x: 140, y: 172, size: 9 },
      { text: o("Firm's EIN"), x: 400, y: 172, size: 6 },
      { text: "01-5566778", x: 450, y: 172, size: 9 },
      { text: o("For Paperwork Reduction Act Notice, see separate instructions."), x: 36, y: 40, size: 7 },
      { text: `Form 1120 (${spec.year})`, x: 576, y: 40, size: 7, right: true },
    );
    pages.push({ size: LETTER, items });
  }
  // Schedules L, M-1 and M-2 share one page; without Schedule L, M-1 and M-2 still name it.
  const items: Item[] = [
    { text: `Form 1120 (${spec.year})`, x: 36, y: 760, size: 8 },
    { text: "Page 6", x: 576, y: 760, size: 8, right: true },
  ];
  let y = 736;
  if (spec.scheduleL) {
    items.push(
      { text: ocr("Schedule L Balance Sheets per Books"), x: 36, y, size: 10 },
      { text: ocr("Beginning of tax year"), x: 380, y: y - 14, size: 7 },
      { text: ocr("End of tax year"), x: 500, y: y - 14, size: 7 },
    );
    y -= 28;
    for (const [number, label, begin, end] of SCHEDULE_L_LINES) {
      items.push(
        { text: number, x: 40, y, size: 7 },
        { text: ocr(label), x: 58, y, size: 7 },
        { text: whole(begin), x: 450, y, size: 8, right: true },
        { text: whole(end), x: 576, y, size: 8, right: true },
      );
      y -= 13;
    }
    y -= 14;
  }
  items.push({
    text: ocr("Schedule M-1 Reconciliation of Income (Loss) per Books With Income per Return"),
    x: 36,
    y,
    size: 9,
  });
  y -= 16;
  for (const [number, label, value] of [
    ["1", "Net income (loss) per books", 117_789],
    ["2", "Federal income tax per books", 31_311],
    ["10", "Income (page 1, line 28) - line 6 less line 9", 149_100],
  ] as Array<[string, string, number]>) {
    items.push(
      { text: number, x: 40, y, size: 7 },
      { text: ocr(label), x: 58, y, size: 7 },
      { text: whole(value), x: 576, y, size: 8, right: true },
    );
    y -= 13;
  }
  y -= 14;
  items.push({
    text: ocr("Schedule M-2 Analysis of Unappropriated Retained Earnings per Books (Schedule L, Line 25)"),
    x: 36,
    y,
    size: 9,
  });
  y -= 16;
  for (const [number, label, value] of [
    ["1", "Balance at beginning of year", 541_744],
    ["2", "Net income (loss) per books", 117_789],
    ["5", "Distributions: a Cash", 54_071],
    ["8", "Balance at end of year (line 4 less line 7)", 605_462],
  ] as Array<[string, string, number]>) {
    items.push(
      { text: number, x: 40, y, size: 7 },
      { text: ocr(label), x: 58, y, size: 7 },
      { text: whole(value), x: 576, y, size: 8, right: true },
    );
    y -= 13;
  }
  pages.push({ size: LETTER, items });
  return render(`${spec.year} Form 1120 with federal statements - ${spec.name}`, pages);
}

function taxMetadata(business: string, ein: string, taxYear?: number): Record<string, unknown> {
  return {
    loan_program: "Flex Supreme",
    classification: "1120 Corporate Tax Return",
    as_of_date: "2025-04-15",
    borrower_info: { name: "Elena V. Marsh", business_name: business, monthly_income: 15_000 },
    extracted_entities: { ein, ...(taxYear === undefined ? {} : { tax_year: taxYear }) },
  };
}

function trLabels(values: [Label, Label, Label, Label, Label]): Record<string, Label> {
  return Object.fromEntries(TR.map((id, index) => [id, values[index] as Label]));
}

async function returnCases(): Promise<LabelledCase[]> {
  const casco = "Casco Bay Provisions, Inc.";
  const harbor = "Harbor Light Marine Services Inc";
  const twoUp = "1120-landscape-two-up";
  const stated = "1120-statements-first-ocr";
  const doc = (key: string, bytes: Uint8Array, description: string): SampleDocument => ({
    key: `rm-conditions/holdout-2/${key}`,
    bytes,
    description,
  });
  return [
    {
      layout: twoUp,
      description: "signed 2024 return, everything matches",
      documents: [
        doc(
          "casco-1120-2024.pdf",
          await twoUpReturn({
            name: casco,
            ein: "01-0456789",
            year: 2024,
            signature: { name: "Elena V. Marsh", date: "03/03/2025", title: "CEO" },
            pageOne: true,
            scheduleL: true,
          }),
          "two-up print, signed",
        ),
      ],
      metadata: taxMetadata("Casco Bay Provisions", "01-0456789", 2024),
      labels: trLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout: twoUp,
      description: "unsigned 2022 return filed under another EIN; 2024 expected",
      documents: [
        doc(
          "casco-1120-2022.pdf",
          await twoUpReturn({ name: casco, ein: "01-0456798", year: 2022, pageOne: true, scheduleL: true }),
          "two-up print, unsigned",
        ),
      ],
      metadata: taxMetadata("Casco Bay Provisions Inc", "01-0456789", 2024),
      labels: trLabels(["not_fulfilled", "not_fulfilled", "not_fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout: twoUp,
      description: "another corporation's signed return, second sheet without Schedule L",
      documents: [
        doc(
          "casco-trading-1120.pdf",
          await twoUpReturn({
            name: "Casco Bay Trading Co.",
            ein: "01-0456789",
            year: 2024,
            signature: { name: "Peter Lund", date: "03/11/2025", title: "Treasurer" },
            pageOne: true,
            scheduleL: false,
          }),
          "two-up print, Schedule L half blank",
        ),
      ],
      metadata: taxMetadata("Casco Bay Provisions, Inc.", "01-0456789"),
      labels: trLabels(["fulfilled", "fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
    {
      layout: stated,
      description: "statements first, scanned signed page 1 and Schedules L/M-1/M-2; all match",
      documents: [
        doc(
          "harbor-light-2024.pdf",
          await statementsFirstReturn({
            name: harbor,
            ein: "83-1122334",
            year: 2024,
            signature: { name: "Marcus T. Webb", date: "03/14/2025", title: "President" },
            pageOne: true,
            scheduleL: true,
          }),
          "statements, then OCR form pages",
        ),
      ],
      metadata: taxMetadata("Harbor Light Marine Services, Inc.", "83-1122334", 2024),
      labels: trLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout: stated,
      description: "unsigned scan of a 2022 return; EIN on file differs; name matches",
      documents: [
        doc(
          "harbor-light-2022.pdf",
          await statementsFirstReturn({
            name: harbor,
            ein: "83-1122334",
            year: 2022,
            pageOne: true,
            scheduleL: true,
          }),
          "statements, then unsigned OCR form pages",
        ),
      ],
      metadata: taxMetadata("Harbor Light Marine Services", "83-4455667"),
      labels: trLabels(["not_fulfilled", "not_fulfilled", "not_fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout: stated,
      description: "signed, but a different corporation's return and only M-1/M-2 on the schedules page",
      documents: [
        doc(
          "harbor-view-2024.pdf",
          await statementsFirstReturn({
            name: "Harbor View Marine Storage Corp",
            ein: "83-1122334",
            year: 2024,
            signature: { name: "Marcus T. Webb", date: "03/14/2025", title: "President" },
            pageOne: true,
            scheduleL: false,
          }),
          "statements, then OCR page 1 and M-1/M-2 without Schedule L",
        ),
      ],
      metadata: taxMetadata("Harbor Light Marine Services Inc", "83-1122334", 2024),
      labels: trLabels(["fulfilled", "fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
  ];
}

// ------------------------------------------------------------------ bank statements

interface Txn {
  /** "MM/DD" within the period. */
  date: string;
  description: string;
  /** Positive credits, negative debits. */
  amount: number;
  /** A second description line, as banks wrap long ACH descriptions. */
  more?: string;
}

interface StatementSpec {
  /** Inclusive period, ISO dates. */
  start: string;
  end: string;
  holder: string[];
  account: string;
  opening: number;
  txns: Txn[];
}

function parts(iso: string): { y: number; m: number; d: number } {
  const [y, m, d] = iso.split("-").map(Number);
  return { y: y ?? 0, m: m ?? 0, d: d ?? 0 };
}

function usDate(iso: string, twoDigitYear = false): string {
  const { y, m, d } = parts(iso);
  const year = twoDigitYear ? String(y).slice(2) : String(y);
  return `${String(m).padStart(2, "0")}/${String(d).padStart(2, "0")}/${year}`;
}

function withBalances(spec: StatementSpec): Array<Txn & { balance: number }> {
  let balance = spec.opening;
  return spec.txns.map((txn) => {
    balance = Math.round((balance + txn.amount) * 100) / 100;
    return { ...txn, balance };
  });
}

function sum(txns: Txn[], sign: 1 | -1): number {
  return (
    Math.round(txns.filter((t) => Math.sign(t.amount) === sign).reduce((s, t) => s + t.amount, 0) * 100) / 100
  );
}

/** Brokerage cash management account: Schwab-style period, parenthesized debits, cash balance column. */
async function brokerageStatement(spec: StatementSpec): Promise<Uint8Array> {
  const start = parts(spec.start);
  const end = parts(spec.end);
  const period = `${MONTH_NAMES[start.m - 1]} ${start.d}-${end.d}, ${end.y}`;
  const rows = withBalances(spec);
  const closing = rows.at(-1)?.balance ?? spec.opening;
  const credits = sum(spec.txns, 1);
  const debits = sum(spec.txns, -1);
  const first: Item[] = [
    { text: "RIDGELINE INVESTMENTS", x: 36, y: 752, size: 15 },
    { text: "Cash Management Account", x: 576, y: 756, size: 10, right: true },
    { text: "Statement Period", x: 576, y: 740, size: 7, right: true },
    { text: period, x: 576, y: 728, size: 10, right: true },
    ...spec.holder.map((line, index) => ({ text: line, x: 54, y: 690 - index * 12, size: 9 })),
    { text: "Account Number", x: 400, y: 700, size: 7 },
    { text: spec.account, x: 480, y: 700, size: 9 },
    { text: "Account Type", x: 400, y: 686, size: 7 },
    { text: "Individual", x: 480, y: 686, size: 9 },
    { text: "Your Financial Consultant", x: 400, y: 672, size: 7 },
    { text: "ALICIA REYES  (800) 555-0110", x: 400, y: 662, size: 8 },
    { text: "Account Value Summary", x: 36, y: 610, size: 11 },
    { text: "This Period", x: 420, y: 596, size: 7, right: true },
    { text: "Year to Date", x: 540, y: 596, size: 7, right: true },
    { text: "Beginning Account Value", x: 36, y: 582, size: 8 },
    { text: amount(spec.opening + 18_240.5), x: 420, y: 582, size: 8, right: true },
    { text: "Deposits and Other Credits", x: 36, y: 568, size: 8 },
    { text: amount(credits), x: 420, y: 568, size: 8, right: true },
    { text: "Withdrawals and Other Debits", x: 36, y: 554, size: 8 },
    { text: `(${amount(debits)})`, x: 420, y: 554, size: 8, right: true },
    { text: "Change in Value of Securities", x: 36, y: 540, size: 8 },
    { text: "312.44", x: 420, y: 540, size: 8, right: true },
    { text: "Ending Account Value", x: 36, y: 526, size: 8 },
    { text: amount(closing + 18_552.94), x: 420, y: 526, size: 8, right: true },
    { text: "Cash Balance", x: 36, y: 500, size: 8 },
    {
      text: `Starting ${amount(spec.opening)}   Ending ${amount(closing)}`,
      x: 420,
      y: 500,
      size: 8,
      right: true,
    },
    {
      text: "Holdings: VANGUARD TOTAL STOCK MKT ETF (VTI) 61.0000 shares; RIDGELINE GOVT MONEY FUND (RGXX)",
      x: 36,
      y: 470,
      size: 7,
    },
    {
      text: "Fee schedule: returned item $25; wire out $20; account transfer out $75. Fees may be waived.",
      x: 36,
      y: 80,
      size: 6,
    },
    { text: "Securities offered through Ridgeline Investments, Member SIPC.", x: 36, y: 70, size: 6 },
    { text: "Page 1 of 2", x: 576, y: 30, size: 7, right: true },
  ];
  const detail: Item[] = [
    { text: `RIDGELINE INVESTMENTS   ${period}   Account ${spec.account}`, x: 36, y: 760, size: 8 },
    { text: "Transaction Detail", x: 36, y: 730, size: 11 },
    { text: "Date", x: 36, y: 712, size: 7 },
    { text: "Category", x: 80, y: 712, size: 7 },
    { text: "Description", x: 170, y: 712, size: 7 },
    { text: "Amount", x: 470, y: 712, size: 7, right: true },
    { text: "Cash Balance", x: 570, y: 712, size: 7, right: true },
    { text: "Beginning Cash Balance", x: 170, y: 698, size: 8 },
    { text: amount(spec.opening), x: 570, y: 698, size: 8, right: true },
  ];
  let y = 684;
  for (const row of rows) {
    const category =
      row.amount > 0
        ? /DIVIDEND|INTEREST/.test(row.description)
          ? "Dividend"
          : "Deposit"
        : /BOUGHT/.test(row.description)
          ? "Purchase"
          : /FEE/.test(row.description)
            ? "Fee"
            : "Withdrawal";
    detail.push(
      { text: row.date, x: 36, y, size: 8 },
      { text: category, x: 80, y, size: 8 },
      { text: row.description, x: 170, y, size: 8 },
      {
        text: row.amount < 0 ? `(${amount(row.amount)})` : amount(row.amount),
        x: 470,
        y,
        size: 8,
        right: true,
      },
      { text: amount(row.balance), x: 570, y, size: 8, right: true },
    );
    y -= 12;
    if (row.more) {
      detail.push({ text: row.more, x: 170, y, size: 7 });
      y -= 12;
    }
  }
  detail.push(
    { text: "Ending Cash Balance", x: 170, y: y - 4, size: 8 },
    { text: amount(closing), x: 570, y: y - 4, size: 8, right: true },
    { text: "Page 2 of 2", x: 576, y: 30, size: 7, right: true },
  );
  return render(`Ridgeline CMA ${spec.start}`, [
    { size: LETTER, items: first },
    { size: LETTER, items: detail },
  ]);
}

/** A small savings bank's passbook-style ledger: unsigned amounts in withdrawal and deposit columns. */
async function passbookStatement(spec: StatementSpec & { codes: string[] }): Promise<Uint8Array> {
  const rows = withBalances(spec);
  const closing = rows.at(-1)?.balance ?? spec.opening;
  const year = parts(spec.end).y;
  const charges = -spec.txns
    .filter((_txn, index) => spec.codes[index] === "SC")
    .reduce((total, txn) => total + txn.amount, 0);
  const signedBalance = (value: number) => (value < 0 ? `-${amount(value)}` : amount(value));
  const items: Item[] = [
    { text: "COBBLESTONE SAVINGS BANK", x: 36, y: 754, size: 13 },
    { text: "Est. 1871  -  22 Central Square, Keene NH 03431  -  (603) 555-0147", x: 36, y: 740, size: 7 },
    { text: `Statement Period ${usDate(spec.start)} to ${usDate(spec.end)}`, x: 340, y: 712, size: 9 },
    { text: `Account ending ${spec.account.slice(-4)}`, x: 340, y: 698, size: 9 },
    { text: "Statement Savings & Checking Ledger", x: 340, y: 684, size: 8 },
    ...spec.holder.map((line, index) => ({ text: line, x: 54, y: 700 - index * 12, size: 9 })),
    { text: "Previous balance", x: 36, y: 630, size: 8 },
    { text: signedBalance(spec.opening), x: 200, y: 630, size: 8, right: true },
    { text: "Deposits", x: 230, y: 630, size: 8 },
    { text: amount(sum(spec.txns, 1)), x: 330, y: 630, size: 8, right: true },
    { text: "Withdrawals", x: 360, y: 630, size: 8 },
    { text: amount(sum(spec.txns, -1)), x: 460, y: 630, size: 8, right: true },
    { text: "New balance", x: 480, y: 630, size: 8 },
    { text: signedBalance(closing), x: 576, y: 630, size: 8, right: true },
    { text: "Total service charges", x: 36, y: 616, size: 8 },
    { text: `$${amount(charges)}`, x: 200, y: 616, size: 8, right: true },
    { text: "DATE", x: 36, y: 590, size: 7 },
    { text: "CODE", x: 84, y: 590, size: 7 },
    { text: "DESCRIPTION", x: 116, y: 590, size: 7 },
    { text: "WITHDRAWALS", x: 410, y: 590, size: 7, right: true },
    { text: "DEPOSITS", x: 490, y: 590, size: 7, right: true },
    { text: "BALANCE", x: 576, y: 590, size: 7, right: true },
    { text: usDate(spec.start, true), x: 36, y: 576, size: 8 },
    { text: "BAL", x: 84, y: 576, size: 8 },
    { text: "BALANCE FORWARD", x: 116, y: 576, size: 8 },
    { text: signedBalance(spec.opening), x: 576, y: 576, size: 8, right: true },
  ];
  let y = 562;
  rows.forEach((row, index) => {
    const [month, day] = row.date.split("/");
    const rowYear = Number(month) === parts(spec.start).m ? parts(spec.start).y : year;
    items.push(
      { text: `${month}/${day}/${String(rowYear).slice(2)}`, x: 36, y, size: 8 },
      { text: spec.codes[index] ?? "", x: 84, y, size: 8 },
      { text: row.description, x: 116, y, size: 8 },
      { text: amount(row.amount), x: row.amount < 0 ? 410 : 490, y, size: 8, right: true },
      { text: signedBalance(row.balance), x: 576, y, size: 8, right: true },
    );
    y -= 12;
  });
  items.push(
    { text: "TRANSACTION CODES", x: 36, y: 120, size: 7 },
    {
      text: "DEP Deposit   WD Withdrawal   CK Check   INT Interest   XFR Transfer   SC Service charge",
      x: 36,
      y: 108,
      size: 6,
    },
    {
      text: "NSF Non-sufficient funds item ($32.00 per item)   OD Overdrawn account charge ($5.00 per day)",
      x: 36,
      y: 98,
      size: 6,
    },
    { text: "Member FDIC  -  Equal Housing Lender", x: 36, y: 40, size: 6 },
  );
  return render(`Cobblestone Savings ${spec.start}`, [{ size: LETTER, items }]);
}

interface BusinessAccount {
  name: string;
  number: string;
  opening: number;
  txns: Txn[];
}

/** Business banking: a relationship summary page, then one detail page per account. */
async function businessStatement(spec: {
  start: string;
  end: string;
  holder: string[];
  signer?: string;
  accounts: BusinessAccount[];
}): Promise<Uint8Array> {
  const period = `${usDate(spec.start)} - ${usDate(spec.end)}`;
  const summary: Item[] = [
    { text: "Granite Commerce Bank", x: 36, y: 754, size: 15 },
    { text: "Business Banking", x: 576, y: 756, size: 9, right: true },
    { text: "Relationship Statement", x: 576, y: 742, size: 9, right: true },
    { text: "Statement Period", x: 400, y: 716, size: 7 },
    { text: period, x: 470, y: 716, size: 8 },
    ...spec.holder.map((line, index) => ({ text: line, x: 54, y: 700 - index * 12, size: 9 })),
    { text: "Relationship Summary", x: 36, y: 620, size: 11 },
    { text: "Account", x: 36, y: 604, size: 7 },
    { text: "Number", x: 220, y: 604, size: 7 },
    { text: "Beginning Balance", x: 440, y: 604, size: 7, right: true },
    { text: "Ending Balance", x: 560, y: 604, size: 7, right: true },
  ];
  let y = 590;
  let total = 0;
  const finals: number[] = [];
  for (const account of spec.accounts) {
    const rows = withBalances({
      ...account,
      start: spec.start,
      end: spec.end,
      holder: [],
      account: account.number,
    });
    const closing = rows.at(-1)?.balance ?? account.opening;
    finals.push(closing);
    total += closing;
    summary.push(
      { text: account.name, x: 36, y, size: 8 },
      { text: account.number, x: 220, y, size: 8 },
      { text: signed(account.opening), x: 440, y, size: 8, right: true },
      { text: signed(closing), x: 560, y, size: 8, right: true },
    );
    y -= 13;
  }
  summary.push(
    { text: "Total Relationship Balance", x: 36, y: y - 4, size: 8 },
    { text: signed(total), x: 560, y: y - 4, size: 8, right: true },
    {
      text: "Overdraft and returned item fees are listed under Fees for each account. Ask about overdraft",
      x: 36,
      y: 120,
      size: 6,
    },
    {
      text: "protection: link your Business Money Market to cover overdrafts automatically.",
      x: 36,
      y: 112,
      size: 6,
    },
    { text: "Page 1", x: 576, y: 30, size: 7, right: true },
  );
  const pages: Page[] = [{ size: LETTER, items: summary }];
  spec.accounts.forEach((account, index) => {
    const rows = withBalances({
      ...account,
      start: spec.start,
      end: spec.end,
      holder: [],
      account: account.number,
    });
    const credits = rows.filter((row) => row.amount > 0);
    const fees = rows.filter((row) => row.amount < 0 && /CHARGE|FEE/.test(row.description));
    const debits = rows.filter((row) => row.amount < 0 && !fees.includes(row));
    const items: Item[] = [
      { text: `Granite Commerce Bank   ${period}`, x: 36, y: 760, size: 8 },
      { text: account.name, x: 36, y: 736, size: 11 },
      { text: `Account number: ${account.number}`, x: 360, y: 736, size: 9 },
      ...(spec.signer ? [{ text: `Authorized Signer: ${spec.signer}`, x: 360, y: 722, size: 8 }] : []),
      { text: "Beginning balance", x: 36, y: 712, size: 8 },
      { text: signed(account.opening), x: 200, y: 712, size: 8, right: true },
      { text: "Ending balance", x: 220, y: 712, size: 8 },
      { text: signed(finals[index] ?? 0), x: 340, y: 712, size: 8, right: true },
    ];
    let line = 690;
    const section = (title: string, entries: Array<Txn & { balance: number }>, totalLabel: string) => {
      items.push({ text: title, x: 36, y: line, size: 9 });
      line -= 13;
      items.push(
        { text: "Date", x: 36, y: line, size: 7 },
        { text: "Description", x: 80, y: line, size: 7 },
        { text: "Amount", x: 560, y: line, size: 7, right: true },
      );
      line -= 12;
      for (const entry of entries) {
        items.push(
          { text: entry.date, x: 36, y: line, size: 8 },
          { text: entry.description, x: 80, y: line, size: 8 },
          { text: amount(entry.amount), x: 560, y: line, size: 8, right: true },
        );
        line -= 11;
        if (entry.more) {
          items.push({ text: entry.more, x: 80, y: line, size: 7 });
          line -= 11;
        }
      }
      const value = entries.reduce((s, e) => s + Math.abs(e.amount), 0);
      items.push(
        { text: totalLabel, x: 80, y: line, size: 8 },
        { text: `$${amount(value)}`, x: 560, y: line, size: 8, right: true },
      );
      line -= 20;
    };
    section("Deposits and Other Credits", credits, "Total deposits and other credits");
    section("Withdrawals and Other Debits", debits, "Total withdrawals and other debits");
    section("Fees", fees, "Total fees");
    items.push({ text: "Daily Ending Balance", x: 36, y: line, size: 9 });
    line -= 13;
    const byDate = new Map<string, number>();
    for (const row of rows) byDate.set(row.date, row.balance);
    let column = 0;
    for (const [date, balance] of byDate) {
      items.push(
        { text: date, x: 36 + column * 180, y: line, size: 8 },
        { text: signed(balance), x: 170 + column * 180, y: line, size: 8, right: true },
      );
      column += 1;
      if (column === 3) {
        column = 0;
        line -= 11;
      }
    }
    items.push({ text: `Page ${index + 2}`, x: 576, y: 30, size: 7, right: true });
    pages.push({ size: LETTER, items });
  });
  return render(`Granite Commerce ${spec.start}`, pages);
}

function signed(value: number): string {
  return value < 0 ? `-${amount(value)}` : amount(value);
}

function bankMetadata(name: string, income: number, asOf: string): Record<string, unknown> {
  return {
    loan_program: "Flex Supreme",
    classification: "Bank Statements",
    as_of_date: asOf,
    borrower_info: { name, monthly_income: income },
  };
}

function bsLabels(values: [Label, Label, Label, Label, Label]): Record<string, Label> {
  return Object.fromEntries(BS.map((id, index) => [id, values[index] as Label]));
}

const SMITH = ["JOHN A SMITH JR", "142 ORCHARD LANE", "DAYTON OH 45402-1187"];

function brokerageTxns(month: string, extra: Txn[]): Txn[] {
  return [
    {
      date: `${month}/02`,
      description: "ELECTRONIC FUNDS TRANSFER RECEIVED",
      amount: 2_400,
      more: "FROM EXT ACCT XXXXXX8765 FIRST MIAMI VALLEY",
    },
    { date: `${month}/05`, description: "BOUGHT 6 VANGUARD TOTAL STOCK MKT ETF @ 281.40", amount: -1_688.4 },
    { date: `${month}/09`, description: "CHECK 1047", amount: -845 },
    { date: `${month}/12`, description: "VISA DEBIT KROGER #0412 DAYTON OH", amount: -163.27 },
    {
      date: `${month}/16`,
      description: "ELECTRONIC FUNDS TRANSFER RECEIVED",
      amount: 2_400,
      more: "FROM EXT ACCT XXXXXX8765 FIRST MIAMI VALLEY",
    },
    { date: `${month}/20`, description: "ADVISORY FEE QUARTERLY", amount: -48.5 },
    { date: `${month}/24`, description: "BILL PAY DAYTON POWER AND LIGHT", amount: -212.66 },
    ...extra,
    { date: `${month}/28`, description: "DIVIDEND RECEIVED VANGUARD TOTAL STOCK MKT ETF", amount: 61.18 },
  ];
}

async function brokerageCases(): Promise<LabelledCase[]> {
  const layout = "brokerage-cash-management";
  const doc = async (key: string, spec: StatementSpec): Promise<SampleDocument> => ({
    key: `rm-conditions/holdout-2/${key}`,
    bytes: await brokerageStatement(spec),
    description: `Ridgeline CMA ${spec.start}`,
  });
  const income = 9_000; // large above 4,500
  return [
    {
      layout,
      description: "Dec and Jan, Jr holder, transfers from an external account, a courtesy fee refund",
      documents: [
        await doc("ridgeline-2025-12.pdf", {
          start: "2025-12-01",
          end: "2025-12-31",
          holder: SMITH,
          account: "RX7-054321",
          opening: 3_905.12,
          txns: brokerageTxns("12", [{ date: "12/26", description: "FEE REFUND - COURTESY", amount: 25 }]),
        }),
        await doc("ridgeline-2026-01.pdf", {
          start: "2026-01-01",
          end: "2026-01-31",
          holder: SMITH,
          account: "RX7-054321",
          opening: 5_833.47,
          txns: brokerageTxns("01", []),
        }),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "Nov and Jan (December missing), the Sr's account, a return item chargeback fee",
      documents: [
        await doc("ridgeline-2025-11.pdf", {
          start: "2025-11-01",
          end: "2025-11-30",
          holder: ["JOHN A SMITH SR", ...SMITH.slice(1)],
          account: "RX7-054321",
          opening: 3_101.4,
          txns: brokerageTxns("11", [
            { date: "11/25", description: "RETURNED DEPOSIT ITEM CHECK 0931 UNPAID", amount: -400 },
            { date: "11/25", description: "RETURN ITEM CHARGEBACK FEE", amount: -25 },
          ]),
        }),
        await doc("ridgeline-2026-01.pdf", {
          start: "2026-01-01",
          end: "2026-01-31",
          holder: ["JOHN A SMITH SR", ...SMITH.slice(1)],
          account: "RX7-054321",
          opening: 4_874.04,
          txns: brokerageTxns("01", []),
        }),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["not_fulfilled", "not_fulfilled", "fulfilled", "not_fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "Dec and Jan of two different accounts, a wire from escrow, a returned check fee",
      documents: [
        await doc("ridgeline-2025-12-a.pdf", {
          start: "2025-12-01",
          end: "2025-12-31",
          holder: SMITH,
          account: "RX7-054321",
          opening: 3_905.12,
          txns: brokerageTxns("12", [
            {
              date: "12/22",
              description: "WIRE FUNDS RECEIVED",
              amount: 9_850,
              more: "ORG CARTER TITLE ESCROW REF 2512220044",
            },
          ]),
        }),
        await doc("ridgeline-2026-01-b.pdf", {
          start: "2026-01-01",
          end: "2026-01-31",
          holder: SMITH,
          account: "RX7-061188",
          opening: 1_250,
          txns: brokerageTxns("01", [
            { date: "01/26", description: "RETURNED CHECK FEE CHECK 1052", amount: -25 },
          ]),
        }),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
  ];
}

function passbookTxns(
  start: string,
  end: string,
  overdrawn: "fee" | "transfer" | "none",
  large?: number,
): {
  txns: Txn[];
  codes: string[];
} {
  const s = start.slice(5, 7);
  const e = end.slice(5, 7);
  const entries: Array<[string, Txn]> = [
    ["DEP", { date: `${s}/19`, description: "DEPOSIT - TELLER 04", amount: 1_950 }],
    ["CK", { date: `${s}/22`, description: "CHECK 2214", amount: -1_400 }],
    ["WD", { date: `${s}/28`, description: "ATM WITHDRAWAL MAIN ST KEENE", amount: -200 }],
    ["CK", { date: `${e}/02`, description: "CHECK 2215 RENT", amount: -1_150 }],
  ];
  if (overdrawn === "fee") {
    entries.push(["SC", { date: `${e}/03`, description: "SERVICE CHARGE - OVERDRAWN ACCOUNT", amount: -30 }]);
  }
  if (overdrawn === "transfer") {
    entries.push(["XFR", { date: `${e}/03`, description: "OVERDRAFT TRANSFER FROM SAVINGS", amount: 300 }]);
  }
  entries.push(
    ["DEP", { date: `${e}/05`, description: "DEPOSIT - PAYROLL KEENE MILLWORKS", amount: 1_950 }],
    ["SC", { date: `${e}/06`, description: "SERVICE CHARGE - MONTHLY MAINTENANCE", amount: -5 }],
  );
  if (large) entries.push(["DEP", { date: `${e}/08`, description: "DEPOSIT - TELLER 02", amount: large }]);
  entries.push(["INT", { date: `${e}/14`, description: "INTEREST PAID", amount: 0.41 }]);
  return { txns: entries.map(([, txn]) => txn), codes: entries.map(([code]) => code) };
}

async function passbookCases(): Promise<LabelledCase[]> {
  const layout = "savings-bank-passbook-ledger";
  const holder = ["JOHN A SMITH JR", "17 MILL POND RD", "KEENE NH 03431"];
  const doc = async (
    key: string,
    start: string,
    end: string,
    who: string[],
    account: string,
    overdrawn: "fee" | "transfer" | "none",
    opening: number,
    large?: number,
  ): Promise<SampleDocument> => ({
    key: `rm-conditions/holdout-2/${key}`,
    bytes: await passbookStatement({
      start,
      end,
      holder: who,
      account,
      opening,
      ...passbookTxns(start, end, overdrawn, large),
    }),
    description: `Cobblestone ledger ${start}`,
  });
  const income = 7_200; // large above 3,600
  return [
    {
      layout,
      description: "two consecutive mid-month periods, overdraft covered by a transfer from savings",
      documents: [
        await doc(
          "cobblestone-2025-12.pdf",
          "2025-12-15",
          "2026-01-14",
          holder,
          "0077104321",
          "transfer",
          742.18,
        ),
        await doc(
          "cobblestone-2026-01.pdf",
          "2026-01-15",
          "2026-02-14",
          holder,
          "0077104321",
          "none",
          2_187.59,
        ),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-25"),
      labels: bsLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "a gap between periods, the spouse's account, an overdrawn-account service charge",
      documents: [
        await doc(
          "cobblestone-2025-11.pdf",
          "2025-11-15",
          "2025-12-14",
          ["MARY E SMITH", ...holder.slice(1)],
          "0077104321",
          "fee",
          742.18,
        ),
        await doc(
          "cobblestone-2026-01b.pdf",
          "2026-01-15",
          "2026-02-14",
          ["MARY E SMITH", ...holder.slice(1)],
          "0077104321",
          "none",
          1_604.22,
        ),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-25"),
      labels: bsLabels(["not_fulfilled", "not_fulfilled", "fulfilled", "not_fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "consecutive periods of two accounts, a large teller deposit, an overdrawn charge",
      documents: [
        await doc(
          "cobblestone-2025-12c.pdf",
          "2025-12-15",
          "2026-01-14",
          holder,
          "0077104321",
          "fee",
          742.18,
        ),
        await doc(
          "cobblestone-2026-01c.pdf",
          "2026-01-15",
          "2026-02-14",
          holder,
          "0077109050",
          "none",
          1_318.65,
          6_400,
        ),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-25"),
      labels: bsLabels(["fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
  ];
}

function operatingTxns(month: string, extra: Txn[]): Txn[] {
  return [
    { date: `${month}/03`, description: "DEPOSIT", amount: 3_120.5 },
    {
      date: `${month}/04`,
      description: "ACH CREDIT SQUARE INC",
      amount: 1_884.12,
      more: `SETTLEMENT ${month}04 ID 8812330`,
    },
    { date: `${month}/08`, description: "ACH DEBIT ME REVENUE SVCS SALES TAX", amount: -1_402.33 },
    { date: `${month}/10`, description: "CHECK 5521", amount: -1_380 },
    { date: `${month}/11`, description: "PAYROLL ADP WAGE PAY", amount: -3_966.7 },
    {
      date: `${month}/15`,
      description: "ACH CREDIT SQUARE INC",
      amount: 2_215.4,
      more: `SETTLEMENT ${month}15 ID 8812331`,
    },
    ...extra,
    { date: `${month}/24`, description: "DEPOSIT", amount: 2_760 },
  ];
}

async function businessCases(): Promise<LabelledCase[]> {
  const layout = "business-summary-and-detail";
  const dba = ["JOHN A SMITH JR DBA SMITH MARINE SUPPLY", "PO BOX 220", "BAR HARBOR ME 04609"];
  const llc = ["SMITH MARINE SUPPLY LLC", "PO BOX 220", "BAR HARBOR ME 04609"];
  const moneyMarket = (month: string, number: string, transfer: boolean): BusinessAccount => ({
    name: "Business Money Market",
    number,
    opening: 25_000,
    txns: [
      ...(transfer
        ? [{ date: `${month}/18`, description: "OVERDRAFT TRANSFER TO CHECKING", amount: -500 }]
        : []),
      { date: `${month}/28`, description: "INTEREST PAYMENT", amount: 31.2 },
    ],
  });
  const doc = async (
    key: string,
    start: string,
    end: string,
    holder: string[],
    accounts: BusinessAccount[],
    signer?: string,
  ): Promise<SampleDocument> => ({
    key: `rm-conditions/holdout-2/${key}`,
    bytes: await businessStatement({ start, end, holder, accounts, ...(signer ? { signer } : {}) }),
    description: `Granite Commerce relationship statement ${start}`,
  });
  const income = 12_000; // large above 6,000
  const overdrawnByTransfer: Txn[] = [
    { date: "12/17", description: "CHECK 5524 HARBOR FUEL", amount: -4_700 },
    {
      date: "12/18",
      description: "OVERDRAFT TRANSFER FROM SAVINGS",
      amount: 500,
      more: "FROM BUSINESS MONEY MARKET ******8765",
    },
    { date: "12/22", description: "FEE REFUND - COURTESY", amount: 35 },
  ];
  return [
    {
      layout,
      description:
        "sole proprietor DBA, Dec and Jan, overdraft covered from the money market, a courtesy refund",
      documents: [
        await doc("granite-2025-12.pdf", "2025-12-01", "2025-12-31", dba, [
          {
            name: "Business Checking Plus",
            number: "******4321",
            opening: 3_820.14,
            txns: operatingTxns("12", overdrawnByTransfer),
          },
          moneyMarket("12", "******8765", true),
        ]),
        await doc("granite-2026-01.pdf", "2026-01-01", "2026-01-31", dba, [
          {
            name: "Business Checking Plus",
            number: "******4321",
            opening: 2_886.13,
            txns: operatingTxns("01", []),
          },
          moneyMarket("01", "******8765", false),
        ]),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout,
      description:
        "the LLC's account with the borrower as authorized signer, statements too old, extended overdraft charge",
      documents: [
        await doc(
          "granite-llc-2025-12.pdf",
          "2025-12-01",
          "2025-12-31",
          llc,
          [
            {
              name: "Business Checking Plus",
              number: "******4321",
              opening: 3_820.14,
              txns: operatingTxns("12", [
                { date: "12/17", description: "CHECK 5524 HARBOR FUEL", amount: -5_100 },
                { date: "12/22", description: "EXTENDED OVERDRAFT CHARGE", amount: -35 },
              ]),
            },
            moneyMarket("12", "******8765", false),
          ],
          "JOHN A SMITH JR",
        ),
        await doc(
          "granite-llc-2026-01.pdf",
          "2026-01-01",
          "2026-01-31",
          llc,
          [
            {
              name: "Business Checking Plus",
              number: "******4321",
              opening: 1_916.13,
              txns: operatingTxns("01", []),
            },
            moneyMarket("01", "******8765", false),
          ],
          "JOHN A SMITH JR",
        ),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-05-20"),
      labels: bsLabels(["not_fulfilled", "not_fulfilled", "fulfilled", "not_fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "DBA, January from another relationship, a large wire, a return item chargeback fee",
      documents: [
        await doc("granite-2025-12d.pdf", "2025-12-01", "2025-12-31", dba, [
          {
            name: "Business Checking Plus",
            number: "******4321",
            opening: 3_820.14,
            txns: operatingTxns("12", [
              {
                date: "12/19",
                description: "INCOMING WIRE TRANSFER",
                amount: 18_500,
                more: "ORIG PENOBSCOT BOAT WORKS REF 0044187",
              },
            ]),
          },
          moneyMarket("12", "******8765", false),
        ]),
        await doc("granite-2026-01d.pdf", "2026-01-01", "2026-01-31", dba, [
          {
            name: "Business Checking Plus",
            number: "******5502",
            opening: 2_410,
            txns: operatingTxns("01", [
              { date: "01/20", description: "RETURN ITEM CHARGEBACK FEE", amount: -12 },
            ]),
          },
          moneyMarket("01", "******6610", false),
        ]),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
  ];
}

/** Every case of the second held-out check: two Form 1120 prints, then three bank layouts. */
export async function holdoutCases2(): Promise<LabelledCase[]> {
  return [
    ...(await returnCases()),
    ...(await brokerageCases()),
    ...(await passbookCases()),
    ...(await businessCases()),
  ];
}
