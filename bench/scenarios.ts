// Benchmark scenarios: loan files from one document and two tool calls to twelve documents and
// fifteen tool calls, built from the sample PDFs (examples/samples.ts) plus a year of generated
// monthly statements. Every scenario carries a unique `loan_id` so scripted responses can be told
// apart, and a deterministic injected latency per tool (50–500 ms, hashed from scenario and tool).
import {
  buildBankStatement,
  generateSampleDocuments,
  type SampleDocument,
  type StatementTransaction,
} from "../examples/samples.ts";
import type { Twin } from "../infra/local/twin.ts";
import type { EvaluationRequest } from "../lambdas/core/types.ts";

export interface Scenario {
  name: string;
  description: string;
  request: EvaluationRequest;
}

export const TOOLS = [
  "call_preconditions_api",
  "retrieve_s3_document",
  "call_conditions_ai_api",
  "query_database",
] as const;

const AS_OF = "2025-04-15";
const BORROWER = { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 };

function taxReturn(
  loanId: string,
  documents: string[],
  instructions: string,
  maxSteps = 16,
): EvaluationRequest {
  return {
    metadata: {
      loan_id: loanId,
      loan_program: "Flex Supreme",
      classification: "1120 Corporate Tax Return",
      as_of_date: AS_OF,
      borrower_info: BORROWER,
      extracted_entities: { ein: "12-3456789", tax_year: 2024 },
    },
    instructions,
    s3_pdf_paths: documents,
    options: { max_steps: maxSteps, parallel: true },
  };
}

function bankStatements(loanId: string, documents: string[], instructions: string): EvaluationRequest {
  return {
    metadata: {
      loan_id: loanId,
      loan_program: "Flex Supreme",
      classification: "Bank Statements",
      as_of_date: AS_OF,
      borrower_info: BORROWER,
    },
    instructions,
    s3_pdf_paths: documents,
    options: { max_steps: 16, parallel: true },
  };
}

const sample = (name: string) => `rm-conditions/${name}.pdf`;

/** The months of the generated statement series, oldest first: April 2024 … March 2025. */
export const GENERATED_MONTHS: Array<{ year: number; month: number }> = Array.from({ length: 12 }, (_, i) => {
  const index = 3 + i; // April 2024 = month index 3 of 2024
  return { year: 2024 + Math.floor(index / 12), month: (index % 12) + 1 };
});

export const generatedStatementKey = ({ year, month }: { year: number; month: number }) =>
  `rm-conditions/bench/statement-${year}-${String(month).padStart(2, "0")}.pdf`;

const lastMonths = (count: number) => GENERATED_MONTHS.slice(-count).map(generatedStatementKey);

export const SCENARIOS: Scenario[] = [
  {
    name: "tax-return-minimal",
    description:
      "1 document; max_steps 2 leaves only PreConditions → Conditions AI (no retrieval): the smallest plan",
    request: taxReturn(
      "BENCH-01",
      [sample("1120-signed")],
      "Evaluate all loan conditions for this tax return",
      2,
    ),
  },
  {
    name: "tax-return-unsigned",
    description: "1 document (officer signature blank): PreConditions, 1 retrieval, Conditions AI",
    request: taxReturn(
      "BENCH-02",
      [sample("1120-unsigned")],
      "Evaluate all loan conditions for this tax return and tell me what must be fixed before closing",
    ),
  },
  {
    name: "tax-return-history",
    description: "1 document + the condition history: 4 tool calls",
    request: taxReturn(
      "BENCH-03",
      [sample("1120-signed")],
      "Evaluate all loan conditions for this tax return and compare with the condition history of this program",
    ),
  },
  {
    name: "tax-return-scanned",
    description: "2 documents, one a scan without text layer",
    request: taxReturn(
      "BENCH-04",
      [sample("scanned"), sample("1120-signed")],
      "Evaluate all loan conditions; the first document is a scan of the signed return",
    ),
  },
  {
    name: "bank-nsf",
    description: "3 statements, NSF fee in March",
    request: bankStatements(
      "BENCH-05",
      [sample("statement-2025-01"), sample("statement-2025-02"), sample("statement-2025-03-nsf")],
      "Check if these bank statements are sufficient for income verification. If not, tell me what's missing.",
    ),
  },
  {
    name: "bank-large-deposit-similar",
    description: "3 statements (large wire deposit) + similar loans",
    request: bankStatements(
      "BENCH-06",
      [sample("statement-2025-01"), sample("statement-2025-02"), sample("statement-2025-03-large-deposit")],
      "Are these bank statements sufficient? List any deposit that needs a letter of explanation and show similar loans.",
    ),
  },
  {
    name: "bank-name-mismatch",
    description: "4 statements, one in another holder's name",
    request: bankStatements(
      "BENCH-07",
      [
        sample("statement-2025-01"),
        sample("statement-2025-02"),
        sample("statement-2025-02-other-name"),
        sample("statement-2025-03-nsf"),
      ],
      "Evaluate all loan conditions for these bank statements",
    ),
  },
  {
    name: "bank-6-months-history",
    description: "6 monthly statements + the condition history",
    request: bankStatements(
      "BENCH-08",
      lastMonths(6),
      "Evaluate the six months of statements and compare with the condition history",
    ),
  },
  {
    name: "bank-9-months",
    description: "9 monthly statements",
    request: bankStatements("BENCH-09", lastMonths(9), "Evaluate all loan conditions for these statements"),
  },
  {
    name: "bank-12-months-similar",
    description: "12 monthly statements + similar loans: the widest level (14 independent steps)",
    request: bankStatements(
      "BENCH-10",
      lastMonths(12),
      "Evaluate a full year of statements, tell me what is missing, and show similar loans",
    ),
  },
];

/** The scenario whose first level is widest: used for parallel: true vs false. */
export const WIDE_SCENARIO = "bank-12-months-similar";
/** A scenario with every kind of tool (PreConditions, retrieval, a history lookup, Conditions AI): worker round trips. */
export const ROUND_TRIP_SCENARIO = "tax-return-history";
/** A mid-size scenario without history lookups (whose evidence would grow with every run): concurrency. */
export const CONCURRENCY_SCENARIO = "bank-nsf";

const PAYROLL = "Payroll Direct Deposit - ACME WIDGETS INC";

function monthTransactions(year: number, month: number): StatementTransaction[] {
  const seed = year * 12 + month;
  const card = (n: number) => -Math.round((20 + ((seed * 37 + n * 53) % 180) + n * 0.17) * 100) / 100;
  return [
    { day: 2, description: "Online Payment - Springfield Properties Rent", amount: -1850 },
    { day: 5, description: "City Utilities Autopay", amount: -Math.round((120 + (seed % 40)) * 100) / 100 },
    { day: 7, description: PAYROLL, amount: 3650 },
    { day: 9, description: "Debit Card Purchase - Hy-Vee #1123", amount: card(1) },
    { day: 14, description: "Capital One Card Payment", amount: -600 },
    { day: 18, description: "Debit Card Purchase - Target T-1874", amount: card(2) },
    { day: 21, description: PAYROLL, amount: 3650 },
    { day: 22, description: "State Farm Insurance", amount: -118.2 },
    { day: 26, description: "Debit Card Purchase - Shell Oil 5521", amount: card(3) },
    { day: 27, description: "Transfer to Savings ****9932", amount: -2500 },
  ];
}

/** The sample documents plus the generated statement series, all deterministic. */
export async function benchmarkDocuments(): Promise<SampleDocument[]> {
  const documents = await generateSampleDocuments();
  let balance = 4_812.4;
  for (const period of GENERATED_MONTHS) {
    const transactions = monthTransactions(period.year, period.month);
    documents.push({
      key: generatedStatementKey(period),
      bytes: await buildBankStatement({ ...period, beginningBalance: balance, transactions }),
      description: `Generated ${period.year}-${period.month} statement, Jane Q. Doe, account ****4821`,
    });
    balance = Math.round(transactions.reduce((total, t) => total + t.amount, balance) * 100) / 100;
  }
  return documents;
}

/** FNV-1a, for latencies that are stable across runs and machines. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Injected latency of each tool in a scenario: 50–500 ms, deterministic per (scenario, tool). */
export function toolLatencies(scenario: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tool of TOOLS) out[tool] = 50 + (fnv1a(`${scenario}|${tool}`) % 451);
  return out;
}

/** The REWOO_TOOL_LATENCY_MS spelling of a latency map. */
export function latencySpec(latencies: Record<string, number>): string {
  return Object.entries(latencies)
    .map(([tool, ms]) => `${tool}=${ms}`)
    .join(",");
}

/** The injected tool latencies (REWOO_TOOL_LATENCY_MS), swapped per scenario in the twin's configuration. */
export function setLatencies(twin: Twin, latencies: Record<string, number>): void {
  const current = twin.services.config.toolLatencyMs;
  for (const key of Object.keys(current)) delete current[key];
  Object.assign(current, latencies);
}
