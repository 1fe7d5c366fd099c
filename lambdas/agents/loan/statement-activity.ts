// Evaluators of the statement conditions that rest on the transactions: BS_NO_NSF (no NSF,
// overdraft or returned-item fee charged and not reversed) and BS_LARGE_DEPOSITS (every deposit
// above the share of monthly income explained). Absence is concluded only from statements read in
// full: unread transactions, pages missing from the statement's own numbering or a deposits total
// the rows do not reach make the verdict insufficient_evidence.

import {
  chargedFees,
  noStatements,
  notLocated,
  readStatements,
  unrecognisedScansNote,
} from "./bank-statements.ts";
import { citationOf, type Statement, type Transaction } from "./statement-fields.ts";
import { cite, formatMoney, isoDate, parseMoney, quote } from "./text.ts";
import {
  type EvaluationContext,
  type Finding,
  insufficient,
  type LetterOfExplanation,
  listNames,
  unreadableNote,
} from "./verdict.ts";

// ---------------------------------------------------------------- BS_NO_NSF

export function evaluateNoNsf(context: EvaluationContext): Finding {
  const statements = readStatements(context);
  if (statements.length === 0) return noStatements(context);
  const fees = statements.flatMap(chargedFees);
  const reversed = statements.flatMap((statement) => statement.reversedFees);
  const reversedNote =
    reversed.length > 0
      ? `; not counted, because credited back in the same statement: ${reversed.map((r) => `${r.charge.page.document} ${describeFee(r.charge)}, credited by ${quote(r.reversal.value.label)}`).join("; ")}`
      : "";
  const observedReversed =
    reversed.length > 0
      ? {
          reversed_fees: reversed.map((r) => ({
            document: r.charge.page.document,
            date: r.charge.value.date ? isoDate(r.charge.value.date) : null,
            label: r.charge.value.label,
            amount: r.charge.value.amount,
            credited_by: r.reversal.value.label,
          })),
        }
      : {};
  if (fees.length > 0) {
    return {
      status: "not_fulfilled",
      reason: `NSF/overdraft/returned-item fees found: ${fees.map((fee) => `${fee.page.document} page ${fee.page.page}: ${quote(fee.value.label)} ${formatMoney(fee.value.amount)}`).join("; ")}${reversedNote}`,
      citations: fees.map((fee) => cite(fee.page, fee.line)),
      observed: {
        fees: fees.map((fee) => ({
          document: fee.page.document,
          page: fee.page.page,
          date: fee.value.date ? isoDate(fee.value.date) : null,
          label: fee.value.label,
          amount: fee.value.amount,
        })),
        ...observedReversed,
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
    const documents = unread.map((s) => s.document);
    return insufficient(
      `no transactions could be read in ${listNames(documents)}: ${notLocated("transactions", documents)}, so the absence of fees is not established${unreadableNote(context)}`,
    );
  }
  if (context.unreadable.length > 0) {
    return insufficient(
      `no NSF, overdraft or returned-item fee in the readable statements${unreadableNote(context)}`,
    );
  }
  const incomplete = incompleteStatements(statements);
  if (incomplete) {
    return insufficient(
      `no NSF, overdraft or returned-item fee in the pages read, but ${incomplete}`,
      undefined,
      {
        missing: incompleteMissing(statements),
        remedies: incompleteRemedies(statements),
      },
    );
  }
  const unchecked = unreconciledModelRows(statements) ?? unrecognisedScansNote(context, statements);
  if (unchecked) {
    return insufficient(`no NSF, overdraft or returned-item fee in the rows read, but ${unchecked}`);
  }
  const citations = statements.map((statement) => {
    const zeroFees = statement.zeroFeeLines[0];
    if (zeroFees) return citationOf(zeroFees);
    const period = statement.periods[0];
    if (period) return citationOf(period);
    const transaction = statement.transactions[0] as Transaction;
    return cite(transaction.page, transaction.line);
  });
  const count = statements.reduce((sum, statement) => sum + statement.transactions.length, 0);
  return {
    status: "fulfilled",
    reason: `no NSF, overdraft or returned-item fee in ${statements.length} statement(s) (${count} transactions read: ${listNames(statements.map((s) => s.document))})${reversedNote}`,
    citations,
    ...(reversed.length > 0 ? { observed: observedReversed } : {}),
  };
}

/** Statements whose own page numbers show pages missing from the file, described; null when none. */
function incompleteStatements(statements: Statement[]): string | null {
  const short = statements.filter((statement) => statement.missingPages.length > 0);
  if (short.length === 0) return null;
  return `${short.map((statement) => `${statement.document} is missing page${statement.missingPages.length > 1 ? "s" : ""} ${statement.missingPages.join(", ")} of its own numbering`).join("; ")}: the transactions on ${short.length > 1 || (short[0]?.missingPages.length ?? 0) > 1 ? "those pages" : "that page"} were never read`;
}

function incompleteMissing(statements: Statement[]): string[] {
  return statements
    .filter((statement) => statement.missingPages.length > 0)
    .map((statement) => `page(s) ${statement.missingPages.join(", ")} of ${statement.document}`);
}

function incompleteRemedies(statements: Statement[]): string[] {
  return statements
    .filter((statement) => statement.missingPages.length > 0)
    .map(
      (statement) =>
        `Obtain the complete statement ${statement.document} (page(s) ${statement.missingPages.join(", ")} are missing)`,
    );
}

// ---------------------------------------------------------------- BS_LARGE_DEPOSITS

const credited = (statement: Statement) =>
  Math.round(
    statement.transactions.filter((t) => t.direction === "credit").reduce((s, t) => s + t.amount, 0) * 100,
  ) / 100;

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
      reason: `deposit of ${formatMoney(t.amount)}${t.source === "running_balance" ? " (the change of the running balance; the amount itself was not read)" : ""} exceeds ${rule}: needs a letter of explanation`,
    }));
    return {
      status: "not_fulfilled",
      reason: `${large.length} deposit(s) exceed ${rule} and need a letter of explanation: ${letters.map((l) => `${l.date ?? "undated"} ${formatMoney(l.amount)} ${quote(l.description)} (${l.document} page ${l.page})`).join("; ")}`,
      citations: large.map((t) => ({
        ...cite(t.page, t.line),
        ...(t.balanced ? { confirmed_by: "running_balance" as const } : {}),
      })),
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
      `could not tell whether these transactions above ${rule} are deposits (transactions: no column, sign or running balance gives their direction): ${unclear.map((t) => `${t.date ? isoDate(t.date) : "undated"} ${formatMoney(t.amount)} ${quote(t.description)} (${t.page.document} page ${t.page.page})`).join("; ")}`,
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
    const documents = unread.map((s) => s.document);
    return insufficient(
      `no transactions could be read in ${listNames(documents)}: ${notLocated("transactions", documents)}; expected lines with a date, description and amount${unreadableNote(context)}`,
    );
  }
  // Deposits the statement totals but the lines read do not reach: one of them may be large.
  const shortfalls = statements.flatMap((statement) => {
    const total = statement.depositsTotal;
    if (!total) return [];
    const missed = Math.round((total.value - credited(statement)) * 100) / 100;
    return missed > threshold ? [{ statement, total, missed }] : [];
  });
  if (shortfalls.length > 0) {
    return insufficient(
      `deposits printed but not read: ${shortfalls.map((s) => `${s.statement.document} prints deposits of ${formatMoney(s.total.value)} (page ${s.total.page.page}) but its deposit lines read sum to ${formatMoney(credited(s.statement))}, so ${formatMoney(s.missed)} of deposits (transactions) could not be located`).join("; ")}; a deposit above ${rule} may be among them`,
      { threshold, deposits_read: deposits.length },
      {
        missing: shortfalls.map(
          (s) => `the deposit lines of ${s.statement.document} totalling ${formatMoney(s.missed)}`,
        ),
        remedies: shortfalls.map(
          (s) =>
            `Review the deposits of ${s.statement.document} by hand: ${formatMoney(s.missed)} of its printed deposit total could not be read line by line`,
        ),
      },
    );
  }
  if (context.unreadable.length > 0) {
    return insufficient(`no deposit above ${rule} in the readable statements${unreadableNote(context)}`);
  }
  const incomplete = incompleteStatements(statements);
  if (incomplete) {
    return insufficient(`no deposit above ${rule} in the pages read, but ${incomplete}`, undefined, {
      missing: incompleteMissing(statements),
      remedies: incompleteRemedies(statements),
    });
  }
  const unchecked = unreconciledModelRows(statements) ?? unrecognisedScansNote(context, statements);
  if (unchecked) return insufficient(`no deposit above ${rule} in the rows read, but ${unchecked}`);
  const largest = [...deposits].sort((p, q) => q.amount - p.amount)[0];
  const citations = largest
    ? [cite(largest.page, largest.line)]
    : statements.map((s) =>
        s.periods[0]
          ? citationOf(s.periods[0])
          : cite((s.transactions[0] as Transaction).page, (s.transactions[0] as Transaction).line),
      );
  // A statement whose deposit rows sum to the deposits total it prints was read whole and right:
  // its printed total is cited as what confirms the absence.
  const reconciled = statements.filter((statement) => depositsReconcile(statement));
  const totals = reconciled.map((statement) => ({
    ...citationOf(statement.depositsTotal as NonNullable<Statement["depositsTotal"]>),
    confirmed_by: "deposits_total" as const,
  }));
  const reconciledNote =
    reconciled.length > 0
      ? `; the deposits read sum to the deposits total printed on ${reconciled.map((statement) => `${statement.document} (${formatMoney(credited(statement))})`).join(", ")}`
      : "";
  return {
    status: "fulfilled",
    reason: `${
      largest
        ? `no deposit exceeds ${rule}: ${deposits.length} deposit(s) read in ${statements.length} statement(s), the largest ${formatMoney(largest.amount)} on ${largest.date ? isoDate(largest.date) : "an unreadable date"} (${largest.page.document} page ${largest.page.page})`
        : `no deposits in ${statements.length} statement(s) (${all.length} transactions read, none a deposit)`
    }${reconciledNote}`,
    citations: [...citations, ...totals],
    observed: { threshold, deposits_read: deposits.length, largest_deposit: largest?.amount ?? null },
  };
}

/** The statement's deposit rows read sum, to the cent, to the (non-zero) deposits total it prints. */
function depositsReconcile(statement: Statement): boolean {
  const total = statement.depositsTotal;
  return total !== null && total.value > 0 && Math.abs(credited(statement) - total.value) < 0.005;
}

/**
 * Statements whose rows a model listed (the table readers found none) and whose listed deposits do
 * not add up to the deposits total the statement prints, described; null when there are none. A
 * model can leave rows out unseen, so only the printed total shows its list is whole.
 */
function unreconciledModelRows(statements: Statement[]): string | null {
  const unchecked = statements.flatMap((statement) => {
    if (!statement.transactions.some((transaction) => transaction.source === "model")) return [];
    const total = statement.depositsTotal;
    if (!total)
      return [
        `${statement.document}'s rows were listed by a model and it prints no deposits total to check them against`,
      ];
    const sum = credited(statement);
    return Math.abs(sum - total.value) < 0.005
      ? []
      : [
          `${statement.document}'s rows listed by a model sum to deposits of ${formatMoney(sum)}, not the ${formatMoney(total.value)} it prints (page ${total.page.page})`,
        ];
  });
  return unchecked.length
    ? `${unchecked.join("; ")}: rows may be missing, so their absence is not established`
    : null;
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
