// What the Lambda bundles put in place of the SDK's credential and token chains and of `node:http`
// (infra/constructs/bundling.ts BUNDLE_ALIAS): a client given them signs with the environment's
// credentials, as it would through the SDK's own chain in Lambda, and says what is missing when
// they are not there.
import { Readable } from "node:stream";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BUNDLE_ALIAS } from "../../../infra/constructs/bundling.ts";
import { credentialsFromEnvironment, defaultProvider } from "../../../lambdas/runtime/lambda-credentials.ts";
import {
  bearerTokenVariable,
  fromEnvSigningName,
  nodeProvider,
} from "../../../lambdas/runtime/lambda-tokens.ts";
import http, { Agent, request } from "../../../lambdas/runtime/node-http.ts";

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A client whose requests stop at a handler that records their headers and answers `{}`. */
function recordingClient(headers: Array<Record<string, string>>) {
  return new DynamoDBClient({
    region: "us-east-1",
    credentialDefaultProvider: defaultProvider,
    requestHandler: {
      handle: async (req: { headers: Record<string, string> }) => {
        headers.push(req.headers);
        return {
          response: {
            statusCode: 200,
            headers: { "content-type": "application/x-amz-json-1.0" },
            body: Readable.from([Buffer.from("{}")]),
          },
        };
      },
    },
  });
}

describe("the bundles' credential provider", () => {
  it("signs with the credentials Lambda puts in the environment", async () => {
    vi.stubEnv("AWS_ACCESS_KEY_ID", "AKIDLAMBDAEXAMPLE");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "secret");
    vi.stubEnv("AWS_SESSION_TOKEN", "session-token");
    const headers: Array<Record<string, string>> = [];
    await recordingClient(headers).send(new ListTablesCommand({}));
    expect(headers).toHaveLength(1);
    expect(headers[0]?.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDLAMBDAEXAMPLE\/\d{8}\/us-east-1\/dynamodb\//,
    );
    expect(headers[0]?.["x-amz-security-token"]).toBe("session-token");
  });

  it("refuses, naming the variables, when the environment has no credentials", async () => {
    vi.stubEnv("AWS_ACCESS_KEY_ID", "");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "");
    await expect(recordingClient([]).send(new ListTablesCommand({}))).rejects.toThrow(
      /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
    );
  });

  it("carries the expiration and account the environment gives", () => {
    expect(
      credentialsFromEnvironment({
        AWS_ACCESS_KEY_ID: "a",
        AWS_SECRET_ACCESS_KEY: "b",
        AWS_CREDENTIAL_EXPIRATION: "2026-11-28T20:00:00Z",
        AWS_ACCOUNT_ID: "123456789012",
      }),
    ).toEqual({
      accessKeyId: "a",
      secretAccessKey: "b",
      expiration: new Date("2026-11-28T20:00:00Z"),
      accountId: "123456789012",
    });
  });
});

describe("the bundles' bearer-token provider", () => {
  it("reads the service's variable, as the SDK names it", async () => {
    expect(bearerTokenVariable("bedrock")).toBe("AWS_BEARER_TOKEN_BEDROCK");
    vi.stubEnv("AWS_BEARER_TOKEN_BEDROCK", "br-token");
    await expect(fromEnvSigningName({ signingName: "bedrock" })()).resolves.toEqual({ token: "br-token" });
  });

  it("says what is missing when there is no token", async () => {
    delete process.env.AWS_BEARER_TOKEN_BEDROCK;
    await expect(fromEnvSigningName({ signingName: "bedrock" })()).rejects.toThrow(
      "no bearer token: AWS_BEARER_TOKEN_BEDROCK is not set",
    );
    await expect(nodeProvider()()).rejects.toThrow(/no SSO session/);
  });
});

describe("the bundles' node:http", () => {
  it("is Node's own module", async () => {
    const real = await import("node:http");
    expect(http).toBe(real.default);
    expect(Agent).toBe(real.Agent);
    expect(request).toBe(real.request);
  });

  it("is what the aliases point at", () => {
    expect(BUNDLE_ALIAS).toEqual({
      "node:http": "./lambdas/runtime/node-http.ts",
      "node:http2": "./lambdas/runtime/node-http2.ts",
      "@aws-sdk/credential-provider-node": "./lambdas/runtime/lambda-credentials.ts",
      "@aws-sdk/token-providers": "./lambdas/runtime/lambda-tokens.ts",
    });
  });
});
