// What the held-out layouts draw alike: fonts, a watermark, amounts and dates.

import { degrees, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import { MONTH_NAMES, newDocument } from "../../samples.ts";

interface Fonts {
  body: PDFFont;
  script: PDFFont;
}

export async function openDocument(
  title: string,
  face: StandardFonts = StandardFonts.Helvetica,
): Promise<{ pdf: Awaited<ReturnType<typeof newDocument>>["pdf"]; fonts: Fonts }> {
  const { pdf, font } = await newDocument(title);
  const body = face === StandardFonts.Helvetica ? font : await pdf.embedFont(face);
  const script = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  return { pdf, fonts: { body, script } };
}

/** A big light diagonal stamp across the page, as firms print on copies that must not be filed. */
export function watermark(page: PDFPage, font: PDFFont, text: string): void {
  page.drawText(text, {
    x: 130,
    y: 260,
    size: 64,
    font,
    color: rgb(0.85, 0.85, 0.85),
    rotate: degrees(35),
  });
}

export function money(value: number): string {
  return Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

// ---------------------------------------------------------------- dates

export interface Day {
  y: number;
  m: number;
  d: number;
}

export function day(y: number, m: number, d: number): Day {
  return { y, m, d };
}

export function addDays(date: Day, days: number): Day {
  const next = new Date(Date.UTC(date.y, date.m - 1, date.d + days));
  return { y: next.getUTCFullYear(), m: next.getUTCMonth() + 1, d: next.getUTCDate() };
}

const pad = (value: number) => String(value).padStart(2, "0");

export const usDate = (date: Day) => `${pad(date.m)}/${pad(date.d)}/${date.y}`;

export const monthDay = (date: Day) => `${pad(date.m)}/${pad(date.d)}`;

export const monthName = (date: Day) => MONTH_NAMES[date.m - 1] ?? String(date.m);

export const shortMonth = (date: Day) => monthName(date).slice(0, 3);
