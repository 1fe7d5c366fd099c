import { describe, expect, it } from "vitest";
import rawCatalog from "../../../lambdas/agents/loan/catalog.json" with { type: "json" };
import {
  knownClassifications,
  loadCatalog,
  parseCatalog,
  resolveClassification,
} from "../../../lambdas/agents/loan/catalog.ts";

describe("condition catalog", () => {
  it("validates and holds the conditions of issue 3 with their classifications", () => {
    const catalog = loadCatalog();
    const byClassification = (name: string) =>
      catalog.conditions.filter((c) => c.classifications.includes(name)).map((c) => c.id);
    expect(byClassification("1120 Corporate Tax Return")).toEqual([
      "TR_SIGNED",
      "TR_TAX_YEAR",
      "TR_EIN_MATCH",
      "TR_NAME_MATCH",
      "TR_COMPLETE",
    ]);
    expect(byClassification("Bank Statements")).toEqual([
      "BS_TWO_MONTHS",
      "BS_NAME_MATCH",
      "BS_SAME_ACCOUNT",
      "BS_NO_NSF",
      "BS_LARGE_DEPOSITS",
    ]);
    for (const condition of catalog.conditions) {
      expect(["Income", "Assets", "Credit", "Compliance"]).toContain(condition.compartment);
      expect(["high", "medium", "low", 1, 2, 3]).toContain(condition.priority);
      expect(condition.loan_programs).toContain("*");
      expect(condition.fulfilled_by.length).toBeGreaterThan(20);
    }
  });

  it("lists known classifications and resolves aliases ignoring case and punctuation", () => {
    expect(knownClassifications()).toEqual(["1120 Corporate Tax Return", "Bank Statements"]);
    expect(resolveClassification("form 1120")).toBe("1120 Corporate Tax Return");
    expect(resolveClassification("BANK-STATEMENTS")).toBe("Bank Statements");
    expect(resolveClassification("W-2")).toBeUndefined();
  });

  it("rejects a catalog with duplicate ids or an undeclared classification, naming the problem", () => {
    const duplicate = structuredClone(rawCatalog);
    duplicate.conditions.push({ ...(duplicate.conditions[0] as (typeof duplicate.conditions)[number]) });
    expect(() => parseCatalog(duplicate)).toThrow(
      /catalog\.json is invalid: conditions\.10\.id: duplicate id TR_SIGNED/,
    );

    const unknown = structuredClone(rawCatalog);
    (unknown.conditions[0] as { classifications: string[] }).classifications = ["Paystubs"];
    expect(() => parseCatalog(unknown)).toThrow(/names classification "Paystubs"/);

    expect(() => parseCatalog({ version: "x", classifications: [], conditions: [] })).toThrow(
      /classifications/,
    );

    const undeclaredField = structuredClone(rawCatalog);
    (undeclaredField.conditions[2] as { fields: string[] }).fields = ["ein", "duns_number"];
    expect(() => parseCatalog(undeclaredField)).toThrow(
      /conditions\.2\.fields: TR_EIN_MATCH names field "duns_number", which is not in fields\[\]/,
    );
  });

  it("names the fields each automated check reads, each declared once for its document", () => {
    const catalog = loadCatalog();
    const names = catalog.fields.map((field) => field.name);
    expect(new Set(names).size).toBe(names.length);
    for (const condition of catalog.conditions) {
      expect(condition.fields.length, condition.id).toBeGreaterThan(0);
      const kind = condition.id.startsWith("TR_") ? "form_1120" : "bank_statement";
      for (const name of condition.fields)
        expect(catalog.fields.find((field) => field.name === name)?.document, name).toBe(kind);
    }
    // A model may locate identifiers, periods and transaction rows (each quote verified), never
    // decide whether a signature box is filled.
    expect(catalog.fields.filter((field) => field.model_may_locate).map((field) => field.name)).toEqual([
      "corporation_name",
      "ein",
      "tax_year",
      "statement_period",
      "holder_name",
      "account_number",
      "transactions",
    ]);
  });
});
