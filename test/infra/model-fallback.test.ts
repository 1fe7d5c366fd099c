// Fallback models per role (infra/config.ts llm.fallbackModels, -c <role>FallbackModels=a,b): the
// functions are told each role's list and may invoke every model on it, as they may the role's own;
// a list for another provider, or one that is not model ids, fails synth with the problem named.
import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../infra/config.ts";
import { configWith, functionAccess, type Synthesized, synthesize } from "./synth.ts";

const PLANNER_MODEL = "us.anthropic.claude-sonnet-4-20250514-v1:0";
const SOLVER_MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
const NOVA_PRO = "amazon.nova-pro-v1:0";
const NOVA_LITE = "amazon.nova-lite-v1:0";

describe("fallback models", () => {
  let app: Synthesized;
  beforeAll(() => {
    app = synthesize({
      config: configWith("staging", () => ({
        llm: {
          provider: "bedrock",
          plannerModel: PLANNER_MODEL,
          solverModel: SOLVER_MODEL,
          fallbackModels: { planner: [NOVA_PRO, SOLVER_MODEL], solver: [NOVA_LITE] },
        },
      })),
    });
  });
  const models = (service: string) =>
    functionAccess(app.serviceTemplate, service).allowing("bedrock:InvokeModel").join(" ");

  it("tells the workflow functions each role's list", () => {
    for (const service of ["rewoo-planner", "rewoo-solver", "rewoo-worker"]) {
      const environment = functionAccess(app.serviceTemplate, service).environment;
      expect(environment, service).toMatchObject({
        REWOO_PLANNER_FALLBACK_MODELS: `${NOVA_PRO},${SOLVER_MODEL}`,
        REWOO_SOLVER_FALLBACK_MODELS: NOVA_LITE,
      });
      expect(environment, service).not.toHaveProperty("REWOO_TOOL_FALLBACK_MODELS");
    }
  });

  it("lets each function invoke the fallbacks of the roles it serves, and no other", () => {
    // The planner plans and reviews (the reviewer takes the planner's fallbacks).
    expect(models("rewoo-planner")).toContain(`foundation-model/${NOVA_PRO}`);
    expect(models("rewoo-planner")).not.toContain(NOVA_LITE);
    // The solver answers (its own) and reviews answers (the planner's, through the reviewer).
    expect(models("rewoo-solver")).toContain(`foundation-model/${NOVA_LITE}`);
    expect(models("rewoo-solver")).toContain(`foundation-model/${NOVA_PRO}`);
    // The worker's `llm` tool takes the solver's.
    expect(models("rewoo-worker")).toContain(`foundation-model/${NOVA_LITE}`);
    expect(models("rewoo-worker")).not.toContain(NOVA_PRO);
  });
});

describe("the fallback settings", () => {
  const context = (extra: Record<string, string>) => (key: string) =>
    ({
      env: "dev",
      llmProvider: "bedrock",
      plannerModel: PLANNER_MODEL,
      solverModel: SOLVER_MODEL,
      ...extra,
    })[key];

  it("are read from -c <role>FallbackModels as comma-separated ids", () => {
    expect(
      resolveConfig(
        context({
          plannerFallbackModels: ` ${NOVA_PRO}, ${SOLVER_MODEL} `,
          reviewerFallbackModels: NOVA_LITE,
        }),
      ).llm.fallbackModels,
    ).toEqual({ planner: [NOVA_PRO, SOLVER_MODEL], reviewer: [NOVA_LITE] });
    expect(resolveConfig(context({})).llm).not.toHaveProperty("fallbackModels");
  });

  it("refuse a list for another provider and one that is not model ids", () => {
    expect(() =>
      resolveConfig(context({ llmProvider: "rule-based", solverFallbackModels: NOVA_LITE })),
    ).toThrow(/solverFallbackModels: model fallback applies to the bedrock provider only, not rule-based/);
    expect(() => resolveConfig(context({ plannerFallbackModels: "nova pro" }))).toThrow(
      /plannerFallbackModels "nova pro": expected Bedrock model or inference-profile ids/,
    );
  });
});
