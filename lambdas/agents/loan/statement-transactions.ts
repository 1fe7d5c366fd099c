import type { Cell } from "./pdf-text.ts";
import type { Direction, Period, Transaction } from "./statement-fields.ts";
import {
  type DateOrder,
  dateInPeriods,
  dayNumber,
  type FoundAmount,
  findAmounts,
  leadingDate,
  type PageText,
  type SimpleDate,
  scannedLeadingDate,
  segments,
} from "./text.ts";

// ---------------------------------------------------------------- transactions

type Section = "deposits" | "withdrawals" | "balances" | "mixed" | "loan" | "none";
type ColumnKind = "credit" | "debit" | "amount" | "balance" | "loan" | "other";

/** "Credits" heads a table; "Granite Valley Federal Credit Union" names the bank. */
const CREDIT_HEADING = /deposits?|credits?(?!\s+union)|additions/i;
const DEBIT_HEADING =
  /withdrawals?|debits?|checks?\s+paid|\bchecks\b|payments|purchases|service\s+(?:fees|charges)|\bfees\b|atm|card\s+transactions|subtractions/i;
const BALANCE_HEADING =
  /daily\s+(?:ending\s+)?balances?|balance\s+summary|ending\s+daily\s+balances?|daily\s+balance\s+information/i;
const MIXED_HEADING =
  /transaction\s+(?:details|history|activity|detail)|account\s+activity|\btransactions\b|activity\s+detail/i;
/** A loan or credit line listed beside the deposit accounts: its payments are not deposits. */
const LOAN_HEADING = /\b(?:loan|line\s+of\s+credit|mortgage|heloc)\b/i;
const ACCOUNT_HEADING_WORDS = /\b(?:savings|checking|share|draft|certificate|money\s+market)\b/i;
/** "Forward" as scans misread it: "FORNARD", "FONWARD", "FORWARO". */
const FORWARD = "\\bf[o0][rn]\\w{2,4}\\b";
const BALANCE_LINE = new RegExp(
  `(?:beginning|opening|previous|starting|start|ending|end|closing|new)\\s+balance|balance\\s+(?:${FORWARD}|brought|carried)`,
  "i",
);
/** A balance line that opens the table: the balance the first row starts from. */
const OPENING_BALANCE = new RegExp(`beginning|opening|previous|starting|${FORWARD}|brought`, "i");
const CREDIT_WORDS =
  /deposit|payroll|dir(?:ect)?\s*dep|ach\s+credit|credit\b(?!\s+card)|transfer\s+from|xfer\s+from|zelle\s+from|from\s+savings|refund|interest\s+(?:paid|earned)|dividend|reversal|incoming\s+wire|wire\s+(?:transfer\s+)?(?:in|from)/i;
const DEBIT_WORDS =
  /withdrawal|purchase|payment|\bpmt\b|debit|\bcheck\b|\bchk\b|\bfee\b|transfer\s+to|xfer\s+to|zelle\s+to|\batm\b|\bpos\b|autopay|bill\s+pay|outgoing\s+wire/i;
const COLUMN_WORD =
  /^(?:date|posted|post\s+date|posting\s+date|description|transaction\s+description|transaction|details|check(?:\s+no\.?|\s+number|\s+#)?|number|no\.|amount|withdrawals?(?:\s*(?:\/|and)\s*(?:other\s+)?debits)?|debits?|deposits?(?:\s*(?:\/|and)\s*(?:other\s+)?credits)?|credits?|additions|subtractions|balance|ending\s+(?:daily\s+)?balance|daily\s+balance|running\s+balance|date\s+paid|principal|interest|payment|ref(?:erence)?|instances)$/i;

export function headingSection(line: string): Section | null {
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
  if (LOAN_HEADING.test(first)) return "loan";
  // Another sub-account's heading ("SHARE SAVINGS (ID 00)") ends the previous table.
  if (ACCOUNT_HEADING_WORDS.test(first) && segments(trimmed).length === 1) return "none";
  return null;
}

interface ColumnHead {
  kind: ColumnKind;
  cell: Cell;
}

/**
 * A table's header row ("Date  Description  Withdrawals  Deposits  Balance"): the kinds of its
 * columns, and where each sits on the page when positions are known.
 */
function columnHeads(page: PageText, line: number): { kinds: Set<ColumnKind>; heads: ColumnHead[] } | null {
  const parts = segments(page.lines[line] ?? "");
  if (parts.length < 2 || !parts.every((part) => COLUMN_WORD.test(part.text))) return null;
  const kinds = new Set(parts.map((part) => columnKind(part.text)));
  const cells = page.cells?.[line];
  const heads =
    cells && cells.length === parts.length
      ? cells.map((cell) => ({ kind: columnKind(cell.text), cell }))
      : [];
  return { kinds, heads };
}

function columnKind(heading: string): ColumnKind {
  if (/balance/i.test(heading)) return "balance";
  if (/principal|interest/i.test(heading)) return "loan";
  if (/withdrawal|debit|subtraction|payment|check/i.test(heading)) return "debit";
  if (/deposit|credit|addition/i.test(heading)) return "credit";
  if (/amount/i.test(heading)) return "amount";
  return "other";
}

/** The header column an amount sits under: the nearest by horizontal centre, if it overlaps it. */
function columnOf(heads: ColumnHead[], page: PageText, line: number, amount: FoundAmount): ColumnKind | null {
  const cell = page.cells?.[line]?.find(
    (c) => amount.start >= c.start && amount.start < c.start + c.text.length,
  );
  if (!cell) return null;
  const centre = (cell.x + cell.right) / 2;
  let best: ColumnHead | null = null;
  for (const head of heads) {
    if (head.kind === "other" || head.kind === "loan") continue;
    const overlaps = cell.x < head.cell.right + 4 && cell.right > head.cell.x - 4;
    if (!overlaps) continue;
    const distance = Math.abs(centre - (head.cell.x + head.cell.right) / 2);
    if (!best || distance < Math.abs(centre - (best.cell.x + best.cell.right) / 2)) best = head;
  }
  return best?.kind ?? null;
}

const signed = (amount: FoundAmount) => (amount.sign === "-" ? -amount.value : amount.value);

/** A checks-paid table row: one or more "number  date  amount" groups. */
const CHECK_GROUP =
  /(?:^|\s{2,})(\d{3,7})\*?\s{2,}(\d{1,2}\/\d{1,2}(?:\/\d{2,4})?)\s{2,}(\$?\d{1,3}(?:,\d{3})*\.\d{2})/g;

export function readTransactions(pages: PageText[], periods: Period[], order: DateOrder): Transaction[] {
  const transactions: Transaction[] = [];
  let section: Section = "none";
  let heads: ColumnHead[] = [];
  let balance: number | null = null;
  /** The balance was printed on the row just before (or is the opening balance): nothing read since changed it. */
  let balanceFresh = false;
  /** The date of the last dated row read. */
  let lastDate: SimpleDate | null = null;
  /** A heading naming a loan: its table is the loan's when its header has principal/interest columns. */
  let loanHeading = false;
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      const header = columnHeads(page, index);
      if (header) {
        heads = header.heads;
        if (header.kinds.has("loan") && loanHeading) section = "loan";
        else if (header.kinds.has("credit") && header.kinds.has("debit")) section = "mixed";
        loanHeading = false;
        return;
      }
      const heading = headingSection(line);
      if (heading) {
        section = heading === "loan" ? "none" : heading;
        loanHeading = heading === "loan";
        heads = [];
        return;
      }
      if (section === "balances" || section === "loan") return;
      const amounts = columnAmounts(line);
      if (BALANCE_LINE.test(line)) {
        const last = amounts[amounts.length - 1];
        if (last && OPENING_BALANCE.test(line)) {
          balance = signed(last);
          balanceFresh = true;
        }
        return;
      }
      const date = leadingDate(line) ?? (page.ocr ? scannedDate(line, periods, order) : null);
      if (!date) {
        if (section !== "withdrawals") return;
        const checks = checkRows(page, index, periods, order);
        transactions.push(...checks);
        if (checks.length > 0) balanceFresh = false;
        return;
      }
      if (amounts.length === 0) return;
      const placed = amounts.map((amount) => ({ amount, column: columnOf(heads, page, index, amount) }));
      const entry = placed.find((p) => p.column !== "balance") ?? placed[0];
      if (!entry) return;
      if (entry.column === "balance") {
        // Only the running balance was read (a scan lost the amount beside it, "1.4" for 1.48): the
        // balance is not the row's amount; the change from the balance before it is, when read.
        // Only from the balance of the row just before: a row between them whose balance was not
        // read leaves the difference two rows' worth.
        const before = balanceFresh ? balance : null;
        balance = signed(entry.amount);
        balanceFresh = true;
        const change = before === null ? 0 : Math.round((balance - before) * 100) / 100;
        const description = line
          .slice(date.length, entry.amount.start)
          .replace(/\s{2,}/g, " ")
          .trim();
        if (change === 0 || !/[A-Za-z]{2,}/.test(description)) return;
        // A "withdrawal" the balance grew by (or a "deposit" it shrank by) is a misread balance.
        if (change > 0 ? DEBIT_WORDS.test(description) : CREDIT_WORDS.test(description)) return;
        transactions.push({
          page,
          line: index,
          date: rowDate(page, date.text, periods, order),
          description,
          amount: Math.abs(change),
          direction: change > 0 ? "credit" : "debit",
          source: "running_balance",
        });
        return;
      }
      const amount = entry.amount;
      const description =
        wordsOf(line.slice(date.length, amount.start)) || (page.ocr ? wrappedDescription(page, index) : "");
      // A line of dates and amounts only is a daily-balance row, not a transaction.
      if (!/[A-Za-z]{2,}/.test(description)) return;
      const runningBalance =
        placed.find((p) => p.column === "balance" && p !== entry)?.amount ??
        (amounts.length >= 2 ? amounts[amounts.length - 1] : undefined);
      const newBalance = runningBalance ? signed(runningBalance) : null;
      const dated = rowDate(page, date.text, periods, order);
      // The balances printed just before and on the row differ by exactly its amount: arithmetic
      // confirms the amount and settles its direction over a heading or a word (a scan reads "CREDIT
      // UNION" as a deposits heading). Not over a printed sign or the column it stands in, and only
      // when the rows run forward in time: listed newest first, the balance before a row is the
      // next one's, and two equal amounts in a row would fake the sum.
      const forward = !dated || !lastDate || dayNumber(lastDate) <= dayNumber(dated);
      const balanced =
        balanceFresh && forward ? arithmeticDirection(balance, amount.value, newBalance) : null;
      let direction: Direction = "unknown";
      if (amount.sign === "-") direction = "debit";
      else if (amount.sign === "+") direction = "credit";
      else if (entry.column === "credit" || entry.column === "debit") direction = entry.column;
      else if (balanced) direction = balanced;
      else if (section === "deposits") direction = "credit";
      else if (section === "withdrawals") direction = "debit";
      // A running balance column settles the direction of unsigned amounts.
      if (direction === "unknown" && forward && balance !== null && newBalance !== null) {
        direction = arithmeticDirection(balance, amount.value, newBalance) ?? "unknown";
      }
      if (direction === "unknown") {
        const credit = CREDIT_WORDS.test(description);
        // "DEPOSIT AT BRANCH - CHECK 4471", "MOBILE CHECK DEPOSIT": the check is what was deposited.
        const debit = DEBIT_WORDS.test(
          /deposit/i.test(description) ? description.replace(/\b(?:check|chk)\b/gi, "") : description,
        );
        if (credit && !debit) direction = "credit";
        else if (debit && !credit) direction = "debit";
      }
      if (newBalance !== null) balance = newBalance;
      balanceFresh = newBalance !== null;
      if (dated) lastDate = dated;
      transactions.push({
        page,
        line: index,
        date: dated,
        description,
        amount: amount.value,
        direction,
        ...(balanced !== null && balanced === direction ? { balanced: true } : {}),
      });
    });
  }
  // Ledgers that print debits negative print credits unsigned.
  const signedDebits = transactions.some(
    (t) => t.direction === "debit" && /-|\(|DR/i.test(lineAmountText(t)),
  );
  if (signedDebits) {
    for (const transaction of transactions) {
      if (transaction.direction === "unknown" && !/-|\(|DR/i.test(lineAmountText(transaction)))
        transaction.direction = "credit";
    }
  }
  return transactions;
}

function wordsOf(text: string): string {
  return text.replace(/\s{2,}/g, " ").trim();
}

/**
 * The description a scan put on the line under its row ("03:09  $125.00", then "Zelle Payment
 * From R Okafor"): that line has words, no date, no amount, and is no heading or balance line.
 */
function wrappedDescription(page: PageText, index: number): string {
  const next = page.lines[index + 1] ?? "";
  if (
    leadingDate(next) ||
    scannedLeadingDate(next) ||
    findAmounts(next).length > 0 ||
    headingSection(next) ||
    BALANCE_LINE.test(next) ||
    columnHeads(page, index + 1)
  )
    return "";
  const words = wordsOf(next);
  return /[A-Za-z]{3,}/.test(words) ? words : "";
}

/**
 * A row's date. On a scan, a date outside the statement's periods (a week either side) is a
 * misreading ("08/12/26" for 05/12/26): the row is undated rather than dated wrongly.
 */
function rowDate(page: PageText, text: string, periods: Period[], order: DateOrder): SimpleDate | null {
  const date = dateInPeriods(text, periods, order);
  if (!date || !page.ocr || periods.length === 0) return date;
  const day = dayNumber(date);
  const inside = periods.some(
    (period) => day >= dayNumber(period.start) - 7 && day <= dayNumber(period.end) + 7,
  );
  return inside ? date : null;
}

/** Whether `amount` took `before` to `after` as a credit or a debit; null when neither, or unknown. */
function arithmeticDirection(before: number | null, amount: number, after: number | null): Direction | null {
  if (before === null || after === null || amount === 0) return null;
  if (Math.abs(before + amount - after) < 0.005) return "credit";
  if (Math.abs(before - amount - after) < 0.005) return "debit";
  return null;
}

function checkRows(page: PageText, index: number, periods: Period[], order: DateOrder): Transaction[] {
  const line = page.lines[index] ?? "";
  const rows: Transaction[] = [];
  CHECK_GROUP.lastIndex = 0;
  for (let match = CHECK_GROUP.exec(line); match; match = CHECK_GROUP.exec(line)) {
    const amount = findAmounts(match[3] ?? "")[0];
    if (!amount) continue;
    rows.push({
      page,
      line: index,
      date: rowDate(page, match[2] ?? "", periods, order),
      description: `Check ${match[1]}`,
      amount: amount.value,
      direction: "debit",
    });
  }
  return rows;
}

/** Amounts standing alone in a column of the line ("$34.00"), not inside a sentence or description. */
export function standaloneAmounts(line: string): FoundAmount[] {
  const parts = segments(line);
  return findAmounts(line).filter((amount) =>
    parts.some(
      (part) =>
        amount.start >= part.start &&
        amount.end <= part.start + part.text.length &&
        part.text.replace(amount.text, "").replace(/[$\s]/g, "") === "",
    ),
  );
}

/**
 * The amounts of a line's amount columns. An amount inside a description ("Insufficient Funds
 * Fee For A $120.00 Item") is not the transaction's amount; amounts standing alone in a column
 * are. Lines without column gaps fall back to every amount on the line.
 */
function columnAmounts(line: string): FoundAmount[] {
  const standalone = standaloneAmounts(line);
  return standalone.length > 0 ? standalone : findAmounts(line);
}

function lineAmountText(transaction: Transaction): string {
  const line = transaction.page.lines[transaction.line] ?? "";
  return columnAmounts(line)[0]?.text ?? "";
}

/** A scan's misread leading date ("03:09", "0313"), taken only when it falls in a statement period. */
function scannedDate(
  line: string,
  periods: ReadonlyArray<{ start: SimpleDate; end: SimpleDate }>,
  order: DateOrder,
): { text: string; length: number } | null {
  const scanned = scannedLeadingDate(line);
  if (!scanned || periods.length === 0) return null;
  const date = dateInPeriods(scanned.text, periods, order);
  if (!date) return null;
  const day = dayNumber(date);
  return periods.some((period) => day >= dayNumber(period.start) && day <= dayNumber(period.end))
    ? scanned
    : null;
}
