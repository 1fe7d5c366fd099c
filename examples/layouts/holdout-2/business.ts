// Second held-out bank layout 3: a business bank's relationship summary and per-account detail
// pages; and its cases.
import { type Item, LETTER, type SampleDocument } from "../../samples.ts";
import type { LabelledCase } from "../cases.ts";
import { amount, bankMetadata, bsLabels, type Page, render, signed } from "./pages.ts";
import { type Txn, usDate, withBalances } from "./statement.ts";

interface BusinessAccount {
  name: string;
  number: string;
  opening: number;
  txns: Txn[];
}

/** Business banking: a relationship summary page, then one detail page per account. */
async function businessStatement(spec: {
  start: string;
  end: string;
  holder: string[];
  signer?: string;
  accounts: BusinessAccount[];
}): Promise<Uint8Array> {
  const period = `${usDate(spec.start)} - ${usDate(spec.end)}`;
  const summary: Item[] = [
    { text: "Granite Commerce Bank", x: 36, y: 754, size: 15 },
    { text: "Business Banking", x: 576, y: 756, size: 9, right: true },
    { text: "Relationship Statement", x: 576, y: 742, size: 9, right: true },
    { text: "Statement Period", x: 400, y: 716, size: 7 },
    { text: period, x: 470, y: 716, size: 8 },
    ...spec.holder.map((line, index) => ({ text: line, x: 54, y: 700 - index * 12, size: 9 })),
    { text: "Relationship Summary", x: 36, y: 620, size: 11 },
    { text: "Account", x: 36, y: 604, size: 7 },
    { text: "Number", x: 220, y: 604, size: 7 },
    { text: "Beginning Balance", x: 440, y: 604, size: 7, right: true },
    { text: "Ending Balance", x: 560, y: 604, size: 7, right: true },
  ];
  let y = 590;
  let total = 0;
  const finals: number[] = [];
  for (const account of spec.accounts) {
    const rows = withBalances({
      ...account,
      start: spec.start,
      end: spec.end,
      holder: [],
      account: account.number,
    });
    const closing = rows.at(-1)?.balance ?? account.opening;
    finals.push(closing);
    total += closing;
    summary.push(
      { text: account.name, x: 36, y, size: 8 },
      { text: account.number, x: 220, y, size: 8 },
      { text: signed(account.opening), x: 440, y, size: 8, right: true },
      { text: signed(closing), x: 560, y, size: 8, right: true },
    );
    y -= 13;
  }
  summary.push(
    { text: "Total Relationship Balance", x: 36, y: y - 4, size: 8 },
    { text: signed(total), x: 560, y: y - 4, size: 8, right: true },
    {
      text: "Overdraft and returned item fees are listed under Fees for each account. Ask about overdraft",
      x: 36,
      y: 120,
      size: 6,
    },
    {
      text: "protection: link your Business Money Market to cover overdrafts automatically.",
      x: 36,
      y: 112,
      size: 6,
    },
    { text: "Page 1", x: 576, y: 30, size: 7, right: true },
  );
  const pages: Page[] = [{ size: LETTER, items: summary }];
  spec.accounts.forEach((account, index) => {
    const rows = withBalances({
      ...account,
      start: spec.start,
      end: spec.end,
      holder: [],
      account: account.number,
    });
    const credits = rows.filter((row) => row.amount > 0);
    const fees = rows.filter((row) => row.amount < 0 && /CHARGE|FEE/.test(row.description));
    const debits = rows.filter((row) => row.amount < 0 && !fees.includes(row));
    const items: Item[] = [
      { text: `Granite Commerce Bank   ${period}`, x: 36, y: 760, size: 8 },
      { text: account.name, x: 36, y: 736, size: 11 },
      { text: `Account number: ${account.number}`, x: 360, y: 736, size: 9 },
      ...(spec.signer ? [{ text: `Authorized Signer: ${spec.signer}`, x: 360, y: 722, size: 8 }] : []),
      { text: "Beginning balance", x: 36, y: 712, size: 8 },
      { text: signed(account.opening), x: 200, y: 712, size: 8, right: true },
      { text: "Ending balance", x: 220, y: 712, size: 8 },
      { text: signed(finals[index] ?? 0), x: 340, y: 712, size: 8, right: true },
    ];
    let line = 690;
    const section = (title: string, entries: Array<Txn & { balance: number }>, totalLabel: string) => {
      items.push({ text: title, x: 36, y: line, size: 9 });
      line -= 13;
      items.push(
        { text: "Date", x: 36, y: line, size: 7 },
        { text: "Description", x: 80, y: line, size: 7 },
        { text: "Amount", x: 560, y: line, size: 7, right: true },
      );
      line -= 12;
      for (const entry of entries) {
        items.push(
          { text: entry.date, x: 36, y: line, size: 8 },
          { text: entry.description, x: 80, y: line, size: 8 },
          { text: amount(entry.amount), x: 560, y: line, size: 8, right: true },
        );
        line -= 11;
        if (entry.more) {
          items.push({ text: entry.more, x: 80, y: line, size: 7 });
          line -= 11;
        }
      }
      const value = entries.reduce((s, e) => s + Math.abs(e.amount), 0);
      items.push(
        { text: totalLabel, x: 80, y: line, size: 8 },
        { text: `$${amount(value)}`, x: 560, y: line, size: 8, right: true },
      );
      line -= 20;
    };
    section("Deposits and Other Credits", credits, "Total deposits and other credits");
    section("Withdrawals and Other Debits", debits, "Total withdrawals and other debits");
    section("Fees", fees, "Total fees");
    items.push({ text: "Daily Ending Balance", x: 36, y: line, size: 9 });
    line -= 13;
    const byDate = new Map<string, number>();
    for (const row of rows) byDate.set(row.date, row.balance);
    let column = 0;
    for (const [date, balance] of byDate) {
      items.push(
        { text: date, x: 36 + column * 180, y: line, size: 8 },
        { text: signed(balance), x: 170 + column * 180, y: line, size: 8, right: true },
      );
      column += 1;
      if (column === 3) {
        column = 0;
        line -= 11;
      }
    }
    items.push({ text: `Page ${index + 2}`, x: 576, y: 30, size: 7, right: true });
    pages.push({ size: LETTER, items });
  });
  return render(`Granite Commerce ${spec.start}`, pages);
}

function operatingTxns(month: string, extra: Txn[]): Txn[] {
  return [
    { date: `${month}/03`, description: "DEPOSIT", amount: 3_120.5 },
    {
      date: `${month}/04`,
      description: "ACH CREDIT SQUARE INC",
      amount: 1_884.12,
      more: `SETTLEMENT ${month}04 ID 8812330`,
    },
    { date: `${month}/08`, description: "ACH DEBIT ME REVENUE SVCS SALES TAX", amount: -1_402.33 },
    { date: `${month}/10`, description: "CHECK 5521", amount: -1_380 },
    { date: `${month}/11`, description: "PAYROLL ADP WAGE PAY", amount: -3_966.7 },
    {
      date: `${month}/15`,
      description: "ACH CREDIT SQUARE INC",
      amount: 2_215.4,
      more: `SETTLEMENT ${month}15 ID 8812331`,
    },
    ...extra,
    { date: `${month}/24`, description: "DEPOSIT", amount: 2_760 },
  ];
}

export async function businessCases(): Promise<LabelledCase[]> {
  const layout = "business-summary-and-detail";
  const dba = ["JOHN A SMITH JR DBA SMITH MARINE SUPPLY", "PO BOX 220", "BAR HARBOR ME 04609"];
  const llc = ["SMITH MARINE SUPPLY LLC", "PO BOX 220", "BAR HARBOR ME 04609"];
  const moneyMarket = (month: string, number: string, transfer: boolean): BusinessAccount => ({
    name: "Business Money Market",
    number,
    opening: 25_000,
    txns: [
      ...(transfer
        ? [{ date: `${month}/18`, description: "OVERDRAFT TRANSFER TO CHECKING", amount: -500 }]
        : []),
      { date: `${month}/28`, description: "INTEREST PAYMENT", amount: 31.2 },
    ],
  });
  const doc = async (
    key: string,
    start: string,
    end: string,
    holder: string[],
    accounts: BusinessAccount[],
    signer?: string,
  ): Promise<SampleDocument> => ({
    key: `rm-conditions/holdout-2/${key}`,
    bytes: await businessStatement({ start, end, holder, accounts, ...(signer ? { signer } : {}) }),
    description: `Granite Commerce relationship statement ${start}`,
  });
  const income = 12_000; // large above 6,000
  const overdrawnByTransfer: Txn[] = [
    { date: "12/17", description: "CHECK 5524 HARBOR FUEL", amount: -4_700 },
    {
      date: "12/18",
      description: "OVERDRAFT TRANSFER FROM SAVINGS",
      amount: 500,
      more: "FROM BUSINESS MONEY MARKET ******8765",
    },
    { date: "12/22", description: "FEE REFUND - COURTESY", amount: 35 },
  ];
  return [
    {
      layout,
      description:
        "sole proprietor DBA, Dec and Jan, overdraft covered from the money market, a courtesy refund",
      documents: [
        await doc("granite-2025-12.pdf", "2025-12-01", "2025-12-31", dba, [
          {
            name: "Business Checking Plus",
            number: "******4321",
            opening: 3_820.14,
            txns: operatingTxns("12", overdrawnByTransfer),
          },
          moneyMarket("12", "******8765", true),
        ]),
        await doc("granite-2026-01.pdf", "2026-01-01", "2026-01-31", dba, [
          {
            name: "Business Checking Plus",
            number: "******4321",
            opening: 2_886.13,
            txns: operatingTxns("01", []),
          },
          moneyMarket("01", "******8765", false),
        ]),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout,
      description:
        "the LLC's account with the borrower as authorized signer, statements too old, extended overdraft charge",
      documents: [
        await doc(
          "granite-llc-2025-12.pdf",
          "2025-12-01",
          "2025-12-31",
          llc,
          [
            {
              name: "Business Checking Plus",
              number: "******4321",
              opening: 3_820.14,
              txns: operatingTxns("12", [
                { date: "12/17", description: "CHECK 5524 HARBOR FUEL", amount: -5_100 },
                { date: "12/22", description: "EXTENDED OVERDRAFT CHARGE", amount: -35 },
              ]),
            },
            moneyMarket("12", "******8765", false),
          ],
          "JOHN A SMITH JR",
        ),
        await doc(
          "granite-llc-2026-01.pdf",
          "2026-01-01",
          "2026-01-31",
          llc,
          [
            {
              name: "Business Checking Plus",
              number: "******4321",
              opening: 1_916.13,
              txns: operatingTxns("01", []),
            },
            moneyMarket("01", "******8765", false),
          ],
          "JOHN A SMITH JR",
        ),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-05-20"),
      labels: bsLabels(["not_fulfilled", "not_fulfilled", "fulfilled", "not_fulfilled", "fulfilled"]),
    },
    {
      layout,
      description: "DBA, January from another relationship, a large wire, a return item chargeback fee",
      documents: [
        await doc("granite-2025-12d.pdf", "2025-12-01", "2025-12-31", dba, [
          {
            name: "Business Checking Plus",
            number: "******4321",
            opening: 3_820.14,
            txns: operatingTxns("12", [
              {
                date: "12/19",
                description: "INCOMING WIRE TRANSFER",
                amount: 18_500,
                more: "ORIG PENOBSCOT BOAT WORKS REF 0044187",
              },
            ]),
          },
          moneyMarket("12", "******8765", false),
        ]),
        await doc("granite-2026-01d.pdf", "2026-01-01", "2026-01-31", dba, [
          {
            name: "Business Checking Plus",
            number: "******5502",
            opening: 2_410,
            txns: operatingTxns("01", [
              { date: "01/20", description: "RETURN ITEM CHARGEBACK FEE", amount: -12 },
            ]),
          },
          moneyMarket("01", "******6610", false),
        ]),
      ],
      metadata: bankMetadata("John Smith Jr.", income, "2026-02-20"),
      labels: bsLabels(["fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
  ];
}
