// Bank statements in six layouts of our own design, none of them the sample bank's
// (`buildBankStatement`), each modelled on a kind of US statement the engine meets in loan files:
// a national retail bank, a credit union with sub-accounts, an online bank, a community bank, a
// business account and a bank with overdraft protection. Each layout carries the traps real
// statements have: fee schedules and disclosures that name NSF fees with amounts, "$0.00" fee
// totals and year-to-date tables, daily-balance tables, interest lines, check tables and images,
// promotional text with amounts, linked accounts, waived and refunded fees, large withdrawals.
//
// `bankStatementCases()` turns them into labelled loan files: every BS_ condition fulfilled and
// not fulfilled on every layout. The labels come from how each file is generated (which months,
// whose name, which account, which fee, which deposit), never from running the engine.
import type { SampleDocument } from "../samples.ts";
import { heartland } from "./bank-statements/heartland.ts";
import { keystone } from "./bank-statements/keystone.ts";
import { lakeshore } from "./bank-statements/lakeshore.ts";
import { meridian } from "./bank-statements/meridian.ts";
import { northwind } from "./bank-statements/northwind.ts";
import { prairie } from "./bank-statements/prairie.ts";
import {
  activity,
  addDays,
  BORROWER,
  BORROWER_ACCOUNT,
  cents,
  dollars,
  type EntryKind,
  iso,
  type Layout,
  MONTHLY_INCOME,
  nsfFees,
  OTHER_ACCOUNT,
  type Person,
  post,
  properName,
  STRANGER,
  STRANGER_CO_OWNER,
  type StatementSpec,
} from "./bank-statements/statement.ts";
import type { Label, LabelledCase } from "./cases.ts";

export const BANK_LAYOUTS: ReadonlyArray<Layout> = [
  keystone,
  heartland,
  northwind,
  prairie,
  meridian,
  lakeshore,
];

// ---------------------------------------------------------------- labelled cases

interface StatementVariant {
  /** Index into the layout's periods. */
  period: number;
  owner?: Person;
  jointOwner?: Person | null;
  last4?: string;
  fee?: boolean;
  largeDeposit?: boolean;
}

interface CaseSpec {
  slug: string;
  description: string;
  statements: StatementVariant[];
  labels: Record<string, Label>;
}

const ALL_FULFILLED: Record<string, Label> = {
  BS_TWO_MONTHS: "fulfilled",
  BS_NAME_MATCH: "fulfilled",
  BS_SAME_ACCOUNT: "fulfilled",
  BS_NO_NSF: "fulfilled",
  BS_LARGE_DEPOSITS: "fulfilled",
};

function caseSpecs(layout: Layout): CaseSpec[] {
  const traps = trapDescription(layout);
  return [
    {
      slug: "clean",
      description: `two consecutive statements of the borrower's account, no NSF fee (${traps}), no large deposit`,
      statements: [{ period: 1 }, { period: 2 }],
      labels: { ...ALL_FULFILLED },
    },
    {
      slug: "gap",
      description: "two statements with a month missing between them",
      statements: [{ period: 0 }, { period: 2 }],
      labels: { ...ALL_FULFILLED, BS_TWO_MONTHS: "not_fulfilled" },
    },
    {
      slug: "other-holder",
      description: `the second statement is held by ${properName(STRANGER)}`,
      statements: [
        { period: 1 },
        { period: 2, owner: STRANGER, jointOwner: layout.jointOwner ? STRANGER_CO_OWNER : null },
      ],
      labels: { ...ALL_FULFILLED, BS_NAME_MATCH: "not_fulfilled" },
    },
    {
      slug: "other-account",
      description: `the second statement is for another account (ending ${OTHER_ACCOUNT})`,
      statements: [{ period: 1 }, { period: 2, last4: OTHER_ACCOUNT }],
      labels: { ...ALL_FULFILLED, BS_SAME_ACCOUNT: "not_fulfilled" },
    },
    {
      slug: "nsf-fee",
      description: `an NSF fee in the second statement: ${quoteFee(layout)}`,
      statements: [{ period: 1 }, { period: 2, fee: true }],
      labels: { ...ALL_FULFILLED, BS_NO_NSF: "not_fulfilled" },
    },
    {
      slug: "large-deposit",
      description: `a deposit above 50% of the monthly income in the second statement: ${quoteDeposit(layout)}`,
      statements: [{ period: 1 }, { period: 2, largeDeposit: true }],
      labels: { ...ALL_FULFILLED, BS_LARGE_DEPOSITS: "not_fulfilled" },
    },
  ];
}

const FEE_LIKE: ReadonlySet<EntryKind> = new Set([
  "service_fee",
  "fee_charged_back",
  "fee_refund",
  "od_protection",
  "fee_waived_zero",
]);

function trapDescription(layout: Layout): string {
  const traps = layout.traps(layout.periods[0]?.start ?? { y: 2026, m: 1, d: 1 });
  const named = traps.filter((entry) => FEE_LIKE.has(entry.kind)).map((entry) => `"${entry.description}"`);
  return named.length > 0
    ? `only ${named.join(", ")} and $0.00 fee totals`
    : "only $0.00 fee totals and a fee schedule";
}

function quoteFee(layout: Layout): string {
  const fee = layout.fee({ y: 2026, m: 1, d: 1 });
  return `"${fee.description}" ${dollars(fee.amount)}`;
}

function quoteDeposit(layout: Layout): string {
  const deposit = layout.largeDeposit({ y: 2026, m: 1, d: 1 });
  return `"${deposit.description}" ${dollars(deposit.amount)}`;
}

/** The statements of one case: balances carried from period to period, as the bank would print them. */
async function buildCase(layout: Layout, spec: CaseSpec): Promise<SampleDocument[]> {
  const wanted = new Map(spec.statements.map((variant) => [variant.period, variant]));
  const last = Math.max(...spec.statements.map((variant) => variant.period));
  const documents: SampleDocument[] = [];
  let opening = 6102.44;
  let feesThisYear = 0;
  let year = layout.periods[0]?.end.y ?? 2026;
  for (let index = 0; index <= last; index++) {
    const period = layout.periods[index];
    if (!period) throw new Error(`layout ${layout.name} has no period ${index}`);
    const variant = wanted.get(index);
    const entries = [
      ...activity(period.start, index),
      ...layout.traps(period.start),
      ...(variant?.fee ? [layout.fee(period.start)] : []),
      ...(variant?.largeDeposit ? [layout.largeDeposit(period.start)] : []),
    ].map(layout.reword);
    if (period.end.y !== year) {
      year = period.end.y;
      feesThisYear = 0;
    }
    const statement: StatementSpec = {
      start: period.start,
      end: period.end,
      owner: variant?.owner ?? BORROWER,
      ...(variant?.jointOwner === null
        ? {}
        : variant?.jointOwner
          ? { jointOwner: variant.jointOwner }
          : layout.jointOwner
            ? { jointOwner: layout.jointOwner }
            : {}),
      last4: variant?.last4 ?? BORROWER_ACCOUNT,
      opening,
      entries,
      feesEarlierThisYear: feesThisYear,
    };
    opening = post(statement).closing;
    feesThisYear = cents(feesThisYear + nsfFees(entries));
    if (!variant) continue;
    documents.push({
      key: `layouts/${layout.name}/${spec.slug}/statement-${iso(period.end)}.pdf`,
      bytes: await layout.render(statement),
      description: `${layout.bank} statement ${iso(period.start)} to ${iso(period.end)}`,
    });
  }
  return documents;
}

/** Every BS_ condition both ways on every layout: 6 cases per layout, each labelling all five conditions. */
export async function bankStatementCases(): Promise<LabelledCase[]> {
  const cases: LabelledCase[] = [];
  for (const layout of BANK_LAYOUTS) {
    const latest = layout.periods[2]?.end;
    if (!latest) throw new Error(`layout ${layout.name} needs three periods`);
    for (const spec of caseSpecs(layout)) {
      cases.push({
        layout: layout.name,
        description: `${spec.slug}: ${spec.description}`,
        documents: await buildCase(layout, spec),
        metadata: {
          loan_program: "Flex Supreme",
          classification: "Bank Statements",
          // Three weeks after the latest period: recent enough for BS_TWO_MONTHS.
          as_of_date: iso(addDays(latest, 21)),
          borrower_info: { name: properName(BORROWER), monthly_income: MONTHLY_INCOME },
        },
        labels: spec.labels,
      });
    }
  }
  return cases;
}
