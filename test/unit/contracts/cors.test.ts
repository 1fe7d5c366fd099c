// CORS origins: the patterns a deployment allows, the one matcher the API function, the CDK preflight
// and the twin share, the configuration that refuses a malformed pattern, and the headers the API
// function adds to its answers.
import { describe, expect, it } from "vitest";
import { corsHeaders, errorResult, HttpError, json, withCors } from "../../../lambdas/api/http.ts";
import {
  LOCAL_ALLOWED_ORIGINS,
  originAllowed,
  originPatternProblem,
  originPatternSource,
} from "../../../lambdas/contracts/cors.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import { apiEvent } from "../api/events.ts";

const CLOUDFRONT = ["https://d111abcdef8.cloudfront.net", "https://*.cloudfront.net"];

describe("originAllowed", () => {
  it("matches an exact origin and nothing that merely starts or ends like it", () => {
    const allowed = ["https://loans.example.com"];
    expect(originAllowed("https://loans.example.com", allowed)).toBe(true);
    expect(originAllowed("http://loans.example.com", allowed)).toBe(false);
    expect(originAllowed("https://loans.example.com.evil.test", allowed)).toBe(false);
    expect(originAllowed("https://loans.example.com:8443", allowed)).toBe(false);
    expect(originAllowed(undefined, allowed)).toBe(false);
    expect(originAllowed("null", allowed)).toBe(false);
  });

  it("lets one * stand for one DNS label, never a dot, a slash or nothing", () => {
    const allowed = ["https://*.cloudfront.net"];
    expect(originAllowed("https://d111abcdef8.cloudfront.net", allowed)).toBe(true);
    expect(originAllowed("https://a.b.cloudfront.net", allowed)).toBe(false);
    expect(originAllowed("https://.cloudfront.net", allowed)).toBe(false);
    expect(originAllowed("https://evil.test/.cloudfront.net", allowed)).toBe(false);
    expect(originAllowed("https://evilxcloudfront.net", allowed)).toBe(false);
    expect(originAllowed("http://d111abcdef8.cloudfront.net", allowed)).toBe(false);
  });

  it("lets the twin's defaults match any local port and no other host", () => {
    expect(originAllowed("http://127.0.0.1:5173", LOCAL_ALLOWED_ORIGINS)).toBe(true);
    expect(originAllowed("http://localhost:8080", LOCAL_ALLOWED_ORIGINS)).toBe(true);
    expect(originAllowed("http://127.0.0.1", LOCAL_ALLOWED_ORIGINS)).toBe(false);
    expect(originAllowed("http://localhost.evil.test:80", LOCAL_ALLOWED_ORIGINS)).toBe(false);
    expect(originAllowed("https://127.0.0.1:5173", LOCAL_ALLOWED_ORIGINS)).toBe(false);
  });

  it("writes patterns without backslashes, so API Gateway's Java matcher reads them the same", () => {
    expect(originPatternSource("https://*.cloudfront.net")).toBe("https://[A-Za-z0-9-]+[.]cloudfront[.]net");
    expect(originPatternSource("http://localhost:*")).toBe("http://localhost:[A-Za-z0-9-]+");
  });
});

describe("origin patterns in the configuration", () => {
  const base = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "docs", ARTIFACTS_BUCKET: "artifacts" };

  it("parses a comma list into the API's allowed origins (none when unset)", () => {
    expect(parseConfig(base).api.allowedOrigins).toEqual([]);
    const config = parseConfig({ ...base, REWOO_ALLOWED_ORIGINS: ` ${CLOUDFRONT.join(" , ")} ` });
    expect(config.api.allowedOrigins).toEqual(CLOUDFRONT);
  });

  it("refuses what is not an origin, naming the setting and the pattern", () => {
    for (const bad of [
      "*",
      "https://a.*.*",
      "https://loans.example.com/",
      "loans.example.com",
      "HTTPS://X.COM",
    ]) {
      expect(originPatternProblem(bad), bad).toBeDefined();
      expect(() => parseConfig({ ...base, REWOO_ALLOWED_ORIGINS: bad }), bad).toThrow(
        /REWOO_ALLOWED_ORIGINS: .*is not an origin|more than one/,
      );
    }
  });
});

describe("the API function's CORS headers", () => {
  const from = (origin?: string) =>
    apiEvent({ method: "GET", path: "/v1/runs", headers: origin ? { Origin: origin } : {} });

  it("echoes an allowed Origin with Vary: Origin, and only Vary for another one", () => {
    expect(corsHeaders(from("https://d111abcdef8.cloudfront.net"), CLOUDFRONT)).toEqual({
      "access-control-allow-origin": "https://d111abcdef8.cloudfront.net",
      vary: "Origin",
    });
    expect(corsHeaders(from("https://evil.test"), CLOUDFRONT)).toEqual({ vary: "Origin" });
    expect(corsHeaders(from(), CLOUDFRONT)).toEqual({ vary: "Origin" });
    expect(corsHeaders(from("https://d111abcdef8.cloudfront.net"), [])).toEqual({});
  });

  it("marks error answers too, keeping their own headers", () => {
    const refused = errorResult(
      new HttpError(405, "method_not_allowed", "use GET", undefined, { Allow: "GET" }),
    );
    const answer = withCors(refused, from("http://localhost:4000"), LOCAL_ALLOWED_ORIGINS);
    expect(answer.statusCode).toBe(405);
    expect(answer.headers).toMatchObject({
      Allow: "GET",
      "content-type": "application/json",
      "access-control-allow-origin": "http://localhost:4000",
      vary: "Origin",
    });
    expect(JSON.parse(answer.body).error.code).toBe("method_not_allowed");
  });

  it("replaces a header the handler set under another case instead of sending two", () => {
    const answer = withCors(
      json(200, {}, { "Access-Control-Allow-Origin": "*" }),
      from("http://localhost:4000"),
      LOCAL_ALLOWED_ORIGINS,
    );
    expect(answer.headers?.["Access-Control-Allow-Origin"]).toBeUndefined();
    expect(answer.headers?.["access-control-allow-origin"]).toBe("http://localhost:4000");
  });
});
