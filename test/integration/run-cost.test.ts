// A finished run's estimated cost (docs/cost.md) through the local twin: the real handlers count their
// invocations on the run, finalize prices them with the run's tokens. The rule-based LLM costs nothing;
// the workflow's transitions and Lambda time do, and the transitions counted from the invocations are
// the states the execution entered by the twin's GetExecutionHistory.
import { GetExecutionHistoryCommand, type HistoryEvent, SFNClient } from "@aws-sdk/client-sfn";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import { DEFAULT_PRICE_TABLE } from "../../lambdas/core/cost.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { bootTwinWithSamples, taxReturnRequest } from "./twin-fixture.ts";

let twin: Twin;
let sfn: SFNClient;
let run: RunRecord;
let executionArn: string;

beforeAll(async () => {
  twin = await bootTwinWithSamples();
  sfn = new SFNClient({
    region: "us-east-1",
    endpoint: twin.gateway.urls.stepFunctions,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  const started = await twin.startRun(taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
  executionArn = started.executionArn;
  run = await twin.waitForRun(started.run_id);
});

afterAll(async () => {
  sfn?.destroy();
  await twin?.stop();
});

async function history(): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await sfn.send(new GetExecutionHistoryCommand({ executionArn, nextToken }));
    events.push(...(page.events ?? []));
    nextToken = page.nextToken;
  } while (nextToken);
  return events;
}

describe("the cost of a finished run", () => {
  it("is stored with SUCCEEDED: no LLM cost with the rule-based provider, Step Functions and Lambda > 0", () => {
    expect(run.status).toBe("SUCCEEDED");
    const cost = run.cost;
    expect(cost).toMatchObject({
      currency: "USD",
      estimated: true,
      prices_as_of: DEFAULT_PRICE_TABLE.as_of,
      llm: 0,
    });
    expect(cost?.breakdown.llm.priced_as).toBe("rule-based");
    // Priced by the model the run's usage recorded as answering.
    expect(run.usage.models).toEqual(["rule-based"]);
    expect(cost?.step_functions).toBeGreaterThan(0);
    expect(cost?.lambda).toBeGreaterThan(0);
    expect(cost?.breakdown.lambda.gb_seconds).toBeGreaterThan(0);
    expect(cost?.total).toBeCloseTo((cost?.llm ?? 0) + (cost?.step_functions ?? 0) + (cost?.lambda ?? 0), 9);
  });

  it("counts the states the execution entered, and one Lambda request per Task invocation", async () => {
    const events = await history();
    const entered = events.filter((event) => event.type?.endsWith("StateEntered"));
    const tasks = entered.filter((event) => event.type === "TaskStateEntered");
    const breakdown = run.cost?.breakdown;
    expect(breakdown?.step_functions.transitions).toBe(entered.length);
    expect(run.cost?.step_functions).toBeCloseTo(
      entered.length * DEFAULT_PRICE_TABLE.step_functions_per_transition,
      9,
    );
    // Plan, ReviewPlan, a Work per step, Solve, ReviewResult, Finalize: each a function invocation.
    expect(tasks.length).toBe(5 + (run.plan?.steps.length ?? 0));
    expect(breakdown?.lambda.requests).toBe(tasks.length);
  });

  it("is served on GET /v1/runs/{id} and, as a total, in GET /v1/runs", async () => {
    const got = (await (await fetch(`${twin.gateway.urls.api}/v1/runs/${run.run_id}`)).json()) as RunRecord;
    expect(got.cost).toEqual(run.cost);
    const listed = (await (await fetch(`${twin.gateway.urls.api}/v1/runs?limit=5`)).json()) as {
      runs: Array<{ run_id: string; cost?: unknown }>;
    };
    expect(listed.runs.find((item) => item.run_id === run.run_id)?.cost).toEqual({
      currency: "USD",
      total: run.cost?.total,
      estimated: true,
    });
  });
});
