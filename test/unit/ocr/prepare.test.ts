// The page preparation before OCR, on synthetic pages whose skew, turn and lighting are known from
// how they were made: a page of text lines drawn with a real font, then turned, skewed or shaded.
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../lambdas/core/seeded-random.ts";
import {
  crop,
  detectSideways,
  estimateSkew,
  type GreyImage,
  homography,
  inkiestBand,
  median3,
  otsuThreshold,
  preparePage,
  resize,
  rotateImage,
  rotateQuarter,
  SPECKLE_SHARE,
  sauvola,
  speckleShare,
  warpPerspective,
} from "../../../lambdas/tools/ocr/prepare.ts";
import { textPage } from "./synthetic-page.ts";

const WORDS =
  "Gross receipts sales returns allowances balance dividends interest rents royalties capital".split(" ");

const taxPage = (seed = 7) =>
  textPage({ seed, title: ["U.S. Corporation Income Tax Return", 120], words: WORDS });

const inkCount = (image: GreyImage) => image.data.filter((value) => value < 128).length;

describe("estimateSkew", () => {
  const page = taxPage();

  it.each([1.5, -1.5, 2.2, -0.7, 4])("finds a page turned %s° within 0.3°", (degrees) => {
    expect(Math.abs(estimateSkew(rotateImage(page, degrees)) - degrees)).toBeLessThanOrEqual(0.3);
  });

  it("finds a straight page straight, and a page without ink has no skew", () => {
    expect(Math.abs(estimateSkew(page))).toBeLessThanOrEqual(0.1);
    const blank = { width: 200, height: 300, data: new Uint8Array(200 * 300).fill(255) };
    expect(estimateSkew(blank)).toBe(0);
  });

  it("straightens the page it measured: the skew left is under 0.3°", () => {
    const prepared = preparePage(rotateImage(page, 1.8), { orientation: false, deskew: true });
    expect(prepared.skewDegrees).toBeGreaterThan(1.5);
    expect(Math.abs(estimateSkew(prepared.image))).toBeLessThanOrEqual(0.3);
  });
});

describe("orientation", () => {
  const page = rotateImage(taxPage(3), 1);

  it("tells a page lying sideways (either way) from one upright or upside down", () => {
    expect(detectSideways(page).sideways).toBe(false);
    expect(detectSideways(rotateQuarter(page, 2)).sideways).toBe(false);
    expect(detectSideways(rotateQuarter(page, 1)).sideways).toBe(true);
    expect(detectSideways(rotateQuarter(page, 3)).sideways).toBe(true);
  });

  it("turns a sideways page a quarter, so its lines run across again", () => {
    const prepared = preparePage(rotateQuarter(page, 1), { deskew: false });
    expect(prepared.turns).toBe(1);
    expect(prepared.image.width).toBe(page.width);
    expect(detectSideways(prepared.image).sideways).toBe(false);
    expect(preparePage(page, { deskew: false }).turns).toBe(0);
  });

  it("quarter turns compose: four make the page it was, 90° swaps the sides", () => {
    const small: GreyImage = { width: 3, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6]) };
    const once = rotateQuarter(small, 1);
    expect([once.width, once.height]).toEqual([2, 3]);
    // Clockwise: the bottom-left pixel (4) comes to the top left.
    expect([...once.data]).toEqual([4, 1, 5, 2, 6, 3]);
    expect([...rotateQuarter(rotateQuarter(small, 2), 2).data]).toEqual([...small.data]);
    expect([...rotateQuarter(once, 3).data]).toEqual([...small.data]);
  });
});

describe("cleaning", () => {
  it("median3 removes isolated specks and keeps strokes", () => {
    const image: GreyImage = { width: 20, height: 20, data: new Uint8Array(400).fill(255) };
    image.data[5 * 20 + 5] = 0; // a speck
    for (let y = 2; y < 18; y++) for (let x = 12; x < 15; x++) image.data[y * 20 + x] = 0; // a stroke
    const cleaned = median3(image);
    expect(cleaned.data[5 * 20 + 5]).toBe(255);
    expect(cleaned.data[10 * 20 + 13]).toBe(0);
  });

  it("tells a speckled page from a clean one, and filters only the speckled one by default", () => {
    const page = taxPage(13);
    const speckled: GreyImage = { ...page, data: page.data.slice() };
    const random = seededRandom(99);
    for (let i = 0; i < speckled.data.length; i++) {
      if (random() < 0.004) speckled.data[i] = random() < 0.5 ? 0 : 255;
    }
    expect(speckleShare(page)).toBeLessThan(SPECKLE_SHARE / 2);
    expect(speckleShare(speckled)).toBeGreaterThan(SPECKLE_SHARE * 2);
    const options = { orientation: false, deskew: false } as const;
    expect(preparePage(page, options).image.data).toEqual(page.data);
    const cleaned = preparePage(speckled, options).image;
    expect(speckleShare(cleaned)).toBeLessThan(SPECKLE_SHARE / 2);
    expect(preparePage(speckled, { ...options, median: false }).image.data).toEqual(speckled.data);
  });

  it("resize scales both sides and keeps the ink where it was", () => {
    const page = taxPage(17);
    const doubled = resize(page, 2);
    expect([doubled.width, doubled.height]).toEqual([1700, 2200]);
    // A pixel of ink at (x, y) is ink at about (2x, 2y).
    for (const [x, y] of [
      [130, 75],
      [400, 400],
    ] as const) {
      const before = (page.data[y * page.width + x] as number) < 128;
      const after = (doubled.data[2 * y * doubled.width + 2 * x] as number) < 128;
      expect(after).toBe(before);
    }
    expect(inkCount(doubled) / inkCount(page)).toBeGreaterThan(3);
    expect(() => resize(page, 0)).toThrow(/resize factor/);
  });

  it("Sauvola keeps text black and paper white under a lighting gradient a global threshold cannot", () => {
    const page = taxPage(11);
    const shaded: GreyImage = { ...page, data: page.data.slice() };
    for (let y = 0; y < page.height; y++) {
      for (let x = 0; x < page.width; x++) {
        const light = 1 - 0.6 * (x / page.width);
        shaded.data[y * page.width + x] = Math.round((page.data[y * page.width + x] as number) * light);
      }
    }
    const global = otsuThreshold(shaded);
    const binarised = sauvola(shaded);
    expect(new Set(binarised.data)).toEqual(new Set([0, 255]));
    // Against the page before shading: the cores of the strokes stay ink, the paper stays paper.
    let strokes = 0;
    let strokesKept = 0;
    let paper = 0;
    let paperKept = 0;
    let paperKeptGlobally = 0;
    for (let i = 0; i < page.data.length; i++) {
      if ((page.data[i] as number) < 64) {
        strokes++;
        if (binarised.data[i] === 0) strokesKept++;
      } else if (page.data[i] === 255) {
        paper++;
        if (binarised.data[i] === 255) paperKept++;
        if ((shaded.data[i] as number) >= global) paperKeptGlobally++;
      }
    }
    expect(strokesKept / strokes).toBeGreaterThan(0.9);
    expect(paperKept / paper).toBeGreaterThan(0.99);
    // One threshold for the whole page blackens the dark side of it.
    expect(paperKeptGlobally / paper).toBeLessThan(0.9);
    // The paper in the darkest corner is white.
    expect(binarised.data[(page.height - 5) * page.width + page.width - 5]).toBe(255);
  });
});

describe("geometry", () => {
  it("homography maps each corner to its counterpart and warpPerspective undoes a photo's quad", () => {
    const page = taxPage(5);
    const quad: Array<[number, number]> = [
      [60, 40],
      [800, 20],
      [830, 1080],
      [30, 1060],
    ];
    const corners: Array<[number, number]> = [
      [0, 0],
      [page.width, 0],
      [page.width, page.height],
      [0, page.height],
    ];
    const h = homography(corners, quad);
    for (let i = 0; i < 4; i++) {
      const [x, y] = corners[i] as [number, number];
      const w = (h[6] as number) * x + (h[7] as number) * y + 1;
      expect(((h[0] as number) * x + (h[1] as number) * y + (h[2] as number)) / w).toBeCloseTo(
        quad[i]?.[0] as number,
        6,
      );
      expect(((h[3] as number) * x + (h[4] as number) * y + (h[5] as number)) / w).toBeCloseTo(
        quad[i]?.[1] as number,
        6,
      );
    }
    // Photographed (page → quad), then corrected (quad → page): the ink comes back where it was.
    const photo = warpPerspective(page, homography(quad, corners), page.width, page.height, 80);
    const corrected = warpPerspective(photo, h, page.width, page.height);
    let agree = 0;
    for (let i = 0; i < page.data.length; i++) {
      if ((page.data[i] as number) < 128 === (corrected.data[i] as number) < 128) agree++;
    }
    expect(agree / page.data.length).toBeGreaterThan(0.97);
    expect(() => homography(corners.slice(0, 3), quad)).toThrow(/4 point pairs/);
  });

  it("crops the inkiest band", () => {
    const page = taxPage(9);
    const band = inkiestBand(page, 0.1);
    expect(band.height).toBe(110);
    expect(band.top).toBeGreaterThan(100);
    const strip = crop(page, 0, band.top, page.width, band.height);
    expect([strip.width, strip.height]).toEqual([850, 110]);
    expect(inkCount(strip)).toBeGreaterThan(0);
  });
});
