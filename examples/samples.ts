// Sample loan files for demos and tests, generated rather than committed as binaries. They are
// laid out like the real documents (IRS Form 1120 page 1 + Schedule L, a retail bank's monthly
// statements) so the engines are exercised on labels, columns and traps the real ones have: the
// paid preparer's own date and EIN under the officer's signature, "$0.00" overdraft-fee
// summaries, daily-balance rows that look like transactions.
import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";

export interface SampleDocument {
  key: string;
  bytes: Uint8Array;
  description: string;
}

const FIXED_DATE = new Date("2025-04-01T12:00:00.000Z");
export const LETTER: [number, number] = [612, 792];

export interface Item {
  text: string;
  x: number;
  y: number;
  size?: number;
  /** Right-align at x. */
  right?: boolean;
  /** Read bottom-to-top, like the side captions of IRS forms. */
  vertical?: boolean;
}

export async function newDocument(title: string): Promise<{ pdf: PDFDocument; font: PDFFont }> {
  const pdf = await PDFDocument.create();
  // pdf-lib stamps the current time by default; fixed metadata keeps the bytes reproducible.
  pdf.setTitle(title);
  pdf.setCreator("rewoo-loan-agent sample generator");
  pdf.setProducer("pdf-lib");
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  return { pdf, font };
}

export function drawItems(page: PDFPage, font: PDFFont, items: Item[]): void {
  for (const item of items) {
    const size = item.size ?? 8;
    const x = item.right ? item.x - font.widthOfTextAtSize(item.text, size) : item.x;
    page.drawText(item.text, {
      x,
      y: item.y,
      size,
      font,
      color: rgb(0, 0, 0),
      ...(item.vertical ? { rotate: degrees(90) } : {}),
    });
  }
}

export async function save(pdf: PDFDocument): Promise<Uint8Array> {
  return pdf.save({ useObjectStreams: false });
}

function money(value: number): string {
  return Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

// ---------------------------------------------------------------- Form 1120

export interface Form1120Options {
  corporationName?: string;
  ein?: string;
  taxYear?: number;
  /** Officer's signature and date in the Sign Here block; false leaves both blank. */
  signed?: boolean;
  signer?: string;
  signDate?: string;
  officerTitle?: string;
  includePageOne?: boolean;
  includeScheduleL?: boolean;
  /**
   * "1120-S" prints the same return as an S corporation's: its title and form number change, and
   * Schedule L (which Form 1120-S has too) stays. Default "1120".
   */
  form?: "1120" | "1120-S";
}

const FORM_TITLES = {
  "1120": "U.S. Corporation Income Tax Return",
  "1120-S": "U.S. Income Tax Return for an S Corporation",
} as const;

export async function buildForm1120(options: Form1120Options = {}): Promise<Uint8Array> {
  const name = options.corporationName ?? "Acme Widgets, Inc.";
  const ein = options.ein ?? "12-3456789";
  const year = options.taxYear ?? 2024;
  const signed = options.signed ?? true;
  const includePageOne = options.includePageOne ?? true;
  const includeScheduleL = options.includeScheduleL ?? true;
  const number = options.form ?? "1120";
  const form = `Form ${number}`;
  const { pdf, font } = await newDocument(`${form} (${year}) - ${name}`);

  if (includePageOne) {
    const page = pdf.addPage(LETTER);
    const items: Item[] = [
      { text: form, x: 36, y: 756, size: 16 },
      { text: FORM_TITLES[number], x: 190, y: 758, size: 13 },
      { text: "OMB No. 1545-0123", x: 576, y: 760, size: 7, right: true },
      { text: "Department of the Treasury", x: 36, y: 742, size: 6 },
      {
        text: `For calendar year ${year} or tax year beginning            , ${year}, ending            , 20`,
        x: 170,
        y: 744,
        size: 8,
      },
      { text: String(year), x: 576, y: 744, size: 16, right: true },
      { text: "Internal Revenue Service", x: 36, y: 734, size: 6 },
      {
        text: `Go to www.irs.gov/Form${number.replace("-", "")} for instructions and the latest information.`,
        x: 190,
        y: 732,
        size: 7,
      },
      { text: "A Check if:", x: 36, y: 714, size: 7 },
      { text: "Name", x: 130, y: 714, size: 7 },
      { text: "B Employer identification number", x: 436, y: 714, size: 7 },
      { text: "1a Consolidated return", x: 36, y: 702, size: 6 },
      { text: name, x: 130, y: 702, size: 10 },
      { text: ein, x: 436, y: 702, size: 10 },
      {
        text: "Number, street, and room or suite no. If a P.O. box, see instructions.",
        x: 130,
        y: 688,
        size: 6,
      },
      { text: "C Date incorporated", x: 436, y: 688, size: 7 },
      { text: "1250 Industrial Parkway", x: 130, y: 677, size: 10 },
      { text: "03/15/2009", x: 436, y: 677, size: 10 },
      {
        text: "City or town, state or province, country, and ZIP or foreign postal code",
        x: 130,
        y: 663,
        size: 6,
      },
      { text: "D Total assets (see instructions)", x: 436, y: 663, size: 7 },
      { text: "Springfield, IL 62704", x: 130, y: 652, size: 10 },
      { text: "$ 1,284,500", x: 436, y: 652, size: 10 },
      {
        text: "E Check if: (1) Initial return   (2) Final return   (3) Name change   (4) Address change",
        x: 36,
        y: 636,
        size: 7,
      },
    ];
    const lines: Array<[string, string, string]> = [
      ["1a", "Gross receipts or sales", "2,450,000"],
      ["b", "Returns and allowances", "12,000"],
      ["c", "Balance. Subtract line 1b from line 1a", "2,438,000"],
      ["2", "Cost of goods sold (attach Form 1125-A)", "1,310,000"],
      ["3", "Gross profit. Subtract line 2 from line 1c", "1,128,000"],
      ["5", "Interest", "13,250"],
      ["11", "Total income. Add lines 3 through 10", "1,141,250"],
      ["12", "Compensation of officers (see instructions - attach Form 1125-E)", "180,000"],
      ["13", "Salaries and wages (less employment credits)", "412,600"],
      ["17", "Taxes and licenses", "61,300"],
      ["26", "Other deductions (attach statement)", "218,500"],
      ["27", "Total deductions. Add lines 12 through 26", "872,400"],
      ["28", "Taxable income before net operating loss deduction and special deductions", "268,850"],
      ["30", "Taxable income. Subtract line 29c from line 28", "268,850"],
      ["31", "Total tax (Schedule J, Part I, line 11)", "56,459"],
      ["33", "Total payments and credits (Schedule J, Part III, line 23)", "60,000"],
      [
        "36",
        "Overpayment. If line 33 is larger than the total of lines 31, 32 and 34, enter amount overpaid",
        "3,541",
      ],
    ];
    let y = 616;
    for (const [number, label, amount] of lines) {
      items.push({ text: number, x: 60, y, size: 7 });
      items.push({ text: label, x: 78, y, size: 7 });
      items.push({ text: number, x: 500, y, size: 7 });
      items.push({ text: amount, x: 576, y, size: 8, right: true });
      y -= 14;
    }
    items.push(
      { text: "Income", x: 44, y: 560, size: 7, vertical: true },
      { text: "Deductions", x: 44, y: 450, size: 7, vertical: true },
      { text: "Tax, Refundable Credits", x: 44, y: 330, size: 6, vertical: true },
    );
    // Sign Here block: values on the line above the printed captions, as on the real form.
    items.push(
      { text: "Sign", x: 36, y: 232, size: 10 },
      {
        text: "Under penalties of perjury, I declare that I have examined this return, including accompanying schedules and statements, and to the best of my",
        x: 80,
        y: 234,
        size: 6,
      },
      { text: "Here", x: 36, y: 222, size: 10 },
      {
        text: "knowledge and belief, it is true, correct, and complete. Declaration of preparer (other than taxpayer) is based on all information of which preparer has any knowledge.",
        x: 80,
        y: 224,
        size: 6,
      },
      { text: "May the IRS discuss this return", x: 450, y: 206, size: 6 },
      { text: "Signature of officer", x: 84, y: 192, size: 7 },
      { text: "Date", x: 300, y: 192, size: 7 },
      { text: "Title", x: 380, y: 192, size: 7 },
      { text: "with the preparer shown below?", x: 450, y: 192, size: 6 },
      { text: "Yes", x: 550, y: 192, size: 6 },
      { text: "No", x: 566, y: 192, size: 6 },
    );
    if (signed) {
      items.push(
        { text: options.signer ?? "Robert J. Tanner", x: 84, y: 204, size: 10 },
        { text: options.signDate ?? "03/10/2025", x: 300, y: 204, size: 10 },
        { text: options.officerTitle ?? "President", x: 380, y: 204, size: 10 },
      );
    }
    items.push(
      { text: "Paid", x: 36, y: 170, size: 9 },
      { text: "Print/Type preparer's name", x: 84, y: 170, size: 6 },
      { text: "Preparer's signature", x: 220, y: 170, size: 6 },
      { text: "Date", x: 340, y: 170, size: 6 },
      { text: "Check if self-employed", x: 400, y: 170, size: 6 },
      { text: "PTIN", x: 500, y: 170, size: 6 },
      { text: "Preparer", x: 36, y: 158, size: 9 },
      { text: "Linda M. Ortiz, CPA", x: 84, y: 158, size: 9 },
      { text: "Linda M. Ortiz", x: 220, y: 158, size: 9 },
      { text: "03/08/2025", x: 340, y: 158, size: 9 },
      { text: "P01234567", x: 500, y: 158, size: 9 },
      { text: "Use Only", x: 36, y: 146, size: 9 },
      { text: "Firm's name", x: 84, y: 146, size: 6 },
      { text: "Ortiz & Associates CPAs LLC", x: 140, y: 146, size: 9 },
      { text: "Firm's EIN", x: 400, y: 146, size: 6 },
      { text: "98-7654321", x: 450, y: 146, size: 9 },
      { text: "Firm's address", x: 84, y: 134, size: 6 },
      { text: "400 Main Street, Springfield, IL 62701", x: 140, y: 134, size: 9 },
      { text: "Phone no.", x: 400, y: 134, size: 6 },
      { text: "(217) 555-0142", x: 450, y: 134, size: 9 },
      { text: "For Paperwork Reduction Act Notice, see separate instructions.", x: 36, y: 40, size: 7 },
      { text: "Cat. No. 11450Q", x: 300, y: 40, size: 7 },
      { text: `${form} (${year})`, x: 576, y: 40, size: 7, right: true },
    );
    drawItems(page, font, items);
  }

  if (includeScheduleL) {
    // Schedules J and K: mentions "Schedules L, M-1, and M-2" without being Schedule L.
    const scheduleK = pdf.addPage(LETTER);
    const kItems: Item[] = [
      { text: `${form} (${year})`, x: 36, y: 760, size: 8 },
      { text: "Page 4", x: 576, y: 760, size: 8, right: true },
      { text: "Schedule J   Tax Computation and Payment (see instructions)", x: 36, y: 736, size: 10 },
      { text: "Part I - Tax Computation", x: 36, y: 720, size: 8 },
      { text: "1", x: 40, y: 706, size: 7 },
      {
        text: `Check if the corporation is a member of a controlled group (attach Schedule O (${form}))`,
        x: 56,
        y: 706,
        size: 7,
      },
      { text: "2", x: 40, y: 692, size: 7 },
      { text: "Income tax. See instructions", x: 56, y: 692, size: 7 },
      { text: "56,459", x: 576, y: 692, size: 8, right: true },
      { text: "Schedule K   Other Information (see instructions)", x: 36, y: 640, size: 10 },
      { text: "1", x: 40, y: 624, size: 7 },
      {
        text: "Check accounting method:   a  Cash   b  Accrual   c  Other (specify)",
        x: 56,
        y: 624,
        size: 7,
      },
      { text: "2", x: 40, y: 610, size: 7 },
      {
        text: "See the instructions and enter the: a Business activity code no. 332900",
        x: 56,
        y: 610,
        size: 7,
      },
      { text: "13", x: 40, y: 596, size: 7 },
      {
        text: "Are the corporation's total receipts and its total assets at the end of the tax year less than $250,000?",
        x: 56,
        y: 596,
        size: 7,
      },
      { text: "No", x: 560, y: 596, size: 7 },
      {
        text: 'If "Yes," the corporation is not required to complete Schedules L, M-1, and M-2.',
        x: 56,
        y: 586,
        size: 7,
      },
      { text: `${form} (${year})`, x: 576, y: 40, size: 7, right: true },
    ];
    drawItems(scheduleK, font, kItems);

    const scheduleL = pdf.addPage(LETTER);
    const lItems: Item[] = [
      { text: `${form} (${year})`, x: 36, y: 760, size: 8 },
      { text: "Page 6", x: 576, y: 760, size: 8, right: true },
      { text: "Schedule L    Balance Sheets per Books", x: 36, y: 736, size: 10 },
      { text: "Beginning of tax year", x: 330, y: 722, size: 7 },
      { text: "End of tax year", x: 470, y: 722, size: 7 },
      { text: "Assets", x: 36, y: 710, size: 8 },
    ];
    const rows: Array<[string, string, string, string]> = [
      ["1", "Cash", "182,300", "214,750"],
      ["2a", "Trade notes and accounts receivable", "311,400", "336,900"],
      ["3", "Inventories", "402,150", "388,600"],
      ["10a", "Buildings and other depreciable assets", "512,000", "548,000"],
      ["15", "Total assets", "1,198,350", "1,284,500"],
      ["16", "Accounts payable", "144,800", "132,250"],
      ["17", "Mortgages, notes, bonds payable in less than 1 year", "60,000", "60,000"],
      ["22", "Capital stock: b Common stock", "100,000", "100,000"],
      ["25", "Retained earnings - Unappropriated", "893,550", "992,250"],
      ["28", "Total liabilities and shareholders' equity", "1,198,350", "1,284,500"],
    ];
    let y = 696;
    for (const [number, label, begin, end] of rows) {
      if (number === "16") {
        lItems.push({ text: "Liabilities and Shareholders' Equity", x: 36, y, size: 8 });
        y -= 14;
      }
      lItems.push(
        { text: number, x: 40, y, size: 7 },
        { text: label, x: 60, y, size: 7 },
        { text: begin, x: 420, y, size: 8, right: true },
        { text: end, x: 576, y, size: 8, right: true },
      );
      y -= 14;
    }
    lItems.push(
      {
        text: "Schedule M-1    Reconciliation of Income (Loss) per Books With Income per Return",
        x: 36,
        y: y - 16,
        size: 10,
      },
      { text: "1", x: 40, y: y - 32, size: 7 },
      { text: "Net income (loss) per books", x: 60, y: y - 32, size: 7 },
      { text: "212,391", x: 576, y: y - 32, size: 8, right: true },
      { text: `${form} (${year})`, x: 576, y: 40, size: 7, right: true },
    );
    drawItems(scheduleL, font, lItems);
  }
  return save(pdf);
}

// ---------------------------------------------------------------- bank statements

export interface StatementTransaction {
  day: number;
  description: string;
  /** Positive = deposit/credit, negative = withdrawal/debit. */
  amount: number;
  /** Fees are listed in their own section of the "sections" layout. */
  fee?: boolean;
}

export interface StatementOptions {
  year: number;
  month: number;
  holder?: string;
  /** The mailing-address name, printed the way banks do (upper case, no punctuation). */
  addressName?: string;
  accountLast4?: string;
  beginningBalance: number;
  transactions: StatementTransaction[];
  /**
   * "sections": Deposits / Withdrawals / Fees sections, "Statement Period: MM/DD/YYYY - MM/DD/YYYY",
   * "Account Number: ****1234". "ledger": one signed ledger with running balance, "Statement period
   * January 1, 2025 through January 31, 2025", "Account ending in 1234".
   */
  layout?: "sections" | "ledger";
}

export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function lastDay(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function mmdd(month: number, day: number): string {
  return `${String(month).padStart(2, "0")}/${String(day).padStart(2, "0")}`;
}

type Row = Item[];

/** Lays rows out top-down over as many pages as needed; `header(pageNo, pageCount)` tops pages 2+. */
async function layoutStatement(
  title: string,
  firstPage: Item[],
  firstPageBottom: number,
  rows: Row[],
  continuationHeader: (page: number, pages: number) => Item[],
): Promise<Uint8Array> {
  const pages: Item[][] = [];
  let current: Item[] = [...firstPage];
  let y = firstPageBottom;
  const rowHeight = 13;
  for (const row of rows) {
    if (y < 60) {
      pages.push(current);
      current = [];
      y = 720;
    }
    for (const item of row) current.push({ ...item, y });
    y -= row.length === 0 ? rowHeight / 2 : rowHeight;
  }
  pages.push(current);
  const { pdf, font } = await newDocument(title);
  pages.forEach((items, index) => {
    const page = pdf.addPage(LETTER);
    const header = index === 0 ? [] : continuationHeader(index + 1, pages.length);
    const footer: Item = {
      text: `Page ${index + 1} of ${pages.length}`,
      x: 576,
      y: 30,
      size: 7,
      right: true,
    };
    drawItems(page, font, [...header, ...items, footer]);
  });
  return save(pdf);
}

const BANK: Item[] = [
  { text: "First Prairie Bank", x: 36, y: 750, size: 16 },
  { text: "Member FDIC", x: 576, y: 752, size: 7, right: true },
  {
    text: "P.O. Box 4400, Springfield, IL 62708   |   firstprairiebank.example   |   1-800-555-0199",
    x: 36,
    y: 736,
    size: 7,
  },
];

const DISCLOSURE: string[] = [
  "To avoid overdraft fees, link a savings account for Overdraft Protection. In case of errors or questions about",
  "your electronic transfers, call 1-800-555-0199 or write to us at the address above as soon as you can.",
];

export async function buildBankStatement(options: StatementOptions): Promise<Uint8Array> {
  const holder = options.holder ?? "Jane Q. Doe";
  const addressName = options.addressName ?? holder.toUpperCase().replace(/\./g, "");
  const last4 = options.accountLast4 ?? "4821";
  const { year, month } = options;
  const end = lastDay(year, month);
  const sorted = [...options.transactions].sort((p, q) => p.day - q.day);
  let balance = options.beginningBalance;
  const balances: Array<{ day: number; balance: number }> = [];
  const withBalance = sorted.map((transaction) => {
    balance = Math.round((balance + transaction.amount) * 100) / 100;
    const existing = balances.find((entry) => entry.day === transaction.day);
    if (existing) existing.balance = balance;
    else balances.push({ day: transaction.day, balance });
    return { ...transaction, balance };
  });
  const ending = balance;
  const credits = sorted.filter((t) => t.amount > 0);
  const fees = sorted.filter((t) => t.amount < 0 && t.fee);
  const debits = sorted.filter((t) => t.amount < 0 && !t.fee);
  const sum = (list: StatementTransaction[]) => list.reduce((total, t) => total + t.amount, 0);
  const title = `Statement ${year}-${String(month).padStart(2, "0")} - account ending ${last4}`;

  if ((options.layout ?? "sections") === "ledger") {
    const first: Item[] = [
      ...BANK,
      { text: addressName, x: 36, y: 700, size: 10 },
      { text: "1842 MAPLE AVENUE", x: 36, y: 688, size: 10 },
      { text: "SPRINGFIELD IL 62704", x: 36, y: 676, size: 10 },
      {
        text: `Statement period ${MONTH_NAMES[month - 1]} 1, ${year} through ${MONTH_NAMES[month - 1]} ${end}, ${year}`,
        x: 320,
        y: 700,
        size: 9,
      },
      { text: `Account Owner: ${addressName}`, x: 320, y: 688, size: 9 },
      { text: `Everyday Checking - Account ending in ${last4}`, x: 320, y: 676, size: 9 },
      { text: "Transaction History", x: 36, y: 640, size: 11 },
      { text: "Date", x: 36, y: 624, size: 8 },
      { text: "Description", x: 90, y: 624, size: 8 },
      { text: "Amount", x: 470, y: 624, size: 8, right: true },
      { text: "Balance", x: 576, y: 624, size: 8, right: true },
    ];
    const rows: Row[] = [
      [
        { text: mmdd(month, 1), x: 36, y: 0, size: 9 },
        { text: "Beginning Balance", x: 90, y: 0, size: 9 },
        { text: money(options.beginningBalance), x: 576, y: 0, size: 9, right: true },
      ],
      ...withBalance.map(
        (t): Row => [
          { text: mmdd(month, t.day), x: 36, y: 0, size: 9 },
          { text: t.description, x: 90, y: 0, size: 9 },
          { text: `${t.amount < 0 ? "-" : ""}${money(t.amount)}`, x: 470, y: 0, size: 9, right: true },
          { text: `${t.balance < 0 ? "-" : ""}${money(t.balance)}`, x: 576, y: 0, size: 9, right: true },
        ],
      ),
      [
        { text: mmdd(month, end), x: 36, y: 0, size: 9 },
        { text: "Ending Balance", x: 90, y: 0, size: 9 },
        { text: money(ending), x: 576, y: 0, size: 9, right: true },
      ],
      [],
      ...DISCLOSURE.map((text): Row => [{ text, x: 36, y: 0, size: 7 }]),
    ];
    return layoutStatement(title, first, 608, rows, () => [
      { text: `${addressName}   |   Account ending in ${last4}`, x: 36, y: 750, size: 8 },
    ]);
  }

  const first: Item[] = [
    ...BANK,
    { text: addressName, x: 36, y: 700, size: 10 },
    { text: "1842 MAPLE AVENUE", x: 36, y: 688, size: 10 },
    { text: "SPRINGFIELD IL 62704", x: 36, y: 676, size: 10 },
    {
      text: `Statement Period: ${mmdd(month, 1)}/${year} - ${mmdd(month, end)}/${year}`,
      x: 330,
      y: 700,
      size: 9,
    },
    { text: `Account Holder: ${holder}`, x: 330, y: 688, size: 9 },
    { text: `Account Number: ****${last4}`, x: 330, y: 676, size: 9 },
    { text: "Account Type: Everyday Checking", x: 330, y: 664, size: 9 },
    { text: "Account Summary", x: 36, y: 630, size: 11 },
  ];
  const summary: Array<[string, string]> = [
    ["Beginning Balance", `$${money(options.beginningBalance)}`],
    ["Deposits and Other Credits", `+$${money(sum(credits))}`],
    ["Withdrawals and Other Debits", `-$${money(sum(debits))}`],
    ["Fees", `-$${money(sum(fees))}`],
    ["Ending Balance", `$${money(ending)}`],
  ];
  summary.forEach(([label, value], index) => {
    first.push(
      { text: label, x: 36, y: 614 - index * 13, size: 9 },
      { text: value, x: 300, y: 614 - index * 13, size: 9, right: true },
    );
  });
  const transactionRows = (list: StatementTransaction[]): Row[] =>
    list.map((t) => [
      { text: mmdd(month, t.day), x: 36, y: 0, size: 9 },
      { text: t.description, x: 90, y: 0, size: 9 },
      { text: money(t.amount), x: 576, y: 0, size: 9, right: true },
    ]);
  const heading = (text: string): Row => [{ text, x: 36, y: 0, size: 11 }];
  const columns: Row = [
    { text: "Date", x: 36, y: 0, size: 8 },
    { text: "Description", x: 90, y: 0, size: 8 },
    { text: "Amount", x: 576, y: 0, size: 8, right: true },
  ];
  const total = (label: string, value: number): Row => [
    { text: label, x: 90, y: 0, size: 9 },
    { text: `$${money(value)}`, x: 576, y: 0, size: 9, right: true },
  ];
  const balanceRows: Row[] = [];
  for (let index = 0; index < balances.length; index += 3) {
    balanceRows.push(
      balances.slice(index, index + 3).flatMap((entry, column): Item[] => [
        { text: mmdd(month, entry.day), x: 36 + column * 180, y: 0, size: 9 },
        { text: money(entry.balance), x: 170 + column * 180, y: 0, size: 9, right: true },
      ]),
    );
  }
  const feesThisPeriod = -sum(fees);
  const rows: Row[] = [
    heading("Deposits and Other Credits"),
    columns,
    ...transactionRows(credits),
    total("Total Deposits and Other Credits", sum(credits)),
    [],
    heading("Withdrawals and Other Debits"),
    columns,
    ...transactionRows(debits),
    total("Total Withdrawals and Other Debits", -sum(debits)),
    [],
    ...(fees.length > 0
      ? [heading("Fees"), columns, ...transactionRows(fees), total("Total Fees", feesThisPeriod), [] as Row]
      : []),
    heading("Daily Ending Balance"),
    ...balanceRows,
    [],
    heading("Overdraft and Returned Item Fees"),
    [
      { text: "Total for this period", x: 330, y: 0, size: 8 },
      { text: "Total year-to-date", x: 470, y: 0, size: 8 },
    ],
    [
      { text: "Total Overdraft Fees", x: 36, y: 0, size: 9 },
      { text: "$0.00", x: 400, y: 0, size: 9, right: true },
      { text: "$0.00", x: 540, y: 0, size: 9, right: true },
    ],
    [
      { text: "Total Returned Item Fees", x: 36, y: 0, size: 9 },
      { text: "$0.00", x: 400, y: 0, size: 9, right: true },
      { text: "$0.00", x: 540, y: 0, size: 9, right: true },
    ],
    [],
    ...DISCLOSURE.map((text): Row => [{ text, x: 36, y: 0, size: 7 }]),
  ];
  return layoutStatement(title, first, 540, rows, () => [
    { text: `${holder}   |   Account ****${last4}`, x: 36, y: 750, size: 8 },
    {
      text: `Statement Period: ${mmdd(month, 1)}/${year} - ${mmdd(month, end)}/${year}`,
      x: 576,
      y: 750,
      size: 8,
      right: true,
    },
  ]);
}

// ---------------------------------------------------------------- free-form text PDFs (tests)

/** A line of text at the left margin, or columns given as [x, text]. */
export type SimpleLine = string | Array<[number, string]>;

/** A plain text PDF, one array of lines per page, for layout variations in tests. */
export async function buildTextPdf(pages: SimpleLine[][], title = "Text document"): Promise<Uint8Array> {
  const { pdf, font } = await newDocument(title);
  for (const lines of pages) {
    const page = pdf.addPage(LETTER);
    const items: Item[] = [];
    lines.forEach((line, index) => {
      const y = 740 - index * 14;
      if (typeof line === "string") items.push({ text: line, x: 50, y, size: 9 });
      else for (const [x, text] of line) items.push({ text, x, y, size: 9 });
    });
    drawItems(page, font, items);
  }
  return save(pdf);
}

/** An image-only page, like a scan without OCR: drawn shapes, no text layer. */
export async function buildScannedPdf(): Promise<Uint8Array> {
  const { pdf } = await newDocument("Scanned document");
  const page = pdf.addPage(LETTER);
  page.drawRectangle({
    x: 36,
    y: 36,
    width: 540,
    height: 720,
    borderColor: rgb(0.2, 0.2, 0.2),
    borderWidth: 1,
  });
  for (let row = 0; row < 30; row++) {
    const width = 200 + ((row * 97) % 300);
    page.drawRectangle({ x: 60, y: 720 - row * 22, width, height: 6, color: rgb(0.55, 0.55, 0.55) });
  }
  return save(pdf);
}

// ---------------------------------------------------------------- the sample set

const PAYROLL = "Payroll Direct Deposit - ACME WIDGETS INC";

function january(): StatementTransaction[] {
  return [
    { day: 2, description: "Online Payment - Springfield Properties Rent", amount: -1850 },
    { day: 6, description: "City Utilities Autopay", amount: -142.37 },
    { day: 9, description: "Debit Card Purchase - Hy-Vee #1123", amount: -186.54 },
    { day: 10, description: PAYROLL, amount: 3650 },
    { day: 13, description: "Zelle Payment to M Smith", amount: -75 },
    { day: 15, description: "Mobile Check Deposit", amount: 425 },
    { day: 17, description: "Capital One Card Payment", amount: -600 },
    { day: 21, description: "State Farm Insurance", amount: -118.2 },
    { day: 24, description: PAYROLL, amount: 3650 },
    { day: 27, description: "Debit Card Purchase - Shell Oil 5521", amount: -52.18 },
    { day: 29, description: "ATM Withdrawal - 5th & Main", amount: -200 },
    // A busy month: enough card purchases that the statement runs onto a second page.
    ...[3, 4, 7, 8, 11, 14, 16, 18, 20, 22, 23, 25, 28, 30, 31].map((day, index) => ({
      day,
      description: `Debit Card Purchase - ${["Casey's #2210", "Target T-1874", "Walgreens #07711", "Amazon Mktp US", "Panera Bread #601"][index % 5]}`,
      amount: -Math.round((12.35 + ((index * 37.77) % 88)) * 100) / 100,
    })),
  ];
}

function february(): StatementTransaction[] {
  return [
    { day: 3, description: "Online Payment - Springfield Properties Rent", amount: -1850 },
    { day: 5, description: "City Utilities Autopay", amount: -151.06 },
    { day: 7, description: PAYROLL, amount: 3650 },
    { day: 11, description: "Debit Card Purchase - Hy-Vee #1123", amount: -203.17 },
    { day: 14, description: "Capital One Card Payment", amount: -600 },
    { day: 18, description: "Deposit - IRS TREAS 310 Tax Refund", amount: 1215 },
    { day: 21, description: PAYROLL, amount: 3650 },
    { day: 21, description: "State Farm Insurance", amount: -118.2 },
    { day: 26, description: "Debit Card Purchase - Shell Oil 5521", amount: -47.9 },
  ];
}

const JANUARY_OPENING = 5230.18;

function balanceAfter(opening: number, transactions: StatementTransaction[]): number {
  return Math.round(transactions.reduce((total, t) => total + t.amount, opening) * 100) / 100;
}

export async function generateSampleDocuments(): Promise<SampleDocument[]> {
  const februaryOpening = balanceAfter(JANUARY_OPENING, january());
  const marchOpening = balanceAfter(februaryOpening, february());
  return [
    {
      key: "rm-conditions/1120-signed.pdf",
      bytes: await buildForm1120({ signed: true }),
      description:
        "Form 1120 for 2024, Acme Widgets, Inc., EIN 12-3456789, signed by Robert J. Tanner (President) on 03/10/2025, with Schedules J/K and Schedule L (3 pages)",
    },
    {
      key: "rm-conditions/1120-unsigned.pdf",
      bytes: await buildForm1120({ signed: false }),
      description:
        "The same Form 1120 with the officer's signature and date left blank (the preparer did sign)",
    },
    {
      key: "rm-conditions/statement-2025-01.pdf",
      bytes: await buildBankStatement({
        year: 2025,
        month: 1,
        beginningBalance: JANUARY_OPENING,
        transactions: january(),
      }),
      description:
        "January 2025 statement, First Prairie Bank, Jane Q. Doe, account ****4821, two payroll deposits",
    },
    {
      key: "rm-conditions/statement-2025-02.pdf",
      bytes: await buildBankStatement({
        year: 2025,
        month: 2,
        beginningBalance: februaryOpening,
        transactions: february(),
      }),
      description: "February 2025 statement, same account and holder, payroll and a tax-refund deposit",
    },
    {
      key: "rm-conditions/statement-2025-03-nsf.pdf",
      bytes: await buildBankStatement({
        year: 2025,
        month: 3,
        layout: "ledger",
        beginningBalance: 1204.55,
        transactions: [
          { day: 3, description: "Debit Card Purchase - Hy-Vee #1123", amount: -212.4 },
          { day: 7, description: PAYROLL, amount: 3650 },
          { day: 10, description: "Online Payment - Springfield Properties Rent", amount: -1850 },
          { day: 12, description: "Transfer to Savings ****9932", amount: -2700 },
          { day: 14, description: "Check #1042", amount: -92.15 },
          { day: 17, description: "NSF Fee - Returned Check #1043", amount: -35, fee: true },
          { day: 21, description: PAYROLL, amount: 3650 },
          { day: 28, description: "City Utilities Autopay", amount: -139.82 },
        ],
      }),
      description:
        "March 2025 statement in the bank's ledger layout (signed amounts, running balance), with an NSF fee on 03/17",
    },
    {
      key: "rm-conditions/statement-2025-03-large-deposit.pdf",
      bytes: await buildBankStatement({
        year: 2025,
        month: 3,
        beginningBalance: marchOpening,
        transactions: [
          { day: 3, description: "Online Payment - Springfield Properties Rent", amount: -1850 },
          { day: 7, description: PAYROLL, amount: 3650 },
          { day: 12, description: "Incoming Wire Transfer - From ROBERT DOE", amount: 12500 },
          { day: 17, description: "Capital One Card Payment", amount: -600 },
          { day: 21, description: PAYROLL, amount: 3650 },
          { day: 25, description: "City Utilities Autopay", amount: -139.82 },
        ],
      }),
      description:
        "March 2025 statement with a $12,500.00 wire deposit on 03/12 (over 50% of $8,000 monthly income)",
    },
    {
      key: "rm-conditions/statement-2025-02-other-name.pdf",
      bytes: await buildBankStatement({
        year: 2025,
        month: 2,
        holder: "John R. Smith",
        beginningBalance: februaryOpening,
        transactions: february(),
      }),
      description: "February 2025 statement whose account holder is John R. Smith (name mismatch)",
    },
    {
      key: "rm-conditions/scanned.pdf",
      bytes: await buildScannedPdf(),
      description: "A scanned page: drawn shapes only, no text layer",
    },
  ];
}
