// GET /v1/catalog: the catalog as the New evaluation form reads it, through the router, and the fields
// it lists checked against what the PreConditions engine actually asks for.
import { Logger } from "@aws-lambda-powertools/logger";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../lambdas/agents/loan/catalog.ts";
import { buildCatalogView } from "../../../lambdas/agents/loan/catalog-view.ts";
import { missingInputs, predictConditions } from "../../../lambdas/agents/loan/preconditions.ts";
import type { ApiContext } from "../../../lambdas/api/context.ts";
import { routeRequest } from "../../../lambdas/api/routes.ts";
import type { CatalogView } from "../../../lambdas/contracts/api-types.ts";
import { apiEvent } from "./events.ts";

// The catalog reads nothing of the deployment: any use of the context is a bug.
const untouchable = new Proxy({} as ApiContext, {
  get(_target, name) {
    throw new Error(`GET /v1/catalog must not use the context (read ${String(name)})`);
  },
});

async function getCatalog(): Promise<{
  status: number;
  headers: Record<string, unknown>;
  body: CatalogView;
}> {
  const result = await routeRequest(apiEvent({ method: "GET", path: "/v1/catalog" }), {
    ...untouchable,
    logger: new Logger({ logLevel: "SILENT" }),
  } as ApiContext);
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body) };
}

const byName = (view: CatalogView, name: string) => {
  const entry = view.classifications.find((c) => c.name === name);
  if (!entry) throw new Error(`no classification ${name}`);
  return entry;
};

describe("GET /v1/catalog", () => {
  it("answers 200 with the catalog's version and classifications, cacheable by the browser only", async () => {
    const { status, headers, body } = await getCatalog();
    expect(status).toBe(200);
    expect(headers["cache-control"]).toBe("private, max-age=300");
    expect(headers["content-type"]).toBe("application/json");
    const catalog = loadCatalog();
    expect(body.version).toBe(catalog.version);
    expect(body.classifications.map((c) => c.name)).toEqual(catalog.classifications.map((c) => c.name));
    expect(byName(body, "1120 Corporate Tax Return").aliases).toContain("Form 1120");
  });

  it("lists each classification's conditions with compartment and priority, in catalog order", async () => {
    const { body } = await getCatalog();
    expect(byName(body, "1120 Corporate Tax Return").conditions).toEqual([
      {
        id: "TR_SIGNED",
        title: "Tax return signed and dated by an officer",
        compartment: "Compliance",
        priority: "high",
      },
      {
        id: "TR_TAX_YEAR",
        title: "Tax return is for the expected tax year",
        compartment: "Income",
        priority: "high",
      },
      {
        id: "TR_EIN_MATCH",
        title: "Employer identification number matches",
        compartment: "Compliance",
        priority: "high",
      },
      {
        id: "TR_NAME_MATCH",
        title: "Corporation name matches the borrowing business",
        compartment: "Compliance",
        priority: "medium",
      },
      { id: "TR_COMPLETE", title: "Tax return is complete", compartment: "Income", priority: "high" },
    ]);
    expect(byName(body, "Bank Statements").conditions.map((c) => c.id)).toEqual([
      "BS_TWO_MONTHS",
      "BS_NAME_MATCH",
      "BS_SAME_ACCOUNT",
      "BS_NO_NSF",
      "BS_LARGE_DEPOSITS",
    ]);
  });

  it("names exactly the metadata fields each classification's conditions read", async () => {
    const { body } = await getCatalog();
    const fields = (name: string) =>
      byName(body, name).inputs.map(({ field, conditions }) => `${field} ← ${conditions.join(",")}`);
    expect(fields("1120 Corporate Tax Return")).toEqual([
      "extracted_entities.ein ← TR_EIN_MATCH",
      "borrower_info.business_name ← TR_NAME_MATCH",
      "extracted_entities.tax_year ← TR_TAX_YEAR",
      "as_of_date ← TR_TAX_YEAR",
    ]);
    expect(fields("Bank Statements")).toEqual([
      "borrower_info.name ← BS_NAME_MATCH",
      "borrower_info.monthly_income ← BS_LARGE_DEPOSITS",
      "as_of_date ← BS_TWO_MONTHS",
    ]);
    const income = byName(body, "Bank Statements").inputs.find(
      (i) => i.field === "borrower_info.monthly_income",
    );
    expect(income?.question).toBe("What is the borrower's gross monthly income?");
    expect(income?.expected).toMatch(/positive amount in US dollars/);
  });

  it("asks for nothing the engine would miss once the form's fields are filled", () => {
    // Fill every listed field at its dotted path with a valid value: the engine then misses nothing,
    // so no field a classification's conditions need is left off the form.
    const samples: Record<string, unknown> = {
      "extracted_entities.ein": "12-3456789",
      "borrower_info.business_name": "Acme Widgets Inc",
      "borrower_info.name": "Jane Q. Doe",
      "borrower_info.monthly_income": 8000,
      "extracted_entities.tax_year": 2024,
      as_of_date: "2025-04-15",
    };
    for (const classification of buildCatalogView().classifications) {
      const metadata: Record<string, unknown> = { classification: classification.name };
      for (const { field } of classification.inputs) {
        expect(samples, field).toHaveProperty([field]);
        const parts = field.split(".");
        let node = metadata;
        for (const part of parts.slice(0, -1)) {
          node[part] ??= {};
          node = node[part] as Record<string, unknown>;
        }
        node[parts.at(-1) as string] = samples[field];
      }
      expect(missingInputs(metadata), classification.name).toEqual([]);
      // And the optional values reached the conditions that use them.
      const predicted = predictConditions(metadata).conditions;
      expect(predicted.every((condition) => condition.verifiable)).toBe(true);
    }
  });

  it("offers the catalog's named loan programs, not its wildcard", () => {
    const named = new Set(
      loadCatalog()
        .conditions.flatMap((c) => c.loan_programs)
        .filter((p) => p !== "*"),
    );
    expect(buildCatalogView().loan_programs).toEqual([...named].sort());
    expect(buildCatalogView().loan_programs).not.toContain("*");
  });
});
