// Boots one local twin per test file (each vitest file runs in its own process, like a Lambda
// container has its own configuration) with the sample documents uploaded.
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin, type TwinOptions } from "../../infra/local/twin.ts";

export async function bootTwinWithSamples(
  env: Record<string, string> = {},
  options: Omit<TwinOptions, "env" | "persist"> = {},
): Promise<Twin> {
  const twin = await startTwin({ persist: false, env, ...options });
  const bucket = twin.services.config.documentsBucket;
  for (const document of await generateSampleDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
  }
  return twin;
}

export const taxReturnRequest = (documents: string[], extra: Record<string, unknown> = {}) => ({
  metadata: {
    loan_program: "Flex Supreme",
    classification: "1120 Corporate Tax Return",
    as_of_date: "2025-04-15",
    borrower_info: { name: "Jane Q. Doe", business_name: "Acme Widgets Inc", monthly_income: 8000 },
    extracted_entities: { ein: "12-3456789", tax_year: 2024 },
  },
  instructions: "Evaluate all loan conditions for this tax return",
  s3_pdf_paths: documents,
  ...extra,
});
