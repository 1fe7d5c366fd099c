// The name rules the loan engines judge TR_NAME_MATCH and BS_NAME_MATCH with (docs/lender-services.md,
// "Name matching"): spellings of one entity type match, two entity types do not; a generational
// suffix on one side only is not a match, and not another person either.
import { describe, expect, it } from "vitest";
import {
  businessNameParts,
  businessNamesMatch,
  comparePersonNames,
  entityTypeDifference,
  personNamesMatch,
} from "../../../lambdas/agents/loan/text.ts";

describe("business names", () => {
  it.each([
    ["Acme Widgets Inc", "Acme Widgets, Inc."],
    ["Acme Widgets Incorporated", "ACME WIDGETS INC"],
    ["Acme Widgets Corp", "Acme Widgets Corporation"],
    ["Acme Widgets Co.", "Acme Widgets Company"],
    ["Acme Widgets Ltd", "Acme Widgets Limited"],
    ["Acme Widgets L.L.C.", "ACME WIDGETS LLC"],
    ["Acme Widgets LLC", "Acme Widgets Limited Liability Company"],
    ["The Acme Widgets Inc.", "acme widgets inc"],
    ["Acme & Sons, Inc.", "Acme and Sons Inc"],
    // Inc., Corp., Co. and Ltd all make a corporation: the same kind of entity.
    ["Acme Widgets, Inc.", "ACME WIDGETS CORP."],
    ["Acme Widgets Co., Inc.", "Acme Widgets Inc"],
    // A designator on one side only: the file often leaves it out.
    ["Acme Widgets", "Acme Widgets LLC"],
  ])("%s matches %s", (a, b) => {
    expect(businessNamesMatch(a, b)).toBe(true);
    expect(businessNamesMatch(b, a)).toBe(true);
    expect(entityTypeDifference(a, b)).toBeUndefined();
  });

  it.each([
    ["Acme Widgets LLC", "Acme Widgets, Inc.", ["LLC", "Inc."]],
    ["Acme Widgets L.L.C.", "Acme Widgets Corporation", ["LLC", "Corp."]],
    ["Acme Widgets LLC", "Acme Widgets LLP", ["LLC", "LLP"]],
    ["Acme Widgets LP", "Acme Widgets Limited", ["LP", "Ltd"]],
    ["Acme Widgets Limited Partnership", "Acme Widgets Co", ["LP", "Co."]],
    ["Acme Widgets PLLC", "Acme Widgets LLC", ["PLLC", "LLC"]],
    ["Acme Widgets PC", "Acme Widgets Inc", ["PC", "Inc."]],
  ])("%s does not match %s: another kind of entity", (a, b, types) => {
    expect(businessNamesMatch(a, b)).toBe(false);
    expect(businessNamesMatch(b, a)).toBe(false);
    expect(entityTypeDifference(a, b)).toEqual(types);
  });

  it("does not match another name, and says nothing of entity types then", () => {
    expect(businessNamesMatch("Acme Gadgets, Inc.", "Acme Widgets Inc")).toBe(false);
    expect(entityTypeDifference("Acme Gadgets LLC", "Acme Widgets Inc")).toBeUndefined();
    expect(businessNamesMatch("", "")).toBe(false);
  });

  it("keeps a designator that is the whole name, and reads the last designator as the entity type", () => {
    expect(businessNameParts("Company")).toEqual({ base: "company" });
    expect(businessNameParts("Acme Co., Inc.")).toEqual({
      base: "acme",
      entityKind: "corporation",
      designator: "Inc.",
    });
    expect(businessNameParts("Acme Holdings Limited Liability Company")).toEqual({
      base: "acmeholdings",
      entityKind: "LLC",
      designator: "LLC",
    });
  });
});

describe("person names", () => {
  it.each([
    ["Jane Q. Doe", "JANE Q DOE", "match"],
    ["Jane Q. Doe", "Jane Doe", "match"],
    ["Doe, Jane Q.", "Jane Q Doe", "match"],
    ["Jane Q. Doe Jr.", "JANE Q DOE JR", "match"],
    ["John Smith III", "JOHN A SMITH III", "match"],
    // "V" inside a name is a middle initial, not the fifth.
    ["SMITH, JOHN V", "John Smith", "match"],
    ["Jane Q. Doe Jr.", "Jane Q. Doe", "generation_one_side"],
    ["JOHN A SMITH", "John Smith Jr.", "generation_one_side"],
    ["John Smith V", "John Smith", "generation_one_side"],
    ["John Smith Jr", "John Smith Sr", "different"],
    ["John Smith III", "John Smith II", "different"],
    ["Jane Quinn Doe", "Jane Rose Doe", "different"],
    ["Jane Doe", "John Doe", "different"],
    ["Doe", "Jane Doe", "different"],
  ] as const)("%s against %s: %s", (a, b, outcome) => {
    expect(comparePersonNames(a, b)).toBe(outcome);
    expect(comparePersonNames(b, a)).toBe(outcome);
    expect(personNamesMatch(a, b)).toBe(outcome === "match");
  });
});
