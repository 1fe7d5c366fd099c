// What the second held-out set draws alike (pages, amounts) and its cases' labels and metadata.
import { drawItems, type Item, newDocument, save } from "../../samples.ts";
import type { Label } from "../cases.ts";

export const LANDSCAPE: [number, number] = [792, 612];

const TR = ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"] as const;

const BS = ["BS_TWO_MONTHS", "BS_NAME_MATCH", "BS_SAME_ACCOUNT", "BS_NO_NSF", "BS_LARGE_DEPOSITS"] as const;

export type Page = { size: [number, number]; items: Item[] };

export async function render(title: string, pages: Page[]): Promise<Uint8Array> {
  const { pdf, font } = await newDocument(title);
  for (const page of pages) drawItems(pdf.addPage(page.size), font, page.items);
  return save(pdf);
}

export function amount(value: number): string {
  return Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function whole(value: number): string {
  return value.toLocaleString("en-US");
}

// ------------------------------------------------------------------ labels and metadata

export function taxMetadata(business: string, ein: string, taxYear?: number): Record<string, unknown> {
  return {
    loan_program: "Flex Supreme",
    classification: "1120 Corporate Tax Return",
    as_of_date: "2025-04-15",
    borrower_info: { name: "Elena V. Marsh", business_name: business, monthly_income: 15_000 },
    extracted_entities: { ein, ...(taxYear === undefined ? {} : { tax_year: taxYear }) },
  };
}

export function trLabels(values: [Label, Label, Label, Label, Label]): Record<string, Label> {
  return Object.fromEntries(TR.map((id, index) => [id, values[index] as Label]));
}

export function signed(value: number): string {
  return value < 0 ? `-${amount(value)}` : amount(value);
}

export function bankMetadata(name: string, income: number, asOf: string): Record<string, unknown> {
  return {
    loan_program: "Flex Supreme",
    classification: "Bank Statements",
    as_of_date: asOf,
    borrower_info: { name, monthly_income: income },
  };
}

export function bsLabels(values: [Label, Label, Label, Label, Label]): Record<string, Label> {
  return Object.fromEntries(BS.map((id, index) => [id, values[index] as Label]));
}
