// Bank statement layout 5: a business account.
import type { Item } from "../../samples.ts";
import {
  addDays,
  balanceTable,
  blank,
  calendarMonth,
  dollars,
  type Entry,
  type EntryKind,
  flow,
  isCredit,
  iso,
  type Layout,
  mmdd,
  mmddyy,
  nsfFees,
  plain,
  post,
  type Row,
  right,
  sum,
  text,
  upperName,
} from "./statement.ts";

const MERIDIAN_WORDS: Partial<Record<EntryKind, (entry: Entry) => string>> = {
  payroll: () => "ACH CREDIT STRIPE TRANSFER ST-4Q8K2",
  deposit: () => "MOBILE DEPOSIT REF 4410",
  interest: () => "INTEREST CREDIT",
  bill: (entry) => (entry.amount === -1850 ? "ACH DEBIT SPRINGFIELD PROP LEASE" : "ACH DEBIT AMEX EPAYMENT"),
  card: (entry) => `POS PURCHASE ${entry.description.toUpperCase()}`,
  atm: () => "ATM WITHDRAWAL 5TH & MAIN",
  transfer_out: () => "ACH DEBIT ADP PAYROLL 4431",
};

export const meridian: Layout = {
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
