// How the stack bundles its functions (infra/constructs/bundling.ts): a function whose environment
// names the LLM provider (or, the worker, the OCR engine) is bundled with that one alone, and no other
// function is told one, so a bundle and its environment always agree. bench/bundles.ts measures exactly these functions.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CfnElement } from "aws-cdk-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { BUNDLED_LLM_PROVIDER_DEFINE, BUNDLED_OCR_ENGINE_DEFINE } from "../../infra/constructs/bundling.ts";
import { REPO_ROOT } from "../../infra/constructs/defaults.ts";
import type { RewooFunction } from "../../infra/constructs/rewoo-function.ts";
import { configWith, type Synthesized, synthesize } from "./synth.ts";

const MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
const WORKFLOW = ["planner", "worker", "solver", "finalize"];

/** The function's environment variables as the template carries them. */
function environmentOf(app: Synthesized, fn: RewooFunction): Record<string, unknown> {
  const logicalId = app.service.getLogicalId(fn.node.defaultChild as CfnElement);
  const resource = app.serviceTemplate.toJSON().Resources[logicalId] as {
    Properties: { Environment?: { Variables?: Record<string, unknown> } };
  };
  return resource.Properties.Environment?.Variables ?? {};
}

describe.each([
  ["rule-based", () => synthesize()],
  [
    "bedrock",
    () =>
      synthesize({
        config: configWith("prod", () => ({
          llm: { provider: "bedrock", plannerModel: MODEL, solverModel: MODEL },
        })),
      }),
  ],
] as const)("bundles with the %s provider", (provider, synth) => {
  let app: Synthesized;
  beforeAll(() => {
    app = synth();
  });

  it("links the environment's provider into the workflow functions and no provider into the others", () => {
    for (const [name, fn] of Object.entries(app.service.functions)) {
      const environment = environmentOf(app, fn);
      if (WORKFLOW.includes(name)) {
        expect(environment.REWOO_LLM_PROVIDER, name).toBe(provider);
        // The worker alone reads documents, so it alone is bundled with an OCR engine.
        const ocr = name === "worker" ? { [BUNDLED_OCR_ENGINE_DEFINE]: JSON.stringify("textract") } : {};
        expect(environment.REWOO_OCR_ENGINE, name).toBe(name === "worker" ? "textract" : undefined);
        expect(fn.bundleDefines, name).toEqual({
          [BUNDLED_LLM_PROVIDER_DEFINE]: JSON.stringify(provider),
          ...ocr,
        });
      } else {
        expect(environment.REWOO_LLM_PROVIDER, name).toBeUndefined();
        expect(fn.bundleDefines, name).toEqual({});
      }
    }
  });

  it("names an existing handler file for every function", () => {
    const entries = Object.values(app.service.functions).map((fn) => fn.entry);
    expect(entries.length).toBeGreaterThanOrEqual(8);
    for (const entry of entries) expect(existsSync(join(REPO_ROOT, entry)), entry).toBe(true);
  });
});
