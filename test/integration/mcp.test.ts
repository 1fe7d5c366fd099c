// `rewoo mcp --local` as an MCP client runs it: the SDK's own client spawns the command over stdio,
// lists its tools, starts an evaluation of a sample loan file through the twin the command booted,
// reads its verdicts, takes a run that waits for approval from the list of runs that need a person
// to its end, answers a run's question, and gets the API's refusals of bad inputs back as tool
// errors naming the field.
import { mkdtempSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../lambdas/contracts/api-types.ts";
import { bankRequestWithoutIncome, taxReturnRequest } from "./twin-fixture.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const SIGNED = "rm-conditions/1120-signed.pdf";
const dataDir = mkdtempSync(join(tmpdir(), "rewoo-mcp-"));
let client: Client;
let stderr = "";
/** Anything the client could not read as a protocol message (a stray line on the server's stdout). */
const protocolErrors: Error[] = [];

beforeAll(async () => {
  const {
    REWOO_TOOL_LATENCY_MS: _latency,
    REWOO_FAULTS: _faults,
    ...inherited
  } = process.env as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["bin/rewoo.mjs", "mcp", "--local"],
    cwd: root,
    env: { ...inherited, NO_COLOR: "1", REWOO_DATA_DIR: dataDir },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  client = new Client({ name: "rewoo-mcp-test", version: "1.0.0" });
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
}, 180_000);

afterAll(async () => {
  await client?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("");

/** A tool's JSON answer; fails the test with the tool's own message when it answered an error. */
async function call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
  })) as CallToolResult;
  const text = textOf(result);
  expect(result.isError ?? false, text).toBe(false);
  return JSON.parse(text) as Record<string, unknown>;
}

/** get_run until the run no longer moves on its own. */
async function settled(runId: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const run = await call("get_run", { run_id: runId, wait_seconds: 20 });
    if (!["PLANNING", "RUNNING", "SOLVING"].includes(run.status as string)) return run;
  }
  throw new Error(`run ${runId} did not settle`);
}

describe("rewoo mcp --local", () => {
  it("introduces itself as rewoo, at the package's version", () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(client.getServerVersion()).toMatchObject({ name: "rewoo", version });
  });

  it("lists the run tools with their input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "answer_question",
      "decide_plan",
      "get_run",
      "list_runs_needing_attention",
      "start_evaluation",
    ]);
    const start = tools.find((tool) => tool.name === "start_evaluation");
    expect(start?.inputSchema.required).toEqual(["request"]);
    const decide = tools.find((tool) => tool.name === "decide_plan");
    expect(decide?.inputSchema.properties?.decision).toMatchObject({ enum: ["approve", "reject"] });
  });

  it("starts an evaluation of the signed sample return and reads its verdicts", {
    timeout: 180_000,
  }, async () => {
    const started = await call("start_evaluation", { request: taxReturnRequest([SIGNED]) });
    expect(started.run_id).toMatch(/\S/);
    const run = await settled(started.run_id as string);
    expect(run.status).toBe("SUCCEEDED");
    const fulfilled = (run.fulfilled_conditions as Array<{ id: string }>).map((finding) => finding.id);
    expect(fulfilled).toContain("TR_SIGNED");
    expect(run.verdicts).toMatchObject({ fulfilled: fulfilled.length });
    expect((run.usage as { llm_calls: number }).llm_calls).toBeGreaterThanOrEqual(0);
    // The evidence (every tool output) stays out of the tool's answer.
    expect(run).not.toHaveProperty("evidence");
  });

  it("lists a run that waits for approval as needing a person, approves it and reads the run to its end", {
    timeout: 180_000,
  }, async () => {
    const started = await call("start_evaluation", {
      request: taxReturnRequest([SIGNED], { options: { approval: "required" } }),
    });
    const runId = started.run_id as string;
    const waiting = await settled(runId);
    expect(waiting.status).toBe("AWAITING_APPROVAL");
    expect(waiting.waits_for).toMatchObject({ approval: { status: "pending" } });

    const needing = await call("list_runs_needing_attention", {});
    const listed = (needing.runs as RunSummary[]).find((run) => run.run_id === runId);
    expect(listed?.status).toBe("AWAITING_APPROVAL");

    const decided = await call("decide_plan", { run_id: runId, decision: "approve", reason: "looks right" });
    expect(decided.approval).toMatchObject({ status: "approved", reason: "looks right" });
    const ended = await settled(runId);
    expect(ended.status).toBe("SUCCEEDED");
    expect((ended.fulfilled_conditions as Array<{ id: string }>).map((finding) => finding.id)).toContain(
      "TR_SIGNED",
    );
  });

  it("answers the question of a run waiting for input: a wrong answer is a tool error naming the field, a right one moves the run on", {
    timeout: 180_000,
  }, async () => {
    const started = await call("start_evaluation", { request: bankRequestWithoutIncome() });
    const runId = started.run_id as string;
    const waiting = await settled(runId);
    expect(waiting.status).toBe("AWAITING_INPUT");
    const questions = (waiting.waits_for as { question: Array<{ field: string }> }).question;
    expect(questions.map((question) => question.field)).toEqual(["borrower_info.monthly_income"]);

    const wrong = (await client.callTool({
      name: "answer_question",
      arguments: { run_id: runId, answers: { "borrower_info.monthly_income": "about eight grand" } },
    })) as CallToolResult;
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(
      /^answers\.borrower_info\.monthly_income: expected a positive amount in US dollars/m,
    );

    const accepted = await call("answer_question", {
      run_id: runId,
      answers: { "borrower_info.monthly_income": 8000 },
    });
    expect(accepted.clarification).toMatchObject({ status: "answered" });
    expect((await settled(runId)).status).toBe("SUCCEEDED");
  });

  it("answers a request the API refuses with a tool error naming the field, and starts no run", async () => {
    const result = (await client.callTool({
      name: "start_evaluation",
      arguments: { request: taxReturnRequest(["rm-conditions/1120-signed.pdf\u0000.txt"]) },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^POST \/v1\/evaluate-conditions: 400 /);
    expect(text).toMatch(/^s3_pdf_paths\[0\]: .*control character U\+0000/m);
  });

  it("refuses an input outside its schema with a tool error naming the argument", async () => {
    const result = (await client.callTool({
      name: "get_run",
      arguments: { run_id: "r-1", wait_seconds: 600 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain("wait_seconds");
  });

  it("wrote nothing but protocol messages on stdout", () => {
    expect(protocolErrors).toEqual([]);
    expect(stderr).toContain("rewoo mcp: serving the local twin");
  });
});
