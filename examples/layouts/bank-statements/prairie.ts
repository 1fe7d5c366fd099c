// Bank statement layout 4: a community bank.
import type { Item } from "../../samples.ts";
import {
  addDays,
  balanceTable,
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
  monDay,
  monthDay,
  nsfFees,
  type Person,
  plain,
  post,
  type Row,
  right,
  sum,
  text,
  upperName,
} from "./statement.ts";

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

export const prairie: Layout = {
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
