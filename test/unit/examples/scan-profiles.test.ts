// The harsh scan profiles: deterministic, image-only, and damaged the way their names say (a fax is
// black and white, a sheet turned a quarter comes out landscape, a phone photo has a dark table
// round a darker-cornered page), and their settings are validated with the field named.
import { readFile } from "node:fs/promises";
import * as mupdf from "mupdf";
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { SCAN_PROFILES, scanCacheKey, scanDocument } from "../../../examples/scanned.ts";
import { extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";

let statement: Uint8Array;

beforeAll(async () => {
  statement = new Uint8Array(
    await readFile(
      new URL(
        "../../fixtures/held-out-documents/documents/stmt-granite-valley-fcu-2026-04.pdf",
        import.meta.url,
      ),
    ),
  );
});

/** Page 1 of a PDF rendered grey at 50 dpi: width, height and the pixels. */
function greyPage(bytes: Uint8Array) {
  const document = mupdf.Document.openDocument(bytes, "application/pdf");
  const pixmap = document
    .loadPage(0)
    .toPixmap(mupdf.Matrix.scale(50 / 72, 50 / 72), mupdf.ColorSpace.DeviceGray, false, true);
  return { width: pixmap.getWidth(), height: pixmap.getHeight(), data: new Uint8Array(pixmap.getPixels()) };
}

describe("harsh scan profiles", () => {
  it("are image-only and give the same bytes for the same source and profile", async () => {
    const first = await scanDocument(statement, SCAN_PROFILES.harsh);
    expect(await scanDocument(statement, SCAN_PROFILES.harsh)).toEqual(first);
    expect((await extractPdfText(first, "scan.pdf")).has_text_layer).toBe(false);
    // The damage is part of the cache key; a profile without it keeps the mild scan's key.
    expect(scanCacheKey(statement, SCAN_PROFILES.harsh)).not.toBe(
      scanCacheKey(statement, { ...SCAN_PROFILES.harsh, speckle: 0.01 }),
    );
    expect(scanCacheKey(statement, SCAN_PROFILES.mild)).toBe(scanCacheKey(statement, {}));
  }, 60_000);

  it("a fax is black and white, a quarter-turned sheet comes out landscape", async () => {
    const fax = greyPage(await scanDocument(statement, SCAN_PROFILES.fax));
    const greys = fax.data.filter((value) => value > 40 && value < 215).length;
    // Only the rendering's own smoothing at the edges of strokes is grey.
    expect(greys / fax.data.length).toBeLessThan(0.05);

    const source = await PDFDocument.load(statement);
    const { width, height } = source.getPage(0).getSize();
    const turned = await PDFDocument.load(await scanDocument(statement, SCAN_PROFILES["turned-90"] ?? {}));
    expect(turned.getPage(0).getSize()).toEqual({ width: height, height: width });
    const upsideDown = await PDFDocument.load(
      await scanDocument(statement, SCAN_PROFILES["turned-180"] ?? {}),
    );
    expect(upsideDown.getPage(0).getSize()).toEqual({ width, height });
  }, 60_000);

  it("a phone photo has a dark table round the page and a darker far corner", async () => {
    const photo = greyPage(await scanDocument(statement, SCAN_PROFILES.phone));
    const at = (x: number, y: number) => photo.data[Math.round(y) * photo.width + Math.round(x)] as number;
    expect(at(1, 1)).toBeLessThan(110);
    // Paper near the top left against paper near the bottom right (both in the page's margin).
    const light = Math.max(...[0.15, 0.16, 0.17].map((f) => at(photo.width * f, photo.height * 0.05)));
    const dark = Math.max(...[0.85, 0.86, 0.87].map((f) => at(photo.width * f, photo.height * 0.96)));
    expect(light - dark).toBeGreaterThan(40);
  }, 60_000);

  it("refuses settings out of range, naming the setting", async () => {
    await expect(scanDocument(statement, { speckle: 0.5 })).rejects.toThrow(/speckle must be 0-0.2/);
    await expect(scanDocument(statement, { quarterTurns: 1.5 })).rejects.toThrow(
      /quarterTurns must be an integer/,
    );
    await expect(scanDocument(statement, { perspective: 0.3 })).rejects.toThrow(/perspective must be 0-0.15/);
    await expect(scanDocument(statement, { bitonal: true, color: "rgb" })).rejects.toThrow(/need color gray/);
  });
});
