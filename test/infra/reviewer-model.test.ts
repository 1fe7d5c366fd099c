// A reviewer model of its own (infra/config.ts llm.reviewerModel, -c reviewerModel): the functions
// that review (the planner for plans, the solver for answers) may invoke it and are told its id;
// the worker, which never reviews, may not.
import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../infra/config.ts";
import { configWith, functionAccess, type Synthesized, synthesize } from "./synth.ts";

const PLANNER_MODEL = "us.anthropic.claude-sonnet-4-20250514-v1:0";
const SOLVER_MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
const REVIEWER_MODEL = "amazon.nova-pro-v1:0";

describe("a reviewer model of its own", () => {
  let app: Synthesized;
  beforeAll(() => {
    app = synthesize({
      config: configWith("staging", () => ({
        llm: {
          provider: "bedrock",
          plannerModel: PLANNER_MODEL,
          solverModel: SOLVER_MODEL,
          reviewerModel: REVIEWER_MODEL,
        },
      })),
    });
  });
  const models = (service: string) =>
    functionAccess(app.serviceTemplate, service).allowing("bedrock:InvokeModel").join(" ");

  it("lets the planner and the solver invoke it, besides their own models, and not the worker", () => {
    expect(models("rewoo-planner")).toContain(`foundation-model/${REVIEWER_MODEL}`);
    expect(models("rewoo-planner")).toContain(`inference-profile/${PLANNER_MODEL}`);
    expect(models("rewoo-solver")).toContain(`foundation-model/${REVIEWER_MODEL}`);
    expect(models("rewoo-solver")).toContain(`foundation-model/${SOLVER_MODEL}`);
    // The reviewer replaces the planner's model in the solver's grant.
    expect(models("rewoo-solver")).not.toContain("sonnet");
    expect(models("rewoo-worker")).not.toContain("nova");
  });

  it("tells the workflow functions its id", () => {
    for (const service of ["rewoo-planner", "rewoo-solver"]) {
      expect(functionAccess(app.serviceTemplate, service).environment, service).toMatchObject({
        REWOO_REVIEWER_MODEL: REVIEWER_MODEL,
      });
    }
  });

  it("is read from -c reviewerModel", () => {
    const context: Record<string, string> = {
      env: "dev",
      llmProvider: "bedrock",
      plannerModel: PLANNER_MODEL,
      solverModel: SOLVER_MODEL,
      reviewerModel: REVIEWER_MODEL,
    };
    expect(resolveConfig((key) => context[key]).llm.reviewerModel).toBe(REVIEWER_MODEL);
    expect(resolveConfig((key) => ({ ...context, reviewerModel: undefined })[key]).llm).not.toHaveProperty(
      "reviewerModel",
    );
  });
});
