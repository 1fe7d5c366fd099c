// `rewoo mcp`: the REST API's run operations as Model Context Protocol tools over stdio, so an
// assistant (Claude Desktop, an IDE, any MCP client) can start evaluations, read verdicts and answer
// what a run waits for. Every tool goes through the CLI's API client: the API checks each input and
// its refusals come back as tool errors naming the field. stdout carries the protocol and nothing
// else; anything for a person goes to stderr.
import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { REPO_ROOT_URL } from "../infra/local/repo-root.ts";
import { verdictCounts } from "../lambdas/contracts/run-result.ts";
import { type RunRecord, UNFINISHED_STATUSES, WAITING_STATUSES } from "../lambdas/core/types.ts";
import { type ApiClient, ApiRequestError, sleep } from "./api-client.ts";
import { RunListOptionError, runListParams } from "./run-list.ts";

/** Longest a `get_run` call waits for a run to settle: under the 60 s an MCP client allows a request by default. */
export const MAX_WAIT_SECONDS = 50;
const POLL_MS = 250;
/** A run in one of these is moving on its own; anything else waits for a person or has ended. */
const MOVING_STATUSES = UNFINISHED_STATUSES.filter((status) => !WAITING_STATUSES.includes(status));

/** The command's name and the package's version, given to clients in the MCP handshake. */
const SERVER_INFO = {
  name: "rewoo",
  version: (JSON.parse(readFileSync(new URL("package.json", REPO_ROOT_URL), "utf8")) as { version: string })
    .version,
};

/**
 * The MCP server for the API at `client.baseUrl`. `describe` names the API (the local twin, or a URL)
 * in the server's instructions for the model.
 */
export function createMcpServer(client: ApiClient, options: { describe: string }): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: `Loan-condition evaluations (ReWOO agent) on ${options.describe}. Start one with start_evaluation, then get_run with wait_seconds until it ends or waits for a person; list_runs_needing_attention finds runs waiting for an answer or an approval, answer_question and decide_plan act on them.`,
  });

  server.registerTool(
    "start_evaluation",
    {
      title: "Start an evaluation",
      description:
        "POST /v1/evaluate-conditions: evaluate a loan file's conditions. `request` is the API's EvaluationRequest (metadata, instructions, s3_pdf_paths of documents already in the documents bucket, options). Returns the new run's id and status; read its verdicts with get_run.",
      inputSchema: {
        request: z
          .record(z.string(), z.unknown())
          .describe(
            'The EvaluationRequest, e.g. {"metadata": {"loan_program": "Flex Supreme", "classification": "1120 Corporate Tax Return", "borrower_info": {"name": "Jane Q. Doe"}}, "instructions": "Evaluate all loan conditions", "s3_pdf_paths": ["rm-conditions/1120-signed.pdf"]}; the API checks every field',
          ),
        idempotency_key: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe("Sent as Idempotency-Key: the same key and request start one run, however often sent"),
      },
    },
    ({ request, idempotency_key }) =>
      answered(async () => {
        const started = await client.start(
          request,
          idempotency_key !== undefined ? { idempotencyKey: idempotency_key } : {},
        );
        return {
          run_id: started.run_id,
          status: started.status,
          status_url: started.status_url,
          ...(started.session_id !== undefined ? { session_id: started.session_id } : {}),
        };
      }),
  );

  server.registerTool(
    "get_run",
    {
      title: "Read a run and its verdicts",
      description: `GET /v1/runs/{run_id}: the run's status, its verdicts (fulfilled, not fulfilled, insufficient evidence, each with its reason and citations), what it waits for (a question, a plan to approve), its error, usage and cost. With wait_seconds, waits up to that long (at most ${MAX_WAIT_SECONDS}) for the run to end or to wait for a person.`,
      inputSchema: {
        run_id: z.string().min(1).describe("The run's id, as start_evaluation returned it"),
        wait_seconds: z
          .number()
          .int()
          .min(0)
          .max(MAX_WAIT_SECONDS)
          .optional()
          .describe("Wait this long at most for the run to settle (0 or absent: answer at once)"),
      },
      annotations: { readOnlyHint: true },
    },
    ({ run_id, wait_seconds }) =>
      answered(async () => runView(await settledRun(client, run_id, (wait_seconds ?? 0) * 1000))),
  );

  server.registerTool(
    "list_runs_needing_attention",
    {
      title: "List runs that need a person",
      description:
        "GET /v1/runs filtered to the runs that need a person: waiting for an answer (AWAITING_INPUT) or an approval (AWAITING_APPROVAL), or FAILED/INTERRUPTED and resumable; newest first, over the last 30 days unless `from` says otherwise.",
      inputSchema: {
        limit: z.number().int().min(1).max(100).optional().describe("How many (1-100, default 20)"),
        from: z.string().optional().describe("First creation day (UTC), YYYY-MM-DD"),
        to: z.string().optional().describe("Last creation day (UTC), YYYY-MM-DD"),
        cursor: z.string().optional().describe("The next_cursor of the previous page"),
      },
      annotations: { readOnlyHint: true },
    },
    ({ limit, from, to, cursor }) =>
      answered(() =>
        client.listRuns(
          runListParams({
            limit: limit ?? 20,
            needsYou: true,
            ...(from !== undefined ? { from } : {}),
            ...(to !== undefined ? { to } : {}),
            ...(cursor !== undefined ? { cursor } : {}),
          }),
        ),
      ),
  );

  server.registerTool(
    "answer_question",
    {
      title: "Answer a run's question",
      description:
        "POST /v1/runs/{run_id}/input: answer the question of a run in AWAITING_INPUT. `answers` maps each asked field (get_run shows them, e.g. borrower_info.monthly_income) to its value; the run goes on with them.",
      inputSchema: {
        run_id: z.string().min(1).describe("The run that waits for input"),
        answers: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
          .describe('Each asked field and its value, e.g. {"borrower_info.monthly_income": 8000}'),
      },
    },
    ({ run_id, answers }) => answered(() => client.answer(run_id, answers)),
  );

  server.registerTool(
    "decide_plan",
    {
      title: "Approve or reject a plan",
      description:
        "POST /v1/runs/{run_id}/approval: approve the plan of a run in AWAITING_APPROVAL (its tools run) or reject it (no tool runs, the run ends REJECTED; a reason is required).",
      inputSchema: {
        run_id: z.string().min(1).describe("The run whose plan waits for approval"),
        decision: z.enum(["approve", "reject"]),
        reason: z.string().optional().describe("Why; required to reject"),
      },
    },
    ({ run_id, decision, reason }) =>
      answered(() => client.decide(run_id, reason !== undefined ? { decision, reason } : { decision })),
  );

  return server;
}

/** The run once it no longer moves on its own, or as it is after `waitMs`. */
async function settledRun(client: ApiClient, runId: string, waitMs: number): Promise<RunRecord> {
  const until = Date.now() + waitMs;
  for (;;) {
    const record = await client.getRun(runId);
    if (!MOVING_STATUSES.includes(record.status) || Date.now() >= until) return record;
    await sleep(Math.min(POLL_MS, Math.max(0, until - Date.now())));
  }
}

/**
 * What a caller needs of a run record: its verdicts and what it waits for, without the evidence
 * (every tool output, often far larger than the rest).
 */
export function runView(record: RunRecord): Record<string, unknown> {
  const waitsFor =
    record.status === "AWAITING_INPUT" && record.clarification
      ? { question: record.clarification.questions, deadline: record.clarification.deadline }
      : record.status === "AWAITING_APPROVAL"
        ? { approval: record.approval, plan: record.plan?.steps, plan_review: record.plan_review }
        : undefined;
  return {
    run_id: record.run_id,
    status: record.status,
    ...(waitsFor ? { waits_for: waitsFor } : {}),
    ...(record.result
      ? {
          verdicts: verdictCounts(record.result),
          summary: record.result.summary,
          fulfilled_conditions: record.result.fulfilled_conditions,
          unfulfilled_conditions: record.result.unfulfilled_conditions,
          missing_information: record.result.missing_information,
          recommendations: record.result.recommendations,
          ...(record.result.applicable_conditions
            ? { applicable_conditions: record.result.applicable_conditions }
            : {}),
        }
      : {}),
    ...(record.result_review ? { result_review: record.result_review } : {}),
    ...(record.error ? { error: record.error } : {}),
    ...(record.approval && !waitsFor ? { approval: record.approval } : {}),
    ...(record.clarification && !waitsFor ? { clarification: record.clarification } : {}),
    usage: record.usage,
    ...(record.cost ? { cost: record.cost } : {}),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/**
 * The tool's answer as JSON text, or a tool error (isError) with the API's message and the fields it
 * named, one per line, so the model can correct the input and call again.
 */
async function answered(act: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    const value = await act();
    return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }] };
  } catch (error) {
    if (error instanceof ApiRequestError) {
      const fields = error.fields.map((problem) => `${problem.field}: ${problem.message}`);
      return {
        isError: true,
        content: [{ type: "text", text: [error.message, ...fields].join("\n") }],
      };
    }
    if (error instanceof RunListOptionError) {
      return { isError: true, content: [{ type: "text", text: error.message }] };
    }
    throw error;
  }
}

/**
 * Serves `client`'s API over stdio until the client closes the connection (stdin ends) or the
 * process is told to stop. Resolves with the exit code.
 */
export async function serveMcp(client: ApiClient, options: { describe: string }): Promise<number> {
  const server = createMcpServer(client, options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await server.connect(transport);
  process.stderr.write(`rewoo mcp: serving ${options.describe} over stdio\n`);
  await closed;
  await server.close();
  return 0;
}
