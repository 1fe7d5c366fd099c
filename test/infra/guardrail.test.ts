// A Bedrock guardrail per environment (infra/config.ts llm.guardrail, -c guardrailId/guardrailVersion):
// the functions that call the model are told it and may apply exactly that guardrail; the others are
// not; a half or malformed setting, or one for another provider, fails synth with the problem named.
import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../infra/config.ts";
import { configWith, functionAccess, type Synthesized, synthesize } from "./synth.ts";

const PLANNER_MODEL = "us.anthropic.claude-sonnet-4-20250514-v1:0";
const SOLVER_MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
const MODEL_CALLERS = ["rewoo-planner", "rewoo-solver", "rewoo-worker"];

describe("a Bedrock guardrail", () => {
  let app: Synthesized;
  beforeAll(() => {
    app = synthesize({
      config: configWith("staging", () => ({
        llm: {
          provider: "bedrock",
          plannerModel: PLANNER_MODEL,
          solverModel: SOLVER_MODEL,
          guardrail: { id: "gr7x2k9qplm4", version: "2" },
        },
      })),
    });
  });

  it("is set on every function that calls the model, which may apply that guardrail only", () => {
    for (const service of MODEL_CALLERS) {
      const access = functionAccess(app.serviceTemplate, service);
      expect(access.environment, service).toMatchObject({
        REWOO_BEDROCK_GUARDRAIL_ID: "gr7x2k9qplm4",
        REWOO_BEDROCK_GUARDRAIL_VERSION: "2",
      });
      const applies = access.allowing("bedrock:ApplyGuardrail");
      expect(applies, service).toHaveLength(1);
      expect(applies[0], service).toMatch(/:bedrock:.+:guardrail\/gr7x2k9qplm4$/);
    }
  });

  it("is not given to functions that never call the model", () => {
    const access = functionAccess(app.serviceTemplate, "rewoo-api");
    expect(access.environment).not.toHaveProperty("REWOO_BEDROCK_GUARDRAIL_ID");
    expect(access.allowing("bedrock:ApplyGuardrail")).toEqual([]);
  });
});

describe("the guardrail settings", () => {
  const context = (extra: Record<string, string>) => (key: string) =>
    ({
      env: "dev",
      llmProvider: "bedrock",
      plannerModel: PLANNER_MODEL,
      solverModel: SOLVER_MODEL,
      ...extra,
    })[key];

  it("are read from -c guardrailId and -c guardrailVersion, an ARN too", () => {
    const arn = "arn:aws:bedrock:us-east-1:123456789012:guardrail/gr7x2k9qplm4";
    expect(resolveConfig(context({ guardrailId: arn, guardrailVersion: "DRAFT" })).llm.guardrail).toEqual({
      id: arn,
      version: "DRAFT",
    });
    expect(resolveConfig(context({})).llm).not.toHaveProperty("guardrail");
  });

  it("refuse half a guardrail, a malformed one, and one for another provider", () => {
    expect(() => resolveConfig(context({ guardrailId: "gr7x2k9qplm4" }))).toThrow(
      /guardrailVersion "": expected a published version number/,
    );
    expect(() => resolveConfig(context({ guardrailId: "My Guardrail", guardrailVersion: "1" }))).toThrow(
      /guardrailId "My Guardrail": expected a guardrail id/,
    );
    expect(() =>
      resolveConfig(
        context({ llmProvider: "rule-based", guardrailId: "gr7x2k9qplm4", guardrailVersion: "1" }),
      ),
    ).toThrow(/guardrail: a Bedrock guardrail applies to the bedrock provider only, not rule-based/);
  });
});
