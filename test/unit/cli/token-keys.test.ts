// `rewoo operator-token` and the CLI's reading of token settings: an operator token signed with the
// operator key only, within the operator maximum lifetime, and problems named by the option or variable.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { maxLifetimeSeconds, mintOperatorToken, TokenCommandError } from "../../../cli/token-keys.ts";
import { verifyToken } from "../../../lambdas/auth/tokens.ts";

const KEY = "operator-key-0123456789abcdef0123456789";
const now = new Date("2026-01-01T12:00:00Z");
const nowSeconds = now.getTime() / 1000;

async function problemsOf(promise: Promise<unknown>) {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof TokenCommandError))
    throw new Error(`expected a TokenCommandError, got ${String(error)}`);
  return error.problems;
}

describe("rewoo operator-token", () => {
  it("signs an operator token with REWOO_OPERATOR_TOKEN_SECRET, valid the operator maximum by default", async () => {
    const token = await mintOperatorToken({}, { REWOO_OPERATOR_TOKEN_SECRET: KEY }, now);
    const keys = { operator: { current: KEY } };
    expect(verifyToken(token, { accept: ["operator"], keys, now })).toMatchObject({
      aud: "operator",
      scope: { kind: "operator" },
      exp: nowSeconds + 12 * 3600,
    });
    expect(() => verifyToken(token, { accept: ["customer"], keys, now })).toThrow(
      "wrong audience: an operator token, expected customer",
    );
  });

  it("takes --ttl up to the configured maximum, and refuses more", async () => {
    const env = { REWOO_OPERATOR_TOKEN_SECRET: KEY, REWOO_OPERATOR_TOKEN_MAX_LIFETIME_SECONDS: "7200" };
    const token = await mintOperatorToken({ ttl: "3600" }, env, now);
    expect(verifyToken(token, { accept: ["operator"], keys: { operator: { current: KEY } }, now }).exp).toBe(
      nowSeconds + 3600,
    );
    expect(await problemsOf(mintOperatorToken({ ttl: "7201" }, env, now))).toEqual([
      {
        field: "--ttl",
        message:
          'expected a whole number of seconds from 1 to 7200 (REWOO_OPERATOR_TOKEN_MAX_LIFETIME_SECONDS), got "7201"',
      },
    ]);
    expect(await problemsOf(mintOperatorToken({ ttl: "soon" }, env, now))).toHaveLength(1);
  });

  it("needs the operator key, or --local for the twin's", async () => {
    expect(await problemsOf(mintOperatorToken({}, {}, now))).toEqual([
      {
        field: "REWOO_OPERATOR_TOKEN_SECRET",
        message:
          "not set: set it to the operator token key (in AWS the value of the OperatorTokenSecretArn secret), or pass --local for the twin's",
      },
    ]);
    expect(await problemsOf(mintOperatorToken({}, { REWOO_OPERATOR_TOKEN_SECRET: "short" }, now))).toEqual([
      { field: "REWOO_OPERATOR_TOKEN_SECRET", message: "must be at least 32 characters" },
    ]);
  });

  it("with --local signs with the operator key of the twin's data folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rewoo-operator-token-"));
    const env = { REWOO_DATA_DIR: dir };
    const [problem] = await problemsOf(mintOperatorToken({ local: true }, env, now));
    expect(problem?.field).toBe("--local");
    expect(problem?.message).toContain(`no operator token key in ${join(dir, "token-keys", "operator")}`);
    mkdirSync(join(dir, "token-keys"));
    writeFileSync(join(dir, "token-keys", "operator"), `${KEY}\n`);
    const token = await mintOperatorToken({ local: true }, env, now);
    expect(verifyToken(token, { accept: ["operator"], keys: { operator: { current: KEY } }, now }).aud).toBe(
      "operator",
    );
  });

  it("reads a maximum lifetime as the functions do, naming a bad value's variable", () => {
    expect(maxLifetimeSeconds("customer", {})).toBe(8 * 3600);
    expect(maxLifetimeSeconds("run", { REWOO_RUN_TOKEN_MAX_LIFETIME_SECONDS: "600" })).toBe(600);
    expect(() => maxLifetimeSeconds("run", { REWOO_RUN_TOKEN_MAX_LIFETIME_SECONDS: "ten" })).toThrow(
      'REWOO_RUN_TOKEN_MAX_LIFETIME_SECONDS: expected a whole number of seconds, got "ten"',
    );
  });
});
