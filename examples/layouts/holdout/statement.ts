// What the held-out bank statements share: entries, pages, a month's activity, and their cases'
// labels and metadata.
import { drawItems, type Item, LETTER, type SampleDocument, save } from "../../samples.ts";
import type { Label, LabelledCase } from "../cases.ts";
import { addDays, type Day, monthDay, openDocument, usDate } from "./drawing.ts";

interface Entry {
  date: Day;
  /** One or more lines; descriptions that do not fit wrap onto the next line. */
  description: string[];
  /** Positive for money in, negative for money out. */
  amount: number;
  /** The fintech layout's transaction type column. */
  kind?: string;
  /** The credit union's sub-account: savings (share 00) or share draft checking (share 10). */
  share?: "savings" | "draft";
}

export interface Statement {
  holders: string[];
  account: string;
  start: Day;
  end: Day;
  opening: number;
  entries: Entry[];
}

export interface BankPage {
  items: Item[];
}

/** Lays rows top-down, starting a new page (with the layout's continuation header) when one fills. */
export class RowWriter {
  readonly pages: BankPage[] = [];
  private y = 0;

  constructor(
    private readonly continuation: (page: BankPage) => number,
    private readonly bottom = 90,
  ) {}

  start(page: BankPage, y: number): void {
    this.pages.push(page);
    this.y = y;
  }

  /** Reserves `height` points and returns the y of the row's first line. */
  row(height: number): { page: BankPage; y: number } {
    if (this.y - height < this.bottom) {
      const page: BankPage = { items: [] };
      this.pages.push(page);
      this.y = this.continuation(page);
    }
    const y = this.y;
    this.y -= height;
    return { page: this.current(), y };
  }

  current(): BankPage {
    const page = this.pages.at(-1);
    if (!page) throw new Error("RowWriter.row called before start");
    return page;
  }
}

export async function renderPages(pages: BankPage[], title: string): Promise<Uint8Array> {
  const { pdf, fonts } = await openDocument(title);
  pages.forEach((bankPage, index) => {
    const page = pdf.addPage(LETTER);
    drawItems(page, fonts.body, [
      ...bankPage.items,
      { text: `Page ${index + 1} of ${pages.length}`, x: 560, y: 30, size: 7, right: true },
    ]);
  });
  return save(pdf);
}

export function sum(entries: Entry[], sign: 1 | -1): number {
  return entries
    .filter((entry) => Math.sign(entry.amount) === sign)
    .reduce((total, e) => total + e.amount, 0);
}

export type Extra = Entry;

/** A month of ordinary activity for one layout, plus the case's extra lines, in date order. */
export function activity(
  style: "national" | "union" | "fintech",
  start: Day,
  extras: Extra[],
  holder = "John A Smith Jr",
): Entry[] {
  const at = (days: number) => addDays(start, days);
  const base: Entry[] =
    style === "national"
      ? [
          {
            date: at(4),
            description: [
              "Orig CO Name:Harbor Roofing Co Orig ID:9101234567 Desc Date:Payroll",
              `CO Entry Descr:Payroll Sec:PPD Trace#:021000021234567 Ind Name:${holder}`,
            ],
            amount: 2650,
          },
          { date: at(6), description: ["Check # 1041"], amount: -2950, kind: "check" },
          {
            date: at(9),
            description: [
              `Card Purchase With Pin ${monthDay(at(9))} Fred-Meyer #0214 Spokane WA`,
              "Card 7781",
            ],
            amount: -184.32,
          },
          { date: at(12), description: ["Avista Utilities Web Pmt PPD ID: 5910012345"], amount: -142.77 },
          {
            date: at(18),
            description: [
              "Orig CO Name:Harbor Roofing Co Orig ID:9101234567 Desc Date:Payroll",
              `CO Entry Descr:Payroll Sec:PPD Trace#:021000028765432 Ind Name:${holder}`,
            ],
            amount: 2650,
          },
          { date: at(21), description: ["Zelle Payment To Kevin Lund Jpm99b8xk2"], amount: -300 },
          { date: at(25), description: ["Monthly Service Fee"], amount: -12, kind: "service" },
        ]
      : style === "union"
        ? [
            { date: at(2), description: ["ACH DEP WAVERLY ORCHARDS PAYROLL"], amount: 2480 },
            { date: at(5), description: ["SHARE DRAFT #2291"], amount: -1875 },
            { date: at(9), description: ["POS DEBIT SAFEWAY #1490 YAKIMA WA"], amount: -96.41 },
            { date: at(16), description: ["ACH DEP WAVERLY ORCHARDS PAYROLL"], amount: 2480 },
            { date: at(19), description: ["SHARE DRAFT #2292"], amount: -640 },
            { date: at(22), description: ["ACH DEBIT PACIFIC POWER UTIL PMT"], amount: -118.3 },
            { date: at(27), description: ["DIVIDEND / DIVIDENDO"], amount: 0.21, share: "savings" },
          ]
        : [
            { date: at(1), description: ["Gusto payroll · HARBOR ROOFING CO"], amount: 2680, kind: "ACH in" },
            { date: at(3), description: ["Rent · Cedar Property Mgmt"], amount: -1650, kind: "ACH out" },
            { date: at(8), description: ["Trader Joe's #142"], amount: -88.19, kind: "Card" },
            {
              date: at(15),
              description: ["Gusto payroll · HARBOR ROOFING CO"],
              amount: 2680,
              kind: "ACH in",
            },
            { date: at(17), description: ["Round-up to Savings"], amount: -6.4, kind: "Transfer" },
            { date: at(22), description: ["Verizon Wireless"], amount: -91.5, kind: "Card" },
            { date: at(27), description: ["Interest paid"], amount: 0.84, kind: "Interest" },
          ];
  return [...base, ...extras].sort(
    (a, b) => Date.UTC(a.date.y, a.date.m - 1, a.date.d) - Date.UTC(b.date.y, b.date.m - 1, b.date.d),
  );
}

const BORROWER = { name: "John Smith Jr.", monthly_income: 6000 };

function bankMetadata(asOf: string, borrower: Record<string, unknown> = BORROWER): Record<string, unknown> {
  return {
    loan_program: "Flex Supreme",
    classification: "Bank Statements",
    as_of_date: asOf,
    borrower_info: borrower,
  };
}

export function bankLabels(
  overrides: Partial<Record<string, Label>>,
  omit: string[] = [],
): Record<string, Label> {
  const labels: Record<string, Label> = {
    BS_TWO_MONTHS: "fulfilled",
    BS_NAME_MATCH: "fulfilled",
    BS_SAME_ACCOUNT: "fulfilled",
    BS_NO_NSF: "fulfilled",
    BS_LARGE_DEPOSITS: "fulfilled",
  };
  for (const [id, label] of Object.entries(overrides)) if (label) labels[id] = label;
  for (const id of omit) delete labels[id];
  return labels;
}

interface BankCase {
  description: string;
  asOf: string;
  statements: Statement[];
  labels: Record<string, Label>;
}

export async function bankCases(
  layout: string,
  render: (statement: Statement) => Promise<Uint8Array>,
  cases: BankCase[],
): Promise<LabelledCase[]> {
  return Promise.all(
    cases.map(async (entry, caseIndex) => ({
      layout,
      description: entry.description,
      metadata: bankMetadata(entry.asOf),
      labels: entry.labels,
      documents: await Promise.all(
        entry.statements.map(
          async (statement, index): Promise<SampleDocument> => ({
            key: `holdout/${layout}/case-${caseIndex + 1}/statement-${index + 1}.pdf`,
            bytes: await render(statement),
            description: `${layout}: ${usDate(statement.start)} - ${usDate(statement.end)}`,
          }),
        ),
      ),
    })),
  );
}
