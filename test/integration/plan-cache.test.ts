// The plan cache through the twin (REWOO_PLAN_CACHE=on): the second request of a shape runs the first
// one's plan, filled in with its own metadata and documents, without a planner call, to the verdicts a
// fresh plan gives; options.plan_cache false bypasses the cache; a request of another shape misses it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { shapeKeyOf } from "../../lambdas/planner/plan-cache.ts";
import { PlanCacheStore } from "../../lambdas/store/plan-cache.ts";
import {
  bankRequestWithoutIncome,
  bootTwinWithSamples,
  post,
  taxReturnRequest,
  untilEvent,
  untilStatus,
} from "./twin-fixture.ts";

let twin: Twin;

beforeAll(async () => {
  twin = await bootTwinWithSamples({ REWOO_PLAN_CACHE: "on", REWOO_CLARIFICATION: "never" });
}, 120_000);

afterAll(async () => {
  await twin?.stop();
});

const run = async (request: object): Promise<RunRecord> =>
  twin.waitForRun((await twin.startRun(request)).run_id) as Promise<RunRecord>;

const planEvents = async (record: RunRecord) =>
  (await twin.services.runs.listEvents(record.run_id)).filter((event) => event.stage === "plan").length;

/** The same shape as taxReturnRequest: another borrower, another return. */
function anotherBorrower(extra: Record<string, unknown> = {}) {
  const request = taxReturnRequest(["rm-conditions/1120-unsigned.pdf"], extra);
  request.metadata.borrower_info = {
    name: "Rafael Ortiz",
    business_name: "Ortiz Freight LLC",
    monthly_income: 12500,
  };
  request.metadata.extracted_entities = { ein: "98-7654321", tax_year: 2023 };
  return request;
}

describe("the plan cache", () => {
  let first: RunRecord;
  let cached: RunRecord;
  let fresh: RunRecord;

  beforeAll(async () => {
    first = await run(taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
    cached = await run(anotherBorrower());
    fresh = await run(anotherBorrower({ options: { plan_cache: false } }));
  }, 120_000);

  it("stores the first run's plan with none of its borrower's data", async () => {
    expect(first.status).toBe("SUCCEEDED");
    expect(first.plan_source).toBe("planner");
    const { key } = shapeKeyOf(first.request, undefined, twin.services);
    const { config, clients } = twin.services;
    const stored = await new PlanCacheStore(clients.ddb, config.runsTable).get(key);
    expect(stored?.source_run_id).toBe(first.run_id);
    const text = JSON.stringify(stored);
    for (const value of ["Jane", "Doe", "Acme", "8000", "12-3456789", "1120-signed", "rm-conditions"]) {
      expect(text).not.toContain(value);
    }
    expect(stored?.template.steps.map((step) => step.tool)).toEqual(
      first.plan?.steps.map((step) => step.tool),
    );
  });

  it("runs the second request of the shape on the cached plan, without a planner call", () => {
    expect(cached.status).toBe("SUCCEEDED");
    expect(cached.plan_source).toBe("cache");
    // The rule-based provider counts its planner and solver calls like a model's: the solver's is left.
    expect(first.usage.llm_calls).toBe(2);
    expect(cached.usage.llm_calls).toBe(1);
    expect(cached.usage.input_tokens).toBeLessThan(fresh.usage.input_tokens);
    const plan = JSON.stringify(cached.plan);
    expect(plan).toContain("rm-conditions/1120-unsigned.pdf");
    expect(plan).toContain("Rafael Ortiz");
    for (const value of ["Jane", "Acme", "1120-signed"]) expect(plan).not.toContain(value);
  });

  it("gives the plan and the verdicts a fresh plan gives (options.plan_cache false: the planner plans)", async () => {
    expect(fresh.status).toBe("SUCCEEDED");
    expect(fresh.plan_source).toBe("planner");
    expect(fresh.usage.llm_calls).toBe(2);
    expect(cached.plan?.steps).toEqual(fresh.plan?.steps);
    expect(cached.plan?.scope).toEqual(fresh.plan?.scope);
    expect(cached.result).toEqual(fresh.result);
    expect(cached.result?.unfulfilled_conditions.map((finding) => finding.id)).toContain("TR_SIGNED");
    expect(await planEvents(cached)).toBe(1);
  });

  it("misses for a request of another shape", async () => {
    const bank = await run(bankRequestWithoutIncome());
    expect(bank.plan_source).toBe("planner");
    expect(bank.usage.llm_calls).toBe(2);
    const twoReturns = await run(
      taxReturnRequest(["rm-conditions/1120-signed.pdf", "rm-conditions/1120-unsigned.pdf"]),
    );
    expect(twoReturns.plan_source).toBe("planner");
  });

  it("serves plan_source on GET /v1/runs/{id}", async () => {
    const got = (await (
      await fetch(`${twin.gateway.urls.api}/v1/runs/${cached.run_id}`)
    ).json()) as RunRecord;
    expect(got.plan_source).toBe("cache");
  });
});

describe("a plan a person edits", () => {
  // A shape of its own: the signature only.
  const signatureOnly = (extra: Record<string, unknown> = {}) =>
    taxReturnRequest(["rm-conditions/1120-signed.pdf"], {
      instructions: "Only check the signature of the return",
      ...extra,
    });

  it("is never stored; the next run of its shape asks the planner, and its plan is stored", async () => {
    const { run_id } = await twin.startRun(signatureOnly({ options: { approval: "required" } }));
    await untilStatus(twin, run_id, "AWAITING_APPROVAL");
    await untilEvent(twin, run_id, "approval");
    const waiting = (await twin.services.runs.getRun(run_id)) as RunRecord;
    const steps = (waiting.plan?.steps ?? []).map(({ id, tool, args, depends_on, description }) => ({
      id,
      tool,
      args,
      depends_on,
      description: `${description} (checked by hand)`,
    }));
    const edited = await post(twin.urls.api, `/v1/runs/${run_id}/approval`, {
      decision: "edit",
      plan: steps,
      reason: "annotated",
    });
    expect(edited.status).toBe(202);
    const done = await twin.waitForRun(run_id);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.plan_source).toBe("planner");

    const next = await run(signatureOnly());
    expect(next.plan_source).toBe("planner");
    expect(JSON.stringify(next.plan)).not.toContain("checked by hand");
    const after = await run(signatureOnly());
    expect(after.plan_source).toBe("cache");
    expect(after.plan?.steps).toEqual(next.plan?.steps);
  });
});

describe("a stored template the validator refuses", () => {
  it("is not run: the planner plans, and its plan replaces the template", async () => {
    const request = taxReturnRequest(["rm-conditions/1120-signed.pdf"], { options: { max_steps: 6 } });
    const { key } = shapeKeyOf(request, undefined, twin.services);
    const { config, clients } = twin.services;
    const cache = new PlanCacheStore(clients.ddb, config.runsTable);
    await cache.put(
      key,
      {
        version: 1,
        steps: [{ id: "E1", tool: "drop_tables", args: { table: "{{request.document#0}}" }, depends_on: [] }],
      },
      "run-planted",
    );
    const record = await run(request);
    expect(record.status).toBe("SUCCEEDED");
    expect(record.plan_source).toBe("planner");
    expect(record.usage.llm_calls).toBe(2);
    expect(record.plan?.steps.map((step) => step.tool)).not.toContain("drop_tables");
    expect((await cache.get(key))?.source_run_id).toBe(record.run_id);
  });
});

describe("options.plan_cache", () => {
  it("is validated like the other options", async () => {
    const response = await fetch(`${twin.gateway.urls.api}/v1/evaluate-conditions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        taxReturnRequest(["rm-conditions/1120-signed.pdf"], { options: { plan_cache: "no" } }),
      ),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { details?: Array<{ field: string; message: string }> };
    expect(JSON.stringify(body)).toContain("options.plan_cache");
    expect(JSON.stringify(body)).toContain("expected true or false");
  });
});
