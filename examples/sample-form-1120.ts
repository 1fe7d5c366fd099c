// The sample corporate tax return: a Form 1120 (or 1120-S) with the lines the loan conditions read.
import { drawItems, type Item, LETTER, newDocument, save } from "./pdf-drawing.ts";

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
