// Page-by-page text of a PDF, laid out as lines the condition engines can read.
// unpdf's extractText joins text items in content-stream order and collapses every gap to one
// space, so a form's label/value columns ("Name  B Employer identification number") run
// together. We rebuild lines from the items' positions instead: items sharing a baseline form
// one line (sorted left to right), and a wide horizontal gap becomes two spaces, which the
// engines read as a column boundary.
// Pages without a text layer (scans, photos) are read by an OCR engine when one is configured; its
// words go through the same line layout, so the engines read OCR text like any other.
import { getDocumentProxy, getResolvedPDFJS } from "unpdf";
import { scrubSensitiveText } from "../../core/redaction.ts";
import { MAX_QUOTED_REASON_CHARS } from "../../core/sensitive-data.ts";
import type { LaidField, LaidSpan, LaidTable } from "../../documents/forms-tables.ts";
import { type Cell, type LineBox, layoutLines, type PositionedText } from "../../documents/line-layout.ts";
import { type DocumentModel, type PageModel, pageModel } from "../../documents/page-model.ts";
import { inkMarks, type OperatorCodes } from "../../documents/pdf-marks.ts";
import {
  OcrDocumentError,
  type OcrEngine,
  type OcrEngineName,
  type OcrPage,
  type OcrRequest,
  type OcrSpan,
  pageText,
} from "../../tools/ocr/engine.ts";
import { readDigits } from "./ocr-digits.ts";
import { loanProbes, showsWholeReturn, worthRereading } from "./ocr-focus.ts";

export type { Cell, LaidLine, LineBox } from "../../documents/line-layout.ts";

export interface ExtractedDocument {
  document: string;
  page_count: number;
  /** One string per page (index 0 = page 1); lines separated by "\n", columns by 2+ spaces. */
  pages: string[];
  has_text_layer: boolean;
  /**
   * Where the columns of each line sit on the page: `cells[page][line]` lists the line's columns
   * (the 2+ space separated runs) with their horizontal extent, so a value can be matched to the
   * column heading above it. Lines without positions (vertical captions) have no cells. Absent
   * for documents extracted elsewhere (a lender's text, a test's literal pages).
   */
  cells?: Cell[][][];
  /**
   * Where each page's text came from (index 0 = page 1). Absent when no page needed OCR: every
   * page with text read it from its text layer.
   */
  page_sources?: PageSource[];
  /** How the pages without a text layer were read, when OCR was tried on any. */
  ocr?: OcrSummary;
  /**
   * The document model: every page's lines and words with their boxes, and the signatures seen
   * (Textract's Block shape). `model.pages[i]`'s LINE blocks are `pages[i]`'s lines, in order.
   * Absent for documents extracted elsewhere.
   */
  model?: DocumentModel;
}

/** Where a page's text came from; `confidence` (0–100, the mean of its words) only for OCR. */
export type PageSource =
  | { source: "text" }
  /** `skimmed`: only the page's top band was read (a Form 1120 page no condition reads; ExtractOptions.readWhole). */
  | { source: "ocr"; confidence: number; skimmed?: true }
  | { source: "none" };

export interface OcrSummary {
  engine: Exclude<OcrEngineName, "none">;
  /** The pages OCR was asked to read (1-based). */
  pages: number[];
  seconds: number;
  /** Mean confidence (0–100) of every word read; 0 when none was. */
  confidence: number;
  /** Pages of which only the top band was read: the running header shows no condition reads them. */
  skimmed?: number[];
  /** Why OCR could not read the document, when it failed (its pages stay without text). */
  error?: string;
}

/** How to read pages without a text layer; without an engine they stay blank. */
export interface ExtractOptions {
  ocr?: OcrEngine;
  /** Only these pages (1-based) are read by OCR, when they have no text layer; omitted: every such page. */
  ocrPages?: number[];
  /** Where the document is stored (Textract reads it there). */
  location?: { bucket: string; key: string };
  /** Stable for one document in one run, so a retried step reuses the same OCR job. */
  requestToken?: string;
  /**
   * Which OCR-read pages get a second look at their unsure lines (OcrRequest.rereadPage). Default:
   * every page but a Form 1120's later pages that show nothing the conditions read (ocr-focus.ts).
   */
  rereadPage?: (text: string) => boolean;
  /**
   * Where on an OCR-read page fields are read again on their own (OcrRequest.probePage). Default:
   * the values above each "Signature of officer" caption (ocr-focus.ts).
   */
  probePage?: OcrRequest["probePage"];
  /**
   * Which OCR-read pages are read whole, judged from their top band read alone (OcrRequest.readWhole).
   * Default: every page but a Form 1120's later pages whose header shows nothing the conditions read
   * (ocr-focus.ts), in a document of SKIM_FROM_PAGES or more such pages; when the pages read whole
   * then lack page 1 or Schedule L, the skimmed pages are read whole after all. `null`: every page
   * is read whole.
   */
  readWhole?: ((top: string) => boolean) | null;
}

/**
 * Pages without a text layer a document needs before its pages are first read by their top band
 * (ExtractOptions.readWhole's default): the band costs about a tenth of a page's reading on every
 * page read whole after it, and pays only where several pages are skipped, as the four schedule
 * pages of a six-page Form 1120 (measured: 24.5 → 17.4 CPU s for the official form scanned harsh;
 * on 62 generated documents of one to three pages, 281 → 290 CPU s).
 */
const SKIM_FROM_PAGES = 5;

/** Printed wording of a place to sign ("Signature of officer", "Sign Here", "Signed"). */
const SIGNATURE_WORDING = /\bsign/i;

let codes: Promise<OperatorCodes> | undefined;
/** pdf.js's operator numbers, from the pdf.js build unpdf bundles (they differ between versions). */
function operatorCodes(): Promise<OperatorCodes> {
  codes ??= getResolvedPDFJS().then((pdfjs) => (pdfjs as unknown as { OPS: OperatorCodes }).OPS);
  return codes;
}

/** Words read below this confidence (0–100) are specks, rules and stamps, not text. */
export const OCR_NOISE_FLOOR = 30;
/** An OCR "word" that is only a box's edge: bars and brackets. */
const BOX_RULE = /^[|[\]_]+$/;

export class DocumentError extends Error {
  override name = "DocumentError";
  constructor(
    readonly document: string,
    message: string,
  ) {
    super(message);
  }
}

export async function extractPdfText(
  bytes: Uint8Array,
  documentName: string,
  options: ExtractOptions = {},
): Promise<ExtractedDocument> {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) {
    throw new DocumentError(documentName, `${documentName} is not a readable PDF: the file is empty`);
  }
  // pdf.js transfers (detaches) the buffer it is given; the caller's bytes may be cached or reused.
  const data = new Uint8Array(bytes);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(data, { verbosity: 0, stopAtErrors: false });
  } catch (error) {
    throw new DocumentError(documentName, describeOpenError(documentName, bytes, error));
  }
  try {
    const pages: string[] = [];
    const cells: Cell[][][] = [];
    const models: PageModel[] = [];
    const sizes: Array<{ width: number; height: number }> = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      let page: Awaited<ReturnType<typeof pdf.getPage>>;
      try {
        page = await pdf.getPage(number);
      } catch (error) {
        throw new DocumentError(
          documentName,
          `${documentName} is not a readable PDF: page ${number} of ${pdf.numPages} cannot be parsed (${errorMessage(error)})`,
        );
      }
      // As displayed (the page's /Rotate applied): both OCR engines place words on the page as shown.
      const shown = page.getViewport({ scale: 1 });
      sizes.push({ width: shown.width, height: shown.height });
      const items: PositionedText[] = [];
      const rotated: Array<{ text: string; box: LineBox }> = [];
      const content = await page.getTextContent();
      for (const item of content.items) {
        if (!("str" in item) || item.str.trim() === "") continue;
        const [a = 1, b = 0, c = 0, d = 1, x = 0, y = 0] = item.transform as number[];
        // Vertical margin captions (common on IRS forms) would otherwise splice into whatever
        // horizontal line shares their y; they are kept as lines of their own.
        if (Math.abs(b) > Math.abs(a) + 1e-6) {
          const size = Math.hypot(a, b) || 10;
          rotated.push({ text: item.str.trim(), box: { x: x - size, y, right: x, top: y + item.width } });
          continue;
        }
        items.push({
          str: item.str,
          x,
          y,
          width: item.width,
          size: Math.hypot(c, d) || Math.hypot(a, b) || 10,
        });
      }
      items.push(...(await formFieldValues(page)));
      const laid = [...layoutLines(items), ...rotated.map((line) => ({ ...line, cells: [] }))];
      const text = laid.map((line) => line.text).join("\n");
      pages.push(text);
      cells.push(laid.map((line) => line.cells));
      // Drawings are read only where a signature can be: the operator list costs as much as the text.
      const signable = SIGNATURE_WORDING.test(text);
      const marks = signable ? inkMarks(await page.getOperatorList(), await operatorCodes()) : [];
      models.push(pageModel(number, shown, laid, marks, [], signable));
      page.cleanup();
    }
    const extracted: ExtractedDocument = {
      document: documentName,
      page_count: pdf.numPages,
      pages,
      has_text_layer: pages.some((text) => text.trim() !== ""),
      cells,
      model: { pages: models },
    };
    const wanted = (page: number) => !options.ocrPages || options.ocrPages.includes(page);
    const blank = pages.flatMap((text, index) =>
      text.trim() === "" && wanted(index + 1) ? [index + 1] : [],
    );
    if (!options.ocr || blank.length === 0) return extracted;
    return await withOcr(extracted, bytes, blank, sizes, { ...options, ocr: options.ocr });
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

/** The blank pages of `extracted` read by OCR, laid out like text-layer pages. */
async function withOcr(
  extracted: ExtractedDocument,
  bytes: Uint8Array,
  blank: number[],
  pageSizes: Array<{ width: number; height: number }>,
  options: ExtractOptions & { ocr: OcrEngine },
): Promise<ExtractedDocument> {
  const { ocr } = options;
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 10) / 100;
  const sources: PageSource[] = extracted.pages.map((text) =>
    text.trim() === "" ? { source: "none" } : { source: "text" },
  );
  let read: OcrPage[];
  try {
    const request = (pages: number[], readWhole: ((top: string) => boolean) | undefined) =>
      ocr.recognize({
        document: extracted.document,
        bytes,
        location: options.location ?? { bucket: "", key: extracted.document },
        pages,
        pageSizes,
        requestToken: options.requestToken ?? extracted.document,
        rereadPage: options.rereadPage ?? worthRereading,
        probePage: options.probePage ?? loanProbes,
        ...(readWhole ? { readWhole } : {}),
      });
    const readWhole =
      options.readWhole === null || (options.readWhole === undefined && blank.length < SKIM_FROM_PAGES)
        ? undefined
        : (options.readWhole ?? worthRereading);
    read = (await request(blank, readWhole)).pages;
    // The pages skipped on their header hold nothing the conditions read only if the pages read
    // whole show page 1 and Schedule L; otherwise the header misled, and they are read whole.
    const skimmed = read.filter((page) => page.skimmed).map((page) => page.page);
    const whole = extracted.pages.filter(
      (_, index) => !skimmed.includes(index + 1) && !blank.includes(index + 1),
    );
    const wholeRead = read.filter((page) => !page.skimmed).map((page) => pageText(page.lines));
    if (skimmed.length > 0 && !showsWholeReturn([...whole, ...wholeRead])) {
      const again = new Map((await request(skimmed, undefined)).pages.map((page) => [page.page, page]));
      read = read.map((page) => again.get(page.page) ?? page);
    }
  } catch (error) {
    if (!(error instanceof OcrDocumentError)) throw error;
    const summary = { engine: ocr.name, pages: blank, seconds: seconds(), confidence: 0 };
    return { ...extracted, page_sources: sources, ocr: { ...summary, error: error.message } };
  }
  const pages = [...extracted.pages];
  const cells = [...(extracted.cells ?? extracted.pages.map(() => []))];
  const models = extracted.model ? [...extracted.model.pages] : undefined;
  let total = 0;
  let count = 0;
  for (const page of read) {
    const index = page.page - 1;
    if (!blank.includes(page.page)) continue;
    const items: PositionedText[] = page.lines.flatMap((line, lineIndex) => {
      // A form's box edge read as a glyph ("|", "[|") is no text, but it does part two fields.
      let ruled = false;
      return line.words.flatMap((word) => {
        if (BOX_RULE.test(word.text)) {
          ruled = true;
          return [];
        }
        if (word.confidence < OCR_NOISE_FLOOR || word.text.trim() === "") return [];
        const item: PositionedText = {
          line: lineIndex,
          str: readDigits(word.text),
          x: word.x,
          y: word.y,
          width: word.width,
          size: Math.max(4, word.height),
          confidence: word.confidence,
          ...(ruled ? { columnBreak: true } : {}),
        };
        ruled = false;
        return [item];
      });
    });
    if (items.length === 0) continue;
    const laid = layoutLines(items);
    pages[index] = laid.map((line) => line.text).join("\n");
    cells[index] = laid.map((line) => line.cells);
    const size = pageSizes[index];
    // An engine that reports signatures (Textract's SIGNATURES, ink on the raster) looked for them.
    if (models && size)
      models[index] = pageModel(
        page.page,
        size,
        laid,
        [],
        page.signatures ?? [],
        page.signatures !== undefined,
        page.fields || page.tables ? engineAnalysis(page) : undefined,
      );
    const sum = items.reduce((acc, item) => acc + (item.confidence ?? 0), 0);
    total += sum;
    count += items.length;
    sources[index] = {
      source: "ocr",
      confidence: Math.round(sum / items.length),
      ...(page.skimmed ? { skimmed: true as const } : {}),
    };
  }
  const skimmed = read.filter((page) => page.skimmed && blank.includes(page.page)).map((page) => page.page);
  return {
    ...extracted,
    pages,
    cells,
    ...(models ? { model: { pages: models } } : {}),
    page_sources: sources,
    ocr: {
      engine: ocr.name,
      pages: blank,
      seconds: seconds(),
      confidence: count ? Math.round(total / count) : 0,
      ...(skimmed.length > 0 ? { skimmed } : {}),
    },
  };
}

/** The key–value pairs and tables an engine found (Textract FORMS and TABLES), for the page's model. */
function engineAnalysis(page: OcrPage): { fields: LaidField[]; tables: LaidTable[] } {
  const span = ({ text, x, y, right, top, confidence }: OcrSpan): LaidSpan => ({
    text,
    box: { x, y, right, top },
    confidence,
  });
  return {
    fields: (page.fields ?? []).map((field) => ({
      key: span(field.key),
      value: field.value ? span(field.value) : null,
    })),
    tables: (page.tables ?? []).map((table) => ({
      cells: table.cells.map((cell) => ({ row: cell.row, column: cell.column, span: span(cell.span) })),
    })),
  };
}

/**
 * Filled-in fillable forms (an IRS PDF typed into in Acrobat) keep their values in widget
 * annotations, not in the page's content stream; without these a filled 1120 reads as blank.
 */
async function formFieldValues(page: {
  getAnnotations: () => Promise<unknown[]>;
}): Promise<PositionedText[]> {
  let annotations: unknown[];
  try {
    annotations = await page.getAnnotations();
  } catch {
    return [];
  }
  const values: PositionedText[] = [];
  for (const raw of annotations) {
    const annotation = raw as { subtype?: string; fieldType?: string; fieldValue?: unknown; rect?: number[] };
    if (annotation.subtype !== "Widget" || annotation.fieldType !== "Tx") continue;
    if (typeof annotation.fieldValue !== "string" || annotation.fieldValue.trim() === "") continue;
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = annotation.rect ?? [];
    const height = Math.max(1, Math.abs(y2 - y1));
    const size = Math.min(12, Math.max(6, height * 0.7));
    const text = annotation.fieldValue.replace(/\s*[\r\n]+\s*/g, " ").trim();
    values.push({
      str: text,
      x: Math.min(x1, x2) + 2,
      y: Math.min(y1, y2) + (height - size) / 2,
      width: text.length * size * 0.5,
      size,
    });
  }
  return values;
}

function describeOpenError(documentName: string, bytes: Uint8Array, error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "PasswordException") {
    return `${documentName} is not a readable PDF: it is encrypted and needs a password`;
  }
  const head = latin1(bytes.subarray(0, Math.min(1024, bytes.byteLength)));
  if (!head.includes("%PDF-")) {
    return `${documentName} is not a readable PDF: expected a PDF file (starting with %PDF-), got ${describeHead(bytes)}`;
  }
  return `${documentName} is not a readable PDF: ${errorMessage(error)}`;
}

/**
 * What the file is, from its signature: its first bytes are the document's own content (a text
 * file's first line may be a borrower's name or SSN), so they are never quoted.
 */
function describeHead(bytes: Uint8Array): string {
  const head = latin1(bytes.subarray(0, 512));
  const kind =
    FILE_SIGNATURES.find(([signature]) => head.startsWith(signature))?.[1] ??
    (/^\s*<(?:!doctype html|html)/i.test(head)
      ? "an HTML page"
      : !/[^\t\n\r -~]/.test(head)
        ? "plain text"
        : "binary data");
  return `${kind} of ${bytes.byteLength} bytes`;
}

/**
 * Each byte as the character of the same code: WHATWG's "latin1" TextDecoder is windows-1252 (Node 22
 * decodes 0x89 as "‰"), which would hide the signatures below.
 */
function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

const FILE_SIGNATURES: ReadonlyArray<readonly [signature: string, kind: string]> = [
  ["\x89PNG", "a PNG image"],
  ["\xff\xd8\xff", "a JPEG image"],
  ["GIF8", "a GIF image"],
  ["II*\x00", "a TIFF image"],
  ["MM\x00*", "a TIFF image"],
  ["PK\x03\x04", "a ZIP archive (an Office document?)"],
  ["\xd0\xcf\x11\xe0", "a legacy Office document"],
  ["{\\rtf", "an RTF document"],
];

/** pdf.js's reason, scrubbed and short: a parser error may quote the bytes it choked on. */
function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return scrubSensitiveText(message, { maxLength: MAX_QUOTED_REASON_CHARS });
}

/**
 * How sure OCR was of an excerpt of a page (0–100). With `values` (what a field finder read
 * there), the columns holding them count, not the labels and neighbours quoted around them: a value
 * printed whole in some column counts at its best read there, else the columns holding any of its
 * words at their worst. Without values (or none found), the excerpt's columns weighted by length.
 * The page's mean when the page has no columns; undefined for a text-layer page or an excerpt that
 * is not on the page.
 */
export function excerptConfidence(
  document: ExtractedDocument,
  page: number,
  excerpt: string,
  values: ReadonlyArray<string> = [],
): number | undefined {
  const source = document.page_sources?.[page - 1];
  if (source?.source !== "ocr") return undefined;
  const text = document.pages[page - 1] ?? "";
  const at = excerpt === "" ? -1 : text.indexOf(excerpt);
  if (at < 0) return undefined;
  const end = at + excerpt.length;
  const touched: Array<{ words: string; length: number; confidence: number }> = [];
  let offset = 0;
  text.split("\n").forEach((line, index) => {
    const lineEnd = offset + line.length;
    if (offset < end && lineEnd > at) {
      for (const cell of document.cells?.[page - 1]?.[index] ?? []) {
        const from = offset + cell.start;
        if (from < end && from + cell.text.length > at && cell.confidence !== undefined) {
          touched.push({
            words: ` ${alphanumeric(cell.text)} `,
            length: cell.text.length,
            confidence: cell.confidence,
          });
        }
      }
    }
    offset = lineEnd + 1;
  });
  if (touched.length === 0) return source.confidence;
  const perValue = values.flatMap((value) => {
    const whole = ` ${alphanumeric(value)} `;
    if (whole.trim() === "") return [];
    const printed = touched.filter((cell) => cell.words.includes(whole));
    if (printed.length > 0) return [Math.max(...printed.map((cell) => cell.confidence))];
    const tokens = whole
      .trim()
      .split(" ")
      .filter((token) => token.length > 1);
    const printedTokens = tokens.filter((token) => touched.some((cell) => cell.words.includes(` ${token} `)));
    // A value mostly not printed ("Form 1120 page 1", a part's name) says nothing of which words to weigh.
    if (printedTokens.length * 2 < tokens.length) return [];
    const partial = touched.filter((cell) =>
      printedTokens.some((token) => cell.words.includes(` ${token} `)),
    );
    return partial.length > 0 ? [Math.min(...partial.map((cell) => cell.confidence))] : [];
  });
  if (perValue.length > 0) return Math.min(...perValue);
  const length = touched.reduce((sum, cell) => sum + cell.length, 0);
  return Math.round(touched.reduce((sum, cell) => sum + cell.confidence * cell.length, 0) / length);
}

function alphanumeric(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}
