// What every bank statement layout shares: what a statement holds (days, people, entries), dates,
// names and amounts as statements write them, the page flow, and a month's activity.
import { drawItems, type Item, LETTER, MONTH_NAMES, newDocument, save } from "../../samples.ts";

export interface Day {
  y: number;
  m: number;
  d: number;
}

export interface Person {
  first: string;
  middle?: string;
  last: string;
}

export type EntryKind =
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

export interface Entry {
  date: Day;
  kind: EntryKind;
  /** This bank's wording of the line. */
  description: string;
  /** Signed: positive credits the account, negative debits it. */
  amount: number;
  check?: number;
}

export interface StatementSpec {
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

export interface Layout {
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

export const BORROWER: Person = { first: "Jane", middle: "Q", last: "Doe" };

export const CO_OWNER: Person = { first: "John", middle: "A", last: "Doe" };

export const STRANGER: Person = { first: "Michael", middle: "T", last: "Reyes" };

export const STRANGER_CO_OWNER: Person = { first: "Ana", last: "Reyes" };

export const BORROWER_ACCOUNT = "4821";

export const OTHER_ACCOUNT = "9034";

export const MONTHLY_INCOME = 8000;

// ---------------------------------------------------------------- dates, names, amounts

function dayNumber(day: Day): number {
  return Date.UTC(day.y, day.m - 1, day.d) / 86_400_000;
}

export function addDays(day: Day, days: number): Day {
  const moved = new Date((dayNumber(day) + days) * 86_400_000);
  return { y: moved.getUTCFullYear(), m: moved.getUTCMonth() + 1, d: moved.getUTCDate() };
}

function lastDay(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function calendarMonth(y: number, m: number): { start: Day; end: Day } {
  return { start: { y, m, d: 1 }, end: { y, m, d: lastDay(y, m) } };
}

const pad = (value: number) => String(value).padStart(2, "0");

/** 01/31 */
export const mmdd = (day: Day) => `${pad(day.m)}/${pad(day.d)}`;

/** 01/31/26 */
export const mmddyy = (day: Day) => `${mmdd(day)}/${pad(day.y % 100)}`;

/** 2026-01-31 */
export const iso = (day: Day) => `${day.y}-${pad(day.m)}-${pad(day.d)}`;

/** Jan 3 */
export const monDay = (day: Day) => `${MONTH_NAMES[day.m - 1]?.slice(0, 3)} ${day.d}`;

/** January 3 */
export const monthDay = (day: Day) => `${MONTH_NAMES[day.m - 1]} ${day.d}`;

/** JANE Q DOE */
export const upperName = (person: Person) =>
  [person.first, person.middle, person.last].filter(Boolean).join(" ").toUpperCase();

/** DOE, JANE Q */
export const lastFirst = (person: Person) =>
  `${person.last}, ${person.first}${person.middle ? ` ${person.middle}` : ""}`.toUpperCase();

/** Jane Q. Doe */
export const properName = (person: Person) =>
  `${person.first}${person.middle ? ` ${person.middle}.` : ""} ${person.last}`;

export const cents = (value: number) => Math.round(value * 100) / 100;

/** 1,850.00 (no sign) */
export function plain(value: number): string {
  return Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export const dollars = (value: number) => `$${plain(value)}`;

export interface Posted extends Entry {
  balance: number;
}

export function post(spec: StatementSpec): { posted: Posted[]; closing: number } {
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

export const isCredit = (entry: Entry) => entry.amount > 0;

export const sum = (entries: Entry[]) => cents(entries.reduce((total, entry) => total + entry.amount, 0));

const NSF_KINDS: ReadonlySet<EntryKind> = new Set(["nsf_fee"]);

/** NSF/overdraft/returned-item fees kept (not refunded) in a statement. */
export const nsfFees = (entries: Entry[]) =>
  cents(-entries.filter((entry) => NSF_KINDS.has(entry.kind)).reduce((t, e) => t + e.amount, 0));

// ---------------------------------------------------------------- page flow

export type Row = Item[] | "page-break";

/**
 * Lays rows top-down from `top` on page 1 (and from y 720 on the next pages), breaking pages when
 * a page is full or a row asks for it; every page gets the bank's running header and a footer.
 */
export async function flow(options: {
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

export const text = (value: string, x: number, size = 8): Item => ({ text: value, x, y: 0, size });

export const right = (value: string, x: number, size = 8): Item => ({
  text: value,
  x,
  y: 0,
  size,
  right: true,
});

export const blank: Row = [];

/** Pairs of [date, balance] laid out `perRow` to a line. */
export function balanceTable(
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
export function activity(start: Day, index: number): Entry[] {
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
