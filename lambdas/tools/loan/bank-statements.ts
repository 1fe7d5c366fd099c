// Evaluators of the "Bank Statements" conditions. Each file is read into a statement: its
// period(s), account holder, account number, transactions (with direction) and fee lines, found
// by the labels and line shapes US bank statements use.
import {
  type Citation,
  cite,
  citeSegment,
  dayNumber,
  documentPages,
  type FoundAmount,
  findAmounts,
  findDateRanges,
  formatMoney,
  isoDate,
  leadingDate,
  type PageText,
  parseDate,
  parseMoney,
  personNamesMatch,
  quote,
  type SimpleDate,
  segments,
  splitJointNames,
} from "./text.ts";
import {
  type EvaluationContext,
  type Finding,
  insufficient,
  type LetterOfExplanation,
  listNames,
  unreadableNote,
  withSpecifics,
} from "./verdict.ts";

interface Located<T> {
  value: T;
  page: PageText;
  line: number;
  /** Offset in the line of the evidence: the citation is narrowed to its column. */
  offset?: number;
}

interface Period {
  start: SimpleDate;
  end: SimpleDate;
}

type Direction = "credit" | "debit" | "unknown";

interface Transaction {
  page: PageText;
  line: number;
  date: SimpleDate | null;
  description: string;
  amount: number;
  direction: Direction;
}

interface Statement {
  document: string;
  pages: PageText[];
  periods: Array<Located<Period>>;
  holders: Array<Located<string>>;
  accounts: Array<Located<string>>;
  transactions: Transaction[];
  fees: Array<Located<{ label: string; amount: number; date: SimpleDate | null }>>;
  /** Fee lines printed with zero amounts ("Total Overdraft Fees $0.00"): evidence the fees were reported as none. */
  zeroFeeLines: Array<Located<string>>;
}

// ---------------------------------------------------------------- reading a statement

const PERIOD_LABEL =
  /period|statement\s+(?:dates?|cycle|from)|for\s+the\s+period|closing\s+date|opening\s+date/i;
const HOLDER_LABEL =
  /^(?:primary\s+|joint\s+)?(?:account\s+(?:holder|owner)s?(?:\s*\(s\))?|account\s+name|name\s+on\s+(?:the\s+)?account|customer\s+name|owner\s+name|account\s+title)\s*[:-]?\s*(.*)$/i;
const ACCOUNT_PATTERNS: RegExp[] = [
  /\b(?:account|acct)\.?\s+ending\s+(?:in\s+)?[:#]?\s*[*xX•.\-\s]*(\d{4})\b/i,
  /\b(?:account|acct)\.?\s*(?:number|no\.?|num|#)\s*[:#]?\s*((?:[*xX•.-]|\d|\s(?=[\d*xX•]))+\d{4})\b/i,
  /\b(?:account|acct)\.?\s*[:#]?\s*[*xX•]{2,}[-\s]?(\d{4})\b/i,
];
const MASKED_ACCOUNT = /(?:[*xX•]{3,}|\.{3})[-\s]?(\d{4})\b/;
const FEE_PATTERN =
  /\bNSF\b|non[-\s]?sufficient[-\s]funds?|insufficient[-\s]funds?|overdraft(?:\s+item)?\s+(?:fee|charge)s?|\bOD\s+(?:fee|charge)|returned?[-\s]items?(?:\s+(?:fee|charge)s?)?|return(?:ed)?\s+(?:check|deposit(?:ed)?\s+item)\s+(?:fee|charge)s?/i;

type Section = "deposits" | "withdrawals" | "balances" | "mixed" | "none";

const CREDIT_HEADING = /deposits?|credits?|additions/i;
const DEBIT_HEADING =
  /withdrawals?|debits?|checks?\s+paid|\bchecks\b|payments|purchases|service\s+(?:fees|charges)|\bfees\b|atm|card\s+transactions|subtractions/i;
const BALANCE_HEADING = /daily\s+(?:ending\s+)?balances?|balance\s+summary|ending\s+daily\s+balances?/i;
const MIXED_HEADING =
  /transaction\s+(?:details|history|activity|detail)|account\s+activity|\btransactions\b|activity\s+detail/i;
const BALANCE_LINE =
  /(?:beginning|opening|previous|starting|ending|closing|new)\s+balance|balance\s+(?:forward|brought)/i;
const CREDIT_WORDS =
  /deposit|payroll|dir(?:ect)?\s*dep|ach\s+credit|credit\b(?!\s+card)|transfer\s+from|xfer\s+from|zelle\s+from|from\s+savings|refund|interest\s+(?:paid|earned)|reversal|incoming\s+wire|wire\s+(?:transfer\s+)?(?:in|from)/i;
const DEBIT_WORDS =
  /withdrawal|purchase|payment|\bpmt\b|debit|\bcheck\b|\bchk\b|\bfee\b|transfer\s+to|xfer\s+to|zelle\s+to|\batm\b|\bpos\b|autopay|bill\s+pay|outgoing\s+wire/i;

function headingSection(line: string): Section | null {
  const trimmed = line.trim();
  if (trimmed === "" || trimmed.length > 70 || leadingDate(trimmed) || findAmounts(trimmed).length > 0)
    return null;
  const first = segments(trimmed)[0]?.text ?? trimmed;
  if (BALANCE_HEADING.test(first)) return "balances";
  const credit = CREDIT_HEADING.test(trimmed);
  const debit = DEBIT_HEADING.test(trimmed);
  // Column headers of a one-table layout ("Date  Description  Withdrawals  Deposits  Balance").
  if (credit && debit) return "mixed";
  if (MIXED_HEADING.test(first)) return "mixed";
  if (credit && CREDIT_HEADING.test(first)) return "deposits";
  if (debit && DEBIT_HEADING.test(first)) return "withdrawals";
  return null;
}

function readPeriods(pages: PageText[]): Array<Located<Period>> {
  const labeled: Array<Located<Period>> = [];
  const unlabeled: Array<Located<Period>> = [];
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      // The range may wrap onto the next line under its label.
      const joined = `${line} ${page.lines[index + 1] ?? ""}`;
      const ranges = findDateRanges(line);
      const wrapped =
        ranges.length === 0 ? findDateRanges(joined).filter((range) => range.index < line.length) : [];
      for (const range of [...ranges, ...wrapped]) {
        const days = dayNumber(range.end) - dayNumber(range.start);
        if (days < 6 || days > 100) continue;
        const before = `${page.lines[index - 1] ?? ""} ${line.slice(0, range.index)}`;
        const entry = {
          value: { start: range.start, end: range.end },
          page,
          line: index,
          offset: range.index,
        };
        (PERIOD_LABEL.test(before) ? labeled : unlabeled).push(entry);
      }
    });
  }
  const chosen = labeled.length > 0 ? labeled : unlabeled.slice(0, 1);
  const unique: Array<Located<Period>> = [];
  for (const entry of chosen) {
    const key = `${isoDate(entry.value.start)}/${isoDate(entry.value.end)}`;
    if (!unique.some((u) => `${isoDate(u.value.start)}/${isoDate(u.value.end)}` === key)) unique.push(entry);
  }
  return unique;
}

function readHolders(pages: PageText[]): Array<Located<string>> {
  const holders: Array<Located<string>> = [];
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      const parts = segments(line);
      parts.forEach((part, partIndex) => {
        const label = HOLDER_LABEL.exec(part.text);
        if (!label) return;
        let value = (label[1] ?? "").trim();
        let valueLine = index;
        let offset = part.start;
        if (value === "") {
          const next = parts[partIndex + 1];
          if (next && !/:\s*$|account|statement|period/i.test(next.text)) {
            value = next.text;
            offset = next.start;
          } else {
            const below = segments(page.lines[index + 1] ?? "")[0];
            value = below?.text ?? "";
            valueLine = index + 1;
            offset = below?.start ?? 0;
          }
        }
        if (/[A-Za-z]{2,}/.test(value)) holders.push({ value, page, line: valueLine, offset });
      });
    });
  }
  return holders;
}

function readAccounts(pages: PageText[]): Array<Located<string>> {
  const accounts: Array<Located<string>> = [];
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      for (const pattern of ACCOUNT_PATTERNS) {
        const match = pattern.exec(line);
        const digits = match?.[1]?.replace(/\D/g, "");
        if (match && digits && digits.length >= 4) {
          accounts.push({ value: digits.slice(-4), page, line: index, offset: match.index });
          return;
        }
      }
    });
  }
  if (accounts.length > 0) return accounts;
  const first = pages[0];
  if (!first) return accounts;
  // Unlabeled masked number near the top of the first page ("Checking ****4821").
  for (let index = 0; index < Math.min(first.lines.length, 25); index++) {
    const match = MASKED_ACCOUNT.exec(first.lines[index] ?? "");
    if (match?.[1]) return [{ value: match[1], page: first, line: index, offset: match.index }];
  }
  return accounts;
}

function inferYear(text: string, periods: Period[]): SimpleDate | null {
  const withYear = parseDate(text);
  if (withYear) return withYear;
  const candidates = [...new Set(periods.flatMap((period) => [period.start.y, period.end.y]))];
  for (const year of candidates) {
    const date = parseDate(text, year);
    if (!date) continue;
    const day = dayNumber(date);
    if (periods.some((period) => day >= dayNumber(period.start) - 7 && day <= dayNumber(period.end) + 7))
      return date;
  }
  return candidates[0] !== undefined ? parseDate(text, candidates[candidates.length - 1]) : null;
}

function readTransactions(pages: PageText[], periods: Period[]): Transaction[] {
  const transactions: Transaction[] = [];
  let section: Section = "none";
  let balance: number | null = null;
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      const heading = headingSection(line);
      if (heading) {
        section = heading;
        return;
      }
      const amounts = columnAmounts(line);
      if (BALANCE_LINE.test(line)) {
        const last = amounts[amounts.length - 1];
        if (last && /beginning|opening|previous|starting|forward|brought/i.test(line)) {
          balance = last.sign === "-" ? -last.value : last.value;
        }
        return;
      }
      const date = leadingDate(line);
      if (!date || amounts.length === 0 || section === "balances") return;
      const amount = amounts[0];
      if (!amount) return;
      const description = line
        .slice(date.length, amount.start)
        .replace(/\s{2,}/g, " ")
        .trim();
      // A line of dates and amounts only is a daily-balance row, not a transaction.
      if (!/[A-Za-z]{2,}/.test(description)) return;
      let direction: Direction = "unknown";
      if (amount.sign === "-") direction = "debit";
      else if (amount.sign === "+") direction = "credit";
      else if (section === "deposits") direction = "credit";
      else if (section === "withdrawals") direction = "debit";
      const runningBalance = amounts.length >= 2 ? amounts[amounts.length - 1] : undefined;
      const newBalance = runningBalance
        ? runningBalance.sign === "-"
          ? -runningBalance.value
          : runningBalance.value
        : null;
      // A running balance column settles the direction of unsigned amounts.
      if (direction === "unknown" && balance !== null && newBalance !== null) {
        if (Math.abs(balance + amount.value - newBalance) < 0.005) direction = "credit";
        else if (Math.abs(balance - amount.value - newBalance) < 0.005) direction = "debit";
      }
      if (direction === "unknown") {
        const credit = CREDIT_WORDS.test(description);
        const debit = DEBIT_WORDS.test(description);
        if (credit && !debit) direction = "credit";
        else if (debit && !credit) direction = "debit";
      }
      if (newBalance !== null) balance = newBalance;
      transactions.push({
        page,
        line: index,
        date: inferYear(date.text, periods),
        description,
        amount: amount.value,
        direction,
      });
    });
  }
  // Ledgers that print debits negative print credits unsigned.
  const signedDebits = transactions.some((t) => t.direction === "debit" && /-|\(/.test(lineAmountText(t)));
  if (signedDebits) {
    for (const transaction of transactions) {
      if (transaction.direction === "unknown" && !/-|\(/.test(lineAmountText(transaction)))
        transaction.direction = "credit";
    }
  }
  return transactions;
}

/**
 * The amounts of a line's amount columns. An amount inside a description ("Insufficient Funds
 * Fee For A $120.00 Item") is not the transaction's amount; amounts standing alone in a column
 * are. Lines without column gaps fall back to every amount on the line.
 */
function columnAmounts(line: string): FoundAmount[] {
  const amounts = findAmounts(line);
  const parts = segments(line);
  const standalone = amounts.filter((amount) =>
    parts.some(
      (part) =>
        amount.start >= part.start &&
        amount.end <= part.start + part.text.length &&
        part.text.replace(amount.text, "").replace(/[$\s]/g, "") === "",
    ),
  );
  return standalone.length > 0 ? standalone : amounts;
}

function lineAmountText(transaction: Transaction): string {
  const line = transaction.page.lines[transaction.line] ?? "";
  return columnAmounts(line)[0]?.text ?? "";
}

function readFees(pages: PageText[], periods: Period[]): Pick<Statement, "fees" | "zeroFeeLines"> {
  const fees: Statement["fees"] = [];
  const zeroFeeLines: Statement["zeroFeeLines"] = [];
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      const match = FEE_PATTERN.exec(line);
      if (!match) return;
      // Disclosures ("to avoid overdraft fees…") carry no amount; summaries print $0.00.
      const amounts = columnAmounts(line);
      if (amounts.length === 0) return;
      const charged = amounts.find((amount) => amount.value > 0);
      if (charged) {
        const date = leadingDate(line);
        const label = line
          .slice(date?.length ?? 0, charged.start)
          .replace(/\s{2,}/g, " ")
          .trim();
        fees.push({
          value: {
            label: label || match[0],
            amount: charged.value,
            date: date ? inferYear(date.text, periods) : null,
          },
          page,
          line: index,
        });
      } else zeroFeeLines.push({ value: line.trim(), page, line: index });
    });
  }
  return { fees, zeroFeeLines };
}

const TAX_RETURN_MARK = /\bForm\s*1120\b|Corporation\s+Income\s+Tax\s+Return/i;

// Every bank-statement condition reads the same documents; parse them once per evaluation.
const statementCache = new WeakMap<EvaluationContext["readable"], Statement[]>();

function readStatements(context: EvaluationContext): Statement[] {
  const cached = statementCache.get(context.readable);
  if (cached) return cached;
  const statements: Statement[] = [];
  for (const document of context.readable) {
    const pages = documentPages(document);
    const periods = readPeriods(pages);
    const accounts = readAccounts(pages);
    const transactions = readTransactions(
      pages,
      periods.map((p) => p.value),
    );
    const looksLikeStatement =
      periods.length > 0 ||
      (accounts.length > 0 && transactions.length > 0) ||
      /\bstatement\b/i.test(pages[0]?.text ?? "");
    if (!looksLikeStatement || (periods.length === 0 && TAX_RETURN_MARK.test(pages[0]?.text ?? ""))) continue;
    statements.push({
      document: document.document,
      pages,
      periods,
      holders: readHolders(pages),
      accounts,
      transactions,
      ...readFees(
        pages,
        periods.map((p) => p.value),
      ),
    });
  }
  statementCache.set(context.readable, statements);
  return statements;
}

function noStatements(context: EvaluationContext): Finding {
  return insufficient(
    `no bank statement found among ${listNames(context.readable.map((d) => d.document))}: no statement period, account number or transactions recognized${unreadableNote(context)}`,
  );
}

function at<T>(located: Located<T>): Citation {
  return located.offset === undefined
    ? cite(located.page, located.line)
    : citeSegment(located.page, located.line, located.offset);
}

function periodText(period: Period): string {
  return `${isoDate(period.start)} to ${isoDate(period.end)}`;
}

// ---------------------------------------------------------------- BS_TWO_MONTHS

export function evaluateTwoMonths(context: EvaluationContext): Finding {
  const statements = readStatements(context);
  if (statements.length === 0) return noStatements(context);
  const minimum = Number(context.expected.min_consecutive_months) || 2;
  const maxDays = Number(context.expected.max_days_since_period_end) || 60;
  const periods = statements
    .flatMap((statement) => statement.periods)
    .sort((p, q) => dayNumber(p.value.start) - dayNumber(q.value.start));
  const asOfText = isoDate(context.asOf);
  if (periods.length === 0) {
    return insufficient(
      `no statement period found in ${listNames(statements.map((s) => s.document))}: expected e.g. "Statement Period: 01/01/2025 - 01/31/2025"${unreadableNote(context)}`,
    );
  }
  const monthsIn = (period: Period) =>
    Math.max(1, Math.round((dayNumber(period.end) - dayNumber(period.start) + 1) / 30.44));
  // Chains of periods where each starts within a few days of the previous one's end.
  const chains: Array<Array<Located<Period>>> = [];
  for (const period of periods) {
    const chain = chains.find((c) => {
      const last = c[c.length - 1] as Located<Period>;
      const gap = dayNumber(period.value.start) - dayNumber(last.value.end);
      return gap >= 0 && gap <= MAX_DAYS_BETWEEN_PERIODS;
    });
    if (chain) chain.push(period);
    else chains.push([period]);
  }
  const described = periods.map((p) => `${periodText(p.value)} (${p.page.document})`).join("; ");
  const long = chains.filter((chain) => chain.reduce((sum, p) => sum + monthsIn(p.value), 0) >= minimum);
  const ageOf = (chain: Array<Located<Period>>) =>
    dayNumber(context.asOf) - dayNumber((chain[chain.length - 1] as Located<Period>).value.end);
  const recent = long.filter((chain) => ageOf(chain) <= maxDays);
  const observed = { periods: periods.map((p) => ({ document: p.page.document, ...periodJson(p.value) })) };
  if (recent.length > 0) {
    const chain = recent[recent.length - 1] as Array<Located<Period>>;
    const latest = chain[chain.length - 1] as Located<Period>;
    return {
      status: "fulfilled",
      reason: `${chain.length} consecutive statement periods (${chain.map((p) => periodText(p.value)).join(", ")}); the latest ends ${isoDate(latest.value.end)}, ${ageOf(chain)} days before ${asOfText} (max ${maxDays})`,
      citations: chain.map(at),
      observed,
    };
  }
  const coverage = missingCoverage(
    periods.map((p) => p.value),
    long.length > 0
      ? 0
      : minimum - Math.max(...chains.map((c) => c.reduce((n, p) => n + monthsIn(p.value), 0))),
    context.asOf,
    maxDays,
  );
  const specifics = { missing: coverage.missing, remedies: coverage.remedies };
  const observedGaps = {
    ...observed,
    ...(coverage.months.length > 0 ? { missing_months: coverage.months } : {}),
  };
  if (long.length > 0) {
    const chain = long[long.length - 1] as Array<Located<Period>>;
    const latest = chain[chain.length - 1] as Located<Period>;
    return {
      status: "not_fulfilled",
      reason: `the statements are too old: the latest of the consecutive periods ends ${isoDate(latest.value.end)}, ${ageOf(chain)} days before ${asOfText} (max ${maxDays}); periods read: ${described}`,
      citations: chain.map(at),
      observed: observedGaps,
      ...withSpecifics(specifics),
    };
  }
  if (context.unreadable.length > 0) {
    return insufficient(
      `only non-consecutive or single periods were read (${described})${unreadableNote(context)}`,
      observedGaps,
      specifics,
    );
  }
  const gaps = chains.length > 1 ? " (not consecutive: a month is missing between them)" : "";
  return {
    status: "not_fulfilled",
    reason: `the statements do not cover ${minimum} consecutive months: ${periods.length === 1 ? "only one period" : `${periods.length} periods`} found${gaps}: ${described}`,
    citations: periods.map(at),
    observed: observedGaps,
    ...withSpecifics(specifics),
  };
}

/** Periods this many days apart or fewer still count as consecutive (weekends, bank holidays). */
const MAX_DAYS_BETWEEN_PERIODS = 4;

interface Month {
  y: number;
  m: number;
}

function monthIndex(month: Month): number {
  return month.y * 12 + month.m - 1;
}

function monthAt(index: number): Month {
  return { y: Math.floor(index / 12), m: (index % 12) + 1 };
}

function monthText(month: Month): string {
  return `${month.y}-${String(month.m).padStart(2, "0")}`;
}

/**
 * The statements a loan officer should ask for, each named by the month its period ends in (the
 * way banks name statements): the months between the first and the last statement that no period
 * covers, the months after the latest one when it is too old, earlier months when even the longest
 * run is still too short (`shortBy` months), and a recent statement when the latest is too old.
 */
function missingCoverage(
  periods: Period[],
  shortBy: number,
  asOf: SimpleDate,
  maxDays: number,
): { missing: string[]; remedies: string[]; months: string[] } {
  const missing: string[] = [];
  const remedies: string[] = [];
  const months: string[] = [];
  const need = (month: Month, why: string) => {
    const text = monthText(month);
    if (months.includes(text)) return;
    months.push(text);
    missing.push(`statement for ${text} (${why})`);
    remedies.push(`Provide the statement for ${text} (${why})`);
  };
  const sorted = [...periods].sort((p, q) => dayNumber(p.start) - dayNumber(q.start));
  const first = sorted[0];
  if (!first) return { missing, remedies, months };
  let covered = first.end;
  for (const period of sorted.slice(1)) {
    if (dayNumber(period.start) - dayNumber(covered) > MAX_DAYS_BETWEEN_PERIODS) {
      const before = monthIndex(covered);
      const after = monthIndex(period.end);
      if (after - before > 1) {
        const why = `gap between ${monthText(covered)} and ${monthText(period.end)}`;
        for (let index = before + 1; index < after; index++) need(monthAt(index), why);
      } else {
        // A gap of days inside two neighbouring months: no whole statement month is missing.
        const span = `${isoDate(dateAfter(covered, 1))} to ${isoDate(dateAfter(period.start, -1))}`;
        const why = `gap between the statement ending ${isoDate(covered)} and the one starting ${isoDate(period.start)}`;
        missing.push(`statement covering ${span} (${why})`);
        remedies.push(`Provide a statement covering ${span} (${why})`);
      }
    }
    if (dayNumber(period.end) > dayNumber(covered)) covered = period.end;
  }
  const latest = covered;
  const earliestEnd = dateAfter(asOf, -maxDays);
  const tooOld = dayNumber(latest) < dayNumber(earliestEnd);
  if (tooOld) {
    for (let index = monthIndex(latest) + 1; index <= monthIndex(earliestEnd); index++) {
      need(monthAt(index), `after the latest statement, ${monthText(latest)}`);
    }
  }
  // Earlier months have ended, so the borrower already has those statements.
  for (let index = monthIndex(first.end) - 1; months.length < shortBy; index--) {
    need(monthAt(index), `before the earliest statement, ${monthText(first.end)}`);
  }
  if (tooOld) {
    const recent = `a statement ending on or after ${isoDate(earliestEnd)}: the latest ends ${isoDate(latest)}`;
    missing.push(recent);
    remedies.push(`Provide ${recent}`);
  }
  return { missing, remedies, months };
}

function dateAfter(date: SimpleDate, days: number): SimpleDate {
  const moved = new Date((dayNumber(date) + days) * 86_400_000);
  return { y: moved.getUTCFullYear(), m: moved.getUTCMonth() + 1, d: moved.getUTCDate() };
}

function periodJson(period: Period): { start: string; end: string } {
  return { start: isoDate(period.start), end: isoDate(period.end) };
}

// ---------------------------------------------------------------- BS_NAME_MATCH

export function evaluateHolderName(context: EvaluationContext): Finding {
  const expected =
    typeof context.expected.borrower_name === "string"
      ? context.expected.borrower_name.trim()
      : typeof context.expected.name === "string"
        ? context.expected.name.trim()
        : "";
  const statements = readStatements(context);
  if (expected === "") {
    const seen = statements.flatMap((s) => s.holders.map((h) => h.value));
    return insufficient(
      `no borrower name in metadata (borrower_info.name): cannot verify BS_NAME_MATCH${seen.length > 0 ? ` (statements name ${seen.map(quote).join(", ")})` : ""}`,
    );
  }
  if (statements.length === 0) return noStatements(context);
  const matches = (value: string) => splitJointNames(value).some((name) => personNamesMatch(name, expected));
  const matched: Array<Located<string>> = [];
  const mismatched: Array<Located<string>> = [];
  const unnamed: string[] = [];
  for (const statement of statements) {
    if (statement.holders.length > 0) {
      // Joint accounts label each owner; the borrower only needs to be one of them.
      const borrower = statement.holders.find((holder) => matches(holder.value));
      if (borrower) matched.push(borrower);
      else mismatched.push(statement.holders[0] as Located<string>);
      continue;
    }
    // No "Account Holder" label: the mailing address block on page 1 names the owner.
    const page = statement.pages[0];
    let found: Located<string> | undefined;
    for (let index = 0; page && index < Math.min(page.lines.length, 20) && !found; index++) {
      const part = segments(page.lines[index] ?? "").find((p) => matches(p.text));
      if (part) found = { value: part.text, page, line: index };
    }
    if (found) matched.push(found);
    else unnamed.push(statement.document);
  }
  if (mismatched.length > 0) {
    return {
      status: "not_fulfilled",
      reason: `account holder does not match ${quote(expected)} (borrower_info.name): ${mismatched.map((h) => `${h.page.document} names ${quote(h.value)}`).join("; ")}`,
      citations: mismatched.map(at),
      observed: { holders: mismatched.map((h) => ({ document: h.page.document, name: h.value })) },
      missing: mismatched.map(
        (h) =>
          `${h.page.document} names ${quote(h.value)} as account holder; the file says ${quote(expected)}`,
      ),
      remedies: mismatched.map(
        (h) =>
          `Provide statements of an account held by ${expected}, or document that ${expected} owns the account of ${h.page.document} (held by ${quote(h.value)})`,
      ),
    };
  }
  if (unnamed.length > 0) {
    return insufficient(
      `no account holder name found in ${listNames(unnamed)} (expected e.g. "Account Holder: ${expected}")${unreadableNote(context)}`,
      undefined,
      {
        missing: unnamed.map((document) => `${document} shows no account holder name`),
        remedies: unnamed.map(
          (document) => `Provide a complete copy of ${document}, with the page that names the account holder`,
        ),
      },
    );
  }
  if (context.unreadable.length > 0) {
    return insufficient(`the readable statements name ${quote(expected)}${unreadableNote(context)}`);
  }
  return {
    status: "fulfilled",
    reason: `every statement names the borrower as account holder: ${matched.map((h) => `${h.page.document}: ${quote(h.value)}`).join("; ")} (matches ${quote(expected)}, case and middle initials ignored)`,
    citations: matched.map(at),
    observed: { holders: matched.map((h) => ({ document: h.page.document, name: h.value })) },
  };
}

// ---------------------------------------------------------------- BS_SAME_ACCOUNT

export function evaluateSameAccount(context: EvaluationContext): Finding {
  const statements = readStatements(context);
  if (statements.length === 0) return noStatements(context);
  const primary = statements.map((statement) => ({ statement, account: statement.accounts[0] }));
  const known = primary.filter(
    (p): p is { statement: Statement; account: Located<string> } => p.account !== undefined,
  );
  const missing = primary.filter((p) => p.account === undefined).map((p) => p.statement.document);
  const expected =
    typeof context.expected.account_last4 === "string" ? context.expected.account_last4 : undefined;
  const distinct = [...new Set(known.map((p) => p.account.value))];
  const summary = known.map((p) => `${p.statement.document}: account ending ${p.account.value}`).join("; ");
  const observed = {
    accounts: known.map((p) => ({ document: p.statement.document, last4: p.account.value })),
  };
  if (distinct.length > 1 || (expected && distinct.length === 1 && distinct[0] !== expected)) {
    const reference = expected ?? mostFrequent(known.map((p) => p.account.value));
    const others = known.filter((p) => p.account.value !== reference);
    return {
      status: "not_fulfilled",
      reason: `the statements are not all for the same account${expected ? ` (expected the account ending ${expected})` : ""}: ${summary}`,
      citations: known.map((p) => at(p.account)),
      observed,
      missing: others.map(
        (p) =>
          `statement of the account ending ${reference} for the period of ${p.statement.document}, which is for the account ending ${p.account.value}`,
      ),
      remedies: others.map(
        (p) =>
          `Provide the statement of the account ending ${reference} in place of ${p.statement.document}, or explain the account ending ${p.account.value} and provide its statements for the same months`,
      ),
    };
  }
  if (missing.length > 0 || known.length === 0) {
    return insufficient(
      `no account number found in ${listNames(missing)} (expected e.g. "Account Number: ****1234" or "Account ending in 1234")${summary ? `; ${summary}` : ""}`,
      observed,
      {
        missing: missing.map((document) => `${document} shows no account number`),
        remedies: missing.map(
          (document) => `Provide a complete copy of ${document}, with the page that shows the account number`,
        ),
      },
    );
  }
  if (context.unreadable.length > 0) {
    return insufficient(
      `the readable statements are for the account ending ${distinct[0]}${unreadableNote(context)}`,
      observed,
    );
  }
  return {
    status: "fulfilled",
    reason:
      known.length === 1
        ? `one statement, for the account ending ${distinct[0]} (${known[0]?.statement.document})`
        : `all ${known.length} statements are for the account ending ${distinct[0]}: ${summary}`,
    citations: known.map((p) => at(p.account)),
    observed,
  };
}

// ---------------------------------------------------------------- BS_NO_NSF

export function evaluateNoNsf(context: EvaluationContext): Finding {
  const statements = readStatements(context);
  if (statements.length === 0) return noStatements(context);
  const fees = statements.flatMap((statement) => statement.fees);
  if (fees.length > 0) {
    return {
      status: "not_fulfilled",
      reason: `NSF/overdraft/returned-item fees found: ${fees.map((fee) => `${fee.page.document} page ${fee.page.page}: ${quote(fee.value.label)} ${formatMoney(fee.value.amount)}`).join("; ")}`,
      citations: fees.map(at),
      observed: {
        fees: fees.map((fee) => ({
          document: fee.page.document,
          page: fee.page.page,
          date: fee.value.date ? isoDate(fee.value.date) : null,
          label: fee.value.label,
          amount: fee.value.amount,
        })),
      },
      missing: fees.map((fee) => `letter of explanation for ${describeFee(fee)}`),
      remedies: fees.map(
        (fee) =>
          `Obtain a letter of explanation for ${describeFee(fee)}, statement ${fee.page.document} page ${fee.page.page}`,
      ),
    };
  }
  const unread = statements.filter(
    (statement) => statement.transactions.length === 0 && statement.zeroFeeLines.length === 0,
  );
  if (unread.length > 0) {
    return insufficient(
      `no transactions could be read in ${listNames(unread.map((s) => s.document))}, so the absence of fees is not established${unreadableNote(context)}`,
    );
  }
  if (context.unreadable.length > 0) {
    return insufficient(
      `no NSF, overdraft or returned-item fee in the readable statements${unreadableNote(context)}`,
    );
  }
  const citations = statements.map((statement) => {
    const zeroFees = statement.zeroFeeLines[0];
    if (zeroFees) return at(zeroFees);
    const period = statement.periods[0];
    if (period) return at(period);
    const transaction = statement.transactions[0] as Transaction;
    return cite(transaction.page, transaction.line);
  });
  const count = statements.reduce((sum, statement) => sum + statement.transactions.length, 0);
  return {
    status: "fulfilled",
    reason: `no NSF, overdraft or returned-item fee in ${statements.length} statement(s) (${count} transactions read: ${listNames(statements.map((s) => s.document))})`,
    citations,
  };
}

// ---------------------------------------------------------------- BS_LARGE_DEPOSITS

export function evaluateLargeDeposits(context: EvaluationContext): Finding {
  const income = parseMoney(context.expected.monthly_income);
  const ratio = Number(context.expected.income_ratio) || 0.5;
  if (income === null || income <= 0) {
    return insufficient(
      `no monthly_income in metadata (borrower_info.monthly_income): cannot verify BS_LARGE_DEPOSITS${context.expected.monthly_income !== undefined ? ` ("${String(context.expected.monthly_income)}" is not a positive amount)` : ""}`,
    );
  }
  const threshold = Math.round(income * ratio * 100) / 100;
  const statements = readStatements(context);
  if (statements.length === 0) return noStatements(context);
  const all = statements.flatMap((statement) => statement.transactions);
  const deposits = all.filter((t) => t.direction === "credit");
  const rule = `${formatMoney(threshold)} (${Math.round(ratio * 100)}% of monthly income ${formatMoney(income)})`;
  const large = deposits.filter((t) => t.amount > threshold);
  if (large.length > 0) {
    const letters: LetterOfExplanation[] = large.map((t) => ({
      document: t.page.document,
      page: t.page.page,
      date: t.date ? isoDate(t.date) : null,
      amount: t.amount,
      description: t.description,
      excerpt: cite(t.page, t.line).excerpt,
      reason: `deposit of ${formatMoney(t.amount)} exceeds ${rule}: needs a letter of explanation`,
    }));
    return {
      status: "not_fulfilled",
      reason: `${large.length} deposit(s) exceed ${rule} and need a letter of explanation: ${letters.map((l) => `${l.date ?? "undated"} ${formatMoney(l.amount)} ${quote(l.description)} (${l.document} page ${l.page})`).join("; ")}`,
      citations: large.map((t) => cite(t.page, t.line)),
      letters_of_explanation: letters,
      observed: { threshold, deposits_read: deposits.length },
      missing: letters.map((letter) => `letter of explanation for ${describeDeposit(letter)}`),
      remedies: letters.map(
        (letter) =>
          `Obtain a letter of explanation for ${describeDeposit(letter)}, statement ${letter.document} page ${letter.page}`,
      ),
    };
  }
  const unclear = all.filter((t) => t.direction === "unknown" && t.amount > threshold);
  if (unclear.length > 0) {
    return insufficient(
      `could not tell whether these transactions above ${rule} are deposits: ${unclear.map((t) => `${t.date ? isoDate(t.date) : "undated"} ${formatMoney(t.amount)} ${quote(t.description)} (${t.page.document} page ${t.page.page})`).join("; ")}`,
      undefined,
      {
        missing: unclear.map(
          (t) =>
            `whether the ${t.date ? isoDate(t.date) : "undated"} transaction of ${formatMoney(t.amount)} (${t.description}) is a deposit`,
        ),
        remedies: unclear.map(
          (t) =>
            `Confirm whether the ${t.date ? isoDate(t.date) : "undated"} transaction of ${formatMoney(t.amount)} (${t.description}), statement ${t.page.document} page ${t.page.page}, is a deposit; if it is, obtain a letter of explanation for it`,
        ),
      },
    );
  }
  const unread = statements.filter((statement) => statement.transactions.length === 0);
  if (unread.length > 0) {
    return insufficient(
      `no transactions could be read in ${listNames(unread.map((s) => s.document))}: expected lines with a date, description and amount${unreadableNote(context)}`,
    );
  }
  if (context.unreadable.length > 0) {
    return insufficient(`no deposit above ${rule} in the readable statements${unreadableNote(context)}`);
  }
  const largest = [...deposits].sort((p, q) => q.amount - p.amount)[0];
  const citations = largest
    ? [cite(largest.page, largest.line)]
    : statements.map((s) =>
        s.periods[0]
          ? at(s.periods[0])
          : cite((s.transactions[0] as Transaction).page, (s.transactions[0] as Transaction).line),
      );
  return {
    status: "fulfilled",
    reason: largest
      ? `no deposit exceeds ${rule}: ${deposits.length} deposit(s) read in ${statements.length} statement(s), the largest ${formatMoney(largest.amount)} on ${largest.date ? isoDate(largest.date) : "an unreadable date"} (${largest.page.document} page ${largest.page.page})`
      : `no deposits in ${statements.length} statement(s) (${all.length} transactions read, none a deposit)`,
    citations,
    observed: { threshold, deposits_read: deposits.length, largest_deposit: largest?.amount ?? null },
  };
}

/** "the 2025-03-12 deposit of $12,500.00 (WIRE TRANSFER FROM …)". */
function describeDeposit(letter: LetterOfExplanation): string {
  return `the ${letter.date ?? "undated"} deposit of ${formatMoney(letter.amount)} (${letter.description})`;
}

/** "the 2025-03-18 fee of $35.00 (NSF Fee - Returned Item)". */
function describeFee(fee: Statement["fees"][number]): string {
  const date = fee.value.date ? isoDate(fee.value.date) : "undated";
  return `the ${date} fee of ${formatMoney(fee.value.amount)} (${fee.value.label})`;
}

/** The most frequent value; the first seen wins a tie. */
function mostFrequent(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = values[0] ?? "";
  for (const [value, count] of counts) if (count > (counts.get(best) ?? 0)) best = value;
  return best;
}
