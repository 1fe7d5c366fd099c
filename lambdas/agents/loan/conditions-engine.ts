// Reference Conditions AI engine: one verdict per condition, read from the documents' text.
// Like the lender's service it receives only conditions and documents; everything it compares
// against comes in each condition's `expected` (filled by the PreConditions engine).
import {
  evaluateHolderName,
  evaluateSameAccount,
  evaluateTwoMonths,
  statementExtraction,
} from "./bank-statements.ts";
import {
  type CatalogCondition,
  type ConditionPriority,
  documentKindsOf,
  findCondition,
  loadCatalog,
} from "./catalog.ts";
import { type DocumentIdentification, type IdentifiedKind, nameKind } from "./document-kinds.ts";
import type { AssistedField, ExtractionReport } from "./extraction.ts";
import { identifyDocument } from "./identify-document.ts";
import { enforceOcrConfidence, withOcrConfidence, withPoorScans } from "./ocr-confidence.ts";
import type { ExtractedDocument, OcrSummary } from "./pdf-text.ts";
import { evaluateLargeDeposits, evaluateNoNsf } from "./statement-activity.ts";
import {
  evaluateComplete,
  evaluateEin,
  evaluateName,
  evaluateSigned,
  evaluateTaxYear,
  taxReturnExtraction,
} from "./tax-return.ts";
import { fromJsDate, MAX_EXCERPT, parseIsoOrUsDate } from "./text.ts";
import {
  describeUnreadable,
  type EvaluationContext,
  type Finding,
  insufficient,
  type MismatchedDocument,
  type UnreadablePart,
  type Verdict,
  withSpecifics,
} from "./verdict.ts";

export type { Citation } from "./text.ts";
export type { LetterOfExplanation, Verdict, VerdictStatus } from "./verdict.ts";

/** A condition id, or a condition as PreConditions returns it (only `id` and `expected` are read). */
export type ConditionInput =
  | string
  | {
      id?: string;
      condition_id?: string;
      title?: string;
      compartment?: string;
      priority?: unknown;
      expected?: Record<string, unknown> | null;
    };

/**
 * A requested document the engine never got to read: the caller could not fetch or parse it. Its
 * problem is data for the verdicts that needed it, not a reason to judge nothing.
 */
export interface UnavailableDocument {
  /** The document as it was requested. */
  document: string;
  status: "missing" | "refused" | "unreadable";
  /** Completes a sentence that starts with the document: "does not exist", "could not be read: …". */
  problem: string;
}

export type DocumentStatus = "read" | "missing" | "refused" | "unreadable" | "no_text_layer";

/** What became of one requested document, in the order they were requested. */
export interface DocumentReport {
  document: string;
  status: DocumentStatus;
  /** Why it could not be read, or which pages of a read document had no text. */
  reason?: string;
  page_count?: number;
  /** How its pages without a text layer were read, when OCR was tried. */
  ocr?: OcrSummary;
  /** For a read document: what its content shows it is, and the text that shows it. */
  identification?: DocumentIdentification;
  /**
   * For a read document of a kind none of the conditions is judged on (a Form 1120-S sent for a
   * Form 1120, a tax return sent as bank statements): what it is and that nothing was judged on it.
   */
  kind_note?: string;
  /** For a read Form 1120 or bank statement: each field the checks read, found (where) or not (why). */
  extraction?: ExtractionReport;
}

/** A decision never rests on OCR text read below this confidence (0–100) unless told otherwise. */
export const DEFAULT_OCR_MIN_CONFIDENCE = 80;

export interface EvaluateOptions {
  /**
   * The least OCR confidence (0–100) a verdict may rest on: a decision citing text read below it,
   * or concluding from a document with a page read below it, is insufficient evidence instead.
   */
  ocrMinConfidence?: number;
  /** "Today" for checks relative to the as-of date when a condition's expected has no as_of_date. */
  asOf?: Date;
  /** Fields a model located where the finders could not, each quote verified on its page. */
  assisted?: ReadonlyArray<AssistedField>;
}

export interface ConditionsResult {
  verdicts: Verdict[];
  /** One entry per requested document (the reference engine; a lender's service may not report them). */
  documents?: DocumentReport[];
}

const EVALUATORS: Record<string, (context: EvaluationContext) => Finding> = {
  TR_SIGNED: evaluateSigned,
  TR_TAX_YEAR: evaluateTaxYear,
  TR_EIN_MATCH: evaluateEin,
  TR_NAME_MATCH: evaluateName,
  TR_COMPLETE: evaluateComplete,
  BS_TWO_MONTHS: evaluateTwoMonths,
  BS_NAME_MATCH: evaluateHolderName,
  BS_SAME_ACCOUNT: evaluateSameAccount,
  BS_NO_NSF: evaluateNoNsf,
  BS_LARGE_DEPOSITS: evaluateLargeDeposits,
};

const NO_TEXT_LAYER = "has no text layer (scanned image?)";

/** Why a page without a text layer stayed unread: OCR was off, found nothing, or failed. */
function noTextReason(document: ExtractedDocument): string {
  if (!document.ocr) return NO_TEXT_LAYER;
  if (document.ocr.error) return `${NO_TEXT_LAYER} and OCR failed: ${document.ocr.error}`;
  return `${NO_TEXT_LAYER} and OCR (${document.ocr.engine}) could not read any text on it`;
}

export function evaluateConditions(
  conditions: ReadonlyArray<ConditionInput>,
  documents: ReadonlyArray<ExtractedDocument | UnavailableDocument>,
  options: EvaluateOptions = {},
): ConditionsResult {
  const { readable, unreadable, reports, identifications } = sortDocuments(documents, options.assisted);
  const byKind = documentsByKind(readable, identifications);
  const seen = new Set<string>();
  const verdicts: Verdict[] = [];

  for (const input of conditions) {
    const { id, expected, title, compartment, priority } = normalizeInput(input);
    if (id === "" || seen.has(id)) continue;
    seen.add(id);
    const entry = findCondition(id);
    const rank = entry?.priority ?? priority;
    const header = {
      condition_id: id,
      title: entry?.title ?? title ?? id,
      compartment: entry?.compartment ?? compartment ?? "Unknown",
      ...(rank !== undefined ? { priority: rank } : {}),
    };
    const { eligible, mismatched, ofKind, expected: wantedKind } = byKind(documentKindsOf(id));
    const finding = ((): Finding => {
      const evaluator = EVALUATORS[id];
      if (!entry && !evaluator) {
        const known = loadCatalog().conditions.map((condition) => condition.id);
        return insufficient(
          `unknown condition ${id}: not in the condition catalog (known: ${known.join(", ")})`,
          undefined,
          { remedies: [`Check ${id} by hand: the condition catalog does not know it`] },
        );
      }
      if (!evaluator) {
        return insufficient(
          `${id} has no automated check: review manually (${entry?.fulfilled_by ?? ""})`,
          undefined,
          { remedies: [`Check ${id} by hand: ${entry?.fulfilled_by ?? ""}`] },
        );
      }
      if (documents.length === 0) return insufficient(`no documents were provided to evaluate ${id}`);
      if (readable.length === 0) {
        return insufficient(
          `no document could be read: ${unreadable.map(describeUnreadable).join("; ")}: cannot evaluate ${id}`,
        );
      }
      const asOf = parseIsoOrUsDate(expected.as_of_date) ?? fromJsDate(options.asOf ?? new Date());
      try {
        return evaluator({
          readable: eligible,
          unreadable,
          asOf,
          expected,
          ...(mismatched.length > 0 ? { mismatched } : {}),
          ...(options.assisted?.length ? { assisted: options.assisted } : {}),
        });
      } catch (error) {
        return insufficient(
          `the ${id} check failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    })();
    const minimum = options.ocrMinConfidence ?? DEFAULT_OCR_MIN_CONFIDENCE;
    const judged = withMismatchedKinds(onlyOwnKind(finding, eligible), mismatched, ofKind, wantedKind);
    const decided = enforceOcrConfidence(
      enforceCitations(judged, readable),
      id,
      entry,
      readable,
      reports,
      minimum,
      expected,
    );
    verdicts.push({
      ...header,
      ...withRemedies(
        withPoorScans(withUnlocatedFields(decided, entry, reports), readable, minimum),
        entry,
        unreadable,
      ),
    });
  }
  return { verdicts, documents: withKindNotes(reports, conditions) };
}

/**
 * Per set of kinds a condition is judged on, the readable documents it may be judged on (of those
 * kinds, or of no kind the engine knows) and those whose content shows another kind. Computed once
 * per set, so conditions of one classification share one list (and the statements read from it).
 */
function documentsByKind(
  readable: ExtractedDocument[],
  identifications: ReadonlyMap<string, DocumentIdentification>,
): (kinds: IdentifiedKind[] | undefined) => {
  eligible: ExtractedDocument[];
  mismatched: MismatchedDocument[];
  /** How many eligible documents are positively of the kinds (not merely of no known kind). */
  ofKind: number;
  /** "a Form 1120", "a bank statement or a Form 1120". */
  expected: string;
} {
  const memo = new Map<string, ReturnType<ReturnType<typeof documentsByKind>>>();
  return (kinds) => {
    const key = kinds ? kinds.join(",") : "*";
    const known = memo.get(key);
    if (known) return known;
    const kindOf = (document: ExtractedDocument) =>
      identifications.get(document.document)?.kind ?? ("other" as const);
    const fits = (document: ExtractedDocument) =>
      !kinds || kindOf(document) === "other" || kinds.includes(kindOf(document));
    const split = {
      eligible: readable.filter(fits),
      mismatched: readable.flatMap((document) => {
        const identification = identifications.get(document.document);
        return fits(document) || !identification ? [] : [{ document: document.document, identification }];
      }),
      ofKind: readable.filter((document) => kinds?.includes(kindOf(document))).length,
      expected: (kinds ?? []).map(nameKind).join(" or "),
    };
    memo.set(key, split);
    return split;
  };
}

/** No condition is fulfilled by a document of another kind: a decision must cite one it was judged on. */
function onlyOwnKind(finding: Finding, eligible: ReadonlyArray<ExtractedDocument>): Finding {
  if (finding.status !== "fulfilled") return finding;
  const own = new Set(eligible.map((document) => document.document));
  if (finding.citations.some((citation) => own.has(citation.document))) return finding;
  return {
    status: "insufficient_evidence",
    reason: `${finding.reason} (cites no document of the kind this condition is judged on)`,
    citations: [],
  };
}

/**
 * A condition with no document of its kind, only documents of another (a Form 1120-S for a Form
 * 1120 condition), names each of them and what it is, whatever its evaluator said.
 */
function withMismatchedKinds(
  finding: Finding,
  mismatched: ReadonlyArray<MismatchedDocument>,
  ofKind: number,
  expected: string,
): Finding {
  if (finding.status === "fulfilled" || mismatched.length === 0 || ofKind > 0 || expected === "") {
    return finding;
  }
  const described = mismatched.map(
    ({ document, identification }) => `${document} is ${identification.description}, not ${expected}`,
  );
  const unsaid = described.filter((text) => !finding.reason.includes(text));
  const missing = finding.missing ?? [];
  const remedies = finding.remedies ?? [];
  return {
    ...finding,
    reason: unsaid.length ? `${finding.reason}; ${unsaid.join("; ")}` : finding.reason,
    ...withSpecifics({
      missing: missing.some((item) => described.some((text) => item.includes(text)))
        ? missing
        : [...missing, `${expected}: ${described.join("; ")}`],
      remedies: remedies.some((item) => described.some((text) => item.includes(text)))
        ? remedies
        : [
            ...remedies,
            `Provide ${expected} of the borrower, or correct the loan's classification: ${described.join("; ")}`,
          ],
    }),
  };
}

/**
 * Each read document of a kind none of the conditions is judged on says what it is: a Form 1120
 * sent as bank statements is named as a tax return, not left to five unexplained verdicts.
 */
function withKindNotes(
  reports: DocumentReport[],
  conditions: ReadonlyArray<ConditionInput>,
): DocumentReport[] {
  const wanted = new Set<IdentifiedKind>();
  for (const input of conditions) {
    for (const kind of documentKindsOf(normalizeInput(input).id) ?? []) wanted.add(kind);
  }
  if (wanted.size === 0) return reports;
  const expected = [...wanted].map(nameKind).join(" or ");
  return reports.map((report) => {
    const kind = report.identification?.kind;
    if (!kind || kind === "other" || wanted.has(kind)) return report;
    return {
      ...report,
      kind_note: `${report.document} is ${report.identification?.description}, not ${expected}: no condition was judged on it`,
    };
  });
}

function isExtracted(document: ExtractedDocument | UnavailableDocument): document is ExtractedDocument {
  return "pages" in document && Array.isArray(document.pages);
}

/**
 * What the field finders located in a read document: a return's or a statement's fields, else none.
 * A document identified as another kind (a Form 1120-S, a credit-card statement) has no such fields.
 */
function extractionOf(
  document: ExtractedDocument,
  kind: IdentifiedKind,
  assisted: ReadonlyArray<AssistedField> | undefined,
): ExtractionReport | null {
  if (kind === "form_1120") return taxReturnExtraction(document);
  if (kind === "bank_statement") return statementExtraction(document, assisted);
  if (kind === "other") return taxReturnExtraction(document) ?? statementExtraction(document, assisted);
  return null;
}

function sortDocuments(
  documents: ReadonlyArray<ExtractedDocument | UnavailableDocument>,
  assisted?: ReadonlyArray<AssistedField>,
): {
  readable: ExtractedDocument[];
  unreadable: UnreadablePart[];
  reports: DocumentReport[];
  identifications: Map<string, DocumentIdentification>;
} {
  const readable: ExtractedDocument[] = [];
  const unreadable: UnreadablePart[] = [];
  const reports: DocumentReport[] = [];
  const identifications = new Map<string, DocumentIdentification>();
  for (const document of documents) {
    const name = document.document;
    if (!isExtracted(document)) {
      unreadable.push({
        document: name,
        problem: document.problem,
        remedy: REUPLOAD[document.status](name, document.problem),
      });
      reports.push({ document: name, status: document.status, reason: `${name} ${document.problem}` });
      continue;
    }
    // A textless page inside a text PDF is usually a scanned insert (a signed page, a check image):
    // conclusions that rest on something being absent must not ignore it. With OCR, only pages it
    // could not read either are left.
    const blank = document.pages.flatMap((text, index) => (text.trim() === "" ? [index + 1] : []));
    const reason = noTextReason(document);
    const ocr = document.ocr ? { ocr: document.ocr } : {};
    if (blank.length === document.page_count) {
      unreadable.push({
        document: name,
        problem: reason,
        remedy: document.ocr
          ? `Re-upload ${name} as a text PDF or a sharper scan: ${reason}`
          : `Re-upload ${name} as a text PDF, not a scanned image: it has no text layer`,
      });
      reports.push({
        document: name,
        status: "no_text_layer",
        reason: `${name} ${reason}`,
        page_count: document.page_count,
        ...ocr,
      });
      continue;
    }
    readable.push(document);
    if (blank.length > 0) {
      const which = blank.length === 1 ? `page ${blank[0]}` : `pages ${blank.join(", ")}`;
      unreadable.push({
        document: name,
        pages: blank,
        problem: reason,
        remedy: document.ocr
          ? `Re-upload ${name} with ${which} as text or a sharper scan: ${blank.length === 1 ? "that page" : "those pages"} ${reason}`
          : `Re-upload ${name} with ${which} as text: ${blank.length === 1 ? "that page has" : "those pages have"} no text layer (scanned image?)`,
      });
    }
    const identification = identifyDocument(document);
    identifications.set(name, identification);
    const extraction = withOcrConfidence(extractionOf(document, identification.kind, assisted), document);
    reports.push({
      document: name,
      status: "read",
      page_count: document.page_count,
      ...(blank.length > 0
        ? { reason: `${name} (page ${blank.join(", ")}) ${reason}; the other pages were read` }
        : {}),
      ...ocr,
      identification,
      ...(extraction ? { extraction } : {}),
    });
  }
  return { readable, unreadable, reports, identifications };
}

const REUPLOAD: Record<UnavailableDocument["status"], (document: string, problem: string) => string> = {
  missing: (document, problem) => `Re-upload ${document}: it ${problem}`,
  refused: (document, problem) => `Re-upload ${document} to a location the agent may read: it ${problem}`,
  unreadable: (document, problem) => `Re-upload ${document} as a valid PDF: it ${problem}`,
};

/**
 * An insufficient verdict whose evaluator did not say what is missing names the fields its check
 * reads that the extraction reports could not locate ("ein not located in rm/x.pdf").
 */
function withUnlocatedFields(
  finding: Finding,
  entry: CatalogCondition | undefined,
  reports: ReadonlyArray<DocumentReport>,
): Finding {
  if (finding.status !== "insufficient_evidence" || finding.missing?.length || !entry) return finding;
  const unlocated = reports.flatMap((report) =>
    (report.extraction?.fields ?? [])
      .filter((reading) => !reading.found && entry.fields.includes(reading.field))
      .map((reading) => `${reading.field} not located in ${report.document}`),
  );
  return unlocated.length ? { ...finding, missing: unlocated } : finding;
}

/**
 * What a loan officer should do about a verdict that is not fulfilled: the evaluator's specific
 * actions, a re-upload for each bad document the verdict names (its reason says it depended on
 * it), else the catalog's action for the status.
 */
function withRemedies(
  finding: Finding,
  entry: CatalogCondition | undefined,
  unreadable: ReadonlyArray<UnreadablePart>,
): Finding {
  const { missing: found, remedies: actions, ...rest } = finding;
  if (finding.status === "fulfilled") return rest;
  const blocking =
    finding.status === "insufficient_evidence"
      ? unreadable.filter((part) => finding.reason.includes(describeUnreadable(part)))
      : [];
  const missing = [...(found ?? []), ...blocking.map(describeUnreadable)];
  const remedies = [...(actions ?? []), ...blocking.map((part) => part.remedy)];
  if (remedies.length === 0 && entry) remedies.push(entry.remedy[finding.status]);
  return { ...rest, ...withSpecifics({ missing, remedies }) };
}

const PRIORITIES: ReadonlyArray<unknown> = ["high", "medium", "low", 1, 2, 3];

function normalizeInput(input: ConditionInput): {
  id: string;
  expected: Record<string, unknown>;
  title?: string;
  compartment?: string;
  priority?: ConditionPriority;
} {
  if (typeof input === "string") return { id: input.trim().toUpperCase(), expected: {} };
  if (input === null || typeof input !== "object") return { id: "", expected: {} };
  const id = (input.id ?? input.condition_id ?? "").trim().toUpperCase();
  const expected =
    input.expected && typeof input.expected === "object" && !Array.isArray(input.expected)
      ? input.expected
      : {};
  return {
    id,
    expected,
    ...(typeof input.title === "string" ? { title: input.title } : {}),
    ...(typeof input.compartment === "string" ? { compartment: input.compartment } : {}),
    ...(PRIORITIES.includes(input.priority) ? { priority: input.priority as ConditionPriority } : {}),
  };
}

/**
 * A verdict may only rest on text that is on the page it cites. Citations failing that are
 * dropped, and a decision left without any citation becomes insufficient_evidence.
 */
function enforceCitations(finding: Finding, documents: ReadonlyArray<ExtractedDocument>): Finding {
  const citations = finding.citations.filter((citation) => {
    const text = documents.find((document) => document.document === citation.document)?.pages[
      citation.page - 1
    ];
    return (
      text !== undefined &&
      citation.excerpt !== "" &&
      citation.excerpt.length <= MAX_EXCERPT &&
      text.includes(citation.excerpt)
    );
  });
  if (finding.status !== "insufficient_evidence" && citations.length === 0) {
    // The evaluator's specifics described a decision that no longer stands.
    const { missing: _missing, remedies: _remedies, ...decision } = finding;
    return {
      ...decision,
      status: "insufficient_evidence",
      reason: `${finding.reason} (no verifiable citation)`,
      citations,
    };
  }
  return { ...finding, citations };
}
