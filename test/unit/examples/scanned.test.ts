import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  copyFile,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream } from "pdf-lib";
import { getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSampleDocuments, type SampleDocument } from "../../../examples/samples.ts";
import {
  DEFAULT_SCAN,
  DEFAULT_SCAN_CACHE_DIRECTORY,
  generateScannedSampleDocuments,
  ILLEGIBLE_SCAN,
  SCANNED_SAMPLE_KEYS,
  scanCacheKey,
  scanDocument,
  scanDocumentCached,
} from "../../../examples/scanned.ts";
import { evaluationRequestSchema } from "../../../lambdas/core/request.ts";

/** Megabytes of PDF compared element by element would take the matcher minutes; digests do not. */
function digest(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

interface PageFacts {
  text: string;
  items: number;
  width: number;
  height: number;
}

/** What a PDF reader sees: the text items of each page (pdf.js, as the worker reads PDFs) and its size. */
async function pagesOf(bytes: Uint8Array): Promise<PageFacts[]> {
  // pdf.js takes ownership of the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const pages: PageFacts[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const strings = content.items.map((item) => ("str" in item ? item.str : ""));
    const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
    pages.push({ text: strings.join(" "), items: content.items.length, width: x1 - x0, height: y1 - y0 });
  }
  await pdf.destroy();
  return pages;
}

/** The pixel size of each image drawn on each page, read from the PDF's image dictionaries. */
async function imagesOf(
  bytes: Uint8Array,
): Promise<Array<Array<{ width: number; height: number; filter: string }>>> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().map((page) => {
    const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict);
    if (!xobjects) return [];
    return xobjects.keys().flatMap((name) => {
      const stream = xobjects.lookup(name);
      if (!(stream instanceof PDFRawStream)) return [];
      const dict = stream.dict;
      if (dict.get(PDFName.of("Subtype"))?.toString() !== "/Image") return [];
      return [
        {
          width: (dict.lookup(PDFName.of("Width"), PDFNumber) as PDFNumber).asNumber(),
          height: (dict.lookup(PDFName.of("Height"), PDFNumber) as PDFNumber).asNumber(),
          filter: String(dict.get(PDFName.of("Filter"))),
        },
      ];
    });
  });
}

let text: Map<string, SampleDocument>;
let scanned: Map<string, SampleDocument>;

function source(name: string): Uint8Array {
  const document = text.get(`rm-conditions/${name}`);
  if (!document) throw new Error(`no text sample ${name}`);
  return document.bytes;
}

function scan(name: string): SampleDocument {
  const document = scanned.get(`rm-conditions/scanned/${name}`);
  if (!document) throw new Error(`no scanned sample ${name}`);
  return document;
}

beforeAll(async () => {
  const sources = await generateSampleDocuments();
  text = new Map(sources.map((d) => [d.key, d]));
  // Through the shared on-disk cache, as npm start reads them: cold, this generates the whole set.
  scanned = new Map((await generateScannedSampleDocuments({ sources })).map((d) => [d.key, d]));
}, 180_000);

describe("the scanned sample set", () => {
  it("has the scanned copies, the mixed file and the illegible file under rm-conditions/scanned/", () => {
    expect([...scanned.keys()]).toEqual([
      "rm-conditions/scanned/1120-signed.pdf",
      "rm-conditions/scanned/1120-unsigned.pdf",
      "rm-conditions/scanned/statement-2025-01.pdf",
      "rm-conditions/scanned/statement-2025-02.pdf",
      "rm-conditions/scanned/statement-2025-03-nsf.pdf",
      "rm-conditions/scanned/statement-2025-03-large-deposit.pdf",
      "rm-conditions/scanned/statement-2025-02-other-name.pdf",
      "rm-conditions/scanned/1120-signed-mixed.pdf",
      "rm-conditions/scanned/1120-signed-illegible.pdf",
    ]);
    expect([...scanned.keys()]).toEqual(SCANNED_SAMPLE_KEYS);
    for (const document of scanned.values()) {
      expect(document.description.length).toBeGreaterThan(20);
      expect(Buffer.from(document.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    }
  });

  it.each([
    "1120-signed.pdf",
    "1120-unsigned.pdf",
    "statement-2025-01.pdf",
    "statement-2025-02.pdf",
    "statement-2025-03-nsf.pdf",
    "statement-2025-03-large-deposit.pdf",
    "statement-2025-02-other-name.pdf",
  ])(
    "%s: no text layer, one 200 dpi JPEG per page, same page count and sizes as the text sample",
    async (name) => {
      const original = await pagesOf(source(name));
      const copy = await pagesOf(scan(name).bytes);
      expect(original.every((page) => page.items > 0)).toBe(true);
      expect(copy.map((page) => page.items)).toEqual(original.map(() => 0));
      expect(copy.map(({ width, height }) => [width, height])).toEqual(
        original.map(({ width, height }) => [width, height]),
      );
      const images = await imagesOf(scan(name).bytes);
      expect(images).toEqual(
        original.map(({ width, height }) => [
          {
            width: Math.round((width * 200) / 72),
            height: Math.round((height * 200) / 72),
            filter: "/DCTDecode",
          },
        ]),
      );
    },
  );

  it("the scanned 1120 is the real multi-page return, and its statements differ from each other", async () => {
    expect((await pagesOf(scan("1120-signed.pdf").bytes)).length).toBe(3);
    const bytes = new Set([...scanned.values()].map((d) => Buffer.from(d.bytes).toString("base64")));
    expect(bytes.size).toBe(scanned.size);
  });

  it("the mixed file has page 1 scanned (no text) and pages 2-3 with the source's own text", async () => {
    const original = await pagesOf(source("1120-signed.pdf"));
    const mixed = await pagesOf(scan("1120-signed-mixed.pdf").bytes);
    expect(mixed).toHaveLength(3);
    expect(mixed[0]?.items).toBe(0);
    expect(original[0]?.text).toContain("Acme Widgets, Inc.");
    expect(mixed.slice(1)).toEqual(original.slice(1));
    expect(mixed[1]?.text).toContain("Schedule J");
    expect(mixed[2]?.text).toContain("Balance Sheets per Books");
    const images = await imagesOf(scan("1120-signed-mixed.pdf").bytes);
    expect(images.map((page) => page.length)).toEqual([1, 0, 0]);
  });

  it("the illegible file is scanned at the degraded preset's low resolution, every page image-only", async () => {
    const original = await pagesOf(source("1120-signed.pdf"));
    const illegible = await pagesOf(scan("1120-signed-illegible.pdf").bytes);
    expect(illegible.map((page) => page.items)).toEqual([0, 0, 0]);
    expect(illegible.map(({ width, height }) => [width, height])).toEqual(
      original.map(({ width, height }) => [width, height]),
    );
    const dpi = ILLEGIBLE_SCAN.dpi as number;
    expect(dpi).toBeLessThan(DEFAULT_SCAN.dpi);
    const images = await imagesOf(scan("1120-signed-illegible.pdf").bytes);
    expect(images.flat().map(({ width, height }) => [width, height])).toEqual(
      original.map(({ width, height }) => [Math.round((width * dpi) / 72), Math.round((height * dpi) / 72)]),
    );
    // Heavy noise does not compress: the degraded scan is not just a smaller copy of the clean one.
    expect(digest(scan("1120-signed-illegible.pdf").bytes)).not.toBe(digest(scan("1120-signed.pdf").bytes));
  });
});

describe("examples/sample-scanned-return.json", () => {
  it("is the sample tax return request over the scanned copy of the signed 1120", () => {
    const read = (name: string) =>
      JSON.parse(readFileSync(new URL(`../../../examples/${name}`, import.meta.url), "utf8")) as Record<
        string,
        unknown
      >;
    const scannedRequest = read("sample-scanned-return.json");
    const textRequest = read("sample-tax-return.json");
    expect(evaluationRequestSchema().safeParse(scannedRequest).success).toBe(true);
    expect(scannedRequest.s3_pdf_paths).toEqual(["rm-conditions/scanned/1120-signed.pdf"]);
    expect(SCANNED_SAMPLE_KEYS).toContain("rm-conditions/scanned/1120-signed.pdf");
    expect({ ...scannedRequest, s3_pdf_paths: textRequest.s3_pdf_paths }).toEqual(textRequest);
  });
});

describe("scanDocument", () => {
  it("is deterministic: the same source and options give the same bytes; another seed changes them", async () => {
    const statement = source("statement-2025-03-nsf.pdf");
    const first = await scanDocument(statement);
    const second = await scanDocument(statement);
    expect(Buffer.compare(Buffer.from(first), Buffer.from(second))).toBe(0);
    const reseeded = await scanDocument(statement, { seed: 2 });
    expect(Buffer.compare(Buffer.from(first), Buffer.from(reseeded))).not.toBe(0);
    // The cached sample was produced by the same code with the same defaults.
    expect(Buffer.compare(Buffer.from(first), Buffer.from(scan("statement-2025-03-nsf.pdf").bytes))).toBe(0);
  });

  it("scans only the pages asked for, keeping the others' text", async () => {
    const original = await pagesOf(source("1120-signed.pdf"));
    const middle = await pagesOf(await scanDocument(source("1120-signed.pdf"), { pages: [2], dpi: 72 }));
    expect(middle.map((page) => page.items)).toEqual([original[0]?.items, 0, original[2]?.items]);
    expect(middle[0]?.text).toBe(original[0]?.text);
    expect(middle[2]?.text).toBe(original[2]?.text);
  });

  it("refuses pages the document does not have and out-of-range options", async () => {
    const statement = source("statement-2025-03-nsf.pdf");
    await expect(scanDocument(statement, { pages: [2] })).rejects.toThrow(
      /page 2 is not in a document of 1 pages/,
    );
    await expect(scanDocument(statement, { pages: [0] })).rejects.toThrow(/page 0/);
    await expect(scanDocument(statement, { dpi: 5 })).rejects.toThrow(/dpi/);
    await expect(scanDocument(statement, { jpegQuality: 0 })).rejects.toThrow(/jpegQuality/);
  });
});

describe("scanDocumentCached", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "rewoo-scan-cache-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  // Low resolution keeps these tests quick; the cache logic does not depend on it.
  const options = { dpi: 72 };

  it("keys entries by source, options and generator version", () => {
    const statement = source("statement-2025-03-nsf.pdf");
    expect(scanCacheKey(statement, options)).toBe(scanCacheKey(statement, { ...options }));
    expect(scanCacheKey(statement, options)).toBe(
      scanCacheKey(statement, { ...options, noise: DEFAULT_SCAN.noise }),
    );
    expect(scanCacheKey(statement, options)).not.toBe(scanCacheKey(statement, { dpi: 73 }));
    expect(scanCacheKey(statement, options)).not.toBe(scanCacheKey(source("statement-2025-02.pdf"), options));
  });

  it("writes an entry, serves it back, and regenerates a corrupted or foreign one", async () => {
    const statement = source("statement-2025-03-nsf.pdf");
    const path = join(directory, `${scanCacheKey(statement, options)}.pdf`);
    const generated = await scanDocumentCached(statement, options, { cacheDirectory: directory });
    expect(Buffer.compare(await readFile(path), Buffer.from(generated))).toBe(0);
    expect(Buffer.compare(Buffer.from(generated), Buffer.from(await scanDocument(statement, options)))).toBe(
      0,
    );

    // A valid entry is served as it is on disk, not regenerated: replace it with a different scan.
    const other = await scanDocument(statement, { ...options, seed: 99 });
    await writeFile(path, other);
    const served = await scanDocumentCached(statement, options, { cacheDirectory: directory });
    expect(Buffer.compare(Buffer.from(served), Buffer.from(other))).toBe(0);

    // Truncated (a crash mid-write by some other tool): regenerated and repaired on disk.
    await writeFile(path, Buffer.from(generated).subarray(0, Math.floor(generated.length / 2)));
    const repaired = await scanDocumentCached(statement, options, { cacheDirectory: directory });
    expect(Buffer.compare(Buffer.from(repaired), Buffer.from(generated))).toBe(0);
    expect(Buffer.compare(await readFile(path), Buffer.from(generated))).toBe(0);

    // Not a PDF at all.
    await writeFile(path, "garbage");
    const again = await scanDocumentCached(statement, options, { cacheDirectory: directory });
    expect(Buffer.compare(Buffer.from(again), Buffer.from(generated))).toBe(0);

    // A PDF that parses but is not this document's scan (wrong page count).
    await writeFile(path, await scanDocument(source("1120-signed.pdf"), { dpi: 36 }));
    const fixed = await scanDocumentCached(statement, options, { cacheDirectory: directory });
    expect(Buffer.compare(Buffer.from(fixed), Buffer.from(generated))).toBe(0);
  });

  it("waits for the entry another process is generating instead of generating it again", async () => {
    const statement = source("statement-2025-02.pdf");
    const path = join(directory, `${scanCacheKey(statement, options)}.pdf`);
    // The other process: holds the lock and will deliver a scan of its own (another seed, so that
    // what the waiter returns can only have come from it).
    const lock = await open(`${path}.lock`, "wx");
    await lock.close();
    const theirs = await scanDocument(statement, { ...options, seed: 7 });
    const waiting = scanDocumentCached(statement, options, { cacheDirectory: directory });
    await writeFile(`${path}.tmp-other`, theirs);
    await rename(`${path}.tmp-other`, path);
    await rm(`${path}.lock`);
    expect(Buffer.compare(Buffer.from(await waiting), Buffer.from(theirs))).toBe(0);
  });

  it("takes over a stale lock left by a generator that died", async () => {
    const statement = source("statement-2025-01.pdf");
    const path = join(directory, `${scanCacheKey(statement, options)}.pdf`);
    await writeFile(`${path}.lock`, "12345");
    const longAgo = new Date(Date.now() - 3_600_000);
    await utimes(`${path}.lock`, longAgo, longAgo);
    const bytes = await scanDocumentCached(statement, options, { cacheDirectory: directory });
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(await scanDocument(statement, options)))).toBe(0);
    expect((await stat(path)).size).toBe(bytes.length);
    await expect(stat(`${path}.lock`)).rejects.toThrow(/ENOENT/);
  });

  it("the sample set reads what is cached and generates only what is missing, saying so once", async () => {
    const own = await mkdtemp(join(tmpdir(), "rewoo-scan-set-"));
    try {
      for (const name of await readdir(DEFAULT_SCAN_CACHE_DIRECTORY)) {
        if (name.endsWith(".pdf")) await copyFile(join(DEFAULT_SCAN_CACHE_DIRECTORY, name), join(own, name));
      }
      const sources = [...text.values()];
      let announced = 0;
      const warm = await generateScannedSampleDocuments({
        sources,
        cacheDirectory: own,
        onGenerate: () => announced++,
      });
      expect(announced).toBe(0);
      expect(warm.map((d) => digest(d.bytes))).toEqual([...scanned.values()].map((d) => digest(d.bytes)));

      await rm(join(own, `${scanCacheKey(source("1120-signed.pdf"), { pages: [1] })}.pdf`));
      const partial = await generateScannedSampleDocuments({
        sources,
        cacheDirectory: own,
        onGenerate: () => announced++,
      });
      expect(announced).toBe(1);
      expect(partial.map((d) => digest(d.bytes))).toEqual(warm.map((d) => digest(d.bytes)));
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  it("generates each entry once for concurrent callers in one process", async () => {
    const statement = source("statement-2025-03-large-deposit.pdf");
    const [a, b] = await Promise.all([
      scanDocumentCached(statement, options, { cacheDirectory: directory }),
      scanDocumentCached(statement, options, { cacheDirectory: directory }),
    ]);
    expect(a).toBe(b);
  });
});
