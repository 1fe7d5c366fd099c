// Held-out bank statement 1: a national bank's, with wrapped descriptions and a running balance; and
// its cases.
import type { Item } from "../../samples.ts";
import type { LabelledCase } from "../cases.ts";
import { type Day, day, money, monthDay, usDate } from "./drawing.ts";
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
 * A national bank's checking statement: "Statement Period 12/15/2025 to 01/14/2026" and the primary
 * account beside the bank's name, a checking summary with Previous/New balance and total service
 * charges, one signed amount column with a running balance, descriptions wrapping onto a second
 * line, and the overdraft and returned-item fee totals table at the end.
 */
async function nationalBank(statement: Statement): Promise<Uint8Array> {
  const periodText = `Statement Period ${usDate(statement.start)} to ${usDate(statement.end)}`;
  const writer = new RowWriter((page) => {
    page.items.push(
      { text: periodText, x: 40, y: 760, size: 8 },
      { text: `Primary Account: ${statement.account}`, x: 380, y: 760, size: 8 },
      { text: "TRANSACTION DETAIL (continued)", x: 40, y: 736, size: 9 },
      ...columnHeads(720),
    );
    return 706;
  });
  function columnHeads(y: number): Item[] {
    return [
      { text: "DATE", x: 40, y, size: 7 },
      { text: "DESCRIPTION", x: 82, y, size: 7 },
      { text: "AMOUNT", x: 470, y, size: 7, right: true },
      { text: "BALANCE", x: 560, y, size: 7, right: true },
    ];
  }
  const first: BankPage = { items: [] };
  const fees = statement.entries.filter((entry) => entry.kind === "fee" || entry.kind === "service");
  const deposits = sum(statement.entries, 1);
  const withdrawals = statement.entries.filter((entry) => entry.amount < 0 && entry.kind !== "fee");
  const closing = statement.entries.reduce((balance, entry) => balance + entry.amount, statement.opening);
  first.items.push(
    { text: "CASCADIA NATIONAL BANK", x: 40, y: 756, size: 13 },
    { text: "P O Box 182051", x: 40, y: 742, size: 7 },
    { text: "Columbus, OH 43218-2051", x: 40, y: 733, size: 7 },
    { text: periodText, x: 360, y: 756, size: 8 },
    { text: `Primary Account: ${statement.account}`, x: 360, y: 744, size: 8 },
    { text: "00014592 DRE 703 219 04826 NNNNNNNNNNN   1 000000000 64 0000", x: 40, y: 700, size: 5 },
    ...statement.holders.map((name, index) => ({ text: name, x: 40, y: 688 - index * 10, size: 8 })),
    { text: "1457 ALDER CREST DR", x: 40, y: 688 - statement.holders.length * 10, size: 8 },
    { text: "SPOKANE WA 99203-4410", x: 40, y: 678 - statement.holders.length * 10, size: 8 },
    { text: "CUSTOMER SERVICE INFORMATION", x: 360, y: 712, size: 7 },
    { text: "Web site:        cascadianational.com", x: 360, y: 702, size: 7 },
    { text: "Service Center:  1-800-555-0142", x: 360, y: 693, size: 7 },
    { text: "Para Espanol:    1-888-555-0199", x: 360, y: 684, size: 7 },
    { text: "International Calls:  1-713-555-0120", x: 360, y: 675, size: 7 },
    { text: "CHECKING SUMMARY", x: 40, y: 640, size: 9 },
    { text: "Total Checking", x: 160, y: 640, size: 8 },
    { text: "INSTANCES", x: 380, y: 628, size: 6, right: true },
    { text: "AMOUNT", x: 470, y: 628, size: 6, right: true },
  );
  const summary: Array<[string, string, string]> = [
    ["Previous Balance", "", `$${money(statement.opening)}`],
    ["Deposits and Additions", String(statement.entries.filter((e) => e.amount > 0).length), money(deposits)],
    ["Electronic Withdrawals", String(withdrawals.length), `-${money(sum(withdrawals, -1))}`],
    ["Total service charges", String(fees.length), fees.length ? `-${money(sum(fees, -1))}` : "0.00"],
    ["New Balance", "", `$${money(closing)}`],
  ];
  summary.forEach(([label, count, amount], index) => {
    const y = 616 - index * 11;
    first.items.push({ text: label, x: 40, y, size: 8 });
    if (count) first.items.push({ text: count, x: 380, y, size: 8, right: true });
    first.items.push({ text: amount, x: 470, y, size: 8, right: true });
  });
  first.items.push({ text: "TRANSACTION DETAIL", x: 40, y: 540, size: 9 }, ...columnHeads(526));
  writer.start(first, 512);
  let balance = statement.opening;
  {
    const { page, y } = writer.row(11);
    page.items.push(
      { text: "Beginning Balance", x: 82, y, size: 8 },
      { text: `$${money(balance)}`, x: 560, y, size: 8, right: true },
    );
  }
  for (const entry of statement.entries) {
    balance += entry.amount;
    const { page, y } = writer.row(11 * entry.description.length + 2);
    page.items.push(
      { text: monthDay(entry.date), x: 40, y, size: 8 },
      { text: `${entry.amount < 0 ? "-" : ""}${money(entry.amount)}`, x: 470, y, size: 8, right: true },
      { text: money(balance), x: 560, y, size: 8, right: true },
      ...entry.description.map((text, index) => ({ text, x: 82, y: y - index * 10, size: 8 })),
    );
  }
  {
    const { page, y } = writer.row(30);
    page.items.push(
      { text: "Ending Balance", x: 82, y, size: 8 },
      { text: `$${money(balance)}`, x: 560, y, size: 8, right: true },
    );
  }
  const returnedItemFees = sum(
    fees.filter((fee) => /returned|insufficient|nsf/i.test(fee.description.join(" "))),
    -1,
  );
  const overdraftFees = sum(
    fees.filter((fee) => /overdraft|od item/i.test(fee.description.join(" "))),
    -1,
  );
  {
    const { page, y } = writer.row(60);
    page.items.push(
      { text: "OVERDRAFT AND RETURNED ITEM FEE SUMMARY", x: 40, y, size: 8 },
      { text: "Total for This Period", x: 390, y: y - 12, size: 7, right: true },
      { text: "Total Year-to-Date", x: 500, y: y - 12, size: 7, right: true },
      { text: "Total Overdraft Fees", x: 40, y: y - 24, size: 8 },
      { text: `$${money(overdraftFees)}`, x: 390, y: y - 24, size: 8, right: true },
      { text: `$${money(overdraftFees)}`, x: 500, y: y - 24, size: 8, right: true },
      { text: "Total Returned Item Fees", x: 40, y: y - 35, size: 8 },
      { text: `$${money(returnedItemFees)}`, x: 390, y: y - 35, size: 8, right: true },
      { text: `$${money(returnedItemFees)}`, x: 500, y: y - 35, size: 8, right: true },
    );
  }
  return renderPages(writer.pages, "Checking statement");
}

export async function nationalBankCases(): Promise<LabelledCase[]> {
  const JOHN = ["JOHN A SMITH JR"];
  const ACCOUNT = "000123454321";
  const month = (
    start: Day,
    end: Day,
    extras: Extra[] = [],
    holders = JOHN,
    account = ACCOUNT,
  ): Statement => ({
    holders,
    account,
    start,
    end,
    opening: 4210.55,
    entries: activity("national", start, extras, holders[0]),
  });
  const dec = [day(2025, 12, 15), day(2026, 1, 14)] as const;
  const jan = [day(2026, 1, 15), day(2026, 2, 14)] as const;
  const oct = [day(2025, 10, 15), day(2025, 11, 14)] as const;
  const wire: Extra = {
    date: day(2025, 12, 29),
    description: [
      "Fedwire Credit Via: Pacific Premier Bank/122238200 B/O: Smith Family Trust Spokane WA",
      "Ref: Chase Nyc/Ctr/Bnf=John A Smith Jr Imad: 1229Mmqfmp9G000456 Trn: 3311408363Ff",
    ],
    amount: 12500,
  };
  const nsf: Extra = {
    date: day(2026, 2, 3),
    description: ["Insufficient Funds Fee For A $214.30 Item - Details: Check # 1043"],
    amount: -34,
    kind: "fee",
  };
  return bankCases("holdout-national-bank-running-balance", nationalBank, [
    {
      description:
        "two mid-month cycles, payroll wrapped over two lines, a monthly service fee, a large check",
      asOf: "2026-03-20",
      statements: [month(...dec), month(...jan)],
      labels: bankLabels({}),
    },
    {
      description: "a wrapped Fedwire credit of 12,500 and an 'Insufficient Funds Fee For A $214.30 Item'",
      asOf: "2026-03-20",
      statements: [month(...dec, [wire]), month(...jan, [nsf])],
      labels: bankLabels({ BS_NO_NSF: "not_fulfilled", BS_LARGE_DEPOSITS: "not_fulfilled" }),
    },
    {
      description: "the second statement is another primary account",
      asOf: "2026-03-20",
      statements: [month(...dec), month(...jan, [], JOHN, "000987658812")],
      labels: bankLabels({ BS_SAME_ACCOUNT: "not_fulfilled" }),
    },
    {
      description: "statements of JOHN A SMITH SR, the borrower's father",
      asOf: "2026-03-20",
      statements: [month(...dec, [], ["JOHN A SMITH SR"]), month(...jan, [], ["JOHN A SMITH SR"])],
      labels: bankLabels({ BS_NAME_MATCH: "not_fulfilled" }),
    },
    {
      description: "the 11/15 - 12/14 cycle is missing between the two statements",
      asOf: "2026-03-01",
      statements: [month(...oct), month(...dec)],
      labels: bankLabels({ BS_TWO_MONTHS: "not_fulfilled" }),
    },
  ]);
}
