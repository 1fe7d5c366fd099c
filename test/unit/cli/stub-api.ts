// A stand-in for the REST API and the WebSocket API, enough to drive `rewoo evaluate --api`:
// scripted answers to the start request, events revealed a few per poll, and a WebSocket that
// can drop the connection mid-run.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import type {
  InputQuestion,
  Plan,
  ProgressEvent,
  RunRecord,
  RunStatus,
} from "../../../lambdas/core/types.ts";

export const RUN_ID = "run-20260101120000-abcdef12";
export const SUBSCRIBE_TOKEN = "payload.signature";

export const plan: Plan = {
  steps: [
    { id: "E1", tool: "call_preconditions_api", args: { metadata: {} }, depends_on: [] },
    { id: "E2", tool: "retrieve_s3_document", args: { s3_path: "rm-conditions/a.pdf" }, depends_on: [] },
    {
      id: "E3",
      tool: "call_conditions_ai_api",
      args: { conditions: "{{E1.conditions}}", documents: ["rm-conditions/a.pdf"] },
      depends_on: ["E1"],
    },
  ],
  levels: [["E1", "E2"], ["E3"]],
  repairs: [],
};

export function runEvents(status: "SUCCEEDED" | "FAILED" | "CANCELLED" = "SUCCEEDED"): ProgressEvent[] {
  const bodies = [
    { stage: "plan", plan },
    { stage: "worker", step: "E1", tool: "call_preconditions_api", level: 0, status: "started" },
    { stage: "worker", step: "E2", tool: "retrieve_s3_document", level: 0, status: "started" },
    {
      stage: "worker",
      step: "E2",
      tool: "retrieve_s3_document",
      level: 0,
      status: "completed",
      duration_ms: 7,
    },
    {
      stage: "worker",
      step: "E1",
      tool: "call_preconditions_api",
      level: 0,
      status: "completed",
      duration_ms: 12,
    },
    { stage: "worker", step: "E3", tool: "call_conditions_ai_api", level: 1, status: "started" },
    status === "FAILED"
      ? {
          stage: "worker",
          step: "E3",
          tool: "call_conditions_ai_api",
          level: 1,
          status: "failed",
          duration_ms: 30,
          error: "Conditions AI answered 500",
        }
      : {
          stage: "worker",
          step: "E3",
          tool: "call_conditions_ai_api",
          level: 1,
          status: "completed",
          duration_ms: 30,
        },
    { stage: "solver", status: "started" },
    { stage: "solver", status: "completed" },
    { stage: "complete", status, ...(status === "FAILED" ? { error: "States.TaskFailed: boom" } : {}) },
  ];
  return bodies.map((body, index) => ({
    ...body,
    run_id: RUN_ID,
    seq: index + 1,
    timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, index)).toISOString(),
  })) as ProgressEvent[];
}

/** The plan after E3 failed: E1 and E2 are reused, E4 asks Conditions AI again. */
export const replannedPlan: Plan = {
  steps: [
    ...plan.steps.slice(0, 2),
    {
      id: "E4",
      tool: "call_conditions_ai_api",
      args: { conditions: "{{E1.conditions}}", documents: ["rm-conditions/a.pdf"] },
      depends_on: ["E1"],
    },
  ],
  levels: [["E1", "E2"], ["E4"]],
  repairs: [],
};

/** A run whose required step E3 failed once: replan, the new plan's E4 completes, the run succeeds. */
export function replannedRunEvents(): ProgressEvent[] {
  const firstRound = runEvents("FAILED").slice(0, 7);
  const bodies = [
    {
      stage: "replan",
      attempt: 1,
      reason: "E3 call_conditions_ai_api failed: Conditions AI answered 500",
      failed_steps: ["E3"],
    },
    { stage: "plan", plan: replannedPlan },
    { stage: "worker", step: "E4", tool: "call_conditions_ai_api", level: 1, status: "started" },
    {
      stage: "worker",
      step: "E4",
      tool: "call_conditions_ai_api",
      level: 1,
      status: "completed",
      duration_ms: 25,
    },
    { stage: "solver", status: "started" },
    { stage: "solver", status: "completed" },
    { stage: "complete", status: "SUCCEEDED" },
  ];
  return [
    ...firstRound,
    ...bodies.map((body, index) => ({
      ...body,
      run_id: RUN_ID,
      seq: firstRound.length + index + 1,
      timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, firstRound.length + index)).toISOString(),
    })),
  ] as ProgressEvent[];
}

/** The question a bank-statement run without the borrower's income asks. */
export const incomeQuestion: InputQuestion = {
  field: "borrower_info.monthly_income",
  question: "What is the borrower's gross monthly income?",
  why: "no monthly_income in metadata (borrower_info.monthly_income): cannot verify BS_LARGE_DEPOSITS",
  expected: 'a positive amount in US dollars, e.g. 8000 or "$8,000.00"',
  conditions: ["BS_LARGE_DEPOSITS"],
};

export function runRecord(status: RunStatus): RunRecord {
  return {
    run_id: RUN_ID,
    status,
    request: { metadata: {}, s3_pdf_paths: ["rm-conditions/a.pdf"] },
    plan,
    evidence: [],
    ...(status === "SUCCEEDED"
      ? {
          result: {
            summary: "1 of 1 conditions fulfilled",
            fulfilled_conditions: [{ id: "TR_SIGNED", title: "Signed", reason: "signed by Jane" }],
            unfulfilled_conditions: [],
            missing_information: [],
            recommendations: [],
          },
        }
      : {}),
    usage: { llm_calls: 2, input_tokens: 100, output_tokens: 50 },
    created_at: "2026-01-01T12:00:00.000Z",
    updated_at: "2026-01-01T12:00:10.000Z",
  };
}

export interface StubOptions {
  status?: "SUCCEEDED" | "FAILED" | "CANCELLED";
  /** Answers to the successive POSTs: a status with an error body, or "ok" for the 202. */
  startAnswers?: Array<"ok" | { status: number; body: unknown }>;
  /** "none": websocket_url null; "closed": a port nobody listens on; "live": the stub's WebSocket. */
  websocket?: "none" | "closed" | "live";
  /** Events per poll of GET /events. */
  revealPerPoll?: number;
  /** The WebSocket drops each connection after sending this many events. */
  dropAfter?: number;
  /** The WebSocket answers every subscription with this error message (`{"type": "error", …}`) and no event. */
  refuseSubscription?: string;
  /** This seq is never stored (a lost write): pages skip it, and once the run has ended serve what follows it. */
  lostSeq?: number;
}

export interface Stub {
  url: string;
  posts: Array<{ headers: IncomingMessage["headers"]; body: string }>;
  polls: number[];
  subscriptions: Array<{ url: string; message: unknown }>;
  close(): Promise<void>;
}

export async function startStub(options: StubOptions = {}): Promise<Stub> {
  const events = runEvents(options.status).filter((event) => event.seq !== options.lostSeq);
  const answers = [...(options.startAnswers ?? ["ok"])];
  const posts: Stub["posts"] = [];
  const polls: number[] = [];
  const subscriptions: Stub["subscriptions"] = [];
  let revealed = 0;
  let wsUrl: string | null = null;

  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? "/", "http://stub");
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.method === "POST" && url.pathname === "/v1/evaluate-conditions") {
      posts.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      if (answer && answer !== "ok") return send(answer.status, answer.body);
      return send(202, {
        run_id: RUN_ID,
        status: "PLANNING",
        status_url: `${origin()}/v1/runs/${RUN_ID}`,
        events_url: `${origin()}/v1/runs/${RUN_ID}/events`,
        websocket_url: wsUrl,
        subscribe_token: SUBSCRIBE_TOKEN,
      });
    }
    if (request.method === "GET" && url.pathname === `/v1/runs/${RUN_ID}/events`) {
      const after = Number(url.searchParams.get("after_seq") ?? 0);
      polls.push(after);
      revealed = Math.min(events.length, revealed + (options.revealPerPoll ?? 3));
      const ended = revealed === events.length;
      const stored = events.slice(0, revealed).filter((event) => event.seq > after);
      // As the API serves them: while the run is live only what follows after_seq without a hole.
      const page = ended ? stored : stored.filter((event, index) => event.seq === after + index + 1);
      return send(200, {
        run_id: RUN_ID,
        status: ended ? (options.status ?? "SUCCEEDED") : "RUNNING",
        events: page,
        next_after_seq: page.at(-1)?.seq ?? after,
      });
    }
    if (request.method === "GET" && url.pathname === `/v1/runs/${RUN_ID}`) {
      return send(200, runRecord(options.status ?? "SUCCEEDED"));
    }
    send(404, {
      error: { code: "not_found", message: `no such resource: ${request.method} ${url.pathname}` },
    });
  });

  const sockets = new WebSocketServer({ noServer: true });
  server.on("upgrade", (request, socket, head) => {
    sockets.handleUpgrade(request, socket, head, (ws) => {
      ws.on("message", (data) => {
        const message = JSON.parse(data.toString()) as { after_seq: number };
        subscriptions.push({ url: request.url ?? "", message });
        if (options.refuseSubscription !== undefined) {
          ws.send(JSON.stringify({ type: "error", message: options.refuseSubscription }));
          return;
        }
        // Replays one event the client already has (as a server may around a reconnect) to prove dedupe.
        const from = Math.max(0, message.after_seq - 1);
        const batch = events.filter((event) => event.seq > from);
        const limit = options.dropAfter ?? Number.POSITIVE_INFINITY;
        for (const event of batch.slice(0, limit)) ws.send(JSON.stringify(event));
        if (batch.length > limit) ws.terminate();
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (options.websocket === "live") wsUrl = `${origin().replace("http", "ws")}/ws`;
  if (options.websocket === "closed") wsUrl = "ws://127.0.0.1:9/ws";
  return {
    url: origin(),
    posts,
    polls,
    subscriptions,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
