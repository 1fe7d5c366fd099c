// Bank statements in six layouts of our own design, none of them the sample bank's
// (`buildBankStatement`), each modelled on a kind of US statement the engine meets in loan files:
// a national retail bank, a credit union with sub-accounts, an online bank, a community bank, a
// business account and a bank with overdraft protection. Each layout carries the traps real
// statements have: fee schedules and disclosures that name NSF fees with amounts, "$0.00" fee
// totals and year-to-date tables, daily-balance tables, interest lines, check tables and images,
// promotional text with amounts, linked accounts, waived and refunded fees, large withdrawals.
//
// `bankStatementCases()` turns them into labelled loan files: every BS_ condition fulfilled and
// not fulfilled on every layout. The labels come from how each file is generated (which months,
// whose name, which account, which fee, which deposit), never from running the engine.
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

// ---------------------------------------------------------------- what a statement holds

interface Day {
  y: number;
  m: number;
  d: number;
}

interface Person {
  first: string;
  middle?: string;
  last: string;
}

type EntryKind =
  | "payroll"
  | "deposit"
  | "interest"
  | "large_deposit"
  | "bill"
  | "card"
  | "atm"
  | "check"
  | "transfer_out"
  | "loan_payment"
  | "nsf_fee"
  | "service_fee"
  /** A fee charged and credited back in the same statement: not a fee the borrower paid. */
  | "fee_charged_back"
  | "fee_refund"
  | "od_protection"
  /** A fee line that reads $0.00 (waived before it was charged). */
  | "fee_waived_zero";

interface Entry {
  date: Day;
  kind: EntryKind;
  /** This bank's wording of the line. */
  description: string;
  /** Signed: positive credits the account, negative debits it. */
  amount: number;
  check?: number;
}

interface StatementSpec {
  start: Day;
  end: Day;
  owner: Person;
  jointOwner?: Person;
  last4: string;
  opening: number;
  entries: Entry[];
  /** NSF/overdraft/returned-item fees charged in earlier statements of the same year (year-to-date tables). */
  feesEarlierThisYear: number;
}

interface Layout {
  name: string;
  bank: string;
  /** The statement periods this bank uses, oldest first: index 0, 1, 2. */
  periods: Array<{ start: Day; end: Day }>;
  /** The joint owner printed with the borrower, for layouts of joint accounts. */
  jointOwner?: Person;
  /** Lines that look like NSF fees and are not (waived, refunded, protection transfers). */
  traps: (start: Day) => Entry[];
  /** The NSF/overdraft fee in this bank's wording. */
  fee: (start: Day) => Entry;
  largeDeposit: (start: Day) => Entry;
  /** Rewords the generic activity the way this bank prints it. */
  reword: (entry: Entry) => Entry;
  render: (spec: StatementSpec) => Promise<Uint8Array>;
}

const BORROWER: Person = { first: "Jane", middle: "Q", last: "Doe" };
const CO_OWNER: Person = { first: "John", middle: "A", last: "Doe" };
const STRANGER: Person = { first: "Michael", middle: "T", last: "Reyes" };
const STRANGER_CO_OWNER: Person = { first: "Ana", last: "Reyes" };
const BORROWER_ACCOUNT = "4821";
const OTHER_ACCOUNT = "9034";
const MONTHLY_INCOME = 8000;

// ---------------------------------------------------------------- dates, names, amounts

function dayNumber(day: Day): number {
  return Date.UTC(day.y, day.m - 1, day.d) / 86_400_000;
}

function addDays(day: Day, days: number): Day {
  const moved = new Date((dayNumber(day) + days) * 86_400_000);
  return { y: moved.getUTCFullYear(), m: moved.getUTCMonth() + 1, d: moved.getUTCDate() };
}

function lastDay(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function calendarMonth(y: number, m: number): { start: Day; end: Day } {
  return { start: { y, m, d: 1 }, end: { y, m, d: lastDay(y, m) } };
}

const pad = (value: number) => String(value).padStart(2, "0");
/** 01/31 */
const mmdd = (day: Day) => `${pad(day.m)}/${pad(day.d)}`;
/** 01/31/26 */
const mmddyy = (day: Day) => `${mmdd(day)}/${pad(day.y % 100)}`;
/** 2026-01-31 */
const iso = (day: Day) => `${day.y}-${pad(day.m)}-${pad(day.d)}`;
/** Jan 3 */
const monDay = (day: Day) => `${MONTH_NAMES[day.m - 1]?.slice(0, 3)} ${day.d}`;
/** January 3 */
const monthDay = (day: Day) => `${MONTH_NAMES[day.m - 1]} ${day.d}`;

/** JANE Q DOE */
const upperName = (person: Person) =>
  [person.first, person.middle, person.last].filter(Boolean).join(" ").toUpperCase();
/** DOE, JANE Q */
const lastFirst = (person: Person) =>
  `${person.last}, ${person.first}${person.middle ? ` ${person.middle}` : ""}`.toUpperCase();
/** Jane Q. Doe */
const properName = (person: Person) =>
  `${person.first}${person.middle ? ` ${person.middle}.` : ""} ${person.last}`;

const cents = (value: number) => Math.round(value * 100) / 100;

/** 1,850.00 (no sign) */
function plain(value: number): string {
  return Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

const dollars = (value: number) => `$${plain(value)}`;

interface Posted extends Entry {
  balance: number;
}

function post(spec: StatementSpec): { posted: Posted[]; closing: number } {
  let balance = spec.opening;
  const posted = [...spec.entries]
    .sort((p, q) => dayNumber(p.date) - dayNumber(q.date))
    .map((entry) => {
      balance = cents(balance + entry.amount);
      return { ...entry, balance };
    });
  return { posted, closing: balance };
}

/** The end-of-day balance of each day with activity. */
function dailyBalances(posted: Posted[]): Array<{ date: Day; balance: number }> {
  const result: Array<{ date: Day; balance: number }> = [];
  for (const entry of posted) {
    const last = result[result.length - 1];
    if (last && dayNumber(last.date) === dayNumber(entry.date)) last.balance = entry.balance;
    else result.push({ date: entry.date, balance: entry.balance });
  }
  return result;
}

const isCredit = (entry: Entry) => entry.amount > 0;
const sum = (entries: Entry[]) => cents(entries.reduce((total, entry) => total + entry.amount, 0));
const NSF_KINDS: ReadonlySet<EntryKind> = new Set(["nsf_fee"]);
/** NSF/overdraft/returned-item fees kept (not refunded) in a statement. */
const nsfFees = (entries: Entry[]) =>
  cents(-entries.filter((entry) => NSF_KINDS.has(entry.kind)).reduce((t, e) => t + e.amount, 0));

// ---------------------------------------------------------------- page flow

type Row = Item[] | "page-break";

/**
 * Lays rows top-down from `top` on page 1 (and from y 720 on the next pages), breaking pages when
 * a page is full or a row asks for it; every page gets the bank's running header and a footer.
 */
async function flow(options: {
  title: string;
  first: Item[];
  top: number;
  rows: Row[];
  header: (page: number, pages: number) => Item[];
  footer?: (page: number, pages: number) => Item[];
}): Promise<Uint8Array> {
  const pages: Item[][] = [];
  let current: Item[] = [...options.first];
  let y = options.top;
  for (const row of options.rows) {
    if (row === "page-break" || y < 64) {
      pages.push(current);
      current = [];
      y = 712;
      if (row === "page-break") continue;
    }
    for (const item of row) current.push({ ...item, y });
    y -= row.length === 0 ? 6 : 12;
  }
  pages.push(current);
  const { pdf, font } = await newDocument(options.title);
  pages.forEach((items, index) => {
    const page = pdf.addPage(LETTER);
    const header = index === 0 ? [] : options.header(index + 1, pages.length);
    const footer = options.footer?.(index + 1, pages.length) ?? [
      { text: `Page ${index + 1} of ${pages.length}`, x: 576, y: 30, size: 7, right: true },
    ];
    drawItems(page, font, [...header, ...items, ...footer]);
  });
  return save(pdf);
}

const text = (value: string, x: number, size = 8): Item => ({ text: value, x, y: 0, size });
const right = (value: string, x: number, size = 8): Item => ({ text: value, x, y: 0, size, right: true });
const blank: Row = [];

/** Pairs of [date, balance] laid out `perRow` to a line. */
function balanceTable(
  posted: Posted[],
  format: (day: Day) => string,
  amount: (value: number) => string,
  perRow = 3,
): Row[] {
  const days = dailyBalances(posted);
  const rows: Row[] = [];
  for (let index = 0; index < days.length; index += perRow) {
    rows.push(
      days
        .slice(index, index + perRow)
        .flatMap((day, column): Item[] => [
          text(format(day.date), 36 + column * 180),
          right(amount(day.balance), 170 + column * 180),
        ]),
    );
  }
  return rows;
}

// ---------------------------------------------------------------- the month's activity

/** A month of ordinary activity, starting at the period's first day; `index` varies the amounts. */
function activity(start: Day, index: number): Entry[] {
  const on = (offset: number) => addDays(start, offset);
  return [
    { date: on(2), kind: "payroll", description: "Payroll", amount: 3650 },
    { date: on(3), kind: "bill", description: "Rent", amount: -1850 },
    { date: on(5), kind: "card", description: "Hy-Vee #1123", amount: -cents(186.54 + 7.31 * index) },
    {
      date: on(7),
      kind: "check",
      description: "Check",
      amount: -cents(235 + 10 * index),
      check: 1051 + 2 * index,
    },
    { date: on(9), kind: "card", description: "Shell Oil 5521", amount: -cents(52.18 + 3.4 * index) },
    { date: on(11), kind: "bill", description: "Card payment", amount: -600 },
    { date: on(12), kind: "atm", description: "ATM", amount: -200 },
    { date: on(13), kind: "deposit", description: "Mobile deposit", amount: cents(425 + 15 * index) },
    { date: on(16), kind: "payroll", description: "Payroll", amount: 3650 },
    // A withdrawal above the large-deposit threshold: it must not be read as a deposit.
    { date: on(18), kind: "transfer_out", description: "Transfer out", amount: -4500 },
    {
      date: on(20),
      kind: "check",
      description: "Check",
      amount: -cents(118.2 + 4 * index),
      check: 1052 + 2 * index,
    },
    { date: on(22), kind: "card", description: "Target T-1874", amount: -cents(64.9 + 2 * index) },
    { date: on(27), kind: "interest", description: "Interest", amount: cents(0.87 + 0.02 * index) },
  ];
}

// ---------------------------------------------------------------- 1. national retail bank

const KEYSTONE_WORDS: Partial<Record<EntryKind, (entry: Entry) => string>> = {
  payroll: () => "Payroll Direct Dep ACME WIDGETS INC PPD ID: 9111111101",
  deposit: () => "Remote Online Deposit 1",
  interest: () => "Interest Payment",
  bill: (entry) =>
    entry.amount === -1850
      ? "Online Payment 1187 To Springfield Properties"
      : "Capital One Card Pmt Web ID: 9279744380",
  card: (entry) =>
    `Card Purchase ${mmdd(addDays(entry.date, -1))} ${entry.description} Springfield IL Card 7731`,
  atm: (entry) => `ATM Withdrawal ${mmdd(entry.date)} 5th & Main Springfield IL Card 7731`,
  transfer_out: () => "Online Transfer To Sav ...6610 Transaction#: 4482913",
};

const keystone: Layout = {
  name: "national-retail",
  bank: "Keystone National Bank",
  periods: [calendarMonth(2026, 1), calendarMonth(2026, 2), calendarMonth(2026, 3)],
  traps: () => [],
  fee: (start) => ({
    date: addDays(start, 15),
    kind: "nsf_fee",
    description: "Insufficient Funds Fee For A $1,250.00 Item - Details: Check # 1187",
    amount: -34,
  }),
  largeDeposit: (start) => ({
    date: addDays(start, 14),
    kind: "large_deposit",
    description: "Remote Online Deposit 2",
    amount: 6200,
  }),
  reword: (entry) => ({ ...entry, description: KEYSTONE_WORDS[entry.kind]?.(entry) ?? entry.description }),
  render: async (spec) => {
    const { posted, closing } = post(spec);
    const account = `XXXXXX${spec.last4}`;
    const credits = posted.filter(isCredit);
    const checks = posted.filter((e) => e.kind === "check");
    const card = posted.filter((e) => e.kind === "card" || e.kind === "atm");
    const fees = posted.filter((e) => e.kind === "nsf_fee" || e.kind === "service_fee");
    const electronic = posted.filter(
      (e) => !isCredit(e) && !checks.includes(e) && !card.includes(e) && !fees.includes(e),
    );
    const period = nsfFees(spec.entries);
    const first: Item[] = [
      { text: "KEYSTONE NATIONAL BANK", x: 36, y: 750, size: 14 },
      { text: "P.O. Box 15284, Wilmington, DE 19850-5284", x: 36, y: 736, size: 7 },
      { text: "Statement Date", x: 400, y: 748, size: 8 },
      { text: mmddyy(spec.end), x: 576, y: 748, size: 8, right: true },
      { text: "Account Number", x: 400, y: 736, size: 8 },
      { text: account, x: 576, y: 736, size: 8, right: true },
      { text: upperName(spec.owner), x: 60, y: 700, size: 9 },
      { text: "1842 MAPLE AVE APT 3", x: 60, y: 689, size: 9 },
      { text: "SPRINGFIELD IL 62704-1120", x: 60, y: 678, size: 9 },
      { text: "CUSTOMER SERVICE INFORMATION", x: 380, y: 700, size: 8 },
      { text: "Web site: keystonebank.example", x: 380, y: 689, size: 7 },
      { text: "Service Center: 1-800-555-0142", x: 380, y: 678, size: 7 },
      { text: "Para Espanol: 1-888-555-0143", x: 380, y: 667, size: 7 },
      { text: "CHECKING SUMMARY", x: 36, y: 632, size: 10 },
      { text: "Keystone Total Checking", x: 180, y: 632, size: 9 },
      { text: "INSTANCES", x: 400, y: 618, size: 7, right: true },
      { text: "AMOUNT", x: 500, y: 618, size: 7, right: true },
    ];
    const summary: Array<[string, string, string]> = [
      [`Beginning Balance on ${mmddyy(spec.start)}`, "", dollars(spec.opening)],
      ["Deposits and Additions", String(credits.length), plain(sum(credits))],
      ["Checks Paid", String(checks.length), `-${plain(sum(checks))}`],
      ["ATM & Debit Card Withdrawals", String(card.length), `-${plain(sum(card))}`],
      ["Electronic Withdrawals", String(electronic.length), `-${plain(sum(electronic))}`],
      ["Fees", String(fees.length), fees.length > 0 ? `-${plain(sum(fees))}` : "0.00"],
      [`Ending Balance on ${mmddyy(spec.end)}`, String(posted.length), dollars(closing)],
    ];
    summary.forEach(([label, count, value], index) => {
      const y = 604 - index * 12;
      first.push({ text: label, x: 36, y, size: 8 });
      if (count) first.push({ text: count, x: 400, y, size: 8, right: true });
      first.push({ text: value, x: 500, y, size: 8, right: true });
    });
    const columns = (...names: Array<[string, number, boolean?]>): Row =>
      names.map(([name, x, alignRight]) => (alignRight ? right(name, x, 7) : text(name, x, 7)));
    const dated = (list: Posted[]): Row[] =>
      list.map((e) => [text(mmdd(e.date), 36), text(e.description, 80), right(dollars(e.amount), 576)]);
    const total = (label: string, list: Posted[]): Row => [text(label, 80), right(dollars(sum(list)), 576)];
    const rows: Row[] = [
      [text("DEPOSITS AND ADDITIONS", 36, 10)],
      columns(["DATE", 36], ["DESCRIPTION", 80], ["AMOUNT", 576, true]),
      ...dated(credits),
      total("Total Deposits and Additions", credits),
      blank,
      [text("CHECKS PAID", 36, 10)],
      columns(["CHECK NO.", 36], ["DATE PAID", 120], ["AMOUNT", 576, true]),
      ...checks.map(
        (e): Row => [text(String(e.check), 36), text(mmdd(e.date), 120), right(dollars(e.amount), 576)],
      ),
      total("Total Checks Paid", checks),
      blank,
      [text("ATM & DEBIT CARD WITHDRAWALS", 36, 10)],
      columns(["DATE", 36], ["DESCRIPTION", 80], ["AMOUNT", 576, true]),
      ...dated(card),
      total("Total ATM & Debit Card Withdrawals", card),
      blank,
      [text("ELECTRONIC WITHDRAWALS", 36, 10)],
      columns(["DATE", 36], ["DESCRIPTION", 80], ["AMOUNT", 576, true]),
      ...dated(electronic),
      total("Total Electronic Withdrawals", electronic),
      blank,
      ...(fees.length > 0
        ? [
            [text("FEES", 36, 10)] as Row,
            columns(["DATE", 36], ["DESCRIPTION", 80], ["AMOUNT", 576, true]),
            ...dated(fees),
            total("Total Fees", fees),
            blank,
          ]
        : []),
      [text("DAILY ENDING BALANCE", 36, 10)],
      columns(
        ["DATE", 36],
        ["AMOUNT", 170, true],
        ["DATE", 216],
        ["AMOUNT", 350, true],
        ["DATE", 396],
        ["AMOUNT", 530, true],
      ),
      ...balanceTable(posted, mmdd, plain),
      blank,
      [text("OVERDRAFT AND RETURNED ITEM FEES", 36, 10)],
      [right("Total for This Period", 420, 7), right("Total Year-to-Date", 540, 7)],
      [text("Total Overdraft Fees", 36), right("$0.00", 420), right("$0.00", 540)],
      [
        text("Total Returned Item Fees", 36),
        right(dollars(period), 420),
        right(dollars(period + spec.feesEarlierThisYear), 540),
      ],
      "page-break",
      [text("IMPORTANT ACCOUNT INFORMATION", 36, 10)],
      [text("Fee schedule for Keystone Total Checking, effective January 1, 2026", 36)],
      [text("Monthly Service Fee (waived with $500.00 in direct deposits)", 36), right("$12.00", 420)],
      [text("Overdraft Fee (per item, up to 3 per day)", 36), right("$34.00", 420)],
      [text("Returned Item Fee (Insufficient Funds)", 36), right("$34.00", 420)],
      [text("Stop Payment Fee", 36), right("$30.00", 420)],
      [text("Overdraft Protection Transfer Fee", 36), right("$0.00", 420)],
      blank,
      [text("Open a Keystone Savings account by 03/31/2026 and earn a $200.00 bonus. Terms apply.", 36, 7)],
      [
        text(
          "IN CASE OF ERRORS OR QUESTIONS ABOUT YOUR ELECTRONIC FUNDS TRANSFERS: Call us at 1-800-555-0142 or write to us at",
          36,
          7,
        ),
      ],
      [
        text(
          "P.O. Box 15284, Wilmington, DE 19850-5284 no later than 60 days after we sent you the first statement.",
          36,
          7,
        ),
      ],
    ];
    return flow({
      title: `Keystone National Bank statement ${iso(spec.end)}`,
      first,
      top: 500,
      rows,
      // Every page repeats the owner, the account and the statement date.
      header: (page, pages) => [
        {
          text: `${upperName(spec.owner)}  |  Account # ${account}  |  Statement Date ${mmddyy(spec.end)}`,
          x: 36,
          y: 750,
          size: 8,
        },
        { text: `Page ${page} of ${pages}`, x: 576, y: 750, size: 8, right: true },
      ],
    });
  },
};

// ---------------------------------------------------------------- 2. credit union

const HEARTLAND_WORDS: Partial<Record<EntryKind, (entry: Entry) => string>> = {
  payroll: () => "DEPOSIT ACH ACME WIDGETS INC TYPE: PAYROLL",
  deposit: () => "DEPOSIT MOBILE BRANCH",
  interest: () => "DIVIDEND EARNED",
  bill: (entry) =>
    entry.amount === -1850
      ? "WITHDRAWAL ACH SPRINGFIELD PROP TYPE: RENT"
      : "WITHDRAWAL ACH CAPITAL ONE TYPE: CRCARDPMT",
  card: (entry) => `POS WITHDRAWAL ${entry.description.toUpperCase()}`,
  atm: () => "ATM WITHDRAWAL 5TH & MAIN PEORIA IL",
  transfer_out: () => "WITHDRAWAL ACH FIDELITY INVESTMENTS TYPE: MONEYLINE",
  check: (entry) => `SHARE DRAFT #${entry.check}`,
  loan_payment: () => "WITHDRAWAL TRANSFER TO LOAN 50",
};

const heartland: Layout = {
  name: "credit-union",
  bank: "Heartland Community Credit Union",
  // Mid-month cycles: the latest crosses the year end (Dec 15 - Jan 14).
  periods: [
    { start: { y: 2025, m: 10, d: 15 }, end: { y: 2025, m: 11, d: 14 } },
    { start: { y: 2025, m: 11, d: 15 }, end: { y: 2025, m: 12, d: 14 } },
    { start: { y: 2025, m: 12, d: 15 }, end: { y: 2026, m: 1, d: 14 } },
  ],
  traps: (start) => [
    { date: addDays(start, 25), kind: "loan_payment", description: "Loan payment", amount: -385 },
  ],
  fee: (start) => ({
    date: addDays(start, 15),
    kind: "nsf_fee",
    description: "NSF CHARGE ACH VERIZON WIRELESS",
    amount: -30,
  }),
  largeDeposit: (start) => ({
    date: addDays(start, 14),
    kind: "large_deposit",
    description: "SHARED BRANCH DEPOSIT CASH",
    amount: 5500,
  }),
  reword: (entry) => ({ ...entry, description: HEARTLAND_WORDS[entry.kind]?.(entry) ?? entry.description }),
  render: async (spec) => {
    const { posted, closing } = post(spec);
    const member = `XXXXX${spec.last4}`;
    const periodText = `${mmddyy(spec.start)} to ${mmddyy(spec.end)}`;
    const savingsOpening = 1250;
    const dividend = 0.26;
    const loanOpening = 12175.39;
    const loanPayment = posted.find((e) => e.kind === "loan_payment");
    const loanInterest = 53.73;
    const loanClosing = loanPayment ? cents(loanOpening - (385 - loanInterest)) : loanOpening;
    const credits = posted.filter(isCredit);
    const debits = posted.filter((e) => !isCredit(e));
    const fees = nsfFees(spec.entries);
    const first: Item[] = [
      { text: "HEARTLAND COMMUNITY CREDIT UNION", x: 36, y: 750, size: 13 },
      {
        text: "3301 W Jefferson St, Peoria, IL 61604  |  (309) 555-0188  |  heartlandccu.example",
        x: 36,
        y: 737,
        size: 7,
      },
      { text: "Federally insured by NCUA", x: 576, y: 750, size: 7, right: true },
      { text: lastFirst(spec.owner), x: 60, y: 700, size: 9 },
      { text: "1842 MAPLE AVE", x: 60, y: 689, size: 9 },
      { text: "PEORIA IL 61602-3318", x: 60, y: 678, size: 9 },
      { text: "STATEMENT OF ACCOUNT", x: 380, y: 712, size: 10 },
      { text: `Statement Period: ${periodText}`, x: 380, y: 700, size: 8 },
      { text: `Member Number: ${member}`, x: 380, y: 689, size: 8 },
      { text: "ACCOUNT SUMMARY", x: 36, y: 646, size: 10 },
      { text: "Account", x: 36, y: 632, size: 7 },
      { text: "Previous Balance", x: 300, y: 632, size: 7, right: true },
      { text: "Deposits", x: 380, y: 632, size: 7, right: true },
      { text: "Withdrawals", x: 460, y: 632, size: 7, right: true },
      { text: "New Balance", x: 560, y: 632, size: 7, right: true },
    ];
    const summary: Array<[string, number, number, number, number]> = [
      ["Share Savings (00)", savingsOpening, dividend, 0, savingsOpening + dividend],
      ["Share Draft Checking (10)", spec.opening, sum(credits), -sum(debits), closing],
      ["Auto Loan (50)", loanOpening, loanPayment ? 385 : 0, 0, loanClosing],
    ];
    summary.forEach(([label, ...values], index) => {
      const y = 620 - index * 11;
      first.push({ text: label, x: 36, y, size: 8 });
      [300, 380, 460, 560].forEach((x, column) => {
        first.push({ text: plain(values[column] ?? 0), x, y, size: 8, right: true });
      });
    });
    const header: Row = [
      text("Date", 36, 7),
      text("Transaction Description", 80, 7),
      right("Withdrawals", 400, 7),
      right("Deposits", 470, 7),
      right("Balance", 560, 7),
    ];
    const row = (date: Day, description: string, amount: number | null, balance: number): Row => [
      text(mmdd(date), 36),
      text(description, 80),
      ...(amount === null ? [] : [right(plain(amount), amount < 0 ? 400 : 470)]),
      right(plain(balance), 560),
    ];
    const rows: Row[] = [
      [text("SHARE SAVINGS (ID 00)", 36, 10)],
      header,
      row(spec.start, "Beginning Balance", null, savingsOpening),
      row(spec.end, "DIVIDEND EARNED", dividend, savingsOpening + dividend),
      row(spec.end, "Ending Balance", null, savingsOpening + dividend),
      [text("Dividend Rate 0.25%   Annual Percentage Yield Earned 0.25%   YTD Dividends $3.12", 80, 7)],
      blank,
      [text("SHARE DRAFT CHECKING (ID 10)", 36, 10)],
      header,
      row(spec.start, "Beginning Balance", null, spec.opening),
      ...posted.map((e) => row(e.date, e.description, e.amount, e.balance)),
      row(spec.end, "Ending Balance", null, closing),
      blank,
      [text("AUTO LOAN (ID 50)", 36, 10)],
      [
        text("Date", 36, 7),
        text("Description", 80, 7),
        right("Amount", 330, 7),
        right("Principal", 400, 7),
        right("Interest", 470, 7),
        right("Balance", 560, 7),
      ],
      [text("Previous Balance", 80), right(plain(loanOpening), 560)],
      ...(loanPayment
        ? [
            [
              text(mmdd(loanPayment.date), 36),
              text("PAYMENT TRANSFER FROM SHARE 10", 80),
              right(plain(385), 330),
              right(plain(385 - loanInterest), 400),
              right(plain(loanInterest), 470),
              right(plain(loanClosing), 560),
            ] as Row,
          ]
        : []),
      [text(`Payoff amount as of ${mmddyy(spec.end)}`, 80), right(plain(cents(loanClosing + 17.02)), 560)],
      [
        text(
          `Annual Percentage Rate 5.49%   Next Payment Due ${mmddyy(addDays(spec.end, 27))}   Payment Amount $385.00`,
          80,
          7,
        ),
      ],
      blank,
      [text("FEE SUMMARY", 36, 10)],
      [right("Total This Period", 420, 7), right("Total Year-to-Date", 540, 7)],
      [text("Total Overdraft Fees", 36), right("$0.00", 420), right("$0.00", 540)],
      [
        text("Total Returned Item Fees", 36),
        right(dollars(fees), 420),
        right(dollars(fees + spec.feesEarlierThisYear), 540),
      ],
      [text(`Total fees this period: ${dollars(fees)}`, 36)],
      blank,
      [
        text(
          "Courtesy Pay may cover items up to $500.00 when your balance is short; an NSF fee of $30.00 applies to each item paid or returned.",
          36,
          7,
        ),
      ],
    ];
    return flow({
      title: `Heartland CCU statement ${iso(spec.end)}`,
      first,
      top: 572,
      rows,
      header: (page, pages) => [
        { text: `Member Number: ${member}   Statement Period: ${periodText}`, x: 36, y: 750, size: 8 },
        { text: `Page ${page} of ${pages}`, x: 576, y: 750, size: 8, right: true },
      ],
    });
  },
};

// ---------------------------------------------------------------- 3. online bank

const NORTHWIND_WORDS: Partial<Record<EntryKind, (entry: Entry) => string>> = {
  payroll: () => "Payroll ACME WIDGETS INC",
  deposit: () => "Mobile check deposit",
  interest: () => "Interest paid",
  bill: (entry) => (entry.amount === -1850 ? "Rent - Springfield Properties" : "Capital One autopay"),
  card: (entry) => `Debit card: ${entry.description}`,
  atm: () => "ATM withdrawal - 5th & Main",
  transfer_out: () => "Transfer to Brokerage ...8812",
  check: (entry) => `Check #${entry.check} (mobile)`,
};

const northwind: Layout = {
  name: "online-bank",
  bank: "Northwind Direct",
  periods: [calendarMonth(2026, 1), calendarMonth(2026, 2), calendarMonth(2026, 3)],
  traps: (start) => [
    {
      date: addDays(start, 19),
      kind: "fee_waived_zero",
      description: "Overdraft fee waived - Overdraft Cushion",
      amount: 0,
    },
  ],
  fee: (start) => ({
    date: addDays(start, 15),
    kind: "nsf_fee",
    description: "Returned Item Charge - ACH VERIZON WIRELESS",
    amount: -25,
  }),
  largeDeposit: (start) => ({
    date: addDays(start, 14),
    kind: "large_deposit",
    description: "Transfer from JOHN DOE via Zelle",
    amount: 6000,
  }),
  reword: (entry) => ({ ...entry, description: NORTHWIND_WORDS[entry.kind]?.(entry) ?? entry.description }),
  render: async (spec) => {
    const { posted, closing } = post(spec);
    const credits = posted.filter(isCredit);
    const debits = posted.filter((e) => e.amount < 0);
    const account = `Everyday Checking, Acct # ...${spec.last4}`;
    const periodText = `${iso(spec.start)} to ${iso(spec.end)}`;
    const signed = (value: number) => `${value > 0 ? "+" : value < 0 ? "-" : ""}${plain(value)}`;
    const first: Item[] = [
      { text: "northwind direct", x: 36, y: 748, size: 16 },
      { text: "Checking statement", x: 36, y: 730, size: 10 },
      { text: "help@northwind.example  ·  1-855-555-0110", x: 576, y: 748, size: 7, right: true },
      { text: "Account holder", x: 36, y: 704, size: 7 },
      { text: "Account", x: 200, y: 704, size: 7 },
      { text: "Statement period", x: 400, y: 704, size: 7 },
      { text: properName(spec.owner), x: 36, y: 692, size: 9 },
      { text: account, x: 200, y: 692, size: 9 },
      { text: periodText, x: 400, y: 692, size: 9 },
      { text: "1842 Maple Ave Apt 3, Springfield, IL 62704", x: 36, y: 680, size: 8 },
      { text: "Starting balance", x: 36, y: 650, size: 7 },
      { text: "Money in", x: 170, y: 650, size: 7 },
      { text: "Money out", x: 300, y: 650, size: 7 },
      { text: "Ending balance", x: 430, y: 650, size: 7 },
      { text: dollars(spec.opening), x: 36, y: 638, size: 10 },
      { text: `+${dollars(sum(credits))}`, x: 170, y: 638, size: 10 },
      { text: `-${dollars(sum(debits))}`, x: 300, y: 638, size: 10 },
      { text: dollars(closing), x: 430, y: 638, size: 10 },
      {
        text: "You've avoided $70.00 in overdraft fees this year with Overdraft Cushion.",
        x: 36,
        y: 614,
        size: 8,
      },
    ];
    const rows: Row[] = [
      [text("Transactions", 36, 11)],
      [text("Date", 36, 7), text("Description", 110, 7), right("Amount", 480, 7), right("Balance", 570, 7)],
      [text(iso(spec.start), 36), text("Starting balance", 110), right(plain(spec.opening), 570)],
      ...posted.map(
        (e): Row => [
          text(iso(e.date), 36),
          text(e.description, 110),
          right(signed(e.amount), 480),
          right(plain(e.balance), 570),
        ],
      ),
      [text(iso(spec.end), 36), text("Ending balance", 110), right(plain(closing), 570)],
      blank,
      [
        text("Interest earned this month", 36),
        right(`+${dollars(sum(posted.filter((e) => e.kind === "interest")))}`, 300),
      ],
      [text("Annual percentage yield earned 0.50%", 36, 7)],
      [
        text(
          "Refer a friend and you both get $50.00 when they set up direct deposit of $1,000.00 or more.",
          36,
          7,
        ),
      ],
    ];
    return flow({
      title: `Northwind Direct statement ${iso(spec.end)}`,
      first,
      top: 590,
      rows,
      header: () => [
        {
          text: `${properName(spec.owner)}  ·  Acct # ...${spec.last4}  ·  ${periodText}`,
          x: 36,
          y: 750,
          size: 8,
        },
      ],
    });
  },
};

// ---------------------------------------------------------------- 4. community bank

const PRAIRIE_WORDS: Partial<Record<EntryKind, (entry: Entry) => string>> = {
  payroll: () => "PAYROLL ACME WIDGETS INC",
  deposit: () => "DEPOSIT",
  interest: () => "INTEREST PAID",
  bill: (entry) =>
    entry.amount === -1850 ? "ACH SPRINGFIELD PROPERTIES RENT" : "ACH CAPITAL ONE ONLINE PMT",
  card: (entry) => `POS DEBIT ${entry.description.toUpperCase()}`,
  atm: () => "ATM W/D 5TH & MAIN",
  transfer_out: () => "TRANSFER TO SAVINGS XXXXXX6610",
  check: (entry) => `CHECK ${entry.check}`,
};

const prairie: Layout = {
  name: "community-bank",
  bank: "Prairie State Bank & Trust",
  periods: [calendarMonth(2026, 1), calendarMonth(2026, 2), calendarMonth(2026, 3)],
  jointOwner: CO_OWNER,
  traps: (start) => [
    { date: addDays(start, 13), kind: "fee_charged_back", description: "NSF FEE", amount: -35 },
    { date: addDays(start, 14), kind: "fee_refund", description: "NSF FEE WAIVED", amount: 35 },
  ],
  fee: (start) => ({ date: addDays(start, 15), kind: "nsf_fee", description: "OD FEE", amount: -35 }),
  largeDeposit: (start) => ({
    date: addDays(start, 14),
    kind: "large_deposit",
    description: "BRANCH DEPOSIT",
    amount: 5200,
  }),
  reword: (entry) => ({ ...entry, description: PRAIRIE_WORDS[entry.kind]?.(entry) ?? entry.description }),
  render: async (spec) => {
    const { posted, closing } = post(spec);
    const credits = posted.filter(isCredit);
    const debits = posted.filter((e) => e.amount < 0);
    const owners = [spec.owner, spec.jointOwner]
      .filter((p): p is Person => p !== undefined)
      .map(upperName)
      .join(" OR ");
    const periodText = `${monthDay(spec.start)} - ${monthDay(spec.end)}, ${spec.end.y}`;
    const crdr = (value: number) => `${plain(value)} ${value < 0 ? "DR" : "CR"}`;
    const fees = nsfFees(spec.entries);
    const first: Item[] = [
      { text: "PRAIRIE STATE BANK & TRUST", x: 36, y: 750, size: 14 },
      {
        text: "MEMBER FDIC  ·  PO BOX 209, CARLINVILLE, IL 62626  ·  (217) 555-0107",
        x: 36,
        y: 737,
        size: 7,
      },
      { text: owners, x: 60, y: 700, size: 9 },
      { text: "418 N OAK ST", x: 60, y: 689, size: 9 },
      { text: "CARLINVILLE IL 62626-1408", x: 60, y: 678, size: 9 },
      { text: `ACCOUNT NO. ******${spec.last4}`, x: 380, y: 712, size: 8 },
      { text: `STATEMENT PERIOD: ${periodText}`, x: 380, y: 700, size: 8 },
      { text: "REGULAR CHECKING", x: 36, y: 640, size: 10 },
    ];
    const summary: Array<[string, string]> = [
      ["PREVIOUS BALANCE", plain(spec.opening)],
      [`DEPOSITS/CREDITS (${credits.length})`, plain(sum(credits))],
      [`CHECKS/DEBITS (${debits.length})`, plain(sum(debits))],
      ["SERVICE CHARGE", ".00"],
      ["INTEREST PAID", plain(sum(posted.filter((e) => e.kind === "interest")))],
      ["CURRENT BALANCE", plain(closing)],
    ];
    summary.forEach(([label, value], index) => {
      first.push(
        { text: label, x: 36, y: 626 - index * 11, size: 8 },
        { text: value, x: 300, y: 626 - index * 11, size: 8, right: true },
      );
    });
    const rows: Row[] = [
      [text("ACCOUNT ACTIVITY", 36, 10)],
      [text("DATE", 36, 7), text("DESCRIPTION", 90, 7), right("AMOUNT", 450, 7), right("BALANCE", 560, 7)],
      ...posted.map(
        (e): Row => [
          text(monDay(e.date), 36),
          text(e.description, 90),
          right(crdr(e.amount), 450),
          right(plain(e.balance), 560),
        ],
      ),
      blank,
      [text("DAILY BALANCE INFORMATION", 36, 10)],
      [
        text("DATE", 36, 7),
        right("BALANCE", 170, 7),
        text("DATE", 216, 7),
        right("BALANCE", 350, 7),
        text("DATE", 396, 7),
        right("BALANCE", 530, 7),
      ],
      ...balanceTable(posted, monDay, plain),
      blank,
      [text("OVERDRAFT/RETURN ITEM FEES", 36, 10)],
      [right("TOTAL FOR THIS PERIOD", 420, 7), right("TOTAL YEAR-TO-DATE", 540, 7)],
      [
        text("TOTAL OVERDRAFT FEES", 36),
        right(dollars(fees), 420),
        right(dollars(fees + spec.feesEarlierThisYear), 540),
      ],
      [text("TOTAL RETURN ITEM FEES", 36), right("$0.00", 420), right("$0.00", 540)],
    ];
    return flow({
      title: `Prairie State Bank statement ${iso(spec.end)}`,
      first,
      top: 548,
      rows,
      header: (page) => [
        { text: `ACCOUNT NO. ******${spec.last4}`, x: 36, y: 750, size: 8 },
        { text: `PAGE ${page}`, x: 576, y: 750, size: 8, right: true },
      ],
      footer: () => [],
    });
  },
};

// ---------------------------------------------------------------- 5. business account

const MERIDIAN_WORDS: Partial<Record<EntryKind, (entry: Entry) => string>> = {
  payroll: () => "ACH CREDIT STRIPE TRANSFER ST-4Q8K2",
  deposit: () => "MOBILE DEPOSIT REF 4410",
  interest: () => "INTEREST CREDIT",
  bill: (entry) => (entry.amount === -1850 ? "ACH DEBIT SPRINGFIELD PROP LEASE" : "ACH DEBIT AMEX EPAYMENT"),
  card: (entry) => `POS PURCHASE ${entry.description.toUpperCase()}`,
  atm: () => "ATM WITHDRAWAL 5TH & MAIN",
  transfer_out: () => "ACH DEBIT ADP PAYROLL 4431",
};

const meridian: Layout = {
  name: "business",
  bank: "Meridian Commerce Bank",
  periods: [calendarMonth(2026, 1), calendarMonth(2026, 2), calendarMonth(2026, 3)],
  traps: (start) => [
    { date: addDays(start, 27), kind: "service_fee", description: "ACCOUNT ANALYSIS FEE", amount: -25 },
  ],
  fee: (start) => ({
    date: addDays(start, 15),
    kind: "nsf_fee",
    description: "PAID ITEM FEE CHECK 1187",
    amount: -35,
  }),
  largeDeposit: (start) => ({
    date: addDays(start, 14),
    kind: "large_deposit",
    description: "WIRE TRANSFER IN ORIG BLUE HERON LLC",
    amount: 9800,
  }),
  reword: (entry) => ({ ...entry, description: MERIDIAN_WORDS[entry.kind]?.(entry) ?? entry.description }),
  render: async (spec) => {
    const { posted, closing } = post(spec);
    const account = `0072-3391-${spec.last4}`;
    const periodText = `${mmddyy(spec.start)} through ${mmddyy(spec.end)}`;
    const parens = (value: number) => (value < 0 ? `(${plain(value)})` : plain(value));
    const detail = posted.filter((e) => e.kind !== "check");
    const checks = posted.filter((e) => e.kind === "check");
    const credits = posted.filter(isCredit);
    const debits = posted.filter((e) => e.amount < 0);
    const analysis = -sum(posted.filter((e) => e.kind === "service_fee"));
    const overdraft = nsfFees(spec.entries);
    const title = `${upperName(spec.owner)} DBA ${spec.owner.last.toUpperCase()} DESIGN STUDIO`;
    const first: Item[] = [
      { text: "Meridian Commerce Bank", x: 36, y: 748, size: 15 },
      { text: "Business Banking  ·  200 S Wacker Dr, Chicago, IL 60606", x: 36, y: 734, size: 7 },
      { text: "Account Number", x: 330, y: 712, size: 7 },
      { text: "Statement Period", x: 430, y: 712, size: 7 },
      { text: account, x: 330, y: 700, size: 9 },
      { text: periodText, x: 430, y: 700, size: 9 },
      { text: title, x: 60, y: 690, size: 9 },
      { text: "PO BOX 7731", x: 60, y: 679, size: 9 },
      { text: "SPRINGFIELD IL 62791-7731", x: 60, y: 668, size: 9 },
      { text: "Business Analyzed Checking", x: 36, y: 636, size: 11 },
      { text: "ABA/Routing Number 071000013", x: 330, y: 636, size: 8 },
      { text: "Tax ID XX-XXX7788", x: 500, y: 636, size: 8 },
    ];
    const summary: Array<[string, string]> = [
      ["Opening Balance", dollars(spec.opening)],
      [`Total Credits (${credits.length})`, dollars(sum(credits))],
      [`Total Debits (${debits.length})`, `(${dollars(sum(debits))})`],
      ["Closing Balance", dollars(closing)],
    ];
    summary.forEach(([label, value], index) => {
      first.push(
        { text: label, x: 36, y: 618 - index * 11, size: 8 },
        { text: value, x: 300, y: 618 - index * 11, size: 8, right: true },
      );
    });
    const checkRows: Row[] = [];
    for (let index = 0; index < checks.length; index += 2) {
      checkRows.push(
        checks
          .slice(index, index + 2)
          .flatMap((e, column): Item[] => [
            text(
              `${e.check}${column === 1 && e.check !== (checks[index]?.check ?? 0) + 1 ? "*" : ""}`,
              36 + column * 250,
            ),
            text(mmdd(e.date), 90 + column * 250),
            right(plain(e.amount), 200 + column * 250),
          ]),
      );
    }
    const rows: Row[] = [
      [text("TRANSACTION DETAIL", 36, 10)],
      [text("Date", 36, 7), text("Description", 90, 7), right("Amount", 470, 7), right("Balance", 570, 7)],
      ...detail.map(
        (e): Row => [
          text(mmdd(e.date), 36),
          text(e.description, 90),
          right(parens(e.amount), 470),
          right(parens(e.balance), 570),
        ],
      ),
      blank,
      [text("CHECKS PAID", 36, 10)],
      [
        text("Number", 36, 7),
        text("Date", 90, 7),
        right("Amount", 200, 7),
        text("Number", 286, 7),
        text("Date", 340, 7),
        right("Amount", 450, 7),
      ],
      ...checkRows,
      [text("* Gap in check sequence", 36, 7)],
      blank,
      [text("SERVICE CHARGE SUMMARY", 36, 10)],
      [text("Account Analysis Fee", 36), right(dollars(analysis), 300)],
      [text("Overdraft Item Fees", 36), right(dollars(overdraft), 300)],
      [text("Returned Item Fees", 36), right("$0.00", 300)],
      [text("Total Service Charges", 36), right(dollars(analysis + overdraft), 300)],
      blank,
      [text("DAILY BALANCES", 36, 10)],
      ...balanceTable(posted, mmdd, parens),
      "page-break",
      [text("CHECK IMAGES", 36, 10)],
      ...checks.flatMap((e): Row[] => [
        [text(`Check ${e.check}`, 36), text(mmddyy(e.date), 140), right(dollars(e.amount), 300)],
        [text("PAY TO THE ORDER OF  Springfield Office Supply", 60, 7)],
        blank,
      ]),
    ];
    return flow({
      title: `Meridian Commerce Bank statement ${iso(spec.end)}`,
      first,
      top: 560,
      rows,
      header: (page, pages) => [
        {
          text: `Meridian Commerce Bank  ·  Account Number ${account}  ·  ${periodText}`,
          x: 36,
          y: 750,
          size: 8,
        },
        { text: `Page ${page} of ${pages}`, x: 576, y: 750, size: 8, right: true },
      ],
    });
  },
};

// ---------------------------------------------------------------- 6. overdraft protection

const LAKESHORE_WORDS: Partial<Record<EntryKind, (entry: Entry) => string>> = {
  payroll: () => "ACME WIDGETS INC DIRECT DEP",
  deposit: () => "Mobile Deposit",
  interest: () => "Interest Paid",
  bill: (entry) => (entry.amount === -1850 ? "Springfield Properties Rent ACH" : "Capital One Online Pmt"),
  card: (entry) => `Debit Card ${entry.description}`,
  atm: () => "ATM Withdrawal 5th & Main",
  transfer_out: () => "Online Transfer to Vanguard Brokerage",
  check: (entry) => `Check ${entry.check}`,
};

const lakeshore: Layout = {
  name: "overdraft-protection",
  bank: "Lakeshore Savings Bank",
  periods: [calendarMonth(2026, 1), calendarMonth(2026, 2), calendarMonth(2026, 3)],
  jointOwner: CO_OWNER,
  traps: (start) => [
    {
      date: addDays(start, 10),
      kind: "od_protection",
      description: "Overdraft Protection Transfer from Savings ****7710",
      amount: 250,
    },
    { date: addDays(start, 11), kind: "fee_charged_back", description: "Overdraft Item Fee", amount: -35 },
    { date: addDays(start, 12), kind: "fee_refund", description: "Overdraft Fee Refund", amount: 35 },
  ],
  fee: (start) => ({
    date: addDays(start, 15),
    kind: "nsf_fee",
    description: "Overdraft Item Fee - Check 1187",
    amount: -35,
  }),
  largeDeposit: (start) => ({
    date: addDays(start, 14),
    kind: "large_deposit",
    description: "IRS TREAS 310 TAX REF",
    amount: 4812,
  }),
  reword: (entry) => ({ ...entry, description: LAKESHORE_WORDS[entry.kind]?.(entry) ?? entry.description }),
  render: async (spec) => {
    const { posted, closing } = post(spec);
    const credits = posted.filter(isCredit);
    const debits = posted.filter((e) => e.amount < 0);
    const periodText = `${monDay(spec.start)}, ${spec.start.y} – ${monDay(spec.end)}, ${spec.end.y}`;
    const trailing = (value: number) => `${plain(value)}${value < 0 ? "-" : ""}`;
    const first: Item[] = [
      { text: "Lakeshore Savings Bank", x: 36, y: 748, size: 15 },
      { text: "lakeshoresavings.example  ·  1-877-555-0160  ·  Member FDIC", x: 36, y: 734, size: 7 },
      { text: `Statement Period ${periodText}`, x: 360, y: 748, size: 8 },
      { text: upperName(spec.owner), x: 60, y: 704, size: 9 },
      ...(spec.jointOwner ? [{ text: upperName(spec.jointOwner), x: 60, y: 693, size: 9 }] : []),
      { text: "1842 MAPLE AVE", x: 60, y: 682, size: 9 },
      { text: "SPRINGFIELD IL 62704", x: 60, y: 671, size: 9 },
      { text: "Account Information", x: 36, y: 640, size: 10 },
      { text: `Primary Owner: ${properName(spec.owner)}`, x: 36, y: 627, size: 8 },
      ...(spec.jointOwner
        ? [{ text: `Joint Owner: ${properName(spec.jointOwner)}`, x: 36, y: 616, size: 8 }]
        : []),
      { text: `Interest Checking ****${spec.last4}`, x: 300, y: 627, size: 8 },
      { text: "Overdraft Protection: Savings ****7710", x: 300, y: 616, size: 8 },
      { text: "Beginning Balance", x: 36, y: 596, size: 8 },
      { text: dollars(spec.opening), x: 300, y: 596, size: 8, right: true },
      { text: "Deposits and Other Credits", x: 36, y: 585, size: 8 },
      { text: `+${plain(sum(credits))}`, x: 300, y: 585, size: 8, right: true },
      { text: "Withdrawals and Other Debits", x: 36, y: 574, size: 8 },
      { text: `-${plain(sum(debits))}`, x: 300, y: 574, size: 8, right: true },
      { text: "Ending Balance", x: 36, y: 563, size: 8 },
      { text: dollars(closing), x: 300, y: 563, size: 8, right: true },
    ];
    const section = (name: string, list: Posted[]): Row[] =>
      list.length === 0
        ? []
        : [
            [text(name, 36, 9)],
            ...list.map(
              (e): Row => [text(mmdd(e.date), 36), text(e.description, 90), right(trailing(e.amount), 500)],
            ),
          ];
    const electronic = credits.filter((e) => e.kind === "payroll" || e.kind === "large_deposit");
    const otherCredits = credits.filter((e) => !electronic.includes(e));
    const checks = debits.filter((e) => e.kind === "check");
    const card = debits.filter((e) => e.kind === "card" || e.kind === "atm");
    const otherDebits = debits.filter((e) => !checks.includes(e) && !card.includes(e));
    const rows: Row[] = [
      [text("DEPOSITS AND OTHER CREDITS", 36, 10)],
      [text("Date", 36, 7), text("Description", 90, 7), right("Amount", 500, 7)],
      ...section("Electronic Deposits", electronic),
      ...section("Other Credits", otherCredits),
      [text("Total Deposits and Other Credits", 90), right(plain(sum(credits)), 500)],
      blank,
      [text("WITHDRAWALS AND OTHER DEBITS", 36, 10)],
      [text("Date", 36, 7), text("Description", 90, 7), right("Amount", 500, 7)],
      ...section("Checks Paid", checks),
      ...section("Card Transactions", card),
      ...section("Other Debits", otherDebits),
      [text("Total Withdrawals and Other Debits", 90), right(trailing(sum(debits)), 500)],
      blank,
      [
        text(
          "Overdraft Protection transfers from your linked savings are free. Standard Overdraft Item Fee $35.00 per item.",
          36,
          7,
        ),
      ],
      [text("Interest Paid Year-to-Date $2.61   Annual Percentage Yield Earned 0.05%", 36, 7)],
    ];
    return flow({
      title: `Lakeshore Savings Bank statement ${iso(spec.end)}`,
      first,
      top: 536,
      rows,
      header: (page, pages) => [
        {
          text: `Interest Checking ****${spec.last4}   Statement Period ${periodText}`,
          x: 36,
          y: 750,
          size: 8,
        },
        { text: `Page ${page} of ${pages}`, x: 576, y: 750, size: 8, right: true },
      ],
    });
  },
};

export const BANK_LAYOUTS: ReadonlyArray<Layout> = [
  keystone,
  heartland,
  northwind,
  prairie,
  meridian,
  lakeshore,
];

// ---------------------------------------------------------------- labelled cases

interface StatementVariant {
  /** Index into the layout's periods. */
  period: number;
  owner?: Person;
  jointOwner?: Person | null;
  last4?: string;
  fee?: boolean;
  largeDeposit?: boolean;
}

interface CaseSpec {
  slug: string;
  description: string;
  statements: StatementVariant[];
  labels: Record<string, Label>;
}

const ALL_FULFILLED: Record<string, Label> = {
  BS_TWO_MONTHS: "fulfilled",
  BS_NAME_MATCH: "fulfilled",
  BS_SAME_ACCOUNT: "fulfilled",
  BS_NO_NSF: "fulfilled",
  BS_LARGE_DEPOSITS: "fulfilled",
};

function caseSpecs(layout: Layout): CaseSpec[] {
  const traps = trapDescription(layout);
  return [
    {
      slug: "clean",
      description: `two consecutive statements of the borrower's account, no NSF fee (${traps}), no large deposit`,
      statements: [{ period: 1 }, { period: 2 }],
      labels: { ...ALL_FULFILLED },
    },
    {
      slug: "gap",
      description: "two statements with a month missing between them",
      statements: [{ period: 0 }, { period: 2 }],
      labels: { ...ALL_FULFILLED, BS_TWO_MONTHS: "not_fulfilled" },
    },
    {
      slug: "other-holder",
      description: `the second statement is held by ${properName(STRANGER)}`,
      statements: [
        { period: 1 },
        { period: 2, owner: STRANGER, jointOwner: layout.jointOwner ? STRANGER_CO_OWNER : null },
      ],
      labels: { ...ALL_FULFILLED, BS_NAME_MATCH: "not_fulfilled" },
    },
    {
      slug: "other-account",
      description: `the second statement is for another account (ending ${OTHER_ACCOUNT})`,
      statements: [{ period: 1 }, { period: 2, last4: OTHER_ACCOUNT }],
      labels: { ...ALL_FULFILLED, BS_SAME_ACCOUNT: "not_fulfilled" },
    },
    {
      slug: "nsf-fee",
      description: `an NSF fee in the second statement: ${quoteFee(layout)}`,
      statements: [{ period: 1 }, { period: 2, fee: true }],
      labels: { ...ALL_FULFILLED, BS_NO_NSF: "not_fulfilled" },
    },
    {
      slug: "large-deposit",
      description: `a deposit above 50% of the monthly income in the second statement: ${quoteDeposit(layout)}`,
      statements: [{ period: 1 }, { period: 2, largeDeposit: true }],
      labels: { ...ALL_FULFILLED, BS_LARGE_DEPOSITS: "not_fulfilled" },
    },
  ];
}

const FEE_LIKE: ReadonlySet<EntryKind> = new Set([
  "service_fee",
  "fee_charged_back",
  "fee_refund",
  "od_protection",
  "fee_waived_zero",
]);

function trapDescription(layout: Layout): string {
  const traps = layout.traps(layout.periods[0]?.start ?? { y: 2026, m: 1, d: 1 });
  const named = traps.filter((entry) => FEE_LIKE.has(entry.kind)).map((entry) => `"${entry.description}"`);
  return named.length > 0
    ? `only ${named.join(", ")} and $0.00 fee totals`
    : "only $0.00 fee totals and a fee schedule";
}

function quoteFee(layout: Layout): string {
  const fee = layout.fee({ y: 2026, m: 1, d: 1 });
  return `"${fee.description}" ${dollars(fee.amount)}`;
}

function quoteDeposit(layout: Layout): string {
  const deposit = layout.largeDeposit({ y: 2026, m: 1, d: 1 });
  return `"${deposit.description}" ${dollars(deposit.amount)}`;
}

/** The statements of one case: balances carried from period to period, as the bank would print them. */
async function buildCase(layout: Layout, spec: CaseSpec): Promise<SampleDocument[]> {
  const wanted = new Map(spec.statements.map((variant) => [variant.period, variant]));
  const last = Math.max(...spec.statements.map((variant) => variant.period));
  const documents: SampleDocument[] = [];
  let opening = 6102.44;
  let feesThisYear = 0;
  let year = layout.periods[0]?.end.y ?? 2026;
  for (let index = 0; index <= last; index++) {
    const period = layout.periods[index];
    if (!period) throw new Error(`layout ${layout.name} has no period ${index}`);
    const variant = wanted.get(index);
    const entries = [
      ...activity(period.start, index),
      ...layout.traps(period.start),
      ...(variant?.fee ? [layout.fee(period.start)] : []),
      ...(variant?.largeDeposit ? [layout.largeDeposit(period.start)] : []),
    ].map(layout.reword);
    if (period.end.y !== year) {
      year = period.end.y;
      feesThisYear = 0;
    }
    const statement: StatementSpec = {
      start: period.start,
      end: period.end,
      owner: variant?.owner ?? BORROWER,
      ...(variant?.jointOwner === null
        ? {}
        : variant?.jointOwner
          ? { jointOwner: variant.jointOwner }
          : layout.jointOwner
            ? { jointOwner: layout.jointOwner }
            : {}),
      last4: variant?.last4 ?? BORROWER_ACCOUNT,
      opening,
      entries,
      feesEarlierThisYear: feesThisYear,
    };
    opening = post(statement).closing;
    feesThisYear = cents(feesThisYear + nsfFees(entries));
    if (!variant) continue;
    documents.push({
      key: `layouts/${layout.name}/${spec.slug}/statement-${iso(period.end)}.pdf`,
      bytes: await layout.render(statement),
      description: `${layout.bank} statement ${iso(period.start)} to ${iso(period.end)}`,
    });
  }
  return documents;
}

/** Every BS_ condition both ways on every layout: 6 cases per layout, each labelling all five conditions. */
export async function bankStatementCases(): Promise<LabelledCase[]> {
  const cases: LabelledCase[] = [];
  for (const layout of BANK_LAYOUTS) {
    const latest = layout.periods[2]?.end;
    if (!latest) throw new Error(`layout ${layout.name} needs three periods`);
    for (const spec of caseSpecs(layout)) {
      cases.push({
        layout: layout.name,
        description: `${spec.slug}: ${spec.description}`,
        documents: await buildCase(layout, spec),
        metadata: {
          loan_program: "Flex Supreme",
          classification: "Bank Statements",
          // Three weeks after the latest period: recent enough for BS_TWO_MONTHS.
          as_of_date: iso(addDays(latest, 21)),
          borrower_info: { name: properName(BORROWER), monthly_income: MONTHLY_INCOME },
        },
        labels: spec.labels,
      });
    }
  }
  return cases;
}
