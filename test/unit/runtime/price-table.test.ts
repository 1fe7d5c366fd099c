import { describe, expect, it } from "vitest";
import { DEFAULT_PRICE_TABLE } from "../../../lambdas/core/cost.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";

const base = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };

describe("REWOO_PRICE_TABLE", () => {
  it("leaves the default prices when unset", () => {
    expect(parseConfig(base).prices).toEqual(DEFAULT_PRICE_TABLE);
  });

  it("overrides a model's prices and adds models, keeping the rest", () => {
    const { prices } = parseConfig({
      ...base,
      REWOO_PRICE_TABLE: JSON.stringify({
        models: {
          "anthropic.claude-3-5-haiku-20241022-v1:0": { input_per_million: 1, output_per_million: 5 },
          "meta.llama3-70b-instruct-v1:0": { input_per_million: 2.65, output_per_million: 3.5 },
        },
        lambda_per_gb_second: 0.0000133334,
        as_of: "2026-02-01",
      }),
    });
    expect(prices.models["anthropic.claude-3-5-haiku-20241022-v1:0"]).toEqual({
      input_per_million: 1,
      output_per_million: 5,
    });
    expect(prices.models["meta.llama3-70b-instruct-v1:0"]?.input_per_million).toBe(2.65);
    expect(prices.models["gpt-4o-mini"]).toEqual(DEFAULT_PRICE_TABLE.models["gpt-4o-mini"]);
    expect(prices.lambda_per_gb_second).toBe(0.0000133334);
    expect(prices.step_functions_per_transition).toBe(0.000025);
    expect(prices.as_of).toBe("2026-02-01");
  });

  it("names the field that is wrong", () => {
    expect(() =>
      parseConfig({
        ...base,
        REWOO_PRICE_TABLE: JSON.stringify({
          models: { "gpt-4o": { input_per_million: -1, output_per_million: 10 } },
        }),
      }),
    ).toThrow(/^Invalid configuration: REWOO_PRICE_TABLE\.models\.gpt-4o\.input_per_million: /);
    expect(() => parseConfig({ ...base, REWOO_PRICE_TABLE: JSON.stringify({ lambda_per_gb: 1 }) })).toThrow(
      /REWOO_PRICE_TABLE: Unrecognized key: "lambda_per_gb"/,
    );
    expect(() => parseConfig({ ...base, REWOO_PRICE_TABLE: "{models:" })).toThrow(
      /^Invalid configuration: REWOO_PRICE_TABLE is not JSON/,
    );
  });
});
