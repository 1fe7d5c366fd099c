// The MCP server of `rewoo mcp --api <url>` in process (the SDK's in-memory transport pair) against a
// stand-in API: the tools go through the CLI's API client (its Idempotency-Key and its retries of the
// start), and what the API refuses, or an API that cannot be reached, comes back as a tool error.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../../cli/api-client.ts";
import { createMcpServer } from "../../../cli/mcp.ts";
import { RUN_ID, type Stub, startStub } from "./stub-api.ts";

let stub: Stub | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await stub?.close();
  client = undefined;
  stub = undefined;
});

async function connect(api: string): Promise<Client> {
  const server = createMcpServer(new ApiClient(api, { retryDelayMs: 1 }), { describe: `the API at ${api}` });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "rewoo-mcp-unit", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("");

describe("rewoo mcp --api", () => {
  it("starts a run under the caller's idempotency key, retrying a 503 with the same key", async () => {
    stub = await startStub({
      startAnswers: [{ status: 503, body: { error: { code: "unavailable", message: "try again" } } }, "ok"],
    });
    const mcp = await connect(stub.url);

    const result = (await mcp.callTool({
      name: "start_evaluation",
      arguments: {
        request: { metadata: {}, s3_pdf_paths: ["rm-conditions/a.pdf"] },
        idempotency_key: "loan-42",
      },
    })) as CallToolResult;

    expect(result.isError ?? false).toBe(false);
    expect(JSON.parse(textOf(result))).toEqual({
      run_id: RUN_ID,
      status: "PLANNING",
      status_url: `${stub.url}/v1/runs/${RUN_ID}`,
    });
    expect(stub.posts.map((post) => post.headers["idempotency-key"])).toEqual(["loan-42", "loan-42"]);
    expect(JSON.parse(stub.posts[0]?.body ?? "")).toEqual({
      metadata: {},
      s3_pdf_paths: ["rm-conditions/a.pdf"],
    });
  });

  it("returns the API's 400 as a tool error: its message, then each field it named", async () => {
    stub = await startStub({
      startAnswers: [
        {
          status: 400,
          body: {
            error: {
              code: "invalid_request",
              message: "invalid request: metadata.classification: required",
              fields: [{ field: "metadata.classification", message: "required" }],
            },
          },
        },
      ],
    });
    const mcp = await connect(stub.url);

    const result = (await mcp.callTool({
      name: "start_evaluation",
      arguments: { request: { metadata: {} } },
    })) as CallToolResult;

    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "POST /v1/evaluate-conditions: 400 invalid request: metadata.classification: required\nmetadata.classification: required",
    );
  });

  it("reads a run's verdicts without its evidence", async () => {
    stub = await startStub();
    const mcp = await connect(stub.url);

    const result = (await mcp.callTool({ name: "get_run", arguments: { run_id: RUN_ID } })) as CallToolResult;

    const run = JSON.parse(textOf(result));
    expect(run).toMatchObject({
      run_id: RUN_ID,
      status: "SUCCEEDED",
      verdicts: { fulfilled: 1, not_fulfilled: 0, insufficient_evidence: 0 },
      fulfilled_conditions: [{ id: "TR_SIGNED", reason: "signed by Jane" }],
      usage: { llm_calls: 2 },
    });
    expect(run).not.toHaveProperty("evidence");
  });

  it("says an API it cannot reach is unreachable, as a tool error", async () => {
    const mcp = await connect("http://127.0.0.1:9");

    const result = (await mcp.callTool({ name: "get_run", arguments: { run_id: RUN_ID } })) as CallToolResult;

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^cannot reach http:\/\/127\.0\.0\.1:9\/v1\/runs\/run-20260101120000-abcdef12: /,
    );
  });
});
