// A phone photo's preparation on synthetic pages whose perspective and lighting are known from how
// they were made: a page of text lines drawn with a real font, warped onto a dark table as a camera
// held at an angle sees it, or shaded towards a corner.
import { describe, expect, it } from "vitest";
import { evenLighting, lightingSpread, UNEVEN_LIGHT } from "../../../lambdas/tools/ocr/lighting.ts";
import {
  correctPerspective,
  findPageOutline,
  findTextKeystone,
  isKeystoned,
  type Point,
  straightenPage,
} from "../../../lambdas/tools/ocr/perspective.ts";
import {
  crop,
  estimateSkew,
  type GreyImage,
  homography,
  otsuThreshold,
  preparePage,
  rotateImage,
  rotateQuarter,
  warpPerspective,
} from "../../../lambdas/tools/ocr/prepare.ts";
import { textPage } from "./synthetic-page.ts";

const WORDS = "Balance deposits withdrawals interest statement period account checking fees".split(" ");

/** A statement-like page: a title, 40 lines of words, a box; with `amounts`, a column of figures. */
const statementPage = (seed = 11, amounts = false) =>
  textPage({ seed, title: ["Monthly Account Statement", 150], words: WORDS, amounts, box: true });

/** Where the page's corners land in the photo: the far (top) edge shorter, the sheet turned a little. */
const PHOTO_CORNERS: [Point, Point, Point, Point] = [
  [62, 48],
  [808, 30],
  [826, 1072],
  [24, 1086],
];

/** The page as photographed: warped so its corners fall on `corners`, on a dark grey table (`around`). */
function photograph(page: GreyImage, corners: readonly Point[] = PHOTO_CORNERS, around = 70): GreyImage {
  const frame: Point[] = [
    [0, 0],
    [page.width, 0],
    [page.width, page.height],
    [0, page.height],
  ];
  return warpPerspective(page, homography(corners, frame), page.width, page.height, around);
}

/** Light falling off towards the bottom right, by up to `depth`, and a soft shadow's edge. */
function shade(page: GreyImage, depth = 0.45): GreyImage {
  const { width, height } = page;
  const data = new Uint8Array(page.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const gradient = 1 - depth * (0.6 * (x / width) + 0.4 * (y / height));
      const shadow = 1 - (0.35 * depth) / (1 + Math.exp(-(x - width * 0.65) / (width * 0.02)));
      data[y * width + x] = Math.round((page.data[y * width + x] as number) * gradient * shadow);
    }
  }
  return { width, height, data };
}

/**
 * The mean difference in grey level between two pages of the same size, over blocks of 6×6 pixels:
 * small when the same words stand in the same places, whatever a resampling did to a stroke's edge.
 */
function blockDifference(a: GreyImage, b: GreyImage, block = 6): number {
  let total = 0;
  let blocks = 0;
  for (let top = 0; top + block <= a.height; top += block) {
    for (let left = 0; left + block <= a.width; left += block) {
      let difference = 0;
      for (let y = top; y < top + block; y++) {
        for (let x = left; x < left + block; x++)
          difference += (a.data[y * a.width + x] as number) - (b.data[y * a.width + x] as number);
      }
      total += Math.abs(difference) / (block * block);
      blocks++;
    }
  }
  return total / blocks;
}

const inkCount = (image: GreyImage) => {
  const threshold = otsuThreshold(image);
  return image.data.filter((value) => value < threshold).length;
};

describe("findPageOutline", () => {
  const page = statementPage();
  const photo = photograph(page);

  it("finds the four corners of a photographed sheet within 2 pixels", () => {
    const outline = findPageOutline(photo);
    expect(outline).not.toBeNull();
    expect(outline?.edgesFound).toBe(4);
    outline?.corners.forEach(([x, y], i) => {
      const [ex, ey] = PHOTO_CORNERS[i] as Point;
      expect(Math.hypot(x - ex, y - ey)).toBeLessThanOrEqual(2);
    });
    expect(outline && isKeystoned(outline)).toBe(true);
  });

  it("uses the frame's edge for a side where the sheet runs off the photo", () => {
    // The bottom corners below the frame: only three edges show against the table.
    const corners: Point[] = [
      [50, 40],
      [800, 60],
      [850 + 20, 1100 + 30],
      [-15, 1100 + 30],
    ];
    const outline = findPageOutline(photograph(page, corners));
    expect(outline?.edgesFound).toBe(3);
    const [topLeft, topRight] = outline?.corners ?? [];
    expect(Math.hypot((topLeft?.[0] ?? 0) - 50, (topLeft?.[1] ?? 0) - 40)).toBeLessThanOrEqual(2);
    expect(Math.hypot((topRight?.[0] ?? 0) - 800, (topRight?.[1] ?? 0) - 60)).toBeLessThanOrEqual(2);
  });

  it("finds no outline on a flatbed scan (white lid), skewed or not, with or without shading", () => {
    expect(findPageOutline(page)).toBeNull();
    expect(findPageOutline(rotateImage(page, 1.5))).toBeNull();
    expect(findPageOutline(shade(rotateImage(page, -2)))).toBeNull();
    expect(correctPerspective(rotateImage(page, 1.5))).toBeNull();
  });

  it("finds nothing on a blank page, an all-dark frame or an image too small to have edges", () => {
    const filled = (width: number, height: number, value: number): GreyImage => ({
      width,
      height,
      data: new Uint8Array(width * height).fill(value),
    });
    expect(findPageOutline(filled(400, 500, 255))).toBeNull();
    expect(findPageOutline(filled(400, 500, 40))).toBeNull();
    expect(findPageOutline(filled(3, 2, 0))).toBeNull();
    expect(findPageOutline(filled(0, 0, 0))).toBeNull();
    expect(lightingSpread(filled(0, 0, 0))).toBe(0);
    expect(lightingSpread(filled(5, 5, 0))).toBe(0);
  });

  it("finds a rectangle, and leaves it to deskewing, when a turned sheet lies on a dark lid", () => {
    const turned = rotateImage(
      photograph(page, [
        [40, 40],
        [810, 40],
        [810, 1060],
        [40, 1060],
      ]),
      1.2,
      70,
    );
    const outline = findPageOutline(turned);
    expect(outline).not.toBeNull();
    expect(outline && isKeystoned(outline)).toBe(false);
    expect(correctPerspective(turned)).toBeNull();
  });
});

describe("straightenPage", () => {
  const page = statementPage();
  const photo = photograph(page);

  it("puts the words back where they were on the page", () => {
    const corrected = correctPerspective(photo);
    expect(corrected).not.toBeNull();
    const straight = corrected?.image as GreyImage;
    expect(straight.width).toBe(page.width);
    expect(straight.height).toBe(page.height);
    // The photo's words stand tens of pixels from their places; the straightened page's within a
    // pixel (the page moved by one or two pixels differs by about 1).
    expect(blockDifference(page, photo)).toBeGreaterThan(20);
    expect(blockDifference(page, straight)).toBeLessThan(1.5);
    expect(Math.abs(estimateSkew(straight))).toBeLessThanOrEqual(0.1);
  });

  it("straightens an outline it is given even when it is a rectangle", () => {
    const outline = findPageOutline(photo);
    if (!outline) throw new Error("no outline");
    const straight = straightenPage(photo, outline);
    // Nothing of the dark table is left along the frame (two pixels in from each corner).
    const { width, height } = straight;
    const inside = [
      2 * width + 2,
      2 * width + width - 3,
      (height - 3) * width + width - 3,
      (height - 3) * width + 2,
    ].map((i) => straight.data[i] as number);
    for (const value of inside) expect(value).toBeGreaterThan(200);
  });
});

describe("findTextKeystone (the sheet filling the photo)", () => {
  const page = statementPage(13, true);
  // The far edge shorter, and what lies beyond the sheet's edges as white as the sheet: no
  // background shows.
  const filling: Point[] = [
    [60, 20],
    [790, 20],
    [880, 1125],
    [-30, 1125],
  ];
  const photo = photograph(page, filling, 255);
  /** The skew of the left and right thirds' columns (margins and aligned figures). */
  const sides = (image: GreyImage) =>
    [0, (2 * image.width) / 3].map((left) =>
      estimateSkew(rotateQuarter(crop(image, left, 0, image.width / 3, image.height), 1)),
    );

  it("finds the converging margins of a sheet that fills the photo and straightens them", () => {
    expect(findPageOutline(photo)).toBeNull();
    const [left, right] = sides(photo) as [number, number];
    expect(Math.abs(left - right)).toBeGreaterThan(1);
    const outline = findTextKeystone(photo);
    expect(outline).not.toBeNull();
    if (!outline) return;
    const straight = straightenPage(photo, outline);
    const [leftAfter, rightAfter] = sides(straight) as [number, number];
    expect(Math.abs(leftAfter - rightAfter)).toBeLessThanOrEqual(1);
    // The lines stay level (the words' places are only known up to the scale of the warp).
    expect(
      Math.abs(estimateSkew(crop(straight, 0, 0, straight.width, straight.height / 3))),
    ).toBeLessThanOrEqual(0.3);
    expect(
      Math.abs(
        estimateSkew(crop(straight, 0, (2 * straight.height) / 3, straight.width, straight.height / 3)),
      ),
    ).toBeLessThanOrEqual(0.3);
    // Asked for on a known photo (true), preparePage takes this outline when no edge shows.
    expect(preparePage(photo, { perspective: true, orientation: false }).outline).not.toBeNull();
  });

  it("finds none on a flatbed scan, skewed or not, nor with a blank third", () => {
    expect(findTextKeystone(page)).toBeNull();
    expect(findTextKeystone(rotateImage(page, 1.6))).toBeNull();
    const blankBottom = { ...page, data: page.data.slice() };
    blankBottom.data.fill(255, Math.floor((page.height * 2) / 3) * page.width);
    expect(findTextKeystone(photograph(blankBottom, filling, 255))).toBeNull();
    // On auto the text's directions are not asked: a flatbed page's sparse third could mislead them.
    expect(correctPerspective(photo)).toBeNull();
  });
});

describe("evenLighting", () => {
  const page = statementPage(5);
  const shaded = shade(page);

  it("measures even light as even and a gradient with a shadow as uneven", () => {
    expect(lightingSpread(page)).toBeLessThan(0.05);
    expect(lightingSpread(rotateImage(page, 1.5))).toBeLessThan(0.05);
    expect(lightingSpread(shaded)).toBeGreaterThan(UNEVEN_LIGHT);
  });

  it("evens a gradient out: the paper white all over, the ink as on the unshaded page", () => {
    const evened = evenLighting(shaded);
    expect(lightingSpread(evened)).toBeLessThan(0.05);
    // One threshold over the shaded page takes the dark corner for ink; over the evened one it
    // finds the words again.
    expect(inkCount(shaded)).toBeGreaterThan(3 * inkCount(page));
    expect(Math.abs(inkCount(evened) - inkCount(page)) / inkCount(page)).toBeLessThan(0.15);
    expect(blockDifference(page, shaded)).toBeGreaterThan(40);
    expect(blockDifference(page, evened)).toBeLessThan(3);
  });
});

describe("preparePage with a photo's steps", () => {
  const page = statementPage(9);

  it("leaves a flatbed scan exactly as the preparation without them does", () => {
    const scan = rotateImage(page, 1.3);
    const plain = preparePage(scan, { perspective: false, evenLight: false });
    const withSteps = preparePage(scan, { perspective: "auto", evenLight: "auto" });
    expect(withSteps.outline).toBeNull();
    expect(withSteps.evenedLight).toBe(false);
    expect(withSteps.skewDegrees).toBe(plain.skewDegrees);
    expect(Buffer.from(withSteps.image.data).equals(Buffer.from(plain.image.data))).toBe(true);
  });

  it("warps a rectangular outline only when told to (true), not on auto", () => {
    const onLid = photograph(page, [
      [30, 30],
      [820, 30],
      [820, 1070],
      [30, 1070],
    ]);
    expect(preparePage(onLid, { perspective: "auto", orientation: false }).outline).toBeNull();
    const forced = preparePage(onLid, { perspective: true, orientation: false });
    expect(forced.outline?.edgesFound).toBe(4);
    expect(blockDifference(page, forced.image)).toBeLessThan(1.5);
  });

  it("straightens, evens out and deskews a shaded photo", () => {
    const photo = shade(photograph(page));
    const prepared = preparePage(photo, { perspective: "auto", evenLight: "auto" });
    expect(prepared.outline).not.toBeNull();
    expect(prepared.evenedLight).toBe(true);
    expect(Math.abs(estimateSkew(prepared.image))).toBeLessThanOrEqual(0.2);
    expect(blockDifference(page, prepared.image)).toBeLessThan(3);
    // Off, the same photo is only deskewed.
    const off = preparePage(photo, { perspective: false, evenLight: false });
    expect(off.outline).toBeNull();
    expect(off.evenedLight).toBe(false);
  });
});
