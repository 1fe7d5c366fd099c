// Held-out Form 1120 print 2: a CPA firm's copy of a fiscal-year return behind a transmittal letter;
// and its cases.
import { drawItems, type Item, LETTER, save } from "../../samples.ts";
import type { Label, LabelledCase } from "../cases.ts";
import { openDocument } from "./drawing.ts";
import {
  type ReturnFacts,
  scheduleKContinued,
  scheduleLPage,
  TAX_LABELS,
  taxMetadata,
} from "./return-pages.ts";

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

// ---------------------------------------------------------------- its cases

export async function cpaCopyCases(): Promise<LabelledCase[]> {
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
