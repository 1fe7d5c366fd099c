// The condition catalog as request validation needs it (lambdas/agents/loan/loan-request.ts): the
// classifications the engines know, and the metadata fields GET /v1/catalog offers with what a valid
// value of each looks like. Built from the same view the New evaluation form reads, so a request is
// refused exactly when the form would refuse it, in the same words.

import type { RequestProblem } from "../../core/request.ts";
import { knownClassifications, resolveClassification } from "./catalog.ts";
import { buildCatalogView } from "./catalog-view.ts";
import { type LoanRequestCatalog, loanMetadataProblems, type MetadataValueKind } from "./loan-request.ts";

/**
 * How each metadata field the catalog's conditions read is typed, and where else the PreConditions
 * engine reads the same value (lambdas/agents/loan/preconditions.ts, readFacts). A field the view
 * offers without an entry here is a programming error: it would go unchecked.
 */
const FIELD_KINDS: Record<string, { kind: MetadataValueKind; alsoAt?: string[] }> = {
  as_of_date: { kind: "date" },
  "borrower_info.monthly_income": { kind: "amount", alsoAt: ["monthly_income"] },
  "borrower_info.name": { kind: "text" },
  "borrower_info.business_name": { kind: "text" },
  "extracted_entities.tax_year": { kind: "year", alsoAt: ["tax_year"] },
  "extracted_entities.ein": { kind: "ein", alsoAt: ["borrower_info.ein", "ein"] },
};

let built: LoanRequestCatalog | undefined;

/** Built once per process from the catalog the engines load. */
export function loanRequestCatalog(): LoanRequestCatalog {
  built ??= buildRequestCatalog();
  return built;
}

/** A loan request's metadata problems against this catalog: RequestPolicy.metadataProblems of loan runs. */
export function checkLoanMetadata(metadata: Record<string, unknown>): RequestProblem[] {
  return loanMetadataProblems(metadata, loanRequestCatalog());
}

function buildRequestCatalog(): LoanRequestCatalog {
  const expected = new Map<string, string>();
  for (const classification of buildCatalogView().classifications) {
    for (const input of classification.inputs) expected.set(input.field, input.expected);
  }
  const fields = [...expected].map(([field, words]) => {
    const typed = FIELD_KINDS[field];
    if (!typed) {
      throw new Error(
        `the catalog offers metadata.${field}, which lambdas/agents/loan/request-catalog.ts does not type: add it to FIELD_KINDS`,
      );
    }
    return { field, expected: words, ...typed };
  });
  return { classifications: knownClassifications(), resolveClassification, fields };
}
