// Held-out Form 1120 print 1: an e-filed client copy with its Form 8879-CORP in front; and its cases.

import { StandardFonts } from "pdf-lib";
import { drawItems, type Item, LETTER, save } from "../../samples.ts";
import type { Label, LabelledCase } from "../cases.ts";
import { openDocument, watermark } from "./drawing.ts";
import {
  type ReturnFacts,
  scheduleKContinued,
  scheduleLPage,
  TAX_LABELS,
  taxMetadata,
} from "./return-pages.ts";

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

export async function efileCases(): Promise<LabelledCase[]> {
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
