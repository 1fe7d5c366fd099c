// A return signed the way people sign a PDF: a pen drawing (vector strokes) or a pasted image in
// the officer's box, with the date typed. The text layer has no signer's name; the document model's
// SIGNATURE blocks carry what was drawn, and the preparer's box below never counts.
import { createCanvas } from "@napi-rs/canvas";
import { PDFDocument, type PDFPage, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { extractPdfText } from "../../../lambdas/agents/loan/pdf-text.ts";
import { pointBox } from "../../../lambdas/documents/blocks.ts";
import { evaluate, TAX_METADATA, verdictOf } from "../loan/fixtures.ts";

type Signing = "drawn" | "image" | "preparer-only" | "none" | "drawn-undated";

const SCRIBBLE = "M 0 0 C 10 -18 22 8 34 -6 S 52 -20 60 0 C 66 10 80 -14 96 -4 L 110 -8";

async function signatureImage(): Promise<Uint8Array> {
  const canvas = createCanvas(240, 60);
  const context = canvas.getContext("2d");
  context.strokeStyle = "#1a2a6c";
  context.lineWidth = 3;
  context.beginPath();
  context.moveTo(10, 40);
  context.bezierCurveTo(40, 0, 70, 60, 110, 25);
  context.bezierCurveTo(140, 5, 170, 55, 230, 20);
  context.stroke();
  return new Uint8Array(canvas.toBuffer("image/png"));
}

async function signedReturn(signing: Signing): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page: PDFPage = document.addPage([612, 792]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const text = (value: string, x: number, y: number, size = 8, face = font) =>
    page.drawText(value, { x, y, size, font: face });
  text("Form 1120", 36, 750, 14, bold);
  text("U.S. Corporation Income Tax Return", 200, 752, 12, bold);
  text("For calendar year 2024 or tax year beginning", 200, 738);
  text("Name", 60, 712);
  text("Acme Widgets Inc", 60, 700, 10);
  text("B Employer identification number", 430, 712);
  text("12-3456789", 430, 700, 10);
  text("1a Gross receipts or sales", 60, 660);
  text("250,000", 520, 660);
  text("30 Taxable income", 60, 640);
  text("41,000", 520, 640);
  // The Sign Here block: declaration, the officer's line, captions, then the paid preparer.
  text("Sign", 36, 160, 10, bold);
  text("Here", 36, 150, 10, bold);
  text(
    "Under penalties of perjury, I declare that I have examined this return, including accompanying schedules and statements,",
    72,
    168,
    7,
  );
  text("and to the best of my knowledge and belief, it is true, correct, and complete.", 72, 160, 7);
  if (signing !== "drawn-undated") text("03/12/2025", 290, 138, 9);
  text("President", 380, 138, 9);
  page.drawLine({ start: { x: 72, y: 134 }, end: { x: 560, y: 134 }, thickness: 0.5 });
  text("Signature of officer", 74, 126, 7);
  text("Date", 290, 126, 7);
  text("Title", 380, 126, 7);
  text("Paid", 36, 100, 9, bold);
  text("Preparer", 36, 90, 9, bold);
  text("Preparer's name", 90, 104, 7);
  text("Preparer's signature", 220, 104, 7);
  text("Date", 360, 104, 7);
  text("Dana Lee", 90, 92, 9);
  if (signing === "drawn" || signing === "drawn-undated") {
    page.drawSvgPath(SCRIBBLE, { x: 100, y: 145, borderWidth: 1.2 });
  } else if (signing === "image") {
    const image = await document.embedPng(await signatureImage());
    page.drawImage(image, { x: 90, y: 136, width: 120, height: 30 });
  } else if (signing === "preparer-only") {
    page.drawSvgPath(SCRIBBLE, { x: 225, y: 96, borderWidth: 1.2 });
  }
  return document.save();
}

async function signedVerdict(signing: Signing) {
  const extracted = await extractPdfText(await signedReturn(signing), `returns/${signing}.pdf`);
  return { extracted, verdict: verdictOf(evaluate(TAX_METADATA, [extracted], ["TR_SIGNED"]), "TR_SIGNED") };
}

describe("signatures drawn or pasted into the officer's box", () => {
  it("models a pen drawing as a SIGNATURE block above the officer's caption, not the rules of the form", async () => {
    const { extracted } = await signedVerdict("drawn");
    const page = extracted.model?.pages[0];
    const signatures = page?.blocks.filter((block) => block.BlockType === "SIGNATURE") ?? [];
    expect(signatures).toHaveLength(1);
    const [signature] = signatures;
    if (!page || !signature) throw new Error("no signature modelled");
    const box = pointBox(signature.Geometry.BoundingBox, page);
    expect(box.x).toBeGreaterThan(95);
    expect(box.right).toBeLessThan(215);
    expect(box.y).toBeGreaterThan(125);
    expect(page.signatureSources?.[signature.Id]).toBe("vector-drawing");
  });

  it("counts a drawn signature with a typed date as signed", async () => {
    const { verdict } = await signedVerdict("drawn");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toContain("a hand-drawn signature in the officer's box");
    expect(verdict.reason).toContain("03/12/2025");
  });

  it("counts a signature image as signed", async () => {
    const { verdict } = await signedVerdict("image");
    expect(verdict.status).toBe("fulfilled");
    expect(verdict.reason).toContain("a signature image in the officer's box");
  });

  it("does not take the preparer's signature for the officer's", async () => {
    const { verdict } = await signedVerdict("preparer-only");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("the signature of officer is blank");
  });

  it("reports a box read blank as not signed", async () => {
    const { verdict } = await signedVerdict("none");
    expect(verdict.status).toBe("not_fulfilled");
  });

  it("still requires the date beside a drawn signature", async () => {
    const { verdict } = await signedVerdict("drawn-undated");
    expect(verdict.status).toBe("not_fulfilled");
    expect(verdict.reason).toContain("the date is blank");
  });
});
