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
import { REPO_ROOT_URL } from "../infra/local/repo-root.ts";
import { seededRandom } from "../lambdas/core/seeded-random.ts";
import {
  type GreyImage,
  homography,
  type QuarterTurns,
  rotateQuarter,
  warpPerspective,
} from "../lambdas/tools/ocr/prepare.ts";
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
  /** Salt-and-pepper speckle: this fraction of the pixels (0-0.2) turns black or white. */
  speckle?: number;
  /** A fax: thresholded to black and white (stored losslessly, not as JPEG). */
  bitonal?: boolean;
  /** Fax transmission jitter: this many bands of scan lines shifted sideways by 1-3 pixels. */
  lineJitter?: number;
  /**
   * A phone photo: the page's corners pulled inwards by up to this fraction of its size (0-0.15),
   * as a camera held at an angle sees it, on a dark table.
   */
  perspective?: number;
  /** Uneven light: the far corner this much darker (0-0.8), with a soft shadow across the page. */
  lighting?: number;
  /** The sheet turned on the glass by this many quarter turns clockwise (0-3). */
  quarterTurns?: number;
}

/** The damage added by the harsh profiles; absent from the cache key when unset. */
const HARSH_KEYS = ["speckle", "bitonal", "lineJitter", "perspective", "lighting", "quarterTurns"] as const;

type ResolvedScanOptions = Required<Omit<ScanOptions, "pages" | (typeof HARSH_KEYS)[number]>> &
  Pick<ScanOptions, (typeof HARSH_KEYS)[number]> & { pages: number[] | null };

/**
 * Readable by OCR with good confidence: close to a prototype that tesseract read at 89-90% mean
 * word confidence (200 dpi, 1.2°, 0.8 px blur, ±10 grey levels); at ±20 it read garbage.
 */
export const DEFAULT_SCAN: Readonly<Required<Omit<ScanOptions, "pages" | (typeof HARSH_KEYS)[number]>>> =
  Object.freeze({
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
 * The damage loan officers really receive, for the benchmark's per-degradation measure
 * (bench/ocr.ts --profile). Each is deterministic (seed 1 unless overridden).
 */
export const SCAN_PROFILES: Readonly<Record<string, Readonly<ScanOptions>>> = Object.freeze({
  /** The project's own scans: 200 dpi, mild damage (DEFAULT_SCAN). */
  mild: {},
  /** A cheap office scan: 150 dpi grey, 1.6° skew, blur, speckle, JPEG quality 60. */
  harsh: { dpi: 150, rotationDegrees: 1.6, blurPx: 0.9, noise: 8, speckle: 0.004, jpegQuality: 60 },
  /** A fax: 100 dpi, thresholded to black and white, a few bands of line jitter. */
  fax: { dpi: 100, rotationDegrees: 0.7, blurPx: 0.4, noise: 6, bitonal: true, lineJitter: 6 },
  /** A phone photo: perspective, a lighting gradient and a shadow, turned 2.5°, soft. */
  phone: {
    dpi: 150,
    rotationDegrees: -2.5,
    blurPx: 1,
    noise: 6,
    perspective: 0.05,
    lighting: 0.45,
    jpegQuality: 75,
  },
  /** The sheet put on the glass sideways (a quarter turn clockwise). */
  "turned-90": { quarterTurns: 1 },
  /** The sheet put on the glass upside down. */
  "turned-180": { quarterTurns: 2 },
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
  const within = (name: (typeof HARSH_KEYS)[number], low: number, high: number) => {
    const value = resolved[name];
    if (value !== undefined && !(typeof value === "number" && value >= low && value <= high))
      throw new RangeError(`${name} must be ${low}-${high}, got ${String(value)}`);
  };
  within("speckle", 0, 0.2);
  within("lineJitter", 0, 50);
  within("perspective", 0, 0.15);
  within("lighting", 0, 0.8);
  within("quarterTurns", 0, 3);
  if (resolved.quarterTurns !== undefined && !Number.isInteger(resolved.quarterTurns))
    throw new RangeError(`quarterTurns must be an integer 0-3, got ${resolved.quarterTurns}`);
  if (HARSH_KEYS.some((key) => resolved[key] !== undefined) && resolved.color !== "gray")
    throw new RangeError(
      "speckle, bitonal, lineJitter, perspective, lighting and quarterTurns need color gray",
    );
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
  if (HARSH_KEYS.some((key) => options[key] !== undefined && options[key] !== 0 && options[key] !== false)) {
    await yieldToEventLoop();
    return harshDamage(ctx.getImageData(0, 0, canvas.width, canvas.height), pageNumber, options);
  }
  // encode() runs the JPEG encoder off the main thread (toBuffer's output, without blocking).
  return canvas.encode("jpeg", options.jpegQuality);
}

/**
 * The harsh profiles' damage on a grey page (the red channel of the canvas): perspective and
 * lighting (a phone photo), speckle, thresholding and line jitter (a fax), then the turn on the
 * glass. Its own random stream, so adding it leaves the milder scans' bytes as they were.
 */
async function harshDamage(
  pixels: { width: number; height: number; data: Uint8ClampedArray },
  pageNumber: number,
  options: ResolvedScanOptions,
): Promise<Uint8Array> {
  const random = seededRandom(Math.imul(options.seed, 0x27d4eb2f) ^ Math.imul(pageNumber, 0x165667b1));
  const grey = new Uint8Array(pixels.width * pixels.height);
  for (let i = 0; i < grey.length; i++) grey[i] = pixels.data[i * 4] as number;
  let image: GreyImage = { width: pixels.width, height: pixels.height, data: grey };
  const { width, height } = image;
  const budget = options.perspective ?? 0;
  if (budget > 0) {
    // Each corner of the page moves inwards by its own share of the budget; the far edge most.
    const inset = (share: number) => budget * (0.5 + 0.5 * random()) * share;
    const corners: Array<[number, number]> = [
      [width * inset(1.2), height * inset(0.5)],
      [width * (1 - inset(1.2)), height * inset(0.3)],
      [width * (1 - inset(0.4)), height * (1 - inset(0.4))],
      [width * inset(0.5), height * (1 - inset(0.2))],
    ];
    const page: Array<[number, number]> = [
      [0, 0],
      [width, 0],
      [width, height],
      [0, height],
    ];
    // The table around the sheet is dark grey.
    image = warpPerspective(image, homography(corners, page), width, height, 70);
  }
  if (options.lighting) {
    const shadowX = width * (0.55 + 0.3 * random());
    const shadowSlope = 0.3 + 0.4 * random();
    const data = image.data;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        // A gradient towards the bottom right, and the soft edge of the phone's shadow.
        const gradient = 1 - options.lighting * (0.6 * (x / width) + 0.4 * (y / height));
        const edge = shadowX + shadowSlope * (y - height / 2);
        const shadow = 1 - (0.35 * options.lighting) / (1 + Math.exp(-(x - edge) / (width * 0.02)));
        data[y * width + x] = Math.max(0, Math.min(255, (data[y * width + x] as number) * gradient * shadow));
      }
    }
  }
  if (options.speckle) {
    const data = image.data;
    for (let i = 0; i < data.length; i++) {
      if (random() < options.speckle) data[i] = random() < 0.5 ? 0 : 255;
    }
  }
  if (options.bitonal) {
    const data = image.data;
    for (let i = 0; i < data.length; i++) data[i] = (data[i] as number) < 150 ? 0 : 255;
  }
  if (options.lineJitter) {
    const data = image.data;
    for (let band = 0; band < options.lineJitter; band++) {
      const top = Math.floor(random() * (height - 4));
      const rows = 1 + Math.floor(random() * 3);
      const shift = (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 3));
      for (let y = top; y < Math.min(height, top + rows); y++) {
        const row = data.slice(y * width, (y + 1) * width);
        for (let x = 0; x < width; x++)
          data[y * width + x] = row[Math.min(width - 1, Math.max(0, x - shift))] as number;
      }
    }
  }
  if (options.quarterTurns) image = rotateQuarter(image, options.quarterTurns as QuarterTurns);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext("2d");
  const out = ctx.createImageData(image.width, image.height);
  for (let i = 0; i < image.data.length; i++) {
    const value = image.data[i] as number;
    out.data[i * 4] = value;
    out.data[i * 4 + 1] = value;
    out.data[i * 4 + 2] = value;
    out.data[i * 4 + 3] = 255;
  }
  ctx.putImageData(out, 0, 0);
  // A fax is black and white: JPEG would smear it with grey ringing.
  return options.bitonal ? canvas.encode("png") : canvas.encode("jpeg", options.jpegQuality);
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
      // A sheet turned a quarter on the glass comes out landscape.
      if ((resolved.quarterTurns ?? 0) % 2 === 1) [width, height] = [height, width];
      const image = resolved.bitonal ? await out.embedPng(jpeg) : await out.embedJpg(jpeg);
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
  new URL("node_modules/.cache/rewoo-scanned-samples/", REPO_ROOT_URL),
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
