// Evaluators of the "1120 Corporate Tax Return" conditions. They read the text the way an
// underwriter reads the form: by its printed labels (box B "Employer identification number",
// "Name", the "Sign Here" block) and the values next to or under them, on page 1 first.
import {
  businessNamesMatch,
  type Citation,
  cite,
  DATE_SOURCE,
  documentPages,
  findDates,
  firstTextLine,
  isoDate,
  type PageText,
  parseDate,
  quote,
  type Segment,
  segments,
} from "./text.ts";
import {
  type EvaluationContext,
  type Finding,
  insufficient,
  listNames,
  unreadableNote,
  withSpecifics,
} from "./verdict.ts";

const TAX_RETURN_MARK =
  /\bForm\s*1120\b|Corporation\s+Income\s+Tax\s+Return|Schedule\s+L\b[\s\-–—:.|]*Balance\s+Sheets?/i;
const PAGE_ONE_TITLE = /U\.?\s?S\.?\s+Corporation\s+Income\s+Tax\s+Return/i;
const SCHEDULE_L = /Schedule\s+L\b[\s\-–—:.|]*Balance\s+Sheets?(?:\s+per\s+Books)?/i;

interface TaxReturnView {
  pages: PageText[];
  /** Pages that are page 1 of Form 1120, in document order. */
  pageOne: PageText[];
  documents: string[];
}

function view(context: EvaluationContext): TaxReturnView {
  const pages: PageText[] = [];
  const documents: string[] = [];
  for (const document of context.readable) {
    const all = documentPages(document);
    // A return split in two files may carry the Form 1120 markers in one file only, so a file
    // counts as part of the return when any of its pages does.
    if (all.some((page) => TAX_RETURN_MARK.test(page.text))) {
      pages.push(...all);
      documents.push(document.document);
    }
  }
  const pageOne = pages.filter(isPageOne);
  return { pages, pageOne, documents };
}

function isPageOne(page: PageText): boolean {
  return (
    PAGE_ONE_TITLE.test(page.text) ||
    (/\bForm\s*1120\b/i.test(page.text) && /For\s+calendar\s+year/i.test(page.text))
  );
}

/** Page 1 first: the identification boxes and the signature live there. */
function searchOrder(view: TaxReturnView): PageText[] {
  return [...view.pageOne, ...view.pages.filter((page) => !view.pageOne.includes(page))];
}

function noReturn(context: EvaluationContext): Finding {
  const names = context.readable.map((document) => document.document);
  return insufficient(
    `no Form 1120 found: none of ${listNames(names)} mentions "Form 1120" or "U.S. Corporation Income Tax Return"${unreadableNote(context)}`,
  );
}

function lineOfOffset(page: PageText, offset: number): number {
  let consumed = 0;
  for (let index = 0; index < page.lines.length; index++) {
    consumed += (page.lines[index] ?? "").length + 1;
    if (offset < consumed) return index;
  }
  return Math.max(0, page.lines.length - 1);
}

function where(page: PageText): string {
  return `${page.document} page ${page.page}`;
}

// ---------------------------------------------------------------- TR_SIGNED

const SIGNATURE_LABEL = /signature\s+of\s+officer/i;
/** Printed text of the signature area that is never the signer or the date. */
const SIGN_BLOCK_PRINT =
  /perjury|declare|examined|accompanying|belief|knowledge|declaration|may the irs|discuss|preparer|see instructions|self-employed|ptin|firm'?s|print\/type|^(?:yes|no|sign|here|sign here|paid|use only|title|date|signature(?: of officer)?)$/i;

interface SignatureReading {
  page: PageText;
  labelLine: number;
  valueLine: number | null;
  signer: string | null;
  date: string | null;
  title: string | null;
}

function cleanSignatureValue(value: string): string {
  return value
    .replace(/_{2,}/g, " ")
    .replace(/^\s*\/s\/\s*/i, "")
    .trim();
}

const OFFICER_TITLE =
  /^(?:(?:vice\s+|executive\s+)?president|ceo|cfo|coo|treasurer|secretary|director|owner|officer|chairman|chair|member|manager|managing\s+member|partner|principal)(?:\s*(?:&|and|,|\/)\s*\w+)*$/i;

function looksLikeName(value: string): boolean {
  return /[A-Za-z]{2,}/.test(value) && !SIGN_BLOCK_PRINT.test(value) && findDates(value).length === 0;
}

/** Signer, date and title from the values of one line (signature left, date, then title). */
function readValueLine(line: string): { signer: string | null; date: string | null; title: string | null } {
  const parts: Segment[] = segments(line).filter((part) => !SIGN_BLOCK_PRINT.test(part.text.trim()));
  let signer: string | null = null;
  let date: string | null = null;
  let title: string | null = null;
  for (const part of parts) {
    const value = cleanSignatureValue(part.text);
    if (value === "") continue;
    const dates = findDates(value);
    const first = dates[0];
    if (!date && first) {
      date = first.text;
      const before = cleanSignatureValue(value.slice(0, first.start));
      const after = value.slice(first.end).trim();
      if (!signer && looksLikeName(before)) signer = before;
      if (after && looksLikeName(after)) title = after;
      continue;
    }
    if (!looksLikeName(value)) continue;
    // The signature is left of the date; a name-like value right of it is the officer's title.
    if (date || OFFICER_TITLE.test(value)) title = title ?? value;
    else if (!signer) signer = value;
    else title = title ?? value;
  }
  return { signer, date, title };
}

/** "Signature of officer: Robert Tanner  Date: 03/10/2025  Title: President" on one line. */
function readInlineLabels(line: string): {
  signer: string | null;
  date: string | null;
  title: string | null;
} {
  const signer = /signature\s+of\s+officer\s*[:-]\s*(.*?)(?=\s{2,}|\s+date\b|$)/i.exec(line)?.[1];
  const date = new RegExp(`\\bdate(?:d|\\s+signed)?\\s*[:\\-]?\\s*(${DATE_SOURCE})`, "i").exec(line)?.[1];
  const title = /\btitle\s*[:-]\s*(.*?)(?=\s{2,}|$)/i.exec(line)?.[1];
  const cleanSigner = signer ? cleanSignatureValue(signer) : "";
  const cleanTitle = title ? cleanSignatureValue(title) : "";
  return {
    signer: looksLikeName(cleanSigner) ? cleanSigner : null,
    date: date ?? null,
    title: cleanTitle !== "" && looksLikeName(cleanTitle) ? cleanTitle : null,
  };
}

function readSignature(page: PageText, labelLine: number): SignatureReading {
  const label = page.lines[labelLine] ?? "";
  const inline = readInlineLabels(label);
  const reading: SignatureReading = { page, labelLine, valueLine: null, ...inline };
  if (reading.signer && reading.date) return reading;
  // Printed forms put the values on the line above the labels; some layouts put them below.
  for (const candidate of [labelLine - 1, labelLine + 1]) {
    const line = page.lines[candidate];
    if (line === undefined) continue;
    const values = readValueLine(line);
    if (!values.signer && !values.date) continue;
    reading.valueLine = candidate;
    reading.signer = reading.signer ?? values.signer;
    reading.date = reading.date ?? values.date;
    reading.title = reading.title ?? values.title;
    break;
  }
  return reading;
}

export function evaluateSigned(context: EvaluationContext): Finding {
  const tax = view(context);
  if (tax.pages.length === 0) return noReturn(context);
  const readings: SignatureReading[] = [];
  for (const page of searchOrder(tax)) {
    page.lines.forEach((line, index) => {
      if (SIGNATURE_LABEL.test(line)) readings.push(readSignature(page, index));
    });
  }
  if (readings.length === 0) {
    const signHere = searchOrder(tax).find((page) => /Sign\s+Here/i.test(page.text));
    return insufficient(
      signHere
        ? `${where(signHere)} has a "Sign Here" block but no "Signature of officer" line to read the signer from${unreadableNote(context)}`
        : `no "Sign Here" block (with "Signature of officer") found in ${listNames(tax.documents)}${unreadableNote(context)}`,
    );
  }
  const citationOf = (reading: SignatureReading): Citation =>
    reading.valueLine === null
      ? cite(reading.page, reading.labelLine)
      : cite(reading.page, reading.valueLine, reading.labelLine, {
          line: reading.valueLine,
          start: 0,
          end: 0,
        });
  const unsigned = readings.filter((reading) => !reading.signer || !reading.date);
  if (unsigned.length > 0) {
    const problems = unsigned.map((reading) => {
      const blanks = [
        reading.signer ? null : "the signature of officer is blank",
        reading.date ? null : "the date is blank",
      ].filter(Boolean);
      return `${where(reading.page)} "Sign Here" block: ${blanks.join(" and ")}${reading.signer ? ` (signer: ${reading.signer})` : ""}${reading.date ? ` (date: ${reading.date})` : ""}`;
    });
    return {
      status: "not_fulfilled",
      reason: `the return is not signed and dated by an officer: ${problems.join("; ")}`,
      citations: unsigned.map(citationOf),
      observed: { signer: unsigned[0]?.signer ?? null, date: unsigned[0]?.date ?? null },
      ...signatureSpecifics(unsigned),
    };
  }
  const first = readings[0] as SignatureReading;
  return {
    status: "fulfilled",
    reason: `${where(first.page)} "Sign Here" block is signed by ${first.signer}${first.title ? ` (${first.title})` : ""} and dated ${first.date}`,
    citations: readings.map(citationOf),
    observed: { signer: first.signer, date: first.date, title: first.title },
  };
}

/** Which of signature and date is blank, and who should fill it in, per unsigned "Sign Here" block. */
function signatureSpecifics(unsigned: SignatureReading[]): Pick<Finding, "missing" | "remedies"> {
  const missing: string[] = [];
  const remedies: string[] = [];
  for (const reading of unsigned) {
    const block = `the "Sign Here" block on page ${reading.page.page} of ${reading.page.document}`;
    if (!reading.signer) missing.push(`officer's signature in ${block}`);
    if (!reading.date) missing.push(`date beside the officer's signature in ${block}`);
    if (!reading.signer && !reading.date) {
      remedies.push(`Have an officer sign and date ${block}, then provide the signed return`);
    } else if (!reading.signer) {
      const dated = reading.date ? (parseDate(reading.date) ?? null) : null;
      remedies.push(
        `Have an officer sign ${block} (it is dated ${dated ? isoDate(dated) : reading.date} but not signed), then provide the signed return`,
      );
    } else {
      remedies.push(
        `Have the officer who signed (${reading.signer}) date ${block}, then provide the dated return`,
      );
    }
  }
  return withSpecifics({ missing, remedies });
}

// ---------------------------------------------------------------- TR_TAX_YEAR

interface YearReading {
  year: number;
  page: PageText;
  line: number;
  source: string;
}

function readTaxYears(tax: TaxReturnView): YearReading[] {
  const readings: YearReading[] = [];
  const seenDocuments = new Set<string>();
  const patterns: Array<{
    source: string;
    pattern: RegExp;
    year: (match: RegExpExecArray) => number | null;
  }> = [
    { source: "For calendar year", pattern: /For\s+calendar\s+year\s+(\d{4})\b/i, year: (m) => Number(m[1]) },
    {
      source: "tax year beginning",
      pattern: new RegExp(`tax\\s+year\\s+beginning\\s*(${DATE_SOURCE})`, "i"),
      year: (m) => parseDate(m[1] ?? "")?.y ?? null,
    },
    { source: "Form 1120 (year)", pattern: /\bForm\s*1120\s*\((\d{4})\)/i, year: (m) => Number(m[1]) },
  ];
  // One year per file, from its most authoritative statement; page 1's header beats a footer.
  for (const { source, pattern, year } of patterns) {
    for (const page of searchOrder(tax)) {
      if (seenDocuments.has(page.document)) continue;
      const match = pattern.exec(page.text);
      const value = match ? year(match) : null;
      if (match && value && value > 1900 && value < 2200) {
        readings.push({ year: value, page, line: lineOfOffset(page, match.index), source });
        seenDocuments.add(page.document);
      }
    }
  }
  return readings;
}

export function evaluateTaxYear(context: EvaluationContext): Finding {
  const tax = view(context);
  if (tax.pages.length === 0) return noReturn(context);
  const readings = readTaxYears(tax);
  if (readings.length === 0) {
    return insufficient(
      `no tax year found on the return (${listNames(tax.documents)}): expected "For calendar year YYYY" on Form 1120 page 1${unreadableNote(context)}`,
    );
  }
  const expectedYear = Number(context.expected.tax_year);
  const years = [...new Set(readings.map((reading) => reading.year))];
  const describe = (reading: YearReading) =>
    `${where(reading.page)} ("${reading.source}") shows tax year ${reading.year}`;
  const citation = (reading: YearReading) => cite(reading.page, reading.line);
  if (Number.isInteger(expectedYear) && expectedYear > 0) {
    const matching = readings.filter((reading) => reading.year === expectedYear);
    if (matching.length > 0) {
      const others = readings.filter((reading) => reading.year !== expectedYear);
      return {
        status: "fulfilled",
        reason: `${describe(matching[0] as YearReading)}, equal to the expected ${expectedYear} (extracted_entities.tax_year)${others.length > 0 ? `; other files show ${others.map((r) => r.year).join(", ")}` : ""}`,
        citations: matching.map(citation),
        observed: { tax_years: years },
      };
    }
    return {
      status: "not_fulfilled",
      reason: `${readings.map(describe).join("; ")}; expected ${expectedYear} (extracted_entities.tax_year)`,
      citations: readings.map(citation),
      observed: { tax_years: years },
      missing: [
        `return for tax year ${expectedYear} (extracted_entities.tax_year): the return provided shows ${years.join(" and ")}`,
      ],
      remedies: [
        `Provide the Form 1120 for tax year ${expectedYear}, or correct extracted_entities.tax_year if the ${years.join(" and ")} return is the one intended`,
      ],
    };
  }
  const accepted = acceptedYears(context);
  const wrong = readings.filter((reading) => !accepted.includes(reading.year));
  const basis = `the two most recent completed tax years before ${context.asOf.y}-${String(context.asOf.m).padStart(2, "0")}-${String(context.asOf.d).padStart(2, "0")} are ${accepted.join(" and ")}`;
  if (wrong.length > 0) {
    const shown = [...new Set(wrong.map((reading) => reading.year))].join(" and ");
    return {
      status: "not_fulfilled",
      reason: `${wrong.map(describe).join("; ")}, but ${basis} (no tax_year in metadata)`,
      citations: wrong.map(citation),
      observed: { tax_years: years, accepted_tax_years: accepted },
      missing: [`tax year not given (extracted_entities.tax_year) and the return shows ${shown}`],
      remedies: [
        `Provide the Form 1120 for ${accepted.join(" or ")} (the return provided is for ${shown}), or give the expected tax year in extracted_entities.tax_year`,
      ],
    };
  }
  return {
    status: "fulfilled",
    reason: `${readings.map(describe).join("; ")}; ${basis} (no tax_year in metadata)`,
    citations: readings.map(citation),
    observed: { tax_years: years, accepted_tax_years: accepted },
  };
}

function acceptedYears(context: EvaluationContext): number[] {
  const given = context.expected.accepted_tax_years;
  if (Array.isArray(given) && given.length > 0 && given.every((year) => Number.isInteger(year))) {
    return given as number[];
  }
  return [context.asOf.y - 1, context.asOf.y - 2];
}

// ---------------------------------------------------------------- TR_EIN_MATCH

const EIN_LABEL = /employer\s+identification\s+(?:number|no\.?)|\bEIN\b/gi;
const EIN_VALUE = /(?<![\d-])(\d{2})[-\s]?(\d{7})(?![\d-])/g;
/** Identification numbers of the paid preparer's firm, printed on the same page. */
const PREPARER_EIN = /(?:firm'?s|preparer'?s?)\s*(?:EIN|employer\s+identification)/i;

interface EinReading {
  ein: string;
  page: PageText;
  fromLine: number;
  line: number;
}

function einAfter(page: PageText, lineIndex: number, offset: number): EinReading | null {
  for (let index = lineIndex; index <= Math.min(page.lines.length - 1, lineIndex + 3); index++) {
    const line = page.lines[index] ?? "";
    const from = index === lineIndex ? offset : 0;
    EIN_VALUE.lastIndex = from;
    for (let match = EIN_VALUE.exec(line); match; match = EIN_VALUE.exec(line)) {
      if (PREPARER_EIN.test(line.slice(Math.max(0, match.index - 40), match.index))) continue;
      return { ein: `${match[1]}-${match[2]}`, page, fromLine: lineIndex, line: index };
    }
  }
  return null;
}

function readEins(tax: TaxReturnView): EinReading[] {
  const readings: EinReading[] = [];
  for (const page of searchOrder(tax)) {
    page.lines.forEach((line, index) => {
      EIN_LABEL.lastIndex = 0;
      for (let match = EIN_LABEL.exec(line); match; match = EIN_LABEL.exec(line)) {
        if (PREPARER_EIN.test(line.slice(Math.max(0, match.index - 12), match.index + match[0].length)))
          continue;
        const found = einAfter(page, index, match.index + match[0].length);
        if (found) readings.push(found);
        break;
      }
    });
    if (readings.length > 0) break;
  }
  if (readings.length > 0) return readings;
  // No label: any NN-NNNNNNN on the return that is not the preparer's.
  for (const page of searchOrder(tax)) {
    for (let index = 0; index < page.lines.length; index++) {
      const line = page.lines[index] ?? "";
      EIN_VALUE.lastIndex = 0;
      for (let match = EIN_VALUE.exec(line); match; match = EIN_VALUE.exec(line)) {
        if (!/-/.test(match[0])) continue;
        if (PREPARER_EIN.test(line.slice(Math.max(0, match.index - 40), match.index))) continue;
        return [{ ein: match[0], page, fromLine: index, line: index }];
      }
    }
  }
  return [];
}

export function evaluateEin(context: EvaluationContext): Finding {
  const given = context.expected.ein;
  // A JSON number loses the leading zero of EINs such as 01-2345678.
  const expectedRaw =
    typeof given === "string"
      ? given
      : typeof given === "number"
        ? String(given).padStart(9, "0")
        : undefined;
  const expectedDigits = expectedRaw?.replace(/\D/g, "");
  if (!expectedRaw || expectedDigits?.length !== 9) {
    const tax = view(context);
    const seen = tax.pages.length > 0 ? readEins(tax)[0]?.ein : undefined;
    const given = expectedRaw
      ? `the file's EIN "${expectedRaw}" (extracted_entities.ein) is not NN-NNNNNNN`
      : "EIN not given (extracted_entities.ein)";
    return insufficient(
      `${expectedRaw ? `metadata EIN "${expectedRaw}" is not NN-NNNNNNN` : "no EIN in metadata (extracted_entities.ein)"}: cannot verify TR_EIN_MATCH${seen ? ` (the return shows ${seen})` : ""}`,
      seen ? { ein: seen } : undefined,
      seen
        ? {
            missing: [`${given} and the return shows EIN ${seen}`],
            remedies: [
              `Give the EIN on file in extracted_entities.ein (NN-NNNNNNN); the return shows ${seen}`,
            ],
          }
        : {},
    );
  }
  const expected = `${expectedDigits.slice(0, 2)}-${expectedDigits.slice(2)}`;
  const tax = view(context);
  if (tax.pages.length === 0) return noReturn(context);
  const readings = readEins(tax);
  if (readings.length === 0) {
    return insufficient(
      `no employer identification number (NN-NNNNNNN) found on the return (${listNames(tax.documents)})${unreadableNote(context)}`,
    );
  }
  const citation = (reading: EinReading) =>
    cite(reading.page, reading.fromLine, reading.line, { line: reading.line, start: 0, end: 0 });
  const mismatched = readings.filter((reading) => reading.ein.replace(/\D/g, "") !== expectedDigits);
  if (mismatched.length > 0) {
    const first = mismatched[0] as EinReading;
    const compared = `the return shows EIN ${first.ein}; the file says ${expected}`;
    return {
      status: "not_fulfilled",
      reason: `${where(first.page)} shows employer identification number ${first.ein}; metadata expects ${expected}`,
      citations: mismatched.map(citation),
      observed: { ein: first.ein },
      missing: [compared],
      remedies: [
        `Confirm the borrower's EIN (${compared}): provide the return filed under ${expected}, or correct extracted_entities.ein`,
      ],
    };
  }
  const first = readings[0] as EinReading;
  return {
    status: "fulfilled",
    reason: `${where(first.page)} shows employer identification number ${first.ein}, equal to the expected ${expected}`,
    citations: readings.map(citation),
    observed: { ein: first.ein },
  };
}

// ---------------------------------------------------------------- TR_NAME_MATCH

const NAME_LABEL =
  /^(?:[A-Z]\s+)?(?:name(?:\s+of\s+corporation)?|corporation(?:'s)?\s+name|business\s+name|taxpayer(?:'s)?\s+name|name\s+of\s+taxpayer)\b\s*[:-]?\s*(.*)$/i;
/** Printed captions near the name box that are never the corporation's name. */
const FORM_CAPTION =
  /employer\s+identification|number,\s*street|city\s+or\s+town|date\s+incorporated|total\s+assets|check\s+if|see\s+instructions|type\s+or\s+print|name\s+change|address\s+change|initial\s+return|final\s+return|consolidated\s+return|schedule\s+[a-z]|attach|form\s+\d|omb\s+no|^name$|p\.?o\.?\s+box/i;

interface NameCandidate {
  name: string;
  page: PageText;
  labelLine: number;
  line: number;
}

function isNameValue(value: string): boolean {
  const trimmed = value.trim();
  if (!/[A-Za-z]{2,}/.test(trimmed)) return false;
  if (FORM_CAPTION.test(trimmed)) return false;
  if (findDates(trimmed).length > 0) return false;
  if (/^\$?[\d,.\s]+$/.test(trimmed)) return false;
  // Form line numbers ("1a Gross receipts") and street addresses ("1250 Industrial Pkwy").
  if (/^\d{1,5}[a-z]?\s/i.test(trimmed)) return false;
  EIN_VALUE.lastIndex = 0;
  return !EIN_VALUE.test(trimmed);
}

function nameCandidates(page: PageText): NameCandidate[] {
  const candidates: NameCandidate[] = [];
  page.lines.forEach((line, index) => {
    const parts = segments(line);
    parts.forEach((part, partIndex) => {
      const label = NAME_LABEL.exec(part.text);
      if (!label) return;
      const inline = (label[1] ?? "").trim();
      if (inline !== "") {
        if (isNameValue(inline)) candidates.push({ name: inline, page, labelLine: index, line: index });
        return;
      }
      const next = parts[partIndex + 1];
      if (next && isNameValue(next.text)) {
        candidates.push({ name: next.text, page, labelLine: index, line: index });
        return;
      }
      // Value under the label: prefer the column at the label's position.
      for (let below = index + 1; below <= Math.min(page.lines.length - 1, index + 2); below++) {
        const belowParts = segments(page.lines[below] ?? "");
        const aligned = belowParts.length === parts.length ? belowParts[partIndex] : undefined;
        const ordered = aligned ? [aligned, ...belowParts.filter((p) => p !== aligned)] : belowParts;
        const value = ordered.find((p) => isNameValue(p.text));
        if (value) {
          candidates.push({ name: value.text, page, labelLine: index, line: below });
          return;
        }
      }
    });
  });
  return candidates;
}

export function evaluateName(context: EvaluationContext): Finding {
  const expected =
    typeof context.expected.business_name === "string" ? context.expected.business_name.trim() : "";
  const tax = view(context);
  const pages = tax.pageOne.length > 0 ? tax.pageOne : searchOrder(tax);
  const candidates = pages.flatMap(nameCandidates);
  if (expected === "") {
    return insufficient(
      `no business name in metadata (borrower_info.business_name): cannot verify TR_NAME_MATCH${candidates[0] ? ` (the return names ${quote(candidates[0].name)})` : ""}`,
      candidates[0] ? { corporation_name: candidates[0].name } : undefined,
    );
  }
  if (tax.pages.length === 0) return noReturn(context);
  const citation = (candidate: NameCandidate) =>
    cite(candidate.page, candidate.labelLine, candidate.line, { line: candidate.line, start: 0, end: 0 });
  const match = candidates.find((candidate) => businessNamesMatch(candidate.name, expected));
  if (match) {
    return {
      status: "fulfilled",
      reason: `${where(match.page)} names the corporation ${quote(match.name)}, which matches ${quote(expected)} (case, punctuation and legal suffixes ignored)`,
      citations: [citation(match)],
      observed: { corporation_name: match.name },
    };
  }
  const first = candidates[0];
  if (first) {
    return {
      status: "not_fulfilled",
      reason: `${where(first.page)} names the corporation ${quote(first.name)}, which does not match ${quote(expected)} (borrower_info.business_name)`,
      citations: [citation(first)],
      observed: { corporation_name: first.name },
      missing: [`the return names ${quote(first.name)}; the file says ${quote(expected)}`],
      remedies: [
        `Document why the return names ${quote(first.name)} and the file says ${quote(expected)} (a DBA filing, a name change or a merger), or provide the return of ${expected}`,
      ],
    };
  }
  // No "Name" label: accept the expected name only where it stands as a value of its own.
  for (const page of pages) {
    for (let index = 0; index < page.lines.length; index++) {
      const part = segments(page.lines[index] ?? "").find((p) => businessNamesMatch(p.text, expected));
      if (part) {
        return {
          status: "fulfilled",
          reason: `${where(page)} shows ${quote(part.text)}, which matches ${quote(expected)} (no "Name" label found; matched by value)`,
          citations: [cite(page, index)],
          observed: { corporation_name: part.text },
        };
      }
    }
  }
  return insufficient(
    `no corporation name found on the return (${listNames(tax.documents)}): expected a "Name" box on Form 1120 page 1${unreadableNote(context)}`,
  );
}

// ---------------------------------------------------------------- TR_COMPLETE

export function evaluateComplete(context: EvaluationContext): Finding {
  const tax = view(context);
  const pageOne = tax.pageOne[0];
  const scheduleL = tax.pages.find((page) => SCHEDULE_L.test(page.text));
  const citationPageOne = (page: PageText) => {
    const match = PAGE_ONE_TITLE.exec(page.text) ?? /\bForm\s*1120\b/i.exec(page.text);
    return cite(page, match ? lineOfOffset(page, match.index) : firstTextLine(page));
  };
  const citationScheduleL = (page: PageText) => {
    const match = SCHEDULE_L.exec(page.text);
    const first = match ? lineOfOffset(page, match.index) : firstTextLine(page);
    const last = match ? lineOfOffset(page, match.index + match[0].length - 1) : first;
    return cite(page, first, last);
  };
  if (pageOne && scheduleL) {
    return {
      status: "fulfilled",
      reason: `the return includes Form 1120 page 1 (${where(pageOne)}) and Schedule L, Balance Sheets per Books (${where(scheduleL)})`,
      citations: [citationPageOne(pageOne), citationScheduleL(scheduleL)],
    };
  }
  const missing = [
    pageOne ? null : "Form 1120 page 1",
    scheduleL ? null : "Schedule L (Balance Sheets per Books)",
  ].filter((part): part is string => part !== null);
  // A scanned file may hold the missing part: absence is only proven when every file was read.
  const absent = [
    pageOne ? null : "page 1 of the Form 1120",
    scheduleL ? null : "Schedule L (Balance Sheets per Books) of the Form 1120",
  ].filter((part): part is string => part !== null);
  const lacking = tax.documents.length > 0 ? ` (${listNames(tax.documents)} lacks it)` : "";
  const parts = { missing: absent, remedies: absent.map((part) => `Provide ${part}${lacking}`) };
  if (context.unreadable.length > 0) {
    return insufficient(
      `${missing.join(" and ")} not found in the readable files${unreadableNote(context)}`,
      undefined,
      parts,
    );
  }
  const citations: Citation[] = [];
  if (pageOne) citations.push(citationPageOne(pageOne));
  if (scheduleL) citations.push(citationScheduleL(scheduleL));
  if (citations.length === 0) {
    for (const document of context.readable) {
      const page = documentPages(document).find((p) => p.text.trim() !== "");
      if (page) citations.push(cite(page, firstTextLine(page)));
    }
  }
  if (citations.length === 0)
    return insufficient("no document text to check for Form 1120 page 1 and Schedule L");
  const found = [
    pageOne ? `Form 1120 page 1 (${where(pageOne)})` : null,
    scheduleL ? `Schedule L (${where(scheduleL)})` : null,
  ]
    .filter(Boolean)
    .join(" and ");
  const pagesRead = context.readable.reduce((sum, document) => sum + document.page_count, 0);
  return {
    status: "not_fulfilled",
    reason: `the return is incomplete: ${missing.join(" and ")} missing from ${listNames(context.readable.map((d) => d.document))} (${pagesRead} page(s) read)${found ? `; found ${found}` : ""}`,
    citations,
    ...withSpecifics(parts),
  };
}
