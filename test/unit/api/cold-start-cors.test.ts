// The API function's answer when its configuration is invalid (every request fails the same way):
// still marked for an allowed browser origin, so the dashboard on another origin can read
// server_misconfigured instead of an opaque CORS failure. The environment is set before the handler
// module loads, as Lambda's would be.
import type { APIGatewayProxyResult } from "aws-lambda";
import { beforeAll, describe, expect, it } from "vitest";
import { apiEvent } from "./events.ts";

let handler: (event: unknown) => Promise<APIGatewayProxyResult>;
beforeAll(async () => {
  // RUNS_TABLE is missing, and one pattern is malformed: the rest of the setting still applies.
  delete process.env.RUNS_TABLE;
  Object.assign(process.env, {
    DOCUMENTS_BUCKET: "docs",
    ARTIFACTS_BUCKET: "artifacts",
    REWOO_ALLOWED_ORIGINS: "https://loans.example.com,https://bad.example/path",
    POWERTOOLS_LOG_LEVEL: "SILENT",
  });
  ({ handler } = (await import("../../../lambdas/api/index.ts")) as unknown as {
    handler: typeof handler;
  });
});

describe("the API function with an invalid configuration", () => {
  it("answers 500 server_misconfigured, with the CORS headers of an allowed origin", async () => {
    const answer = await handler(
      apiEvent({ method: "GET", path: "/v1/runs", headers: { Origin: "https://loans.example.com" } }),
    );
    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body).error.code).toBe("server_misconfigured");
    expect(answer.headers).toMatchObject({
      "access-control-allow-origin": "https://loans.example.com",
      vary: "Origin",
    });
  });

  it("does not mark the answer for an origin outside the setting", async () => {
    const answer = await handler(
      apiEvent({ method: "GET", path: "/v1/runs", headers: { Origin: "https://bad.example" } }),
    );
    expect(answer.statusCode).toBe(500);
    expect(answer.headers?.["access-control-allow-origin"]).toBeUndefined();
  });
});
