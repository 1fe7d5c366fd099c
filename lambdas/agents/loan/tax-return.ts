// Evaluators of the "1120 Corporate Tax Return" conditions, and the extraction report of a return.
// Both read fields only through the finders of tax-return-fields.ts, page 1 first. A field the
// finders cannot locate may come from a model (`context.assisted`, its quote verified to be on the
// page); a model's value can confirm a match, never contradict the file on its own.

import type { SignatureSource } from "../../documents/blocks.ts";
import {
  type AssistedField,
  type ExtractionReport,
  type FieldReading,
  found,
  notFound,
} from "./extraction.ts";
import {
  blockCitation,
  findSignatureBlocks,
  type SignatureBlock,
  signatureDate,
  signatureNotFound,
} from "./officer-signature.ts";
import type { ExtractedDocument } from "./pdf-text.ts";
import {
  type CorporationName,
  corporationNameByShape,
  describePages,
  findCorporationName,
  findCorporationNames,
  findEin,
  findPageOne,
  findScheduleL,
  findTaxYear,
  isLocated,
  type Located,
  type Lookup,
  type ReturnPages,
  returnPages,
  type TaxYear,
} from "./tax-return-fields.ts";
import {
  businessNamesMatch,
  type Citation,
  cite,
  documentPages,
  entityTypeDifference,
  firstTextLine,
  isoDate,
  type PageText,
  parseDate,
  quote,
  scannedPhrase,
  segments,
} from "./text.ts";
import {
  type EvaluationContext,
  type Finding,
  insufficient,
  listNames,
  mismatchCitations,
  mismatchedKinds,
  mismatchNote,
  unreadableNote,
  withSpecifics,
} from "./verdict.ts";

function view(context: EvaluationContext): ReturnPages {
  return returnPages(context.readable);
}

/** The return's pages file by file: a tax year or an EIN is read once per file. */
function perDocument(tax: ReturnPages): Array<{ document: string; view: ReturnPages }> {
  return tax.documents.map((document) => ({
    document,
    view: {
      documents: [document],
      pages: tax.pages.filter((page) => page.document === document),
      pageOne: tax.pageOne.filter((page) => page.document === document),
    },
  }));
}

const A_FORM_1120 = "a Form 1120";

function noReturn(context: EvaluationContext): Finding {
  const others = mismatchedKinds(context, A_FORM_1120);
  if (context.readable.length === 0 && others.length > 0) {
    return insufficient(`no Form 1120 among the documents: ${others.join("; ")}${unreadableNote(context)}`);
  }
  const names = context.readable.map((document) => document.document);
  return insufficient(
    `no Form 1120 found: none of ${listNames(names)} mentions "Form 1120" or "U.S. Corporation Income Tax Return"${mismatchNote(context, A_FORM_1120)}${unreadableNote(context)}`,
  );
}

function where(page: { document: string; page: number }): string {
  return `${page.document} page ${page.page}`;
}

// ---------------------------------------------------------------- model-assisted fields

/** A model-located field of one of the return's files whose quote is on the page it names. */
function assistedField(context: EvaluationContext, document: string, field: string): AssistedField | null {
  for (const candidate of context.assisted ?? []) {
    if (candidate.field !== field || candidate.document !== document) continue;
    const text = context.readable.find((readable) => readable.document === document)?.pages[
      candidate.page - 1
    ];
    if (text !== undefined && candidate.excerpt !== "" && text.includes(candidate.excerpt)) return candidate;
  }
  return null;
}

function assistedCitation(field: AssistedField): Citation {
  return { document: field.document, page: field.page, excerpt: field.excerpt };
}

function modelWhere(field: AssistedField): string {
  return `${field.document} page ${field.page} (located by the model: ${quote(field.excerpt)})`;
}

// ---------------------------------------------------------------- TR_SIGNED

export function evaluateSigned(context: EvaluationContext): Finding {
  const tax = view(context);
  if (tax.pages.length === 0) return noReturn(context);
  const blocks = findSignatureBlocks(tax);
  if (blocks.length === 0) return signedByModel(context, tax);
  const unseen = blocks.filter((block) => !signed(block) && block.handwritingUnread);
  if (unseen.length > 0) {
    return insufficient(
      `${unseen.map((block) => `${where(block.page)} "Sign Here" block`).join("; ")} was read by OCR, which does not see handwriting: no typed signer was read there, and whether an officer signed by hand could not be checked`,
      undefined,
      {
        missing: unseen.map(
          (block) =>
            `whether the officer signed the "Sign Here" block on page ${block.page.page} of ${block.page.document}`,
        ),
        remedies: unseen.map(
          (block) =>
            `Check the officer's signature on page ${block.page.page} of ${block.page.document} by eye, or provide a clearer copy`,
        ),
      },
    );
  }
  const unsigned = blocks.filter((block) => !signed(block) || !block.date);
  if (unsigned.length > 0) {
    const problems = unsigned.map((block) => {
      const blanks = [
        signed(block) ? null : "the signature of officer is blank",
        block.date ? null : "the date is blank",
      ].filter(Boolean);
      const signer = signed(block) ? ` (signer: ${signerOf(block)})` : "";
      return `${where(block.page)} "Sign Here" block: ${blanks.join(" and ")}${signer}${block.date ? ` (date: ${block.date})` : ""}`;
    });
    return {
      status: "not_fulfilled",
      reason: `the return is not signed and dated by an officer: ${problems.join("; ")}`,
      citations: unsigned.map(blockCitation),
      observed: { signer: unsigned[0] ? signerOf(unsigned[0]) : null, date: unsigned[0]?.date ?? null },
      ...signatureSpecifics(unsigned),
    };
  }
  const first = blocks[0] as SignatureBlock;
  return {
    status: "fulfilled",
    reason: `${where(first.page)} "Sign Here" block is signed by ${signerOf(first)}${first.title ? ` (${first.title})` : ""} and dated ${first.date}`,
    citations: blocks.map(blockCitation),
    observed: {
      signer: signerOf(first),
      date: first.date,
      title: first.title,
      ...(first.drawn ? { signature: DRAWN_SIGNATURE[first.drawn.source] } : {}),
    },
  };
}

/** How a signature seen in the box (not typed) is described to the reader. */
const DRAWN_SIGNATURE: Record<SignatureSource, string> = {
  "vector-drawing": "a hand-drawn signature in the officer's box",
  image: "a signature image in the officer's box",
  ink: "handwritten ink in the officer's box",
  textract: "a handwritten signature Textract found in the officer's box",
};

function signed(block: SignatureBlock): boolean {
  return Boolean(block.signer || block.drawn);
}

/** The signer's typed name, or what was seen in the box. */
function signerOf(block: SignatureBlock): string | null {
  return block.signer ?? (block.drawn ? DRAWN_SIGNATURE[block.drawn.source] : null);
}

/** No Sign Here block the finders can read: a model's signer and date, both quoted, or insufficient. */
function signedByModel(context: EvaluationContext, tax: ReturnPages): Finding {
  for (const document of tax.documents) {
    const signer = assistedField(context, document, "officer_signature");
    const date = assistedField(context, document, "signature_date");
    if (signer && date && parseDate(date.value)) {
      return {
        status: "fulfilled",
        reason: `${modelWhere(signer)} is signed by ${signer.value} and dated ${date.value} (${modelWhere(date)})`,
        citations: [assistedCitation(signer), assistedCitation(date)],
        observed: { signer: signer.value, date: date.value },
      };
    }
  }
  return insufficient(`${signatureNotFound(tax)}${unreadableNote(context)}`);
}

/** Which of signature and date is blank, and who should fill it in, per unsigned "Sign Here" block. */
function signatureSpecifics(unsigned: SignatureBlock[]): Pick<Finding, "missing" | "remedies"> {
  const missing: string[] = [];
  const remedies: string[] = [];
  for (const block of unsigned) {
    const described = `the "Sign Here" block on page ${block.page.page} of ${block.page.document}`;
    if (!signed(block)) missing.push(`officer's signature in ${described}`);
    if (!block.date) missing.push(`date beside the officer's signature in ${described}`);
    if (!signed(block) && !block.date) {
      remedies.push(`Have an officer sign and date ${described}, then provide the signed return`);
    } else if (!signed(block)) {
      const dated = signatureDate(block);
      remedies.push(
        `Have an officer sign ${described} (it is dated ${dated ? isoDate(dated) : block.date} but not signed), then provide the signed return`,
      );
    } else {
      remedies.push(
        `Have the officer who signed (${block.signer ?? "the signature in the box"}) date ${described}, then provide the dated return`,
      );
    }
  }
  return withSpecifics({ missing, remedies });
}

// ---------------------------------------------------------------- TR_TAX_YEAR

interface YearReading {
  year: number;
  describe: string;
  citation: Citation;
  /** A model's reading: it may confirm the expected year, not contradict it. */
  assisted: boolean;
}

/** One year per file, from its most authoritative statement; a model's where the finders found none. */
function readTaxYears(
  context: EvaluationContext,
  tax: ReturnPages,
): { readings: YearReading[]; notes: string[] } {
  const readings: YearReading[] = [];
  const notes: string[] = [];
  for (const { document, view: file } of perDocument(tax)) {
    const lookup = findTaxYear(file);
    if (isLocated(lookup)) {
      readings.push(yearReading(lookup));
      continue;
    }
    const model = assistedField(context, document, "tax_year");
    const year = model ? Number(/\b(?:19|20)\d{2}\b/.exec(model.value)?.[0]) : Number.NaN;
    if (model && Number.isInteger(year) && model.excerpt.includes(String(year))) {
      readings.push({
        year,
        describe: `${modelWhere(model)} shows tax year ${year}`,
        citation: assistedCitation(model),
        assisted: true,
      });
    } else {
      notes.push(lookup.note);
    }
  }
  return { readings, notes };
}

function yearReading(reading: Located<TaxYear>): YearReading {
  const { year, end, label } = reading.value;
  return {
    year,
    describe: `${where(reading.page)} ("${label}") shows tax year ${year}${end ? ` (a fiscal year ending ${isoDate(end)})` : ""}`,
    citation: reading.citation,
    assisted: false,
  };
}

export function evaluateTaxYear(context: EvaluationContext): Finding {
  const tax = view(context);
  if (tax.pages.length === 0) return noReturn(context);
  const { readings, notes } = readTaxYears(context, tax);
  if (readings.length === 0) return insufficient(`${notes.join("; ")}${unreadableNote(context)}`);
  const expectedYear = Number(context.expected.tax_year);
  const years = [...new Set(readings.map((reading) => reading.year))];
  if (Number.isInteger(expectedYear) && expectedYear > 0) {
    const matching = readings.filter((reading) => reading.year === expectedYear);
    const others = readings.filter((reading) => reading.year !== expectedYear);
    if (matching.length > 0) {
      return {
        status: "fulfilled",
        reason: `${(matching[0] as YearReading).describe}, equal to the expected ${expectedYear} (extracted_entities.tax_year)${others.length > 0 ? `; other files show ${others.map((r) => r.year).join(", ")}` : ""}`,
        citations: matching.map((reading) => reading.citation),
        observed: { tax_years: years },
      };
    }
    if (readings.every((reading) => reading.assisted)) return modelDisagrees(readings, `${expectedYear}`);
    return {
      status: "not_fulfilled",
      reason: `${readings.map((reading) => reading.describe).join("; ")}; expected ${expectedYear} (extracted_entities.tax_year)`,
      citations: readings.map((reading) => reading.citation),
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
  const basis = `the two most recent completed tax years before ${isoDate(context.asOf)} are ${accepted.join(" and ")}`;
  if (wrong.length > 0) {
    if (wrong.every((reading) => reading.assisted)) return modelDisagrees(wrong, accepted.join(" or "));
    const shown = [...new Set(wrong.map((reading) => reading.year))].join(" and ");
    return {
      status: "not_fulfilled",
      reason: `${wrong.map((reading) => reading.describe).join("; ")}, but ${basis} (no tax_year in metadata)`,
      citations: wrong.map((reading) => reading.citation),
      observed: { tax_years: years, accepted_tax_years: accepted },
      missing: [`tax year not given (extracted_entities.tax_year) and the return shows ${shown}`],
      remedies: [
        `Provide the Form 1120 for ${accepted.join(" or ")} (the return provided is for ${shown}), or give the expected tax year in extracted_entities.tax_year`,
      ],
    };
  }
  return {
    status: "fulfilled",
    reason: `${readings.map((reading) => reading.describe).join("; ")}; ${basis} (no tax_year in metadata)`,
    citations: readings.map((reading) => reading.citation),
    observed: { tax_years: years, accepted_tax_years: accepted },
  };
}

function modelDisagrees(readings: YearReading[], expected: string): Finding {
  const years = [...new Set(readings.map((reading) => reading.year))];
  return insufficient(
    `the tax year could not be read from the return's heading; ${readings.map((reading) => reading.describe).join("; ")}, not ${expected}: confirm the tax year by hand`,
    { tax_years: years },
  );
}

function acceptedYears(context: EvaluationContext): number[] {
  const given = context.expected.accepted_tax_years;
  if (Array.isArray(given) && given.length > 0 && given.every((year) => Number.isInteger(year))) {
    return given as number[];
  }
  return [context.asOf.y - 1, context.asOf.y - 2];
}

// ---------------------------------------------------------------- TR_EIN_MATCH

interface EinReading {
  ein: string;
  where: string;
  citation: Citation;
  /** Beside or under its label: strong enough to say the EIN differs. */
  labelled: boolean;
}

function readEins(context: EvaluationContext, tax: ReturnPages): { readings: EinReading[]; notes: string[] } {
  const readings: EinReading[] = [];
  const notes: string[] = [];
  for (const { document, view: file } of perDocument(tax)) {
    const lookup = findEin(file);
    if (isLocated(lookup)) {
      readings.push({
        ein: lookup.value,
        where: where(lookup.page),
        citation: lookup.citation,
        labelled: lookup.source !== "position",
      });
      continue;
    }
    const model = assistedField(context, document, "ein");
    const digits = model?.value.replace(/\D/g, "") ?? "";
    if (model && digits.length === 9 && model.excerpt.replace(/\D/g, "").includes(digits)) {
      readings.push({
        ein: `${digits.slice(0, 2)}-${digits.slice(2)}`,
        where: modelWhere(model),
        citation: assistedCitation(model),
        labelled: false,
      });
    } else {
      notes.push(lookup.note);
    }
  }
  return { readings, notes };
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
  const tax = view(context);
  if (!expectedRaw || expectedDigits?.length !== 9) {
    const shown = tax.pages.length > 0 ? findEin(tax) : null;
    const seen = shown && isLocated(shown) ? shown.value : undefined;
    const described = expectedRaw
      ? `the file's EIN "${expectedRaw}" (extracted_entities.ein) is not NN-NNNNNNN`
      : "EIN not given (extracted_entities.ein)";
    return insufficient(
      `${expectedRaw ? `metadata EIN "${expectedRaw}" is not NN-NNNNNNN` : "no EIN in metadata (extracted_entities.ein)"}: cannot verify TR_EIN_MATCH${seen ? ` (the return shows ${seen})` : ""}`,
      seen ? { ein: seen } : undefined,
      seen
        ? {
            missing: [`${described} and the return shows EIN ${seen}`],
            remedies: [
              `Give the EIN on file in extracted_entities.ein (NN-NNNNNNN); the return shows ${seen}`,
            ],
          }
        : {},
    );
  }
  const expected = `${expectedDigits.slice(0, 2)}-${expectedDigits.slice(2)}`;
  if (tax.pages.length === 0) return noReturn(context);
  const { readings, notes } = readEins(context, tax);
  if (readings.length === 0) return insufficient(`${notes.join("; ")}${unreadableNote(context)}`);
  const differs = (reading: EinReading) => reading.ein.replace(/\D/g, "") !== expectedDigits;
  const mismatched = readings.filter((reading) => reading.labelled && differs(reading));
  if (mismatched.length > 0) {
    const first = mismatched[0] as EinReading;
    const compared = `the return shows EIN ${first.ein}; the file says ${expected}`;
    return {
      status: "not_fulfilled",
      reason: `${first.where} shows employer identification number ${first.ein}; metadata expects ${expected}`,
      citations: mismatched.map((reading) => reading.citation),
      observed: { ein: first.ein },
      missing: [compared],
      remedies: [
        `Confirm the borrower's EIN (${compared}): provide the return filed under ${expected}, or correct extracted_entities.ein`,
      ],
    };
  }
  const matching = readings.filter((reading) => !differs(reading));
  const first = matching[0];
  if (!first) {
    // Only unlabelled values, all different: not enough to say the return is someone else's.
    const shown = readings.map((reading) => `${reading.ein} (${reading.where})`).join(", ");
    return insufficient(
      `no EIN beside an "Employer identification number" label; the only EIN-shaped values, ${shown}, differ from the expected ${expected}: confirm the EIN by hand`,
      { ein: readings[0]?.ein },
    );
  }
  return {
    status: "fulfilled",
    reason: `${first.where} shows employer identification number ${first.ein}, equal to the expected ${expected}${first.labelled ? "" : " (no label beside it; matched by value)"}`,
    citations: matching.map((reading) => reading.citation),
    observed: { ein: first.ein },
  };
}

// ---------------------------------------------------------------- TR_NAME_MATCH

export function evaluateName(context: EvaluationContext): Finding {
  const expected =
    typeof context.expected.business_name === "string" ? context.expected.business_name.trim() : "";
  const tax = view(context);
  const labelled = findCorporationNames(tax);
  if (expected === "") {
    const shown = labelled[0] ?? corporationNameByShape(tax);
    return insufficient(
      `no business name in metadata (borrower_info.business_name): cannot verify TR_NAME_MATCH${shown ? ` (the return names ${quote(shown.value.name)})` : ""}`,
      shown ? { corporation_name: shown.value.name } : undefined,
    );
  }
  if (tax.pages.length === 0) return noReturn(context);
  const match = labelled.find((reading) => businessNamesMatch(reading.value.name, expected));
  if (match) return nameMatches(match.page, match.value.name, expected, match.citation, "");
  const first = labelled[0];
  if (first) return nameDiffers(first, expected);
  // No "Name" label: the expected name standing as a value of its own on page 1, or a business name.
  const pages = tax.pageOne.length > 0 ? tax.pageOne : tax.pages;
  for (const page of pages) {
    for (let index = 0; index < page.lines.length; index++) {
      const part = segments(page.lines[index] ?? "").find((p) => businessNamesMatch(p.text, expected));
      if (part)
        return nameMatches(
          page,
          part.text,
          expected,
          cite(page, index),
          ' (no "Name" label found; matched by value)',
        );
    }
  }
  for (const document of tax.documents) {
    const model = assistedField(context, document, "corporation_name");
    if (!model?.excerpt.toLowerCase().includes(model.value.trim().toLowerCase())) continue;
    if (businessNamesMatch(model.value, expected)) {
      return {
        status: "fulfilled",
        reason: `${modelWhere(model)} names the corporation ${quote(model.value)}, which matches ${quote(expected)} (case, punctuation and the spelling of the entity type ignored)`,
        citations: [assistedCitation(model)],
        observed: { corporation_name: model.value },
      };
    }
    return insufficient(
      `no "Name" label the finders could read; ${modelWhere(model)} names the corporation ${quote(model.value)}, not ${quote(expected)}${entityTypeNote(model.value, expected)}: confirm the name by hand`,
      { corporation_name: model.value },
    );
  }
  const shaped = corporationNameByShape(tax);
  if (shaped) {
    return insufficient(
      `no "Name" label on the return; the only business name found, ${quote(shaped.value.name)} (${where(shaped.page)}), is not beside a label and does not match ${quote(expected)}: confirm the name by hand`,
      { corporation_name: shaped.value.name },
    );
  }
  const lookup = findCorporationName(tax);
  return insufficient(`${isLocated(lookup) ? "" : lookup.note}${unreadableNote(context)}`);
}

function nameMatches(
  page: PageText,
  name: string,
  expected: string,
  citation: Citation,
  how: string,
): Finding {
  return {
    status: "fulfilled",
    reason: `${where(page)} ${how ? "shows" : "names the corporation"} ${quote(name)}, which matches ${quote(expected)}${how || " (case, punctuation and the spelling of the entity type ignored)"}`,
    citations: [citation],
    observed: { corporation_name: name },
  };
}

/** Why two business names that read alike are still two businesses, when that is the difference. */
function entityTypeNote(onReturn: string, expected: string): string {
  const types = entityTypeDifference(onReturn, expected);
  return types
    ? `: the same name with another entity type (${types[0]} on the return, ${types[1]} in the file), a different legal entity`
    : "";
}

function nameDiffers(reading: Located<CorporationName>, expected: string): Finding {
  const { name, dba } = reading.value;
  const dbaNote =
    dba && businessNamesMatch(dba, expected)
      ? `; the return also prints "DBA ${dba}", which matches: document that the borrower does business under that name`
      : "";
  return {
    status: "not_fulfilled",
    reason: `${where(reading.page)} names the corporation ${quote(name)}, which does not match ${quote(expected)} (borrower_info.business_name)${entityTypeNote(name, expected)}${dbaNote}`,
    citations: [reading.citation],
    observed: { corporation_name: name, ...(dba ? { dba } : {}) },
    missing: [`the return names ${quote(name)}; the file says ${quote(expected)}`],
    remedies: [
      `Document why the return names ${quote(name)} and the file says ${quote(expected)} (a DBA filing, a name change or a merger), or provide the return of ${expected}`,
    ],
  };
}

// ---------------------------------------------------------------- TR_COMPLETE

/** A part of the return the finders located, or a model did where they found none. */
function part(context: EvaluationContext, tax: ReturnPages, lookup: Lookup, field: string): Citation | null {
  if (isLocated(lookup)) return lookup.citation;
  for (const document of tax.documents) {
    const model = assistedField(context, document, field);
    if (model) return assistedCitation(model);
  }
  return null;
}

export function evaluateComplete(context: EvaluationContext): Finding {
  const tax = view(context);
  const pageOneLookup = findPageOne(tax);
  const scheduleLLookup = findScheduleL(tax);
  const pageOne = part(context, tax, pageOneLookup, "page_one");
  const scheduleL = part(context, tax, scheduleLLookup, "schedule_l");
  if (pageOne && scheduleL) {
    return {
      status: "fulfilled",
      reason: `the return includes Form 1120 page 1 (${where(pageOne)}) and Schedule L, Balance Sheets per Books (${where(scheduleL)})`,
      citations: [pageOne, scheduleL],
    };
  }
  const missing = [
    pageOne ? null : "Form 1120 page 1",
    scheduleL ? null : "Schedule L (Balance Sheets per Books)",
  ].filter((name): name is string => name !== null);
  // A scanned file may hold the missing part: absence is only proven when every file was read.
  const absent = [
    pageOne ? null : "page 1 of the Form 1120",
    scheduleL ? null : "Schedule L (Balance Sheets per Books) of the Form 1120",
  ].filter((name): name is string => name !== null);
  const lacking = tax.documents.length > 0 ? ` (${listNames(tax.documents)} lacks it)` : "";
  const parts = { missing: absent, remedies: absent.map((name) => `Provide ${name}${lacking}`) };
  const others = mismatchedKinds(context, A_FORM_1120);
  if (context.unreadable.length > 0) {
    return insufficient(
      `${missing.join(" and ")} not found in the readable files${mismatchNote(context, A_FORM_1120)}${unreadableNote(context)}`,
      undefined,
      parts,
    );
  }
  if (tax.pages.length === 0 && others.length > 0) {
    // What was sent is another form (a Form 1120-S prints a Schedule L of its own): its parts are
    // not the Form 1120's, and the return asked for is not among the documents.
    return {
      status: "not_fulfilled",
      reason: `the return is incomplete: ${missing.join(" and ")} missing, as no Form 1120 is among the documents: ${others.join("; ")}${context.readable.length > 0 ? `; ${listNames(context.readable.map((d) => d.document))} ${context.readable.length === 1 ? "is" : "are"} no Form 1120 either` : ""}`,
      citations: mismatchCitations(context),
      missing: [`the Form 1120 (page 1 and Schedule L): ${others.join("; ")}`],
      remedies: [
        `Provide the borrower's Form 1120 with page 1 and Schedule L, or correct the loan's classification: ${others.join("; ")}`,
      ],
    };
  }
  const citations = [pageOne, scheduleL].filter((citation): citation is Citation => citation !== null);
  if (citations.length === 0) {
    for (const document of context.readable) {
      const page = documentPages(document).find((p) => p.text.trim() !== "");
      if (page) citations.push(cite(page, firstTextLine(page)));
    }
  }
  if (citations.length === 0)
    return insufficient("no document text to check for Form 1120 page 1 and Schedule L");
  const foundParts = [
    pageOne ? `Form 1120 page 1 (${where(pageOne)})` : null,
    scheduleL ? `Schedule L (${where(scheduleL)})` : null,
  ]
    .filter(Boolean)
    .join(" and ");
  const notes = [pageOneLookup, scheduleLLookup].flatMap((lookup) =>
    isLocated(lookup) ? [] : [lookup.note],
  );
  const pagesRead = context.readable.reduce((sum, document) => sum + document.page_count, 0);
  const unproven = absenceUnproven(context, { pageOne: pageOne !== null, scheduleL: scheduleL !== null });
  if (unproven) {
    return insufficient(
      `could not locate ${missing.join(" and ")} in ${listNames(context.readable.map((d) => d.document))} (${pagesRead} page(s) read), but ${unproven}: the part may be there and unread${tax.pages.length > 0 ? ` (${notes.join("; ")})` : ""}`,
      undefined,
      parts,
    );
  }
  return {
    status: "not_fulfilled",
    reason: `the return is incomplete: ${missing.join(" and ")} missing from ${listNames(context.readable.map((d) => d.document))} (${pagesRead} page(s) read)${foundParts ? `; found ${foundParts}` : ""}${tax.pages.length > 0 ? ` (${notes.join("; ")})` : ""}`,
    citations,
    ...withSpecifics(parts),
  };
}

/**
 * The printed titles of the parts, standing as headings: a column of their own that starts with the
 * title ("Schedule L  Balance Sheets per Books", "U.S. Corporation Income Tax Return"), not a
 * mention inside a list or a sentence ("Forms included: Form 1120; Schedule L - Balance Sheets…").
 */
const SCHEDULE_L_TITLE = new RegExp(
  `^(?:${scannedPhrase("schedule l")}\\b[\\s.:-]*)?${scannedPhrase("balance sheets per books")}$`,
  "i",
);
const PAGE_ONE_TITLE = new RegExp(`^${scannedPhrase("u.s. corporation income tax return")}$`, "i");

function printsTitle(text: string, title: RegExp): boolean {
  return text.split("\n").some((line) => segments(line).some((part) => title.test(part.text.trim())));
}

/**
 * Why the absence of a part is not proven, or null when it is. A part is proven missing only when
 * every page was read from its text layer and no page prints the part's title; a page that prints
 * it (the finder could not read its lines) or a page read by OCR (the title may be among what OCR
 * missed) leaves it unknown.
 */
function absenceUnproven(
  context: EvaluationContext,
  found: { pageOne: boolean; scheduleL: boolean },
): string | null {
  for (const document of context.readable) {
    for (const [index, text] of document.pages.entries()) {
      const where = `page ${index + 1} of ${document.document}`;
      if (!found.scheduleL && printsTitle(text, SCHEDULE_L_TITLE)) {
        return `${where} prints the Schedule L title "Balance Sheets per Books"`;
      }
      if (!found.pageOne && printsTitle(text, PAGE_ONE_TITLE)) {
        return `${where} prints the title "U.S. Corporation Income Tax Return"`;
      }
    }
    const scanned = (document.page_sources ?? []).flatMap((source, index) =>
      source.source === "ocr" ? [index + 1] : [],
    );
    if (scanned.length > 0) {
      return `page(s) ${scanned.join(", ")} of ${document.document} were read by OCR, which may have missed the part's title`;
    }
  }
  return null;
}

// ---------------------------------------------------------------- extraction report

function reading(field: string, value: string, lookup: Located<unknown>): FieldReading {
  return found(field, value, lookup.citation, lookup.source, lookup.confidence);
}

/**
 * What the finders located in one file of a return, field by field, found or not (with what was
 * looked for); null when the file is no part of a Form 1120.
 */
export function taxReturnExtraction(document: ExtractedDocument): ExtractionReport | null {
  const tax = returnPages([document]);
  if (tax.pages.length === 0) return null;
  const fields: FieldReading[] = [];
  const name = findCorporationName(tax);
  fields.push(
    isLocated(name)
      ? reading("corporation_name", name.value.name, name)
      : notFound("corporation_name", name.note),
  );
  const ein = findEin(tax);
  fields.push(isLocated(ein) ? reading("ein", ein.value, ein) : notFound("ein", ein.note));
  const year = findTaxYear(tax);
  if (isLocated(year)) {
    fields.push(reading("tax_year", String(year.value.year), year));
    if (year.value.end) fields.push(reading("tax_year_end", isoDate(year.value.end), year));
  } else {
    fields.push(notFound("tax_year", year.note));
  }
  fields.push(...signatureFields(tax));
  const pageOne = findPageOne(tax);
  fields.push(
    isLocated(pageOne) ? reading("page_one", pageOne.value, pageOne) : notFound("page_one", pageOne.note),
  );
  const scheduleL = findScheduleL(tax);
  fields.push(
    isLocated(scheduleL)
      ? reading("schedule_l", scheduleL.value, scheduleL)
      : notFound("schedule_l", scheduleL.note),
  );
  return { kind: "form_1120", fields };
}

function signatureFields(tax: ReturnPages): FieldReading[] {
  const block = findSignatureBlocks(tax)[0];
  if (!block) {
    const note = signatureNotFound(tax);
    return ["officer_signature", "signature_date", "officer_title"].map((field) => notFound(field, note));
  }
  const at = blockCitation(block);
  const confidence = block.source === "label" ? 1 : block.source === "table" ? 0.9 : 0.6;
  const box = `the "Sign Here" block on ${describePages([block.page])}`;
  const date = signatureDate(block);
  // On a scan with the signature seen in the box, the signature is what was seen there: the name
  // OCR read in it (often handwritten or italic, read unsure) is not what the verdict rests on.
  const seen = block.page.ocr && block.drawn ? DRAWN_SIGNATURE[block.drawn.source] : null;
  return [
    seen
      ? found("officer_signature", seen, at, block.source, confidence)
      : block.signer
        ? found("officer_signature", block.signer, at, block.source, confidence)
        : notFound("officer_signature", `the "Signature of officer" box of ${box} is blank`),
    block.date
      ? found("signature_date", date ? isoDate(date) : block.date, at, block.source, confidence)
      : notFound("signature_date", `the date beside the officer's signature in ${box} is blank`),
    block.title
      ? found("officer_title", block.title, at, block.source, confidence)
      : notFound("officer_title", `the officer's title in ${box} is blank`),
  ];
}
