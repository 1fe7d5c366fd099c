// The contract between document reading and an OCR engine: which pages of which PDF to read, and
// the words read with where they sit and how sure the engine is. Both engines (Amazon Textract in
// AWS, tesseract.js offline) answer in PDF points with the origin at the bottom left, like the text
// layer, so the same line layout and the same field finders read either.

/** `none`: pages without a text layer stay unread (the verdicts say so). */
export type OcrEngineName = "textract" | "tesseract" | "none";
export const OCR_ENGINE_NAMES: ReadonlyArray<OcrEngineName> = ["textract", "tesseract", "none"];

export interface OcrWord {
  text: string;
  /** Left edge and baseline (bottom of the word's box), in PDF points from the page's bottom left. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0–100, the engine's own confidence in this word. */
  confidence: number;
}

/** One line as the engine grouped it: its words left to right. */
export interface OcrLine {
  words: OcrWord[];
}

export interface OcrPage {
  /** 1-based. */
  page: number;
  lines: OcrLine[];
  /** Signatures the engine saw (Textract's SIGNATURES feature), in PDF points from the bottom left. */
  signatures?: OcrSignature[];
  /** Key–value pairs the engine found (Textract's FORMS feature); unset when it did not look. */
  fields?: OcrField[];
  /** Tables the engine found (Textract's TABLES feature); unset when it did not look. */
  tables?: OcrTable[];
  /**
   * Only the page's top band was read (`lines` are its running header and first heading): the
   * request's `readWhole` judged the rest of it not worth reading.
   */
  skimmed?: true;
}

/** Some text of the page and its box, in PDF points from the bottom left. */
export interface OcrSpan {
  text: string;
  x: number;
  y: number;
  right: number;
  top: number;
  /** 0–100. */
  confidence: number;
}

export interface OcrField {
  key: OcrSpan;
  /** Null: the key has nothing printed for it. */
  value: OcrSpan | null;
}

export interface OcrTable {
  /** 1-based rows and columns. */
  cells: Array<{ row: number; column: number; span: OcrSpan }>;
}

export interface OcrSignature {
  x: number;
  y: number;
  right: number;
  top: number;
  /** 0–100. */
  confidence: number;
  /** Textract's SIGNATURE block, or handwriting the offline reader found as ink no word explains. */
  source: "textract" | "ink";
}

export interface OcrRequest {
  /** The document as it was requested, for messages. */
  document: string;
  /** The PDF itself (tesseract rasterises it). */
  bytes: Uint8Array;
  /** Where it is stored (Textract reads the S3 object itself). */
  location: { bucket: string; key: string };
  /** 1-based pages to read: those without a text layer. */
  pages: number[];
  /** Every page's size in PDF points (index 0 = page 1), to place the words. */
  pageSizes: ReadonlyArray<{ width: number; height: number }>;
  /** A stable token for this read (run and document): Textract returns the same job for it. */
  requestToken: string;
  /**
   * Whether a page's unsure lines are worth a second, closer reading, judged from the text of its
   * first reading (its lines' words joined by spaces, one line a row). Omitted: every page's are.
   * The offline engine asks it; Textract reads every page once.
   */
  rereadPage?: (text: string) => boolean;
  /**
   * Where on a page, given its first reading, the reader expects fields worth reading again on
   * their own (a form's small boxed values). Asked only for pages that get the second look; the
   * offline engine asks it, Textract reads a form's fields itself. Probes are part of the second
   * look: a reading the engine cached carries those of the request that read the page.
   */
  probePage?: (lines: ReadonlyArray<OcrLine>, size: { width: number; height: number }) => OcrProbe[];
  /**
   * Whether a page is worth reading whole, judged from the text of its top band read alone (its
   * running header and first heading, a few lines). A page that is not is answered with the band's
   * lines, marked `skimmed`. Omitted: every page is read whole. The offline engine asks it;
   * Textract reads every page whole.
   */
  readWhole?: (top: string) => boolean;
}

/** A band of a page where a reader expects values, in PDF points from the bottom left. */
export interface OcrProbe {
  x: number;
  y: number;
  right: number;
  top: number;
  /** The height of the text expected there (points): it sets how wide a gap parts two values. */
  textHeight: number;
}

export interface OcrResult {
  engine: Exclude<OcrEngineName, "none">;
  /** One entry per requested page, in the order requested; a page the engine read nothing on has no lines. */
  pages: OcrPage[];
}

export interface OcrEngine {
  readonly name: Exclude<OcrEngineName, "none">;
  recognize(request: OcrRequest): Promise<OcrResult>;
}

/**
 * An asynchronous OCR job (Textract) that has not finished yet. Thrown instead of waiting past the
 * function's time: the state machine retries the step, and the retry finds the same job by its
 * request token, so the document is read once.
 */
export class OcrPendingError extends Error {
  override name = "OcrPending";
  constructor(
    readonly document: string,
    readonly jobId: string,
  ) {
    super(`OCR of ${document} is still running (job ${jobId}); the step is retried until it finishes`);
  }
}

/** The engine failed on this document (Textract: FAILED, unsupported or too large); its own problem. */
export class OcrDocumentError extends Error {
  override name = "OcrDocumentError";
  constructor(
    readonly document: string,
    message: string,
  ) {
    super(message);
  }
}

/** The text of lines read: words joined by spaces, one line a row. */
export function pageText(lines: ReadonlyArray<OcrLine>): string {
  return lines.map((line) => line.words.map((word) => word.text).join(" ")).join("\n");
}
