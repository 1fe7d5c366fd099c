// The sample bank statements: one month of an account, its transactions, running balances and the
// bank's disclosure.
import { drawItems, type Item, LETTER, money, newDocument, save } from "./pdf-drawing.ts";

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
