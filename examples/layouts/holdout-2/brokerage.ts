// Second held-out bank layout 1: a brokerage cash management account; and its cases.
import { type Item, LETTER, MONTH_NAMES, type SampleDocument } from "../../samples.ts";
import type { LabelledCase } from "../cases.ts";
import { amount, bankMetadata, bsLabels, render } from "./pages.ts";
import { parts, SMITH, type StatementSpec, sum, type Txn, withBalances } from "./statement.ts";

/** Brokerage cash management account: Schwab-style period, parenthesized debits, cash balance column. */
async function brokerageStatement(spec: StatementSpec): Promise<Uint8Array> {
  const start = parts(spec.start);
  const end = parts(spec.end);
  const period = `${MONTH_NAMES[start.m - 1]} ${start.d}-${end.d}, ${end.y}`;
  const rows = withBalances(spec);
  const closing = rows.at(-1)?.balance ?? spec.opening;
  const credits = sum(spec.txns, 1);
  const debits = sum(spec.txns, -1);
  const first: Item[] = [
    { text: "RIDGELINE INVESTMENTS", x: 36, y: 752, size: 15 },
    { text: "Cash Management Account", x: 576, y: 756, size: 10, right: true },
    { text: "Statement Period", x: 576, y: 740, size: 7, right: true },
    { text: period, x: 576, y: 728, size: 10, right: true },
    ...spec.holder.map((line, index) => ({ text: line, x: 54, y: 690 - index * 12, size: 9 })),
    { text: "Account Number", x: 400, y: 700, size: 7 },
    { text: spec.account, x: 480, y: 700, size: 9 },
    { text: "Account Type", x: 400, y: 686, size: 7 },
    { text: "Individual", x: 480, y: 686, size: 9 },
    { text: "Your Financial Consultant", x: 400, y: 672, size: 7 },
    { text: "ALICIA REYES  (800) 555-0110", x: 400, y: 662, size: 8 },
    { text: "Account Value Summary", x: 36, y: 610, size: 11 },
    { text: "This Period", x: 420, y: 596, size: 7, right: true },
    { text: "Year to Date", x: 540, y: 596, size: 7, right: true },
    { text: "Beginning Account Value", x: 36, y: 582, size: 8 },
    { text: amount(spec.opening + 18_240.5), x: 420, y: 582, size: 8, right: true },
    { text: "Deposits and Other Credits", x: 36, y: 568, size: 8 },
    { text: amount(credits), x: 420, y: 568, size: 8, right: true },
    { text: "Withdrawals and Other Debits", x: 36, y: 554, size: 8 },
    { text: `(${amount(debits)})`, x: 420, y: 554, size: 8, right: true },
    { text: "Change in Value of Securities", x: 36, y: 540, size: 8 },
    { text: "312.44", x: 420, y: 540, size: 8, right: true },
    { text: "Ending Account Value", x: 36, y: 526, size: 8 },
    { text: amount(closing + 18_552.94), x: 420, y: 526, size: 8, right: true },
    { text: "Cash Balance", x: 36, y: 500, size: 8 },
    {
      text: `Starting ${amount(spec.opening)}   Ending ${amount(closing)}`,
      x: 420,
      y: 500,
      size: 8,
      right: true,
    },
    {
      text: "Holdings: VANGUARD TOTAL STOCK MKT ETF (VTI) 61.0000 shares; RIDGELINE GOVT MONEY FUND (RGXX)",
      x: 36,
      y: 470,
      size: 7,
    },
    {
      text: "Fee schedule: returned item $25; wire out $20; account transfer out $75. Fees may be waived.",
      x: 36,
      y: 80,
      size: 6,
    },
    { text: "Securities offered through Ridgeline Investments, Member SIPC.", x: 36, y: 70, size: 6 },
    { text: "Page 1 of 2", x: 576, y: 30, size: 7, right: true },
  ];
  const detail: Item[] = [
    { text: `RIDGELINE INVESTMENTS   ${period}   Account ${spec.account}`, x: 36, y: 760, size: 8 },
    { text: "Transaction Detail", x: 36, y: 730, size: 11 },
    { text: "Date", x: 36, y: 712, size: 7 },
    { text: "Category", x: 80, y: 712, size: 7 },
    { text: "Description", x: 170, y: 712, size: 7 },
    { text: "Amount", x: 470, y: 712, size: 7, right: true },
    { text: "Cash Balance", x: 570, y: 712, size: 7, right: true },
    { text: "Beginning Cash Balance", x: 170, y: 698, size: 8 },
    { text: amount(spec.opening), x: 570, y: 698, size: 8, right: true },
  ];
  let y = 684;
  for (const row of rows) {
    const category =
      row.amount > 0
        ? /DIVIDEND|INTEREST/.test(row.description)
          ? "Dividend"
          : "Deposit"
        : /BOUGHT/.test(row.description)
          ? "Purchase"
          : /FEE/.test(row.description)
            ? "Fee"
            : "Withdrawal";
    detail.push(
      { text: row.date, x: 36, y, size: 8 },
      { text: category, x: 80, y, size: 8 },
      { text: row.description, x: 170, y, size: 8 },
      {
        text: row.amount < 0 ? `(${amount(row.amount)})` : amount(row.amount),
        x: 470,
        y,
        size: 8,
        right: true,
      },
      { text: amount(row.balance), x: 570, y, size: 8, right: true },
    );
    y -= 12;
    if (row.more) {
      detail.push({ text: row.more, x: 170, y, size: 7 });
      y -= 12;
    }
  }
  detail.push(
    { text: "Ending Cash Balance", x: 170, y: y - 4, size: 8 },
    { text: amount(closing), x: 570, y: y - 4, size: 8, right: true },
    { text: "Page 2 of 2", x: 576, y: 30, size: 7, right: true },
  );
  return render(`Ridgeline CMA ${spec.start}`, [
    { size: LETTER, items: first },
    { size: LETTER, items: detail },
  ]);
}

function brokerageTxns(month: string, extra: Txn[]): Txn[] {
  return [
    {
      date: `${month}/02`,
      description: "ELECTRONIC FUNDS TRANSFER RECEIVED",
      amount: 2_400,
      more: "FROM EXT ACCT XXXXXX8765 FIRST MIAMI VALLEY",
    },
    { date: `${month}/05`, description: "BOUGHT 6 VANGUARD TOTAL STOCK MKT ETF @ 281.40", amount: -1_688.4 },
    { date: `${month}/09`, description: "CHECK 1047", amount: -845 },
    { date: `${month}/12`, description: "VISA DEBIT KROGER #0412 DAYTON OH", amount: -163.27 },
    {
      date: `${month}/16`,
      description: "ELECTRONIC FUNDS TRANSFER RECEIVED",
      amount: 2_400,
      more: "FROM EXT ACCT XXXXXX8765 FIRST MIAMI VALLEY",
    },
    { date: `${month}/20`, description: "ADVISORY FEE QUARTERLY", amount: -48.5 },
    { date: `${month}/24`, description: "BILL PAY DAYTON POWER AND LIGHT", amount: -212.66 },
    ...extra,
    { date: `${month}/28`, description: "DIVIDEND RECEIVED VANGUARD TOTAL STOCK MKT ETF", amount: 61.18 },
  ];
}

export async function brokerageCases(): Promise<LabelledCase[]> {
  const layout = "brokerage-cash-management";
  const doc = async (key: string, spec: StatementSpec): Promise<SampleDocument> => ({
    key: `rm-conditions/holdout-2/${key}`,
    bytes: await brokerageStatement(spec),
    description: `Ridgeline CMA ${spec.start}`,
  });
  const income = 9_000; // large above 4,500
  return [
    {
      layout,
      description: "Dec and Jan, Jr holder, transfers from an external account, a courtesy fee refund",
      documents: [
        await doc("ridgeline-2025-12.pdf", {
          start: "2025-12-01",
          end: "2025-12-31",
          holder: SMITH,
          account: "RX7-054321",
          opening: 3_905.12,
          txns: brokerageTxns("12", [{ date: "12/26", description: "FEE REFUND - COURTESY", amount: 25 }]),
        }),
        await doc("ridgeline-2026-01.pdf", {
          start: "2026-01-01",
          end: "2026-01-31",
          holder: SMITH,
          account: "RX7-054321",
          opening: 5_833.47,
          txns: brokerageTxns("01", []),
        }),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "Nov and Jan (December missing), the Sr's account, a return item chargeback fee",
      documents: [
        await doc("ridgeline-2025-11.pdf", {
          start: "2025-11-01",
          end: "2025-11-30",
          holder: ["JOHN A SMITH SR", ...SMITH.slice(1)],
          account: "RX7-054321",
          opening: 3_101.4,
          txns: brokerageTxns("11", [
            { date: "11/25", description: "RETURNED DEPOSIT ITEM CHECK 0931 UNPAID", amount: -400 },
            { date: "11/25", description: "RETURN ITEM CHARGEBACK FEE", amount: -25 },
          ]),
        }),
        await doc("ridgeline-2026-01.pdf", {
          start: "2026-01-01",
          end: "2026-01-31",
          holder: ["JOHN A SMITH SR", ...SMITH.slice(1)],
          account: "RX7-054321",
          opening: 4_874.04,
          txns: brokerageTxns("01", []),
        }),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["not_fulfilled", "not_fulfilled", "fulfilled", "not_fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "Dec and Jan of two different accounts, a wire from escrow, a returned check fee",
      documents: [
        await doc("ridgeline-2025-12-a.pdf", {
          start: "2025-12-01",
          end: "2025-12-31",
          holder: SMITH,
          account: "RX7-054321",
          opening: 3_905.12,
          txns: brokerageTxns("12", [
            {
              date: "12/22",
              description: "WIRE FUNDS RECEIVED",
              amount: 9_850,
              more: "ORG CARTER TITLE ESCROW REF 2512220044",
            },
          ]),
        }),
        await doc("ridgeline-2026-01-b.pdf", {
          start: "2026-01-01",
          end: "2026-01-31",
          holder: SMITH,
          account: "RX7-061188",
          opening: 1_250,
          txns: brokerageTxns("01", [
            { date: "01/26", description: "RETURNED CHECK FEE CHECK 1052", amount: -25 },
          ]),
        }),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
  ];
}
