// What a document is, read from its pages: the form's title or number wherever page 1 prints it
// (flattened PDFs put it after the footer and the values), the most specific form when one number
// is a prefix of another (1120-S over 1120), statements by their period, account and balances.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildBankStatement, buildForm1120 } from "../../../examples/samples.ts";
import type { DocumentIdentification } from "../../../lambdas/agents/loan/document-kinds.ts";
import { identifyDocument } from "../../../lambdas/agents/loan/identify-document.ts";
import type { ExtractedDocument } from "../../../lambdas/agents/loan/pdf-text.ts";
import { pdf } from "./fixtures.ts";

function pages(name: string, ...texts: string[]): ExtractedDocument {
  return { document: name, page_count: texts.length, pages: texts, has_text_layer: true };
}

/** The identification, checked to quote its page verbatim. */
function identify(document: ExtractedDocument): DocumentIdentification {
  const identification = identifyDocument(document);
  if (identification.kind !== "other") {
    const page = document.pages[(identification.page ?? 0) - 1];
    expect(page, "the cited page exists").toBeDefined();
    expect(identification.excerpt).toBeTruthy();
    expect(page).toContain(identification.excerpt);
  }
  return identification;
}

const FORM_1120_PAGE_ONE = [
  "Form 1120  U.S. Corporation Income Tax Return  OMB No. 1545-0123",
  "Department of the Treasury  For calendar year 2024 or tax year beginning  , 2024, ending  , 20  2024",
  "A Check if:  Name  B Employer identification number",
  "1a Consolidated return  Acme Widgets, Inc.  12-3456789",
  "2  Cost of goods sold (attach Form 1125-A)  2  1,310,000",
  "For Paperwork Reduction Act Notice, see separate instructions.  Cat. No. 11450Q  Form 1120 (2024)",
].join("\n");

/** Page 1 of a Form 1120-S as a flattened PDF reads it: captions, the footer, then the typed values and the title. */
const FLATTENED_1120S_PAGE_ONE = [
  "Department of the Treasury",
  "Internal Revenue Service",
  "For calendar year 2024 or tax year beginning  , 2024, ending  , 20",
  "A S election effective date  Name  D Employer identification number",
  "Do not file this form unless the corporation has filed or is attaching Form 2553 to elect to be an S corporation.",
  "1a Gross receipts or sales",
  "For Paperwork Reduction Act Notice, see separate instructions.  Cat. No. 11510H",
  "Acme Widgets, Inc.",
  "12-3456789",
  "2,450,000",
  "U.S. Income Tax Return for an S Corporation",
  "Form 1120-S (2024)",
].join("\n");

const SCHEDULE_PAGE_1120S = [
  "Form 1120-S (2024)  Page 4",
  "Schedule L  Balance Sheets per Books  Beginning of tax year  End of tax year",
  "15  Total assets  1,198,350  1,284,500",
].join("\n");

describe("identifyDocument: tax forms by their title and number", () => {
  it("reads a Form 1120 from its title on page 1, not from the other forms it mentions (Form 1125-A)", () => {
    expect(identify(pages("rm/1120.pdf", FORM_1120_PAGE_ONE))).toEqual({
      kind: "form_1120",
      description: "a Form 1120 (U.S. Corporation Income Tax Return)",
      page: 1,
      excerpt: "Form 1120  U.S. Corporation Income Tax Return  OMB No. 1545-0123",
    });
  });

  it("reads a Form 1120-S whose title and number follow the footer and the values (flattened text order)", () => {
    const identification = identify(pages("rm/s-corp.pdf", FLATTENED_1120S_PAGE_ONE, SCHEDULE_PAGE_1120S));
    expect(identification.kind).toBe("form_1120s");
    expect(identification.description).toBe("a Form 1120-S (U.S. Income Tax Return for an S Corporation)");
    expect(identification.page).toBe(1);
    expect(identification.excerpt).toBe("U.S. Income Tax Return for an S Corporation");
  });

  it("prefers Form 1120-S over Form 1120 when only the number is printed (no title), and Schedule L is no clue", () => {
    const numbersOnly = [
      "Form 1120-S (2024)  Page 4",
      "Schedule K  Shareholders' Pro Rata Share Items",
      'If "Yes," the corporation is not required to complete Schedules L and M-1.',
      "Schedule L  Balance Sheets per Books",
      "15  Total assets  1,198,350  1,284,500",
      "Form 1120-S (2024)",
    ].join("\n");
    expect(identify(pages("rm/s-corp-schedules.pdf", numbersOnly))).toMatchObject({
      kind: "form_1120s",
      page: 1,
      excerpt: "Form 1120-S (2024)  Page 4",
    });
    expect(identify(pages("rm/1120s-compact.pdf", "FORM 1120S  2024  Acme Widgets, Inc.")).kind).toBe(
      "form_1120s",
    );
  });

  it("reads a flattened Form 1120 whose title comes last, after its own footer", () => {
    const flattened = [
      "For Paperwork Reduction Act Notice, see separate instructions.  Cat. No. 11450Q",
      "Form 1120 (2024)",
      "Acme Widgets, Inc.",
      "12-3456789",
      "U.S. Corporation Income Tax Return",
    ].join("\n");
    expect(identify(pages("rm/flat-1120.pdf", flattened))).toMatchObject({
      kind: "form_1120",
      excerpt: "U.S. Corporation Income Tax Return",
    });
  });

  it("reads Forms 1065 and 1040 by their titles, the number printed apart from the word Form", () => {
    const partnership = [
      "1065  U.S. Return of Partnership Income  OMB No. 1545-0123",
      "For calendar year 2024, or tax year beginning  , 2024, ending  , 20",
      "Name of partnership  Acme Partners LP",
    ].join("\n");
    expect(identify(pages("rm/1065.pdf", partnership))).toMatchObject({
      kind: "form_1065",
      description: "a Form 1065 (U.S. Return of Partnership Income)",
    });
    const individual = [
      "Department of the Treasury—Internal Revenue Service",
      "1040 U.S. Individual Income Tax Return 2024 OMB No. 1545-0074",
      "Income  1a  Total amount from Form(s) W-2, box 1 (see instructions)",
    ].join("\n");
    expect(identify(pages("rm/1040.pdf", individual))).toMatchObject({
      kind: "form_1040",
      excerpt: "1040 U.S. Individual Income Tax Return 2024 OMB No. 1545-0074",
    });
  });

  it("does not take a sibling form's number for the form (Form 1120-X, Form 1040-SR, Form 1125-A)", () => {
    const letter = [
      "Dear client,",
      "Enclosed are Form 1125-A, Form 1040-SR and Form 1120-X for your records.",
      "Please call us with any questions.",
    ].join("\n");
    expect(identify(pages("rm/letter.pdf", letter)).kind).toBe("other");
  });

  it("reads a return whose form pages come after a page that names no form", () => {
    const statements = [
      "Federal Statements",
      "Other deductions  218,500",
      "Acme Widgets, Inc.  12-3456789",
    ].join("\n");
    expect(identify(pages("rm/package.pdf", statements, FLATTENED_1120S_PAGE_ONE))).toMatchObject({
      kind: "form_1120s",
      page: 2,
    });
  });

  it("reads the 1120-S sample print: its Schedule L does not make it a Form 1120", async () => {
    const document = await pdf(await buildForm1120({ form: "1120-S" }), "rm/1120s-signed.pdf");
    expect(document.pages.join("\n")).toContain("Schedule L");
    expect(identify(document)).toMatchObject({
      kind: "form_1120s",
      page: 1,
      excerpt: "Form 1120-S  U.S. Income Tax Return for an S Corporation  OMB No. 1545-0123",
    });
    const corporation = await pdf(await buildForm1120(), "rm/1120-signed.pdf");
    expect(identify(corporation).kind).toBe("form_1120");
  });

  it("reads the IRS's own Form 1040 PDF (the official 2024 form, blank) as a Form 1040", async () => {
    const bytes = new Uint8Array(readFileSync(new URL("../../fixtures/irs/f1040-2024.pdf", import.meta.url)));
    const document = await pdf(bytes, "rm/f1040-2024.pdf");
    expect(identify(document)).toMatchObject({ kind: "form_1040", page: 1 });
    expect(identifyDocument(document).excerpt).toContain("U.S. Individual Income Tax Return");
  });
});

describe("identifyDocument: statements", () => {
  const bank = [
    "Summit Federal Credit Union",
    "Account Holder: Jane Q. Doe  Statement Period 01/01/26 through 01/31/26",
    "Checking Acct # ...5512",
    "Date  Description  Amount  Balance",
    "Beginning balance  2,000.00",
    "01/05  POS PURCHASE GROCERY  -50.00  1,950.00",
    "Ending balance  1,950.00",
  ].join("\n");

  it("reads a bank statement from its period, account number and balances, citing the period", () => {
    const identification = identify(pages("rm/summit.pdf", bank));
    expect(identification.kind).toBe("bank_statement");
    expect(identification.excerpt).toContain("01/01/26 through 01/31/26");
  });

  it("reads the sample bank statement print as a bank statement", async () => {
    const bytes = await buildBankStatement({
      year: 2025,
      month: 1,
      beginningBalance: 1000,
      transactions: [{ day: 10, description: "Payroll Deposit", amount: 3650 }],
    });
    expect(identify(await pdf(bytes, "rm/statement-2025-01.pdf")).kind).toBe("bank_statement");
  });

  it("reads a credit-card statement by its summary (credit limit, minimum payment due, payment due date)", () => {
    const card = [
      "Platinum Rewards Visa  Account ending in 4421",
      "Statement Closing Date 02/04/26  Billing Period 01/05/26 - 02/04/26",
      "New Balance $1,284.17  Minimum Payment Due $35.00  Payment Due Date 03/01/26",
      "Credit Limit $12,000  Available Credit $10,715.83",
      "01/07  AMAZON MKTP US  42.18",
    ].join("\n");
    expect(identify(pages("rm/card.pdf", card))).toMatchObject({
      kind: "credit_card_statement",
      description: "a credit-card statement",
      excerpt: "New Balance $1,284.17  Minimum Payment Due $35.00  Payment Due Date 03/01/26",
    });
  });

  it("keeps a checking statement that lists a credit line's payment due date and limit a bank statement", () => {
    const withCreditLine = `${bank}\nOverdraft Line of Credit  Credit Limit $1,000.00  Payment Due Date 02/25/26`;
    expect(identify(pages("rm/summit-odloc.pdf", withCreditLine)).kind).toBe("bank_statement");
  });

  it("says what it looked for when a document is none of the kinds", () => {
    const identification = identify(
      pages("rm/letter.pdf", "To whom it may concern,\nAcme Widgets has banked with us since 2009."),
    );
    expect(identification.kind).toBe("other");
    expect(identification.page).toBeUndefined();
    expect(identification.note).toMatch(/no tax form's title or number .* statement period/);
  });
});
