// Drawing the sample PDFs with pdf-lib: a document with fixed dates (the same bytes every time), text
// items placed on a page, and the saved bytes.
import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";

const FIXED_DATE = new Date("2025-04-01T12:00:00.000Z");

export const LETTER: [number, number] = [612, 792];

export interface Item {
  text: string;
  x: number;
  y: number;
  size?: number;
  /** Right-align at x. */
  right?: boolean;
  /** Read bottom-to-top, like the side captions of IRS forms. */
  vertical?: boolean;
}

export async function newDocument(title: string): Promise<{ pdf: PDFDocument; font: PDFFont }> {
  const pdf = await PDFDocument.create();
  // pdf-lib stamps the current time by default; fixed metadata keeps the bytes reproducible.
  pdf.setTitle(title);
  pdf.setCreator("rewoo-loan-agent sample generator");
  pdf.setProducer("pdf-lib");
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  return { pdf, font };
}

export function drawItems(page: PDFPage, font: PDFFont, items: Item[]): void {
  for (const item of items) {
    const size = item.size ?? 8;
    const x = item.right ? item.x - font.widthOfTextAtSize(item.text, size) : item.x;
    page.drawText(item.text, {
      x,
      y: item.y,
      size,
      font,
      color: rgb(0, 0, 0),
      ...(item.vertical ? { rotate: degrees(90) } : {}),
    });
  }
}

export async function save(pdf: PDFDocument): Promise<Uint8Array> {
  return pdf.save({ useObjectStreams: false });
}

export function money(value: number): string {
  return Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
