// Second held-out bank layout 2: a small savings bank's passbook-style ledger; and its cases.
import { type Item, LETTER, type SampleDocument } from "../../samples.ts";
import type { LabelledCase } from "../cases.ts";
import { amount, bankMetadata, bsLabels, render } from "./pages.ts";
import { parts, type StatementSpec, sum, type Txn, usDate, withBalances } from "./statement.ts";

/** A small savings bank's passbook-style ledger: unsigned amounts in withdrawal and deposit columns. */
async function passbookStatement(spec: StatementSpec & { codes: string[] }): Promise<Uint8Array> {
  const rows = withBalances(spec);
  const closing = rows.at(-1)?.balance ?? spec.opening;
  const year = parts(spec.end).y;
  const charges = -spec.txns
    .filter((_txn, index) => spec.codes[index] === "SC")
    .reduce((total, txn) => total + txn.amount, 0);
  const signedBalance = (value: number) => (value < 0 ? `-${amount(value)}` : amount(value));
  const items: Item[] = [
    { text: "COBBLESTONE SAVINGS BANK", x: 36, y: 754, size: 13 },
    { text: "Est. 1871  -  22 Central Square, Keene NH 03431  -  (603) 555-0147", x: 36, y: 740, size: 7 },
    { text: `Statement Period ${usDate(spec.start)} to ${usDate(spec.end)}`, x: 340, y: 712, size: 9 },
    { text: `Account ending ${spec.account.slice(-4)}`, x: 340, y: 698, size: 9 },
    { text: "Statement Savings & Checking Ledger", x: 340, y: 684, size: 8 },
    ...spec.holder.map((line, index) => ({ text: line, x: 54, y: 700 - index * 12, size: 9 })),
    { text: "Previous balance", x: 36, y: 630, size: 8 },
    { text: signedBalance(spec.opening), x: 200, y: 630, size: 8, right: true },
    { text: "Deposits", x: 230, y: 630, size: 8 },
    { text: amount(sum(spec.txns, 1)), x: 330, y: 630, size: 8, right: true },
    { text: "Withdrawals", x: 360, y: 630, size: 8 },
    { text: amount(sum(spec.txns, -1)), x: 460, y: 630, size: 8, right: true },
    { text: "New balance", x: 480, y: 630, size: 8 },
    { text: signedBalance(closing), x: 576, y: 630, size: 8, right: true },
    { text: "Total service charges", x: 36, y: 616, size: 8 },
    { text: `$${amount(charges)}`, x: 200, y: 616, size: 8, right: true },
    { text: "DATE", x: 36, y: 590, size: 7 },
    { text: "CODE", x: 84, y: 590, size: 7 },
    { text: "DESCRIPTION", x: 116, y: 590, size: 7 },
    { text: "WITHDRAWALS", x: 410, y: 590, size: 7, right: true },
    { text: "DEPOSITS", x: 490, y: 590, size: 7, right: true },
    { text: "BALANCE", x: 576, y: 590, size: 7, right: true },
    { text: usDate(spec.start, true), x: 36, y: 576, size: 8 },
    { text: "BAL", x: 84, y: 576, size: 8 },
    { text: "BALANCE FORWARD", x: 116, y: 576, size: 8 },
    { text: signedBalance(spec.opening), x: 576, y: 576, size: 8, right: true },
  ];
  let y = 562;
  rows.forEach((row, index) => {
    const [month, day] = row.date.split("/");
    const rowYear = Number(month) === parts(spec.start).m ? parts(spec.start).y : year;
    items.push(
      { text: `${month}/${day}/${String(rowYear).slice(2)}`, x: 36, y, size: 8 },
      { text: spec.codes[index] ?? "", x: 84, y, size: 8 },
      { text: row.description, x: 116, y, size: 8 },
      { text: amount(row.amount), x: row.amount < 0 ? 410 : 490, y, size: 8, right: true },
      { text: signedBalance(row.balance), x: 576, y, size: 8, right: true },
    );
    y -= 12;
  });
  items.push(
    { text: "TRANSACTION CODES", x: 36, y: 120, size: 7 },
    {
      text: "DEP Deposit   WD Withdrawal   CK Check   INT Interest   XFR Transfer   SC Service charge",
      x: 36,
      y: 108,
      size: 6,
    },
    {
      text: "NSF Non-sufficient funds item ($32.00 per item)   OD Overdrawn account charge ($5.00 per day)",
      x: 36,
      y: 98,
      size: 6,
    },
    { text: "Member FDIC  -  Equal Housing Lender", x: 36, y: 40, size: 6 },
  );
  return render(`Cobblestone Savings ${spec.start}`, [{ size: LETTER, items }]);
}

function passbookTxns(
  start: string,
  end: string,
  overdrawn: "fee" | "transfer" | "none",
  large?: number,
): {
  txns: Txn[];
  codes: string[];
} {
  const s = start.slice(5, 7);
  const e = end.slice(5, 7);
  const entries: Array<[string, Txn]> = [
    ["DEP", { date: `${s}/19`, description: "DEPOSIT - TELLER 04", amount: 1_950 }],
    ["CK", { date: `${s}/22`, description: "CHECK 2214", amount: -1_400 }],
    ["WD", { date: `${s}/28`, description: "ATM WITHDRAWAL MAIN ST KEENE", amount: -200 }],
    ["CK", { date: `${e}/02`, description: "CHECK 2215 RENT", amount: -1_150 }],
  ];
  if (overdrawn === "fee") {
    entries.push(["SC", { date: `${e}/03`, description: "SERVICE CHARGE - OVERDRAWN ACCOUNT", amount: -30 }]);
  }
  if (overdrawn === "transfer") {
    entries.push(["XFR", { date: `${e}/03`, description: "OVERDRAFT TRANSFER FROM SAVINGS", amount: 300 }]);
  }
  entries.push(
    ["DEP", { date: `${e}/05`, description: "DEPOSIT - PAYROLL KEENE MILLWORKS", amount: 1_950 }],
    ["SC", { date: `${e}/06`, description: "SERVICE CHARGE - MONTHLY MAINTENANCE", amount: -5 }],
  );
  if (large) entries.push(["DEP", { date: `${e}/08`, description: "DEPOSIT - TELLER 02", amount: large }]);
  entries.push(["INT", { date: `${e}/14`, description: "INTEREST PAID", amount: 0.41 }]);
  return { txns: entries.map(([, txn]) => txn), codes: entries.map(([code]) => code) };
}

export async function passbookCases(): Promise<LabelledCase[]> {
  const layout = "savings-bank-passbook-ledger";
  const holder = ["JOHN A SMITH JR", "17 MILL POND RD", "KEENE NH 03431"];
  const doc = async (
    key: string,
    start: string,
    end: string,
    who: string[],
    account: string,
    overdrawn: "fee" | "transfer" | "none",
    opening: number,
    large?: number,
  ): Promise<SampleDocument> => ({
    key: `rm-conditions/holdout-2/${key}`,
    bytes: await passbookStatement({
      start,
      end,
      holder: who,
      account,
      opening,
      ...passbookTxns(start, end, overdrawn, large),
    }),
    description: `Cobblestone ledger ${start}`,
  });
  const income = 7_200; // large above 3,600
  return [
    {
      layout,
      description: "two consecutive mid-month periods, overdraft covered by a transfer from savings",
      documents: [
        await doc(
          "cobblestone-2025-12.pdf",
          "2025-12-15",
          "2026-01-14",
          holder,
          "0077104321",
          "transfer",
          742.18,
        ),
        await doc(
          "cobblestone-2026-01.pdf",
          "2026-01-15",
          "2026-02-14",
          holder,
          "0077104321",
          "none",
          2_187.59,
        ),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-25"),
      labels: bsLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "a gap between periods, the spouse's account, an overdrawn-account service charge",
      documents: [
        await doc(
          "cobblestone-2025-11.pdf",
          "2025-11-15",
          "2025-12-14",
          ["MARY E SMITH", ...holder.slice(1)],
          "0077104321",
          "fee",
          742.18,
        ),
        await doc(
          "cobblestone-2026-01b.pdf",
          "2026-01-15",
          "2026-02-14",
          ["MARY E SMITH", ...holder.slice(1)],
          "0077104321",
          "none",
          1_604.22,
        ),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-25"),
      labels: bsLabels(["not_fulfilled", "not_fulfilled", "fulfilled", "not_fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "consecutive periods of two accounts, a large teller deposit, an overdrawn charge",
      documents: [
        await doc(
          "cobblestone-2025-12c.pdf",
          "2025-12-15",
          "2026-01-14",
          holder,
          "0077104321",
          "fee",
          742.18,
        ),
        await doc(
          "cobblestone-2026-01c.pdf",
          "2026-01-15",
          "2026-02-14",
          holder,
          "0077109050",
          "none",
          1_318.65,
          6_400,
        ),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-25"),
      labels: bsLabels(["fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
  ];
}
