// Second held-out Form 1120 print 2: page 1 after a long federal statement set, its form pages scanned
// and OCRed (words broken by stray spaces), Schedules L, M-1 and M-2 on one page.
import { type Item, LETTER } from "../../samples.ts";
import { type Page, render, whole } from "./pages.ts";
import { DEDUCTION_LINES, INCOME_LINES, type ReturnSpec, SCHEDULE_L_LINES } from "./two-up-return.ts";

/** OCR of a scanned form: every other long word broken by a stray space, runs of spaces. */
export function ocr(text: string): string {
  let long = 0;
  return text
    .split(" ")
    .map((word) => {
      if (word.length < 8 || /\d/.test(word)) return word;
      long += 1;
      if (long % 2 === 0) return word;
      const cut = Math.floor(word.length / 2);
      return `${word.slice(0, cut)} ${word.slice(cut)}`;
    })
    .join("  ");
}

/**
 * A return printed by a tax package with its federal statements first (three pages headed by the
 * corporation's name and EIN, each statement citing "Form 1120, Page 1, Line …" or "Schedule L"),
 * then the scanned, signed form pages with an OCR text layer: page 1, and one page carrying
 * Schedules L, M-1 and M-2.
 */
export async function statementsFirstReturn(spec: ReturnSpec): Promise<Uint8Array> {
  const pages: Page[] = [];
  const statements: Array<[string, Array<[string, number]>]> = [
    ["Statement 1 - Form 1120, Page 1, Line 10 - Other Income", [["Insurance recoveries", 4_120]]],
    [
      "Statement 2 - Form 1120, Page 1, Line 26 - Other Deductions",
      [
        ["Accounting", 8_400],
        ["Bank charges", 1_310],
        ["Insurance", 18_920],
        ["Office expense", 6_115],
        ["Telephone", 4_880],
        ["Travel", 9_640],
        ["Utilities", 12_675],
      ],
    ],
    ["Statement 3 - Form 1120, Schedule L, Line 6 - Other Current Assets", [["Prepaid expenses", 7_450]]],
    [
      "Statement 4 - Form 1120, Schedule L, Line 18 - Other Current Liabilities",
      [
        ["Accrued payroll", 11_200],
        ["Sales tax payable", 3_340],
      ],
    ],
    [
      "Statement 5 - Form 1125-E - Compensation of Officers",
      [
        ["Marcus T. Webb  President  100% time  60% stock", 150_000],
        ["Irene Webb  Secretary  50% time  40% stock", 90_000],
      ],
    ],
    ["Statement 6 - Form 4562 - Depreciation Summary", [["MACRS 7-year property", 22_410]]],
  ];
  const perPage = 2;
  for (let index = 0; index < statements.length; index += perPage) {
    const number = index / perPage + 1;
    const items: Item[] = [
      { text: String(spec.year), x: 36, y: 756, size: 10 },
      { text: "Federal Statements", x: 306, y: 756, size: 11 },
      { text: `Page ${number}`, x: 576, y: 756, size: 9, right: true },
      { text: spec.name, x: 306, y: 742, size: 9 },
      { text: spec.ein, x: 576, y: 742, size: 9, right: true },
      { text: "Client 1042", x: 36, y: 742, size: 8 },
      { text: "2/27/2025   10:14 AM", x: 36, y: 730, size: 7 },
    ];
    let y = 700;
    for (const [title, rows] of statements.slice(index, index + perPage)) {
      items.push(
        { text: title, x: 36, y, size: 9 },
        { text: "Description", x: 56, y: y - 18, size: 8 },
        { text: "Amount", x: 540, y: y - 18, size: 8, right: true },
      );
      y -= 34;
      let total = 0;
      for (const [description, value] of rows) {
        items.push(
          { text: description, x: 56, y, size: 8 },
          { text: whole(value), x: 540, y, size: 8, right: true },
        );
        total += value;
        y -= 13;
      }
      items.push(
        { text: "Total", x: 56, y: y - 4, size: 8 },
        { text: `$ ${whole(total)}`, x: 540, y: y - 4, size: 8, right: true },
      );
      y -= 60;
    }
    pages.push({ size: LETTER, items });
  }
  if (spec.pageOne) {
    const o = ocr;
    const items: Item[] = [
      { text: "Form 1120", x: 36, y: 756, size: 15 },
      { text: o("U.S. Corporation Income Tax Return"), x: 170, y: 758, size: 12 },
      { text: String(spec.year), x: 576, y: 756, size: 15, right: true },
      { text: o("Department of the Treasury Internal Revenue Service"), x: 36, y: 740, size: 6 },
      {
        text: `${o("For calendar year")} ${spec.year} ${o("or tax year beginning")}  ,  ${spec.year}, ${o("ending")}  ,  20`,
        x: 170,
        y: 742,
        size: 7,
      },
      { text: o("A Check if:"), x: 36, y: 712, size: 7 },
      { text: "Name", x: 130, y: 712, size: 7 },
      { text: o("B Employer identification number"), x: 430, y: 712, size: 7 },
      { text: spec.name, x: 130, y: 700, size: 10 },
      { text: spec.ein, x: 430, y: 700, size: 10 },
      { text: o("Number, street, and room or suite no."), x: 130, y: 686, size: 6 },
      { text: o("C Date incorporated"), x: 430, y: 686, size: 7 },
      { text: "1 Harbor Light Way", x: 130, y: 675, size: 10 },
      { text: "09/14/2006", x: 430, y: 675, size: 10 },
      { text: o("City or town, state or province, country, and ZIP"), x: 130, y: 661, size: 6 },
      { text: o("D Total assets (see instructions)"), x: 430, y: 661, size: 7 },
      { text: "Rockland, ME 04841", x: 130, y: 650, size: 10 },
      { text: "$ 676,495", x: 430, y: 650, size: 10 },
    ];
    let y = 626;
    for (const [number, label, value] of [...INCOME_LINES, ...DEDUCTION_LINES]) {
      items.push(
        { text: number, x: 60, y, size: 7 },
        { text: o(label), x: 78, y, size: 7 },
        { text: value === 0 ? "" : whole(value), x: 576, y, size: 8, right: true },
      );
      y -= 14;
    }
    items.push(
      { text: "Sig n", x: 36, y: 260, size: 10 },
      {
        text: o(
          "Under penalties of perjury, I declare that I have examined this return, including accompanying schedules",
        ),
        x: 80,
        y: 262,
        size: 6,
      },
      { text: "Here", x: 36, y: 250, size: 10 },
      {
        text: o(
          "and statements, and to the best of my knowledge and belief, it is true, correct, and complete.",
        ),
        x: 80,
        y: 252,
        size: 6,
      },
      { text: o("Signature of officer"), x: 84, y: 220, size: 7 },
      { text: "Date", x: 300, y: 220, size: 7 },
      { text: "Title", x: 380, y: 220, size: 7 },
    );
    if (spec.signature) {
      items.push(
        { text: spec.signature.name, x: 84, y: 232, size: 11 },
        { text: spec.signature.date, x: 300, y: 232, size: 10 },
        { text: spec.signature.title, x: 380, y: 232, size: 10 },
      );
    }
    items.push(
      { text: "Paid", x: 36, y: 196, size: 9 },
      { text: o("Print/Type preparer's name"), x: 84, y: 196, size: 6 },
      { text: o("Preparer's signature"), x: 220, y: 196, size: 6 },
      { text: "Date", x: 340, y: 196, size: 6 },
      { text: "PTIN", x: 500, y: 196, size: 6 },
      { text: o("Preparer"), x: 36, y: 184, size: 9 },
      { text: "Owen Hale, EA", x: 84, y: 184, size: 9 },
      { text: "Owen Hale", x: 220, y: 184, size: 9 },
      { text: "02/27/2025", x: 340, y: 184, size: 9 },
      { text: "P01122334", x: 500, y: 184, size: 9 },
      { text: "Use Only", x: 36, y: 172, size: 9 },
      { text: o("Firm's name"), x: 84, y: 172, size: 6 },
      { text: "Hale Tax Services", x: 140, y: 172, size: 9 },
      { text: o("Firm's EIN"), x: 400, y: 172, size: 6 },
      { text: "01-5566778", x: 450, y: 172, size: 9 },
      { text: o("For Paperwork Reduction Act Notice, see separate instructions."), x: 36, y: 40, size: 7 },
      { text: `Form 1120 (${spec.year})`, x: 576, y: 40, size: 7, right: true },
    );
    pages.push({ size: LETTER, items });
  }
  // Schedules L, M-1 and M-2 share one page; without Schedule L, M-1 and M-2 still name it.
  const items: Item[] = [
    { text: `Form 1120 (${spec.year})`, x: 36, y: 760, size: 8 },
    { text: "Page 6", x: 576, y: 760, size: 8, right: true },
  ];
  let y = 736;
  if (spec.scheduleL) {
    items.push(
      { text: ocr("Schedule L Balance Sheets per Books"), x: 36, y, size: 10 },
      { text: ocr("Beginning of tax year"), x: 380, y: y - 14, size: 7 },
      { text: ocr("End of tax year"), x: 500, y: y - 14, size: 7 },
    );
    y -= 28;
    for (const [number, label, begin, end] of SCHEDULE_L_LINES) {
      items.push(
        { text: number, x: 40, y, size: 7 },
        { text: ocr(label), x: 58, y, size: 7 },
        { text: whole(begin), x: 450, y, size: 8, right: true },
        { text: whole(end), x: 576, y, size: 8, right: true },
      );
      y -= 13;
    }
    y -= 14;
  }
  items.push({
    text: ocr("Schedule M-1 Reconciliation of Income (Loss) per Books With Income per Return"),
    x: 36,
    y,
    size: 9,
  });
  y -= 16;
  for (const [number, label, value] of [
    ["1", "Net income (loss) per books", 117_789],
    ["2", "Federal income tax per books", 31_311],
    ["10", "Income (page 1, line 28) - line 6 less line 9", 149_100],
  ] as Array<[string, string, number]>) {
    items.push(
      { text: number, x: 40, y, size: 7 },
      { text: ocr(label), x: 58, y, size: 7 },
      { text: whole(value), x: 576, y, size: 8, right: true },
    );
    y -= 13;
  }
  y -= 14;
  items.push({
    text: ocr("Schedule M-2 Analysis of Unappropriated Retained Earnings per Books (Schedule L, Line 25)"),
    x: 36,
    y,
    size: 9,
  });
  y -= 16;
  for (const [number, label, value] of [
    ["1", "Balance at beginning of year", 541_744],
    ["2", "Net income (loss) per books", 117_789],
    ["5", "Distributions: a Cash", 54_071],
    ["8", "Balance at end of year (line 4 less line 7)", 605_462],
  ] as Array<[string, string, number]>) {
    items.push(
      { text: number, x: 40, y, size: 7 },
      { text: ocr(label), x: 58, y, size: 7 },
      { text: whole(value), x: 576, y, size: 8, right: true },
    );
    y -= 13;
  }
  pages.push({ size: LETTER, items });
  return render(`${spec.year} Form 1120 with federal statements - ${spec.name}`, pages);
}
