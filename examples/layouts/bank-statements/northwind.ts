// Bank statement layout 3: an online bank.
import type { Item } from "../../samples.ts";
import {
  addDays,
  blank,
  calendarMonth,
  dollars,
  type Entry,
  type EntryKind,
  flow,
  isCredit,
  iso,
  type Layout,
  plain,
  post,
  properName,
  type Row,
  right,
  sum,
  text,
} from "./statement.ts";

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

export const northwind: Layout = {
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
