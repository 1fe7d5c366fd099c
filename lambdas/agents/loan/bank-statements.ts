// Evaluators of the "Bank Statements" conditions, and the extraction report of a statement. Each
// file is read into a statement by the field finders of statement-fields.ts (period, holder,
// account number, transactions with their direction, fees); where a finder found nothing, a
// model-located value for that field and document may stand in (its quote verified on its page).
import {
  type AssistedField,
  type AssistedRow,
  type ExtractionReport,
  type FieldReading,
  found,
  notFound,
} from "./extraction.ts";
import type { ExtractedDocument } from "./pdf-text.ts";
import {
  citationOf,
  citationsOf,
  type Located,
  NOT_FOUND,
  type Period,
  readFees,
  readStatement,
  type Statement,
  type Transaction,
} from "./statement-fields.ts";
import { printedElsewhere } from "./statement-holders.ts";
import {
  cite,
  comparePersonNames,
  dateAfter,
  dayNumber,
  findDateRanges,
  findDates,
  formatMoney,
  generation,
  isoDate,
  lettersOnly,
  type PageText,
  parseDate,
  personNamesMatch,
  quote,
  type SimpleDate,
  segments,
  splitJointNames,
  splitRunTogetherInitials,
} from "./text.ts";
import {
  type EvaluationContext,
  type Finding,
  insufficient,
  listNames,
  mismatchedKinds,
  mismatchNote,
  unreadableNote,
  withSpecifics,
} from "./verdict.ts";

// ---------------------------------------------------------------- reading the statements

/** Confidence of a value a model located: below anything the finders read beside its label. */
const MODEL_CONFIDENCE = 0.6;

/**
 * Fills the fields the finders could not locate in `statement` with the model-located values for
 * its document: the statement period, the holder's name, the account number.
 */
function withAssisted(statement: Statement, assisted: ReadonlyArray<AssistedField> | undefined): Statement {
  const mine = (assisted ?? []).filter((field) => field.document === statement.document);
  if (mine.length === 0) return statement;
  const locate = (field: AssistedField) => {
    const page = statement.pages[field.page - 1];
    if (!page?.text.includes(field.excerpt)) return null;
    const firstLine = field.excerpt.split("\n")[0] ?? "";
    const line = Math.max(
      0,
      page.lines.findIndex((text) => text.includes(firstLine)),
    );
    return { page, line, source: "model" as const, confidence: MODEL_CONFIDENCE, excerpt: field.excerpt };
  };
  const result = { ...statement };
  for (const field of mine) {
    const at = locate(field);
    if (!at) continue;
    if (field.field === "statement_period" && result.periods.length === 0) {
      const range =
        findDateRanges(field.value, statement.dateOrder)[0] ??
        findDateRanges(field.excerpt, statement.dateOrder)[0];
      if (range) result.periods = [{ ...at, value: { start: range.start, end: range.end } }];
    } else if (
      field.field === "holder_name" &&
      result.holders.length === 0 &&
      result.addressNames.length === 0
    ) {
      if (/[A-Za-z]{2,}/.test(field.value)) result.holders = [{ ...at, value: field.value.trim() }];
    } else if (field.field === "transactions" && result.transactions.length === 0 && field.rows) {
      result.transactions = modelRows(statement, field.rows);
      Object.assign(result, readFees(statement.pages, result.transactions));
    } else if (field.field === "account_number" && result.accounts.length === 0) {
      const digits = field.value.replace(/\D/g, "");
      if (digits.length >= 4) result.accounts = [{ ...at, value: digits.slice(-4) }];
    }
  }
  return result;
}

/** Rows a model listed, as transactions on the lines their quotes stand on. */
function modelRows(statement: Statement, rows: ReadonlyArray<AssistedRow>): Transaction[] {
  const period = statement.periods[0]?.value;
  return rows.flatMap((row): Transaction[] => {
    const page = statement.pages[row.page - 1];
    const firstLine = row.excerpt.split("\n")[0] ?? "";
    const line = page ? page.lines.findIndex((text) => text.includes(firstLine)) : -1;
    if (!page || line < 0) return [];
    let date = findDates(row.date, statement.dateOrder)[0]?.date ?? null;
    if (!date && period) {
      // A day and month without a year: the period's, or its first year's for a period across New Year.
      const guess = parseDate(row.date, period.end.y, statement.dateOrder);
      date =
        guess && period.start.y < period.end.y && guess.m > period.end.m
          ? { ...guess, y: period.start.y }
          : guess;
    }
    return [
      {
        page,
        line,
        date,
        description: row.description,
        amount: row.amount,
        direction: row.direction,
        source: "model",
      },
    ];
  });
}

// Every bank-statement condition reads the same documents; parse them once per evaluation.
const statementCache = new WeakMap<
  EvaluationContext["readable"],
  { assisted: EvaluationContext["assisted"]; statements: Statement[] }
>();

export function readStatements(context: EvaluationContext): Statement[] {
  const cached = statementCache.get(context.readable);
  if (cached && cached.assisted === context.assisted) return cached.statements;
  const statements: Statement[] = [];
  for (const document of context.readable) {
    const statement = readStatement(document);
    if (statement) statements.push(withAssisted(statement, context.assisted));
  }
  statementCache.set(context.readable, { assisted: context.assisted, statements });
  return statements;
}

export function noStatements(context: EvaluationContext): Finding {
  const others = mismatchedKinds(context, "a bank statement");
  if (context.readable.length === 0 && others.length > 0) {
    return insufficient(
      `no bank statement among the documents: ${others.join("; ")}${unreadableNote(context)}`,
    );
  }
  return insufficient(
    `no bank statement found among ${listNames(context.readable.map((d) => d.document))}: no statement_period, account_number or transactions located${mismatchNote(context, "a bank statement")}${unreadableNote(context)}`,
  );
}

/** "statement_period not located in a.pdf, b.pdf (<what was looked for>)". */
export function notLocated(field: keyof typeof NOT_FOUND, documents: string[]): string {
  return `${field} not located in ${listNames(documents)} (${NOT_FOUND[field]})`;
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
  const unperiodic = [
    ...statements.filter((statement) => statement.periods.length === 0).map((s) => s.document),
    // A scan OCR read too poorly to be recognised as a statement may be the month that is missing.
    ...unrecognisedScans(context, statements),
  ];
  if (periods.length === 0) {
    return insufficient(
      `no statement period found in ${listNames(unperiodic)}: ${notLocated("statement_period", unperiodic)}; expected e.g. "Statement Period: 01/01/2025 - 01/31/2025"${unreadableNote(context)}`,
      undefined,
      {
        missing: unperiodic.map((document) => `the statement period of ${document}`),
        remedies: unperiodic.map(
          (document) =>
            `Provide a complete copy of ${document}, with the page that shows its statement period`,
        ),
      },
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
      citations: chain.flatMap(citationsOf),
      observed,
    };
  }
  // A statement whose period could not be read might be the month that closes a gap.
  if (unperiodic.length > 0) {
    return insufficient(
      `no statement period found in ${listNames(unperiodic)}: ${notLocated("statement_period", unperiodic)}; the periods read (${described}) do not make ${minimum} consecutive recent months on their own${unreadableNote(context)}`,
      observed,
      {
        missing: unperiodic.map((document) => `the statement period of ${document}`),
        remedies: unperiodic.map(
          (document) =>
            `Provide a complete copy of ${document}, with the page that shows its statement period`,
        ),
      },
    );
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
      citations: chain.flatMap(citationsOf),
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
    citations: periods.flatMap(citationsOf),
    observed: observedGaps,
    ...withSpecifics(specifics),
  };
}

/**
 * A "fulfilled" about every statement rests on the statements read; a scan that could not be read
 * as one may be another statement (another holder, another account, a fee). Null when there is none.
 */
export function unrecognisedScansNote(
  context: EvaluationContext,
  statements: ReadonlyArray<Statement>,
): string | null {
  const scans = unrecognisedScans(context, statements);
  return scans.length
    ? `${listNames(scans)} ${scans.length === 1 ? "was" : "were"} read by OCR but could not be read as a statement (${notLocated("statement_period", scans)}), and may be one`
    : null;
}

/** Documents read by OCR that could not be read as a statement at all (no period, account or rows). */
export function unrecognisedScans(
  context: EvaluationContext,
  statements: ReadonlyArray<Statement>,
): string[] {
  return context.readable
    .filter(
      (document) =>
        document.page_sources?.some((source) => source.source === "ocr") &&
        !statements.some((statement) => statement.document === document.document),
    )
    .map((document) => document.document);
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

function periodJson(period: Period): { start: string; end: string } {
  return { start: isoDate(period.start), end: isoDate(period.end) };
}

// ---------------------------------------------------------------- BS_NAME_MATCH

/** Why a statement's holder could not be settled: no name at all, or a name read by position only. */
interface UnsettledHolder {
  document: string;
  detail: string;
  /** The other name its mailing address prints, when that is all there is. */
  addressed?: Located<string>;
}

/** Whether two names sit at the same place of page 1 (same line, same column): the same bank's layout. */
function samePlace(a: Located<string>, b: Located<string>): boolean {
  if (Math.abs(a.line - b.line) > 1) return false;
  const x = (located: Located<string>) =>
    located.page.cells?.[located.line]?.find((cell) => cell.start === located.offset)?.x;
  const [left, right] = [x(a), x(b)];
  return left !== undefined && right !== undefined ? Math.abs(left - right) <= 2 : a.offset === b.offset;
}

function sameName(a: string, b: string): boolean {
  const plain = (value: string) =>
    value
      .replace(/[^a-z]+/gi, " ")
      .trim()
      .toLowerCase();
  return plain(a) === plain(b) || personNamesMatch(a, b);
}

export function evaluateHolderName(context: EvaluationContext): Finding {
  const expected =
    typeof context.expected.borrower_name === "string"
      ? context.expected.borrower_name.trim()
      : typeof context.expected.name === "string"
        ? context.expected.name.trim()
        : "";
  const statements = readStatements(context);
  if (expected === "") {
    const seen = statements.flatMap((s) => [...s.holders, ...s.addressNames].map((h) => h.value));
    return insufficient(
      `no borrower name in metadata (borrower_info.name): cannot verify BS_NAME_MATCH${seen.length > 0 ? ` (statements name ${seen.map(quote).join(", ")})` : ""}`,
    );
  }
  if (statements.length === 0) return noStatements(context);
  // Joint owners are printed together ("JANE Q DOE OR JOHN DOE"); a sole proprietor's account
  // title adds the business ("JANE Q DOE DBA DOE DESIGN STUDIO"). The borrower need be one of them.
  const comparisons = (value: string) =>
    splitJointNames(value)
      .map((name) => name.split(/\s+(?:dba|d\/b\/a|t\/a)\s+/i)[0] ?? name)
      .map((name) => comparePersonNames(name, expected));
  // A scan runs words together: on OCR-read pages only, a name with an initial run into it ("JOHNA
  // SMITH JR") or with the borrower's letters in order ("JOHNSMITH") matches.
  const matches = (value: string, page?: PageText) =>
    comparisons(value).includes("match") ||
    (page?.ocr === true &&
      (comparisons(splitRunTogetherInitials(value, expected)).includes("match") ||
        splitJointNames(value).some((name) => lettersOnly(name) === lettersOnly(expected))));
  // The borrower's name with a generational suffix on one side only (JOHN SMITH for John Smith Jr.):
  // maybe the borrower, maybe the father or the son. Not a match, not another holder either.
  const generationOnly = (value: string) => comparisons(value).includes("generation_one_side");
  const matched: Array<Located<string>> = [];
  const mismatched: Array<Located<string>> = [];
  const suffixDiffers: Array<Located<string>> = [];
  const unsettled: UnsettledHolder[] = [];
  const addressMatches: Array<Located<string>> = [];
  for (const statement of statements) {
    const labelled = statement.holders.filter((holder) => holder.source !== "model");
    if (labelled.length > 0) {
      const borrower = labelled.find((holder) => matches(holder.value, holder.page));
      const suffixOnly = labelled.find((holder) => generationOnly(holder.value));
      if (borrower) matched.push(borrower);
      else if (suffixOnly) suffixDiffers.push(suffixOnly);
      else mismatched.push(labelled[0] as Located<string>);
      continue;
    }
    if (statement.addressNames.length > 0) {
      const borrower = statement.addressNames.find((holder) => matches(holder.value, holder.page));
      if (borrower) {
        matched.push(borrower);
        addressMatches.push(borrower);
        continue;
      }
      const suffixOnly = statement.addressNames.find((holder) => generationOnly(holder.value));
      if (suffixOnly) {
        suffixDiffers.push(suffixOnly);
        continue;
      }
      // The mailing address may name whoever receives the mail; a name printed there only once is
      // not proof of another holder. Printed again (a running page header), it is the holder's.
      const confirmed = statement.addressNames.find((holder) =>
        printedElsewhere(statement.pages, holder.value, holder),
      );
      if (confirmed) mismatched.push(confirmed);
      else {
        unsettled.push({
          document: statement.document,
          addressed: statement.addressNames[0] as Located<string>,
          detail: `holder_name was read only from the mailing address (${statement.addressNames.map((h) => quote(h.value)).join(", ")}, page 1), without an account-holder label; it does not match ${quote(expected)} and is printed nowhere else to confirm it is the account holder`,
        });
      }
      continue;
    }
    const page = statement.pages[0];
    let near: Located<string> | undefined;
    for (let index = 0; page && index < Math.min(page.lines.length, 20) && !near; index++) {
      const part = segments(page.lines[index] ?? "").find((p) => matches(p.text, page));
      if (part) near = { value: part.text, page, line: index, source: "position", confidence: 0.6 };
    }
    if (near) {
      matched.push(near);
      continue;
    }
    const located = statement.holders.find((holder) => holder.source === "model");
    if (located && matches(located.value)) {
      matched.push(located);
      continue;
    }
    unsettled.push({
      document: statement.document,
      detail: located
        ? `holder_name located by the model as ${quote(located.value)} (page ${located.page.page}), which does not match ${quote(expected)}; a model's reading alone does not establish another holder`
        : `holder_name not located: ${NOT_FOUND.holder_name}`,
    });
  }
  // Where another statement of the file prints the borrower at the very place of its mailing
  // address, that place is this bank's holder line: another name there is another holder.
  for (const entry of [...unsettled]) {
    const other = entry.addressed;
    if (!other || !addressMatches.some((holder) => samePlace(holder, other))) continue;
    mismatched.push(other);
    unsettled.splice(unsettled.indexOf(entry), 1);
  }
  // Month after month addressed to the same other person at the same place of the page: the
  // statements are that person's, not a one-off mailing name.
  const addressedElsewhere = unsettled.filter((entry) => entry.addressed !== undefined);
  for (const entry of addressedElsewhere) {
    const other = entry.addressed as Located<string>;
    const again = addressedElsewhere.some(
      (peer) =>
        peer !== entry &&
        peer.document !== entry.document &&
        samePlace(peer.addressed as Located<string>, other) &&
        sameName((peer.addressed as Located<string>).value, other.value),
    );
    if (!again) continue;
    mismatched.push(other);
    unsettled.splice(unsettled.indexOf(entry), 1);
  }
  if (mismatched.length > 0) {
    return {
      status: "not_fulfilled",
      reason: `account holder does not match ${quote(expected)} (borrower_info.name): ${mismatched.map((h) => `${h.page.document} names ${quote(h.value)}`).join("; ")}`,
      citations: mismatched.map(citationOf),
      observed: {
        holders: mismatched.map((h) => ({ document: h.page.document, name: h.value, source: h.source })),
      },
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
  if (suffixDiffers.length > 0) {
    const suffix = (name: string) => generation(name)?.toUpperCase();
    const differences = suffixDiffers.map((h) => {
      const printed = suffix(h.value);
      const filed = suffix(expected);
      return `${h.page.document} names ${quote(h.value)}${printed ? ` (${printed})` : " (no generational suffix)"} and the file says ${quote(expected)}${filed ? ` (${filed})` : " (no generational suffix)"}`;
    });
    const others = unsettled.map((u) => `${u.document} (${u.detail})`);
    return {
      ...insufficient(
        `account holder name matches ${quote(expected)} (borrower_info.name) except for a generational suffix on one side only, which may be another person (a father or a son): ${differences.join("; ")}${others.length > 0 ? `; and no account holder name found in ${others.join("; ")}` : ""}${unreadableNote(context)}`,
        {
          holders: suffixDiffers.map((h) => ({ document: h.page.document, name: h.value, source: h.source })),
        },
        {
          missing: differences.map((difference) => `${difference}: the generational suffix differs`),
          remedies: suffixDiffers.map(
            (h) =>
              `Confirm that ${quote(h.value)} on ${h.page.document} is the borrower ${expected} (not a relative with the same name), or correct borrower_info.name`,
          ),
        },
      ),
      citations: suffixDiffers.map(citationOf),
    };
  }
  if (unsettled.length > 0) {
    return insufficient(
      `no account holder name found in ${unsettled.map((u) => `${u.document} (${u.detail})`).join("; ")}; expected e.g. "Account Holder: ${expected}"${unreadableNote(context)}`,
      undefined,
      {
        missing: unsettled.map((u) => `${u.document} shows no account holder name`),
        remedies: unsettled.map(
          (u) => `Provide a complete copy of ${u.document}, with the page that names the account holder`,
        ),
      },
    );
  }
  if (context.unreadable.length > 0) {
    return insufficient(`the readable statements name ${quote(expected)}${unreadableNote(context)}`);
  }
  const unrecognisedName = unrecognisedScansNote(context, statements);
  if (unrecognisedName)
    return insufficient(`the statements read name ${quote(expected)}, but ${unrecognisedName}`);
  return {
    status: "fulfilled",
    reason: `every statement names the borrower as account holder: ${matched.map((h) => `${h.page.document}: ${quote(h.value)}${h.source === "model" ? " (located by the model)" : ""}`).join("; ")} (matches ${quote(expected)}, case and middle initials ignored)`,
    citations: matched.map(citationOf),
    observed: {
      holders: matched.map((h) => ({ document: h.page.document, name: h.value, source: h.source })),
    },
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
      citations: known.map((p) => citationOf(p.account)),
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
      `no account number found in ${listNames(missing)}: ${notLocated("account_number", missing)}; expected e.g. "Account Number: ****1234" or "Account ending in 1234"${summary ? `; ${summary}` : ""}`,
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
  const unrecognisedAccount = unrecognisedScansNote(context, statements);
  if (unrecognisedAccount) {
    return insufficient(
      `the statements read are for the account ending ${distinct[0]}, but ${unrecognisedAccount}`,
      observed,
    );
  }
  return {
    status: "fulfilled",
    reason:
      known.length === 1
        ? `one statement, for the account ending ${distinct[0]} (${known[0]?.statement.document})`
        : `all ${known.length} statements are for the account ending ${distinct[0]}: ${summary}`,
    citations: known.map((p) => citationOf(p.account)),
    observed,
  };
}

// ---------------------------------------------------------------- extraction report

type FeeLine = Statement["fees"][number];

/**
 * The fees a statement shows charged: its dated fee lines not credited back, else (when it itemizes
 * no fee at all) the fee totals it prints for the period.
 */
export function chargedFees(statement: Statement): FeeLine[] {
  if (statement.fees.length > 0 || statement.reversedFees.length > 0) return statement.fees;
  return statement.undatedFeeLines;
}

function reading<T>(field: string, located: Located<T>, value: string): FieldReading {
  const citation = citationOf(located);
  return found(
    field,
    value,
    { page: citation.page, excerpt: citation.excerpt },
    located.source,
    located.confidence,
  );
}

/**
 * What the finders located in one document read as a bank statement, and what they could not;
 * null when the document is not a bank statement. `assisted` are model-located values for fields
 * the finders could not locate, as the evaluators use them.
 */
export function statementExtraction(
  document: ExtractedDocument,
  assisted?: ReadonlyArray<AssistedField>,
): ExtractionReport | null {
  const read = readStatement(document);
  if (!read) return null;
  const statement = withAssisted(read, assisted);
  const fields: FieldReading[] = [];
  const period = statement.periods[0];
  fields.push(
    period
      ? reading("statement_period", period, statement.periods.map((p) => periodText(p.value)).join("; "))
      : notFound("statement_period", NOT_FOUND.statement_period),
  );
  const holder = statement.holders[0];
  const addressed = statement.addressNames[0];
  fields.push(
    holder
      ? reading("holder_name", holder, statement.holders.map((h) => h.value).join("; "))
      : addressed
        ? reading("holder_name", addressed, statement.addressNames.map((h) => h.value).join("; "))
        : notFound("holder_name", NOT_FOUND.holder_name),
  );
  const account = statement.accounts[0];
  fields.push(
    account
      ? reading("account_number", account, account.value)
      : notFound("account_number", NOT_FOUND.account_number),
  );
  const first = statement.transactions[0];
  fields.push(
    first
      ? found(
          "transactions",
          String(statement.transactions.length),
          { page: first.page.page, excerpt: cite(first.page, first.line).excerpt },
          first.source === "model" ? "model" : "table",
          first.source === "model" ? MODEL_CONFIDENCE : 1,
        )
      : notFound("transactions", NOT_FOUND.transactions),
  );
  if (statement.depositsTotal) {
    fields.push(reading("deposits_total", statement.depositsTotal, statement.depositsTotal.value.toFixed(2)));
  }
  const fees = chargedFees(statement);
  const firstFee = fees[0];
  const zero = statement.zeroFeeLines[0];
  if (firstFee) {
    fields.push(
      reading(
        "fees",
        firstFee,
        fees.map((fee) => `${fee.value.label} ${formatMoney(fee.value.amount)}`).join("; "),
      ),
    );
  } else if (zero) {
    fields.push(reading("fees", zero, "none"));
  }
  return { kind: "bank_statement", fields };
}

/** The most frequent value; the first seen wins a tie. */
function mostFrequent(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = values[0] ?? "";
  for (const [value, count] of counts) if (count > (counts.get(best) ?? 0)) best = value;
  return best;
}
