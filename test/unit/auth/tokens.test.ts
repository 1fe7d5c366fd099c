import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  allowsRun,
  CLOCK_SKEW_SECONDS,
  DEFAULT_MAX_LIFETIME_SECONDS,
  InvalidTokenError,
  keyId,
  mintToken,
  TOKEN_AUDIENCES,
  type TokenAudience,
  type TokenKeyring,
  type TokenScope,
  verifyToken,
} from "../../../lambdas/auth/tokens.ts";

const KEY = {
  customer: "customer-key-0123456789abcdef0123456789",
  run: "run-key-0123456789abcdef0123456789abcdef",
  operator: "operator-key-0123456789abcdef0123456789",
} as const;
const keys: TokenKeyring = {
  customer: { current: KEY.customer },
  run: { current: KEY.run },
  operator: { current: KEY.operator },
};
const now = new Date("2026-01-01T00:00:00Z");
const nowSeconds = now.getTime() / 1000;
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

const SCOPES: Record<TokenAudience, TokenScope> = {
  customer: { kind: "customer", customer_id: "cust_alice" },
  run: { kind: "run", run_id: "run-1" },
  operator: { kind: "operator" },
};

/** A token laid out by hand (not by mintToken): what another minter, or a forger, would send. */
function craft(header: object, claims: object, key: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${encode(header)}.${encode(claims)}`;
  return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
}

/** The InvalidTokenError `verify` throws (fails the test when it returns). */
function refusal(verify: () => unknown): InvalidTokenError {
  try {
    verify();
  } catch (error) {
    if (error instanceof InvalidTokenError) return error;
    throw error;
  }
  throw new Error("the token was accepted");
}

const decode = (part: string | undefined) =>
  JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8"));

describe("the wire format", () => {
  it("is a compact HS256 JWS: a header with the key id, the claims, and the HMAC of both", () => {
    const token = mintToken(keys, SCOPES.customer, 600, now);
    const [header, claims, signature] = token.split(".");
    expect(decode(header)).toEqual({ alg: "HS256", typ: "JWT", kid: keyId(KEY.customer) });
    expect(decode(claims)).toEqual({
      aud: "customer",
      sub: "cust_alice",
      iat: nowSeconds,
      exp: nowSeconds + 600,
    });
    expect(signature).toBe(
      createHmac("sha256", KEY.customer).update(`${header}.${claims}`).digest("base64url"),
    );
  });

  it("derives the key id from the key: 16 characters of its base64url SHA-256, different per key", () => {
    expect(keyId(KEY.run)).toMatch(/^[\w-]{16}$/);
    expect(keyId(KEY.run)).toBe(keyId(`${KEY.run}`));
    expect(new Set(Object.values(KEY).map(keyId)).size).toBe(3);
  });

  it("accepts a token another minter laid out the same way (a bank's JWT library), extra claims ignored", () => {
    const token = craft(
      { alg: "HS256", typ: "JWT", kid: keyId(KEY.customer) },
      { aud: "customer", sub: "cust_sam", iat: nowSeconds, exp: nowSeconds + 300, iss: "bank-sign-in" },
      KEY.customer,
    );
    expect(verifyToken(token, { accept: ["customer"], keys, now })).toEqual({
      aud: "customer",
      kid: keyId(KEY.customer),
      iat: nowSeconds,
      exp: nowSeconds + 300,
      scope: { kind: "customer", customer_id: "cust_sam" },
    });
  });
});

describe("scopes", () => {
  it("lets a run token watch its run only, and an operator token every run", () => {
    const run = verifyToken(mintToken(keys, SCOPES.run, 60, now), { accept: ["run", "operator"], keys, now });
    expect(allowsRun(run, "run-1")).toBe(true);
    expect(allowsRun(run, "run-2")).toBe(false);
    const operator = verifyToken(mintToken(keys, SCOPES.operator, 60, now), {
      accept: ["run", "operator"],
      keys,
      now,
    });
    expect(operator.scope).toEqual({ kind: "operator" });
    expect(allowsRun(operator, "any")).toBe(true);
  });

  it("needs a subject on run and customer tokens", () => {
    for (const aud of ["run", "customer"] as const) {
      const token = craft(
        { alg: "HS256", kid: keyId(KEY[aud]) },
        { aud, iat: nowSeconds, exp: nowSeconds + 60 },
        KEY[aud],
      );
      const error = refusal(() => verifyToken(token, { accept: [aud], keys, now }));
      expect(error.reason).toBe("claims");
      expect(error.message).toBe(
        `a ${aud} token needs ${aud === "run" ? "the run id" : "the customer id"} as its subject (sub)`,
      );
    }
  });
});

describe("audiences are not interchangeable", () => {
  const pairs = TOKEN_AUDIENCES.flatMap((minted) =>
    TOKEN_AUDIENCES.filter((accepted) => accepted !== minted).map((accepted) => [minted, accepted] as const),
  );

  it.each(pairs)("refuses a %s token where only %s tokens are accepted", (minted, accepted) => {
    const token = mintToken(keys, SCOPES[minted], 60, now);
    const error = refusal(() => verifyToken(token, { accept: [accepted], keys, now }));
    expect(error.reason).toBe("audience");
    const article = minted === "operator" ? "an" : "a";
    expect(error.message).toBe(`wrong audience: ${article} ${minted} token, expected ${accepted}`);
  });

  it("refuses a customer token where run or operator tokens are accepted (the WebSocket), naming both", () => {
    const token = mintToken(keys, SCOPES.customer, 60, now);
    expect(() => verifyToken(token, { accept: ["run", "operator"], keys, now })).toThrow(
      "wrong audience: a customer token, expected run or operator",
    );
  });

  it("refuses a token claiming one audience but signed with another audience's key", () => {
    // Whoever holds the customer key (the bank's sign-in) mints an operator token with it.
    const forged = mintToken({ operator: { current: KEY.customer } }, SCOPES.operator, 60, now);
    const error = refusal(() => verifyToken(forged, { accept: ["operator"], keys, now }));
    expect(error.reason).toBe("unknown_key");
    expect(error.audience).toBe("operator");
    expect(error.message).toBe(
      `unknown key id (kid) "${keyId(KEY.customer)}": neither the current nor the previous operator token key`,
    );
    // The same with the operator key's id in the header: the signature gives it away.
    const [, claims, signature] = forged.split(".");
    const header = Buffer.from(JSON.stringify({ alg: "HS256", kid: keyId(KEY.operator) })).toString(
      "base64url",
    );
    expect(
      refusal(() => verifyToken(`${header}.${claims}.${signature}`, { accept: ["operator"], keys, now }))
        .reason,
    ).toBe("signature");
  });

  it("refuses a customer token whose claims were rewritten to another audience", () => {
    const [header, , signature] = mintToken(keys, SCOPES.customer, 60, now).split(".");
    const claims = Buffer.from(
      JSON.stringify({ aud: "operator", iat: nowSeconds, exp: nowSeconds + 60 }),
    ).toString("base64url");
    const error = refusal(() =>
      verifyToken(`${header}.${claims}.${signature}`, { accept: ["operator"], keys, now }),
    );
    expect(error.reason).toBe("unknown_key");
  });

  it.each([[["customer", "run"]], ["everyone"], [null]])("refuses the audience %j", (aud) => {
    const token = craft(
      { alg: "HS256", kid: keyId(KEY.run) },
      { aud, iat: nowSeconds, exp: nowSeconds + 60 },
      KEY.run,
    );
    expect(refusal(() => verifyToken(token, { accept: ["run"], keys, now })).message).toBe(
      `token audience (aud) ${JSON.stringify(aud)} is not one of customer, run, operator`,
    );
  });
});

describe("key rotation", () => {
  const OLD = "old-run-key-0123456789abcdef0123456789ab";
  const NEW = "new-run-key-0123456789abcdef0123456789ab";

  it("signs with the current key and verifies with the current and the previous one", () => {
    const before = mintToken({ run: { current: OLD } }, SCOPES.run, 600, now);
    const rotated: TokenKeyring = { run: { current: NEW, previous: OLD } };
    const after = mintToken(rotated, SCOPES.run, 600, now);
    expect(decode(after.split(".")[0]).kid).toBe(keyId(NEW));
    expect(verifyToken(before, { accept: ["run"], keys: rotated, now }).kid).toBe(keyId(OLD));
    expect(verifyToken(after, { accept: ["run"], keys: rotated, now }).kid).toBe(keyId(NEW));
  });

  it("refuses a token of a key that is neither current nor previous any more", () => {
    const before = mintToken({ run: { current: OLD } }, SCOPES.run, 600, now);
    const error = refusal(() =>
      verifyToken(before, { accept: ["run"], keys: { run: { current: NEW } }, now }),
    );
    expect(error.reason).toBe("unknown_key");
    expect(error.message).toContain(`"${keyId(OLD)}"`);
  });

  it("rotating one audience's key leaves the other audiences' tokens valid", () => {
    const tokens = TOKEN_AUDIENCES.map((aud) => mintToken(keys, SCOPES[aud], 600, now));
    const rotated: TokenKeyring = { ...keys, run: { current: NEW } };
    const results = tokens.map((token, index) => {
      try {
        return verifyToken(token, { accept: [TOKEN_AUDIENCES[index] as TokenAudience], keys: rotated, now })
          .aud;
      } catch (error) {
        return (error as InvalidTokenError).reason;
      }
    });
    expect(results).toEqual(["customer", "unknown_key", "operator"]);
  });
});

describe("lifetimes", () => {
  it("refuses an expired token and accepts it until then", () => {
    const token = mintToken(keys, SCOPES.operator, 60, now);
    expect(verifyToken(token, { accept: ["operator"], keys, now: at(59) }).exp).toBe(nowSeconds + 60);
    const error = refusal(() => verifyToken(token, { accept: ["operator"], keys, now: at(60) }));
    expect(error.reason).toBe("expired");
    expect(error.message).toBe("token expired at 2026-01-01T00:01:00.000Z");
  });

  it.each(TOKEN_AUDIENCES)("caps a %s token's lifetime at the audience's maximum by default", (aud) => {
    const max = DEFAULT_MAX_LIFETIME_SECONDS[aud];
    expect(verifyToken(mintToken(keys, SCOPES[aud], max, now), { accept: [aud], keys, now }).exp).toBe(
      nowSeconds + max,
    );
    const error = refusal(() =>
      verifyToken(mintToken(keys, SCOPES[aud], max + 1, now), { accept: [aud], keys, now }),
    );
    expect(error.reason).toBe("lifetime");
    expect(error.message).toBe(`token lifetime ${max + 1} s is above the ${aud} maximum of ${max} s`);
  });

  it("takes the configured maximum of the token's audience", () => {
    const token = mintToken(keys, SCOPES.customer, 1800, now);
    const options = { accept: ["customer"] as const, keys, now };
    expect(verifyToken(token, { ...options, maxLifetimeSeconds: { customer: 1800, run: 60 } }).aud).toBe(
      "customer",
    );
    expect(() => verifyToken(token, { ...options, maxLifetimeSeconds: { customer: 900 } })).toThrow(
      "token lifetime 1800 s is above the customer maximum of 900 s",
    );
  });

  it("refuses a token issued in the future beyond the clock skew, and accepts one within it", () => {
    const within = mintToken(keys, SCOPES.run, 60, at(CLOCK_SKEW_SECONDS));
    expect(verifyToken(within, { accept: ["run"], keys, now }).iat).toBe(nowSeconds + CLOCK_SKEW_SECONDS);
    const beyond = mintToken(keys, SCOPES.run, 60, at(CLOCK_SKEW_SECONDS + 1));
    const error = refusal(() => verifyToken(beyond, { accept: ["run"], keys, now }));
    expect(error.reason).toBe("issued_in_future");
    expect(error.message).toBe(
      "token issued in the future: iat is 61 s ahead of this server's clock (at most 60 s allowed)",
    );
  });

  it("refuses claims without whole-second iat and exp, or expiring before they were issued", () => {
    const kid = keyId(KEY.run);
    const cases: [object, string][] = [
      [{ exp: nowSeconds + 60 }, "token has no issued-at (iat) in whole seconds"],
      [{ iat: nowSeconds }, "token has no expiry (exp) in whole seconds"],
      [{ iat: String(nowSeconds), exp: nowSeconds + 60 }, "token has no issued-at (iat) in whole seconds"],
      [{ iat: nowSeconds, exp: nowSeconds + 0.5 }, "token has no expiry (exp) in whole seconds"],
      [{ iat: nowSeconds, exp: nowSeconds - 10 }, "token expires (exp) before it was issued (iat)"],
    ];
    for (const [times, message] of cases) {
      const token = craft({ alg: "HS256", kid }, { aud: "run", sub: "run-1", ...times }, KEY.run);
      expect(refusal(() => verifyToken(token, { accept: ["run"], keys, now })).message).toBe(message);
    }
  });
});

describe("malformed tokens", () => {
  it.each([undefined, "", "abc", "a.b", "payload.signature", "a.b.c.d", "<script>.x.y", 42])(
    "refuses %j",
    (token) => {
      expect(refusal(() => verifyToken(token, { accept: ["run"], keys, now })).reason).toBe("malformed");
    },
  );

  it("refuses another algorithm (none, RS256) and a header without a key id", () => {
    const claims = { aud: "run", sub: "run-1", iat: nowSeconds, exp: nowSeconds + 60 };
    expect(() =>
      verifyToken(craft({ alg: "none", kid: keyId(KEY.run) }, claims, KEY.run), {
        accept: ["run"],
        keys,
        now,
      }),
    ).toThrow('token algorithm "none" is not HS256');
    expect(() =>
      verifyToken(craft({ alg: "RS256", kid: keyId(KEY.run) }, claims, KEY.run), {
        accept: ["run"],
        keys,
        now,
      }),
    ).toThrow('token algorithm "RS256" is not HS256');
    expect(() =>
      verifyToken(craft({ alg: "HS256" }, claims, KEY.run), { accept: ["run"], keys, now }),
    ).toThrow("token header has no key id (kid)");
  });

  it("refuses a header or claims that are not JSON objects", () => {
    const [header = "", claims = ""] = mintToken(keys, SCOPES.run, 60, now).split(".");
    const array = Buffer.from("[1]").toString("base64url");
    expect(() => verifyToken(`${array}.${claims}.sig`, { accept: ["run"], keys, now })).toThrow(
      "token header is not a JSON object",
    );
    expect(() => verifyToken(`${header}.bm90IGpzb24.sig`, { accept: ["run"], keys, now })).toThrow(
      "token claims is not JSON",
    );
  });
});

describe("minting", () => {
  it("signs with the audience's current key, and needs one", () => {
    expect(() => mintToken({ run: { current: KEY.run } }, SCOPES.operator, 60, now)).toThrow(
      "no operator token key to sign with",
    );
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses the lifetime %j", (ttl) => {
    expect(() => mintToken(keys, SCOPES.run, ttl, now)).toThrow(RangeError);
  });
});
