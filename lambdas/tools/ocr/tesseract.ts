// Offline OCR: each requested page is rasterised with MuPDF and read by tesseract.js with the
// English model from @tesseract.js-data/eng (installed with the package, never downloaded). Used by
// the local twin and offline runs; deployed workers use Amazon Textract instead.

import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import type { Bbox, Line, Page, RecognizeOptions, Scheduler } from "tesseract.js";
import { handwrittenMarks } from "../../documents/ink.ts";
import type { OcrEngine, OcrLine, OcrPage, OcrRequest, OcrResult, OcrSignature } from "./engine.ts";
import { OcrDocumentError, pageText } from "./engine.ts";
import {
  crop,
  DEFAULT_PREPARE,
  type GreyImage,
  inkiestBand,
  type PrepareOptions,
  preparePage,
  rotateQuarter,
} from "./prepare.ts";
import { readProbes } from "./probe.ts";
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
/**
 * A page read with at least this mean word confidence (0–100) as it lies is upright, and the trial
 * readings both ways up are skipped. Measured on a Form 1120's pages 1 and 5 and a statement
 * (harsh and fax scans, psm 11): 61 (the fax) to 77 upright, 21–25 the same pages upside down.
 */
const SURELY_UPRIGHT = 50;

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
  /**
   * Pages read since the engine was built, pages answered from the cache, lines read a second time
   * (and replaced by that reading), pages whose unsure lines the request did not want re-read, and
   * the boxes of the request's probes read again (and replaced by that reading), and pages of which
   * only the top band was read (the request's `readWhole` not wanting the rest; not in `pagesRead`).
   */
  readonly stats: {
    pagesRead: number;
    cacheHits: number;
    linesReread: number;
    linesReplaced: number;
    pagesNotReread: number;
    boxesProbed: number;
    boxesReplaced: number;
    pagesSkimmed: number;
  };
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
  const cache = new LruCache<string, CachedReading>(Math.max(0, options.cachePages ?? CACHE_PAGES));
  // A page of a file (its hash and number) → its rendered image's cache key.
  const renderedKeys = new LruCache<string, string>(Math.max(0, options.cachePages ?? CACHE_PAGES));
  // The cache key covers everything that changes a reading besides the pixels.
  const settings = JSON.stringify({ dpi: dpi ?? "scan", prepare, psm, reread });
  const stats = {
    pagesRead: 0,
    cacheHits: 0,
    linesReread: 0,
    linesReplaced: 0,
    pagesNotReread: 0,
    boxesProbed: 0,
    boxesReplaced: 0,
    pagesSkimmed: 0,
  };
  return {
    name: "tesseract",
    stats,
    async recognize(request: OcrRequest): Promise<OcrResult> {
      // A page of the same file read before is answered without rendering it again (nor starting
      // a worker): the file's hash and the page number name the rendered image's key.
      const documentHash = createHash("sha256").update(request.bytes).digest("hex");
      const known = new Map<number, OcrPage>();
      for (const page of new Set(request.pages)) {
        const key = renderedKeys.get(`${documentHash}:${page}`);
        const cached = key === undefined ? undefined : cache.get(key);
        const answer = cached && cachedAnswer(cached, request);
        if (answer) known.set(page, { page, ...answer });
      }
      const unknown = request.pages.filter((page) => !known.has(page));
      const images = unknown.length > 0 ? await rasterise(request, unknown, dpi) : [];
      const read = new Map<number, OcrPage>();
      if (images.length > 0) {
        await pool.run(images.length, (scheduler) =>
          Promise.all(
            images.map(async ({ page, image, scale }) => {
              const key = createHash("sha256")
                .update(settings)
                .update(`${image.width}x${image.height}@${scale}\n`)
                .update(image.data)
                .digest("hex");
              renderedKeys.set(`${documentHash}:${page}`, key);
              const cached = cache.get(key);
              const answer = cached && cachedAnswer(cached, request);
              if (answer) {
                stats.cacheHits++;
                read.set(page, { page, ...answer });
                return;
              }
              const reading = await readPage(
                scheduler,
                image,
                scale,
                prepare,
                psm,
                reread
                  ? { stats, wanted: request.rereadPage ?? everyPage, probe: request.probePage ?? noProbes }
                  : null,
                request.readWhole,
              );
              if (reading.reread === "skimmed") stats.pagesSkimmed++;
              else stats.pagesRead++;
              cache.set(key, reading);
              read.set(page, { page, ...reading.reading });
            }),
          ),
        );
      }
      stats.cacheHits += request.pages.filter((page) => known.has(page)).length;
      const pages = request.pages.map((page) => {
        const answer = known.get(page) ?? read.get(page);
        if (!answer) throw new Error(`page ${page} of ${request.document} was neither read nor cached`);
        return answer;
      });
      return { engine: "tesseract", pages };
    },
  };
}

type TesseractScheduler = Scheduler;

/** A PGM header padded to this length (see toPgm). */
const PGM_HEADER_BYTES = 512;

/**
 * tesseract parameters of every reading. A line read unsure is read again as white on black (a
 * schedule's inverted title); tesseract does so below a line confidence of 0.7, and 0.5 keeps the
 * inverted titles ("Schedule M-1") while sparing the lines a poor scan merely blurs (measured on
 * three scanned pages: the same words above the noise floor, 6 % less time).
 */
const READING_PARAMETERS = { invert_threshold: "0.5" } as const;

/**
 * One reading of a grey image. tesseract.js hands recognize options it does not know itself to
 * tesseract as parameters for this job only (then restores them): the page segmentation mode, and
 * the resolution (a PGM file carries none; without one tesseract guesses it from the size of the
 * text it finds, which a poor scan misleads).
 */
async function read(
  scheduler: TesseractScheduler,
  image: GreyImage,
  options: { rotateAuto: boolean; psm: number; dpi: number },
): Promise<Page> {
  const recognizeOptions = {
    rotateAuto: options.rotateAuto,
    tessedit_pageseg_mode: String(options.psm),
    user_defined_dpi: String(Math.round(options.dpi)),
    ...READING_PARAMETERS,
  } as Partial<RecognizeOptions>;
  const { data } = await scheduler.addJob("recognize", toPgm(image), recognizeOptions, {
    blocks: true,
    text: false,
  });
  return data;
}

/**
 * The grey image as a binary PGM file: its header and its bytes. Encoding a 300 dpi page as PNG
 * cost a second of the main thread and decoding it more than half a second of the worker's; a
 * PGM costs neither and reads the same words. tesseract.js looks for an EXIF orientation tag in a
 * file's first 500 bytes: a comment pads the header past them, so no pixels can pass for one.
 */
export function toPgm(image: GreyImage): Buffer {
  // Leptonica reads a comment only right after the magic number.
  const size = `${image.width} ${image.height}\n255\n`;
  const padding = `#${" ".repeat(Math.max(0, PGM_HEADER_BYTES - size.length - 5))}\n`;
  const header = Buffer.from(`P5\n${padding}${size}`, "ascii");
  return Buffer.concat([header, image.data], header.length + image.data.length);
}

const everyPage = () => true;
const noProbes = () => [];

/** A page's reading as kept in the cache, and whether its unsure lines were read again. */
interface CachedReading {
  reading: PageReading;
  /**
   * `skipped`: the request did not want them re-read; `off`: the engine does not re-read;
   * `skimmed`: only the page's top band was read, the request not wanting the rest.
   */
  reread: "done" | "skipped" | "off" | "skimmed";
}

/**
 * The cached reading that answers a request, if any: one without a second look at its unsure lines
 * answers only a request that does not want one for that page, and a skimmed one only a request
 * that does not want the page read whole.
 */
export function cachedAnswer(
  cached: CachedReading,
  request: Pick<OcrRequest, "rereadPage" | "readWhole">,
): PageReading | undefined {
  const text = pageText(cached.reading.lines);
  if (cached.reread === "skimmed")
    return request.readWhole && !request.readWhole(text) ? cached.reading : undefined;
  if (cached.reread !== "skipped") return cached.reading;
  return (request.rereadPage ?? everyPage)(text) ? undefined : cached.reading;
}

async function readPage(
  scheduler: TesseractScheduler,
  rendered: GreyImage,
  scale: number,
  prepare: Required<PrepareOptions> | false,
  psm: number,
  reread: {
    stats: TesseractEngine["stats"];
    wanted: (text: string) => boolean;
    probe: NonNullable<OcrRequest["probePage"]>;
  } | null,
  wantsWhole?: OcrRequest["readWhole"],
): Promise<CachedReading> {
  if (prepare === false) {
    const lines = toLines(
      await read(scheduler, rendered, { rotateAuto: true, psm, dpi: scale * 72 }),
      scale,
      rendered.height,
    );
    return { reading: { lines, signatures: handwriting(rendered, scale, lines) }, reread: "off" };
  }
  const prepared = preparePage(rendered, prepare);
  let image = prepared.image;
  const dpi = scale * prepare.upscale * 72;
  // Straightened already: tesseract's own skew pass (a second layout analysis) would cost time.
  const readWhole = (page: GreyImage) => read(scheduler, page, { rotateAuto: !prepare.deskew, psm, dpi });
  let upright = prepared.unfiltered;
  const turnOver = () => {
    image = rotateQuarter(image, 2);
    upright = () => rotateQuarter(prepared.unfiltered(), 2);
  };
  // A page found lying sideways was turned a quarter clockwise, which leaves it upside down when it
  // lay the other way: the trial readings settle that before the page is read, not after.
  const sideways = prepare.orientation && prepared.turns === 1;
  if (sideways && (await upsideDown(scheduler, image, dpi))) turnOver();
  const pageScale = scale * prepare.upscale;
  // A page the reader may not need is first read by its top band: its running header says which
  // page it is. A band read unsure settles nothing: the page is read whole, and since a page upside
  // down reads so, the trial readings settle that first.
  const skim = async (): Promise<CachedReading | "unsure" | null> => {
    if (!wantsWhole) return null;
    const band = crop(image, 0, 0, image.width, topBandHeight(image));
    const top = await read(scheduler, band, { rotateAuto: false, psm, dpi });
    if (meanWordConfidence(top) < SURELY_UPRIGHT) return "unsure";
    const lines = toLines(top, pageScale, image.height);
    return wantsWhole(pageText(lines))
      ? null
      : { reading: { lines, signatures: [], skimmed: true }, reread: "skimmed" };
  };
  let trialDone = sideways;
  const first = await skim();
  if (first !== null && first !== "unsure") return first;
  if (first === "unsure" && prepare.orientation && !trialDone) {
    trialDone = true;
    if (await upsideDown(scheduler, image, dpi)) {
      turnOver();
      const turned = await skim();
      if (turned !== null && turned !== "unsure") return turned;
    }
  }
  let data = await readWhole(image);
  // Only a reading this unsure may be of a page upside down: the trial readings settle it.
  if (prepare.orientation && !trialDone && meanWordConfidence(data) < SURELY_UPRIGHT) {
    if (await upsideDown(scheduler, image, dpi)) {
      turnOver();
      data = await readWhole(image);
    }
  }
  // A page turned upright is laid out in its upright frame: the words read in lines, as a person reads it.
  const lines = toLines(data, pageScale, image.height);
  const asRead = (read: OcrLine[]) => ({ lines: read, signatures: handwriting(image, pageScale, read) });
  if (!reread) return { reading: asRead(lines), reread: "off" };
  if (!reread.wanted(pageText(lines))) {
    reread.stats.pagesNotReread++;
    return { reading: asRead(lines), reread: "skipped" };
  }
  const readLine = async (piece: GreyImage, pieceScale: number) =>
    toLines(
      await read(scheduler, piece, { rotateAuto: false, psm: 7, dpi: pieceScale * 72 }),
      pieceScale,
      piece.height,
    );
  const again = await rereadUnsureLines(lines, image, pageScale, readLine);
  reread.stats.linesReread += again.reread;
  reread.stats.linesReplaced += again.replaced;
  const probes = reread.probe(again.lines, {
    width: image.width / pageScale,
    height: image.height / pageScale,
  });
  if (probes.length === 0) return { reading: asRead(again.lines), reread: "done" };
  const probed = await readProbes(again.lines, probes, upright(), pageScale, readLine);
  reread.stats.boxesProbed += probed.boxes;
  reread.stats.boxesReplaced += probed.replaced;
  return { reading: asRead(probed.lines), reread: "done" };
}

/** Words read at least this sure (0–100) are taken for print when looking for handwriting. */
const PRINTED_WORD_CONFIDENCE = 60;

/** What one page read gives: its lines of words and the handwriting no word explains. */
interface PageReading {
  lines: OcrLine[];
  signatures: OcrSignature[];
  /** Only the page's top band was read. */
  skimmed?: true;
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
 * Upright or upside down: the inkiest band of the page is read both ways (a single block), and the
 * page is taken for upside down only when the turned reading is clearly surer.
 */
/** The height in pixels of a page's top band: ORIENTATION_BAND of it, at least ORIENTATION_BAND_MIN_PX. */
function topBandHeight(image: GreyImage): number {
  return Math.round(
    image.height * Math.min(1, Math.max(ORIENTATION_BAND, ORIENTATION_BAND_MIN_PX / image.height)),
  );
}

async function upsideDown(scheduler: TesseractScheduler, image: GreyImage, dpi: number): Promise<boolean> {
  const band = inkiestBand(image, topBandHeight(image) / image.height);
  const strip = crop(image, 0, band.top, image.width, band.height);
  const trial = async (candidate: GreyImage) =>
    meanWordConfidence(await read(scheduler, candidate, { rotateAuto: false, psm: 6, dpi }));
  const [asIs, turned] = await Promise.all([trial(strip), trial(rotateQuarter(strip, 2))]);
  return turned > asIs + ORIENTATION_MARGIN;
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

async function rasterise(
  request: OcrRequest,
  wanted: ReadonlyArray<number>,
  dpi: number | undefined,
): Promise<PageImage[]> {
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
    for (const page of wanted) {
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
