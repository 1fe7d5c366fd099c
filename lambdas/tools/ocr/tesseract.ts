// Offline OCR: each requested page is rasterised with MuPDF and read by tesseract.js with the
// English model from @tesseract.js-data/eng (installed with the package, never downloaded). Used by
// the local twin and offline runs; deployed workers use Amazon Textract instead.
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import type { Bbox, Line, Page, Scheduler } from "tesseract.js";
import type { OcrEngine, OcrLine, OcrPage, OcrRequest, OcrResult } from "./engine.ts";
import { OcrDocumentError } from "./engine.ts";

/** Tesseract's LSTM model reads best at ~300 dpi; scans are usually 200–300 dpi. */
const RENDER_DPI = 300;
/** Workers are released this long after the last page, so an idle process can exit. */
const IDLE_MS = 2_000;

export interface TesseractOptions {
  /** Pages read at once (one tesseract worker each); default: the machine's cores. */
  workers?: number;
}

export function createTesseractEngine(options: TesseractOptions = {}): OcrEngine {
  const pool = new WorkerPool(Math.max(1, options.workers ?? availableParallelism()));
  return {
    name: "tesseract",
    async recognize(request: OcrRequest): Promise<OcrResult> {
      const images = await rasterise(request);
      const pages = await pool.run(images.length, (scheduler) =>
        Promise.all(
          images.map(async ({ page, png, scale }) => {
            const { data } = await scheduler.addJob(
              "recognize",
              png,
              { rotateAuto: true },
              { blocks: true, text: false },
            );
            return toOcrPage(page, data, scale, request.pageSizes[page - 1]?.height ?? 792);
          }),
        ),
      );
      return { engine: "tesseract", pages };
    },
  };
}

interface PageImage {
  page: number;
  png: Buffer;
  /** Pixels per PDF point. */
  scale: number;
}

async function rasterise(request: OcrRequest): Promise<PageImage[]> {
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
    const scale = RENDER_DPI / 72;
    const images: PageImage[] = [];
    for (const page of request.pages) {
      const loaded = document.loadPage(page - 1);
      try {
        const pixmap = loaded.toPixmap(
          mupdf.Matrix.scale(scale, scale),
          mupdf.ColorSpace.DeviceGray,
          false,
          true,
        );
        try {
          images.push({ page, png: Buffer.from(pixmap.asPNG()), scale });
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

function toOcrPage(page: number, data: Page, scale: number, pageHeight: number): OcrPage {
  const lines: OcrLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = wordsOf(line, scale, pageHeight);
        if (words.length > 0) lines.push({ words });
      }
    }
  }
  return { page, lines };
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

  constructor(private readonly maxWorkers: number) {}

  async run<T>(pages: number, work: (scheduler: Scheduler) => Promise<T>): Promise<T> {
    this.active++;
    clearTimeout(this.idle);
    try {
      const scheduler = await this.grow(Math.min(this.maxWorkers, pages));
      return await work(scheduler);
    } finally {
      this.active--;
      if (this.active === 0) {
        this.idle = setTimeout(() => void this.release(), IDLE_MS);
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
