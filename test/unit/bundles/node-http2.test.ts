// `node:http2` in the Lambda bundles (infra/constructs/bundling.ts BUNDLE_ALIAS,
// lambdas/runtime/node-http2.ts): a bundle holding Bedrock Runtime's client loads HTTP/2 when the
// client first sends, not when the bundle is imported, and the client then speaks HTTP/2 through
// Node's own module. The bundle is built as the stack builds it and run in a process of its own,
// against a loopback server replaying a recorded Converse response.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ESBUILD_BUNDLE_OPTIONS } from "../../../infra/constructs/bundling.ts";
import http2, { http2Loaded } from "../../../lambdas/runtime/node-http2.ts";
import { type ReplayServer, startReplayServer, wireFixture } from "../llm/wire.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const run = promisify(execFile);

// What a function does with the client: build it as lambdas/llm/index.ts does, and send one Converse.
const ENTRY = `
import { BedrockRuntimeClient, ConverseCommand } from "@aws-sdk/client-bedrock-runtime";
import { bedrockClientConfig } from "./lambdas/llm/bedrock.ts";
const loaded = () => process.moduleLoadList.includes("NativeModule http2");
export async function converse(endpoint) {
  const atImport = loaded();
  const client = new BedrockRuntimeClient({
    ...bedrockClientConfig("us-east-1"),
    endpoint,
    credentials: { accessKeyId: "AKIDWIRETEST", secretAccessKey: "wire-test-secret" },
  });
  const afterClient = loaded();
  const output = await client.send(new ConverseCommand({
    modelId: "anthropic.claude-3-5-haiku-20241022-v1:0",
    messages: [{ role: "user", content: [{ text: "Plan the evaluation." }] }],
  }));
  client.destroy();
  return { atImport, afterClient, afterSend: loaded(), text: output.output?.message?.content?.[0]?.text };
}
`;

let dir: string;
let server: ReplayServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rewoo-http2-"));
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: "ts" },
    absWorkingDir: ROOT,
    ...ESBUILD_BUNDLE_OPTIONS,
    mainFields: [...ESBUILD_BUNDLE_OPTIONS.mainFields],
    write: false,
    logLevel: "silent",
  });
  writeFileSync(join(dir, "index.mjs"), result.outputFiles[0]?.contents ?? "");
  server = await startReplayServer("h2c");
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the bundles' node:http2", () => {
  it("is loaded by the client's first request, which it then carries over HTTP/2", async () => {
    const fixture = wireFixture("bedrock/converse-success");
    server.replay(fixture);
    const script = `const { converse } = await import(${JSON.stringify(pathToFileURL(join(dir, "index.mjs")).href)}); console.log(JSON.stringify(await converse(process.env.ENDPOINT)));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      env: {
        PATH: process.env.PATH ?? "",
        ENDPOINT: server.origin,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      },
    });
    const seen = JSON.parse(stdout) as {
      atImport: boolean;
      afterClient: boolean;
      afterSend: boolean;
      text: string;
    };
    const recorded = (fixture.body as { output: { message: { content: Array<{ text: string }> } } }).output
      .message.content[0]?.text;
    expect(seen).toEqual({ atImport: false, afterClient: false, afterSend: true, text: recorded });
    expect(server.received).toHaveLength(1);
    expect(server.received[0]?.url).toMatch(/^\/model\/.+\/converse$/);
  });

  it("reads everything from Node's own module", async () => {
    expect(http2Loaded()).toBe(false);
    // What the SDK's HTTP/2 handler does when its module loads.
    const { constants } = http2;
    expect(http2Loaded()).toBe(false);
    const real = await import("node:http2");
    expect(constants.HTTP2_HEADER_PATH).toBe(real.constants.HTTP2_HEADER_PATH);
    expect(http2.constants.HTTP2_HEADER_PATH).toBe(real.constants.HTTP2_HEADER_PATH);
    expect(http2.constants.HTTP2_HEADER_METHOD).toBe(":method");
    expect(http2Loaded()).toBe(true);
    expect(http2.connect).toBe(real.connect);
    expect("connect" in http2).toBe(true);
  });
});
