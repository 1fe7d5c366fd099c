// The openai provider deployed: the functions that call the model (planner and solver, where the
// reviewer runs too, and the worker's `llm` tool) may read exactly the key's secret and are told its
// ARN and the server's URL; no other function gets either.
import { beforeAll, describe, expect, it } from "vitest";
import { configWith, functionAccess, SERVICES, type Synthesized, synthesize } from "./synth.ts";

const SECRET = "arn:aws:secretsmanager:eu-west-1:111122223333:secret:rewoo/openai-key-AbCdEf";
const CALLERS = ["rewoo-planner", "rewoo-solver", "rewoo-worker"];

describe("openai provider (staging)", () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synthesize({
      context: { env: "staging" },
      config: configWith("staging", () => ({
        llm: {
          provider: "openai",
          plannerModel: "gpt-4.1",
          solverModel: "gpt-4.1-mini",
          openAiBaseUrl: "https://api.openai.com/v1",
          openAiApiKeySecretArn: SECRET,
          roles: { planner: { temperature: 0, maxTokens: 2048 }, solver: { maxTokens: 8192 } },
        },
      })),
    });
  });

  it("lets the model's callers GetSecretValue on exactly the key's secret, and tells them its ARN", () => {
    for (const service of CALLERS) {
      const fn = functionAccess(s.serviceTemplate, service);
      expect(fn.allowing("secretsmanager:GetSecretValue"), service).toEqual([SECRET]);
      expect(fn.allowing("secretsmanager:DescribeSecret"), service).toEqual([]);
      expect(fn.environment, service).toMatchObject({
        REWOO_LLM_PROVIDER: "openai",
        OPENAI_API_KEY_SECRET_ARN: SECRET,
        OPENAI_BASE_URL: "https://api.openai.com/v1",
      });
      expect(fn.environment.OPENAI_API_KEY, service).toBeUndefined();
    }
  });

  it("gives no other function the key", () => {
    for (const service of SERVICES.filter((name) => !CALLERS.includes(name))) {
      const fn = functionAccess(s.serviceTemplate, service);
      expect(
        fn.allowing("secretsmanager:GetSecretValue").filter((arn) => arn === SECRET),
        service,
      ).toEqual([]);
      expect(fn.environment.OPENAI_API_KEY_SECRET_ARN, service).toBeUndefined();
    }
  });

  it("grants no Bedrock access", () => {
    for (const service of SERVICES) {
      expect(functionAccess(s.serviceTemplate, service).allowing("bedrock:InvokeModel"), service).toEqual([]);
    }
  });

  it("tells the model's callers each configured role's temperature and max tokens, and nothing for unset ones", () => {
    for (const service of CALLERS) {
      const { environment } = functionAccess(s.serviceTemplate, service);
      expect(environment, service).toMatchObject({
        REWOO_PLANNER_TEMPERATURE: "0",
        REWOO_PLANNER_MAX_TOKENS: "2048",
        REWOO_SOLVER_MAX_TOKENS: "8192",
      });
      expect(
        Object.keys(environment).filter((name) => /_(TEMPERATURE|MAX_TOKENS)$/.test(name)),
        service,
      ).toHaveLength(3);
    }
  });
});
