// Bank statement layout 2: a credit union with sub-accounts.
import type { Item } from "../../samples.ts";
import {
  addDays,
  blank,
  cents,
  type Day,
  dollars,
  type Entry,
  type EntryKind,
  flow,
  isCredit,
  iso,
  type Layout,
  lastFirst,
  mmdd,
  mmddyy,
  nsfFees,
  plain,
  post,
  type Row,
  right,
  sum,
  text,
} from "./statement.ts";

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

export const heartland: Layout = {
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
