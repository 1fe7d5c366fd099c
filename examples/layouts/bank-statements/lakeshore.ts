// Bank statement layout 6: a bank with overdraft protection.
import type { Item } from "../../samples.ts";
import {
  addDays,
  blank,
  CO_OWNER,
  calendarMonth,
  dollars,
  type Entry,
  type EntryKind,
  flow,
  isCredit,
  iso,
  type Layout,
  mmdd,
  monDay,
  type Posted,
  plain,
  post,
  properName,
  type Row,
  right,
  sum,
  text,
  upperName,
} from "./statement.ts";

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

export const lakeshore: Layout = {
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
