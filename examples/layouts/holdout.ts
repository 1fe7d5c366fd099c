// Held-out loan files: two Form 1120 prints and three bank-statement layouts designed without
// looking at the engines' finders or at the other layout sets, so that the matrix they feed says
// how the engines fare on documents nobody tuned them for. They imitate real documents: an e-filed
// client copy with its Form 8879-CORP in front, a CPA firm's copy of a fiscal-year return behind a
// transmittal letter, a national bank's statement with wrapped descriptions and a running balance,
// a bilingual credit-union statement with share sub-accounts, a fintech statement with signed
// amounts. The labels come from the generation parameters (who signed, which fee was charged),
// never from running the engine.
import { degrees, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import {
  drawItems,
  type Item,
  LETTER,
  MONTH_NAMES,
  newDocument,
  type SampleDocument,
  save,
} from "../samples.ts";
import type { Label, LabelledCase } from "./cases.ts";

// ---------------------------------------------------------------- drawing

interface Fonts {
  body: PDFFont;
  script: PDFFont;
}

async function openDocument(
  title: string,
  face: StandardFonts = StandardFonts.Helvetica,
): Promise<{ pdf: Awaited<ReturnType<typeof newDocument>>["pdf"]; fonts: Fonts }> {
  const { pdf, font } = await newDocument(title);
  const body = face === StandardFonts.Helvetica ? font : await pdf.embedFont(face);
  const script = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  return { pdf, fonts: { body, script } };
}

/** A big light diagonal stamp across the page, as firms print on copies that must not be filed. */
function watermark(page: PDFPage, font: PDFFont, text: string): void {
  page.drawText(text, {
    x: 130,
    y: 260,
    size: 64,
    font,
    color: rgb(0.85, 0.85, 0.85),
    rotate: degrees(35),
  });
}

function money(value: number): string {
  return Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

// ---------------------------------------------------------------- dates

interface Day {
  y: number;
  m: number;
  d: number;
}

function day(y: number, m: number, d: number): Day {
  return { y, m, d };
}

function addDays(date: Day, days: number): Day {
  const next = new Date(Date.UTC(date.y, date.m - 1, date.d + days));
  return { y: next.getUTCFullYear(), m: next.getUTCMonth() + 1, d: next.getUTCDate() };
}

const pad = (value: number) => String(value).padStart(2, "0");
const usDate = (date: Day) => `${pad(date.m)}/${pad(date.d)}/${date.y}`;
const monthDay = (date: Day) => `${pad(date.m)}/${pad(date.d)}`;
const monthName = (date: Day) => MONTH_NAMES[date.m - 1] ?? String(date.m);
const shortMonth = (date: Day) => monthName(date).slice(0, 3);

// ---------------------------------------------------------------- Form 1120 prints

interface ReturnFacts {
  name: string;
  ein: string;
  /** The form year printed in the heading (for a fiscal year, the year it begins). */
  formYear: number;
  /** "JUL 1, 2024" / "JUN 30, 2025" for a fiscal year; calendar year otherwise. */
  fiscal?: { begins: string; ends: string };
  officer: string;
  title: string;
  /** The officer's signature and date are present in the Sign Here block. */
  signed: boolean;
  signDate: string;
  pageOne: boolean;
  scheduleL: boolean;
}

/** Page 5 of the form: Schedule K's question 13 names Schedule L, a trap for a completeness check. */
function scheduleKContinued(items: Item[], year: number, top: number): void {
  const rows = [
    `Form 1120 (${year})`,
    "Schedule K     Other Information (continued from page 4)",
    "12   Enter the available NOL carryover from prior tax years (do not reduce it by any deduction reported on line 29a.)   $ 0",
    "13   Are the corporation's total receipts (page 1, line 1a, plus lines 4 through 10) for the tax year and its total",
    "     assets at the end of the tax year less than $250,000? .......................................  Yes [ ]   No [X]",
    '     If "Yes," the corporation is not required to complete Schedules L, M-1, and M-2. Instead, enter the total amount',
    "     of cash distributions and the book value of property distributions (other than cash) made during the tax year",
    "14   Is the corporation required to file Schedule UTP (Form 1120), Uncertain Tax Position Statement? ....  Yes [ ]   No [X]",
    "15a  Did the corporation make any payments in the tax year that would require it to file Form(s) 1099? ....  Yes [X]   No [ ]",
    '  b  If "Yes," did or will the corporation file required Form(s) 1099? .................................  Yes [X]   No [ ]',
    "16   During this tax year, did the corporation have an 80%-or-more change in ownership? .................  Yes [ ]   No [X]",
  ];
  rows.forEach((text, index) => {
    items.push({ text, x: 40, y: top - index * 13, size: 7 });
  });
}

function scheduleLPage(items: Item[], year: number, top: number, totalAssets: string): void {
  const header = [
    [`Form 1120 (${year})`, 40, 7],
    ["Page 6", 540, 7],
  ] as const;
  for (const [text, x, size] of header) items.push({ text, x, y: top, size });
  items.push({ text: "Schedule L     Balance Sheets per Books", x: 40, y: top - 16, size: 9 });
  items.push({ text: "Beginning of tax year", x: 300, y: top - 30, size: 7 });
  items.push({ text: "End of tax year", x: 470, y: top - 30, size: 7 });
  items.push({ text: "Assets", x: 40, y: top - 42, size: 7 });
  for (const [text, x] of [
    ["(a)", 290],
    ["(b)", 360],
    ["(c)", 450],
    ["(d)", 530],
  ] as const) {
    items.push({ text, x, y: top - 42, size: 7 });
  }
  const lines: Array<[string, string, string]> = [
    ["1    Cash", "212,408", "298,114"],
    ["2a   Trade notes and accounts receivable", "184,220", "201,873"],
    ["3    Inventories", "96,510", "104,002"],
    ["10a  Buildings and other depreciable assets", "741,300", "812,950"],
    ["  b  Less accumulated depreciation", "(231,561)", "(132,609)"],
    ["15   Total assets", "1,102,877", totalAssets],
    ["Liabilities and Shareholders' Equity", "", ""],
    ["16   Accounts payable", "88,415", "92,660"],
    ["22   Capital stock: b Common stock", "10,000", "10,000"],
    ["25   Retained earnings - Unappropriated", "1,004,462", "1,181,670"],
    ["28   Total liabilities and shareholders' equity", "1,102,877", totalAssets],
  ];
  lines.forEach(([label, begin, end], index) => {
    const y = top - 56 - index * 13;
    items.push({ text: label, x: 40, y, size: 7 });
    if (begin) items.push({ text: begin, x: 395, y, size: 7, right: true });
    if (end) items.push({ text: end, x: 565, y, size: 7, right: true });
  });
  const m1 = top - 56 - lines.length * 13 - 16;
  items.push({
    text: "Schedule M-1     Reconciliation of Income (Loss) per Books With Income per Return",
    x: 40,
    y: m1,
    size: 9,
  });
  items.push({ text: "1    Net income (loss) per books", x: 40, y: m1 - 14, size: 7 });
  items.push({ text: "177,208", x: 300, y: m1 - 14, size: 7, right: true });
}

/**
 * An e-filed return as a tax program prints the client's copy: Form 8879-CORP in front (the
 * officer's PIN authorization, with the ERO's own signature and date), page 1 in a fixed-width face
 * with the box captions printed small above the typed values, a diagonal "CLIENT COPY" on every page.
 */
async function efileClientCopy(facts: ReturnFacts, totalAssets: string): Promise<Uint8Array> {
  const { pdf, fonts } = await openDocument("Client copy", StandardFonts.Courier);
  const year = facts.formYear;
  const yearLine = facts.fiscal
    ? `For calendar year ${year} or tax year beginning ${facts.fiscal.begins}, ending ${facts.fiscal.ends}`
    : `For calendar year ${year}, or tax year beginning __________, ${year}, ending __________, 20____`;
  const pages: Array<(items: Item[], scripted: Item[]) => void> = [];

  pages.push((items, scripted) => {
    items.push(
      { text: "Form 8879-CORP", x: 40, y: 750, size: 11 },
      { text: "IRS e-file Authorization for Corporations", x: 190, y: 750, size: 10 },
      { text: "OMB No. 1545-0123", x: 470, y: 756, size: 6 },
      { text: String(year), x: 510, y: 740, size: 14 },
      { text: yearLine, x: 150, y: 736, size: 6 },
      { text: "Department of the Treasury  Internal Revenue Service", x: 40, y: 728, size: 6 },
      { text: "Do not send to the IRS. Keep for your records.", x: 190, y: 724, size: 7 },
      { text: "Name of corporation", x: 40, y: 704, size: 6 },
      { text: "Employer identification number", x: 420, y: 704, size: 6 },
      { text: facts.name.toUpperCase(), x: 40, y: 694, size: 9 },
      { text: facts.ein, x: 420, y: 694, size: 9 },
      { text: "Part I     Tax Return Information (Whole dollars only)", x: 40, y: 672, size: 8 },
    );
    const part1: Array<[string, string]> = [
      ["1   Total income (Form 1120, line 11) .......................................... 1", "1,482,907"],
      ["2   Taxable income (Form 1120, line 30) ........................................ 2", "212,440"],
      ["3   Total tax (Form 1120, line 31) ............................................. 3", "44,612"],
      ["4   Amount owed (Form 1120, line 35) ........................................... 4", "3,120"],
      ["5   Overpayment (Form 1120, line 36) ........................................... 5", ""],
    ];
    part1.forEach(([label, value], index) => {
      items.push({ text: label, x: 40, y: 656 - index * 12, size: 7 });
      if (value) items.push({ text: value, x: 560, y: 656 - index * 12, size: 7, right: true });
    });
    items.push(
      { text: "Part II    Declaration and Signature Authorization of Officer", x: 40, y: 584, size: 8 },
      {
        text: "Under penalties of perjury, I declare that I am an officer of the above corporation and that I have examined a copy",
        x: 40,
        y: 570,
        size: 6,
      },
      {
        text: `of the corporation's ${year} electronic income tax return and accompanying schedules and statements, and to the best`,
        x: 40,
        y: 562,
        size: 6,
      },
      {
        text: "of my knowledge and belief, it is true, correct, and complete.",
        x: 40,
        y: 554,
        size: 6,
      },
      { text: "Officer's PIN: check one box only", x: 40, y: 540, size: 7 },
      {
        text: "[X] I authorize OKAFOR & LIN CPAS LLP to enter my PIN  48213  as my signature on the corporation's return.",
        x: 40,
        y: 528,
        size: 7,
      },
      { text: "Officer's signature >", x: 40, y: 508, size: 7 },
      { text: "Date >", x: 300, y: 508, size: 7 },
      { text: "Title >", x: 410, y: 508, size: 7 },
      { text: facts.title.toUpperCase(), x: 445, y: 508, size: 8 },
      { text: "Part III   Certification and Authentication", x: 40, y: 484, size: 8 },
      {
        text: "ERO's EFIN/PIN. Enter your six-digit EFIN followed by your five-digit self-selected PIN.   912345  67890",
        x: 40,
        y: 470,
        size: 7,
      },
      { text: "ERO's signature >", x: 40, y: 448, size: 7 },
      { text: "Date >", x: 300, y: 448, size: 7 },
      { text: "03/28/2025", x: 335, y: 448, size: 8 },
      { text: "ERO Must Retain This Form - See Instructions", x: 40, y: 426, size: 8 },
      { text: "Do Not Submit This Form to the IRS Unless Requested To Do So", x: 40, y: 414, size: 8 },
      { text: `Form 8879-CORP (${year})`, x: 470, y: 60, size: 7 },
    );
    scripted.push({ text: "Daniel Okafor", x: 125, y: 448, size: 12 });
    if (facts.signed) {
      scripted.push({ text: facts.officer, x: 140, y: 508, size: 12 });
      items.push({ text: facts.signDate, x: 335, y: 508, size: 8 });
    }
  });

  if (facts.pageOne) {
    pages.push((items, scripted) => {
      items.push(
        { text: "Form 1120", x: 40, y: 752, size: 12 },
        { text: "U.S. Corporation Income Tax Return", x: 200, y: 752, size: 11 },
        { text: "OMB No. 1545-0123", x: 480, y: 758, size: 6 },
        { text: String(year), x: 510, y: 740, size: 15 },
        { text: yearLine, x: 130, y: 738, size: 6 },
        { text: "Department of the Treasury", x: 40, y: 738, size: 5 },
        { text: "Internal Revenue Service", x: 40, y: 731, size: 5 },
        {
          text: "Go to www.irs.gov/Form1120 for instructions and the latest information.",
          x: 150,
          y: 728,
          size: 6,
        },
        { text: "A Check if:", x: 40, y: 714, size: 6 },
        { text: "1a Consolidated return [ ]", x: 40, y: 704, size: 5 },
        { text: "2  Personal holding co. [ ]", x: 40, y: 692, size: 5 },
        { text: "3  Personal service corp. [ ]", x: 40, y: 680, size: 5 },
        { text: "TYPE OR PRINT", x: 128, y: 672, size: 6, vertical: true },
        { text: "Name", x: 140, y: 714, size: 6 },
        { text: "B Employer identification number", x: 440, y: 714, size: 6 },
        { text: facts.name.toUpperCase(), x: 140, y: 704, size: 9 },
        { text: facts.ein, x: 445, y: 704, size: 9 },
        {
          text: "Number, street, and room or suite no. If a P.O. box, see instructions.",
          x: 140,
          y: 692,
          size: 6,
        },
        { text: "C Date incorporated", x: 440, y: 692, size: 6 },
        { text: "2200 PIER ROAD, SUITE 4", x: 140, y: 682, size: 9 },
        { text: "03/14/2011", x: 445, y: 682, size: 9 },
        {
          text: "City or town, state or province, country, and ZIP or foreign postal code",
          x: 140,
          y: 670,
          size: 6,
        },
        { text: "D Total assets (see instructions)", x: 440, y: 670, size: 6 },
        { text: "TACOMA, WA 98421", x: 140, y: 660, size: 9 },
        { text: `$ ${totalAssets}`, x: 445, y: 660, size: 9 },
        {
          text: "E Check if: (1) [ ] Initial return   (2) [ ] Final return   (3) [ ] Name change   (4) [ ] Address change",
          x: 40,
          y: 646,
          size: 6,
        },
      );
      const income: Array<[string, string]> = [
        ["1a   Gross receipts or sales ........................................ 1a", "1,482,907"],
        ["  c  Balance. Subtract line 1b from line 1a ............................ 1c", "1,482,907"],
        ["2    Cost of goods sold (attach Form 1125-A) ........................... 2", "702,118"],
        ["3    Gross profit. Subtract line 2 from line 1c ........................ 3", "780,789"],
        ["11   Total income. Add lines 3 through 10 .............................. 11", "780,789"],
        ["12   Compensation of officers (see instructions - attach Form 1125-E) .. 12", "160,000"],
        ["13   Salaries and wages (less employment credits) ...................... 13", "301,455"],
        ["27   Total deductions. Add lines 12 through 26 ......................... 27", "568,349"],
        ["28   Taxable income before NOL deduction and special deductions ........ 28", "212,440"],
        ["30   Taxable income. Subtract line 29c from line 28 .................... 30", "212,440"],
        ["31   Total tax (Schedule J, Part I, line 11) ........................... 31", "44,612"],
        ["35   Amount owed. If line 33 is smaller than the total of lines 31 and 34 35", "3,120"],
      ];
      income.forEach(([label, value], index) => {
        items.push({ text: label, x: 40, y: 628 - index * 13, size: 7 });
        items.push({ text: value, x: 565, y: 628 - index * 13, size: 7, right: true });
      });
      items.push(
        { text: "Sign", x: 40, y: 196, size: 10 },
        { text: "Here", x: 40, y: 184, size: 10 },
        {
          text: "Under penalties of perjury, I declare that I have examined this return, including accompanying schedules and",
          x: 90,
          y: 198,
          size: 6,
        },
        {
          text: "statements, and to the best of my knowledge and belief, it is true, correct, and complete. Declaration of",
          x: 90,
          y: 191,
          size: 6,
        },
        {
          text: "preparer (other than taxpayer) is based on all information of which preparer has any knowledge.",
          x: 90,
          y: 184,
          size: 6,
        },
        { text: facts.title.toUpperCase(), x: 390, y: 168, size: 8 },
        { text: "May the IRS discuss this return", x: 470, y: 168, size: 6 },
        { text: "Signature of officer", x: 90, y: 158, size: 6 },
        { text: "Date", x: 300, y: 158, size: 6 },
        { text: "Title", x: 390, y: 158, size: 6 },
        { text: "with the preparer shown below? [X] Yes [ ] No", x: 470, y: 158, size: 6 },
        { text: "Paid", x: 40, y: 138, size: 7 },
        { text: "Preparer", x: 40, y: 127, size: 7 },
        { text: "Use Only", x: 40, y: 116, size: 7 },
        { text: "Print/Type preparer's name", x: 90, y: 140, size: 6 },
        { text: "Preparer's signature", x: 220, y: 140, size: 6 },
        { text: "Date", x: 330, y: 140, size: 6 },
        { text: "Check [ ] if self-employed", x: 390, y: 140, size: 6 },
        { text: "PTIN", x: 500, y: 140, size: 6 },
        { text: "DANIEL OKAFOR", x: 90, y: 130, size: 8 },
        { text: "03/28/2025", x: 330, y: 130, size: 8 },
        { text: "P01234567", x: 500, y: 130, size: 8 },
        { text: "Firm's name >  OKAFOR & LIN CPAS LLP", x: 90, y: 116, size: 7 },
        { text: "Firm's EIN >  91-7654321", x: 400, y: 116, size: 7 },
        { text: "Firm's address >  1200 PACIFIC AVE STE 300, TACOMA, WA 98402", x: 90, y: 106, size: 7 },
        { text: "Phone no. 253-555-0187", x: 400, y: 106, size: 7 },
        {
          text: "For Paperwork Reduction Act Notice, see separate instructions.    Cat. No. 11450Q",
          x: 40,
          y: 88,
          size: 6,
        },
        { text: `Form 1120 (${year})`, x: 500, y: 88, size: 7 },
      );
      scripted.push({ text: "Daniel Okafor", x: 220, y: 129, size: 11 });
      if (facts.signed) {
        scripted.push({ text: facts.officer, x: 95, y: 168, size: 13 });
        items.push({ text: facts.signDate, x: 300, y: 168, size: 8 });
      }
    });
  }

  pages.push((items) => {
    items.push({ text: `${facts.name.toUpperCase()}   ${facts.ein}`, x: 40, y: 760, size: 7 });
    scheduleKContinued(items, year, 740);
  });
  if (facts.scheduleL) {
    pages.push((items) => {
      items.push({ text: `${facts.name.toUpperCase()}   ${facts.ein}`, x: 40, y: 760, size: 7 });
      scheduleLPage(items, year, 740, totalAssets);
    });
  }

  pages.forEach((draw, index) => {
    const page = pdf.addPage(LETTER);
    watermark(page, fonts.body, "CLIENT COPY");
    const items: Item[] = [];
    const scripted: Item[] = [];
    draw(items, scripted);
    items.push({
      text: `DO NOT FILE - CLIENT COPY - RETAIN FOR YOUR RECORDS          Page ${index + 1} of ${pages.length}`,
      x: 40,
      y: 30,
      size: 7,
    });
    drawItems(page, fonts.body, items);
    drawItems(page, fonts.script, scripted);
  });
  return save(pdf);
}

/**
 * A CPA firm's copy of a fiscal-year return: a transmittal letter in front, the firm's name and EIN
 * in every page's header, page 1's name block as a table (column headings, values on the next row),
 * the Sign Here block with the title between signature and date and the date written out.
 */
async function cpaFirmCopy(facts: ReturnFacts, street: string, city: string): Promise<Uint8Array> {
  const { pdf, fonts } = await openDocument("CPA firm copy");
  const year = facts.formYear;
  const pages: Array<(items: Item[], scripted: Item[]) => void> = [];
  const fiscal = facts.fiscal ?? { begins: `JAN 1, ${year}`, ends: `DEC 31, ${year}` };

  pages.push((items) => {
    const letter = [
      "September 8, 2025",
      "",
      facts.name,
      `Attn: ${facts.officer}, ${facts.title}`,
      street,
      city,
      "",
      `Re: ${year} U.S. Corporation Income Tax Return (Form 1120), tax year ${fiscal.begins} - ${fiscal.ends}`,
      "",
      `Dear ${facts.officer}:`,
      "",
      "Enclosed is the corporation's federal income tax return, with Schedules C, J, K, L, M-1 and M-2, as",
      "prepared from the information you provided. The return shows a balance due of $6,204, payable by the",
      "extended due date. Please review the return carefully, sign and date page 1 where indicated, and",
      "return the signed copy to our office. We will file the return electronically once we receive it.",
      "",
      "Sincerely,",
      "",
      "Beacon & Rowe CPAs, PC",
    ];
    letter.forEach((text, index) => {
      if (text) items.push({ text, x: 72, y: 700 - index * 14, size: 10 });
    });
  });

  if (facts.pageOne) {
    pages.push((items, scripted) => {
      items.push(
        { text: "Form", x: 40, y: 720, size: 7 },
        { text: "1120", x: 40, y: 704, size: 18 },
        { text: "U.S. Corporation Income Tax Return", x: 190, y: 716, size: 12 },
        {
          text: `For calendar year ${year} or tax year beginning ${fiscal.begins} , ending ${fiscal.ends}`,
          x: 160,
          y: 702,
          size: 8,
        },
        { text: String(year), x: 520, y: 706, size: 18 },
        { text: "Name", x: 60, y: 676, size: 7 },
        { text: "Identification number", x: 380, y: 676, size: 7 },
        { text: "Date incorporated", x: 490, y: 676, size: 7 },
        { text: facts.name.toUpperCase(), x: 60, y: 664, size: 10 },
        { text: facts.ein, x: 380, y: 664, size: 10 },
        { text: "06/01/2009", x: 490, y: 664, size: 10 },
        { text: "Number, street, and room or suite no.", x: 60, y: 648, size: 7 },
        { text: "Total assets", x: 380, y: 648, size: 7 },
        { text: street.toUpperCase(), x: 60, y: 636, size: 10 },
        { text: "$2,118,540", x: 380, y: 636, size: 10 },
        { text: "City or town, state, and ZIP code", x: 60, y: 620, size: 7 },
        { text: city.toUpperCase(), x: 60, y: 608, size: 10 },
      );
      const income: Array<[string, string]> = [
        ["1a  Gross receipts or sales", "3,904,112"],
        ["2   Cost of goods sold (attach Form 1125-A)", "2,611,090"],
        ["11  Total income", "1,293,022"],
        ["27  Total deductions", "1,041,877"],
        ["30  Taxable income", "251,145"],
        ["31  Total tax", "52,740"],
        ["35  Amount owed", "6,204"],
      ];
      income.forEach(([label, value], index) => {
        items.push({ text: label, x: 40, y: 580 - index * 16, size: 8 });
        items.push({ text: value, x: 565, y: 580 - index * 16, size: 8, right: true });
      });
      items.push(
        { text: "Sign Here", x: 40, y: 300, size: 11 },
        {
          text: "Under penalties of perjury, I declare that I have examined this return, including accompanying schedules",
          x: 110,
          y: 304,
          size: 6,
        },
        {
          text: "and statements, and to the best of my knowledge and belief, it is true, correct, and complete.",
          x: 110,
          y: 297,
          size: 6,
        },
        { text: "Signature of officer", x: 110, y: 282, size: 7 },
        { text: "Title", x: 300, y: 282, size: 7 },
        { text: "Date", x: 410, y: 282, size: 7 },
        { text: facts.title.toUpperCase(), x: 300, y: 266, size: 9 },
        {
          text: "May the IRS discuss this return with the preparer shown below? [X] Yes",
          x: 110,
          y: 250,
          size: 7,
        },
        { text: "Paid Preparer Use Only", x: 40, y: 226, size: 9 },
        { text: "Preparer's name", x: 160, y: 226, size: 7 },
        { text: "ALLISON ROWE, CPA", x: 260, y: 226, size: 9 },
        { text: "Preparer's signature", x: 160, y: 212, size: 7 },
        { text: "Date", x: 400, y: 212, size: 7 },
        { text: "09/08/2025", x: 430, y: 212, size: 9 },
        { text: "PTIN", x: 160, y: 198, size: 7 },
        { text: "P00987654", x: 260, y: 198, size: 9 },
        { text: "Firm's name", x: 160, y: 184, size: 7 },
        { text: "BEACON & ROWE CPAS, PC", x: 260, y: 184, size: 9 },
        { text: "Firm's EIN", x: 400, y: 184, size: 7 },
        { text: "77-2345678", x: 450, y: 184, size: 9 },
        { text: `Form 1120 (${year})`, x: 500, y: 150, size: 7 },
      );
      scripted.push({ text: "Allison Rowe", x: 260, y: 211, size: 12 });
      if (facts.signed) {
        scripted.push({ text: facts.officer, x: 110, y: 265, size: 14 });
        items.push({ text: facts.signDate, x: 410, y: 266, size: 9 });
      }
    });
  }

  pages.push((items) => scheduleKContinued(items, year, 720));
  if (facts.scheduleL) pages.push((items) => scheduleLPage(items, year, 720, "2,118,540"));

  pages.forEach((draw, index) => {
    const page = pdf.addPage(LETTER);
    const items: Item[] = [
      { text: "BEACON & ROWE CPAs, PC", x: 40, y: 768, size: 8 },
      { text: "Firm EIN 77-2345678", x: 250, y: 768, size: 8 },
      { text: "CPA FIRM COPY - DO NOT FILE", x: 430, y: 768, size: 8 },
      { text: `Page ${index + 1}`, x: 300, y: 24, size: 7 },
    ];
    const scripted: Item[] = [];
    draw(items, scripted);
    drawItems(page, fonts.body, items);
    drawItems(page, fonts.script, scripted);
  });
  return save(pdf);
}

// ---------------------------------------------------------------- bank statements

interface Entry {
  date: Day;
  /** One or more lines; descriptions that do not fit wrap onto the next line. */
  description: string[];
  /** Positive for money in, negative for money out. */
  amount: number;
  /** The fintech layout's transaction type column. */
  kind?: string;
  /** The credit union's sub-account: savings (share 00) or share draft checking (share 10). */
  share?: "savings" | "draft";
}

interface Statement {
  holders: string[];
  account: string;
  start: Day;
  end: Day;
  opening: number;
  entries: Entry[];
}

interface BankPage {
  items: Item[];
}

/** Lays rows top-down, starting a new page (with the layout's continuation header) when one fills. */
class RowWriter {
  readonly pages: BankPage[] = [];
  private y = 0;

  constructor(
    private readonly continuation: (page: BankPage) => number,
    private readonly bottom = 90,
  ) {}

  start(page: BankPage, y: number): void {
    this.pages.push(page);
    this.y = y;
  }

  /** Reserves `height` points and returns the y of the row's first line. */
  row(height: number): { page: BankPage; y: number } {
    if (this.y - height < this.bottom) {
      const page: BankPage = { items: [] };
      this.pages.push(page);
      this.y = this.continuation(page);
    }
    const y = this.y;
    this.y -= height;
    return { page: this.current(), y };
  }

  current(): BankPage {
    const page = this.pages.at(-1);
    if (!page) throw new Error("RowWriter.row called before start");
    return page;
  }
}

async function renderPages(pages: BankPage[], title: string): Promise<Uint8Array> {
  const { pdf, fonts } = await openDocument(title);
  pages.forEach((bankPage, index) => {
    const page = pdf.addPage(LETTER);
    drawItems(page, fonts.body, [
      ...bankPage.items,
      { text: `Page ${index + 1} of ${pages.length}`, x: 560, y: 30, size: 7, right: true },
    ]);
  });
  return save(pdf);
}

function sum(entries: Entry[], sign: 1 | -1): number {
  return entries
    .filter((entry) => Math.sign(entry.amount) === sign)
    .reduce((total, e) => total + e.amount, 0);
}

/**
 * A national bank's checking statement: "Statement Period 12/15/2025 to 01/14/2026" and the primary
 * account beside the bank's name, a checking summary with Previous/New balance and total service
 * charges, one signed amount column with a running balance, descriptions wrapping onto a second
 * line, and the overdraft and returned-item fee totals table at the end.
 */
async function nationalBank(statement: Statement): Promise<Uint8Array> {
  const periodText = `Statement Period ${usDate(statement.start)} to ${usDate(statement.end)}`;
  const writer = new RowWriter((page) => {
    page.items.push(
      { text: periodText, x: 40, y: 760, size: 8 },
      { text: `Primary Account: ${statement.account}`, x: 380, y: 760, size: 8 },
      { text: "TRANSACTION DETAIL (continued)", x: 40, y: 736, size: 9 },
      ...columnHeads(720),
    );
    return 706;
  });
  function columnHeads(y: number): Item[] {
    return [
      { text: "DATE", x: 40, y, size: 7 },
      { text: "DESCRIPTION", x: 82, y, size: 7 },
      { text: "AMOUNT", x: 470, y, size: 7, right: true },
      { text: "BALANCE", x: 560, y, size: 7, right: true },
    ];
  }
  const first: BankPage = { items: [] };
  const fees = statement.entries.filter((entry) => entry.kind === "fee" || entry.kind === "service");
  const deposits = sum(statement.entries, 1);
  const withdrawals = statement.entries.filter((entry) => entry.amount < 0 && entry.kind !== "fee");
  const closing = statement.entries.reduce((balance, entry) => balance + entry.amount, statement.opening);
  first.items.push(
    { text: "CASCADIA NATIONAL BANK", x: 40, y: 756, size: 13 },
    { text: "P O Box 182051", x: 40, y: 742, size: 7 },
    { text: "Columbus, OH 43218-2051", x: 40, y: 733, size: 7 },
    { text: periodText, x: 360, y: 756, size: 8 },
    { text: `Primary Account: ${statement.account}`, x: 360, y: 744, size: 8 },
    { text: "00014592 DRE 703 219 04826 NNNNNNNNNNN   1 000000000 64 0000", x: 40, y: 700, size: 5 },
    ...statement.holders.map((name, index) => ({ text: name, x: 40, y: 688 - index * 10, size: 8 })),
    { text: "1457 ALDER CREST DR", x: 40, y: 688 - statement.holders.length * 10, size: 8 },
    { text: "SPOKANE WA 99203-4410", x: 40, y: 678 - statement.holders.length * 10, size: 8 },
    { text: "CUSTOMER SERVICE INFORMATION", x: 360, y: 712, size: 7 },
    { text: "Web site:        cascadianational.com", x: 360, y: 702, size: 7 },
    { text: "Service Center:  1-800-555-0142", x: 360, y: 693, size: 7 },
    { text: "Para Espanol:    1-888-555-0199", x: 360, y: 684, size: 7 },
    { text: "International Calls:  1-713-555-0120", x: 360, y: 675, size: 7 },
    { text: "CHECKING SUMMARY", x: 40, y: 640, size: 9 },
    { text: "Total Checking", x: 160, y: 640, size: 8 },
    { text: "INSTANCES", x: 380, y: 628, size: 6, right: true },
    { text: "AMOUNT", x: 470, y: 628, size: 6, right: true },
  );
  const summary: Array<[string, string, string]> = [
    ["Previous Balance", "", `$${money(statement.opening)}`],
    ["Deposits and Additions", String(statement.entries.filter((e) => e.amount > 0).length), money(deposits)],
    ["Electronic Withdrawals", String(withdrawals.length), `-${money(sum(withdrawals, -1))}`],
    ["Total service charges", String(fees.length), fees.length ? `-${money(sum(fees, -1))}` : "0.00"],
    ["New Balance", "", `$${money(closing)}`],
  ];
  summary.forEach(([label, count, amount], index) => {
    const y = 616 - index * 11;
    first.items.push({ text: label, x: 40, y, size: 8 });
    if (count) first.items.push({ text: count, x: 380, y, size: 8, right: true });
    first.items.push({ text: amount, x: 470, y, size: 8, right: true });
  });
  first.items.push({ text: "TRANSACTION DETAIL", x: 40, y: 540, size: 9 }, ...columnHeads(526));
  writer.start(first, 512);
  let balance = statement.opening;
  {
    const { page, y } = writer.row(11);
    page.items.push(
      { text: "Beginning Balance", x: 82, y, size: 8 },
      { text: `$${money(balance)}`, x: 560, y, size: 8, right: true },
    );
  }
  for (const entry of statement.entries) {
    balance += entry.amount;
    const { page, y } = writer.row(11 * entry.description.length + 2);
    page.items.push(
      { text: monthDay(entry.date), x: 40, y, size: 8 },
      { text: `${entry.amount < 0 ? "-" : ""}${money(entry.amount)}`, x: 470, y, size: 8, right: true },
      { text: money(balance), x: 560, y, size: 8, right: true },
      ...entry.description.map((text, index) => ({ text, x: 82, y: y - index * 10, size: 8 })),
    );
  }
  {
    const { page, y } = writer.row(30);
    page.items.push(
      { text: "Ending Balance", x: 82, y, size: 8 },
      { text: `$${money(balance)}`, x: 560, y, size: 8, right: true },
    );
  }
  const returnedItemFees = sum(
    fees.filter((fee) => /returned|insufficient|nsf/i.test(fee.description.join(" "))),
    -1,
  );
  const overdraftFees = sum(
    fees.filter((fee) => /overdraft|od item/i.test(fee.description.join(" "))),
    -1,
  );
  {
    const { page, y } = writer.row(60);
    page.items.push(
      { text: "OVERDRAFT AND RETURNED ITEM FEE SUMMARY", x: 40, y, size: 8 },
      { text: "Total for This Period", x: 390, y: y - 12, size: 7, right: true },
      { text: "Total Year-to-Date", x: 500, y: y - 12, size: 7, right: true },
      { text: "Total Overdraft Fees", x: 40, y: y - 24, size: 8 },
      { text: `$${money(overdraftFees)}`, x: 390, y: y - 24, size: 8, right: true },
      { text: `$${money(overdraftFees)}`, x: 500, y: y - 24, size: 8, right: true },
      { text: "Total Returned Item Fees", x: 40, y: y - 35, size: 8 },
      { text: `$${money(returnedItemFees)}`, x: 390, y: y - 35, size: 8, right: true },
      { text: `$${money(returnedItemFees)}`, x: 500, y: y - 35, size: 8, right: true },
    );
  }
  return renderPages(writer.pages, "Checking statement");
}

/**
 * A credit union's statement with Spanish/English headings: savings (share 00) and share draft
 * checking (share 10) of one membership, "Account ending 4321", withdrawals and deposits in
 * separate columns, a Courtesy Pay fee schedule in the disclosures.
 */
async function creditUnion(statement: Statement): Promise<Uint8Array> {
  const period = `${usDate(statement.start)} - ${usDate(statement.end)}`;
  const writer = new RowWriter((page) => {
    page.items.push(
      {
        text: `${statement.holders[0]}  -  Cuenta terminada en / Account ending ${statement.account}`,
        x: 40,
        y: 760,
        size: 7,
      },
      { text: `Período / Period ${period}`, x: 400, y: 760, size: 7 },
    );
    return 730;
  });
  const first: BankPage = { items: [] };
  first.items.push(
    { text: "Valle Community Credit Union", x: 40, y: 756, size: 13 },
    { text: "Cooperativa de Ahorro y Crédito del Valle", x: 40, y: 744, size: 8 },
    { text: "PO Box 4410, Yakima, WA 98909  -  509-555-0170", x: 40, y: 734, size: 7 },
    { text: "Estado de cuenta / Account Statement", x: 360, y: 756, size: 10 },
    { text: `Período del estado / Statement Period: ${period}`, x: 360, y: 742, size: 7 },
    { text: `Cuenta terminada en / Account ending ${statement.account}`, x: 360, y: 732, size: 7 },
    { text: `Socio principal / Primary member: ${statement.holders[0]}`, x: 360, y: 722, size: 7 },
    ...statement.holders.map((name, index) => ({ text: name, x: 60, y: 690 - index * 10, size: 8 })),
    { text: "1457 ALDER CREST DR", x: 60, y: 690 - statement.holders.length * 10, size: 8 },
    { text: "SPOKANE WA 99203", x: 60, y: 680 - statement.holders.length * 10, size: 8 },
  );
  const shares = [
    { key: "savings" as const, title: "AHORROS / SHARE SAVINGS - ID 00", opening: 500 },
    {
      key: "draft" as const,
      title: "CHEQUES DE ACCIONES / SHARE DRAFT CHECKING - ID 10",
      opening: statement.opening,
    },
  ];
  const heads = [
    ["Cuenta / Account", 40, false],
    ["Saldo anterior / Previous balance", 300, true],
    ["Depósitos / Deposits", 390, true],
    ["Retiros / Withdrawals", 475, true],
    ["Saldo nuevo / New balance", 565, true],
  ] as const;
  first.items.push({ text: "Resumen / Summary", x: 40, y: 630, size: 9 });
  for (const [text, x, right] of heads) first.items.push({ text, x, y: 618, size: 6, right });
  shares.forEach((share, index) => {
    const entries = statement.entries.filter((entry) => (entry.share ?? "draft") === share.key);
    const y = 606 - index * 11;
    const closing = entries.reduce((total, entry) => total + entry.amount, share.opening);
    first.items.push(
      { text: share.key === "savings" ? "Share Savings 00" : "Share Draft 10", x: 40, y, size: 8 },
      { text: money(share.opening), x: 300, y, size: 8, right: true },
      { text: money(sum(entries, 1)), x: 390, y, size: 8, right: true },
      { text: money(sum(entries, -1)), x: 475, y, size: 8, right: true },
      { text: money(closing), x: 565, y, size: 8, right: true },
    );
  });
  writer.start(first, 570);
  for (const share of shares) {
    const entries = statement.entries.filter((entry) => (entry.share ?? "draft") === share.key);
    {
      const { page, y } = writer.row(28);
      page.items.push(
        { text: share.title, x: 40, y, size: 9 },
        { text: "Fecha / Date", x: 40, y: y - 13, size: 6 },
        { text: "Descripción / Description", x: 100, y: y - 13, size: 6 },
        { text: "Retiros / Withdrawals", x: 410, y: y - 13, size: 6, right: true },
        { text: "Depósitos / Deposits", x: 490, y: y - 13, size: 6, right: true },
        { text: "Saldo / Balance", x: 565, y: y - 13, size: 6, right: true },
      );
    }
    let balance = share.opening;
    {
      const { page, y } = writer.row(11);
      page.items.push(
        { text: "Saldo anterior / Previous balance", x: 100, y, size: 8 },
        { text: money(balance), x: 565, y, size: 8, right: true },
      );
    }
    for (const entry of entries) {
      balance += entry.amount;
      const { page, y } = writer.row(10 * entry.description.length + 1);
      page.items.push(
        { text: monthDay(entry.date), x: 40, y, size: 8 },
        ...entry.description.map((text, index) => ({ text, x: 100, y: y - index * 10, size: 8 })),
        { text: money(entry.amount), x: entry.amount < 0 ? 410 : 490, y, size: 8, right: true },
        { text: money(balance), x: 565, y, size: 8, right: true },
      );
    }
    {
      const { page, y } = writer.row(20);
      page.items.push(
        { text: "Saldo nuevo / New balance", x: 100, y, size: 8 },
        { text: money(balance), x: 565, y, size: 8, right: true },
      );
    }
  }
  const overdraft = sum(
    statement.entries.filter((entry) => entry.kind === "fee"),
    -1,
  );
  {
    const { page, y } = writer.row(70);
    page.items.push(
      {
        text: "Total de cargos por sobregiro y artículos devueltos / Total overdraft and returned item fees",
        x: 40,
        y,
        size: 7,
      },
      { text: "Este período / This period", x: 40, y: y - 11, size: 7 },
      { text: `$${money(overdraft)}`, x: 200, y: y - 11, size: 7, right: true },
      { text: "En el año / Year-to-date", x: 260, y: y - 11, size: 7 },
      { text: `$${money(overdraft)}`, x: 420, y: y - 11, size: 7, right: true },
      {
        text: "Courtesy Pay / Pago de cortesía: we may pay items that overdraw your share draft account. A $29.00 fee",
        x: 40,
        y: y - 30,
        size: 6,
      },
      {
        text: "applies per item paid or returned; see the Fee Schedule. / Se aplica un cargo de $29.00 por artículo.",
        x: 40,
        y: y - 38,
        size: 6,
      },
    );
  }
  return renderPages(writer.pages, "Estado de cuenta / Account statement");
}

/**
 * A fintech app's statement: the month as a title and the dates as "Jan 1, 2026 – Jan 31, 2026"
 * without a label, the holder in title case, a masked account number beside a routing number,
 * summary figures under their headings, signed "+$"/"-$" amounts with a type column.
 */
async function fintech(statement: Statement): Promise<Uint8Array> {
  const range = `${shortMonth(statement.start)} ${statement.start.d}, ${statement.start.y} – ${shortMonth(statement.end)} ${statement.end.d}, ${statement.end.y}`;
  const signed = (value: number) => `${value < 0 ? "-" : "+"}$${money(value)}`;
  const writer = new RowWriter((page) => {
    page.items.push(
      {
        text: `${monthName(statement.end)} ${statement.end.y} statement  ·  ${range}`,
        x: 40,
        y: 760,
        size: 7,
      },
      { text: `Checking ••${statement.account}`, x: 470, y: 760, size: 7 },
    );
    return 730;
  });
  const closing = statement.entries.reduce((balance, entry) => balance + entry.amount, statement.opening);
  const first: BankPage = { items: [] };
  first.items.push(
    { text: "lumen", x: 40, y: 750, size: 20 },
    {
      text: "Lumen Financial Technologies, Inc. is a financial technology company, not a bank. Banking services",
      x: 40,
      y: 734,
      size: 6,
    },
    { text: "provided by Evergreen Pacific Bank, N.A.; Member FDIC.", x: 40, y: 727, size: 6 },
    { text: `${monthName(statement.end)} ${statement.end.y}`, x: 400, y: 752, size: 16 },
    { text: range, x: 400, y: 736, size: 9 },
    ...statement.holders.map((name, index) => ({ text: name, x: 40, y: 696 - index * 11, size: 9 })),
    { text: "1457 Alder Crest Dr", x: 40, y: 696 - statement.holders.length * 11, size: 9 },
    { text: "Spokane, WA 99203", x: 40, y: 685 - statement.holders.length * 11, size: 9 },
    { text: "Account details", x: 360, y: 700, size: 9 },
    { text: "Checking account", x: 360, y: 688, size: 8 },
    { text: "Account number", x: 360, y: 676, size: 8 },
    { text: `••••••••${statement.account}`, x: 460, y: 676, size: 8 },
    { text: "Routing number", x: 360, y: 664, size: 8 },
    { text: "121145307", x: 460, y: 664, size: 8 },
  );
  const figures: Array<[string, string]> = [
    ["Starting balance", `$${money(statement.opening)}`],
    ["Money in", signed(sum(statement.entries, 1))],
    ["Money out", signed(sum(statement.entries, -1))],
    ["Ending balance", `$${money(closing)}`],
  ];
  figures.forEach(([label, value], index) => {
    first.items.push(
      { text: label, x: 40 + index * 135, y: 626, size: 7 },
      { text: value, x: 40 + index * 135, y: 612, size: 11 },
    );
  });
  first.items.push(
    { text: "Transactions", x: 40, y: 582, size: 11 },
    { text: "Date", x: 40, y: 566, size: 7 },
    { text: "Description", x: 90, y: 566, size: 7 },
    { text: "Type", x: 340, y: 566, size: 7 },
    { text: "Amount", x: 480, y: 566, size: 7, right: true },
    { text: "Balance", x: 565, y: 566, size: 7, right: true },
  );
  writer.start(first, 550);
  let balance = statement.opening;
  for (const entry of statement.entries) {
    balance += entry.amount;
    const { page, y } = writer.row(14);
    page.items.push(
      { text: `${shortMonth(entry.date)} ${entry.date.d}`, x: 40, y, size: 8 },
      { text: entry.description.join(" "), x: 90, y, size: 8 },
      { text: entry.kind ?? (entry.amount > 0 ? "Deposit" : "Card"), x: 340, y, size: 8 },
      { text: signed(entry.amount), x: 480, y, size: 8, right: true },
      { text: `$${money(balance)}`, x: 565, y, size: 8, right: true },
    );
  }
  {
    const { page, y } = writer.row(30);
    page.items.push({
      text: "Questions about your statement? Message us in the app. Deposits are FDIC insured up to $250,000 through Evergreen Pacific Bank, N.A.",
      x: 40,
      y: y - 12,
      size: 6,
    });
  }
  return renderPages(writer.pages, "Lumen statement");
}

// ---------------------------------------------------------------- activity

type Extra = Entry;

/** A month of ordinary activity for one layout, plus the case's extra lines, in date order. */
function activity(
  style: "national" | "union" | "fintech",
  start: Day,
  extras: Extra[],
  holder = "John A Smith Jr",
): Entry[] {
  const at = (days: number) => addDays(start, days);
  const base: Entry[] =
    style === "national"
      ? [
          {
            date: at(4),
            description: [
              "Orig CO Name:Harbor Roofing Co Orig ID:9101234567 Desc Date:Payroll",
              `CO Entry Descr:Payroll Sec:PPD Trace#:021000021234567 Ind Name:${holder}`,
            ],
            amount: 2650,
          },
          { date: at(6), description: ["Check # 1041"], amount: -2950, kind: "check" },
          {
            date: at(9),
            description: [
              `Card Purchase With Pin ${monthDay(at(9))} Fred-Meyer #0214 Spokane WA`,
              "Card 7781",
            ],
            amount: -184.32,
          },
          { date: at(12), description: ["Avista Utilities Web Pmt PPD ID: 5910012345"], amount: -142.77 },
          {
            date: at(18),
            description: [
              "Orig CO Name:Harbor Roofing Co Orig ID:9101234567 Desc Date:Payroll",
              `CO Entry Descr:Payroll Sec:PPD Trace#:021000028765432 Ind Name:${holder}`,
            ],
            amount: 2650,
          },
          { date: at(21), description: ["Zelle Payment To Kevin Lund Jpm99b8xk2"], amount: -300 },
          { date: at(25), description: ["Monthly Service Fee"], amount: -12, kind: "service" },
        ]
      : style === "union"
        ? [
            { date: at(2), description: ["ACH DEP WAVERLY ORCHARDS PAYROLL"], amount: 2480 },
            { date: at(5), description: ["SHARE DRAFT #2291"], amount: -1875 },
            { date: at(9), description: ["POS DEBIT SAFEWAY #1490 YAKIMA WA"], amount: -96.41 },
            { date: at(16), description: ["ACH DEP WAVERLY ORCHARDS PAYROLL"], amount: 2480 },
            { date: at(19), description: ["SHARE DRAFT #2292"], amount: -640 },
            { date: at(22), description: ["ACH DEBIT PACIFIC POWER UTIL PMT"], amount: -118.3 },
            { date: at(27), description: ["DIVIDEND / DIVIDENDO"], amount: 0.21, share: "savings" },
          ]
        : [
            { date: at(1), description: ["Gusto payroll · HARBOR ROOFING CO"], amount: 2680, kind: "ACH in" },
            { date: at(3), description: ["Rent · Cedar Property Mgmt"], amount: -1650, kind: "ACH out" },
            { date: at(8), description: ["Trader Joe's #142"], amount: -88.19, kind: "Card" },
            {
              date: at(15),
              description: ["Gusto payroll · HARBOR ROOFING CO"],
              amount: 2680,
              kind: "ACH in",
            },
            { date: at(17), description: ["Round-up to Savings"], amount: -6.4, kind: "Transfer" },
            { date: at(22), description: ["Verizon Wireless"], amount: -91.5, kind: "Card" },
            { date: at(27), description: ["Interest paid"], amount: 0.84, kind: "Interest" },
          ];
  return [...base, ...extras].sort(
    (a, b) => Date.UTC(a.date.y, a.date.m - 1, a.date.d) - Date.UTC(b.date.y, b.date.m - 1, b.date.d),
  );
}

const BORROWER = { name: "John Smith Jr.", monthly_income: 6000 };

function bankMetadata(asOf: string, borrower: Record<string, unknown> = BORROWER): Record<string, unknown> {
  return {
    loan_program: "Flex Supreme",
    classification: "Bank Statements",
    as_of_date: asOf,
    borrower_info: borrower,
  };
}

function bankLabels(overrides: Partial<Record<string, Label>>, omit: string[] = []): Record<string, Label> {
  const labels: Record<string, Label> = {
    BS_TWO_MONTHS: "fulfilled",
    BS_NAME_MATCH: "fulfilled",
    BS_SAME_ACCOUNT: "fulfilled",
    BS_NO_NSF: "fulfilled",
    BS_LARGE_DEPOSITS: "fulfilled",
  };
  for (const [id, label] of Object.entries(overrides)) if (label) labels[id] = label;
  for (const id of omit) delete labels[id];
  return labels;
}

interface BankCase {
  description: string;
  asOf: string;
  statements: Statement[];
  labels: Record<string, Label>;
}

async function bankCases(
  layout: string,
  render: (statement: Statement) => Promise<Uint8Array>,
  cases: BankCase[],
): Promise<LabelledCase[]> {
  return Promise.all(
    cases.map(async (entry, caseIndex) => ({
      layout,
      description: entry.description,
      metadata: bankMetadata(entry.asOf),
      labels: entry.labels,
      documents: await Promise.all(
        entry.statements.map(
          async (statement, index): Promise<SampleDocument> => ({
            key: `holdout/${layout}/case-${caseIndex + 1}/statement-${index + 1}.pdf`,
            bytes: await render(statement),
            description: `${layout}: ${usDate(statement.start)} - ${usDate(statement.end)}`,
          }),
        ),
      ),
    })),
  );
}

// ---------------------------------------------------------------- the cases

async function nationalBankCases(): Promise<LabelledCase[]> {
  const JOHN = ["JOHN A SMITH JR"];
  const ACCOUNT = "000123454321";
  const month = (
    start: Day,
    end: Day,
    extras: Extra[] = [],
    holders = JOHN,
    account = ACCOUNT,
  ): Statement => ({
    holders,
    account,
    start,
    end,
    opening: 4210.55,
    entries: activity("national", start, extras, holders[0]),
  });
  const dec = [day(2025, 12, 15), day(2026, 1, 14)] as const;
  const jan = [day(2026, 1, 15), day(2026, 2, 14)] as const;
  const oct = [day(2025, 10, 15), day(2025, 11, 14)] as const;
  const wire: Extra = {
    date: day(2025, 12, 29),
    description: [
      "Fedwire Credit Via: Pacific Premier Bank/122238200 B/O: Smith Family Trust Spokane WA",
      "Ref: Chase Nyc/Ctr/Bnf=John A Smith Jr Imad: 1229Mmqfmp9G000456 Trn: 3311408363Ff",
    ],
    amount: 12500,
  };
  const nsf: Extra = {
    date: day(2026, 2, 3),
    description: ["Insufficient Funds Fee For A $214.30 Item - Details: Check # 1043"],
    amount: -34,
    kind: "fee",
  };
  return bankCases("holdout-national-bank-running-balance", nationalBank, [
    {
      description:
        "two mid-month cycles, payroll wrapped over two lines, a monthly service fee, a large check",
      asOf: "2026-03-20",
      statements: [month(...dec), month(...jan)],
      labels: bankLabels({}),
    },
    {
      description: "a wrapped Fedwire credit of 12,500 and an 'Insufficient Funds Fee For A $214.30 Item'",
      asOf: "2026-03-20",
      statements: [month(...dec, [wire]), month(...jan, [nsf])],
      labels: bankLabels({ BS_NO_NSF: "not_fulfilled", BS_LARGE_DEPOSITS: "not_fulfilled" }),
    },
    {
      description: "the second statement is another primary account",
      asOf: "2026-03-20",
      statements: [month(...dec), month(...jan, [], JOHN, "000987658812")],
      labels: bankLabels({ BS_SAME_ACCOUNT: "not_fulfilled" }),
    },
    {
      description: "statements of JOHN A SMITH SR, the borrower's father",
      asOf: "2026-03-20",
      statements: [month(...dec, [], ["JOHN A SMITH SR"]), month(...jan, [], ["JOHN A SMITH SR"])],
      labels: bankLabels({ BS_NAME_MATCH: "not_fulfilled" }),
    },
    {
      description: "the 11/15 - 12/14 cycle is missing between the two statements",
      asOf: "2026-03-01",
      statements: [month(...oct), month(...dec)],
      labels: bankLabels({ BS_TWO_MONTHS: "not_fulfilled" }),
    },
  ]);
}

async function creditUnionCases(): Promise<LabelledCase[]> {
  const JOINT = ["JOHN A SMITH JR", "MARIA L SMITH"];
  const month = (
    start: Day,
    end: Day,
    extras: Extra[] = [],
    holders = JOINT,
    account = "4321",
  ): Statement => ({
    holders,
    account,
    start,
    end,
    opening: 1320.4,
    entries: activity("union", start, extras),
  });
  const jan = [day(2026, 1, 1), day(2026, 1, 31)] as const;
  const feb = [day(2026, 2, 1), day(2026, 2, 28)] as const;
  const protection: Extra[] = [
    {
      date: day(2026, 2, 6),
      description: ["OVERDRAFT PROTECTION TRANSFER FROM SAV", "TRANSFERENCIA DE PROTECCION DE SOBREGIRO"],
      amount: 150,
    },
    {
      date: day(2026, 2, 6),
      description: ["OVERDRAFT PROTECTION TRANSFER TO DRAFT 10"],
      amount: -150,
      share: "savings",
    },
  ];
  const odFee: Extra = {
    date: day(2026, 2, 6),
    description: ["OD ITEM FEE  SHARE DRAFT #2304", "CARGO POR SOBREGIRO"],
    amount: -29,
    kind: "fee",
  };
  const branchDeposit: Extra = {
    date: day(2026, 1, 12),
    description: ["DEPOSITO EN SUCURSAL / BRANCH DEPOSIT"],
    amount: 3600,
  };
  return bankCases("holdout-credit-union-bilingual", creditUnion, [
    {
      description:
        "joint members, share savings and share drafts, an overdraft protection transfer without a fee",
      asOf: "2026-03-25",
      statements: [month(...jan), month(...feb, protection)],
      labels: bankLabels({}),
    },
    {
      description: "an OD ITEM FEE on a share draft and a 3,600 branch deposit",
      asOf: "2026-03-25",
      statements: [month(...jan, [branchDeposit]), month(...feb, [odFee])],
      labels: bankLabels({ BS_NO_NSF: "not_fulfilled", BS_LARGE_DEPOSITS: "not_fulfilled" }),
    },
    {
      description: "the February statement is of another membership, ending 7790",
      asOf: "2026-03-25",
      statements: [month(...jan), month(...feb, [], JOINT, "7790")],
      labels: bankLabels({ BS_SAME_ACCOUNT: "not_fulfilled" }),
    },
    {
      description: "statements of MARIA L SMITH alone",
      asOf: "2026-03-25",
      statements: [month(...jan, [], ["MARIA L SMITH"]), month(...feb, [], ["MARIA L SMITH"])],
      labels: bankLabels({ BS_NAME_MATCH: "not_fulfilled" }),
    },
    {
      description: "only the February statement",
      asOf: "2026-03-25",
      statements: [month(...feb)],
      labels: bankLabels({ BS_TWO_MONTHS: "not_fulfilled" }, ["BS_SAME_ACCOUNT"]),
    },
  ]);
}

async function fintechCases(): Promise<LabelledCase[]> {
  const JOHN = ["John A. Smith Jr."];
  const month = (
    start: Day,
    end: Day,
    extras: Extra[] = [],
    holders = JOHN,
    account = "4321",
  ): Statement => ({
    holders,
    account,
    start,
    end,
    opening: 3102.44,
    entries: activity("fintech", start, extras),
  });
  const jan = [day(2026, 1, 1), day(2026, 1, 31)] as const;
  const feb = [day(2026, 2, 1), day(2026, 2, 28)] as const;
  const oct = [day(2025, 10, 1), day(2025, 10, 31)] as const;
  const nov = [day(2025, 11, 1), day(2025, 11, 30)] as const;
  const crypto: Extra = {
    date: day(2026, 2, 10),
    description: ["Transfer from Coinbase"],
    amount: 7500,
    kind: "ACH in",
  };
  const returned: Extra[] = [
    {
      date: day(2026, 1, 20),
      description: ["Returned deposit item · Mobile check #118"],
      amount: -400,
      kind: "Adjustment",
    },
    { date: day(2026, 1, 20), description: ["Returned item fee"], amount: -15, kind: "Fee" },
  ];
  return bankCases("holdout-fintech-signed-amounts", fintech, [
    {
      description: "two calendar months, payroll twice a month, round-ups and interest",
      asOf: "2026-03-20",
      statements: [month(...jan), month(...feb)],
      labels: bankLabels({}),
    },
    {
      description: "a returned mobile deposit with its returned item fee, and a 7,500 transfer from Coinbase",
      asOf: "2026-03-20",
      statements: [month(...jan, returned), month(...feb, [crypto])],
      labels: bankLabels({ BS_NO_NSF: "not_fulfilled", BS_LARGE_DEPOSITS: "not_fulfilled" }),
    },
    {
      description: "the February statement is of the checking account ending 0457",
      asOf: "2026-03-20",
      statements: [month(...jan), month(...feb, [], JOHN, "0457")],
      labels: bankLabels({ BS_SAME_ACCOUNT: "not_fulfilled" }),
    },
    {
      description: "statements of Julia R. Smith",
      asOf: "2026-03-20",
      statements: [month(...jan, [], ["Julia R. Smith"]), month(...feb, [], ["Julia R. Smith"])],
      labels: bankLabels({ BS_NAME_MATCH: "not_fulfilled" }),
    },
    {
      description:
        "October and November statements, the latest ending more than 60 days before the as-of date",
      asOf: "2026-03-20",
      statements: [month(...oct), month(...nov)],
      labels: bankLabels({ BS_TWO_MONTHS: "not_fulfilled" }),
    },
  ]);
}

const TAX_LABELS: Record<string, Label> = {
  TR_SIGNED: "fulfilled",
  TR_TAX_YEAR: "fulfilled",
  TR_EIN_MATCH: "fulfilled",
  TR_NAME_MATCH: "fulfilled",
  TR_COMPLETE: "fulfilled",
};

function taxMetadata(
  asOf: string,
  businessName: string,
  ein: string,
  taxYear: number,
): Record<string, unknown> {
  return {
    loan_program: "Flex Supreme",
    classification: "1120 Corporate Tax Return",
    as_of_date: asOf,
    borrower_info: { name: "Maria T. Alvarez", business_name: businessName, monthly_income: 15000 },
    extracted_entities: { ein, tax_year: taxYear },
  };
}

async function efileCases(): Promise<LabelledCase[]> {
  const layout = "holdout-1120-efile-client-copy";
  const base: ReturnFacts = {
    name: "Northwind Harbor Logistics, Inc.",
    ein: "84-1234567",
    formYear: 2024,
    officer: "Maria T. Alvarez",
    title: "President",
    signed: true,
    signDate: "03/30/2025",
    pageOne: true,
    scheduleL: true,
  };
  const metadata = taxMetadata("2025-06-02", "Northwind Harbor Logistics Inc", "84-1234567", 2024);
  const variants: Array<[string, Partial<ReturnFacts>, Record<string, Label>]> = [
    ["signed and complete, Form 8879-CORP in front", {}, TAX_LABELS],
    [
      "officer's signature and date blank (8879 too), Schedule L left out; the ERO and preparer signed",
      { signed: false, scheduleL: false },
      { ...TAX_LABELS, TR_SIGNED: "not_fulfilled", TR_COMPLETE: "not_fulfilled" },
    ],
    [
      "the 2023 return, EIN printed 84-1234576",
      { formYear: 2023, ein: "84-1234576", signDate: "04/01/2024" },
      { ...TAX_LABELS, TR_TAX_YEAR: "not_fulfilled", TR_EIN_MATCH: "not_fulfilled" },
    ],
    [
      "the return of Northwind Harbor Holdings, Inc.",
      { name: "Northwind Harbor Holdings, Inc." },
      { ...TAX_LABELS, TR_NAME_MATCH: "not_fulfilled" },
    ],
    [
      "page 1 of the Form 1120 left out (8879, Schedules K and L only)",
      { pageOne: false },
      { TR_COMPLETE: "not_fulfilled" },
    ],
  ];
  return Promise.all(
    variants.map(async ([description, change, labels], index) => ({
      layout,
      description,
      metadata,
      labels,
      documents: [
        {
          key: `holdout/${layout}/case-${index + 1}/return.pdf`,
          bytes: await efileClientCopy({ ...base, ...change }, "1,284,330"),
          description: `${layout}: ${description}`,
        },
      ],
    })),
  );
}

async function cpaCopyCases(): Promise<LabelledCase[]> {
  const layout = "holdout-1120-fiscal-cpa-copy";
  const base: ReturnFacts = {
    name: "Keystone Orchard Supply Co.",
    ein: "23-4567891",
    formYear: 2024,
    fiscal: { begins: "JUL 1, 2024", ends: "JUN 30, 2025" },
    officer: "Wei Chen",
    title: "Treasurer",
    signed: true,
    signDate: "September 12, 2025",
    pageOne: true,
    scheduleL: true,
  };
  const metadata = taxMetadata("2025-10-20", "Keystone Orchard Supply Co", "23-4567891", 2024);
  const variants: Array<[string, Partial<ReturnFacts>, Record<string, Label>]> = [
    ["fiscal year beginning JUL 1, 2024, signed, behind a transmittal letter", {}, TAX_LABELS],
    [
      "officer's signature and date blank; title printed, preparer signed and dated",
      { signed: false },
      { ...TAX_LABELS, TR_SIGNED: "not_fulfilled" },
    ],
    [
      "fiscal year beginning JUL 1, 2023 (form 2023), EIN 23-4567819, Keystone Orchard Holdings Inc",
      {
        formYear: 2023,
        fiscal: { begins: "JUL 1, 2023", ends: "JUN 30, 2024" },
        ein: "23-4567819",
        name: "Keystone Orchard Holdings Inc",
        signDate: "September 10, 2024",
      },
      {
        ...TAX_LABELS,
        TR_TAX_YEAR: "not_fulfilled",
        TR_EIN_MATCH: "not_fulfilled",
        TR_NAME_MATCH: "not_fulfilled",
      },
    ],
    [
      "Schedule L left out although the letter lists it",
      { scheduleL: false },
      { ...TAX_LABELS, TR_COMPLETE: "not_fulfilled" },
    ],
  ];
  return Promise.all(
    variants.map(async ([description, change, labels], index) => ({
      layout,
      description,
      metadata,
      labels,
      documents: [
        {
          key: `holdout/${layout}/case-${index + 1}/return.pdf`,
          bytes: await cpaFirmCopy({ ...base, ...change }, "410 Cider Mill Lane", "Hood River, OR 97031"),
          description: `${layout}: ${description}`,
        },
      ],
    })),
  );
}

/** Every held-out case: the two Form 1120 prints first, then the three bank layouts. */
export async function holdoutCases(): Promise<LabelledCase[]> {
  return [
    ...(await efileCases()),
    ...(await cpaCopyCases()),
    ...(await nationalBankCases()),
    ...(await creditUnionCases()),
    ...(await fintechCases()),
  ];
}
