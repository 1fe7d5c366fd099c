// Scanned copies of the sample loan files: image-only PDFs, as borrowers upload them from a
// flatbed scanner or a phone. Each page of a text sample is rasterised (mupdf), put through a
// simulated scanner (slight skew, optical blur, sensor noise, JPEG compression) and wrapped back
// into a page of the same size, so the only way to read it is OCR. The noise comes from a seeded
// generator and the metadata is fixed, so the same source and options give the same bytes.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import * as mupdf from "mupdf";
import { PDFDocument } from "pdf-lib";
import { seededRandom } from "../lambdas/core/seeded-random.ts";
import { generateSampleDocuments, type SampleDocument, save } from "./samples.ts";

export interface ScanOptions {
  /** Scanner resolution. The page size in points is kept; only the image detail changes. */
  dpi?: number;
  /** Skew of the sheet on the glass, clockwise, about the page centre. */
  rotationDegrees?: number;
  /** Optical blur, as a CSS blur radius in scanned pixels (at `dpi`). */
  blurPx?: number;
  /** Sensor noise: each pixel moves by a uniform amount in [-noise, +noise] grey levels (0-255). */
  noise?: number;
  /** Seeds the noise; each page draws from its own stream derived from the seed and its number. */
  seed?: number;
  /** JPEG quality, 0-100. */
  jpegQuality?: number;
  /** Greyscale (what scanners default to for documents) or colour rasterisation. */
  color?: "gray" | "rgb";
  /**
   * 1-based numbers of the pages to scan, as citations count pages; the other pages are copied
   * unchanged with their text layer (a file assembled from a scan and a digital original).
   * Omitted: every page.
   */
  pages?: number[];
}

type ResolvedScanOptions = Required<Omit<ScanOptions, "pages">> & { pages: number[] | null };

/**
 * Readable by OCR with good confidence: close to a prototype that tesseract read at 89-90% mean
 * word confidence (200 dpi, 1.2°, 0.8 px blur, ±10 grey levels); at ±20 it read garbage.
 */
export const DEFAULT_SCAN: Readonly<Required<Omit<ScanOptions, "pages">>> = Object.freeze({
  dpi: 200,
  rotationDegrees: 0.8,
  blurPx: 0.7,
  noise: 8,
  seed: 1,
  jpegQuality: 85,
  color: "gray",
});

/**
 * A copy nobody can read with confidence (a phone photo of a fax): 72 dpi, blur, noise and strong
 * compression. OCR still makes out the large title but reads the fields at about 55% confidence.
 * Tests of the "too degraded to read" path rely on it staying that way. (Heavier noise makes
 * tesseract chase specks for minutes a page without reading any less.)
 */
export const ILLEGIBLE_SCAN: Readonly<ScanOptions> = Object.freeze({
  dpi: 72,
  rotationDegrees: 2.4,
  blurPx: 1.4,
  noise: 12,
  jpegQuality: 25,
});

/**
 * Part of every cache key: bump it whenever a change here alters the bytes produced for the same
 * source and options, so that stale cached scans are not served.
 */
export const SCAN_GENERATOR_VERSION = 1;

const FIXED_DATE = new Date("2025-04-01T12:00:00.000Z");

function resolveOptions(options: ScanOptions): ResolvedScanOptions {
  const resolved = { ...DEFAULT_SCAN, ...withoutUndefined(options), pages: options.pages ?? null };
  if (!(resolved.dpi >= 36 && resolved.dpi <= 600))
    throw new RangeError(`dpi must be 36-600, got ${resolved.dpi}`);
  if (!(resolved.jpegQuality >= 1 && resolved.jpegQuality <= 100)) {
    throw new RangeError(`jpegQuality must be 1-100, got ${resolved.jpegQuality}`);
  }
  if (!(resolved.noise >= 0 && resolved.noise <= 255))
    throw new RangeError(`noise must be 0-255, got ${resolved.noise}`);
  if (!(resolved.blurPx >= 0)) throw new RangeError(`blurPx must be >= 0, got ${resolved.blurPx}`);
  if (!Number.isInteger(resolved.seed)) throw new RangeError(`seed must be an integer, got ${resolved.seed}`);
  if (resolved.pages) resolved.pages = [...new Set(resolved.pages)].sort((a, b) => a - b);
  return resolved;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

async function scanPage(
  page: mupdf.Page,
  pageNumber: number,
  options: ResolvedScanOptions,
): Promise<Uint8Array> {
  const scale = options.dpi / 72;
  const colorspace = options.color === "rgb" ? mupdf.ColorSpace.DeviceRGB : mupdf.ColorSpace.DeviceGray;
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), colorspace, false, true);
  let png: Uint8Array;
  try {
    png = pixmap.asPNG();
  } finally {
    pixmap.destroy();
  }
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext("2d");
  // What the skew uncovers is the scanner lid: white.
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.rotate((options.rotationDegrees * Math.PI) / 180);
  ctx.translate(-canvas.width / 2, -canvas.height / 2);
  if (options.blurPx > 0) ctx.filter = `blur(${options.blurPx}px)`;
  ctx.drawImage(image, 0, 0);
  ctx.filter = "none";
  ctx.setTransform(1, 0, 0, 1, 0, 0);

  if (options.noise > 0) {
    await yieldToEventLoop();
    const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const data = pixels.data;
    // The page number is mixed in so that a page scanned alone (a mixed file) gets the same noise
    // as in a full scan with the same seed, and two pages never share a pattern.
    const random = seededRandom(Math.imul(options.seed, 0x9e3779b1) ^ Math.imul(pageNumber, 0x85ebca6b));
    const span = 2 * options.noise + 1;
    const gray = options.color !== "rgb";
    for (let i = 0; i < data.length; i += 4) {
      // A Uint8ClampedArray clamps to 0-255 on write.
      if (gray) {
        // A grey page drawn on white keeps red, green and blue equal: one draw moves all three.
        const value = (data[i] ?? 0) + Math.floor(random() * span) - options.noise;
        data[i] = value;
        data[i + 1] = value;
        data[i + 2] = value;
      } else {
        for (let k = i; k < i + 3; k++)
          data[k] = (data[k] ?? 0) + Math.floor(random() * span) - options.noise;
      }
    }
    ctx.putImageData(pixels, 0, 0);
  }
  // encode() runs the JPEG encoder off the main thread (toBuffer's output, without blocking).
  return canvas.encode("jpeg", options.jpegQuality);
}

/**
 * An image-only copy of `pdfBytes` as a scanner would produce it: every page (or only
 * `options.pages`) becomes one JPEG filling a page of the original size, with no text layer. The
 * same input and options give the same bytes. It takes about a second per page at 200 dpi and
 * yields to the event loop between pages.
 */
export async function scanDocument(pdfBytes: Uint8Array, options: ScanOptions = {}): Promise<Uint8Array> {
  const resolved = resolveOptions(options);
  const source = await PDFDocument.load(pdfBytes, { updateMetadata: false });
  const pageCount = source.getPageCount();
  const scanned = new Set(resolved.pages ?? Array.from({ length: pageCount }, (_, i) => i + 1));
  for (const number of scanned) {
    if (!Number.isInteger(number) || number < 1 || number > pageCount) {
      throw new RangeError(`page ${number} is not in a document of ${pageCount} pages`);
    }
  }

  const out = await PDFDocument.create({ updateMetadata: false });
  // pdf-lib stamps the current time by default; fixed metadata keeps the bytes reproducible.
  out.setTitle(source.getTitle() ?? "Scanned document");
  out.setCreator("rewoo-loan-agent scan simulator");
  out.setProducer("pdf-lib");
  out.setCreationDate(FIXED_DATE);
  out.setModificationDate(FIXED_DATE);

  const raster = mupdf.Document.openDocument(pdfBytes, "application/pdf");
  try {
    for (let index = 0; index < pageCount; index++) {
      const number = index + 1;
      if (!scanned.has(number)) {
        const [copy] = await out.copyPages(source, [index]);
        out.addPage(copy);
        continue;
      }
      const page = raster.loadPage(index);
      let jpeg: Uint8Array;
      let width: number;
      let height: number;
      try {
        // The rendered bounds already account for /Rotate and the crop box, so the scan looks
        // like the page as displayed and is laid out unrotated, as a scanner would deliver it.
        const [x0, y0, x1, y1] = page.getBounds();
        width = x1 - x0;
        height = y1 - y0;
        jpeg = await scanPage(page, number, resolved);
      } finally {
        page.destroy();
      }
      const image = await out.embedJpg(jpeg);
      out.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
      await yieldToEventLoop();
    }
  } finally {
    raster.destroy();
  }
  return save(out);
}

// ---------------------------------------------------------------- the on-disk cache

/** node_modules/.cache is where tools keep per-machine caches; a fresh install starts empty. */
export const DEFAULT_SCAN_CACHE_DIRECTORY = fileURLToPath(
  new URL("../node_modules/.cache/rewoo-scanned-samples/", import.meta.url),
);

/** A generator that died mid-page leaves its lock behind; past this age another takes over. */
const LOCK_STALE_MS = 120_000;
const LOCK_POLL_MS = 200;

export interface ScanCacheOptions {
  /** Defaults to DEFAULT_SCAN_CACHE_DIRECTORY. */
  cacheDirectory?: string;
}

export function scanCacheKey(pdfBytes: Uint8Array, options: ScanOptions = {}): string {
  const resolved = resolveOptions(options);
  const canonical = JSON.stringify(
    Object.fromEntries(Object.entries(resolved).sort(([a], [b]) => a.localeCompare(b))),
  );
  return createHash("sha256")
    .update(`rewoo-scan v${SCAN_GENERATOR_VERSION}\n${canonical}\n`)
    .update(pdfBytes)
    .digest("hex");
}

/** A usable entry: a whole PDF (header and end marker) that parses, with the source's page count. */
async function validEntry(bytes: Uint8Array, pageCount: number): Promise<boolean> {
  if (bytes.length < 64) return false;
  if (Buffer.from(bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") return false;
  if (!Buffer.from(bytes.subarray(-64)).toString("latin1").includes("%%EOF")) return false;
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    return pdf.getPageCount() === pageCount;
  } catch {
    return false;
  }
}

async function readEntry(path: string, pageCount: number): Promise<Uint8Array | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch {
    return undefined;
  }
  return (await validEntry(bytes, pageCount)) ? bytes : undefined;
}

/**
 * Takes the entry's lock, or reports that a live generator holds it. Creating the lock file
 * exclusively is atomic, so two processes never both believe they hold it.
 */
async function tryLock(lockPath: string): Promise<boolean> {
  try {
    const handle = await open(lockPath, "wx");
    await handle.writeFile(String(process.pid));
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  try {
    const { mtimeMs } = await stat(lockPath);
    if (Date.now() - mtimeMs < LOCK_STALE_MS) return false;
    // Two waiters may both judge the same lock stale and one may then remove the other's fresh
    // lock: the entry is generated twice, with identical bytes, which the rename tolerates.
    await unlink(lockPath);
  } catch {
    // Released (or taken over) in the meantime: try again on the next round.
  }
  return false;
}

const inFlight = new Map<string, Promise<Uint8Array>>();

/**
 * scanDocument through the on-disk cache, keyed by the source bytes, the options and
 * SCAN_GENERATOR_VERSION. A missing, truncated or corrupt entry is generated (again). Concurrent
 * callers, in this process or in others, generate each entry once: one holds a lock file while the
 * others wait for its result, and entries are written to a temporary file then renamed into place,
 * so a reader never sees half a file. When the cache cannot be written (a read-only install) the
 * scan is still returned.
 */
export function scanDocumentCached(
  pdfBytes: Uint8Array,
  options: ScanOptions = {},
  cache: ScanCacheOptions = {},
): Promise<Uint8Array> {
  const directory = cache.cacheDirectory ?? DEFAULT_SCAN_CACHE_DIRECTORY;
  const path = join(directory, `${scanCacheKey(pdfBytes, options)}.pdf`);
  const pending = inFlight.get(path);
  if (pending) return pending;
  const result = obtain(pdfBytes, options, directory, path, { wait: true }).then(
    (bytes) => bytes as Uint8Array,
  );
  inFlight.set(path, result);
  const forget = () => inFlight.delete(path);
  result.then(forget, forget);
  return result;
}

async function obtain(
  pdfBytes: Uint8Array,
  options: ScanOptions,
  directory: string,
  path: string,
  { wait, onGenerate }: { wait: boolean; onGenerate?: () => void },
): Promise<Uint8Array | undefined> {
  const pageCount = (await PDFDocument.load(pdfBytes, { updateMetadata: false })).getPageCount();
  const lockPath = `${path}.lock`;
  let writable = true;
  try {
    await mkdir(directory, { recursive: true });
  } catch {
    writable = false;
  }
  for (;;) {
    const cached = await readEntry(path, pageCount);
    if (cached) return cached;
    let locked = false;
    if (writable) {
      try {
        locked = await tryLock(lockPath);
      } catch {
        writable = false;
      }
    }
    if (!writable) {
      onGenerate?.();
      return scanDocument(pdfBytes, options);
    }
    if (locked) {
      try {
        // Another generator may have finished between our read and our lock.
        const finished = await readEntry(path, pageCount);
        if (finished) return finished;
        onGenerate?.();
        const bytes = await scanDocument(pdfBytes, options);
        const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
        try {
          await writeFile(temporary, bytes);
          await rename(temporary, path);
        } catch {
          await unlink(temporary).catch(() => undefined);
        }
        return bytes;
      } finally {
        await unlink(lockPath).catch(() => undefined);
      }
    }
    if (!wait) return undefined;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

// ---------------------------------------------------------------- the scanned sample set

export const SCANNED_SAMPLE_PREFIX = "rm-conditions/scanned/";

interface ScannedSampleSpec {
  key: string;
  source: string;
  options: ScanOptions;
  description: string;
}

/** Scanned copies of these text samples, under the same file names. */
const SCANNED_COPIES: Array<[string, string]> = [
  [
    "1120-signed.pdf",
    "a scan of the signed Form 1120 (Acme Widgets, Inc., EIN 12-3456789, signed by Robert J. Tanner), 3 pages",
  ],
  ["1120-unsigned.pdf", "a scan of the Form 1120 with the officer's signature and date left blank"],
  ["statement-2025-01.pdf", "a scan of the January 2025 First Prairie Bank statement, Jane Q. Doe, ****4821"],
  ["statement-2025-02.pdf", "a scan of the February 2025 statement (payroll and a tax-refund deposit)"],
  ["statement-2025-03-nsf.pdf", "a scan of the March 2025 ledger-layout statement with an NSF fee on 03/17"],
  [
    "statement-2025-03-large-deposit.pdf",
    "a scan of the March 2025 statement with a $12,500.00 wire deposit on 03/12",
  ],
  [
    "statement-2025-02-other-name.pdf",
    "a scan of the February 2025 statement held by John R. Smith (name mismatch)",
  ],
];

const SCANNED_SPECS: ScannedSampleSpec[] = [
  ...SCANNED_COPIES.map(([name, description]) => ({
    key: `${SCANNED_SAMPLE_PREFIX}${name}`,
    source: `rm-conditions/${name}`,
    options: {},
    description: `${description[0]?.toUpperCase()}${description.slice(1)}; image only, 200 dpi greyscale, skewed 0.8°, light blur and noise`,
  })),
  {
    key: `${SCANNED_SAMPLE_PREFIX}1120-signed-mixed.pdf`,
    source: "rm-conditions/1120-signed.pdf",
    options: { pages: [1] },
    description:
      "The signed Form 1120 with page 1 (name, EIN, signature block) scanned and pages 2-3 kept as text: OCR is needed for the fields",
  },
  {
    key: `${SCANNED_SAMPLE_PREFIX}1120-signed-illegible.pdf`,
    source: "rm-conditions/1120-signed.pdf",
    options: ILLEGIBLE_SCAN,
    description:
      "The signed Form 1120 scanned far too degraded to read with confidence (72 dpi, blur, noise and JPEG artefacts)",
  },
];

/** The keys generateScannedSampleDocuments returns, in order. */
export const SCANNED_SAMPLE_KEYS: readonly string[] = SCANNED_SPECS.map((spec) => spec.key);

export interface ScannedSampleOptions extends ScanCacheOptions {
  /** The text samples to scan, when the caller has them already (generateSampleDocuments()). */
  sources?: SampleDocument[];
  /** Called once, before the first page this call has to generate (the cache was cold). */
  onGenerate?: () => void;
}

/**
 * The scanned sample set, under rm-conditions/scanned/: image-only copies of the 1120s and the
 * statements, a mixed file and an illegible one. Cold, it takes about a second per page; the
 * results are cached on disk (scanDocumentCached), so later calls only read them back. Entries
 * another process is generating are left to it and collected at the end.
 */
export async function generateScannedSampleDocuments(
  options: ScannedSampleOptions = {},
): Promise<SampleDocument[]> {
  const sources = new Map(
    (options.sources ?? (await generateSampleDocuments())).map((d) => [d.key, d.bytes]),
  );
  const directory = options.cacheDirectory ?? DEFAULT_SCAN_CACHE_DIRECTORY;
  const entries = SCANNED_SPECS.map((spec) => {
    const source = sources.get(spec.source);
    if (!source) throw new Error(`no sample ${spec.source} to scan`);
    return { spec, source, path: join(directory, `${scanCacheKey(source, spec.options)}.pdf`) };
  });
  const results = new Map<string, Uint8Array>();
  let announced = false;
  const onGenerate = () => {
    if (!announced) options.onGenerate?.();
    announced = true;
  };
  // First pass: generate what nobody else is generating. Several processes booting at once (tests,
  // a few `rewoo` commands) thus share the work instead of each doing all of it.
  for (const { spec, source, path } of entries) {
    const bytes = await obtain(source, spec.options, directory, path, { wait: false, onGenerate });
    if (bytes) results.set(spec.key, bytes);
  }
  for (const { spec, source, path } of entries) {
    if (!results.has(spec.key)) {
      const bytes = await obtain(source, spec.options, directory, path, { wait: true, onGenerate });
      if (bytes) results.set(spec.key, bytes);
    }
  }
  return entries.map(({ spec }) => ({
    key: spec.key,
    bytes: results.get(spec.key) as Uint8Array,
    description: spec.description,
  }));
}
