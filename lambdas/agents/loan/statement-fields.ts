// The field finders of bank statements: the statement period, the account holder, the account
// number, the transactions (with their direction) and the NSF/overdraft fees, read by the labels,
// table columns and line shapes US statements use. The BS_ evaluators and the extraction report
// both read a statement through `readStatement`, so what a verdict rests on is what the report shows.
import type { FieldSource } from "./extraction.ts";
import type { ExtractedDocument } from "./pdf-text.ts";
import { besideLabel, readAddressNames, readHolders, valueBelow } from "./statement-holders.ts";
import { keyValueAccounts, keyValueHolders, keyValuePeriods } from "./statement-key-values.ts";
import { headingSection, readTransactions, standaloneAmounts } from "./statement-transactions.ts";
import {
  type Citation,
  cellBelow,
  cite,
  citeSegment,
  type DateOrder,
  dateAfter,
  dateOrderOf,
  dayNumber,
  documentPages,
  type FoundAmount,
  findAmounts,
  findDateRanges,
  findDates,
  isoDate,
  leadingDate,
  type PageText,
  parseDate,
  type SimpleDate,
  segments,
} from "./text.ts";

export interface Located<T> {
  value: T;
  page: PageText;
  line: number;
  /** Offset in the line of the evidence: the citation is narrowed to its column. */
  offset?: number;
  source: FieldSource;
  /** 1 beside a printed label, less for a value read by its position or located by a model. */
  confidence: number;
  /** A verbatim quote to cite instead of the line (a model-located value's verified quote). */
  excerpt?: string;
  /** Further lines the value rests on (a period read from two balance lines). */
  also?: Citation[];
}

export interface Period {
  start: SimpleDate;
  end: SimpleDate;
}

export type Direction = "credit" | "debit" | "unknown";

export interface Transaction {
  page: PageText;
  line: number;
  date: SimpleDate | null;
  description: string;
  amount: number;
  direction: Direction;
  /**
   * `model`: listed by a model (its quote verified), not read by the table readers.
   * `running_balance`: only the row's running balance was read (its amount smudged or misread);
   * the amount is the change from the balance of the row before it.
   */
  source?: "model" | "running_balance";
  /**
   * The running balances printed on the row before and on this row, both read, differ by exactly
   * its amount: arithmetic confirms the amount and its direction, however unsure OCR was of them.
   */
  balanced?: true;
}

export interface Fee {
  label: string;
  amount: number;
  date: SimpleDate | null;
}

/** A fee credited back in the same statement (refund, reversal, waiver): the borrower did not pay it. */
export interface ReversedFee {
  charge: Located<Fee>;
  reversal: Located<Fee>;
}

export interface Statement {
  document: string;
  pages: PageText[];
  /** How the statement writes numeric dates (day first in the UK, Australia, New Zealand). */
  dateOrder: DateOrder;
  periods: Array<Located<Period>>;
  /** Names beside an account-holder label (or located by a model). */
  holders: Array<Located<string>>;
  /** Names above the mailing address on page 1, when no label names the holder. */
  addressNames: Array<Located<string>>;
  accounts: Array<Located<string>>;
  transactions: Transaction[];
  /** NSF/overdraft/returned-item fees charged and not credited back. */
  fees: Array<Located<Fee>>;
  reversedFees: ReversedFee[];
  /** Fee lines without a date and with an amount, outside fee schedules: they may be fees charged. */
  undatedFeeLines: Array<Located<Fee>>;
  /** Fee lines printed with zero amounts ("Total Overdraft Fees $0.00"): evidence the fees were reported as none. */
  zeroFeeLines: Array<Located<string>>;
  /** The printed total of deposits and credits, when the statement prints one. */
  depositsTotal: Located<number> | null;
  /**
   * Pages the statement numbers ("Page 2 of 3") but the file does not hold: rows on them were never
   * read, so nothing can be concluded from their absence.
   */
  missingPages: number[];
}

/** What each finder looked for, for a field it could not locate. */
export const NOT_FOUND: Record<
  "statement_period" | "holder_name" | "account_number" | "transactions",
  string
> = {
  statement_period:
    'no date range beside a "Statement Period" / "for the period" label or in the page header, and no "Beginning Balance on <date>" with an ending balance or statement date',
  holder_name:
    'no "Account Holder" / "Account Owner" / "Primary Owner" label and no name above a mailing address (street, then city, state and ZIP) on page 1',
  account_number:
    'no "Account Number" / "Account ending in" / "Acct #" / "Member Number" label and no masked number (****1234) near the top of page 1',
  transactions: "no line with a date, a description and an amount",
};

// ---------------------------------------------------------------- periods

const PERIOD_LABEL =
  /period|statement\s+(?:dates?|cycle|from)|for\s+the\s+period|closing\s+date|opening\s+date|activity\s+(?:from|for)/i;
const START_BALANCE_DATE =
  /(?:beginning|opening|previous|starting)\s+balance\s+(?:on|as\s+of)\s*:?\s*|\b(?:opening|start(?:ing)?)\s+date\s*:?\s*/i;
const END_BALANCE_DATE =
  /(?:ending|closing|new)\s+balance\s+(?:on|as\s+of)\s*:?\s*|statement\s+(?:closing\s+|ending\s+)?date\s*:?\s*|\b(?:closing|end(?:ing)?)\s+date\s*:?\s*/i;

/** Periods of 6 to 100 days: a week's statement at the least, a quarter's at the most. */
function plausiblePeriod(start: SimpleDate, end: SimpleDate): boolean {
  const days = dayNumber(end) - dayNumber(start);
  return days >= 6 && days <= 100;
}

function readPeriods(pages: PageText[], order: DateOrder): Array<Located<Period>> {
  const labeled: Array<Located<Period>> = [];
  const unlabeled: Array<Located<Period>> = [];
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      // The range may wrap onto the next line under its label.
      const joined = `${line} ${page.lines[index + 1] ?? ""}`;
      const ranges = findDateRanges(line, order);
      const wrapped =
        ranges.length === 0 ? findDateRanges(joined, order).filter((range) => range.index < line.length) : [];
      for (const range of [...ranges, ...wrapped]) {
        if (!plausiblePeriod(range.start, range.end)) continue;
        const before = `${page.lines[index - 1] ?? ""} ${line.slice(0, range.index)}`;
        const entry = besideLabel<Period>({ start: range.start, end: range.end }, page, index, range.index);
        if (PERIOD_LABEL.test(line.slice(0, range.index))) labeled.push(entry);
        else if (PERIOD_LABEL.test(before)) labeled.push({ ...entry, source: "table", confidence: 0.9 });
        else unlabeled.push({ ...entry, source: "position", confidence: 0.6 });
      }
    });
  }
  const chosen = labeled.length > 0 ? labeled : unlabeled.slice(0, 1);
  if (chosen.length === 0) {
    const fromBalances = periodFromBalanceDates(pages, order) ?? periodFromCycle(pages, order);
    if (fromBalances) chosen.push(fromBalances);
  }
  const unique: Array<Located<Period>> = [];
  for (const entry of chosen) {
    const key = periodKey(entry.value);
    if (!unique.some((u) => periodKey(u.value) === key)) unique.push(entry);
  }
  return unique;
}

function periodKey(period: Period): string {
  return `${isoDate(period.start)}/${isoDate(period.end)}`;
}

/**
 * "Beginning Balance on 01/01/26" with "Ending Balance on 01/31/26" or "Statement Date 01/31/26".
 * Summaries often print these without the year ("Beginning balance on 1/1"): the year is then the
 * statement date's, printed in the page header ("January 31, 2026"), the start's a year earlier
 * when its month comes after the end's.
 */
function periodFromBalanceDates(pages: PageText[], order: DateOrder): Located<Period> | null {
  const first = pages[0];
  if (!first) return null;
  const headerYear = findDates(first.lines.slice(0, 8).join("\n"), order)[0]?.date.y;
  const dateAfter = (pattern: RegExp, year?: number) => {
    for (let index = 0; index < first.lines.length; index++) {
      const line = first.lines[index] ?? "";
      const label = pattern.exec(line);
      if (!label) continue;
      const labelEnd = label.index + label[0].length;
      const date = findDates(line, order).find((found) => found.start >= labelEnd - 1);
      if (date && date.start - labelEnd <= 4) return { date: date.date, index, at: label.index };
      const short = year === undefined ? null : leadingDate(line.slice(labelEnd));
      const parsed = short ? parseDate(short.text, year, order) : null;
      if (parsed) return { date: parsed, index, at: label.index };
    }
    return null;
  };
  const end = dateAfter(END_BALANCE_DATE, headerYear);
  let start = dateAfter(START_BALANCE_DATE, end?.date.y);
  if (start && end && dayNumber(start.date) >= dayNumber(end.date) && start.date.y === end.date.y) {
    start = dateAfter(START_BALANCE_DATE, end.date.y - 1);
  }
  if (!start || !end) return null;
  if (!plausiblePeriod(start.date, end.date)) return null;
  return {
    value: { start: start.date, end: end.date },
    page: first,
    line: start.index,
    offset: start.at,
    source: "label",
    confidence: 0.8,
    also: [citeSegment(first, end.index, end.at)],
  };
}

const STATEMENT_DATE = /\b(?:statement|closing|cycle\s+end(?:ing)?)\s+date\s*:?\s*/i;
const DAYS_IN_CYCLE =
  /\bdays\s+in\s+(?:(?:this|the|billing|statement)\s+)?(?:cycle|period)\s*:?\s*(\d{1,3})\b/i;

/**
 * "Statement Date: 02/28/2026" with "Days in cycle 28": the statement closes on its date and covers
 * the days before it, so the period is the 28 days ending on that date.
 */
function periodFromCycle(pages: PageText[], order: DateOrder): Located<Period> | null {
  const first = pages[0];
  if (!first) return null;
  let end: { date: SimpleDate; index: number; at: number } | null = null;
  let days: { count: number; index: number; at: number } | null = null;
  first.lines.forEach((line, index) => {
    const label = STATEMENT_DATE.exec(line);
    if (label && !end) {
      const labelEnd = label.index + label[0].length;
      const date = findDates(line, order).find(
        (found) => found.start >= labelEnd - 1 && found.start - labelEnd <= 4,
      );
      if (date) end = { date: date.date, index, at: label.index };
    }
    const cycle = DAYS_IN_CYCLE.exec(line);
    if (cycle && !days) days = { count: Number(cycle[1]), index, at: cycle.index };
  });
  const closing = end as { date: SimpleDate; index: number; at: number } | null;
  const cycle = days as { count: number; index: number; at: number } | null;
  if (!closing || !cycle || cycle.count < 1) return null;
  const start = dateAfter(closing.date, 1 - cycle.count);
  if (!plausiblePeriod(start, closing.date)) return null;
  return {
    value: { start, end: closing.date },
    page: first,
    line: closing.index,
    offset: closing.at,
    source: "label",
    confidence: 0.8,
    also: [citeSegment(first, cycle.index, cycle.at)],
  };
}

// ---------------------------------------------------------------- account numbers

const ACCOUNT_PATTERNS: RegExp[] = [
  /\b(?:account|acct)\.?\s+ending\s+(?:in\s+)?[:#]?\s*[*xX•.\-\s]*(\d{4})\b/i,
  /\b(?:account|acct|member)\.?\s*(?:number|no\.?|num|#)\s*[:#]?\s*(?:(?=[A-Z0-9]{0,4}[A-Z])[A-Z0-9]{1,5}-)?((?:[*xX•.-]|\d|\s(?=[\d*xX•.]))+\d{4})\b/i,
  // An IBAN (IE64 LDCU 9901 2345 6781 43): the account is its last digits.
  /\bIBAN\b\s*:?\s*[A-Z]{2}\d{2}((?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?)\b/,
  /\b(?:account|acct)\.?\s*[:#]?\s*[*xX•]{2,}[-\s]?(\d{4})\b/i,
  // "Primary Account: 000123454321", "Account: 1234-5678-9012": the bare word with a colon, or
  // "Primary Account" without one, before the number in full.
  /\b(?:(?:primary|checking|chequing|savings|deposit|everyday|current|cheque|transaction|business|personal)\s+(?:account|acct)\.?\s*:?|(?:account|acct)\.?\s*:)\s*(\d[\d\s-]{2,}\d)\b(?![.,]\d)/i,
];
const IBAN_BESIDE = /\bIBAN\b\s*:?\s*[A-Z]{2}\d{2}((?:\s{1,2}[A-Z0-9]{4}){2,7}(?:\s[A-Z0-9]{1,4})?)(?!\S)/;
/** A label standing alone in its column, its number beside it or under it. */
const ACCOUNT_HEADING =
  /^(?:your\s+)?(?:(?:account|acct|member)\.?\s*(?:number|no\.?|num|#)|(?:account|acct)\.?\s+ending\s*(?:in)?)\s*:?$/i;
/**
 * The bare word "Account" in a column of its own, a scan's reading of its mask run into it
 * ("ACCOUNT*"): its value beside it counts only when masked ("*7186", "******7186").
 */
const BARE_ACCOUNT_LABEL = /^(?:account|acct)\.?[:#]?[*xX•]*$/i;
const MASKED_VALUE = /^[*xX•][*xX•\s]*(\d{4})$/;
/** An account number as printed: digits, masked digits, separators (12-3140-0412876-00, XXXXXX1234). */
const ACCOUNT_VALUE = /^[\dxX*•.\- ]+$/;
const MASKED_ACCOUNT = /(?:[*xX•]{3,}|\.{3})[-\s]?(\d{4})\b/;
/**
 * Another account named on the statement: a linked savings, a transfer's counterpart (also on the
 * wrapped second line of a transfer: "FROM EXT ACCT XXXXXX8765"), a routing number.
 */
const OTHER_ACCOUNT_CONTEXT =
  /linked|overdraft\s+protection|transfer|\bxfer\b|\bto\s+sav|\bfrom\s+sav|\b(?:from|to)\s+(?:ext(?:ernal)?\.?\s+)?(?:acct|account)\b|routing|\baba\b|card\s+\d/i;
/** A brokerage's account number: a short branch/office prefix before the digits ("RX7-054321"). */
const PREFIXED_ACCOUNT = /^(?=[A-Z0-9]{0,4}[A-Z])[A-Z0-9]{1,5}-(\d{4,})$/i;

function readAccounts(pages: PageText[]): Array<Located<string>> {
  const accounts: Array<Located<string>> = [];
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      // The label and the IBAN may stand in two columns ("IBAN  IE64 LDCU 9901 2345 6781 43").
      const iban = IBAN_BESIDE.exec(line);
      if (iban?.[1] && !OTHER_ACCOUNT_CONTEXT.test(line)) {
        const digits = iban[1].replace(/\D/g, "");
        if (digits.length >= 4) {
          accounts.push(besideLabel(digits.slice(-4), page, index, iban.index));
          return;
        }
      }
      for (const part of segments(line)) {
        if (OTHER_ACCOUNT_CONTEXT.test(part.text)) continue;
        for (const pattern of ACCOUNT_PATTERNS) {
          const match = pattern.exec(part.text);
          const digits = match?.[1]?.replace(/\D/g, "");
          if (match && digits && digits.length >= 4) {
            accounts.push(besideLabel(digits.slice(-4), page, index, part.start + match.index));
            return;
          }
        }
        if (BARE_ACCOUNT_LABEL.test(part.text)) {
          const parts = segments(line);
          const next = parts[parts.findIndex((p) => p.start === part.start) + 1];
          const masked = next ? MASKED_VALUE.exec(next.text.trim()) : null;
          if (next && masked?.[1]) {
            accounts.push(besideLabel(masked[1], page, index, next.start));
            return;
          }
        }
        if (ACCOUNT_HEADING.test(part.text)) {
          // The number beside its label ("Account Number  XXXXXX4821"), else under it in a header table.
          const parts = segments(line);
          const next = parts[parts.findIndex((p) => p.start === part.start) + 1];
          // "Account No  : 50100198840627": the colon stands apart from its label.
          const beside = next && { ...next, text: next.text.replace(/^:\s*/, "") };
          const besideValue =
            beside &&
            (PREFIXED_ACCOUNT.test(beside.text.trim()) ||
              (ACCOUNT_VALUE.test(beside.text) && beside.text.replace(/\D/g, "").length >= 4))
              ? { ...beside, line: index }
              : null;
          const below = besideValue ?? valueBelow(page, index, part.start);
          const prefixed = below ? PREFIXED_ACCOUNT.exec(below.text.trim()) : null;
          const digits = prefixed
            ? (prefixed[1] ?? "")
            : below && ACCOUNT_VALUE.test(below.text)
              ? below.text.replace(/\D/g, "")
              : "";
          if (below && digits.length >= 4 && /\d$/.test(below.text)) {
            accounts.push({
              value: digits.slice(-4),
              page,
              line: below.line,
              offset: below.start,
              ...(besideValue
                ? { source: "label" as const, confidence: 1 }
                : { source: "table" as const, confidence: 0.9 }),
            });
            return;
          }
        }
      }
    });
  }
  if (accounts.length > 0) {
    // The first page's reading comes first: continuation headers repeat it.
    return accounts.sort((p, q) => p.page.page - q.page.page || p.line - q.line);
  }
  const first = pages[0];
  if (!first) return accounts;
  // Unlabeled masked number near the top of the first page ("Interest Checking ****4821"), never
  // a card number inside a transaction row ("POS 4591XXXXXX2231 RELIANCE SMART").
  for (let index = 0; index < Math.min(first.lines.length, 30); index++) {
    if (leadingDate(first.lines[index] ?? "")) continue;
    for (const part of segments(first.lines[index] ?? "")) {
      if (OTHER_ACCOUNT_CONTEXT.test(part.text)) continue;
      const match = MASKED_ACCOUNT.exec(part.text);
      if (match?.[1]) {
        return [
          {
            value: match[1],
            page: first,
            line: index,
            offset: part.start + match.index,
            source: "position",
            confidence: 0.7,
          },
        ];
      }
    }
  }
  return accounts;
}

// ---------------------------------------------------------------- fees

/**
 * The same fees as UK, Australian and New Zealand banks name them: a dishonour fee (a payment
 * dishonoured for want of funds), an unpaid item or unpaid direct debit charge, a returned cheque,
 * an unarranged overdraft fee, a bounced cheque.
 */
const INTERNATIONAL_FEE_NAMES = [
  "dishono(?:u)?r(?:ed)?\\s+(?:(?:payment|item|cheque|check|direct\\s+debit)\\s+)?(?:fee|charge)s?",
  "\\b(?:fee|charge)s?\\s*[-:/]?\\s*dishono(?:u)?r",
  "unpaid\\s+(?:item|transaction|cheque|check|payment|direct\\s+debit|dd)\\s+(?:fee|charge)s?",
  "retu(?:rn|m)(?:ed)?\\s+(?:cheque|payment|direct\\s+debit)\\s+(?:fee|charge)s?",
  "unarranged\\s+overdraft\\s+(?:fee|charge|usage\\s+fee)s?",
  "bounced\\s+(?:cheque|check)",
  // Irish and UK banks: an item "referred" for want of funds carries a referral fee.
  "referral\\s+(?:item\\s+)?(?:fee|charge)s?",
  "overdrawn\\s+item\\s+(?:fee|charge)s?",
  "retu(?:rn|m)(?:ed)?\\s+ach\\s+items?",
].join("|");
/**
 * The names of one fee: NSF, insufficient funds, overdraft (item / paid item / extended), OD or O/D,
 * overdrawn account, paid item, returned or return item (also "return item chargeback fee"),
 * courtesy pay; also the charge named first ("SERVICE CHARGE - OVERDRAWN ACCOUNT"), unless what
 * follows is an overdraft-protection transfer.
 */
const FEE_NAME = new RegExp(
  String.raw`\bN[S5]F\b|non[-\s]?sufficient[-\s]funds?|insuff(?:icient)?\.?[-\s]funds?|\b(?:extended\s+|continuous\s+)?overdraft(?:\s+(?:item|paid(?:\s+item)?))?\s+(?:fee|charge)s?|\bO\/?D\s+(?:item\s+)?(?:fee|charge)s?|overdrawn\s+(?:account|balance)\s+(?:fee|charge)s?|\b(?:fee|charge)s?\s*[-:/]?\s*(?:for\s+)?(?:an?\s+)?(?:overdrawn|overdraft|paid[-\s]item|retu(?:rn|m)(?:ed)?[-\s]item)(?!\s+(?:protection|transfer|xfer))|\bpaid[-\s]item\s+(?:fee|charge)s?|retu(?:rn|m)(?:ed)?[-\s]items?(?:\s+(?:chargeback\s+)?(?:fee|charge)s?)?|retu(?:rn|m)(?:ed)?\s+(?:check|ach|deposit(?:ed)?\s+item)\s+(?:fee|charge)s?|courtesy\s+pay\s+(?:fee|charge)s?|${INTERNATIONAL_FEE_NAMES}`,
  "i",
);
const REVERSAL_WORDS =
  /waive[ds]?|refund(?:ed)?|revers(?:al|ed|e)|rebate|credit(?:ed)?\s+back|fee\s+credit|courtesy\s+credit/i;
/** Headings of fee schedules and account disclosures: the fees they name are prices, not charges. */
const SCHEDULE_HEADING =
  /fee\s+schedule|schedule\s+of\s+(?:fees|charges)|fees?\s+(?:and|&)\s+charges|important\s+(?:account\s+)?information|pricing|disclosure/i;
const SCHEDULE_WORDS =
  /\bper\s+(?:item|day|occurrence|check|transaction)\b|\beach\b|\bup\s+to\b|\bmax(?:imum)?\b/i;
const YEAR_TO_DATE = /year[-\s]to[-\s]date|\bytd\b/i;

export function readFees(
  pages: PageText[],
  transactions: Transaction[],
): Pick<Statement, "fees" | "reversedFees" | "undatedFeeLines" | "zeroFeeLines"> {
  const charges: Array<Located<Fee>> = [];
  const reversals: Array<Located<Fee>> = [];
  const zeroFeeLines: Statement["zeroFeeLines"] = [];
  for (const transaction of transactions) {
    const match = FEE_NAME.exec(transaction.description);
    if (!match) continue;
    const fee: Located<Fee> = {
      value: {
        label: transaction.description || match[0],
        amount: transaction.amount,
        date: transaction.date,
      },
      page: transaction.page,
      line: transaction.line,
      source: "table",
      confidence: 1,
    };
    if (transaction.amount === 0) {
      zeroFeeLines.push({
        value: transaction.description,
        page: transaction.page,
        line: transaction.line,
        source: "table",
        confidence: 1,
      });
    } else if (REVERSAL_WORDS.test(transaction.description) || transaction.direction === "credit") {
      reversals.push(fee);
    } else charges.push(fee);
  }
  // A fee credited back in the same statement, for the same amount, was not paid.
  const reversedFees: ReversedFee[] = [];
  const fees = charges.filter((charge) => {
    const index = reversals.findIndex(
      (reversal) => Math.abs(reversal.value.amount - charge.value.amount) < 0.005,
    );
    if (index < 0) return true;
    const [reversal] = reversals.splice(index, 1);
    if (reversal) reversedFees.push({ charge, reversal });
    return false;
  });

  const undatedFeeLines: Statement["undatedFeeLines"] = [];
  for (const page of pages) {
    let inSchedule = false;
    page.lines.forEach((line, index) => {
      if (SCHEDULE_HEADING.test(line) && standaloneAmounts(line).length === 0) inSchedule = true;
      else if (headingSection(line)) inSchedule = false;
      if (leadingDate(line)) return;
      const match = FEE_NAME.exec(line);
      if (!match) return;
      // Prose ("an NSF fee of $30.00 applies") prints amounts inside sentences, never in a column.
      const amounts = standaloneAmounts(line);
      if (amounts.length === 0) return;
      if (amounts.every((amount) => amount.value === 0)) {
        zeroFeeLines.push({ value: line.trim(), page, line: index, source: "label", confidence: 1 });
        return;
      }
      if (inSchedule || SCHEDULE_WORDS.test(line) || REVERSAL_WORDS.test(line)) return;
      // "Total for this period  Total year-to-date": the first column is the period's.
      const period = amounts[0] as FoundAmount;
      if (period.value === 0) {
        zeroFeeLines.push({ value: line.trim(), page, line: index, source: "label", confidence: 1 });
        return;
      }
      if (amounts.length === 1 && YEAR_TO_DATE.test(line)) return;
      const label =
        line
          .slice(0, period.start)
          .replace(/\s{2,}/g, " ")
          .trim() || match[0];
      undatedFeeLines.push({
        value: { label, amount: period.value, date: null },
        page,
        line: index,
        source: "label",
        confidence: 0.8,
      });
    });
  }
  return { fees, reversedFees, undatedFeeLines, zeroFeeLines };
}

// ---------------------------------------------------------------- printed deposits total

/** "Deposits" and "Additions" also as a scan misreads them ("Deposil", "Additians", "Aoditians"). */
const DEPOSITS_TOTAL =
  /^(?:total\s+)?(?:deposi(?:ts?|[a-z])?(?:\s+(?:and|&)\s+(?:other\s+)?(?:credits|additions|a[a-z]{6,8}s))?|deposits?\s*\/\s*credits|credits)(?:\s*\(\d+\))?$/i;

/** "Deposits and Additions  4  7,740.89", "Total Credits (4)  $7,740.89", "DEPOSITS/CREDITS (5)  7,775.89". */
function readDepositsTotal(pages: PageText[]): Located<number> | null {
  for (const page of pages) {
    for (let index = 0; index < page.lines.length; index++) {
      const line = page.lines[index] ?? "";
      const parts = segments(line);
      const label = parts[0];
      if (!label || !DEPOSITS_TOTAL.test(label.text) || leadingDate(line)) continue;
      const amounts = standaloneAmounts(line);
      const total = amounts[amounts.length - 1];
      if (!total || parts.length > 3) continue;
      return { value: total.value, page, line: index, source: "label", confidence: 1 };
    }
  }
  return depositsTotalInSummaryTable(pages);
}

/**
 * A summary printed as a table: a row of headings ("Beginning Balance  Total Credits (26)  Total
 * Debits (88)  Ending Balance") with the amounts in the row under them; the deposits total is the
 * amount under its heading.
 */
function depositsTotalInSummaryTable(pages: PageText[]): Located<number> | null {
  for (const page of pages) {
    for (let index = 0; index < page.lines.length; index++) {
      if (leadingDate(page.lines[index] ?? "")) continue;
      const heading = page.cells?.[index]?.find((cell) => DEPOSITS_TOTAL.test(cell.text.trim()));
      if (!heading) continue;
      const under = cellBelow(page, index, heading, 1);
      // The cell holds the amount alone ("7,959.93", "$7,959.93"), not a sentence with one in it.
      const [amount, ...more] = under ? findAmounts(under.cell.text) : [];
      if (under && amount && more.length === 0 && /^[$\s\d,.()+-]+$/.test(under.cell.text.trim())) {
        return { value: amount.value, page, line: under.line, source: "table", confidence: 0.9 };
      }
    }
  }
  return null;
}

// ---------------------------------------------------------------- page numbers

const PAGE_NUMBER = /\bpage\s+(\d{1,3})\s*(?:of|\/)\s*(\d{1,3})\b/i;

/** The statement's own page numbers ("Page 1 of 3", "Page 3 of 3") that no page of the file carries. */
function missingPages(pages: PageText[]): number[] {
  const printed = new Set<number>();
  let total = 0;
  for (const page of pages) {
    const match = PAGE_NUMBER.exec(page.text);
    if (!match) continue;
    const number = Number(match[1]);
    const of = Number(match[2]);
    if (number < 1 || number > of || of > 500) continue;
    printed.add(number);
    total = Math.max(total, of);
  }
  if (printed.size === 0) return [];
  return Array.from({ length: total }, (_, index) => index + 1).filter((number) => !printed.has(number));
}

// ---------------------------------------------------------------- the statement

const TAX_RETURN_MARK = /\bForm\s*1120\b|Corporation\s+Income\s+Tax\s+Return/i;

/** Reads one document as a bank statement; null when it is not one. */
export function readStatement(document: ExtractedDocument): Statement | null {
  const pages = documentPages(document);
  const dateOrder = dateOrderOf(pages.map((page) => page.text).join("\n"));
  // What the line finders do not find, the page's key–value pairs may name.
  const periods = orElse(readPeriods(pages, dateOrder), () => keyValuePeriods(pages, dateOrder));
  const accounts = orElse(readAccounts(pages), () => keyValueAccounts(pages));
  const transactions = readTransactions(
    pages,
    periods.map((p) => p.value),
    dateOrder,
  );
  const looksLikeStatement =
    periods.length > 0 ||
    (accounts.length > 0 && transactions.length > 0) ||
    /\bstatement\b/i.test(pages[0]?.text ?? "");
  if (!looksLikeStatement || (periods.length === 0 && TAX_RETURN_MARK.test(pages[0]?.text ?? "")))
    return null;
  const holders = orElse(readHolders(pages), () => keyValueHolders(pages));
  return {
    document: document.document,
    pages,
    dateOrder,
    periods,
    holders,
    addressNames: holders.length > 0 ? [] : readAddressNames(pages),
    accounts,
    transactions,
    ...readFees(pages, transactions),
    depositsTotal: readDepositsTotal(pages),
    missingPages: missingPages(pages),
  };
}

function orElse<T>(found: T[], fallback: () => T[]): T[] {
  return found.length > 0 ? found : fallback();
}

/** The citation of a located value: its model quote, its column, or its line. */
export function citationOf<T>(located: Located<T>): Citation {
  if (located.excerpt !== undefined) {
    return { document: located.page.document, page: located.page.page, excerpt: located.excerpt };
  }
  return located.offset === undefined
    ? cite(located.page, located.line)
    : citeSegment(located.page, located.line, located.offset);
}

/** The located value's citation and the further lines it rests on. */
export function citationsOf<T>(located: Located<T>): Citation[] {
  return [citationOf(located), ...(located.also ?? [])];
}
