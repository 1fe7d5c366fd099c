// REWOO_PLAN_CACHE: off unless a deployment (workflow.planCache) or the twin's environment says "on";
// anything else refuses the cold start naming the variable.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../lambdas/runtime/config.ts";

const ENV = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };

describe("REWOO_PLAN_CACHE", () => {
  it("is off unless set to on", () => {
    expect(parseConfig(ENV).planCache).toBe(false);
    expect(parseConfig({ ...ENV, REWOO_PLAN_CACHE: "off" }).planCache).toBe(false);
    expect(parseConfig({ ...ENV, REWOO_PLAN_CACHE: "on" }).planCache).toBe(true);
  });

  it("refuses another value, naming the variable", () => {
    expect(() => parseConfig({ ...ENV, REWOO_PLAN_CACHE: "yes" })).toThrow(/REWOO_PLAN_CACHE: .*"on"/);
  });
});
