// The token settings of lambdas/runtime/config.ts: one key (or secret) and one maximum lifetime per
// audience, and what makes a configuration refuse to start.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../lambdas/runtime/config.ts";

const BASE = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };
const KEY = {
  customer: "customer-key-0123456789abcdef0123456789",
  run: "run-key-0123456789abcdef0123456789abcdef",
  operator: "operator-key-0123456789abcdef0123456789",
};

describe("token settings", () => {
  it("reads each audience's key, previous key, secret and maximum lifetime from its own variables", () => {
    const config = parseConfig({
      ...BASE,
      REWOO_CUSTOMER_TOKEN_SECRET: KEY.customer,
      REWOO_CUSTOMER_TOKEN_SECRET_PREVIOUS: "previous-customer-key-0123456789abcdef",
      REWOO_CUSTOMER_TOKEN_MAX_LIFETIME_SECONDS: "900",
      REWOO_RUN_TOKEN_SECRET_ARN: "arn:aws:secretsmanager:us-east-1:1:secret:run",
      REWOO_OPERATOR_TOKEN_SECRET: KEY.operator,
      REWOO_OPERATOR_TOKEN_MAX_LIFETIME_SECONDS: "3600",
    });
    expect(config.api.tokens).toEqual({
      customer: {
        secret: KEY.customer,
        previousSecret: "previous-customer-key-0123456789abcdef",
        secretArn: undefined,
        maxLifetimeSeconds: 900,
      },
      run: {
        secret: undefined,
        previousSecret: undefined,
        secretArn: "arn:aws:secretsmanager:us-east-1:1:secret:run",
        maxLifetimeSeconds: 86_400,
      },
      operator: {
        secret: KEY.operator,
        previousSecret: undefined,
        secretArn: undefined,
        maxLifetimeSeconds: 3600,
      },
    });
  });

  it("defaults the maximum lifetimes to 8 h (customer), 24 h (run) and 12 h (operator)", () => {
    const { tokens, subscribeTokenTtlSeconds } = parseConfig(BASE).api;
    expect([tokens.customer, tokens.run, tokens.operator].map((t) => t.maxLifetimeSeconds)).toEqual([
      28_800, 86_400, 43_200,
    ]);
    expect(subscribeTokenTtlSeconds).toBe(86_400);
  });

  it("refuses the retired single-key variables, naming what replaced them", () => {
    expect(() => parseConfig({ ...BASE, REWOO_TOKEN_SECRET: "x".repeat(40) })).toThrow(
      "Invalid configuration: REWOO_TOKEN_SECRET: no longer read, set REWOO_CUSTOMER_TOKEN_SECRET, REWOO_RUN_TOKEN_SECRET, REWOO_OPERATOR_TOKEN_SECRET (one per token audience)",
    );
    expect(() => parseConfig({ ...BASE, REWOO_TOKEN_SECRET_ARN: "arn" })).toThrow(
      "REWOO_TOKEN_SECRET_ARN: no longer read, set REWOO_CUSTOMER_TOKEN_SECRET_ARN, REWOO_RUN_TOKEN_SECRET_ARN, REWOO_OPERATOR_TOKEN_SECRET_ARN (one per token audience)",
    );
  });

  it("refuses one key or one secret for two audiences", () => {
    expect(() =>
      parseConfig({ ...BASE, REWOO_CUSTOMER_TOKEN_SECRET: KEY.run, REWOO_RUN_TOKEN_SECRET: KEY.run }),
    ).toThrow(
      "Invalid configuration: REWOO_CUSTOMER_TOKEN_SECRET and REWOO_RUN_TOKEN_SECRET must differ: one key would sign both audiences' tokens",
    );
    expect(() =>
      parseConfig({ ...BASE, REWOO_RUN_TOKEN_SECRET_ARN: "arn:s", REWOO_OPERATOR_TOKEN_SECRET_ARN: "arn:s" }),
    ).toThrow("REWOO_RUN_TOKEN_SECRET_ARN and REWOO_OPERATOR_TOKEN_SECRET_ARN must name different secrets");
  });

  it("refuses a key shorter than 32 characters, naming the variable", () => {
    expect(() => parseConfig({ ...BASE, REWOO_OPERATOR_TOKEN_SECRET_PREVIOUS: "short" })).toThrow(
      "REWOO_OPERATOR_TOKEN_SECRET_PREVIOUS: REWOO_OPERATOR_TOKEN_SECRET_PREVIOUS must be at least 32 characters",
    );
  });

  it("refuses a maximum lifetime above 7 days or not in whole seconds", () => {
    expect(() => parseConfig({ ...BASE, REWOO_RUN_TOKEN_MAX_LIFETIME_SECONDS: "604801" })).toThrow(
      "REWOO_RUN_TOKEN_MAX_LIFETIME_SECONDS must be at most 604800 (7 days)",
    );
    expect(() => parseConfig({ ...BASE, REWOO_CUSTOMER_TOKEN_MAX_LIFETIME_SECONDS: "1.5" })).toThrow(
      "REWOO_CUSTOMER_TOKEN_MAX_LIFETIME_SECONDS must be a whole number of seconds",
    );
  });

  it("refuses a subscribe token lifetime above the run maximum (every such token would be refused)", () => {
    expect(() =>
      parseConfig({
        ...BASE,
        REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS: "7200",
        REWOO_RUN_TOKEN_MAX_LIFETIME_SECONDS: "3600",
      }),
    ).toThrow(
      "REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS (7200) must be at most REWOO_RUN_TOKEN_MAX_LIFETIME_SECONDS (3600): a longer run token is refused",
    );
  });
});
