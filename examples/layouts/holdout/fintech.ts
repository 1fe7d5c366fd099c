// Held-out bank statement 3: a fintech's, with signed amounts; and its cases.
import type { LabelledCase } from "../cases.ts";
import { type Day, day, money, monthName, shortMonth } from "./drawing.ts";
import {
  activity,
  type BankPage,
  bankCases,
  bankLabels,
  type Extra,
  RowWriter,
  renderPages,
  type Statement,
  sum,
} from "./statement.ts";

/**
 * A fintech app's statement: the month as a title and the dates as "Jan 1, 2026 – Jan 31, 2026"
 * without a label, the holder in title case, a masked account number beside a routing number,
 * summary figures under their headings, signed "+$"/"-$" amounts with a type column.
 */
export async function fintech(statement: Statement): Promise<Uint8Array> {
  const range = `${shortMonth(statement.start)} ${statement.start.d}, ${statement.start.y} – ${shortMonth(statement.end)} ${statement.end.d}, ${statement.end.y}`;
  const signed = (value: number) => `${value < 0 ? "-" : "+"}$${money(value)}`;
  const writer = new RowWriter((page) => {
    page.items.push(
      {
        text: `${monthName(statement.end)} ${statement.end.y} statement  ·  ${range}`,
        x: 40,
        y: 760,
        size: 7,
      },
      { text: `Checking ••${statement.account}`, x: 470, y: 760, size: 7 },
    );
    return 730;
  });
  const closing = statement.entries.reduce((balance, entry) => balance + entry.amount, statement.opening);
  const first: BankPage = { items: [] };
  first.items.push(
    { text: "lumen", x: 40, y: 750, size: 20 },
    {
      text: "Lumen Financial Technologies, Inc. is a financial technology company, not a bank. Banking services",
      x: 40,
      y: 734,
      size: 6,
    },
    { text: "provided by Evergreen Pacific Bank, N.A.; Member FDIC.", x: 40, y: 727, size: 6 },
    { text: `${monthName(statement.end)} ${statement.end.y}`, x: 400, y: 752, size: 16 },
    { text: range, x: 400, y: 736, size: 9 },
    ...statement.holders.map((name, index) => ({ text: name, x: 40, y: 696 - index * 11, size: 9 })),
    { text: "1457 Alder Crest Dr", x: 40, y: 696 - statement.holders.length * 11, size: 9 },
    { text: "Spokane, WA 99203", x: 40, y: 685 - statement.holders.length * 11, size: 9 },
    { text: "Account details", x: 360, y: 700, size: 9 },
    { text: "Checking account", x: 360, y: 688, size: 8 },
    { text: "Account number", x: 360, y: 676, size: 8 },
    { text: `••••••••${statement.account}`, x: 460, y: 676, size: 8 },
    { text: "Routing number", x: 360, y: 664, size: 8 },
    { text: "121145307", x: 460, y: 664, size: 8 },
  );
  const figures: Array<[string, string]> = [
    ["Starting balance", `$${money(statement.opening)}`],
    ["Money in", signed(sum(statement.entries, 1))],
    ["Money out", signed(sum(statement.entries, -1))],
    ["Ending balance", `$${money(closing)}`],
  ];
  figures.forEach(([label, value], index) => {
    first.items.push(
      { text: label, x: 40 + index * 135, y: 626, size: 7 },
      { text: value, x: 40 + index * 135, y: 612, size: 11 },
    );
  });
  first.items.push(
    { text: "Transactions", x: 40, y: 582, size: 11 },
    { text: "Date", x: 40, y: 566, size: 7 },
    { text: "Description", x: 90, y: 566, size: 7 },
    { text: "Type", x: 340, y: 566, size: 7 },
    { text: "Amount", x: 480, y: 566, size: 7, right: true },
    { text: "Balance", x: 565, y: 566, size: 7, right: true },
  );
  writer.start(first, 550);
  let balance = statement.opening;
  for (const entry of statement.entries) {
    balance += entry.amount;
    const { page, y } = writer.row(14);
    page.items.push(
      { text: `${shortMonth(entry.date)} ${entry.date.d}`, x: 40, y, size: 8 },
      { text: entry.description.join(" "), x: 90, y, size: 8 },
      { text: entry.kind ?? (entry.amount > 0 ? "Deposit" : "Card"), x: 340, y, size: 8 },
      { text: signed(entry.amount), x: 480, y, size: 8, right: true },
      { text: `$${money(balance)}`, x: 565, y, size: 8, right: true },
    );
  }
  {
    const { page, y } = writer.row(30);
    page.items.push({
      text: "Questions about your statement? Message us in the app. Deposits are FDIC insured up to $250,000 through Evergreen Pacific Bank, N.A.",
      x: 40,
      y: y - 12,
      size: 6,
    });
  }
  return renderPages(writer.pages, "Lumen statement");
}

// ---------------------------------------------------------------- its cases

export async function fintechCases(): Promise<LabelledCase[]> {
  const JOHN = ["John A. Smith Jr."];
  const month = (
    start: Day,
    end: Day,
    extras: Extra[] = [],
    holders = JOHN,
    account = "4321",
  ): Statement => ({
    holders,
    account,
    start,
    end,
    opening: 3102.44,
    entries: activity("fintech", start, extras),
  });
  const jan = [day(2026, 1, 1), day(2026, 1, 31)] as const;
  const feb = [day(2026, 2, 1), day(2026, 2, 28)] as const;
  const oct = [day(2025, 10, 1), day(2025, 10, 31)] as const;
  const nov = [day(2025, 11, 1), day(2025, 11, 30)] as const;
  const crypto: Extra = {
    date: day(2026, 2, 10),
    description: ["Transfer from Coinbase"],
    amount: 7500,
    kind: "ACH in",
  };
  const returned: Extra[] = [
    {
      date: day(2026, 1, 20),
      description: ["Returned deposit item · Mobile check #118"],
      amount: -400,
      kind: "Adjustment",
    },
    { date: day(2026, 1, 20), description: ["Returned item fee"], amount: -15, kind: "Fee" },
  ];
  return bankCases("holdout-fintech-signed-amounts", fintech, [
    {
      description: "two calendar months, payroll twice a month, round-ups and interest",
      asOf: "2026-03-20",
      statements: [month(...jan), month(...feb)],
      labels: bankLabels({}),
    },
    {
      description: "a returned mobile deposit with its returned item fee, and a 7,500 transfer from Coinbase",
      asOf: "2026-03-20",
      statements: [month(...jan, returned), month(...feb, [crypto])],
      labels: bankLabels({ BS_NO_NSF: "not_fulfilled", BS_LARGE_DEPOSITS: "not_fulfilled" }),
    },
    {
      description: "the February statement is of the checking account ending 0457",
      asOf: "2026-03-20",
      statements: [month(...jan), month(...feb, [], JOHN, "0457")],
      labels: bankLabels({ BS_SAME_ACCOUNT: "not_fulfilled" }),
    },
    {
      description: "statements of Julia R. Smith",
      asOf: "2026-03-20",
      statements: [month(...jan, [], ["Julia R. Smith"]), month(...feb, [], ["Julia R. Smith"])],
      labels: bankLabels({ BS_NAME_MATCH: "not_fulfilled" }),
    },
    {
      description:
        "October and November statements, the latest ending more than 60 days before the as-of date",
      asOf: "2026-03-20",
      statements: [month(...oct), month(...nov)],
      labels: bankLabels({ BS_TWO_MONTHS: "not_fulfilled" }),
    },
  ]);
}
