// Sample loan files for demos and tests, generated rather than committed as binaries. They are
// laid out like the real documents (IRS Form 1120 page 1 + Schedule L, a retail bank's monthly
// statements) so the engines are exercised on labels, columns and traps the real ones have: the
// paid preparer's own date and EIN under the officer's signature, "$0.00" overdraft-fee
// summaries, daily-balance rows that look like transactions.

import { rgb } from "pdf-lib";
import { drawItems, type Item, LETTER, newDocument, save } from "./pdf-drawing.ts";
import { buildBankStatement, type StatementTransaction } from "./sample-bank-statement.ts";
import { buildForm1120 } from "./sample-form-1120.ts";

export { drawItems, type Item, LETTER, newDocument, save } from "./pdf-drawing.ts";
export {
  buildBankStatement,
  MONTH_NAMES,
  type StatementOptions,
  type StatementTransaction,
} from "./sample-bank-statement.ts";
export { buildForm1120, type Form1120Options } from "./sample-form-1120.ts";

export interface SampleDocument {
  key: string;
  bytes: Uint8Array;
  description: string;
}

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
