// Held-out bank statement 2: a bilingual credit union's, with share sub-accounts; and its cases.
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
 * A credit union's statement with Spanish/English headings: savings (share 00) and share draft
 * checking (share 10) of one membership, "Account ending 4321", withdrawals and deposits in
 * separate columns, a Courtesy Pay fee schedule in the disclosures.
 */
async function creditUnion(statement: Statement): Promise<Uint8Array> {
  const period = `${usDate(statement.start)} - ${usDate(statement.end)}`;
  const writer = new RowWriter((page) => {
    page.items.push(
      {
        text: `${statement.holders[0]}  -  Cuenta terminada en / Account ending ${statement.account}`,
        x: 40,
        y: 760,
        size: 7,
      },
      { text: `Período / Period ${period}`, x: 400, y: 760, size: 7 },
    );
    return 730;
  });
  const first: BankPage = { items: [] };
  first.items.push(
    { text: "Valle Community Credit Union", x: 40, y: 756, size: 13 },
    { text: "Cooperativa de Ahorro y Crédito del Valle", x: 40, y: 744, size: 8 },
    { text: "PO Box 4410, Yakima, WA 98909  -  509-555-0170", x: 40, y: 734, size: 7 },
    { text: "Estado de cuenta / Account Statement", x: 360, y: 756, size: 10 },
    { text: `Período del estado / Statement Period: ${period}`, x: 360, y: 742, size: 7 },
    { text: `Cuenta terminada en / Account ending ${statement.account}`, x: 360, y: 732, size: 7 },
    { text: `Socio principal / Primary member: ${statement.holders[0]}`, x: 360, y: 722, size: 7 },
    ...statement.holders.map((name, index) => ({ text: name, x: 60, y: 690 - index * 10, size: 8 })),
    { text: "1457 ALDER CREST DR", x: 60, y: 690 - statement.holders.length * 10, size: 8 },
    { text: "SPOKANE WA 99203", x: 60, y: 680 - statement.holders.length * 10, size: 8 },
  );
  const shares = [
    { key: "savings" as const, title: "AHORROS / SHARE SAVINGS - ID 00", opening: 500 },
    {
      key: "draft" as const,
      title: "CHEQUES DE ACCIONES / SHARE DRAFT CHECKING - ID 10",
      opening: statement.opening,
    },
  ];
  const heads = [
    ["Cuenta / Account", 40, false],
    ["Saldo anterior / Previous balance", 300, true],
    ["Depósitos / Deposits", 390, true],
    ["Retiros / Withdrawals", 475, true],
    ["Saldo nuevo / New balance", 565, true],
  ] as const;
  first.items.push({ text: "Resumen / Summary", x: 40, y: 630, size: 9 });
  for (const [text, x, right] of heads) first.items.push({ text, x, y: 618, size: 6, right });
  shares.forEach((share, index) => {
    const entries = statement.entries.filter((entry) => (entry.share ?? "draft") === share.key);
    const y = 606 - index * 11;
    const closing = entries.reduce((total, entry) => total + entry.amount, share.opening);
    first.items.push(
      { text: share.key === "savings" ? "Share Savings 00" : "Share Draft 10", x: 40, y, size: 8 },
      { text: money(share.opening), x: 300, y, size: 8, right: true },
      { text: money(sum(entries, 1)), x: 390, y, size: 8, right: true },
      { text: money(sum(entries, -1)), x: 475, y, size: 8, right: true },
      { text: money(closing), x: 565, y, size: 8, right: true },
    );
  });
  writer.start(first, 570);
  for (const share of shares) {
    const entries = statement.entries.filter((entry) => (entry.share ?? "draft") === share.key);
    {
      const { page, y } = writer.row(28);
      page.items.push(
        { text: share.title, x: 40, y, size: 9 },
        { text: "Fecha / Date", x: 40, y: y - 13, size: 6 },
        { text: "Descripción / Description", x: 100, y: y - 13, size: 6 },
        { text: "Retiros / Withdrawals", x: 410, y: y - 13, size: 6, right: true },
        { text: "Depósitos / Deposits", x: 490, y: y - 13, size: 6, right: true },
        { text: "Saldo / Balance", x: 565, y: y - 13, size: 6, right: true },
      );
    }
    let balance = share.opening;
    {
      const { page, y } = writer.row(11);
      page.items.push(
        { text: "Saldo anterior / Previous balance", x: 100, y, size: 8 },
        { text: money(balance), x: 565, y, size: 8, right: true },
      );
    }
    for (const entry of entries) {
      balance += entry.amount;
      const { page, y } = writer.row(10 * entry.description.length + 1);
      page.items.push(
        { text: monthDay(entry.date), x: 40, y, size: 8 },
        ...entry.description.map((text, index) => ({ text, x: 100, y: y - index * 10, size: 8 })),
        { text: money(entry.amount), x: entry.amount < 0 ? 410 : 490, y, size: 8, right: true },
        { text: money(balance), x: 565, y, size: 8, right: true },
      );
    }
    {
      const { page, y } = writer.row(20);
      page.items.push(
        { text: "Saldo nuevo / New balance", x: 100, y, size: 8 },
        { text: money(balance), x: 565, y, size: 8, right: true },
      );
    }
  }
  const overdraft = sum(
    statement.entries.filter((entry) => entry.kind === "fee"),
    -1,
  );
  {
    const { page, y } = writer.row(70);
    page.items.push(
      {
        text: "Total de cargos por sobregiro y artículos devueltos / Total overdraft and returned item fees",
        x: 40,
        y,
        size: 7,
      },
      { text: "Este período / This period", x: 40, y: y - 11, size: 7 },
      { text: `$${money(overdraft)}`, x: 200, y: y - 11, size: 7, right: true },
      { text: "En el año / Year-to-date", x: 260, y: y - 11, size: 7 },
      { text: `$${money(overdraft)}`, x: 420, y: y - 11, size: 7, right: true },
      {
        text: "Courtesy Pay / Pago de cortesía: we may pay items that overdraw your share draft account. A $29.00 fee",
        x: 40,
        y: y - 30,
        size: 6,
      },
      {
        text: "applies per item paid or returned; see the Fee Schedule. / Se aplica un cargo de $29.00 por artículo.",
        x: 40,
        y: y - 38,
        size: 6,
      },
    );
  }
  return renderPages(writer.pages, "Estado de cuenta / Account statement");
}

export async function creditUnionCases(): Promise<LabelledCase[]> {
  const JOINT = ["JOHN A SMITH JR", "MARIA L SMITH"];
  const month = (
    start: Day,
    end: Day,
    extras: Extra[] = [],
    holders = JOINT,
    account = "4321",
  ): Statement => ({
    holders,
    account,
    start,
    end,
    opening: 1320.4,
    entries: activity("union", start, extras),
  });
  const jan = [day(2026, 1, 1), day(2026, 1, 31)] as const;
  const feb = [day(2026, 2, 1), day(2026, 2, 28)] as const;
  const protection: Extra[] = [
    {
      date: day(2026, 2, 6),
      description: ["OVERDRAFT PROTECTION TRANSFER FROM SAV", "TRANSFERENCIA DE PROTECCION DE SOBREGIRO"],
      amount: 150,
    },
    {
      date: day(2026, 2, 6),
      description: ["OVERDRAFT PROTECTION TRANSFER TO DRAFT 10"],
      amount: -150,
      share: "savings",
    },
  ];
  const odFee: Extra = {
    date: day(2026, 2, 6),
    description: ["OD ITEM FEE  SHARE DRAFT #2304", "CARGO POR SOBREGIRO"],
    amount: -29,
    kind: "fee",
  };
  const branchDeposit: Extra = {
    date: day(2026, 1, 12),
    description: ["DEPOSITO EN SUCURSAL / BRANCH DEPOSIT"],
    amount: 3600,
  };
  return bankCases("holdout-credit-union-bilingual", creditUnion, [
    {
      description:
        "joint members, share savings and share drafts, an overdraft protection transfer without a fee",
      asOf: "2026-03-25",
      statements: [month(...jan), month(...feb, protection)],
      labels: bankLabels({}),
    },
    {
      description: "an OD ITEM FEE on a share draft and a 3,600 branch deposit",
      asOf: "2026-03-25",
      statements: [month(...jan, [branchDeposit]), month(...feb, [odFee])],
      labels: bankLabels({ BS_NO_NSF: "not_fulfilled", BS_LARGE_DEPOSITS: "not_fulfilled" }),
    },
    {
      description: "the February statement is of another membership, ending 7790",
      asOf: "2026-03-25",
      statements: [month(...jan), month(...feb, [], JOINT, "7790")],
      labels: bankLabels({ BS_SAME_ACCOUNT: "not_fulfilled" }),
    },
    {
      description: "statements of MARIA L SMITH alone",
      asOf: "2026-03-25",
      statements: [month(...jan, [], ["MARIA L SMITH"]), month(...feb, [], ["MARIA L SMITH"])],
      labels: bankLabels({ BS_NAME_MATCH: "not_fulfilled" }),
    },
    {
      description: "only the February statement",
      asOf: "2026-03-25",
      statements: [month(...feb)],
      labels: bankLabels({ BS_TWO_MONTHS: "not_fulfilled" }, ["BS_SAME_ACCOUNT"]),
    },
  ]);
}
