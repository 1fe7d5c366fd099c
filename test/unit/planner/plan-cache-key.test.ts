// The plan cache's key: the same for requests of one shape, different when the shape, the tool catalog,
// the planner's prompt or its model change, so a change to any of them starts afresh.
import { describe, expect, it } from "vitest";
import type { ToolCatalog } from "../../../lambdas/core/types.ts";
import { planCacheApplies, shapeKeyOf } from "../../../lambdas/planner/plan-cache.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import { buildServices } from "../../../lambdas/runtime/services.ts";
import { taxReturnRequest } from "../../integration/twin-fixture.ts";

const ENV = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };
const services = buildServices(parseConfig({ ...ENV, REWOO_PLAN_CACHE: "on" }));
const keyOf = (request: ReturnType<typeof taxReturnRequest>, with_ = services) =>
  shapeKeyOf(request, undefined, with_).key;

const signed = taxReturnRequest(["rm-conditions/1120-signed.pdf"]);
const anotherBorrower = taxReturnRequest(["borrowers/roe/return-2024.pdf"]);
anotherBorrower.metadata.borrower_info = { name: "R. Roe", business_name: "Roe Ltd", monthly_income: 1 };

describe("shapeKeyOf", () => {
  it("is the same for another borrower's request of the same shape", () => {
    expect(keyOf(anotherBorrower)).toBe(keyOf(signed));
    expect(keyOf(signed)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs with the documents' count, the instructions' reading, the program or max_steps", () => {
    const key = keyOf(signed);
    expect(keyOf(taxReturnRequest(["a.pdf", "b.pdf"]))).not.toBe(key);
    expect(
      keyOf(taxReturnRequest(["a.pdf"], { instructions: "Only check the signature of the return" })),
    ).not.toBe(key);
    const program = taxReturnRequest(["a.pdf"]);
    program.metadata.loan_program = "Flex Prime";
    expect(keyOf(program)).not.toBe(key);
    expect(keyOf(taxReturnRequest(["a.pdf"], { options: { max_steps: 3 } }))).not.toBe(key);
  });

  it("differs when the tool catalog, the planner's prompt or its model change", () => {
    const key = keyOf(signed);
    const catalog = services.tools.catalog();
    const described: ToolCatalog = new Map(
      [...catalog].map(([name, spec]) => [
        name,
        name === "llm" ? { ...spec, description: `${spec.description} Costs one call.` } : spec,
      ]),
    );
    const changedCatalog = { ...services, tools: { ...services.tools, catalog: () => described } };
    expect(keyOf(signed, changedCatalog as typeof services)).not.toBe(key);
    const prompt = buildServices(
      parseConfig({
        ...ENV,
        REWOO_PLAN_CACHE: "on",
        REWOO_PLANNER_PROMPT: "Plan {request} with {tool_descriptions}",
      }),
    );
    expect(keyOf(signed, prompt)).not.toBe(key);
    const model = buildServices(
      parseConfig({ ...ENV, REWOO_PLAN_CACHE: "on", REWOO_PLANNER_MODEL: "other" }),
    );
    expect(keyOf(signed, model)).not.toBe(key);
  });
});

describe("planCacheApplies", () => {
  const run = { request: signed, mode: "rewoo" as const };
  it("follows the environment's switch and the request's options.plan_cache", () => {
    expect(planCacheApplies(run, services.config)).toBe(true);
    expect(planCacheApplies(run, parseConfig(ENV))).toBe(false);
    const optedOut = { ...run, request: { ...signed, options: { plan_cache: false } } };
    expect(planCacheApplies(optedOut, services.config)).toBe(false);
  });

  it("leaves out legacy runs and the banking assistant, whose plans follow the customer's words", () => {
    expect(planCacheApplies({ ...run, mode: "legacy" }, services.config)).toBe(false);
    expect(planCacheApplies({ ...run, profile: "banking_assistant" }, services.config)).toBe(false);
  });
});
