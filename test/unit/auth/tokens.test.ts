import { describe, expect, it } from "vitest";
import { allowsRun, mintToken, verifyToken } from "../../../lambdas/auth/tokens.ts";

const secret = "s".repeat(32);
const now = new Date("2026-01-01T00:00:00Z");

describe("subscribe and operator tokens", () => {
  it("lets a run token watch its run only", () => {
    const claims = verifyToken(secret, mintToken(secret, { kind: "run", run_id: "run-1" }, 60, now), now);
    expect(allowsRun(claims, "run-1")).toBe(true);
    expect(allowsRun(claims, "run-2")).toBe(false);
  });

  it("lets an operator token watch every run", () => {
    const claims = verifyToken(secret, mintToken(secret, { kind: "operator" }, 60, now), now);
    expect(allowsRun(claims, "any")).toBe(true);
  });

  it("refuses an expired token", () => {
    const token = mintToken(secret, { kind: "operator" }, 60, now);
    expect(() => verifyToken(secret, token, new Date(now.getTime() + 61_000))).toThrow(/expired/);
  });

  it("refuses a token signed with another secret or tampered with", () => {
    const token = mintToken(secret, { kind: "run", run_id: "run-1" }, 60, now);
    expect(() => verifyToken("t".repeat(32), token, now)).toThrow(/signature/);
    const [, signature] = token.split(".");
    const forged = `${Buffer.from(JSON.stringify({ scope: { kind: "operator" }, exp: 9e9 })).toString("base64url")}.${signature}`;
    expect(() => verifyToken(secret, forged, now)).toThrow(/signature/);
  });

  it.each([undefined, "", "abc", "a.b.c", 42])("refuses a malformed token %j", (token) => {
    expect(() => verifyToken(secret, token, now)).toThrow(/missing or malformed/);
  });
});
