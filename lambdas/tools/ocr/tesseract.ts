// Offline OCR: each requested page is rasterised with MuPDF and read by tesseract.js with the
// English model from @tesseract.js-data/eng (installed with the package, never downloaded). Used by
// the local twin and offline runs; deployed workers use Amazon Textract instead.

import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import type { Bbox, Line, Page, RecognizeOptions, Scheduler } from "tesseract.js";
import { handwrittenMarks } from "../../documents/ink.ts";
import type { OcrEngine, OcrLine, OcrPage, OcrRequest, OcrResult, OcrSignature } from "./engine.ts";
import { OcrDocumentError } from "./engine.ts";
import {
  crop,
  DEFAULT_PREPARE,
  type GreyImage,
  inkiestBand,
  type PrepareOptions,
  preparePage,
  rotateQuarter,
} from "./prepare.ts";
import { rereadUnsureLines } from "./reread.ts";

/** A page that is not one scanned image (vector text drawn without a text layer) renders at this. */
const RENDER_DPI = 300;
/**
 * A scan below 200 dpi renders at its own resolution, but at least 150 dpi: MuPDF's upsampling of
 * a 150 dpi JPEG to 300 dpi blurs its speckle and artefacts into the strokes (measured: tesseract's
 * confidence fell from 81 to 72 on a 150 dpi Form 1120), while a 100 dpi fax reads better brought up
 * to 150 (73 against 59). A scan of 200 dpi or more reads a little better at 300 (86 against 84).
 * Below 100 dpi nothing was measured to read with confidence at any resolution: such a page keeps
 * the 300 dpi rendering its "too degraded to read" verdicts were established with.
 */
const LOW_RESOLUTION_SCAN = { from: 100, below: 200, atLeast: 150 } as const;
/** Workers are released this long after the last page, so an idle process can exit. */
const IDLE_MS = 2_000;
/** Pages whose reading is kept (by the page image's content hash): a few hundred KB at most. */
const CACHE_PAGES = 256;
/** Share of the page's height read both ways up to tell an upright page from an upside-down one. */
const ORIENTATION_BAND = 0.12;
/** …but never a band thinner than this (pixels): a few lines of text at 300 dpi. */
const ORIENTATION_BAND_MIN_PX = 240;
/** A trial reading this much surer (mean word confidence, points) the other way up turns the page. */
const ORIENTATION_MARGIN = 10;

export interface TesseractOptions {
  /** Pages read at once (one tesseract worker each); default: the machine's cores. */
  workers?: number;
  /**
   * Rendering resolution of the pages. Default: a scan of 100–200 dpi at its own resolution (its
   * image's pixels over its size), at least 150; 300 for any other page.
   */
  dpi?: number;
  /**
   * Preparation before reading (lambdas/tools/ocr/prepare.ts), each step switchable; `false` reads
   * the page as rendered and lets tesseract straighten it (its own skew estimate). Default:
   * DEFAULT_PREPARE, plus the upright/upside-down check when `orientation` is on.
   */
  prepare?: PrepareOptions | false;
  /**
   * tesseract's page segmentation mode. Default 11 (sparse text: every word wherever it stands),
   * because the words are laid out into lines by their positions afterwards: reading a form's boxes
   * as one block (6) or as columns (3) merges or drops the small boxed fields.
   */
  pageSegmentation?: number;
  /** Read again, cropped and enlarged, the lines with a word read below 80 (default true). */
  reread?: boolean;
  /** Pages whose reading is kept in memory, by content hash of the rendered page (default 256; 0: none). */
  cachePages?: number;
  /** Milliseconds the workers stay warm after the last page (default 2000). */
  idleMs?: number;
}

export interface TesseractEngine extends OcrEngine {
  /** Pages read since the engine was built, and pages answered from the cache. */
  readonly stats: { pagesRead: number; cacheHits: number; linesReread: number; linesReplaced: number };
}

export function createTesseractEngine(options: TesseractOptions = {}): TesseractEngine {
  const pool = new WorkerPool(
    Math.max(1, options.workers ?? availableParallelism()),
    options.idleMs ?? IDLE_MS,
  );
  const dpi = options.dpi;
  if (dpi !== undefined && !(dpi >= 72 && dpi <= 600)) throw new RangeError(`dpi must be 72-600, got ${dpi}`);
  const prepare = options.prepare === false ? false : { ...DEFAULT_PREPARE, ...options.prepare };
  const psm = options.pageSegmentation ?? 11;
  const reread = options.reread ?? true;
  if (!Number.isInteger(psm) || psm < 0 || psm > 13) {
    throw new RangeError(`pageSegmentation must be a tesseract PSM 0-13, got ${psm}`);
  }
  const cache = new LruCache<string, PageReading>(Math.max(0, options.cachePages ?? CACHE_PAGES));
  // The cache key covers everything that changes a reading besides the pixels.
  const settings = JSON.stringify({ dpi: dpi ?? "scan", prepare, psm, reread });
  const stats = { pagesRead: 0, cacheHits: 0, linesReread: 0, linesReplaced: 0 };
  return {
    name: "tesseract",
    stats,
    async recognize(request: OcrRequest): Promise<OcrResult> {
      const images = await rasterise(request, dpi);
      const pages = await pool.run(images.length, (scheduler) =>
        Promise.all(
          images.map(async ({ page, image, scale }): Promise<OcrPage> => {
            const key = createHash("sha256")
              .update(settings)
              .update(`${image.width}x${image.height}@${scale}\n`)
              .update(image.data)
              .digest("hex");
            const cached = cache.get(key);
            if (cached) {
              stats.cacheHits++;
              return { page, ...cached };
            }
            const reading = await readPage(scheduler, image, scale, prepare, psm, reread ? stats : null);
            stats.pagesRead++;
            cache.set(key, reading);
            return { page, ...reading };
          }),
        ),
      );
      return { engine: "tesseract", pages };
    },
  };
}

type TesseractScheduler = Scheduler;

/**
 * One reading of a grey image. tesseract.js hands recognize options it does not know itself to
 * tesseract as parameters for this job only (then restores them): the page segmentation mode.
 */
async function read(
  scheduler: TesseractScheduler,
  image: GreyImage,
  options: { rotateAuto: boolean; psm: number; dpi: number },
): Promise<Page> {
  const recognizeOptions = {
    rotateAuto: options.rotateAuto,
    tessedit_pageseg_mode: String(options.psm),
  } as Partial<RecognizeOptions>;
  const { data } = await scheduler.addJob("recognize", await toPng(image, options.dpi), recognizeOptions, {
    blocks: true,
    text: false,
  });
  return data;
}

/**
 * A grey PNG with its resolution (MuPDF writes it): without one tesseract guesses the resolution
 * from the size of the text it finds, which a poor scan misleads.
 */
async function toPng(image: GreyImage, dpi: number): Promise<Buffer> {
  const mupdf = await import("mupdf");
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, image.width, image.height], false);
  try {
    const samples = pixmap.getPixels();
    const stride = pixmap.getStride();
    if (stride === image.width) samples.set(image.data);
    else
      for (let y = 0; y < image.height; y++)
        samples.set(image.data.subarray(y * image.width, (y + 1) * image.width), y * stride);
    const resolution = Math.round(dpi);
    pixmap.setResolution(resolution, resolution);
    return Buffer.from(pixmap.asPNG());
  } finally {
    pixmap.destroy();
  }
}

async function readPage(
  scheduler: TesseractScheduler,
  rendered: GreyImage,
  scale: number,
  prepare: Required<PrepareOptions> | false,
  psm: number,
  reread: { linesReread: number; linesReplaced: number } | null,
): Promise<PageReading> {
  if (prepare === false) {
    const lines = toLines(
      await read(scheduler, rendered, { rotateAuto: true, psm, dpi: scale * 72 }),
      scale,
      rendered.height,
    );
    return { lines, signatures: handwriting(rendered, scale, lines) };
  }
  const prepared = preparePage(rendered, prepare);
  let image = prepared.image;
  if (prepare.orientation) image = await upright(scheduler, image, scale * prepare.upscale * 72);
  // Straightened already: tesseract's own skew pass (a second layout analysis) would cost time.
  const dpi = scale * prepare.upscale * 72;
  const data = await read(scheduler, image, { rotateAuto: !prepare.deskew, psm, dpi });
  // A page turned upright is laid out in its upright frame: the words read in lines, as a person reads it.
  let lines = toLines(data, scale * prepare.upscale, image.height);
  if (reread) {
    const again = await rereadUnsureLines(lines, image, scale * prepare.upscale, async (piece, pieceScale) =>
      toLines(
        await read(scheduler, piece, { rotateAuto: false, psm: 7, dpi: pieceScale * 72 }),
        pieceScale,
        piece.height,
      ),
    );
    lines = again.lines;
    reread.linesReread += again.reread;
    reread.linesReplaced += again.replaced;
  }
  return { lines, signatures: handwriting(image, scale * prepare.upscale, lines) };
}

/** Words read at least this sure (0–100) are taken for print when looking for handwriting. */
const PRINTED_WORD_CONFIDENCE = 60;

/** What one page read gives: its lines of words and the handwriting no word explains. */
interface PageReading {
  lines: OcrLine[];
  signatures: OcrSignature[];
}

/**
 * Ink on the image the words were read from that none of them covers and that looks written by
 * hand (lambdas/documents/ink.ts): a signature no text reader sees.
 */
function handwriting(image: GreyImage, scale: number, lines: OcrLine[]): OcrSignature[] {
  // Only words read with some confidence are print: tesseract reads a scribble as a few unsure
  // "words", which must not hide the ink they came from.
  const words = lines.flatMap((line) =>
    line.words
      .filter((word) => word.confidence >= PRINTED_WORD_CONFIDENCE)
      .map((word) => ({ x: word.x, y: word.y, right: word.x + word.width, top: word.y + word.height })),
  );
  return handwrittenMarks(image, { scale, pageHeight: image.height / scale }, words).map((mark) => ({
    ...mark,
    source: "ink" as const,
  }));
}

/**
 * Upright or upside down: the inkiest band of the page is read both ways (a single block) and the
 * page kept as it is unless the turned reading is clearly surer.
 */
async function upright(scheduler: TesseractScheduler, image: GreyImage, dpi: number): Promise<GreyImage> {
  const band = inkiestBand(
    image,
    Math.min(1, Math.max(ORIENTATION_BAND, ORIENTATION_BAND_MIN_PX / image.height)),
  );
  const strip = crop(image, 0, band.top, image.width, band.height);
  const trial = async (candidate: GreyImage) =>
    meanWordConfidence(await read(scheduler, candidate, { rotateAuto: false, psm: 6, dpi }));
  const [asIs, turned] = await Promise.all([trial(strip), trial(rotateQuarter(strip, 2))]);
  return turned > asIs + ORIENTATION_MARGIN ? rotateQuarter(image, 2) : image;
}

function meanWordConfidence(data: Page): number {
  let sum = 0;
  let characters = 0;
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          const length = word.text.trim().length;
          sum += word.confidence * length;
          characters += length;
        }
      }
    }
  }
  return characters ? sum / characters : 0;
}

interface PageImage {
  page: number;
  image: GreyImage;
  /** Pixels per PDF point. */
  scale: number;
}

async function rasterise(request: OcrRequest, dpi: number | undefined): Promise<PageImage[]> {
  const mupdf = await import("mupdf");
  let document: InstanceType<typeof mupdf.Document>;
  try {
    document = mupdf.Document.openDocument(request.bytes, "application/pdf");
  } catch (error) {
    throw new OcrDocumentError(
      request.document,
      `${request.document} could not be rasterised for OCR: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    const count = document.countPages();
    const images: PageImage[] = [];
    for (const page of request.pages) {
      if (!Number.isInteger(page) || page < 1 || page > count) {
        throw new OcrDocumentError(
          request.document,
          `${request.document} has ${count} pages; page ${page} cannot be read`,
        );
      }
      const loaded = document.loadPage(page - 1);
      try {
        const scale = (dpi ?? renderingDpi(mupdf, loaded)) / 72;
        const pixmap = loaded.toPixmap(
          mupdf.Matrix.scale(scale, scale),
          mupdf.ColorSpace.DeviceGray,
          false,
          true,
        );
        try {
          images.push({ page, image: greyOf(pixmap), scale });
        } finally {
          pixmap.destroy();
        }
      } finally {
        loaded.destroy();
      }
      // Rendering is synchronous WASM work: let other steps of the run breathe between pages.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return images;
  } finally {
    document.destroy();
  }
}

/**
 * The resolution to render a page at: a low-resolution scan's own (the pixels of the image that
 * covers most of the page over its size on the page; LOW_RESOLUTION_SCAN), otherwise RENDER_DPI.
 */
function renderingDpi(mupdf: typeof import("mupdf"), page: import("mupdf").Page): number {
  const [x0, y0, x1, y1] = page.getBounds();
  const pageArea = Math.abs((x1 - x0) * (y1 - y0));
  let largest = { area: 0, dpi: 0 };
  const device = new mupdf.Device({
    fillImage(image, ctm) {
      // The image's unit square maps to the page through ctm: its sides' lengths in points.
      const widthPoints = Math.hypot(ctm[0], ctm[1]);
      const heightPoints = Math.hypot(ctm[2], ctm[3]);
      const area = widthPoints * heightPoints;
      if (area > largest.area && widthPoints > 0) {
        largest = { area, dpi: (image.getWidth() / widthPoints) * 72 };
      }
    },
  });
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  const low = largest.dpi >= LOW_RESOLUTION_SCAN.from - 0.5 && largest.dpi < LOW_RESOLUTION_SCAN.below;
  if (largest.area < pageArea * 0.8 || !low) return RENDER_DPI;
  return Math.round(Math.max(LOW_RESOLUTION_SCAN.atLeast, largest.dpi));
}

/** The pixmap's grey samples as one byte a pixel, without the row padding MuPDF may add. */
function greyOf(pixmap: {
  getWidth(): number;
  getHeight(): number;
  getStride(): number;
  getPixels(): Uint8ClampedArray;
}): GreyImage {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const pixels = pixmap.getPixels();
  const data = new Uint8Array(width * height);
  if (stride === width) data.set(pixels.subarray(0, width * height));
  else for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width), y * width);
  return { width, height, data };
}

/** The words of a reading in PDF points from the bottom left of the page (as read, `pixelHeight` high). */
function toLines(data: Page, scale: number, pixelHeight: number): OcrLine[] {
  const pageHeight = pixelHeight / scale;
  const lines: OcrLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = wordsOf(line, scale, pageHeight);
        if (words.length > 0) lines.push({ words });
      }
    }
  }
  return lines;
}

function wordsOf(line: Line, scale: number, pageHeight: number): OcrLine["words"] {
  // One baseline for the line: tesseract has already followed the line's slant.
  const bottom = line.bbox.y1;
  const height = (line.bbox.y1 - line.bbox.y0) / scale;
  return line.words
    .filter((word) => word.text.trim() !== "")
    .map((word) => ({
      text: word.text,
      ...horizontal(word.bbox, scale),
      y: pageHeight - bottom / scale,
      height,
      confidence: Math.max(0, Math.min(100, word.confidence)),
    }));
}

function horizontal(bbox: Bbox, scale: number): { x: number; width: number } {
  return { x: bbox.x0 / scale, width: (bbox.x1 - bbox.x0) / scale };
}

/**
 * tesseract.js workers (worker threads with the model loaded) are costly to start (about a second
 * each) and keep a process alive. They are started on demand, shared by concurrent documents, and
 * released once nothing has used them for a moment.
 */
class WorkerPool {
  private scheduler: Promise<Scheduler> | undefined;
  private size = 0;
  private active = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly maxWorkers: number,
    private readonly idleMs: number,
  ) {}

  async run<T>(pages: number, work: (scheduler: Scheduler) => Promise<T>): Promise<T> {
    this.active++;
    clearTimeout(this.idle);
    try {
      const scheduler = await this.grow(Math.min(this.maxWorkers, pages));
      return await work(scheduler);
    } finally {
      this.active--;
      if (this.active === 0) {
        this.idle = setTimeout(() => void this.release(), this.idleMs);
        this.idle.unref();
      }
    }
  }

  private async grow(wanted: number): Promise<Scheduler> {
    const tesseract = await import("tesseract.js");
    this.scheduler ??= Promise.resolve(tesseract.createScheduler());
    const scheduler = await this.scheduler;
    const adding: Promise<unknown>[] = [];
    while (this.size < wanted) {
      this.size++;
      adding.push(
        tesseract
          .createWorker("eng", tesseract.OEM.LSTM_ONLY, {
            langPath: englishData().langPath,
            gzip: true,
            // Never write the model to a cache directory: the package's copy is read every time.
            cacheMethod: "none",
          })
          .then((worker) => scheduler.addWorker(worker))
          .catch((error: unknown) => {
            this.size--;
            throw error;
          }),
      );
    }
    await Promise.all(adding);
    return scheduler;
  }

  private async release(): Promise<void> {
    if (this.active > 0 || !this.scheduler) return;
    const scheduler = this.scheduler;
    this.scheduler = undefined;
    this.size = 0;
    await (await scheduler).terminate().catch(() => undefined);
  }
}

function englishData(): { langPath: string } {
  const require = createRequire(import.meta.url);
  return require("@tesseract.js-data/eng") as { langPath: string };
}

/** A bounded map that forgets the least recently used entry first. */
class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }
}
