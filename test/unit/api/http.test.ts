import { describe, expect, it } from "vitest";
import { bodyText, HttpError, header, publicBaseUrl, requireJsonBody } from "../../../lambdas/api/http.ts";
import { hashKey, idempotencyKeyOf, requestHash } from "../../../lambdas/api/idempotency.ts";
import { apiEvent } from "./events.ts";

describe("publicBaseUrl", () => {
  it("prefers the configured PUBLIC_API_URL", () => {
    const event = apiEvent({ method: "GET", path: "/health" });
    expect(publicBaseUrl(event, "https://api.lender.example/loans/")).toBe(
      "https://api.lender.example/loans",
    );
  });

  it("keeps the stage on the execute-api domain", () => {
    const event = apiEvent({ method: "POST", path: "/v1/evaluate-conditions", stage: "prod" });
    expect(publicBaseUrl(event, undefined)).toBe("https://abc123.execute-api.us-east-1.amazonaws.com/prod");
  });

  it("keeps a custom domain's base path, which requestContext.path carries", () => {
    const event = apiEvent({
      method: "POST",
      path: "/v1/evaluate-conditions",
      domainName: "api.lender.example",
    });
    event.requestContext.path = "/rewoo/v1/evaluate-conditions";
    expect(publicBaseUrl(event, undefined)).toBe("https://api.lender.example/rewoo");
  });

  it("uses http on loopback (the local twin's gateway)", () => {
    const event = apiEvent({ method: "POST", path: "/v1/evaluate-conditions", domainName: "127.0.0.1:3000" });
    event.requestContext.path = "/v1/evaluate-conditions";
    expect(publicBaseUrl(event, undefined)).toBe("http://127.0.0.1:3000");
  });
});

describe("request helpers", () => {
  it("reads headers case-insensitively", () => {
    const event = apiEvent({ method: "GET", path: "/health", headers: { "idempotency-KEY": "k1" } });
    expect(header(event, "Idempotency-Key")).toBe("k1");
    expect(header(event, "X-Missing")).toBeUndefined();
  });

  it("decodes base64 bodies", () => {
    const event = apiEvent({
      method: "POST",
      path: "/v1/evaluate-conditions",
      body: Buffer.from('{"a":"é"}').toString("base64"),
      isBase64Encoded: true,
    });
    expect(bodyText(event)).toBe('{"a":"é"}');
  });
});

describe("Idempotency-Key", () => {
  const withKey = (key: string) =>
    apiEvent({ method: "POST", path: "/v1/evaluate-conditions", headers: { "Idempotency-Key": key } });

  it("accepts 1..128 printable characters", () => {
    expect(idempotencyKeyOf(withKey("a"))).toBe("a");
    expect(idempotencyKeyOf(withKey("x".repeat(128)))).toBe("x".repeat(128));
    expect(idempotencyKeyOf(withKey("order 42/retry:1"))).toBe("order 42/retry:1");
    expect(idempotencyKeyOf(apiEvent({ method: "POST", path: "/" }))).toBeUndefined();
  });

  it.each(["", " ", "x".repeat(129), "tab\there", "clé", " lead", "trail "])("refuses %j", (key) => {
    expect(() => idempotencyKeyOf(withKey(key))).toThrow(
      expect.objectContaining({
        status: 400,
        fields: [expect.objectContaining({ field: "Idempotency-Key" })],
      }),
    );
  });

  it("hashes keys, and bodies by value (key order does not matter, the endpoint does)", () => {
    expect(hashKey("k")).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash("rewoo", { a: 1, b: [1, { c: 2, d: 3 }] })).toBe(
      requestHash("rewoo", { b: [1, { d: 3, c: 2 }], a: 1 }),
    );
    expect(requestHash("rewoo", { a: 1 })).not.toBe(requestHash("legacy", { a: 1 }));
    expect(requestHash("rewoo", { a: [1, 2] })).not.toBe(requestHash("rewoo", { a: [2, 1] }));
  });
});

describe("requireJsonBody", () => {
  const withType = (contentType: string | undefined, body: string | null = "{}") =>
    apiEvent({
      method: "POST",
      path: "/v1/evaluate-conditions",
      body,
      headers: contentType === undefined ? {} : { "cOnTeNt-TyPe": contentType },
    });
  const refusal = (contentType: string | undefined, body?: string | null) => {
    try {
      requireJsonBody(withType(contentType, body));
    } catch (error) {
      return error as HttpError;
    }
    return undefined;
  };

  it.each([
    "application/json",
    "Application/JSON",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    'application/json; charset="utf-8"',
  ])("accepts %j (header name in any case)", (contentType) => {
    expect(refusal(contentType)).toBeUndefined();
  });

  it("accepts a POST with neither body nor Content-Type (a cancel)", () => {
    expect(refusal(undefined, null)).toBeUndefined();
    expect(refusal(undefined, "")).toBeUndefined();
  });

  it.each([
    ["text/plain", /expected application\/json, got "text\/plain"/],
    ["application/x-www-form-urlencoded", /got "application\/x-www-form-urlencoded"/],
    ["multipart/form-data; boundary=x", /got "multipart\/form-data; boundary=x"/],
    ["application/json-patch+json", /expected application\/json/],
    ["application/json; charset=latin1", /expected charset=utf-8/],
    [undefined, /missing: a request with a body must declare Content-Type: application\/json/],
  ])("answers 415 naming Content-Type for %j", (contentType, message) => {
    const error = refusal(contentType);
    expect(error).toBeInstanceOf(HttpError);
    expect(error?.status).toBe(415);
    expect(error?.code).toBe("unsupported_media_type");
    expect(error?.fields).toEqual([{ field: "Content-Type", message: expect.stringMatching(message) }]);
  });

  it("refuses a form's empty body too: the declared type is what a cross-site form cannot change", () => {
    expect(refusal("text/plain", "")?.status).toBe(415);
  });
});
