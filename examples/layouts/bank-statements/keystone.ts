// Bank statement layout 1: a national retail bank.
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
  type Posted,
  plain,
  post,
  type Row,
  right,
  sum,
  text,
  upperName,
} from "./statement.ts";

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

export const keystone: Layout = {
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
